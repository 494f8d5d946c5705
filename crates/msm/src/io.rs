//! Input and output files.
//!
//! - Points: a concatenation of arkworks-canonical G1 affine encodings,
//!   compressed or uncompressed, optionally preceded by the 8-byte
//!   little-endian length that arkworks writes for a `Vec`.
//! - Scalars: 32-byte little-endian integers, each below the group order r.
//!
//! Every error names the file and the byte offset of the bad record.

use crate::context::{check_scalars, validate_points, Validation};
use crate::{MsmError, ScalarLimbs};
use rayon::prelude::*;
use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;
use zkmsm_curve::{Affine, MsmCurve, PointFormat};

pub const SCALAR_BYTES: usize = 32;

/// Records decoded per read: large enough for parallel decoding, small enough
/// that the file's bytes are never more than a few MiB in memory.
const RECORDS_PER_READ: usize = 1 << 14;

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> MsmError + Copy + '_ {
    move |source| MsmError::Io { path: path.to_path_buf(), source }
}

/// Fill `buf` from `r` as far as the file goes: the bytes read, fewer than
/// `buf.len()` only at the end of the file.
fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

fn malformed(path: &Path, offset: usize, what: impl Into<String>) -> MsmError {
    MsmError::Malformed { path: path.to_path_buf(), offset: offset as u64, what: what.into() }
}

/// Read scalars, rejecting a truncated tail and values >= r. The file is read
/// a chunk at a time into the limbs, never whole.
pub fn read_scalars<C: MsmCurve>(path: &Path) -> Result<Vec<ScalarLimbs>, MsmError> {
    let mut file = File::open(path).map_err(io_error(path))?;
    let expected = file.metadata().map(|m| m.len() as usize / SCALAR_BYTES).unwrap_or(0);
    let mut scalars: Vec<ScalarLimbs> = Vec::with_capacity(expected);
    let mut buf = vec![0u8; RECORDS_PER_READ * SCALAR_BYTES];
    loop {
        let got = read_up_to(&mut file, &mut buf).map_err(io_error(path))?;
        scalars.extend(
            buf[..got]
                .chunks_exact(SCALAR_BYTES)
                .map(|c| core::array::from_fn(|i| u64::from_le_bytes(c[8 * i..8 * i + 8].try_into().unwrap()))),
        );
        if got < buf.len() {
            let tail = got % SCALAR_BYTES;
            if tail != 0 {
                let whole = scalars.len();
                return Err(malformed(
                    path,
                    whole * SCALAR_BYTES,
                    format!(
                        "truncated scalar: {} bytes is {whole} whole 32-byte scalars plus {tail} bytes",
                        whole * SCALAR_BYTES + tail
                    ),
                ));
            }
            break;
        }
    }
    check_scalars::<C>(&scalars).map_err(|e| match e {
        MsmError::ScalarNotReduced { index } => {
            malformed(path, index * SCALAR_BYTES, format!("scalar {index} is not below the {} group order r", C::NAME))
        }
        other => other,
    })?;
    Ok(scalars)
}

/// How a points file is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointsLayout {
    pub format: PointFormat,
    /// The 8-byte arkworks `Vec` length prefix is present.
    pub prefixed: bool,
}

/// Work out the layout of `len` bytes holding `n` points (n from the scalars
/// file, which removes the ambiguity between 2n compressed and n uncompressed).
pub fn detect_layout<C: MsmCurve>(len: usize, n: usize, format: Option<PointFormat>) -> Option<PointsLayout> {
    let formats = match format {
        Some(f) => vec![f],
        None => vec![PointFormat::Compressed, PointFormat::Uncompressed],
    };
    for f in formats {
        for prefixed in [false, true] {
            if len == n * f.size::<C>() + if prefixed { 8 } else { 0 } {
                return Some(PointsLayout { format: f, prefixed });
            }
        }
    }
    None
}

/// Read `n` points, decode them in parallel and validate them. With
/// `Validation::Full` every point is checked to be in the subgroup. A regular
/// file is read a chunk at a time (decoded as it comes, so its bytes are never
/// all in memory); anything else (a pipe) is read whole first, as its length
/// is needed to tell the layout.
pub fn read_points<C: MsmCurve>(
    path: &Path,
    n: usize,
    format: Option<PointFormat>,
    validation: Validation,
) -> Result<(Vec<Affine<C>>, PointsLayout), MsmError> {
    let mut file = File::open(path).map_err(io_error(path))?;
    match file.metadata() {
        Ok(m) if m.is_file() => decode_points(path, file, m.len() as usize, n, format, validation),
        _ => {
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes).map_err(io_error(path))?;
            let len = bytes.len();
            decode_points(path, std::io::Cursor::new(bytes), len, n, format, validation)
        }
    }
}

/// Decode the `len` bytes of `reader` as `n` points (see [`read_points`]).
fn decode_points<C: MsmCurve>(
    path: &Path,
    mut reader: impl Read,
    len: usize,
    n: usize,
    format: Option<PointFormat>,
    validation: Validation,
) -> Result<(Vec<Affine<C>>, PointsLayout), MsmError> {
    let layout = detect_layout::<C>(len, n, format).ok_or_else(|| {
        let (c, u) = (PointFormat::Compressed.size::<C>(), PointFormat::Uncompressed.size::<C>());
        let allowed = match format {
            Some(f) => format!("{} bytes ({n} x {}, optionally + 8)", n * f.size::<C>(), f.size::<C>()),
            None => format!("{} (compressed) or {} (uncompressed) bytes, optionally + 8", n * c, n * u),
        };
        malformed(path, len, format!("file has {len} bytes; {n} points need {allowed}"))
    })?;
    let read_exact = |reader: &mut dyn Read, buf: &mut [u8]| reader.read_exact(buf).map_err(io_error(path));
    let header = if layout.prefixed { 8 } else { 0 };
    if layout.prefixed {
        let mut prefix = [0u8; 8];
        read_exact(&mut reader, &mut prefix)?;
        let declared = u64::from_le_bytes(prefix);
        if declared != n as u64 {
            return Err(malformed(path, 0, format!("length prefix says {declared} points, expected {n}")));
        }
    }
    let size = layout.format.size::<C>();
    let mut points: Vec<Affine<C>> = Vec::with_capacity(n);
    let mut buf = vec![0u8; RECORDS_PER_READ.min(n) * size];
    let mut decoded = Vec::new();
    while points.len() < n {
        let first = points.len();
        let bytes = &mut buf[..(n - first).min(RECORDS_PER_READ) * size];
        read_exact(&mut reader, bytes)?;
        bytes
            .par_chunks_exact(size)
            .map(|chunk| Affine::<C>::from_bytes(chunk, layout.format))
            .collect_into_vec(&mut decoded);
        for (k, p) in decoded.drain(..).enumerate() {
            let i = first + k;
            points.push(p.map_err(|e| malformed(path, header + i * size, format!("point {i}: {e}")))?);
        }
    }
    validate_points(&points, validation).map_err(|e| match e {
        MsmError::PointNotOnCurve { index } => {
            malformed(path, header + index * size, format!("point {index}: not on the curve"))
        }
        MsmError::PointNotInSubgroup { index } => {
            malformed(path, header + index * size, format!("point {index}: not in the prime-order subgroup"))
        }
        other => other,
    })?;
    Ok((points, layout))
}

fn write_all(path: &Path, bytes: &[u8]) -> Result<(), MsmError> {
    let io = io_error(path);
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).map_err(io)?);
    f.write_all(bytes).map_err(io)?;
    f.flush().map_err(io)
}

pub fn encode_points<C: MsmCurve>(points: &[Affine<C>], format: PointFormat, prefixed: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(points.len() * format.size::<C>() + 8);
    if prefixed {
        out.extend((points.len() as u64).to_le_bytes());
    }
    let encoded: Vec<Vec<u8>> = points.par_iter().map(|p| p.to_bytes(format)).collect();
    for e in encoded {
        out.extend(e);
    }
    out
}

pub fn write_points<C: MsmCurve>(path: &Path, points: &[Affine<C>], format: PointFormat) -> Result<(), MsmError> {
    write_all(path, &encode_points(points, format, false))
}

pub fn encode_scalars(scalars: &[ScalarLimbs]) -> Vec<u8> {
    scalars.iter().flat_map(|s| s.iter().flat_map(|l| l.to_le_bytes())).collect()
}

pub fn write_scalars(path: &Path, scalars: &[ScalarLimbs]) -> Result<(), MsmError> {
    write_all(path, &encode_scalars(scalars))
}

/// Lowercase hex of the compressed arkworks encoding: how results are printed.
pub fn result_hex<C: MsmCurve>(p: &Affine<C>) -> String {
    p.to_bytes(PointFormat::Compressed).iter().map(|b| format!("{b:02x}")).collect()
}
