//! Input and output files.
//!
//! - Points: a concatenation of arkworks-canonical G1 affine encodings,
//!   compressed or uncompressed, optionally preceded by the 8-byte
//!   little-endian length that arkworks writes for a `Vec`.
//! - Scalars: 32-byte little-endian integers, each below the group order r,
//!   optionally preceded by the same 8-byte length.
//!
//! Every error names the file and the byte offset of the bad record. Reading
//! is bounded: the scalar count fixes the size the points file must have, a
//! file of known size is checked against the other before anything is read,
//! and a stream (a pipe, standard input, `/dev/zero`) is read no further than
//! the largest input it could validly be, plus one byte to see that it is
//! longer.

use crate::error::MsmError;
use crate::input::load::{decode_chunk, validate_decoded, Validation};
use crate::input::record::{BadRecord, Held, Input, LayoutFault, PointFault, RecordFault};
use crate::input::scalars::{check_scalars, ScalarEndian};
use crate::input::validate::BATCH_POINTS as VALIDATION_BATCH;
use crate::input::InputCurve;
use crate::pipeline::digits::ScalarLimbs;
use crate::store::Store;
use rayon::prelude::*;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use zkmsm_curve::{Affine, PointFormat};

/// Bytes of one scalar in a scalars file: a 32-byte little-endian integer below r.
pub const SCALAR_BYTES: usize = 32;

/// arkworks writes a `Vec` as its length (a little-endian u64), then the items.
pub const LENGTH_PREFIX_BYTES: usize = 8;

/// The most points (and scalars) read unless the caller allows more: it bounds
/// what a stream of unknown length can make us read and hold (2 GiB of
/// scalars) before its end shows that it is too long.
pub const DEFAULT_MAX_POINTS: usize = 1 << 26;

/// The name errors give standard input.
pub const STDIN_NAME: &str = "<stdin>";

/// Records decoded per read: large enough that the joins of the parallel
/// decode (one per read) cost little (2^16 against 2^14: compressed 2^20
/// loads 3% faster, Zen 5), small enough that the file's bytes are never
/// more than a few MiB in memory (6 MiB for BLS12 uncompressed points).
pub const RECORDS_PER_READ: usize = 1 << 16;

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> MsmError + Copy + '_ {
    move |source| MsmError::Io { path: path.to_path_buf(), source }
}

fn malformed(path: &Path, record: BadRecord) -> MsmError {
    MsmError::malformed(path, record)
}

/// A fault of the input `input` (the file `path`) as a whole, at byte `offset`.
fn whole(path: &Path, input: Input, offset: usize, fault: impl Into<RecordFault>) -> MsmError {
    malformed(path, BadRecord::whole(input, offset as u64, fault))
}

fn out_of_memory(path: &Path, what: String) -> MsmError {
    MsmError::Io { path: path.to_path_buf(), source: std::io::Error::new(std::io::ErrorKind::OutOfMemory, what) }
}

/// An input: a file or standard input, with its length when it is known
/// before reading (a regular file).
pub struct Source {
    name: PathBuf,
    reader: Box<dyn Read + Send>,
    len: Option<u64>,
}

impl Source {
    /// Open `path`; `-` is standard input.
    pub fn open(path: &Path) -> Result<Self, MsmError> {
        if path.as_os_str() == "-" {
            return Self::stdin();
        }
        let file = File::open(path).map_err(io_error(path))?;
        Ok(Self::from_file(path.to_path_buf(), file))
    }

    /// Standard input; its length is known when it is a regular file (`< file`).
    pub fn stdin() -> Result<Self, MsmError> {
        let name = PathBuf::from(STDIN_NAME);
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            let fd = std::io::stdin().as_fd().try_clone_to_owned().map_err(io_error(&name))?;
            Ok(Self::from_file(name, File::from(fd)))
        }
        #[cfg(not(unix))]
        Ok(Self::from_reader(name, std::io::stdin(), None))
    }

    /// Any reader; `len` is its exact length if known, `name` what errors call it.
    pub fn from_reader(name: impl Into<PathBuf>, reader: impl Read + Send + 'static, len: Option<u64>) -> Self {
        Self { name: name.into(), reader: Box::new(reader), len }
    }

    /// In-memory bytes (tests, fuzzing): a source of known length.
    pub fn from_bytes(name: impl Into<PathBuf>, bytes: Vec<u8>) -> Self {
        let len = bytes.len() as u64;
        Self::from_reader(name, std::io::Cursor::new(bytes), Some(len))
    }

    fn from_file(name: PathBuf, file: File) -> Self {
        let len = match file.metadata() {
            Ok(m) if m.is_file() => Some(m.len()),
            _ => None,
        };
        Self { name, reader: Box::new(file), len }
    }

    /// The name errors give this input (the path, or [`STDIN_NAME`]).
    pub fn name(&self) -> &Path {
        &self.name
    }

    /// The length, if known before reading.
    pub fn length(&self) -> Option<u64> {
        self.len
    }

    /// Read a stream of unknown length whole, but no more than `max` bytes:
    /// `Ok(None)` when it is longer. Afterwards its length is known.
    fn buffer_up_to(&mut self, max: usize) -> Result<Option<()>, MsmError> {
        if self.len.is_some() {
            return Ok(Some(()));
        }
        let mut bytes = Vec::new();
        (&mut self.reader)
            .take((max as u64).saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(io_error(&self.name))?;
        if bytes.len() > max {
            return Ok(None);
        }
        self.len = Some(bytes.len() as u64);
        self.reader = Box::new(std::io::Cursor::new(bytes));
        Ok(Some(()))
    }

    fn read_exact(&mut self, input: Input, buf: &mut [u8]) -> Result<(), MsmError> {
        self.reader.read_exact(buf).map_err(|e| match e.kind() {
            // the length was taken before reading: the file shrank meanwhile
            std::io::ErrorKind::UnexpectedEof => {
                whole(&self.name, input, self.len.unwrap_or(0) as usize, LayoutFault::Shrank)
            }
            _ => io_error(&self.name)(e),
        })
    }

    fn known_len(&self) -> usize {
        self.len.expect("length known") as usize
    }
}

/// The most bytes `count` records of `size` bytes take with the length
/// prefix (saturating: the limit may be "no limit").
fn stream_bytes(count: usize, size: usize) -> usize {
    count.saturating_mul(size).saturating_add(LENGTH_PREFIX_BYTES)
}

/// How to read an MSM's inputs.
#[derive(Clone, Copy)]
pub struct ReadOptions<'a> {
    /// The points' encoding; detected from the sizes when `None`.
    pub format: Option<PointFormat>,
    /// How much of the points to check.
    pub validation: Validation,
    /// Refuse more points than this (see [`DEFAULT_MAX_POINTS`]).
    pub max_points: usize,
    /// Called with the number of points decoded and validated so far, and of all.
    pub progress: &'a (dyn Fn(usize, usize) + Sync),
    /// Byte order of the scalars (default little-endian).
    pub scalar_endian: ScalarEndian,
}

impl Default for ReadOptions<'_> {
    fn default() -> Self {
        Self {
            format: None,
            validation: Validation::Full,
            max_points: DEFAULT_MAX_POINTS,
            progress: &|_, _| {},
            scalar_endian: ScalarEndian::Little,
        }
    }
}

/// An MSM's inputs as read from files.
pub struct MsmInputs<C: InputCurve> {
    /// The decoded points.
    pub points: Vec<Affine<C>>,
    /// The scalars as canonical limbs (each checked below r).
    pub scalars: Vec<ScalarLimbs>,
    /// How the points file was laid out (format, length prefix).
    pub layout: PointsLayout,
    /// The scalars file had the 8-byte length prefix.
    pub scalars_prefixed: bool,
}

/// Read the points and scalars of one MSM. The scalars come first (their
/// count fixes the points file's size); when both sizes are known they are
/// checked against each other before either file is read.
pub fn read_msm_inputs<C: InputCurve>(
    mut points: Source,
    mut scalars: Source,
    opts: &ReadOptions,
) -> Result<MsmInputs<C>, MsmError> {
    let smallest = opts.format.map_or(PointFormat::Compressed.size::<C>(), |f| f.size::<C>());
    // the most points the points file can hold, if its size is known
    let capacity = points.len.map(|l| l as usize / smallest);
    if let (Some(slen), Some(plen)) = (scalars.len, points.len) {
        if let Ok((count, _)) = scalars_layout(slen as usize) {
            check_counts::<C>(&points.name, plen as usize, count, &scalars.name, opts.format)?;
        }
    }
    let bound = capacity.map_or(opts.max_points, |c| c.min(opts.max_points));
    let at = stream_bytes(bound, SCALAR_BYTES);
    if scalars.buffer_up_to(at)?.is_none() {
        let fault = match capacity {
            Some(c) if c < opts.max_points => LayoutFault::StreamOutnumbers {
                most: c,
                past: at,
                points: points.name.clone(),
                points_len: points.known_len(),
            },
            _ => LayoutFault::StreamAboveLimit { limit: opts.max_points, past: at, hint: LIMIT_HINT },
        };
        return Err(whole(&scalars.name, Input::Scalars, at, fault));
    }
    let (scalar_values, scalars_prefixed) = read_scalars_in::<C>(&mut scalars, opts.max_points, opts.scalar_endian)?;
    let n = scalar_values.len();
    if let Some(plen) = points.len {
        check_counts::<C>(&points.name, plen as usize, n, &scalars.name, opts.format)?;
    }
    let largest = opts.format.map_or(PointFormat::Uncompressed.size::<C>(), |f| f.size::<C>());
    let most = stream_bytes(n, largest);
    if points.buffer_up_to(most)?.is_none() {
        let fault = LayoutFault::StreamTooLong { most, count: n, scalars: Some(scalars.name.clone()) };
        return Err(whole(&points.name, Input::Points, most, fault));
    }
    check_counts::<C>(&points.name, points.known_len(), n, &scalars.name, opts.format)?;
    let (point_values, layout) = read_points_from::<C>(&mut points, n, opts)?;
    Ok(MsmInputs { points: point_values, scalars: scalar_values, layout, scalars_prefixed })
}

/// How a user of the command raises the limit.
const LIMIT_HINT: &str = " (zkmsm msm --max-points)";

/// When `len` bytes of points cannot hold `n` points, the error: the counts
/// differ when the file holds whole points, else its size is wrong.
fn check_counts<C: InputCurve>(
    path: &Path,
    len: usize,
    n: usize,
    scalars: &Path,
    format: Option<PointFormat>,
) -> Result<(), MsmError> {
    if detect_layout::<C>(len, n, format).is_some() {
        return Ok(());
    }
    let formats = match format {
        Some(f) => vec![f],
        None => vec![PointFormat::Compressed, PointFormat::Uncompressed],
    };
    // the whole numbers of points the file could hold, in each layout
    let mut held = Vec::new();
    for &f in &formats {
        for header in [0, LENGTH_PREFIX_BYTES] {
            if len >= header && (len - header).is_multiple_of(f.size::<C>()) {
                let count = (len - header) / f.size::<C>();
                held.push(Held { count, format: f, prefixed: header > 0 });
            }
        }
    }
    if held.is_empty() {
        return Err(size_error::<C>(path, len, n, format));
    }
    let fault = LayoutFault::CountsDiffer { held, len, scalars: scalars.to_path_buf(), count: n };
    Err(whole(path, Input::Points, len.min(n * formats[0].size::<C>()), fault))
}

/// The error of `len` bytes that hold `n` points in no layout (`format`: the one asked for).
fn size_error<C: InputCurve>(path: &Path, len: usize, n: usize, format: Option<PointFormat>) -> MsmError {
    let (compressed, uncompressed) = (PointFormat::Compressed.size::<C>(), PointFormat::Uncompressed.size::<C>());
    whole(path, Input::Points, len, LayoutFault::Size { len, count: n, format, compressed, uncompressed })
}

/// How `len` bytes of scalars are laid out: their count, and whether the
/// length prefix is present (`len` = 8 mod 32; plain files are whole scalars).
fn scalars_layout(len: usize) -> Result<(usize, bool), (usize, usize)> {
    match len % SCALAR_BYTES {
        0 => Ok((len / SCALAR_BYTES, false)),
        LENGTH_PREFIX_BYTES => Ok((len / SCALAR_BYTES, true)),
        tail => Err((len / SCALAR_BYTES, tail)),
    }
}

/// Read scalars (see [`read_msm_inputs`] for bounds), rejecting a truncated
/// tail, a length prefix that disagrees with the file, and values >= r.
pub fn read_scalars<C: InputCurve>(path: &Path) -> Result<Vec<ScalarLimbs>, MsmError> {
    let mut src = Source::open(path)?;
    Ok(read_scalars_from::<C>(&mut src, DEFAULT_MAX_POINTS)?.0)
}

/// Read at most `max_count` scalars, a chunk at a time into the limbs (a file
/// is never all in memory; a stream is, as its length tells the layout);
/// whether the length prefix was there.
pub fn read_scalars_from<C: InputCurve>(
    src: &mut Source,
    max_count: usize,
) -> Result<(Vec<ScalarLimbs>, bool), MsmError> {
    read_scalars_in::<C>(src, max_count, ScalarEndian::Little)
}

/// As [`read_scalars_from`], the scalars in `endian` order.
pub fn read_scalars_in<C: InputCurve>(
    src: &mut Source,
    max_count: usize,
    endian: ScalarEndian,
) -> Result<(Vec<ScalarLimbs>, bool), MsmError> {
    let most = stream_bytes(max_count, SCALAR_BYTES);
    if src.buffer_up_to(most)?.is_none() {
        let fault = LayoutFault::StreamAboveLimit { limit: max_count, past: most, hint: "" };
        return Err(whole(&src.name, Input::Scalars, most, fault));
    }
    let len = src.known_len();
    let path = src.name.clone();
    let (count, prefixed) = scalars_count(&path, len, max_count)?;
    let header = if prefixed { LENGTH_PREFIX_BYTES } else { 0 };
    if prefixed {
        let mut prefix = [0u8; LENGTH_PREFIX_BYTES];
        src.read_exact(Input::Scalars, &mut prefix)?;
        check_scalars_prefix(&path, count, prefix)?;
    }
    let mut scalars: Vec<ScalarLimbs> = Vec::new();
    scalars
        .try_reserve_exact(count)
        .map_err(|_| out_of_memory(&path, format!("cannot allocate memory for {count} scalars")))?;
    let mut buf = vec![0u8; RECORDS_PER_READ.min(count) * SCALAR_BYTES];
    while scalars.len() < count {
        let bytes = &mut buf[..(count - scalars.len()).min(RECORDS_PER_READ) * SCALAR_BYTES];
        src.read_exact(Input::Scalars, bytes)?;
        // on every core: one core converting them (and faulting the
        // vector's pages in) left the other idle for ~30 ms at 2^20
        scalars.par_extend(bytes.par_chunks_exact(SCALAR_BYTES).map(|b| endian.limbs(b)));
    }
    check_scalars_reduced::<C>(&path, header, &scalars)?;
    Ok((scalars, prefixed))
}

/// The scalars' count and whether the length prefix is there, from the
/// file's length; refused when the length is not whole scalars or the count
/// is above `max_count`.
fn scalars_count(path: &Path, len: usize, max_count: usize) -> Result<(usize, bool), MsmError> {
    let (count, prefixed) = scalars_layout(len).map_err(|(count, extra)| {
        whole(path, Input::Scalars, count * SCALAR_BYTES, RecordFault::Truncated { extra, size: SCALAR_BYTES })
    })?;
    if count > max_count {
        let fault = LayoutFault::AboveLimit { count, len, limit: max_count, hint: LIMIT_HINT };
        return Err(whole(path, Input::Scalars, max_count * SCALAR_BYTES, fault));
    }
    Ok((count, prefixed))
}

/// The arkworks length prefix of a scalars file of `count` whole scalars after it must say `count`.
fn check_scalars_prefix(path: &Path, count: usize, prefix: [u8; LENGTH_PREFIX_BYTES]) -> Result<(), MsmError> {
    let declared = u64::from_le_bytes(prefix);
    if declared != count as u64 {
        return Err(whole(path, Input::Scalars, 0, RecordFault::LengthPrefix { declared, expected: count as u64 }));
    }
    Ok(())
}

/// Every scalar below r; the first that is not is named with its byte offset.
fn check_scalars_reduced<C: InputCurve>(path: &Path, header: usize, scalars: &[ScalarLimbs]) -> Result<(), MsmError> {
    check_scalars::<C>(scalars).map_err(|e| match e {
        MsmError::ScalarNotReduced { index } => malformed(
            path,
            BadRecord::at(
                Input::Scalars,
                index,
                (header + index * SCALAR_BYTES) as u64,
                RecordFault::ScalarNotReduced { curve: C::NAME },
            ),
        ),
        other => other,
    })
}

/// As [`read_scalars`], with the file mapped and its scalars used in place
/// (a scalar's 32 little-endian bytes are its limbs on a little-endian
/// machine): nothing is copied and no memory is taken for them, so a
/// prepared MSM starts sooner. The same checks and the same errors. Standard
/// input, a file that cannot be mapped (a pipe) and big-endian machines
/// read as [`read_scalars`] does.
pub fn map_scalars<C: InputCurve>(path: &Path) -> Result<Store<ScalarLimbs>, MsmError> {
    map_scalars_in::<C>(path, ScalarEndian::Little)
}

/// As [`map_scalars`] for scalars in `endian` order: big-endian ones are
/// read (their bytes are not their limbs), little-endian ones mapped.
pub fn map_scalars_in<C: InputCurve>(path: &Path, endian: ScalarEndian) -> Result<Store<ScalarLimbs>, MsmError> {
    if endian == ScalarEndian::Big {
        let mut src = Source::open(path)?;
        return Ok(read_scalars_in::<C>(&mut src, DEFAULT_MAX_POINTS, endian)?.0.into());
    }
    #[cfg(target_endian = "little")]
    if path.as_os_str() != "-" {
        let file = File::open(path).map_err(io_error(path))?;
        // SAFETY: read-only; a file changed under the mapping while in use
        // changes the scalars, as with any memory-mapped input (documented
        // for prepared files too).
        if let Ok(map) = unsafe { memmap2::Mmap::map(&file) } {
            let len = map.len();
            let (count, prefixed) = scalars_count(path, len, DEFAULT_MAX_POINTS)?;
            let header = if prefixed { LENGTH_PREFIX_BYTES } else { 0 };
            if prefixed {
                check_scalars_prefix(path, count, map[..LENGTH_PREFIX_BYTES].try_into().expect("8 bytes"))?;
            }
            let store = Store::mapped(std::sync::Arc::new(map), header, count)
                .ok_or_else(|| whole(path, Input::Scalars, header, LayoutFault::Unaligned))?;
            check_scalars_reduced::<C>(path, header, &store)?;
            return Ok(store);
        }
    }
    read_scalars::<C>(path).map(Store::from)
}

/// How a points file is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointsLayout {
    /// Compressed or uncompressed encodings.
    pub format: PointFormat,
    /// The 8-byte arkworks `Vec` length prefix is present.
    pub prefixed: bool,
}

/// Work out the layout of `len` bytes holding `n` points (n from the scalars
/// file, which removes the ambiguity between 2n compressed and n uncompressed).
pub fn detect_layout<C: InputCurve>(len: usize, n: usize, format: Option<PointFormat>) -> Option<PointsLayout> {
    let formats = match format {
        Some(f) => vec![f],
        None => vec![PointFormat::Compressed, PointFormat::Uncompressed],
    };
    for f in formats {
        for prefixed in [false, true] {
            if len == n * f.size::<C>() + if prefixed { LENGTH_PREFIX_BYTES } else { 0 } {
                return Some(PointsLayout { format: f, prefixed });
            }
        }
    }
    None
}

/// Read `n` points, decode them in parallel and validate them, a chunk at a
/// time. With `Validation::Full` every point is checked to be in the
/// subgroup. A stream (a pipe) is read whole first, but never more than `n`
/// points can take, as its length is needed to tell the layout.
pub fn read_points<C: InputCurve>(
    path: &Path,
    n: usize,
    format: Option<PointFormat>,
    validation: Validation,
) -> Result<(Vec<Affine<C>>, PointsLayout), MsmError> {
    let mut src = Source::open(path)?;
    read_points_from(&mut src, n, &ReadOptions { format, validation, ..Default::default() })
}

/// Decode `n` points from a source (see [`read_points`]).
pub fn read_points_from<C: InputCurve>(
    src: &mut Source,
    n: usize,
    opts: &ReadOptions,
) -> Result<(Vec<Affine<C>>, PointsLayout), MsmError> {
    let most = stream_bytes(n, opts.format.unwrap_or(PointFormat::Uncompressed).size::<C>());
    if src.buffer_up_to(most)?.is_none() {
        let fault = LayoutFault::StreamTooLong { most, count: n, scalars: None };
        return Err(whole(&src.name, Input::Points, most, fault));
    }
    let len = src.known_len();
    let path = src.name.clone();
    let layout = detect_layout::<C>(len, n, opts.format).ok_or_else(|| size_error::<C>(&path, len, n, opts.format))?;
    let header = if layout.prefixed { LENGTH_PREFIX_BYTES } else { 0 };
    if layout.prefixed {
        let mut prefix = [0u8; LENGTH_PREFIX_BYTES];
        src.read_exact(Input::Points, &mut prefix)?;
        let declared = u64::from_le_bytes(prefix);
        if declared != n as u64 {
            return Err(whole(&path, Input::Points, 0, RecordFault::LengthPrefix { declared, expected: n as u64 }));
        }
    }
    let size = layout.format.size::<C>();
    let mut points: Vec<Affine<C>> = Vec::new();
    points.try_reserve_exact(n).map_err(|_| out_of_memory(&path, format!("cannot allocate memory for {n} points")))?;
    let mut buf = vec![0u8; RECORDS_PER_READ.min(n) * size];
    (opts.progress)(0, n);
    // the layout was told by the count alone: when the very first point does
    // not read, say what else the length fits (two files concatenated)
    let also = if opts.format.is_none() { other_layouts::<C>(len, n, layout) } else { Vec::new() };
    let bad = |b: BadRecord| {
        let b = match b.fault {
            RecordFault::Point(fault) if b.index == Some(0) && !also.is_empty() => BadRecord {
                fault: RecordFault::PointOfOtherCount {
                    fault,
                    count: n,
                    format: layout.format,
                    len,
                    also: also.clone(),
                },
                ..b
            },
            _ => b,
        };
        malformed(&path, b.shifted(0, header as u64))
    };
    // Points decoded but not yet validated start at `validated`. They are
    // validated in batches (the batch subgroup test costs less per point on
    // more points), and before any decoding error is reported, so the first
    // bad point in file order is named.
    let mut validated = 0;
    let validate = |points: &[Affine<C>], first: usize| {
        let at = |index: usize, fault| {
            let index = first + index;
            bad(BadRecord::at(Input::Points, index, (index * size) as u64, fault))
        };
        validate_decoded(points, opts.validation, &|_, _| {}).map_err(|e| match e {
            MsmError::PointNotOnCurve { index } => at(index, PointFault::NotOnCurve),
            MsmError::PointNotInSubgroup { index } => at(index, PointFault::NotInSubgroup),
            other => other,
        })
    };
    while points.len() < n {
        let first = points.len();
        let bytes = &mut buf[..(n - first).min(RECORDS_PER_READ) * size];
        src.read_exact(Input::Points, bytes)?;
        if let Err(e) = decode_chunk(bytes, layout.format, first, &mut points) {
            validate(&points[validated..], validated)?;
            return Err(bad(e));
        }
        if points.len() - validated >= VALIDATION_BATCH || points.len() == n {
            validate(&points[validated..], validated)?;
            validated = points.len();
        }
        (opts.progress)(points.len(), n);
    }
    Ok((points, layout))
}

/// When `len` bytes read as `n` points in `layout` also hold a whole number
/// of points of the other encoding (2n compressed points are as long as n
/// uncompressed), those other counts, named after a decoding error: a points
/// file of another count (two files concatenated) then reads as the right
/// count of garbage, and the counts are what differ.
fn other_layouts<C: InputCurve>(len: usize, n: usize, layout: PointsLayout) -> Vec<usize> {
    let other = match layout.format {
        PointFormat::Compressed => PointFormat::Uncompressed,
        PointFormat::Uncompressed | PointFormat::Evm => PointFormat::Compressed,
    };
    [0, LENGTH_PREFIX_BYTES]
        .into_iter()
        .filter(|&h| len >= h && (len - h).is_multiple_of(other.size::<C>()))
        .map(|h| (len - h) / other.size::<C>())
        .filter(|&m| m != n)
        .collect()
}

/// An output: a file, or standard output (`-`).
pub struct Sink {
    name: PathBuf,
    writer: Box<dyn Write>,
}

impl Sink {
    /// Create (truncate) `path`; `-` is standard output.
    pub fn create(path: &Path) -> Result<Self, MsmError> {
        if path.as_os_str() == "-" {
            return Ok(Self { name: PathBuf::from("<stdout>"), writer: Box::new(std::io::stdout().lock()) });
        }
        let file = File::create(path).map_err(io_error(path))?;
        Ok(Self { name: path.to_path_buf(), writer: Box::new(std::io::BufWriter::with_capacity(1 << 20, file)) })
    }

    /// Write everything and flush: a full disk or a closed pipe is an error here.
    pub fn write_all_and_flush(mut self, bytes: &[u8]) -> Result<(), MsmError> {
        let io = io_error(&self.name);
        self.writer.write_all(bytes).map_err(io)?;
        self.writer.flush().map_err(io)
    }
}

fn write_all(path: &Path, bytes: &[u8]) -> Result<(), MsmError> {
    Sink::create(path)?.write_all_and_flush(bytes)
}

/// The points file's bytes: arkworks encodings in `format`, after the 8-byte length prefix when
/// `prefixed`.
pub fn encode_points<C: InputCurve>(points: &[Affine<C>], format: PointFormat, prefixed: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(points.len() * format.size::<C>() + LENGTH_PREFIX_BYTES);
    if prefixed {
        out.extend((points.len() as u64).to_le_bytes());
    }
    let encoded: Vec<Vec<u8>> = points.par_iter().map(|p| p.to_bytes(format)).collect();
    for e in encoded {
        out.extend(e);
    }
    out
}

/// Write points to `path` (`-`: standard output).
pub fn write_points<C: InputCurve>(path: &Path, points: &[Affine<C>], format: PointFormat) -> Result<(), MsmError> {
    write_all(path, &encode_points(points, format, false))
}

/// The scalars file's bytes: each scalar as 32 little-endian bytes, no prefix.
pub fn encode_scalars(scalars: &[ScalarLimbs]) -> Vec<u8> {
    encode_scalars_in(scalars, ScalarEndian::Little)
}

/// Scalars as 32-byte encodings in `endian` order.
pub fn encode_scalars_in(scalars: &[ScalarLimbs], endian: ScalarEndian) -> Vec<u8> {
    scalars.iter().flat_map(|s| endian.bytes(s)).collect()
}

/// Write scalars to `path` (`-`: standard output).
pub fn write_scalars(path: &Path, scalars: &[ScalarLimbs]) -> Result<(), MsmError> {
    write_all(path, &encode_scalars(scalars))
}

/// Lowercase hex of the compressed arkworks encoding: how results are printed.
pub fn result_hex<C: InputCurve>(p: &Affine<C>) -> String {
    p.to_bytes(PointFormat::Compressed).iter().map(|b| format!("{b:02x}")).collect()
}
