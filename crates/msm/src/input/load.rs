//! Points from bytes: decoding and validation, the first half of init.
//!
//! [`decode_points`] turns a byte slice of arkworks-canonical encodings into
//! validated points, with errors ([`BadRecord`]) naming the point's index and byte offset,
//! the same as the file readers ([`crate::input::io`], which add the file's name
//! and header). [`validate_points`] checks points already in memory.

use crate::error::MsmError;
use crate::input::lane_roots::{CoordinateRoots, RootFinder};
use crate::input::record::{BadRecord, Input, PointFault, RecordFault};
pub use crate::input::validate::{validate_decoded, validate_points, validate_points_with_progress, Validation};
use crate::input::InputCurve;
use rayon::prelude::*;
use std::mem::MaybeUninit;
use zkmsm_curve::{Affine, DecodeError, Decoded, PointFormat};
use zkmsm_field::Field;

fn bad_point<C: InputCurve>(index: usize, format: PointFormat, fault: impl Into<RecordFault>) -> BadRecord {
    BadRecord::at(Input::Points, index, (index * format.size::<C>()) as u64, fault)
}

/// Decode `bytes`, a concatenation of encoded points (no length prefix), and
/// validate the points as `validation` says.
pub fn decode_points<C: InputCurve>(
    bytes: &[u8],
    format: PointFormat,
    validation: Validation,
) -> Result<Vec<Affine<C>>, BadRecord> {
    let size = format.size::<C>();
    let whole = bytes.len() / size;
    let mut points = Vec::with_capacity(whole);
    decode_chunk(&bytes[..whole * size], format, 0, &mut points)?;
    let extra = bytes.len() - whole * size;
    if extra != 0 {
        return Err(bad_point::<C>(whole, format, RecordFault::Truncated { extra, size }));
    }
    validate_decoded(&points, validation, &|_, _| {}).map_err(|e| match e {
        MsmError::PointNotOnCurve { index } => bad_point::<C>(index, format, PointFault::NotOnCurve),
        MsmError::PointNotInSubgroup { index } => bad_point::<C>(index, format, PointFault::NotInSubgroup),
        other => unreachable!("validation reports only bad points, not {other}"),
    })?;
    Ok(points)
}

/// Decode whole encoded points (`bytes.len()` a multiple of the point size)
/// onto `out`, in parallel; `first` is the index of the first of them, for
/// the errors of readers that decode a chunk at a time. Decoding checks the
/// encoding and the curve equation (a compressed point's y is checked to be
/// a square root of x^3 + b), not the subgroup ([`validate_decoded`]). On
/// an error, the points before the bad one have joined `out` (callers
/// validate them before reporting it).
pub fn decode_chunk<C: InputCurve>(
    bytes: &[u8],
    format: PointFormat,
    first: usize,
    out: &mut Vec<Affine<C>>,
) -> Result<(), BadRecord> {
    let size = format.size::<C>();
    assert_eq!(bytes.len() % size, 0, "decode_chunk takes whole points");
    let count = bytes.len() / size;
    let roots = C::sqrt_table().filter(|_| format == PointFormat::Compressed).and_then(C::Base::root_finder);
    out.reserve(count);
    let base = out.len();
    let bad = out.spare_capacity_mut()[..count]
        .par_chunks_mut(TASK)
        .zip(bytes.par_chunks(TASK * size))
        .enumerate()
        .filter_map(|(t, (slots, records))| {
            decode_task::<C>(records, format, roots.as_ref(), slots).map(|(k, e)| (t * TASK + k, e))
        })
        .min_by_key(|&(k, _)| k);
    let good = bad.as_ref().map_or(count, |&(k, _)| k);
    // SAFETY: every task wrote its slots in order up to its first bad
    // record, so the tasks before the first bad record wrote all of theirs
    // and its own task every one before it: slots base..base + good hold
    // points (Affine is Copy: the slots written after it need no drop).
    unsafe { out.set_len(base + good) };
    match bad {
        Some((k, e)) => Err(bad_point::<C>(first + k, format, PointFault::Decode(e))),
        None => Ok(()),
    }
}

/// Records per parallel task of [`decode_chunk`]: parsed, their square
/// roots taken (in lanes, [`RootFinder`]) and made points in one pass on one
/// thread, where a pass per step over all the records cost a join of both
/// cores after each and the intermediate vectors' traffic.
const TASK: usize = 256;

/// Decode `records` into `slots`, in order, up to the first bad record:
/// its index in `records` and its fault, `None` when all are good. `roots`
/// is the compressed points' root finder (`None`: each point's own root).
fn decode_task<C: InputCurve>(
    records: &[u8],
    format: PointFormat,
    roots: Option<&RootFinder<C::Base>>,
    slots: &mut [MaybeUninit<Affine<C>>],
) -> Option<(usize, DecodeError)> {
    let parsed: Vec<Result<Decoded<C>, DecodeError>> =
        records.chunks_exact(format.size::<C>()).map(|b| Affine::<C>::decode_deferred(b, format)).collect();
    let points: Vec<Result<Affine<C>, DecodeError>> = match roots {
        None => parsed
            .into_iter()
            .map(|d| match d? {
                Decoded::Point(p) => Ok(p),
                Decoded::Compressed { x, largest } => Affine::<C>::from_x(x, largest).ok_or(DecodeError::NoSuchX),
            })
            .collect(),
        Some(roots) => {
            // x^3 + b of the compressed points (zero for the rest: unused)
            let rhs: Vec<C::Base> = parsed
                .iter()
                .map(|d| match d {
                    Ok(Decoded::Compressed { x, .. }) => x.square() * *x + C::coeff_b(),
                    _ => C::Base::ZERO,
                })
                .collect();
            let mut ys = vec![None; rhs.len()];
            roots.take(&rhs, &mut ys);
            parsed.into_iter().zip(ys.into_iter().zip(rhs)).map(|(d, (y, rhs))| settle(d?, y, rhs)).collect()
        }
    };
    for (k, (p, slot)) in points.into_iter().zip(slots).enumerate() {
        match p {
            Ok(p) => {
                slot.write(p);
            }
            Err(e) => return Some((k, e)),
        }
    }
    None
}

/// A decoded record as a point, given the lane root `y` of `rhs` = x^3 + b
/// for a compressed one. The root is checked (y^2 = rhs: one squaring), so
/// that decoded points need no curve check later; one that failed (none
/// should) is taken again by the scalar root.
fn settle<C: InputCurve>(d: Decoded<C>, y: Option<C::Base>, rhs: C::Base) -> Result<Affine<C>, DecodeError> {
    match d {
        Decoded::Point(p) => Ok(p),
        Decoded::Compressed { x, largest } => match y {
            Some(y) if y.square() == rhs => Ok(Affine::<C>::from_x_and_root(x, y, largest)),
            Some(_) => Affine::<C>::from_x(x, largest).ok_or(DecodeError::NoSuchX),
            None => Err(DecodeError::NoSuchX),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::random_points;
    use zkmsm_curve::{Bls12_377, Bls12_381};
    use zkmsm_field::Field;

    fn off_subgroup<C: InputCurve>() -> Affine<C> {
        let mut x = C::Base::ONE;
        loop {
            if let Some(p) = Affine::<C>::from_x(x, false) {
                if !p.is_in_subgroup() {
                    return p;
                }
            }
            x += C::Base::ONE;
        }
    }

    /// The points' encodings, concatenated (as a points file holds them).
    fn encode_points<C: InputCurve>(points: &[Affine<C>], format: PointFormat, _prefixed: bool) -> Vec<u8> {
        points.iter().flat_map(|p| p.to_bytes(format)).collect()
    }

    fn faults<C: InputCurve>() {
        let mut pts = random_points::<C>(40, 3).points;
        pts[5] = Affine::identity();
        for format in [PointFormat::Compressed, PointFormat::Uncompressed] {
            let size = format.size::<C>();
            let bytes = encode_points(&pts, format, false);
            assert_eq!(decode_points::<C>(&bytes, format, Validation::Full).unwrap(), pts);

            // truncated: the offset is the end of the last whole point
            let err = decode_points::<C>(&bytes[..bytes.len() - 3], format, Validation::Full).unwrap_err();
            assert_eq!((err.index, err.offset), (Some(39), (39 * size) as u64));
            assert_eq!(err.fault, RecordFault::Truncated { extra: size - 3, size });

            // a coordinate >= q (all ones, flags aside) at point 17
            let mut b = bytes.clone();
            b[17 * size..18 * size].fill(0xff);
            let err = decode_points::<C>(&b, format, Validation::Full).unwrap_err();
            assert_eq!((err.index, err.offset), (Some(17), (17 * size) as u64));
            assert!(matches!(err.fault, RecordFault::Point(PointFault::Decode(_))), "{err}");

            // off the subgroup at point 23, reported after decoding
            let mut bad = pts.clone();
            bad[23] = off_subgroup::<C>();
            let b = encode_points(&bad, format, false);
            let err = decode_points::<C>(&b, format, Validation::Full).unwrap_err();
            assert_eq!(err, BadRecord::at(Input::Points, 23, (23 * size) as u64, PointFault::NotInSubgroup));
            assert_eq!(
                err.to_string(),
                format!("byte offset {}: point 23: not in the prime-order subgroup", 23 * size)
            );
            assert!(decode_points::<C>(&b, format, Validation::OnCurveOnly).is_ok());

            // chunks: indices continue from `first`
            let mut out = Vec::new();
            decode_chunk::<C>(&bytes[..10 * size], format, 0, &mut out).unwrap();
            let err = decode_chunk::<C>(&b[..], format, 100, &mut out);
            assert!(err.is_ok(), "decode_chunk does not check the subgroup");
            let mut b = bytes.clone();
            b[3 * size..4 * size].fill(0xff);
            let err = decode_chunk::<C>(&b, format, 100, &mut out).unwrap_err();
            assert_eq!((err.index, err.offset), (Some(103), (103 * size) as u64));
        }
        assert_eq!(decode_points::<C>(&[], PointFormat::Compressed, Validation::Full).unwrap(), vec![]);
    }

    /// Chunks of several decoding tasks: the first bad record in index
    /// order is named wherever the tasks end, and exactly the points before
    /// it join `out` (after those already there).
    fn bad_records_across_tasks<C: InputCurve>() {
        let n = 3 * TASK + 17;
        let pts = random_points::<C>(n, 5).points;
        for format in [PointFormat::Compressed, PointFormat::Uncompressed] {
            let size = format.size::<C>();
            let bytes = encode_points(&pts, format, false);
            for bad in [vec![], vec![0], vec![TASK - 1], vec![TASK], vec![2 * TASK + 5, TASK + 3], vec![n - 1]] {
                let mut b = bytes.clone();
                for &k in &bad {
                    b[k * size..(k + 1) * size].fill(0xff);
                }
                let mut out = pts[..2].to_vec();
                let got = decode_chunk::<C>(&b, format, 1000, &mut out);
                let first = bad.iter().copied().min();
                match first {
                    None => assert!(got.is_ok()),
                    Some(k) => assert_eq!(
                        got.map_err(|e| (e.index, e.offset)),
                        Err((Some(1000 + k), ((1000 + k) * size) as u64))
                    ),
                }
                let good = first.unwrap_or(n);
                assert_eq!(out.len(), 2 + good, "{format:?} {bad:?}");
                assert_eq!(out[2..], pts[..good], "{format:?} {bad:?}");
            }
        }
    }

    #[test]
    fn bad_records_across_tasks_bls12_377() {
        bad_records_across_tasks::<Bls12_377>();
    }

    #[test]
    fn bad_records_across_tasks_bls12_381() {
        bad_records_across_tasks::<Bls12_381>();
    }

    /// A lane root that fails its check is replaced by the scalar root: the
    /// point comes out the same, with the sign its flag asks for; an x with
    /// no root is refused whatever the lane said; whole points pass through.
    fn lane_root_fallback<C: InputCurve>() {
        for (k, p) in random_points::<C>(6, 9).points.into_iter().enumerate() {
            let largest = k % 2 == 0;
            let want = Affine::<C>::from_x(p.x, largest).unwrap();
            let rhs = p.x.square() * p.x + C::coeff_b();
            let d = || Decoded::Compressed { x: p.x, largest };
            assert_eq!(settle::<C>(d(), Some(p.y), rhs), Ok(want), "a good lane root");
            assert_eq!(settle::<C>(d(), Some(-p.y), rhs), Ok(want), "the other root: the flag picks the sign");
            for wrong in [p.y + C::Base::ONE, C::Base::ZERO, p.x] {
                assert_eq!(settle::<C>(d(), Some(wrong), rhs), Ok(want), "a wrong lane root falls back");
            }
            assert_eq!(settle::<C>(Decoded::Point(p), None, C::Base::ZERO), Ok(p));
        }
        let no_root = (1u64..).map(C::Base::from_u64).find(|x| Affine::<C>::from_x(*x, false).is_none()).unwrap();
        let rhs = no_root.square() * no_root + C::coeff_b();
        let d = || Decoded::Compressed { x: no_root, largest: false };
        assert_eq!(settle::<C>(d(), Some(C::Base::ONE), rhs), Err(DecodeError::NoSuchX));
        assert_eq!(settle::<C>(d(), None, rhs), Err(DecodeError::NoSuchX));
    }

    #[test]
    fn lane_root_fallback_bls12_377() {
        lane_root_fallback::<Bls12_377>();
    }

    #[test]
    fn lane_root_fallback_bls12_381() {
        lane_root_fallback::<Bls12_381>();
    }

    #[test]
    fn byte_slices_decode_with_index_and_offset_bls12_377() {
        faults::<Bls12_377>();
    }

    #[test]
    fn byte_slices_decode_with_index_and_offset_bls12_381() {
        faults::<Bls12_381>();
    }
}
