//! A prepared file (`zkmsm prepare`) streamed under a budget: each chunk's
//! records are read into memory of their own (with GLV images or fixed-base
//! copies, the chunk's range of each region of the file), checked record by
//! record as a mapped file is, and run as a prepared file of that chunk's
//! points. The records' checksum covers the whole file, so a thread of its
//! own hashes the file front to back beside the chunks; the result is
//! returned only once it matches.

use super::budget::{ChunkCost, PREPARED_BYTES_PER_POINT};
use super::reader::{pipelined, Input};
use super::{chunks_of, decode_scalars, read_scalars, scalars_file, OutOfCoreOptions, OutOfCoreOutput, Partials};
use crate::backend::choice::BackendChoice;
use crate::builder::EngineCurve;
use crate::error::MsmError;
use crate::pipeline::glv::GlvMode;
use crate::prepared::{Header, HeaderFault, PreparedRefusal, CHECKSUM_BLOCK, FORMAT_VERSION};
use crate::store::Mapping;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use zkmsm_field::PrimeField;

/// Where a prepared file's records start: its header's size (which
/// [`Header::decode`] checks the header states).
const HEADER_BYTES: usize = 4096;

fn refuse(path: &Path) -> impl Fn(PreparedRefusal) -> MsmError + '_ {
    move |reason| MsmError::Prepared { path: path.to_path_buf(), reason }
}

/// What a prepared file holds and how its chunks are read: the header's
/// checks of `open_prepared`, before anything is sized from it.
struct Layout {
    header: Header,
    choice: BackendChoice,
    /// Regions of n records each that a chunk takes its range of: the
    /// points, then their images (GLV run) or the other shifted copies.
    regions: usize,
    /// Whether the chunks run the file's GLV images.
    images: bool,
}

fn layout<C: EngineCurve>(file: &Input<'_>, glv: GlvMode) -> Result<Layout, MsmError> {
    let refuse = refuse(file.path);
    let mut head = vec![0u8; HEADER_BYTES.min(file.len)];
    file.read_at(&mut head, 0)?;
    let header = Header::decode(&head).map_err(&refuse)?;
    if header.curve != C::LABEL {
        return Err(refuse(PreparedRefusal::OtherCurve { file: header.curve.clone(), here: C::LABEL }));
    }
    let choice = BackendChoice::from_name(&header.backend)
        .filter(|b| *b != BackendChoice::Auto)
        .ok_or_else(|| refuse(PreparedRefusal::UnknownBackend { name: header.backend.clone() }))?;
    if header.records.checked_mul(header.record_bytes as u64) != Some(header.data_bytes) {
        return Err(refuse(PreparedRefusal::HeaderCorrupt(HeaderFault::DataLength)));
    }
    let (have, promised) = (file.len as u64 - HEADER_BYTES as u64, header.data_bytes);
    if have != promised {
        return Err(refuse(if have < promised {
            PreparedRefusal::Truncated { promised, have }
        } else {
            PreparedRefusal::TrailingBytes { promised, have }
        }));
    }
    if header.glv_images && header.copies != 0 {
        return Err(refuse(PreparedRefusal::HeaderCorrupt(HeaderFault::GlvWithPrecompute)));
    }
    let per_point = if header.glv_images { 2 } else { header.copies.max(1) as u64 };
    if header.records != header.points.saturating_mul(per_point) {
        let fault = HeaderFault::RecordCount { glv_images: header.glv_images };
        return Err(refuse(PreparedRefusal::HeaderCorrupt(fault)));
    }
    if header.glv_images && C::glv().is_none() {
        return Err(refuse(PreparedRefusal::NoGlvHere { curve: C::LABEL }));
    }
    if glv == GlvMode::On && !header.glv_images {
        return Err(refuse(PreparedRefusal::NoGlvImages));
    }
    let images = header.glv_images && glv != GlvMode::Off;
    let regions = if images { 2 } else { header.copies.max(1) as usize };
    Ok(Layout { header, choice, regions, images })
}

/// The records' checksum of the file's format version, read front to back
/// a block at a time (`stop` set: ends early with `None`).
fn checksum(file: &Input<'_>, version: u32, bytes: usize, stop: &AtomicBool) -> Result<Option<u64>, MsmError> {
    let mut buf = vec![0u8; CHECKSUM_BLOCK];
    let mut sums = Vec::new();
    let mut whole = xxhash_rust::xxh3::Xxh3::new();
    let mut at = 0;
    while at < bytes {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let block = &mut buf[..CHECKSUM_BLOCK.min(bytes - at)];
        file.read_at(block, HEADER_BYTES + at)?;
        if version >= FORMAT_VERSION {
            sums.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(block).to_le_bytes());
        } else {
            whole.update(block);
        }
        at += block.len();
    }
    Ok(Some(if version >= FORMAT_VERSION { xxhash_rust::xxh3::xxh3_64(&sums) } else { whole.digest() }))
}

/// The MSM of a prepared file and a scalars file holding at most two
/// chunks of records in memory at a time; `progress(done, n)` after each
/// chunk. The file is checked as `open_prepared` checks it (header, lengths,
/// every record, the records' checksum over the whole file), the checksum
/// beside the chunks: nothing is returned before it matches.
pub fn msm_prepared_file<C: EngineCurve>(
    prepared_path: &Path,
    scalars_path: &Path,
    opts: &OutOfCoreOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<OutOfCoreOutput<C>, MsmError> {
    let file = Input::open(prepared_path)?;
    let Layout { header, choice, regions, images } = layout::<C>(&file, opts.glv)?;
    let fixed_base = header.copies != 0;
    if let Some(c) = opts.window.filter(|&c| fixed_base && c != header.window) {
        // a fixed-base file's copies are shifted for its window: no other runs
        let reason = PreparedRefusal::OtherWindow { prepared: header.window, asked: c };
        return Err(refuse(prepared_path)(reason));
    }
    let scalars = Input::open(scalars_path)?;
    let (n, s_header) = scalars_file(&scalars)?;
    if n as u64 != header.points {
        return Err(MsmError::LengthMismatch { points: header.points as usize, scalars: n });
    }
    let record = header.record_bytes as usize;
    let half = crate::pipeline::glv::half_bits::<C>().filter(|_| images);
    let cost = ChunkCost {
        per_point: 2 * regions * record + PREPARED_BYTES_PER_POINT,
        window: if fixed_base { Some(header.window) } else { opts.window },
        scalar_bits: half.unwrap_or(C::Scalar::NUM_BITS),
        msm_points_per_point: if images { 2 } else { 1 },
        threads: rayon::current_num_threads(),
    };
    let plan = cost.plan(opts.budget, " with this prepared file")?;
    let chunk = plan.points.min(n.max(1));
    let mut partials = Partials::<C>::new();
    let mut load = Duration::ZERO;
    let stop = AtomicBool::new(false);
    // a chunk: its first point, its records (each region's range, back to back) and its scalars' bytes
    type Chunk = (usize, Option<Mapping>, Vec<u8>);
    let read = |first: usize, len: usize, reuse: Option<Chunk>| -> Result<(Chunk, u64), MsmError> {
        let (_, _, mut sb) = reuse.unwrap_or_default();
        read_scalars(&scalars, s_header, first, len, &mut sb)?;
        let io = |source| MsmError::Io { path: prepared_path.to_path_buf(), source };
        let mut records = memmap2::MmapMut::map_anon(regions * len * record).map_err(io)?;
        for q in 0..regions {
            let at = HEADER_BYTES + (q * n + first) * record;
            file.read_at(&mut records[q * len * record..(q + 1) * len * record], at)?;
        }
        let map: Mapping = std::sync::Arc::new(records.make_read_only().map_err(io)?);
        let bytes = (map.len() + sb.len()) as u64;
        Ok(((first, Some(map), sb), bytes))
    };
    let (stats, sum) = std::thread::scope(|s| {
        let hasher = s.spawn(|| checksum(&file, header.version, header.data_bytes as usize, &stop));
        let stats = pipelined(&chunks_of(n, chunk), read, |(first, map, sb): Chunk| {
            let len = sb.len() / crate::input::io::SCALAR_BYTES;
            let t = Instant::now();
            let mut h = header.clone();
            h.points = len as u64;
            h.records = (regions * len) as u64;
            h.data_bytes = h.records * record as u64;
            h.glv_images = images;
            let map = map.expect("the reader maps every chunk's records");
            let mut ctx = C::open_prepared(choice, &h, map, 0).map_err(refuse(prepared_path))?;
            if !fixed_base {
                ctx.set_window(opts.window);
            }
            let s = decode_scalars::<C>(scalars_path, &sb, s_header, first, opts.scalar_endian)?;
            load += t.elapsed();
            partials.add(ctx.as_ref(), &s)?;
            progress(partials.done, n);
            Ok(Some((first, None, sb)))
        });
        stop.store(stats.is_err(), Ordering::Relaxed);
        (stats, hasher.join().expect("the checksum thread does not panic"))
    });
    let stats = stats?;
    if sum? != Some(header.data_checksum) {
        return Err(refuse(prepared_path)(PreparedRefusal::Checksum));
    }
    let super::Partials { result, backends, glv, plan: first_plan, timings, chunks, .. } = partials;
    Ok(OutOfCoreOutput {
        result,
        n,
        chunk_points: chunk,
        chunks,
        reserve_window: plan.window,
        layout: None,
        backends,
        glv,
        plan: first_plan,
        timings,
        load,
        init: Duration::ZERO,
        read: stats,
    })
}
