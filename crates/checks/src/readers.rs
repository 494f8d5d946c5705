//! The points and scalars readers (`zkmsm::io`) against a simple model of
//! the file formats: any bytes, as a file (length known) or a stream (length
//! unknown), with any limit on the input size. The readers accept exactly
//! what the model accepts, return what the model decodes, and name the byte
//! offset the model names for the first bad record.

use zkmsm::io::{read_msm_inputs, read_scalars_from, ReadOptions, Source, LENGTH_PREFIX_BYTES, SCALAR_BYTES};
use zkmsm::{Input, MsmError, ScalarLimbs, Validation};
use zkmsm_curve::{Affine, Bls12_377, Bls12_381, PointFormat};
use zkmsm_field::PrimeField;

/// A cursor over the fuzz input that reads zeros once it is exhausted.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    /// The next byte (0 once the input is exhausted).
    pub fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    /// The next two bytes as a little-endian `u16`.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }
    /// The next eight bytes as a little-endian `u64`.
    pub fn u64(&mut self) -> u64 {
        u64::from_le_bytes(core::array::from_fn(|_| self.byte()))
    }
}

const LIMITS: [usize; 8] = [zkmsm::io::DEFAULT_MAX_POINTS, 0, 1, 2, 3, 5, 8, 16];

fn source(name: &str, bytes: &[u8], stream: bool) -> Source {
    if stream {
        Source::from_reader(name, std::io::Cursor::new(bytes.to_vec()), None)
    } else {
        Source::from_bytes(name, bytes.to_vec())
    }
}

/// The input the file called `name` holds: `p` the points, `s` the scalars.
fn input_of(name: &std::ffi::OsStr) -> Input {
    if name == "p" {
        Input::Points
    } else {
        Input::Scalars
    }
}

/// The offset of a `Malformed` error on the file called `name` (its record
/// of that file's input).
fn malformed_offset(e: &MsmError, name: &str) -> u64 {
    match e {
        MsmError::Malformed { path, record } if path.as_os_str() == name => {
            assert_eq!(record.input, input_of(path.as_os_str()), "{e}");
            record.offset
        }
        other => panic!("expected a malformed-input error on {name}, got {other:?}"),
    }
}

/// The scalars format: (values, prefixed), or the offset the error names.
fn scalars_model<C: zkmsm::InputCurve>(b: &[u8], stream: bool, max: usize) -> Result<(Vec<ScalarLimbs>, bool), u64> {
    let most = max * SCALAR_BYTES + LENGTH_PREFIX_BYTES;
    if stream && b.len() > most {
        return Err(most as u64);
    }
    let (count, header) = match b.len() % 32 {
        0 => (b.len() / 32, 0),
        8 => (b.len() / 32, 8),
        _ => return Err((b.len() / 32 * 32) as u64),
    };
    if count > max {
        return Err((max * SCALAR_BYTES) as u64);
    }
    if header == 8 && u64::from_le_bytes(b[..8].try_into().unwrap()) != count as u64 {
        return Err(0);
    }
    let mut values = Vec::new();
    for (i, chunk) in b[header..].chunks_exact(32).enumerate() {
        // canonical (< r) by the field's own byte decoder
        if C::Scalar::from_bytes_le(chunk).is_none() {
            return Err((header + 32 * i) as u64);
        }
        values.push(core::array::from_fn(|k| u64::from_le_bytes(chunk[8 * k..8 * k + 8].try_into().unwrap())));
    }
    Ok((values, header == 8))
}

/// Input: byte 0 = stream (bit 0) and limit (bits 1-3); the rest is the file.
pub fn read_scalars(data: &[u8]) {
    let mut d = Bytes(data);
    let mode = d.byte();
    let (stream, max) = (mode & 1 != 0, LIMITS[(mode >> 1) as usize % 8]);
    let file = d.0;
    check_scalars::<Bls12_377>(file, stream, max);
    check_scalars::<Bls12_381>(file, stream, max);
}

fn check_scalars<C: zkmsm::InputCurve>(file: &[u8], stream: bool, max: usize) {
    let got = read_scalars_from::<C>(&mut source("s", file, stream), max);
    match (got, scalars_model::<C>(file, stream, max)) {
        (Ok(got), Ok(want)) => assert_eq!(got, want),
        (Err(e), Err(at)) => assert_eq!(malformed_offset(&e, "s"), at, "{e}"),
        (got, want) => panic!("{}: reader {:?}, model {:?}", C::NAME, got.map(|v| v.0.len()), want.map(|v| v.0.len())),
    }
}

/// The points format for `n` points: the points, or the offset of the first
/// bad record (`None` when the size or the length prefix is wrong).
fn points_model<C: zkmsm::InputCurve>(
    b: &[u8],
    n: usize,
    format: Option<PointFormat>,
) -> Result<Vec<Affine<C>>, Option<u64>> {
    let formats = match format {
        Some(f) => vec![f],
        None => vec![PointFormat::Compressed, PointFormat::Uncompressed],
    };
    let (f, header) =
        formats.iter().flat_map(|&f| [(f, 0), (f, 8)]).find(|&(f, h)| b.len() == n * f.size::<C>() + h).ok_or(None)?;
    if header == 8 && u64::from_le_bytes(b[..8].try_into().unwrap()) != n as u64 {
        return Err(None);
    }
    let size = f.size::<C>();
    let mut points = Vec::new();
    for (i, rec) in b[header..].chunks_exact(size).enumerate() {
        match Affine::<C>::from_bytes(rec, f) {
            Ok(p) if p.is_on_curve() && p.is_in_subgroup() => points.push(p),
            _ => return Err(Some((header + i * size) as u64)),
        }
    }
    Ok(points)
}

/// Input: byte 0 = curve (bit 0), format (bits 1-2), points stream (bit 3),
/// scalars stream (bit 4), limit (bits 5-7); bytes 1-2 = the scalars file's
/// length (mod what is left); then the scalars file, then the points file.
pub fn read_inputs(data: &[u8]) {
    let mut d = Bytes(data);
    let mode = d.byte();
    let split = d.u16() as usize % (d.0.len() + 1);
    let (scalars, points) = d.0.split_at(split);
    let format = [None, Some(PointFormat::Compressed), Some(PointFormat::Uncompressed), None][(mode >> 1) as usize & 3];
    let (pstream, sstream, max) = (mode & 8 != 0, mode & 16 != 0, LIMITS[(mode >> 5) as usize]);
    if mode & 1 == 0 {
        check_inputs::<Bls12_377>(points, scalars, format, pstream, sstream, max)
    } else {
        check_inputs::<Bls12_381>(points, scalars, format, pstream, sstream, max)
    }
}

fn check_inputs<C: zkmsm::InputCurve>(
    points: &[u8],
    scalars: &[u8],
    format: Option<PointFormat>,
    pstream: bool,
    sstream: bool,
    max: usize,
) {
    let opts = ReadOptions { format, validation: Validation::Full, max_points: max, ..Default::default() };
    let got = read_msm_inputs::<C>(source("p", points, pstream), source("s", scalars, sstream), &opts);
    // the model: well-formed scalars, then n points in some layout
    let want_scalars = scalars_model::<C>(scalars, false, max);
    let want_points = want_scalars.as_ref().ok().map(|(s, _)| points_model::<C>(points, s.len(), format));
    match (got, want_scalars, want_points) {
        (Ok(got), Ok((scalars, prefixed)), Some(Ok(points))) => {
            assert!(got.scalars == scalars && got.scalars_prefixed == prefixed);
            assert!(got.points == points);
            assert_eq!(got.points.len(), got.scalars.len());
        }
        (Err(e), Ok(_), Some(Err(Some(at)))) => {
            // sizes right, a bad record: the first one in file order is named
            assert_eq!(malformed_offset(&e, "p"), at, "{e}");
        }
        (Err(e), Ok(_), Some(Err(None))) => {
            // the points file's size or prefix is wrong: named on the points
            // file, or on a scalars stream that outnumbers what it can hold
            assert!(matches!(&e, MsmError::Malformed { path, .. } if path.as_os_str() == "p" || sstream), "{e}");
        }
        (Err(e), Err(_), None) => {
            // the scalars are wrong, or the sizes disagree: either file may be named
            assert!(
                matches!(&e, MsmError::Malformed { path, record } if record.input == input_of(path.as_os_str())),
                "{e}"
            );
        }
        (Ok(_), _, _) => panic!("{}: the readers accept inputs the model refuses", C::NAME),
        (Err(e), _, _) => panic!("{}: the readers refuse valid inputs: {e}", C::NAME),
    }
}
