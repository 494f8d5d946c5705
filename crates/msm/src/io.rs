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
use std::io::Write;
use std::path::Path;
use zkmsm_curve::{Affine, MsmCurve, PointFormat};

pub const SCALAR_BYTES: usize = 32;

fn read_all(path: &Path) -> Result<Vec<u8>, MsmError> {
    std::fs::read(path).map_err(|source| MsmError::Io { path: path.to_path_buf(), source })
}

fn malformed(path: &Path, offset: usize, what: impl Into<String>) -> MsmError {
    MsmError::Malformed { path: path.to_path_buf(), offset: offset as u64, what: what.into() }
}

/// Read scalars, rejecting a truncated tail and values >= r.
pub fn read_scalars<C: MsmCurve>(path: &Path) -> Result<Vec<ScalarLimbs>, MsmError> {
    let bytes = read_all(path)?;
    let whole = bytes.len() / SCALAR_BYTES;
    if bytes.len() % SCALAR_BYTES != 0 {
        return Err(malformed(
            path,
            whole * SCALAR_BYTES,
            format!(
                "truncated scalar: {} bytes is {whole} whole 32-byte scalars plus {} bytes",
                bytes.len(),
                bytes.len() % SCALAR_BYTES
            ),
        ));
    }
    let scalars: Vec<ScalarLimbs> = bytes
        .chunks_exact(SCALAR_BYTES)
        .map(|c| core::array::from_fn(|i| u64::from_le_bytes(c[8 * i..8 * i + 8].try_into().unwrap())))
        .collect();
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
/// `Validation::Full` every point is checked to be in the subgroup.
pub fn read_points<C: MsmCurve>(
    path: &Path,
    n: usize,
    format: Option<PointFormat>,
    validation: Validation,
) -> Result<(Vec<Affine<C>>, PointsLayout), MsmError> {
    let bytes = read_all(path)?;
    let layout = detect_layout::<C>(bytes.len(), n, format).ok_or_else(|| {
        let (c, u) = (PointFormat::Compressed.size::<C>(), PointFormat::Uncompressed.size::<C>());
        let allowed = match format {
            Some(f) => format!("{} bytes ({n} x {}, optionally + 8)", n * f.size::<C>(), f.size::<C>()),
            None => format!("{} (compressed) or {} (uncompressed) bytes, optionally + 8", n * c, n * u),
        };
        malformed(path, bytes.len(), format!("file has {} bytes; {n} points need {allowed}", bytes.len()))
    })?;
    let header = if layout.prefixed { 8 } else { 0 };
    if layout.prefixed {
        let declared = u64::from_le_bytes(bytes[..8].try_into().unwrap());
        if declared != n as u64 {
            return Err(malformed(path, 0, format!("length prefix says {declared} points, expected {n}")));
        }
    }
    let size = layout.format.size::<C>();
    let decoded: Result<Vec<Affine<C>>, MsmError> = bytes[header..]
        .par_chunks_exact(size)
        .enumerate()
        .map(|(i, chunk)| {
            Affine::<C>::from_bytes(chunk, layout.format)
                .map_err(|e| malformed(path, header + i * size, format!("point {i}: {e}")))
        })
        .collect();
    let points = decoded?;
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
    let io = |source| MsmError::Io { path: path.to_path_buf(), source };
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
