//! Decompression's square roots, many at once: the one exponentiation each
//! root takes (a^((t-1)/2), [`zkmsm_curve::sqrt::SqrtTable::exponent`]: about
//! 380 squarings and 70 products, nearly all of a root's cost) runs in the
//! MSM's lane arithmetic ([`crate::backend::lanes`]): two chains of four
//! lanes (FMA) or eight (IFMA), so eight or sixteen roots share one sequence
//! of vector products; the rest of the root (Tonelli-Shanks' table steps,
//! the sign) is scalar. Without a lane arithmetic the scalar
//! exponentiation runs.

use crate::backend::lanes::simd::Kernel;
use crate::backend::lanes::LaneField;
use rayon::prelude::*;
use zkmsm_curve::sqrt::pow_vartime;
use zkmsm_field::PrimeField;

/// Sliding-window width of the exponentiation: 2^(W-1) odd powers.
const W: u32 = 5;
/// Roots per parallel task.
const TASK: usize = 512;

/// One step of a sliding-window exponentiation: square, or multiply by the
/// odd power a^(2k+1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Square,
    Mul(u8),
}

/// The exponentiation by `e` (little-endian words) as a first odd power and
/// steps: left-to-right sliding window (e is public).
fn program(e: &[u64]) -> Option<(u8, Vec<Step>)> {
    let bit = |i: usize| (e[i / 64] >> (i % 64)) & 1 == 1;
    let top = (0..e.len() * 64).rev().find(|&i| bit(i))?;
    let mut first = None;
    let mut steps = Vec::new();
    let mut i = top as isize;
    while i >= 0 {
        if !bit(i as usize) {
            steps.push(Step::Square);
            i -= 1;
            continue;
        }
        let mut j = (i - W as isize + 1).max(0);
        while !bit(j as usize) {
            j += 1;
        }
        let mut value = 0usize;
        for k in (j..=i).rev() {
            value = (value << 1) | bit(k as usize) as usize;
        }
        if first.is_none() {
            first = Some((value >> 1) as u8);
        } else {
            steps.extend(std::iter::repeat_n(Step::Square, (i - j + 1) as usize));
            steps.push(Step::Mul((value >> 1) as u8));
        }
        i = j - 1;
    }
    Some((first?, steps))
}

/// `values[i] <- values[i]^e` for every i (e non-zero), in two chains of
/// `L::LANES` lanes at a time.
struct PowKernel<'a, F: PrimeField, L: LaneField<F>> {
    field: &'a L,
    first: u8,
    steps: &'a [Step],
    values: &'a mut [F],
}

impl<F: PrimeField, L: LaneField<F>> Kernel for PowKernel<'_, F, L> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let lanes = L::LANES;
        // SAFETY: only run through `L::run` (callers check `L::available()`).
        unsafe {
            let k = self.field.consts();
            let one = self.field.one(&k);
            let one_limbs = self.field.limbs_of(&F::ONE);
            for group in self.values.chunks_mut(2 * lanes) {
                let mut limbs = [[0u64; 8]; 16];
                for (i, l) in limbs.iter_mut().enumerate().take(2 * lanes) {
                    *l = match group.get(i) {
                        Some(v) => self.field.limbs_of(v),
                        None => one_limbs,
                    };
                }
                let a: [L::Fe; 2] = [L::from_lanes(&limbs[..lanes]), L::from_lanes(&limbs[lanes..2 * lanes])];
                // odd[m] = a^(2m+1)
                let mut odd = [[one; 2]; 1 << (W - 1)];
                odd[0] = a;
                let (a2, b2) = L::square2(&k, &a[0], &a[1]);
                for m in 1..1 << (W - 1) {
                    let (x, y) = L::mul2(&k, &odd[m - 1][0], &a2, &odd[m - 1][1], &b2);
                    odd[m] = [x, y];
                }
                let mut acc = odd[self.first as usize];
                for step in self.steps {
                    let (x, y) = match *step {
                        Step::Square => L::square2(&k, &acc[0], &acc[1]),
                        Step::Mul(m) => L::mul2(&k, &acc[0], &odd[m as usize][0], &acc[1], &odd[m as usize][1]),
                    };
                    acc = [x, y];
                }
                for (i, v) in group.iter_mut().enumerate() {
                    *v = self.field.value_of(&L::lane(&acc[i / lanes], i % lanes));
                }
            }
        }
    }
}

/// `values[i] <- values[i]^e` on the lane arithmetic `L` (which must be
/// available and hold `F`), in parallel.
fn pow_batch_on<F: PrimeField, L: LaneField<F>>(field: &L, values: &mut [F], e: &[u64]) {
    let Some((first, steps)) = program(e) else {
        values.fill(F::ONE);
        return;
    };
    values.par_chunks_mut(TASK).for_each(|chunk| {
        // SAFETY: callers run this only where L::available().
        unsafe { L::run(PowKernel { field, first, steps: &steps, values: chunk }) }
    });
}

/// Which arithmetic [`pow_batch`] runs here: "ifma", "fma" or "scalar".
pub fn pow_engine<F: PrimeField>() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if crate::backend::ifma::enabled() && <crate::backend::ifma::Ifma52<F> as LaneField<F>>::new().is_some() {
        return "ifma";
    }
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    if crate::backend::lanes::fma_enabled() && crate::backend::lanes::field51::Field51::<F>::new().is_some() {
        return "fma";
    }
    "scalar"
}

/// `values[i] <- values[i]^e` for every i, e little-endian words (public),
/// in parallel, on the fastest arithmetic this CPU has for F (IFMA lanes,
/// FMA lanes, else scalar).
pub fn pow_batch<F: PrimeField>(values: &mut [F], e: &[u64]) {
    match pow_engine::<F>() {
        #[cfg(target_arch = "x86_64")]
        "ifma" => {
            let field = <crate::backend::ifma::Ifma52<F> as LaneField<F>>::new().expect("checked");
            pow_batch_on(&field, values, e)
        }
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        "fma" => {
            type Fma<F> = crate::backend::lanes::Fma51<F, crate::backend::lanes::NativeSimd>;
            let field = <Fma<F> as LaneField<F>>::new().expect("checked");
            pow_batch_on(&field, values, e)
        }
        _ => values.par_iter_mut().for_each(|v| *v = pow_vartime(v, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::lanes::simd::Portable;
    use crate::backend::lanes::Fma51;
    use rand::SeedableRng;
    use zkmsm_field::{Bls12_377Fq, Bls12_381Fq};

    fn inputs<F: PrimeField>(n: usize) -> Vec<F> {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
        let mut v = vec![F::ZERO, F::ONE, -F::ONE, F::from_u64(2)];
        v.extend((0..n).map(|_| F::random(&mut rng)));
        v
    }

    fn exponents() -> Vec<Vec<u64>> {
        vec![vec![0], vec![1], vec![2], vec![3], vec![0b1011_0111_0001], vec![u64::MAX, 5, 0], vec![0, 0, 1 << 63]]
    }

    #[test]
    fn program_matches_square_and_multiply() {
        let a = Bls12_381Fq::from_u64(7);
        for e in exponents() {
            let got = match program(&e) {
                None => Bls12_381Fq::ONE,
                Some((first, steps)) => {
                    let odd: Vec<_> = (0..16u64).map(|m| a.pow(&[2 * m + 1])).collect();
                    steps.iter().fold(odd[first as usize], |acc, s| match s {
                        Step::Square => acc.square(),
                        Step::Mul(m) => acc * odd[*m as usize],
                    })
                }
            };
            assert_eq!(got, a.pow(&e), "{e:?}");
        }
    }

    fn lanes_match<F: PrimeField, L: LaneField<F>>(n: usize) {
        if !L::available() {
            return;
        }
        let field = L::new().unwrap();
        let table = zkmsm_curve::sqrt::SqrtTable::<F>::new();
        let mut es = exponents();
        es.push(table.exponent().to_vec());
        for e in es {
            // lengths around the group size: partial groups padded with one
            for len in [0, 1, 7, 8, 9, 16, 17, n] {
                let v: Vec<F> = inputs::<F>(n)[..len.min(n + 4)].to_vec();
                let mut got = v.clone();
                pow_batch_on(&field, &mut got, &e);
                let want: Vec<F> = v.iter().map(|x| pow_vartime(x, &e)).collect();
                assert_eq!(got, want, "{} e = {e:?} len {len}", L::NAME);
            }
        }
    }

    #[test]
    fn fma_lanes_match_scalar_powers() {
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        {
            lanes_match::<Bls12_377Fq, Fma51<Bls12_377Fq, crate::backend::lanes::NativeSimd>>(300);
            lanes_match::<Bls12_381Fq, Fma51<Bls12_381Fq, crate::backend::lanes::NativeSimd>>(300);
        }
        lanes_match::<Bls12_381Fq, Fma51<Bls12_381Fq, Portable>>(9);
    }

    #[test]
    fn ifma_lanes_match_scalar_powers() {
        #[cfg(target_arch = "x86_64")]
        {
            use crate::backend::ifma::Ifma52;
            lanes_match::<Bls12_377Fq, Ifma52<Bls12_377Fq>>(300);
            lanes_match::<Bls12_381Fq, Ifma52<Bls12_381Fq>>(300);
        }
    }

    #[test]
    fn dispatched_batch_matches_scalar() {
        for e in exponents() {
            let v = inputs::<Bls12_377Fq>(40);
            let mut got = v.clone();
            pow_batch(&mut got, &e);
            assert_eq!(got, v.iter().map(|x| x.pow(&e)).collect::<Vec<_>>());
        }
    }
}
