//! Out-of-core MSMs: points (or a prepared file's records) and scalars
//! streamed from their files a chunk at a time under a memory budget, one
//! partial MSM per chunk, the partials summed. MSM is linear, so the sum is
//! exact: sum_i s_i P_i = sum_chunks sum_{i in chunk} s_i P_i.
//!
//! A thread reads the next chunk while the cores decode, validate and
//! multiply the current one (`reader`): the disk and the cores overlap.
//! Memory: two chunks' bytes (the one in use, the one read ahead), and one
//! chunk's decoded and prepared points, scalars, digits and buckets; the
//! chunk size is the budget, less every thread's buckets for the chunk's
//! window, over a cost per point (`budget`). Peak RSS is the budget plus
//! the process's own footprint before the first chunk (code, thread stacks,
//! allocator), the stated constant of docs/SCALE.md.

mod budget;
mod prepare;
mod prepared;
mod reader;

pub use budget::{
    bucket_reserve_for, ChunkCost, ChunkPlan, BUCKET_BYTES, BYTES_PER_POINT, BYTES_PER_POINT_GLV, MIN_CHUNK_POINTS,
    PREPARED_BYTES_PER_POINT,
};
pub use prepare::{prepare_file, PreparedWrite};
pub use prepared::msm_prepared_file;
pub use reader::ReadStats;

use crate::backend::choice::BackendChoice;
use crate::builder::{EngineCurve, MsmBuilder};
use crate::engine::MsmEngine;
use crate::error::MsmError;
use crate::input::bytes::{decode_point_run, decode_scalar_run};
use crate::input::io::{detect_layout, PointsLayout, LENGTH_PREFIX_BYTES, SCALAR_BYTES};
use crate::input::record::{BadRecord, Input, LayoutFault, RecordFault};
use crate::input::scalars::ScalarEndian;
use crate::input::validate::Validation;
use crate::input::InputCurve;
use crate::pipeline::digits::ScalarLimbs;
use crate::pipeline::glv::GlvMode;
use crate::pipeline::plan::Plan;
use crate::timing::PhaseTimings;
use reader::pipelined;
use std::path::Path;
use std::time::{Duration, Instant};
use zkmsm_curve::{PointFormat, Xyzz};
use zkmsm_field::PrimeField;

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
    /// Bucket-accumulation backend for each chunk (a prepared file's
    /// header names its own).
    pub backend: BackendChoice,
    /// What to check of the points (default: curve and subgroup).
    pub validation: Validation,
    /// GLV in each chunk: `On` with the images made chunk by chunk (twice
    /// the memory a point, so half the points a chunk); `Auto` and `Off`
    /// without (GLV under a budget is not measured: `Auto` stays off). A
    /// prepared file with images runs them under `Auto` and `On`.
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

    /// What a chunk of a points file costs under these options on the
    /// current thread pool.
    pub fn chunk_cost<C: InputCurve>(&self) -> ChunkCost {
        let glv = self.glv == GlvMode::On;
        let half = crate::pipeline::glv::half_bits::<C>().filter(|_| glv);
        ChunkCost {
            per_point: if glv { BYTES_PER_POINT_GLV } else { BYTES_PER_POINT },
            window: self.window,
            scalar_bits: half.unwrap_or(C::Scalar::NUM_BITS),
            msm_points_per_point: if half.is_some() { 2 } else { 1 },
            threads: rayon::current_num_threads(),
        }
    }

    /// The chunk a points file is cut into under these options.
    pub fn chunk_plan<C: InputCurve>(&self) -> Result<ChunkPlan, MsmError> {
        let what = if self.glv == GlvMode::On { " with GLV" } else { "" };
        self.chunk_cost::<C>().plan(self.budget, what)
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
    /// The window the chunk size counted buckets for.
    pub reserve_window: u32,
    /// The points file's layout (`None` for a prepared file).
    pub layout: Option<PointsLayout>,
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
    /// Decoding and validating the chunks (a prepared file: checking its
    /// records), in all; the reading itself is in [`Self::read`].
    pub load: Duration,
    /// Building the chunks' contexts, in all.
    pub init: Duration,
    /// The reader's time and the waits between it and the cores.
    pub read: ReadStats,
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

/// A scalars file: its count and header bytes (arkworks' 8-byte length
/// prefix, checked against the count).
fn scalars_file(scalars: &reader::Input<'_>) -> Result<(usize, usize), MsmError> {
    let (path, slen) = (scalars.path, scalars.len);
    match slen % SCALAR_BYTES {
        0 => Ok((slen / SCALAR_BYTES, 0)),
        LENGTH_PREFIX_BYTES => {
            let n = slen / SCALAR_BYTES;
            let mut prefix = [0u8; 8];
            scalars.read_at(&mut prefix, 0)?;
            let declared = u64::from_le_bytes(prefix);
            if declared != n as u64 {
                let fault = RecordFault::LengthPrefix { declared, expected: n as u64 };
                return Err(bad(path)(BadRecord::whole(Input::Scalars, 0, fault)));
            }
            Ok((n, LENGTH_PREFIX_BYTES))
        }
        extra => {
            let offset = (slen / SCALAR_BYTES * SCALAR_BYTES) as u64;
            let fault = RecordFault::Truncated { extra, size: SCALAR_BYTES };
            Err(bad(path)(BadRecord::whole(Input::Scalars, offset, fault)))
        }
    }
}

/// Chunks `(first, len)` of `chunk` points covering n.
fn chunks_of(n: usize, chunk: usize) -> Vec<(usize, usize)> {
    (0..n.div_ceil(chunk)).map(|k| (k * chunk, chunk.min(n - k * chunk))).collect()
}

/// Chunk k's scalars read into `buf` (reused), at their offset in the file.
fn read_scalars(
    file: &reader::Input<'_>,
    header: usize,
    first: usize,
    len: usize,
    buf: &mut Vec<u8>,
) -> Result<(), MsmError> {
    buf.resize(len * SCALAR_BYTES, 0);
    file.read_at(buf, header + first * SCALAR_BYTES)
}

/// Chunk k's scalars decoded, each checked below r (errors name the index
/// and byte offset in the whole file).
fn decode_scalars<C: InputCurve>(
    path: &Path,
    bytes: &[u8],
    header: usize,
    first: usize,
    endian: ScalarEndian,
) -> Result<Vec<ScalarLimbs>, MsmError> {
    decode_scalar_run::<C>(bytes, first, (header + first * SCALAR_BYTES) as u64, endian).map_err(bad(path))
}

/// The partial MSMs' sum and what the chunks reported, as each chunk's
/// context and scalars come in.
struct Partials<C: InputCurve> {
    result: Xyzz<C>,
    backends: Vec<&'static str>,
    glv: bool,
    plan: Option<Plan>,
    timings: PhaseTimings,
    chunks: usize,
    done: usize,
}

impl<C: InputCurve> Partials<C> {
    fn new() -> Self {
        Self {
            result: Xyzz::identity(),
            backends: Vec::new(),
            glv: false,
            plan: None,
            timings: PhaseTimings::default(),
            chunks: 0,
            done: 0,
        }
    }

    fn add(&mut self, ctx: &dyn MsmEngine<C>, scalars: &[ScalarLimbs]) -> Result<(), MsmError> {
        if !self.backends.contains(&ctx.backend_name()) {
            self.backends.push(ctx.backend_name());
        }
        self.glv |= ctx.glv();
        let out = ctx.msm_report(scalars)?;
        self.plan.get_or_insert(out.plan);
        self.timings.add(&out.timings);
        self.result = self.result.add(&out.result);
        self.chunks += 1;
        self.done += scalars.len();
        Ok(())
    }
}

/// The MSM of a points file and a scalars file (the CLI's formats, either
/// file optionally with arkworks' 8-byte length prefix) holding at most two
/// chunks of each in memory at a time.
pub fn msm_files<C: EngineCurve>(
    points_path: &Path,
    scalars_path: &Path,
    opts: &OutOfCoreOptions,
) -> Result<OutOfCoreOutput<C>, MsmError> {
    msm_files_with_progress(points_path, scalars_path, opts, &|_, _| {})
}

/// As [`msm_files`], calling `progress(done, n)` after each chunk.
pub fn msm_files_with_progress<C: EngineCurve>(
    points_path: &Path,
    scalars_path: &Path,
    opts: &OutOfCoreOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<OutOfCoreOutput<C>, MsmError> {
    let glv = opts.glv == GlvMode::On;
    let plan = opts.chunk_plan::<C>()?;
    let scalars = reader::Input::open(scalars_path)?;
    let (n, s_header) = scalars_file(&scalars)?;
    let points = reader::Input::open(points_path)?;
    let plen = points.len;
    let layout = detect_layout::<C>(plen, n, opts.format).ok_or_else(|| {
        let (compressed, uncompressed) = (PointFormat::Compressed.size::<C>(), PointFormat::Uncompressed.size::<C>());
        let fault = LayoutFault::Size { len: plen, count: n, format: opts.format, compressed, uncompressed };
        bad(points_path)(BadRecord::whole(Input::Points, plen as u64, fault))
    })?;
    let p_header = if layout.prefixed { LENGTH_PREFIX_BYTES } else { 0 };
    if layout.prefixed {
        let mut prefix = [0u8; 8];
        points.read_at(&mut prefix, 0)?;
        let declared = u64::from_le_bytes(prefix);
        if declared != n as u64 {
            let fault = RecordFault::LengthPrefix { declared, expected: n as u64 };
            return Err(bad(points_path)(BadRecord::whole(Input::Points, 0, fault)));
        }
    }
    let size = layout.format.size::<C>();
    let chunk = plan.points.min(n.max(1));
    let mut partials = Partials::<C>::new();
    let (mut load, mut init) = (Duration::ZERO, Duration::ZERO);
    // a chunk's bytes: (first, point bytes, scalar bytes)
    let read = |first: usize, len: usize, reuse: Option<(usize, Vec<u8>, Vec<u8>)>| {
        let (_, mut pb, mut sb) = reuse.unwrap_or_default();
        read_scalars(&scalars, s_header, first, len, &mut sb)?;
        pb.resize(len * size, 0);
        points.read_at(&mut pb, p_header + first * size)?;
        let bytes = (pb.len() + sb.len()) as u64;
        Ok(((first, pb, sb), bytes))
    };
    let read_stats = pipelined(&chunks_of(n, chunk), read, |(first, pb, sb)| {
        let t = Instant::now();
        let s = decode_scalars::<C>(scalars_path, &sb, s_header, first, opts.scalar_endian)?;
        let p = decode_point_run::<C>(&pb, layout.format, opts.validation, first, (p_header + first * size) as u64)
            .map_err(bad(points_path))?;
        load += t.elapsed();
        let t = Instant::now();
        let ctx = MsmBuilder::new()
            .backend(opts.backend)
            .window(opts.window)
            .validation(Validation::AlreadyValidated)
            .glv(if glv { GlvMode::On } else { GlvMode::Off }) // the chunk's images, made here
            .build(p)?;
        init += t.elapsed();
        partials.add(ctx.as_ref(), &s)?;
        progress(partials.done, n);
        Ok(Some((first, pb, sb)))
    })?;
    let Partials { result, backends, glv, plan: first_plan, timings, chunks, .. } = partials;
    Ok(OutOfCoreOutput {
        result,
        n,
        chunk_points: chunk,
        chunks,
        reserve_window: plan.window,
        layout: Some(layout),
        backends,
        glv,
        plan: first_plan,
        timings,
        load,
        init,
        read: read_stats,
    })
}
