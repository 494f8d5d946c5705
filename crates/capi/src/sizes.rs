//! Checks made on the callers' lengths before anything is decoded or
//! allocated: counts compared first, the memory an input implies tried with
//! a fallible allocation (so that too much is an error code, never an abort).

use zkmsm::encoded::{Curve, ErrorKind, InputError, PointFormat};

/// Bytes of the arkworks length prefix the CLI accepts before points and scalars.
pub(crate) const PREFIX_BYTES: usize = 8;
/// Bytes of one scalar.
pub(crate) const SCALAR_BYTES: usize = 32;
/// The memory for a context of `n` points of `curve` with `copies` prepared
/// copies (None: more than the address space): the registry's
/// [`Curve::context_work`].
pub fn point_work(curve: Curve, n: usize, copies: u32) -> Option<usize> {
    curve.context_work(n, copies)
}

/// The memory for an MSM on `n` scalars ([`Curve::msm_work`]).
pub fn scalar_work(n: usize) -> Option<usize> {
    Curve::msm_work(n)
}

/// Whether `bytes` could be allocated now ([`zkmsm::encoded::can_allocate`]):
/// it tells an input far beyond the process's memory from one that fits,
/// before the allocations that would abort on failure.
pub fn can_allocate(bytes: Option<usize>) -> bool {
    zkmsm::encoded::can_allocate(bytes)
}

/// Whether `points_len` bytes can hold `n` points of `curve` in `format` (or
/// either format when None), optionally after the length prefix.
pub fn points_fit(curve: Curve, points_len: usize, n: usize, format: Option<PointFormat>) -> bool {
    let formats: &[PointFormat] = match format {
        Some(PointFormat::Compressed) => &[PointFormat::Compressed],
        Some(PointFormat::Uncompressed) => &[PointFormat::Uncompressed],
        Some(PointFormat::Evm) => &[PointFormat::Evm],
        None => &[PointFormat::Compressed, PointFormat::Uncompressed],
    };
    formats.iter().any(|&f| {
        n.checked_mul(curve.point_size(f))
            .is_some_and(|body| points_len == body || points_len.checked_sub(PREFIX_BYTES) == Some(body))
    })
}

/// The error for points that cannot hold as many points as there are scalars.
pub fn count_mismatch(curve: Curve, points_len: usize, n: usize, format: Option<PointFormat>) -> InputError {
    let need = |f: PointFormat| n.saturating_mul(curve.point_size(f));
    let allowed = match format {
        Some(f) => format!("{} bytes", need(f)),
        None => format!(
            "{} (compressed) or {} (uncompressed) bytes",
            need(PointFormat::Compressed),
            need(PointFormat::Uncompressed)
        ),
    };
    InputError::plain(
        ErrorKind::LengthMismatch,
        format!("points: {points_len} bytes, but {n} scalars need {allowed} of points, optionally + 8"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkmsm::encoded::strip_scalars_prefix;
    use zkmsm::{BadRecord, Input, RecordFault};

    #[test]
    fn counts_are_compared_without_overflow() {
        let c = Curve::Bls12_381;
        assert!(points_fit(c, 48 * 3, 3, None));
        assert!(points_fit(c, 96 * 3 + 8, 3, None));
        assert!(!points_fit(c, 96 * 3 + 8, 3, Some(PointFormat::Compressed)));
        assert!(!points_fit(c, 48 * 3, 4, None));
        // n * 96 overflows usize: never a fit, never a panic
        assert!(!points_fit(c, usize::MAX - 15, usize::MAX / 32, None));
        assert!(point_work(c, usize::MAX / 48, 1).is_none());
        assert_eq!(point_work(c, 1, 1), Some(512));
        assert_eq!(point_work(Curve::Bls12_381G2, 1, 2), Some(2 * (4 * 192 + 128)));
        assert!(!can_allocate(None));
        assert!(!can_allocate(Some(usize::MAX - 15)));
        assert!(can_allocate(Some(1 << 20)));
    }

    #[test]
    fn scalar_prefix_must_state_the_count() {
        let mut s = 2u64.to_le_bytes().to_vec();
        s.extend_from_slice(&[0u8; 64]);
        assert_eq!(strip_scalars_prefix(&s).unwrap().len(), 64);
        s[0] = 3;
        let e = strip_scalars_prefix(&s).unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::Scalars, Some(0)));
        assert!(e.message.contains("it says 3"), "{}", e.message);
        let fault = RecordFault::LengthPrefix { declared: 3, expected: 2 };
        assert_eq!(e.record.as_deref(), Some(&BadRecord::whole(Input::Scalars, 0, fault)));
        assert_eq!(strip_scalars_prefix(&[0u8; 64]).unwrap().len(), 64);
    }

    #[test]
    fn the_constants_are_the_registry_codes() {
        use crate::{ZKMSM_BLS12_377, ZKMSM_BLS12_381, ZKMSM_BN254, ZKMSM_G2, ZKMSM_RESULT_BYTES};
        assert_eq!(Curve::G2_CODE, ZKMSM_G2);
        for (code, curve) in [(ZKMSM_BLS12_377, "bls12-377"), (ZKMSM_BLS12_381, "bls12-381"), (ZKMSM_BN254, "bn254")] {
            let g1 = Curve::from_code(code).unwrap();
            assert_eq!((g1.name(), g1.group()), (curve, zkmsm::Group::G1));
            let g2 = Curve::from_code(code | ZKMSM_G2).unwrap();
            assert_eq!((g2.name(), g2.group()), (curve, zkmsm::Group::G2));
        }
        let largest = Curve::ALL.iter().map(|c| c.point_size(PointFormat::Compressed)).max();
        assert_eq!(largest, Some(ZKMSM_RESULT_BYTES));
    }
}
