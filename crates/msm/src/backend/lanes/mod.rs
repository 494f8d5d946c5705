//! Lane-parallel batch-affine accumulation: the chord additions of a batch
//! are dealt to the lanes of a vector field arithmetic ([`LaneField`]), the
//! prefix products of Montgomery's trick run as independent chains, one
//! scalar inversion serves all lanes. [`engine`] is the algorithm, written
//! once; the arithmetic is chosen at run time:
//!
//! - [`Fma51`]: four lanes of 51-bit limbs in double-precision FMA
//!   ([`field51`]), on AVX2 + FMA (x86-64 CPUs without AVX-512 IFMA: AMD Zen
//!   1-3, Intel before Ice Lake) or NEON (every aarch64 CPU);
//! - the eight-lane AVX-512 IFMA arithmetic (`super::ifma`), where present.
//!
//! Each arithmetic has its limb count as a type parameter (eight for the
//! 381-bit BLS12 fields, fewer for BN254's 254 bits); [`sized`] picks the
//! count from the curve's field when points are prepared. The engine
//! computes with [`arith::LaneArith`]: a prime field's arithmetic as it
//! stands, or the quadratic extension built over it ([`tower`]) for G2.

// The trait's `# Safety` section covers every `unsafe fn` in it.
#![allow(clippy::missing_safety_doc)]

pub mod arith;
pub mod engine;
pub mod field51;
#[cfg(target_arch = "x86_64")]
pub mod ifma;
pub mod lane_curve;
pub mod simd;
pub mod sized;
pub mod tower;
mod words;

use simd::{Kernel, Simd};
use zkmsm_field::PrimeField;

/// One element in memory: eight 64-bit limbs (64 bytes, one cache line),
/// little-endian, in the arithmetic's own radix and Montgomery form; an
/// arithmetic of fewer limbs leaves the rest zero. Bit 63 of limb 7 is free
/// in every radix here; the engine uses it as the point-at-infinity flag.
pub type Limbs = [u64; 8];

/// What the lane engine needs from a vector field arithmetic: elements of
/// `LANES` lanes, products two at a time (so that two independent chains
/// keep the pipes busy), lazily reduced differences.
///
/// # Safety
///
/// The `unsafe fn`s may only run inside [`LaneField::run`], on a CPU where
/// [`LaneField::available`] is true.
pub trait LaneField<F: PrimeField>: Sized + Send + Sync + 'static {
    /// Elements per vector.
    const LANES: usize;
    /// `LANES` elements.
    type Fe: Copy;
    /// A product on its way into a fused reduction (see [`Self::mul2_uncarried`]).
    type Uncarried: Copy;
    /// Vector constants, made once per engine.
    type Consts: Copy;
    /// The name shown in backend names and benchmarks.
    const NAME: &'static str;
    /// Whether the lane engine's pass B computes the next pair of steps'
    /// inverse-chain products inside this pair's dependent products
    /// (software pipelining; docs/BENCHMARKS.md measures it per engine).
    const PIPELINED: bool = false;

    /// Whether this CPU has what the arithmetic needs.
    fn available() -> bool;
    /// Whether the arithmetic takes field F (its limbs hold F with the
    /// margin its lazy reduction needs).
    fn fits() -> bool;
    /// `None` for a field the arithmetic cannot hold (where not [`Self::fits`]).
    fn new() -> Option<Self>;
    /// x in the arithmetic's form (canonical).
    fn limbs_of(&self, x: &F) -> Limbs;
    /// The element these limbs hold (any value the arithmetic produces).
    fn value_of(&self, l: &Limbs) -> F;
    /// q - y for canonical y.
    fn neg_limbs(&self, y: &Limbs) -> Limbs;
    /// A cheaper way out of the lanes for the batch inversion: the element
    /// these limbs hold times a constant rho of the arithmetic (by default
    /// rho = 1: [`Self::value_of`]).
    fn scaled_value_of(&self, l: &Limbs) -> F {
        self.value_of(l)
    }
    /// The way back in: the limbs of x / rho (canonical).
    fn limbs_of_scaled(&self, x: &F) -> Limbs {
        self.limbs_of(x)
    }
    /// rho^2: for u = [`Self::scaled_value_of`] of a, `limbs_of_scaled(u^-1 rho^2)`
    /// are the limbs of a^-1.
    fn scaled_inverse_factor(&self) -> F {
        F::ONE
    }
    /// The arithmetic's form of the element these limbs hold, reduced below
    /// q, as words: equal exactly when the elements are (a cheap key, no
    /// conversion out of the arithmetic's form).
    fn canonical_words(&self, l: &Limbs) -> [u64; 7];

    /// Run `k` with the arithmetic's target features.
    ///
    /// # Safety
    ///
    /// Only where [`LaneField::available`].
    unsafe fn run<K: Kernel>(k: K) -> K::Output;
    /// The vector constants of this field.
    unsafe fn consts(&self) -> Self::Consts;

    /// Lane k from the 64 bytes at `ptrs[k]`.
    ///
    /// # Safety
    ///
    /// Each pointer valid for reading 64 bytes, 8-byte aligned; `ptrs.len() == LANES`.
    unsafe fn load(ptrs: &[*const u64]) -> Self::Fe;
    /// Lane k to the 64 bytes at `ptrs[k]`.
    ///
    /// # Safety
    ///
    /// Each pointer valid for writing 64 bytes, 8-byte aligned, the ranges
    /// pairwise disjoint and not behind any live reference; `ptrs.len() == LANES`.
    unsafe fn store(ptrs: &[*mut u64], v: &Self::Fe);
    /// Canonical one in every lane.
    unsafe fn one(&self, k: &Self::Consts) -> Self::Fe;
    /// Lane i as limbs.
    unsafe fn lane(v: &Self::Fe, i: usize) -> Limbs;
    /// Limbs as lanes (`x.len() == LANES`).
    unsafe fn from_lanes(x: &[Limbs]) -> Self::Fe;
    /// v with each lane i holding lane i ^ d of v (d below `LANES`): the
    /// partner of a pairwise product tree across lanes. By default through
    /// [`Self::lane`] and [`Self::from_lanes`] (a few hundred cycles; used a
    /// handful of times per batch). Inlined always, as the arithmetics'
    /// own vector methods are: the kernel runs with the arithmetic's target
    /// features, which a separate function would not have (its vector
    /// intrinsics then become calls: 2.5 times the FMA engine's time,
    /// measured).
    #[inline(always)]
    unsafe fn swap_lanes(v: &Self::Fe, d: usize) -> Self::Fe {
        let mut l = [[0u64; 8]; 16];
        for (i, x) in l.iter_mut().take(Self::LANES).enumerate() {
            *x = Self::lane(v, i ^ d);
        }
        Self::from_lanes(&l[..Self::LANES])
    }

    /// a * b and c * d, Montgomery, results below 2q, for a below A q and b
    /// below B q with A B <= 64 (every arithmetic promises this much; the
    /// engine's largest A B is 2 x 7 = 14, a chain product below 2q times a
    /// denominator below 7q).
    unsafe fn mul2(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe, c: &Self::Fe, d: &Self::Fe) -> (Self::Fe, Self::Fe);
    /// a^2 and b^2, as [`Self::mul2`].
    unsafe fn square2(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> (Self::Fe, Self::Fe);
    /// [`Self::mul2`] for products that go straight into a fused reduction
    /// ([`Self::sub4_reduce`], [`Self::sub8_reduce`]), which may take them
    /// in a cheaper form than [`Self::Fe`] (not carried).
    unsafe fn mul2_uncarried(
        k: &Self::Consts,
        a: &Self::Fe,
        b: &Self::Fe,
        c: &Self::Fe,
        d: &Self::Fe,
    ) -> (Self::Uncarried, Self::Uncarried);
    /// [`Self::square2`] for a fused reduction, as [`Self::mul2_uncarried`].
    unsafe fn square2_uncarried(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> (Self::Uncarried, Self::Uncarried);
    /// a + 4q - b (b below 4q).
    unsafe fn sub4(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> Self::Fe;
    /// a + 4q - b brought below 3q, for a product a (below 2q) and b below 4q.
    unsafe fn sub4_reduce(k: &Self::Consts, a: &Self::Uncarried, b: &Self::Fe) -> Self::Fe;
    /// a + 8q - b - c brought below 3q, for a product a (below 2q) and b + c below 8q.
    unsafe fn sub8_reduce(k: &Self::Consts, a: &Self::Uncarried, b: &Self::Fe, c: &Self::Fe) -> Self::Fe;
    /// Lanes with bit l of `mask` set become q - a (a canonical).
    unsafe fn neg_where(k: &Self::Consts, a: &Self::Fe, mask: u32) -> Self::Fe;
}

/// [`field51`] on a [`Simd`]: four lanes of L limbs.
pub struct Fma51<F: PrimeField, S: Simd, const L: usize = { field51::LIMBS }> {
    field: field51::Field51<F, L>,
    _simd: core::marker::PhantomData<S>,
}

/// The FMA arithmetic this CPU runs natively, if any.
#[cfg(target_arch = "x86_64")]
pub type NativeSimd = simd::Avx2;
/// The FMA arithmetic this CPU runs natively (NEON).
#[cfg(target_arch = "aarch64")]
pub type NativeSimd = simd::Neon;

/// The prepared-file layout of the FMA engine's points: [`engine::LanePoint`]
/// records, radix-2^51 limbs in Montgomery form for 2^(51 L) (L = 8; 6 on
/// BN254), eight limbs stored (the same on every [`Simd`]).
pub const FMA_LAYOUT: &str = "fma51-point51";
/// Bits per limb of [`FMA_LAYOUT`].
pub const FMA_RADIX: u32 = 51;

/// The lane engines' batch size for a window of `buckets` buckets (IFMA and
/// FMA alike; multiples of 8): B/8 within 256..1024, so that the one scalar
/// inversion per batch is amortized, but at most B/4 (at least 64), so that
/// a batch can be filled with distinct buckets. Batches of 256 into 128 to
/// 512 buckets (c = 8 to 10) sent most operations to the scalar side
/// buckets: 24% of them at c = 10 on the FMA engine (callgrind), and 2,450
/// points took 33 ms on the IFMA engine against 13 ms with the cap (Zen 5,
/// docs/BENCHMARKS.md "`auto`: crossovers and thresholds"). At c = 13 (4,096
/// buckets) batches of 512 instead of B/16 = 256 took ~10% less time on one
/// thread, the scalar inversion and its conversions (9% of the profile at
/// 256) halved against twice the conflicts (3.2% to 6.8% of operations
/// requeued): BN254 2^15 51-65 ms to 46-55, BLS12-381 83-100 to 76-77
/// (Zen 4, `RAYON_NUM_THREADS=1 zkmsm bench --log-n 15`, three runs each);
/// 1,024 measured the same as 512. B/8 changes no other window size.
pub fn batch_size_for(buckets: usize) -> usize {
    (buckets / 8).clamp(256, 1024).min((buckets / 4).max(64))
}

/// Whether the four-lane FMA engine runs here: AVX2 + FMA (x86-64) or NEON
/// (aarch64), and not turned off with `ZKMSM_NO_FMA=1` (to compare with the
/// scalar path).
pub fn fma_enabled() -> bool {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *ON.get_or_init(|| NativeSimd::available() && std::env::var_os("ZKMSM_NO_FMA").is_none_or(|v| v != "1"))
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    false
}

impl<F: PrimeField, S: Simd, const L: usize> LaneField<F> for Fma51<F, S, L> {
    const LANES: usize = 4;
    type Fe = field51::Fe4<S, L>;
    type Uncarried = field51::Fe4<S, L>;
    type Consts = field51::Consts<S, L>;
    const NAME: &'static str = S::NAME;

    fn available() -> bool {
        S::available()
    }
    fn fits() -> bool {
        field51::fits::<F>(L)
    }
    fn new() -> Option<Self> {
        Some(Self { field: field51::Field51::new()?, _simd: core::marker::PhantomData })
    }
    fn limbs_of(&self, x: &F) -> Limbs {
        self.field.to_limbs(x).0
    }
    fn value_of(&self, l: &Limbs) -> F {
        self.field.from_limbs(&field51::Limbs51(*l))
    }
    fn neg_limbs(&self, y: &Limbs) -> Limbs {
        self.field.neg_limbs(&field51::Limbs51(*y)).0
    }
    /// rho = 2^(51 L - 8 NUM_BYTES): the limbs' value read as `F`'s Montgomery words, no multiplication.
    fn scaled_value_of(&self, l: &Limbs) -> F {
        self.field.raw_from_limbs(&field51::Limbs51(*l))
    }
    fn limbs_of_scaled(&self, x: &F) -> Limbs {
        self.field.raw_to_limbs(x).0
    }
    fn scaled_inverse_factor(&self) -> F {
        self.field.raw_inverse_factor()
    }
    fn canonical_words(&self, l: &Limbs) -> [u64; 7] {
        self.field.canonical_words(&field51::Limbs51(*l))
    }
    #[inline(always)]
    unsafe fn run<K: Kernel>(k: K) -> K::Output {
        S::run(k)
    }
    #[inline(always)]
    unsafe fn consts(&self) -> Self::Consts {
        self.field.consts::<S>()
    }
    #[inline(always)]
    unsafe fn load(ptrs: &[*const u64]) -> Self::Fe {
        let all = S::gather8([ptrs[0], ptrs[1], ptrs[2], ptrs[3]]);
        let mut limbs = [S::splat_i(0); L];
        limbs.copy_from_slice(&all[..L]);
        field51::Fe4(limbs)
    }
    /// Limbs L..8 written zero.
    #[inline(always)]
    unsafe fn store(ptrs: &[*mut u64], v: &Self::Fe) {
        let mut all = [S::splat_i(0); 8];
        all[..L].copy_from_slice(&v.0);
        S::scatter8([ptrs[0], ptrs[1], ptrs[2], ptrs[3]], &all)
    }
    #[inline(always)]
    unsafe fn one(&self, _k: &Self::Consts) -> Self::Fe {
        field51::from_lanes(&[self.field.one_limbs(); 4])
    }
    #[inline(always)]
    unsafe fn lane(v: &Self::Fe, i: usize) -> Limbs {
        field51::lane(v, i).0
    }
    #[inline(always)]
    unsafe fn from_lanes(x: &[Limbs]) -> Self::Fe {
        field51::from_lanes(&[
            field51::Limbs51(x[0]),
            field51::Limbs51(x[1]),
            field51::Limbs51(x[2]),
            field51::Limbs51(x[3]),
        ])
    }
    #[inline(always)]
    unsafe fn mul2(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe, c: &Self::Fe, d: &Self::Fe) -> (Self::Fe, Self::Fe) {
        k.mul2(a, b, c, d)
    }
    #[inline(always)]
    unsafe fn square2(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> (Self::Fe, Self::Fe) {
        k.square2(a, b)
    }
    #[inline(always)]
    unsafe fn sub4(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> Self::Fe {
        k.sub(a, b, &k.q4)
    }
    /// The FMA products are carried (and reduced below q (1 + 2^-14)) as
    /// part of their reduction: no cheaper form to hand on.
    #[inline(always)]
    unsafe fn mul2_uncarried(
        k: &Self::Consts,
        a: &Self::Fe,
        b: &Self::Fe,
        c: &Self::Fe,
        d: &Self::Fe,
    ) -> (Self::Fe, Self::Fe) {
        k.mul2(a, b, c, d)
    }
    #[inline(always)]
    unsafe fn square2_uncarried(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> (Self::Fe, Self::Fe) {
        k.square2(a, b)
    }
    #[inline(always)]
    unsafe fn sub4_reduce(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> Self::Fe {
        k.reduce(&k.sub(a, b, &k.q4))
    }
    #[inline(always)]
    unsafe fn sub8_reduce(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe, c: &Self::Fe) -> Self::Fe {
        k.reduce(&k.sub2(a, b, c, &k.q8))
    }
    #[inline(always)]
    unsafe fn neg_where(k: &Self::Consts, a: &Self::Fe, mask: u32) -> Self::Fe {
        k.neg_where(a, [mask & 1 != 0, mask & 2 != 0, mask & 4 != 0, mask & 8 != 0])
    }
}

#[cfg(test)]
mod tests {
    /// What the engines rely on, at every window size: whole pairs of
    /// 8-lane steps, at least 64, at most 1024, and from 256 buckets on at
    /// most a quarter of them (so that a batch can be filled with distinct
    /// buckets).
    #[test]
    fn batch_sizes_fit_the_lanes_and_the_buckets() {
        for c in 1..=crate::pipeline::plan::MAX_C {
            let buckets = 1usize << (c - 1);
            let b = super::batch_size_for(buckets);
            assert!(b.is_multiple_of(16) && (64..=1024).contains(&b), "c = {c}: {b}");
            if buckets >= 256 {
                assert!(4 * b <= buckets, "c = {c}: {b} into {buckets} buckets");
            }
        }
    }
}
