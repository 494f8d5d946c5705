//! Montgomery's trick: invert many elements with one inversion and 3(n-1)
//! multiplications. Zeros are left as zero, so callers may batch freely.

use crate::Field;

/// Replace every non-zero element by its inverse, in place.
pub fn batch_inverse<F: Field>(v: &mut [F]) {
    let mut scratch = Vec::with_capacity(v.len());
    batch_inverse_with_scratch(v, &mut scratch);
}

/// As [`batch_inverse`], reusing `scratch` to avoid an allocation per call.
pub fn batch_inverse_with_scratch<F: Field>(v: &mut [F], scratch: &mut Vec<F>) {
    scratch.clear();
    let mut acc = F::ONE;
    for x in v.iter() {
        scratch.push(acc); // product of all earlier non-zero elements
        if !x.is_zero() {
            acc *= *x;
        }
    }
    let mut inv = acc.inverse().expect("product of non-zero elements is non-zero");
    for (x, prefix) in v.iter_mut().zip(scratch.iter()).rev() {
        if x.is_zero() {
            continue;
        }
        let next = inv * *x;
        *x = inv * *prefix;
        inv = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bls12_377Fq;
    use rand::SeedableRng;

    #[test]
    fn matches_single_inversions_with_zeros() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        for n in [0usize, 1, 2, 7, 64] {
            let mut v: Vec<Bls12_377Fq> =
                (0..n).map(|i| if i % 3 == 1 { Bls12_377Fq::ZERO } else { Bls12_377Fq::random(&mut rng) }).collect();
            let expect: Vec<_> = v.iter().map(|x| x.inverse().unwrap_or(Bls12_377Fq::ZERO)).collect();
            batch_inverse(&mut v);
            assert_eq!(v, expect);
        }
    }
}
