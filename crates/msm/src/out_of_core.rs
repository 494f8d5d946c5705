//! Out-of-core MSMs: points (and scalars) streamed from their files a chunk
//! at a time under a memory budget, one partial MSM per chunk, the partials
//! summed. MSM is linear, so the sum is exact:
//! sum_i s_i P_i = sum_chunks sum_{i in chunk} s_i P_i.
//!
//! Memory: one chunk's bytes, decoded points, prepared points, scalars,
//! digits and buckets are alive at a time; the chunk size is the budget over
//! a per-point cost ([`BYTES_PER_POINT`]), less a reserve for the buckets
//! ([`bucket_reserve`]). Peak RSS is the budget plus the process's own
//! footprint before the first chunk (code, thread stacks, allocator), the
//! stated constant of docs/SCALE.md.

use crate::backend::choice::BackendChoice;
use crate::builder::{EngineCurve, MsmBuilder};
use crate::error::MsmError;
use crate::input::bytes::{decode_point_run, decode_scalar_run};
use crate::input::io::{detect_layout, PointsLayout, LENGTH_PREFIX_BYTES, SCALAR_BYTES};
use crate::input::record::{BadRecord, Input, LayoutFault, RecordFault};
use crate::input::scalars::ScalarEndian;
use crate::input::validate::Validation;
use crate::input::InputCurve;
use crate::pipeline::glv::GlvMode;
use crate::pipeline::plan::Plan;
use crate::prepared::FileKind;
use crate::timing::PhaseTimings;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;
use zkmsm_curve::{PointFormat, Xyzz};

/// Bytes one point costs while its chunk is processed: the encoded point and
/// scalar read from the files, the decoded point, the backend's prepared copy
/// (twisted Edwards and the IFMA engine keep a converted form beside it), the
/// scalar limbs and the per-window digits. Measured: docs/SCALE.md.
pub const BYTES_PER_POINT: usize = 768;

/// As [`BYTES_PER_POINT`] with GLV: twice it (the images double the
/// decoded and the prepared points and the digits; the encoded inputs and
/// the scalars do not, so this is an upper bound). Measured: docs/SCALE.md.
pub const BYTES_PER_POINT_GLV: usize = 2 * BYTES_PER_POINT;

/// Smallest chunk worth an MSM of its own.
pub const MIN_CHUNK_POINTS: usize = 1 << 10;

/// Memory for bucket arrays: one window's buckets per thread, with the
/// window capped at 12 bits (2^11 buckets of at most 4 coordinates).
pub fn bucket_reserve() -> usize {
    rayon::current_num_threads() * (1 << 11) * 4 * 48
}

/// Points per chunk for a budget of `budget` bytes, or an error saying the
/// least budget that works.
pub fn chunk_points(budget: usize) -> Result<usize, MsmError> {
    chunk_points_for(budget, false)
}

/// As [`chunk_points`], with GLV's cost per point ([`BYTES_PER_POINT_GLV`]) when `glv`.
pub fn chunk_points_for(budget: usize, glv: bool) -> Result<usize, MsmError> {
    let per_point = if glv { BYTES_PER_POINT_GLV } else { BYTES_PER_POINT };
    let least = bucket_reserve() + MIN_CHUNK_POINTS * per_point;
    if budget < least {
        return Err(MsmError::Unsupported(format!(
            "memory budget {budget} bytes is below the least that works{}: {least} bytes ({} MiB)",
            if glv { " with GLV" } else { "" },
            // rounded up to hundredths: the figure shown is always enough
            (least as f64 / (1u64 << 20) as f64 * 100.0).ceil() / 100.0
        )));
    }
    Ok((budget - bucket_reserve()) / per_point)
}

/// Parse a byte count: `16777216`, `16M`, `16MiB`, `1.5G`, `512k` (powers
/// of 1024).
pub fn parse_bytes(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let scale: f64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kib" | "kb" => 1024.0,
        "m" | "mib" | "mb" => 1024.0 * 1024.0,
        "g" | "gib" | "gb" => 1024.0 * 1024.0 * 1024.0,
        "t" | "tib" | "tb" => 1024f64.powi(4),
        _ => return Err(format!("{s:?}: unknown unit {unit:?} (use bytes, K, M, G or T)")),
    };
    let v: f64 = num.trim().parse().map_err(|_| format!("{s:?} is not a byte count (e.g. 16777216, 64M, 1.5G)"))?;
    if !(v >= 0.0 && v.is_finite()) {
        return Err(format!("{s:?} is not a byte count"));
    }
    Ok((v * scale) as usize)
}

/// How [`msm_files`] runs.
#[derive(Debug, Clone, Copy)]
pub struct OutOfCoreOptions {
    /// Memory for the chunks, in bytes (see the module docs).
    pub budget: usize,
    /// The points' encoding; detected from the file sizes when `None`.
    pub format: Option<PointFormat>,
    /// Bucket-accumulation backend for each chunk.
    pub backend: BackendChoice,
    /// What to check of the points (default: curve and subgroup).
    pub validation: Validation,
    /// GLV in each chunk: `On` with the images made chunk by chunk (twice
    /// the memory a point, so half the points a chunk); `Auto` and `Off`
    /// without (GLV under a budget is not measured: `Auto` stays off).
    pub glv: GlvMode,
    /// Window size c of each chunk's MSM (`None`: the cost model's).
    pub window: Option<u32>,
    /// Byte order of the scalars (default little-endian).
    pub scalar_endian: ScalarEndian,
}

impl OutOfCoreOptions {
    /// Defaults (auto backend, full validation, format detected) for `budget` bytes.
    pub fn with_budget(budget: usize) -> Self {
        Self {
            budget,
            format: None,
            backend: BackendChoice::Auto,
            validation: Validation::Full,
            glv: GlvMode::Auto,
            window: None,
            scalar_endian: ScalarEndian::Little,
        }
    }
}

/// An out-of-core MSM's result and how it was split.
#[derive(Debug, Clone)]
pub struct OutOfCoreOutput<C: InputCurve> {
    /// The MSM.
    pub result: Xyzz<C>,
    /// Number of points.
    pub n: usize,
    /// Points per chunk (the last may hold fewer).
    pub chunk_points: usize,
    /// Number of chunks.
    pub chunks: usize,
    /// The points file's layout.
    pub layout: PointsLayout,
    /// The bucket-accumulation backends the chunks ran, each named once, in
    /// the order first used: one, unless a shorter last chunk made `auto`
    /// choose another.
    pub backends: Vec<&'static str>,
    /// Whether the chunks ran GLV.
    pub glv: bool,
    /// The first chunk's plan (window c, windows); `None` without points.
    pub plan: Option<Plan>,
    /// Each phase's time, summed over the chunks.
    pub timings: PhaseTimings,
    /// Reading, decoding and validating the chunks, in all.
    pub load: std::time::Duration,
    /// Building the chunks' contexts, in all.
    pub init: std::time::Duration,
}

impl<C: InputCurve> OutOfCoreOutput<C> {
    /// [`Self::backends`] in one line (`none` for no chunk).
    pub fn backend_line(&self) -> String {
        if self.backends.is_empty() {
            "none".into()
        } else {
            self.backends.join(" + ")
        }
    }
}

fn bad(path: &Path) -> impl Fn(BadRecord) -> MsmError + '_ {
    move |record| MsmError::malformed(path, record)
}

/// The file and its length. Inputs are read by offset, a chunk at a time,
/// and their counts come from their lengths: a pipe, FIFO or device (length
/// 0, or no offsets) is refused, by the path's type before opening (a FIFO
/// with no writer would block the open) and by the open file's.
fn open(path: &Path) -> Result<(File, usize), MsmError> {
    let io = |source| MsmError::Io { path: path.to_path_buf(), source };
    let regular = |t: std::fs::FileType| match FileKind::of(t) {
        None => Ok(()),
        Some(kind) => Err(io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{kind}: the out-of-core MSM reads its inputs by offset, so each must be a regular file"),
        ))),
    };
    regular(std::fs::metadata(path).map_err(io)?.file_type())?;
    let file = File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    regular(meta.file_type())?;
    Ok((file, meta.len() as usize))
}

fn read_at(file: &File, path: &Path, buf: &mut [u8], offset: usize) -> Result<(), MsmError> {
    file.read_exact_at(buf, offset as u64).map_err(|source| MsmError::Io { path: path.to_path_buf(), source })
}

/// The MSM of a points file and a scalars file (the CLI's formats, either
/// file optionally with arkworks' 8-byte length prefix) holding at most a
/// chunk of each in memory at a time.
pub fn msm_files<C: EngineCurve>(
    points_path: &Path,
    scalars_path: &Path,
    opts: &OutOfCoreOptions,
) -> Result<OutOfCoreOutput<C>, MsmError> {
    let glv = opts.glv == GlvMode::On;
    let chunk = chunk_points_for(opts.budget, glv)?;
    let (scalars, slen) = open(scalars_path)?;
    let (n, s_header) = match slen % SCALAR_BYTES {
        0 => (slen / SCALAR_BYTES, 0),
        LENGTH_PREFIX_BYTES => {
            let n = slen / SCALAR_BYTES;
            let mut prefix = [0u8; 8];
            read_at(&scalars, scalars_path, &mut prefix, 0)?;
            let declared = u64::from_le_bytes(prefix);
            if declared != n as u64 {
                let fault = RecordFault::LengthPrefix { declared, expected: n as u64 };
                return Err(bad(scalars_path)(BadRecord::whole(Input::Scalars, 0, fault)));
            }
            (n, LENGTH_PREFIX_BYTES)
        }
        extra => {
            let offset = (slen / SCALAR_BYTES * SCALAR_BYTES) as u64;
            let fault = RecordFault::Truncated { extra, size: SCALAR_BYTES };
            return Err(bad(scalars_path)(BadRecord::whole(Input::Scalars, offset, fault)));
        }
    };
    let (points, plen) = open(points_path)?;
    let layout = detect_layout::<C>(plen, n, opts.format).ok_or_else(|| {
        let (compressed, uncompressed) = (PointFormat::Compressed.size::<C>(), PointFormat::Uncompressed.size::<C>());
        let fault = LayoutFault::Size { len: plen, count: n, format: opts.format, compressed, uncompressed };
        bad(points_path)(BadRecord::whole(Input::Points, plen as u64, fault))
    })?;
    let p_header = if layout.prefixed { LENGTH_PREFIX_BYTES } else { 0 };
    if layout.prefixed {
        let mut prefix = [0u8; 8];
        read_at(&points, points_path, &mut prefix, 0)?;
        let declared = u64::from_le_bytes(prefix);
        if declared != n as u64 {
            let fault = RecordFault::LengthPrefix { declared, expected: n as u64 };
            return Err(bad(points_path)(BadRecord::whole(Input::Points, 0, fault)));
        }
    }
    let size = layout.format.size::<C>();
    let chunk = chunk.min(n.max(1));
    let mut pbuf = vec![0u8; chunk * size];
    let mut sbuf = vec![0u8; chunk * SCALAR_BYTES];
    let mut result = Xyzz::<C>::identity();
    let mut backends = Vec::new();
    let mut chunks = 0;
    let mut first = 0;
    let (mut plan, mut timings) = (None, PhaseTimings::default());
    let (mut load, mut init) = (std::time::Duration::ZERO, std::time::Duration::ZERO);
    while first < n {
        let k = chunk.min(n - first);
        let (pb, sb) = (&mut pbuf[..k * size], &mut sbuf[..k * SCALAR_BYTES]);
        let t = std::time::Instant::now();
        let s_base = s_header + first * SCALAR_BYTES;
        read_at(&scalars, scalars_path, sb, s_base)?;
        let s = decode_scalar_run::<C>(sb, first, s_base as u64, opts.scalar_endian).map_err(bad(scalars_path))?;
        let p_base = p_header + first * size;
        read_at(&points, points_path, pb, p_base)?;
        let p = decode_point_run::<C>(pb, layout.format, opts.validation, first, p_base as u64)
            .map_err(bad(points_path))?;
        load += t.elapsed();
        let t = std::time::Instant::now();
        let ctx = MsmBuilder::new()
            .backend(opts.backend)
            .window(opts.window)
            .validation(Validation::AlreadyValidated)
            .glv(if glv { GlvMode::On } else { GlvMode::Off }) // the chunk's images, made here
            .build(p)?;
        if !backends.contains(&ctx.backend_name()) {
            backends.push(ctx.backend_name());
        }
        init += t.elapsed();
        let out = ctx.msm_report(&s)?;
        plan.get_or_insert(out.plan);
        timings.add(&out.timings);
        result = result.add(&out.result);
        chunks += 1;
        first += k;
    }
    Ok(OutOfCoreOutput { result, n, chunk_points: chunk, chunks, layout, backends, glv, plan, timings, load, init })
}
