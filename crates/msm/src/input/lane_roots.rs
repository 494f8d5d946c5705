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
use zkmsm_field::{Fp, Fp2, Fp2Config, FpConfig, PrimeField, TowerField};

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
                let acc = unpack::<F, L>(&pow_lanes::<F, L>(&k, one, &a, self.first, self.steps));
                for (v, l) in group.iter_mut().zip(&acc) {
                    *v = self.field.value_of(l);
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

/// The discrete logarithm of a 2^w-th root of unity, by a perfect hash of
/// the low word of its canonical form: `slots[h(word)]` is m + 1 (0: no
/// root hashes there), confirmed against `roots[m]` (all seven words).
/// h(word) = (word * mul) >> shift, `mul` the first odd multiplier tried
/// under which no two roots share a slot. One product, one load and one
/// comparison, where a binary search over the sorted keys took w
/// unpredictable branches per lookup.
struct Dlog {
    mul: u64,
    shift: u32,
    slots: Vec<u16>,
    /// The canonical form of zeta^m.
    roots: Vec<[u64; 7]>,
}

impl Dlog {
    /// `None` when no multiplier separates the roots (then the scalar roots
    /// run); with 2^(w + 5) slots or more, about one multiplier in 55 does.
    fn new(roots: Vec<[u64; 7]>) -> Option<Self> {
        let w = roots.len().next_power_of_two().trailing_zeros();
        if roots.len() >= u16::MAX as usize {
            return None;
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for bits in w + 5..=w + 8 {
            let shift = 64 - bits;
            let mut slots = vec![0u16; 1 << bits];
            for _ in 0..4096 {
                // splitmix64: fixed multipliers, the same tables every run
                seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = seed;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                let mul = (z ^ (z >> 31)) | 1;
                slots.fill(0);
                let free = roots.iter().enumerate().all(|(m, r)| {
                    let h = (r[0].wrapping_mul(mul) >> shift) as usize;
                    let empty = slots[h] == 0;
                    slots[h] = m as u16 + 1;
                    empty
                });
                if free {
                    return Some(Self { mul, shift, slots, roots });
                }
            }
        }
        None
    }

    /// m with zeta^m = the element of these canonical words, if any.
    #[inline(always)]
    fn find(&self, words: &[u64; 7]) -> Option<u32> {
        let m = self.slots[(words[0].wrapping_mul(self.mul) >> self.shift) as usize].checked_sub(1)? as usize;
        (self.roots[m] == *words).then_some(m as u32)
    }
}

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
    /// The digits' lookup: zeta^m -> m.
    dlog: Dlog,
    /// rho^-1 in limbs, rho the constant of the arithmetic's cheap
    /// conversions ([`LaneField::limbs_of_scaled`], `scaled_value_of`);
    /// `None` where rho = 1 (they are the exact ones). The kernel reads a in
    /// as a / rho, multiplies by rho^-1 and takes the root of a / rho^2,
    /// r = +-sqrt(a) / rho, whose way out (times rho) is a root of a: one
    /// lane product per root for two conversions without a product each.
    unscale: Option<Limbs>,
}

impl LaneTables {
    /// `None` when the roots cannot be told apart by a hash of their low
    /// words or E has too many digits (then the scalar roots run).
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
        let dlog = Dlog::new(roots)?;
        let rho = field.scaled_value_of(&field.limbs_of(&F::ONE));
        let unscale = (rho != F::ONE).then(|| field.limbs_of(&rho.inverse().expect("rho is non-zero")));
        Some(Self { s, w, k, powers, shifted, dlog, unscale })
    }
}

/// Every lane of two vectors as limbs: one store per vector, where taking
/// the lanes one at a time stored each vector once per lane.
///
/// # Safety
///
/// Inside [`LaneField::run`] only.
#[inline(always)]
unsafe fn unpack<F: PrimeField, L: LaneField<F>>(v: &[L::Fe; 2]) -> [Limbs; 16] {
    let mut out = [[0u64; 8]; 16];
    let base = out.as_mut_ptr();
    let mut ptrs = [core::ptr::null_mut::<u64>(); 16];
    for (i, p) in ptrs.iter_mut().enumerate() {
        *p = base.wrapping_add(i).cast::<u64>();
    }
    // SAFETY: 2 LANES <= 16 disjoint, aligned 64-byte rows of `out`, which
    // no reference points into until the stores are done.
    L::store(&ptrs[..L::LANES], &v[0]);
    L::store(&ptrs[L::LANES..2 * L::LANES], &v[1]);
    out
}

/// Two vectors whose lane l is `row[index(l)]`, loaded from the table
/// itself (no copy of the rows first).
///
/// # Safety
///
/// Inside [`LaneField::run`] only.
#[inline(always)]
unsafe fn rows<F: PrimeField, L: LaneField<F>>(row: &[Limbs], index: impl Fn(usize) -> usize) -> [L::Fe; 2] {
    let mut ptrs = [core::ptr::null::<u64>(); 16];
    for (l, p) in ptrs.iter_mut().enumerate().take(2 * L::LANES) {
        *p = row[index(l)].as_ptr();
    }
    [L::load(&ptrs[..L::LANES]), L::load(&ptrs[L::LANES..2 * L::LANES])]
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
            let one_limbs = self.field.limbs_of_scaled(&F::ONE);
            let unscale = self.tables.unscale.map(|u| pair::<F, L>(&[u; 16]));
            for (group, out) in self.values.chunks(2 * lanes).zip(self.out.chunks_mut(2 * lanes)) {
                let mut limbs = [[0u64; 8]; 16];
                for (i, l) in limbs.iter_mut().enumerate().take(2 * lanes) {
                    *l = match group.get(i) {
                        Some(v) => self.field.limbs_of_scaled(v),
                        None => one_limbs,
                    };
                }
                // a / rho^2 (a where rho = 1): see `LaneTables::unscale`
                let mut a = pair::<F, L>(&limbs);
                if let Some(u) = &unscale {
                    a = mul::<F, L>(&kc, &a, u);
                }
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
                        let g = rows::<F, L>(row, |l| ((e[l] >> (j * w)) & mask) as usize);
                        c = mul::<F, L>(&kc, &c, &g);
                    }
                    // c = zeta^m; in the top, narrower digit m is the digit
                    // times 2^(w - width)
                    let width = if i + 1 == k { top } else { w };
                    let c = unpack::<F, L>(&c);
                    for l in 0..2 * lanes {
                        let m = self.tables.dlog.find(&self.field.canonical_words(&c[l]));
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
                // a is a square exactly when E is even; the root is x z^(-E/2),
                // E/2 < 2^(s-1): digits from bit s - 1 up are zero, their
                // products skipped (all of them for s = 1: the root is x)
                let mut r = x;
                for i in (0..k).take_while(|i| i * w < s - 1) {
                    let row = &self.tables.powers[i as usize];
                    let g = rows::<F, L>(row, |l| (((e[l] >> 1) >> (i * w)) & mask) as usize);
                    r = mul::<F, L>(&kc, &r, &g);
                }
                let r = unpack::<F, L>(&r);
                for (l, (a, o)) in group.iter().zip(out.iter_mut()).enumerate() {
                    *o = if a.is_zero() {
                        Some(F::ZERO)
                    } else if ok[l] && e[l] & 1 == 0 {
                        Some(self.field.scaled_value_of(&r[l]))
                    } else {
                        None
                    };
                }
            }
        }
    }
}

/// The lane root's set-up on one lane arithmetic: its tables and the
/// exponentiation's steps, made once and then used by every slice.
struct LaneRoots<F: PrimeField, L: LaneField<F>> {
    field: L,
    tables: LaneTables,
    first: u8,
    steps: Vec<Step>,
    _f: core::marker::PhantomData<fn() -> F>,
}

impl<F: PrimeField, L: LaneField<F>> LaneRoots<F, L> {
    /// `None` where `L` is not available here or its tables cannot be made.
    fn new(table: &SqrtTable<F>) -> Option<Self> {
        let field = L::new()?;
        let tables = LaneTables::new(&field, table)?;
        let (first, steps) = program(table.exponent())?;
        Some(Self { field, tables, first, steps, _f: core::marker::PhantomData })
    }

    /// `out[i]` = a root of `values[i]` or `None`, on this thread.
    fn take(&self, values: &[F], out: &mut [Option<F>]) {
        let Self { field, tables, first, steps, .. } = self;
        let kernel = SqrtKernel { field, first: *first, steps, tables, values, out };
        // SAFETY: `L::new` succeeded, so L is available on this CPU.
        unsafe { L::run(kernel) }
    }
}

/// [`sqrt_batch`] on the lane arithmetic `L`, in parallel; `None` where
/// `L` is not available or its tables cannot be made.
#[cfg(test)]
fn sqrt_batch_on<F: PrimeField, L: LaneField<F>>(table: &SqrtTable<F>, values: &[F]) -> Option<Vec<Option<F>>> {
    let roots = LaneRoots::<F, L>::new(table)?;
    let mut out = vec![None; values.len()];
    values.par_chunks(TASK).zip(out.par_chunks_mut(TASK)).for_each(|(v, o)| roots.take(v, o));
    Some(out)
}

/// Square roots set up once (the fastest lane arithmetic this CPU has for
/// `F`, its tables, the exponentiation's steps; else the scalar root) and
/// then taken a slice at a time on the calling thread, for callers that run
/// their own parallel tasks: the decoder takes a task's roots between its
/// parsing and its points, with no set-up per task.
pub struct RootFinder<'a, F: TowerField> {
    take: Box<TakeRoots<'a, F>>,
}

/// What a [`RootFinder`] runs: roots of a slice into a slice, on this thread.
type TakeRoots<'a, F> = dyn Fn(&[F], &mut [Option<F>]) + Send + Sync + 'a;

impl<'a, F: PrimeField> RootFinder<'a, F> {
    /// The set-up for `table`'s field.
    pub fn new(table: &'a SqrtTable<F>) -> Self {
        struct Make<'a, F: PrimeField>(&'a SqrtTable<F>);
        impl<'a, F: PrimeField> OnLanes<F> for Make<'a, F> {
            type Out = RootFinder<'a, F>;
            fn lanes<L: LaneField<F>>(self, _field: &L) -> Self::Out {
                // tables that cannot be made fall back to the scalar root
                match LaneRoots::<F, L>::new(self.0) {
                    Some(roots) => RootFinder { take: Box::new(move |values, out| roots.take(values, out)) },
                    None => self.scalar(),
                }
            }
            fn scalar(self) -> Self::Out {
                let table = self.0;
                RootFinder {
                    take: Box::new(move |values, out| {
                        for (a, o) in values.iter().zip(out) {
                            *o = table.sqrt(a);
                        }
                    }),
                }
            }
        }
        on_best_lanes(Make(table))
    }
}

impl<F: TowerField> RootFinder<'_, F> {
    /// `out[i]` = a square root of `values[i]` (either one), `None` for a
    /// non-square, on the calling thread.
    ///
    /// # Panics
    ///
    /// If the slices' lengths differ.
    pub fn take(&self, values: &[F], out: &mut [Option<F>]) {
        assert_eq!(values.len(), out.len(), "one root per value");
        (self.take)(values, out)
    }
}

/// The root finder decompression uses for a coordinate field: the lanes'
/// for a prime field; none for Fq2 (each G2 point takes its own root,
/// [`zkmsm_curve::SwCurve::sqrt_base`], two base-field roots by the tables).
pub trait CoordinateRoots: TowerField {
    /// The finder for this field, given the prime field's tables.
    fn root_finder(table: &'static SqrtTable<Self::Prime>) -> Option<RootFinder<'static, Self>>;
}

impl<P: FpConfig<N>, const N: usize> CoordinateRoots for Fp<P, N> {
    fn root_finder(table: &'static SqrtTable<Self>) -> Option<RootFinder<'static, Self>> {
        Some(RootFinder::new(table))
    }
}

impl<P: Fp2Config> CoordinateRoots for Fp2<P> {
    fn root_finder(_: &'static SqrtTable<P::Base>) -> Option<RootFinder<'static, Self>> {
        None
    }
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
            // eight limbs for the BLS12 fields, five where they fit (BN254)
            type Ifma<F, const N: usize> =
                crate::backend::lanes::ifma::Ifma52<F, crate::backend::lanes::ifma::ops::Avx512, N>;
            match <Ifma<F, 5> as LaneField<F>>::new() {
                Some(field) => work.lanes(&field),
                None => work.lanes(&<Ifma<F, 8> as LaneField<F>>::new().expect("checked")),
            }
        }
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        "fma" => {
            // eight limbs for the BLS12 fields, six where they fit (BN254)
            type Fma<F, const L: usize> = crate::backend::lanes::Fma51<F, crate::backend::lanes::NativeSimd, L>;
            match <Fma<F, 6> as LaneField<F>>::new() {
                Some(field) => work.lanes(&field),
                None => work.lanes(&<Fma<F, 8> as LaneField<F>>::new().expect("checked")),
            }
        }
        _ => work.scalar(),
    }
}

/// A square root of every value (which of the two is unspecified), `None`
/// for a non-square, in parallel, on the fastest arithmetic this CPU has
/// for F (IFMA lanes, FMA lanes, else scalar [`SqrtTable::sqrt`]).
pub fn sqrt_batch<F: PrimeField>(table: &SqrtTable<F>, values: &[F]) -> Vec<Option<F>> {
    let roots = RootFinder::new(table);
    let mut out = vec![None; values.len()];
    values.par_chunks(TASK).zip(out.par_chunks_mut(TASK)).for_each(|(v, o)| roots.take(v, o));
    out
}

/// Which arithmetic [`pow_batch`] and [`sqrt_batch`] run here: "ifma",
/// "fma" or "scalar".
pub fn pow_engine<F: PrimeField>() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if crate::backend::lanes::ifma::enabled()
        && (crate::backend::lanes::ifma::field52::fits::<F>(8) || crate::backend::lanes::ifma::field52::fits::<F>(5))
    {
        return "ifma";
    }
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    if crate::backend::lanes::fma_enabled()
        && (crate::backend::lanes::field51::fits::<F>(8) || crate::backend::lanes::field51::fits::<F>(6))
    {
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
    use zkmsm_field::{Bls12_377Fq, Bls12_381Fq, Bn254Fq, Field};

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
            lanes_match::<Bn254Fq, Fma51<Bn254Fq, crate::backend::lanes::NativeSimd, 6>>(300);
        }
        lanes_match::<Bls12_381Fq, Fma51<Bls12_381Fq, Portable>>(9);
        lanes_match::<Bn254Fq, Fma51<Bn254Fq, Portable, 6>>(9);
    }

    #[test]
    fn ifma_lanes_match_scalar_powers() {
        #[cfg(target_arch = "x86_64")]
        {
            use crate::backend::lanes::ifma::Ifma52;
            lanes_match::<Bls12_377Fq, Ifma52<Bls12_377Fq>>(300);
            lanes_match::<Bls12_381Fq, Ifma52<Bls12_381Fq>>(300);
            lanes_match::<Bn254Fq, Ifma52<Bn254Fq, crate::backend::lanes::ifma::ops::Avx512, 5>>(300);
        }
    }

    /// [`sqrt_batch_on`] on one lane arithmetic against the scalar root:
    /// 0, 1, -1, q - 2, small values, roots of unity (digits zero, full and
    /// in between), random elements (about half non-squares) and squares,
    /// at lengths around the lane groups.
    fn roots_match<F: PrimeField, L: LaneField<F>>(n: usize) {
        if !L::available() {
            return;
        }
        let table = SqrtTable::<F>::new();
        let mut v = inputs::<F>(n);
        v.extend([-F::from_u64(2), F::from_u64(3), F::from_u64(4), F::from_u64(5)]);
        v.extend(table.powers().iter().flat_map(|row| [row[1], row[row.len() / 2], row[row.len() - 1]]));
        v.extend(table.roots().iter().step_by(5).copied());
        let squares: Vec<F> = v.iter().map(|x| x.square()).collect();
        v.extend(squares);
        for len in [0, 1, 7, 8, 9, 16, 17, v.len()] {
            let got = sqrt_batch_on::<F, L>(&table, &v[..len]).expect("tables");
            assert_eq!(got.len(), len);
            for (a, r) in v[..len].iter().zip(&got) {
                assert_eq!(r.is_some(), table.sqrt(a).is_some(), "{} {a:?}", L::NAME);
                if let Some(r) = r {
                    assert_eq!(r.square(), *a, "{} {a:?}", L::NAME);
                }
            }
        }
    }

    fn roots_match_every_field<L377, L381>()
    where
        L377: LaneField<Bls12_377Fq>,
        L381: LaneField<Bls12_381Fq>,
    {
        roots_match::<Bls12_377Fq, L377>(200); // s = 46: six digits, a narrower top one
        roots_match::<Bls12_381Fq, L381>(200); // s = 1: one one-bit digit, no final product
    }

    #[test]
    fn lane_roots_match_scalar_roots() {
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        roots_match_every_field::<
            Fma51<Bls12_377Fq, crate::backend::lanes::NativeSimd>,
            Fma51<Bls12_381Fq, crate::backend::lanes::NativeSimd>,
        >();
        #[cfg(target_arch = "x86_64")]
        {
            use crate::backend::lanes::ifma::Ifma52;
            roots_match_every_field::<Ifma52<Bls12_377Fq>, Ifma52<Bls12_381Fq>>();
            roots_match::<Bn254Fq, Ifma52<Bn254Fq, crate::backend::lanes::ifma::ops::Avx512, 5>>(200);
        }
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        roots_match::<Bn254Fq, Fma51<Bn254Fq, crate::backend::lanes::NativeSimd, 6>>(200);
        roots_match::<Bls12_381Fq, Fma51<Bls12_381Fq, Portable>>(20);
        roots_match::<Bn254Fq, Fma51<Bn254Fq, Portable, 6>>(20);
    }

    /// The perfect hash finds every root of unity and nothing else (other
    /// elements, a root with one word changed).
    #[test]
    fn dlog_finds_exactly_the_roots() {
        fn check<F: PrimeField>() {
            let table = SqrtTable::<F>::new();
            let words = |x: &F| -> [u64; 7] {
                let mut w = [0u64; 7];
                x.write_montgomery_words(&mut w[..F::NUM_BYTES.div_ceil(8)]);
                w
            };
            let roots: Vec<[u64; 7]> = table.roots().iter().map(words).collect();
            let dlog = Dlog::new(roots.clone()).expect("a separating multiplier");
            for (m, r) in roots.iter().enumerate() {
                assert_eq!(dlog.find(r), Some(m as u32));
                let mut other = *r;
                other[3] ^= 1;
                assert_eq!(dlog.find(&other), None);
            }
            for x in inputs::<F>(300) {
                let w = words(&x);
                assert_eq!(dlog.find(&w).is_some(), roots.contains(&w), "{x:?}");
            }
        }
        check::<Bls12_377Fq>();
        check::<Bls12_381Fq>();
        check::<zkmsm_field::Bls12_381Fr>();
        // two roots with one low word cannot be told apart: no tables
        assert!(Dlog::new(vec![[5, 0, 0, 0, 0, 0, 0], [5, 1, 0, 0, 0, 0, 0]]).is_none());
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
