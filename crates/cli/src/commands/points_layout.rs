//! `prepare` has no scalars to tell it how many points a file holds: the
//! count and the encoding come from the file's length (and its arkworks
//! length prefix, if any). Where the length fits more than one layout (2n
//! compressed points are as long as n uncompressed), the first few points
//! are decoded and validated in each, and the layout whose points are valid
//! is taken. When none is, the error is the one of the layout whose valid
//! points run longest: a bad point among the first few is named as such.
//! A stream is probed as soon as its first points are in: one that reads
//! in no layout is refused before the rest is read.

use std::path::Path;
use zkmsm::io::{LENGTH_PREFIX_BYTES, STDIN_NAME};
use zkmsm::{BadRecord, EngineCurve, Input, LayoutFault, MsmError, RecordFault, Validation};
use zkmsm_curve::PointFormat;

/// Points decoded in each candidate layout.
const PROBE: usize = 4;

/// A points input read far enough to know its layout: its length, its first
/// bytes, and for a stream all of its bytes.
pub struct PointsInput {
    /// What errors call it (the path, or `<stdin>`).
    pub name: std::path::PathBuf,
    pub len: usize,
    pub head: Vec<u8>,
    /// A stream's bytes (read whole, bounded); `None` for a regular file.
    pub bytes: Option<Vec<u8>>,
}

impl PointsInput {
    /// Open `path` (`-`: standard input). A regular file is measured and its
    /// head read; standard input, a pipe or a FIFO is read whole,
    /// but no further than `max_points` points of the widest layout take.
    /// `format` is the one asked for (`--point-format`), if any: a stream is
    /// probed in the layouts that `count_points` will consider.
    pub fn read<C: EngineCurve>(path: &Path, max_points: usize, format: Option<PointFormat>) -> Result<Self, MsmError> {
        use std::io::Read;
        let stdin = path.as_os_str() == "-";
        let name = if stdin { Path::new(STDIN_NAME).to_path_buf() } else { path.to_path_buf() };
        let io = |source| MsmError::Io { path: name.clone(), source };
        let file = if stdin {
            use std::os::fd::AsFd;
            std::fs::File::from(std::io::stdin().as_fd().try_clone_to_owned().map_err(io)?)
        } else {
            std::fs::File::open(path).map_err(io)?
        };
        let meta = file.metadata().map_err(io)?;
        let widest = candidates(format).into_iter().map(|f| f.size::<C>()).max().expect("a layout");
        let head_bytes = (LENGTH_PREFIX_BYTES + PROBE * widest) as u64;
        if meta.is_dir() {
            return Err(io(std::io::Error::from(std::io::ErrorKind::IsADirectory)));
        }

        // standard input is read as a stream even from a file: its offset is
        // shared with whoever opened it, so it is read once, from where it is
        if meta.is_file() && !stdin {
            let mut head = Vec::new();
            file.take(head_bytes).read_to_end(&mut head).map_err(io)?;
            return Ok(Self { name, len: meta.len() as usize, head, bytes: None });
        }
        let most = max_points.saturating_mul(widest).saturating_add(LENGTH_PREFIX_BYTES);
        let mut bytes = Vec::new();
        let mut stream = file.take((most as u64).saturating_add(1));
        (&mut stream).take(head_bytes).read_to_end(&mut bytes).map_err(io)?;
        if bytes.len() as u64 == head_bytes {
            // more follows: a stream whose first points read in no layout
            // (/dev/zero) is refused now, not after the whole limit is read
            refuse_unreadable_head::<C>(&name, &bytes, format)?;
        }
        stream.read_to_end(&mut bytes).map_err(io)?;
        if bytes.len() > most {
            let fault = LayoutFault::StreamAboveLimit { limit: max_points, past: most, hint: " (--max-points)" };
            return Err(malformed(&name, most, fault));
        }
        let head = bytes[..bytes.len().min(head_bytes as usize)].to_vec();
        Ok(Self { name, len: bytes.len(), head, bytes: Some(bytes) })
    }
}

/// The layouts a points input is read in: the one asked for, or else
/// compressed and uncompressed (the EVM's layout is only taken when asked
/// for: a run of zero bytes is its identity, so it would fit any stream).
fn candidates(format: Option<PointFormat>) -> Vec<PointFormat> {
    match format {
        Some(f) => vec![f],
        None => vec![PointFormat::Compressed, PointFormat::Uncompressed],
    }
}

/// A stream's first points, valid in no candidate layout (after a length
/// prefix or not): the error of the layout whose valid points run longest,
/// as for a file.
fn refuse_unreadable_head<C: EngineCurve>(
    name: &Path,
    head: &[u8],
    format: Option<PointFormat>,
) -> Result<(), MsmError> {
    let fits = candidates(format).into_iter().flat_map(|f| [(PROBE, f, 0), (PROBE, f, 8)]);
    let probed: Vec<Probed> = fits.map(|fit| (fit, first_bad::<C>(head, fit))).collect();
    if probed.iter().any(|(_, bad)| bad.is_none()) {
        return Ok(());
    }
    Err(best_error(name, head.len(), probed))
}

/// The number of points and their format (see the module documentation).
pub fn count_points<C: EngineCurve>(
    input: &PointsInput,
    format: Option<PointFormat>,
) -> Result<(usize, PointFormat), MsmError> {
    let (path, len, head) = (input.name.as_path(), input.len, &input.head[..]);
    let prefix_value = (len >= 8).then(|| u64::from_le_bytes(head[..8].try_into().expect("8 bytes")));
    // (points, format, byte offset of the first point)
    let mut fits = Vec::new();
    for f in candidates(format) {
        let size = f.size::<C>();
        if len.is_multiple_of(size) {
            fits.push((len / size, f, 0));
        }
        if len >= 8 && (len - 8).is_multiple_of(size) && prefix_value == Some(((len - 8) / size) as u64) {
            fits.push(((len - 8) / size, f, 8));
        }
    }
    // no points: any layout is the empty one
    if !fits.is_empty() && fits.iter().all(|&(n, _, _)| n == 0) {
        return Ok((0, fits[0].1));
    }
    if fits.len() > 1 {
        let probed: Vec<_> = fits.iter().map(|&fit| (fit, first_bad::<C>(head, fit))).collect();
        let valid: Vec<_> = probed.iter().filter(|(_, bad)| bad.is_none()).map(|&(fit, _)| fit).collect();
        match valid.len() {
            1 => fits = valid,
            0 => return Err(best_error(path, len, probed)),
            _ => return Err(malformed(path, 0, LayoutFault::BothLayouts { len })),
        }
    }
    match fits[..] {
        [(n, f, _)] => Ok((n, f)),
        _ => Err(malformed(
            path,
            len,
            LayoutFault::NotWhole {
                len,
                curve: C::NAME,
                format: None,
                compressed: PointFormat::Compressed.size::<C>(),
                uncompressed: PointFormat::Uncompressed.size::<C>(),
            },
        )),
    }
}

/// The points input `path` is wrong as a whole, at byte `offset`.
fn malformed(path: &Path, offset: usize, fault: LayoutFault) -> MsmError {
    MsmError::malformed(path, BadRecord::whole(Input::Points, offset as u64, fault))
}

/// The first invalid point among the first few of layout `fit`: its index
/// and the bad record that names it (byte offset in the file).
fn first_bad<C: EngineCurve>(head: &[u8], (n, f, at): (usize, PointFormat, usize)) -> Option<(usize, BadRecord)> {
    let size = f.size::<C>();
    for k in 1..=n.min(PROBE) {
        let bytes = head.get(at..at + k * size)?;
        if let Err(b) = zkmsm::decode_points::<C>(bytes, f, Validation::Full) {
            let b = match b.fault {
                RecordFault::Point(fault) => BadRecord { fault: RecordFault::ProbedPoint { format: f, fault }, ..b },
                _ => b,
            };
            return Some((b.index.unwrap_or(0), b.shifted(0, at as u64)));
        }
    }
    None
}

type Probed = ((usize, PointFormat, usize), Option<(usize, BadRecord)>);

/// No layout's first points are all valid: the error of the layout whose
/// valid points run longest, or when they fail at the same point, both.
fn best_error(path: &Path, len: usize, probed: Vec<Probed>) -> MsmError {
    let mut failures: Vec<(usize, BadRecord)> = probed.into_iter().filter_map(|(_, bad)| bad).collect();
    failures.sort_by_key(|(index, _)| std::cmp::Reverse(*index));
    if failures.len() > 1 && failures[0].0 > failures[1].0 {
        return MsmError::malformed(path, failures.swap_remove(0).1);
    }
    let failures = failures.into_iter().map(|(_, record)| record).collect();
    malformed(path, 0, LayoutFault::NeitherLayout { len, failures })
}
