//! Decompression's square roots, many at once, in the MSM's lane arithmetic
//! ([`crate::backend::lanes`]): two chains of four lanes (FMA) or eight
//! (IFMA), so that eight or sixteen roots share one sequence of vector
//! products. Both parts of a root run there ([`sqrt_batch`]): the
//! exponentiation a^((t-1)/2) ([`zkmsm_curve::sqrt::SqrtTable::exponent`]:
//! about 380 squarings and 70 products) and Tonelli-Shanks' digit search by
//! precomputed powers (BLS12-377's q - 1 = 2^46 t: 38 squarings and 21
//! products more, the same count in every lane since only the digits found
//! differ); per lane only the digits' table lookups are scalar. Without a
//! lane arithmetic the scalar root runs.

use crate::backend::lanes::simd::Kernel;
use crate::backend::lanes::{LaneField, Limbs};
use rayon::prelude::*;
use zkmsm_curve::sqrt::{pow_vartime, SqrtTable};
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

/// a^e on two chains of lanes, e given by [`program`] as `first` and `steps`.
///
/// # Safety
///
/// Inside [`LaneField::run`] only.
#[inline(always)]
unsafe fn pow_lanes<F: PrimeField, L: LaneField<F>>(
    k: &L::Consts,
    one: L::Fe,
    a: &[L::Fe; 2],
    first: u8,
    steps: &[Step],
) -> [L::Fe; 2] {
    // odd[m] = a^(2m+1)
    let mut odd = [[one; 2]; 1 << (W - 1)];
    odd[0] = *a;
    let (a2, b2) = L::square2(k, &a[0], &a[1]);
    for m in 1..1 << (W - 1) {
        let (x, y) = L::mul2(k, &odd[m - 1][0], &a2, &odd[m - 1][1], &b2);
        odd[m] = [x, y];
    }
    let mut acc = odd[first as usize];
    for step in steps {
        let (x, y) = match *step {
            Step::Square => L::square2(k, &acc[0], &acc[1]),
            Step::Mul(m) => L::mul2(k, &acc[0], &odd[m as usize][0], &acc[1], &odd[m as usize][1]),
        };
        acc = [x, y];
    }
    acc
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
                let acc = pow_lanes::<F, L>(&k, one, &a, self.first, self.steps);
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

/// Two vectors of lanes from `2 * L::LANES` limbs.
///
/// # Safety
///
/// Inside [`LaneField::run`] only.
#[inline(always)]
unsafe fn pair<F: PrimeField, L: LaneField<F>>(l: &[Limbs; 16]) -> [L::Fe; 2] {
    [L::from_lanes(&l[..L::LANES]), L::from_lanes(&l[L::LANES..2 * L::LANES])]
}

/// x * y on both chains.
///
/// # Safety
///
/// Inside [`LaneField::run`] only.
#[inline(always)]
unsafe fn mul<F: PrimeField, L: LaneField<F>>(k: &L::Consts, x: &[L::Fe; 2], y: &[L::Fe; 2]) -> [L::Fe; 2] {
    let (p, q) = L::mul2(k, &x[0], &y[0], &x[1], &y[1]);
    [p, q]
}

/// Most digits E has; E itself is kept in a u64 (s <= 64).
const MAX_DIGITS: usize = 8;

/// A [`SqrtTable`]'s tables in one lane arithmetic's form, plus the extra
/// rows of the precomputed-powers digit search ([`SqrtKernel`]).
struct LaneTables {
    /// 2-adicity s, digit width w, digits k = ceil(s / w); the top digit
    /// (k - 1) is w' = s - (k - 1) w <= w bits wide.
    s: u32,
    w: u32,
    k: u32,
    /// `powers[j][m]` = z^(-m 2^(j w)) in the arithmetic's limbs: digit j's
    /// correction when finding the top digit, and the final z^(-E/2).
    powers: Vec<Vec<Limbs>>,
    /// `shifted[d - 1][m]` = z^(-m 2^(s - (d + 1) w)), d = 1..k-2: digit j's
    /// correction when finding digit j + d (not the top one).
    shifted: Vec<Vec<Limbs>>,
    /// (low word of the canonical form of zeta^m, m), sorted: the digits'
    /// lookup, confirmed against `roots`.
    keys: Vec<(u64, u32)>,
    /// The canonical form of zeta^m.
    roots: Vec<[u64; 7]>,
}

impl LaneTables {
    /// `None` when two roots share a low word or E has too many digits
    /// (then the scalar roots run).
    fn new<F: PrimeField, L: LaneField<F>>(field: &L, table: &SqrtTable<F>) -> Option<Self> {
        let (s, w) = (table.two_adicity(), table.window());
        let k = s.div_ceil(w);
        if s > 64 || k as usize > MAX_DIGITS || table.powers().len() != k as usize {
            return None;
        }
        let powers = table.powers().iter().map(|row| row.iter().map(|p| field.limbs_of(p)).collect()).collect();
        let z_inv = table.powers()[0][1];
        let shifted = (1..k.saturating_sub(1))
            .map(|d| {
                let mut base = z_inv;
                for _ in 0..s - (d + 1) * w {
                    base = base.square();
                }
                let mut p = F::ONE;
                (0..1u32 << w)
                    .map(|_| {
                        let l = field.limbs_of(&p);
                        p *= base;
                        l
                    })
                    .collect()
            })
            .collect();
        let roots: Vec<[u64; 7]> = table.roots().iter().map(|r| field.canonical_words(&field.limbs_of(r))).collect();
        let mut keys: Vec<(u64, u32)> = roots.iter().enumerate().map(|(m, r)| (r[0], m as u32)).collect();
        keys.sort_unstable();
        if keys.windows(2).any(|p| p[0].0 == p[1].0) {
            return None;
        }
        Some(Self { s, w, k, powers, shifted, keys, roots })
    }

    /// m with zeta^m = the element of these canonical words, if any.
    fn dlog(&self, words: &[u64; 7]) -> Option<u32> {
        let i = self.keys.binary_search_by_key(&words[0], |k| k.0).ok()?;
        let m = self.keys[i].1;
        (self.roots[m as usize] == *words).then_some(m)
    }
}

/// `out[i]` = a square root of `values[i]` (either one), `None` for a
/// non-square, two chains of `L::LANES` lanes at a time.
///
/// Tonelli-Shanks' digits of b = a^t = z^E by precomputed powers (Sarkar,
/// "Computing square roots faster than the Tonelli-Shanks/Bernstein
/// algorithm", 2020): the powers b^(2^(s - (i+1) w)) are squared out once
/// (s - w squarings in all), and digit i is read from b_i times the found
/// lower digits' corrections, which are table rows (k(k-1)/2 products).
/// BLS12-377 (s = 46, w = 8, k = 6): 38 squarings and 15 products where
/// re-squaring b for each digit took about 110 squarings and 5 products.
struct SqrtKernel<'a, F: PrimeField, L: LaneField<F>> {
    field: &'a L,
    first: u8,
    steps: &'a [Step],
    tables: &'a LaneTables,
    values: &'a [F],
    out: &'a mut [Option<F>],
}

impl<F: PrimeField, L: LaneField<F>> Kernel for SqrtKernel<'_, F, L> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let lanes = L::LANES;
        let LaneTables { s, w, k, .. } = *self.tables;
        let top = s - (k - 1) * w; // the top digit's width
        let mask = (1u64 << w) - 1;
        // SAFETY: only run through `L::run` (callers check `L::available()`).
        unsafe {
            let kc = self.field.consts();
            let one = self.field.one(&kc);
            let one_limbs = self.field.limbs_of(&F::ONE);
            for (group, out) in self.values.chunks(2 * lanes).zip(self.out.chunks_mut(2 * lanes)) {
                let mut limbs = [[0u64; 8]; 16];
                for (i, l) in limbs.iter_mut().enumerate().take(2 * lanes) {
                    *l = match group.get(i) {
                        Some(v) => self.field.limbs_of(v),
                        None => one_limbs,
                    };
                }
                let a = pair::<F, L>(&limbs);
                let v = pow_lanes::<F, L>(&kc, one, &a, self.first, self.steps);
                // candidate x = a^((t+1)/2), b = a^t = z^E
                let x = mul::<F, L>(&kc, &a, &v);
                let b = mul::<F, L>(&kc, &x, &v);
                // bp[i] = b^(2^(s - (i+1) w)) for i < k - 1, bp[k-1] = b: each
                // a 2^w-th root of unity once the lower digits are taken out
                let mut bp = [b; MAX_DIGITS];
                let mut c = b;
                for i in (0..k as usize - 1).rev() {
                    let times = if i + 2 == k as usize { top } else { w };
                    for _ in 0..times {
                        let (p, q) = L::square2(&kc, &c[0], &c[1]);
                        c = [p, q];
                    }
                    bp[i] = c;
                }
                let mut e = [0u64; 16];
                let mut ok = [true; 16];
                for i in 0..k {
                    let mut c = bp[i as usize];
                    for j in 0..i {
                        // digit j's z^(-e_j 2^(j w)), raised as bp[i] was
                        let row = if i + 1 == k {
                            &self.tables.powers[j as usize]
                        } else {
                            &self.tables.shifted[(i - j - 1) as usize]
                        };
                        let mut g = [[0u64; 8]; 16];
                        for l in 0..2 * lanes {
                            g[l] = row[((e[l] >> (j * w)) & mask) as usize];
                        }
                        c = mul::<F, L>(&kc, &c, &pair::<F, L>(&g));
                    }
                    // c = zeta^m; in the top, narrower digit m is the digit
                    // times 2^(w - width)
                    let width = if i + 1 == k { top } else { w };
                    for l in 0..2 * lanes {
                        let m = self.tables.dlog(&self.field.canonical_words(&L::lane(&c[l / lanes], l % lanes)));
                        let digit = match m {
                            Some(m) if (m >> (w - width)) << (w - width) == m => (m >> (w - width)) as u64,
                            _ => {
                                ok[l] = false; // a = 0 (b = 0) only
                                0
                            }
                        };
                        e[l] |= digit << (i * w);
                    }
                }
                // a is a square exactly when E is even; the root is x z^(-E/2)
                let mut r = x;
                for i in 0..k {
                    let mut g = [[0u64; 8]; 16];
                    for l in 0..2 * lanes {
                        g[l] = self.tables.powers[i as usize][(((e[l] >> 1) >> (i * w)) & mask) as usize];
                    }
                    r = mul::<F, L>(&kc, &r, &pair::<F, L>(&g));
                }
                for (l, (a, o)) in group.iter().zip(out.iter_mut()).enumerate() {
                    *o = if a.is_zero() {
                        Some(F::ZERO)
                    } else if ok[l] && e[l] & 1 == 0 {
                        Some(self.field.value_of(&L::lane(&r[l / lanes], l % lanes)))
                    } else {
                        None
                    };
                }
            }
        }
    }
}

/// [`sqrt_batch`] on the lane arithmetic `L` (which must be available and
/// hold `F`); `None` where its tables cannot be made.
fn sqrt_batch_on<F: PrimeField, L: LaneField<F>>(
    field: &L,
    table: &SqrtTable<F>,
    values: &[F],
) -> Option<Vec<Option<F>>> {
    let tables = LaneTables::new(field, table)?;
    let (first, steps) = program(table.exponent())?;
    let mut out = vec![None; values.len()];
    values.par_chunks(TASK).zip(out.par_chunks_mut(TASK)).for_each(|(values, out)| {
        let kernel = SqrtKernel { field, first, steps: &steps, tables: &tables, values, out };
        // SAFETY: callers run this only where L::available().
        unsafe { L::run(kernel) }
    });
    Some(out)
}

/// Work that runs on whichever lane arithmetic holds `F` on this CPU
/// ([`on_best_lanes`]), or on scalar code where none does. One dispatch
/// for every batch in this file, so a new lane arithmetic is added once.
trait OnLanes<F: PrimeField> {
    type Out;
    /// Runs on `field`, available on this CPU and holding `F`.
    fn lanes<L: LaneField<F>>(self, field: &L) -> Self::Out;
    fn scalar(self) -> Self::Out;
}

/// Runs `work` on the arithmetic [`pow_engine`] names.
fn on_best_lanes<F: PrimeField, W: OnLanes<F>>(work: W) -> W::Out {
    match pow_engine::<F>() {
        #[cfg(target_arch = "x86_64")]
        "ifma" => {
            let field = <crate::backend::ifma::Ifma52<F> as LaneField<F>>::new().expect("checked");
            work.lanes(&field)
        }
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        "fma" => {
            type Fma<F> = crate::backend::lanes::Fma51<F, crate::backend::lanes::NativeSimd>;
            let field = <Fma<F> as LaneField<F>>::new().expect("checked");
            work.lanes(&field)
        }
        _ => work.scalar(),
    }
}

/// A square root of every value (which of the two is unspecified), `None`
/// for a non-square, in parallel, on the fastest arithmetic this CPU has
/// for F (IFMA lanes, FMA lanes, else scalar [`SqrtTable::sqrt`]).
pub fn sqrt_batch<F: PrimeField>(table: &SqrtTable<F>, values: &[F]) -> Vec<Option<F>> {
    struct Sqrt<'a, F: PrimeField>(&'a SqrtTable<F>, &'a [F]);
    impl<F: PrimeField> OnLanes<F> for Sqrt<'_, F> {
        type Out = Vec<Option<F>>;
        fn lanes<L: LaneField<F>>(self, field: &L) -> Self::Out {
            // Tables that cannot be made fall back to the scalar root.
            sqrt_batch_on(field, self.0, self.1).unwrap_or_else(|| self.scalar())
        }
        fn scalar(self) -> Self::Out {
            self.1.par_iter().map(|a| self.0.sqrt(a)).collect()
        }
    }
    on_best_lanes(Sqrt(table, values))
}

/// Which arithmetic [`pow_batch`] and [`sqrt_batch`] run here: "ifma",
/// "fma" or "scalar".
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
    struct Pow<'a, F>(&'a mut [F], &'a [u64]);
    impl<F: PrimeField> OnLanes<F> for Pow<'_, F> {
        type Out = ();
        fn lanes<L: LaneField<F>>(self, field: &L) {
            pow_batch_on(field, self.0, self.1)
        }
        fn scalar(self) {
            let e = self.1;
            self.0.par_iter_mut().for_each(|v| *v = pow_vartime(v, e))
        }
    }
    on_best_lanes(Pow(values, e))
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
