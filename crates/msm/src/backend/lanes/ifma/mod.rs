//! Batch-affine accumulation eight additions at a time (AVX-512 IFMA): the
//! lane engine ([`crate::backend::lanes::engine`]) on the IFMA arithmetic
//! ([`field52`], radix 2^52), which [`crate::BatchAffineBackend`] runs on
//! CPUs that have it. Points are converted once at init to radix-2^52 limbs
//! (128 bytes each).
//!
//! The arithmetic is generic over [`ops::Ifma`]: the instructions
//! ([`ops::Avx512`], what runs) or their emulation ([`ops::Emulated`], what
//! tests also run on CPUs without IFMA).

pub mod field52;
pub mod ops;

use crate::backend::lanes::engine::{LanePoints, LaneWindow};
use crate::backend::lanes::simd::Kernel;
use crate::backend::lanes::{LaneField, Limbs};
use crate::scheduler::{ScheduleStats, Scheduler};
use crate::Plan;
use field52::{Fe8, Field52, Limbs52, VConsts};
use ops::{Avx512, Ifma};
use zkmsm_curve::{Affine, MsmCurve, SwCurve};
use zkmsm_field::PrimeField;

/// [`field52`] as a [`LaneField`]: eight lanes.
pub struct Ifma52<F: PrimeField, S: Ifma = Avx512> {
    field: Field52<F>,
    _ops: core::marker::PhantomData<S>,
}

impl<F: PrimeField, S: Ifma> LaneField<F> for Ifma52<F, S> {
    const LANES: usize = 8;
    type Fe = Fe8<S>;
    type Consts = VConsts<S>;
    const NAME: &'static str = S::NAME;

    fn available() -> bool {
        S::available()
    }
    fn new() -> Option<Self> {
        Some(Self { field: Field52::new()?, _ops: core::marker::PhantomData })
    }
    fn limbs_of(&self, x: &F) -> Limbs {
        self.field.to_limbs52(x).0
    }
    fn value_of(&self, l: &Limbs) -> F {
        self.field.from_limbs52(&Limbs52(*l))
    }
    fn neg_limbs(&self, y: &Limbs) -> Limbs {
        self.field.neg_limbs52(&Limbs52(*y)).0
    }
    // The batch inversion's conversions without a multiplication: rho = 2^32.
    fn scaled_value_of(&self, l: &Limbs) -> F {
        self.field.raw_from_limbs52(&Limbs52(*l))
    }
    fn limbs_of_scaled(&self, x: &F) -> Limbs {
        self.field.raw_to_limbs52(x).0
    }
    fn scaled_inverse_factor(&self) -> F {
        self.field.raw_inverse_factor()
    }
    fn canonical_words(&self, l: &Limbs) -> [u64; 7] {
        self.field.canonical_words(&Limbs52(*l))
    }
    #[inline(always)]
    unsafe fn run<K: Kernel>(k: K) -> K::Output {
        S::run(k)
    }
    #[inline(always)]
    unsafe fn consts(&self) -> VConsts<S> {
        self.field.vconsts::<S>()
    }
    /// Eight 64-byte loads and a transpose, not gathers (which load the 64
    /// limbs one by one; see docs/BENCHMARKS.md).
    #[inline(always)]
    unsafe fn load(ptrs: &[*const u64]) -> Fe8<S> {
        field52::load_rows([ptrs[0], ptrs[1], ptrs[2], ptrs[3], ptrs[4], ptrs[5], ptrs[6], ptrs[7]])
    }
    /// A transpose and eight 64-byte stores (not scatters).
    #[inline(always)]
    unsafe fn store(ptrs: &[*mut u64], v: &Fe8<S>) {
        field52::store_rows([ptrs[0], ptrs[1], ptrs[2], ptrs[3], ptrs[4], ptrs[5], ptrs[6], ptrs[7]], v)
    }
    #[inline(always)]
    unsafe fn one(&self, _k: &VConsts<S>) -> Fe8<S> {
        field52::from_lanes(&[self.field.to_limbs52(&F::ONE); 8])
    }
    #[inline(always)]
    unsafe fn lane(v: &Fe8<S>, i: usize) -> Limbs {
        field52::lane(v, i).0
    }
    #[inline(always)]
    unsafe fn from_lanes(x: &[Limbs]) -> Fe8<S> {
        let mut l = [Limbs52::default(); 8];
        for (o, x) in l.iter_mut().zip(x) {
            *o = Limbs52(*x);
        }
        field52::from_lanes(&l)
    }
    #[inline(always)]
    unsafe fn mul2(k: &VConsts<S>, a: &Fe8<S>, b: &Fe8<S>, c: &Fe8<S>, d: &Fe8<S>) -> (Fe8<S>, Fe8<S>) {
        k.mul2(a, b, c, d)
    }
    #[inline(always)]
    unsafe fn square2(k: &VConsts<S>, a: &Fe8<S>, b: &Fe8<S>) -> (Fe8<S>, Fe8<S>) {
        // interleaved: decompression's chains of squarings have nothing else
        // to overlap (a lane root 10% less CPU time than two squares in
        // turn); beside the rest of a batch addition it measures the same
        k.square2(a, b)
    }
    #[inline(always)]
    unsafe fn sub4(k: &VConsts<S>, a: &Fe8<S>, b: &Fe8<S>) -> Fe8<S> {
        k.sub(a, b, &k.q4)
    }
    #[inline(always)]
    unsafe fn sub8(k: &VConsts<S>, a: &Fe8<S>, b: &Fe8<S>, c: &Fe8<S>) -> Fe8<S> {
        k.sub2(a, b, c, &k.q8)
    }
    #[inline(always)]
    unsafe fn reduce(k: &VConsts<S>, a: &Fe8<S>) -> Fe8<S> {
        k.reduce(a)
    }
    #[inline(always)]
    unsafe fn neg_where(k: &VConsts<S>, a: &Fe8<S>, mask: u32) -> Fe8<S> {
        k.neg_where(a, mask as u8)
    }
}

/// The IFMA arithmetic of a curve's base field.
type IfmaField<C> = Ifma52<<C as SwCurve>::Base>;

/// Points converted for the IFMA engine.
pub type IfmaPoints<C> = LanePoints<C, IfmaField<C>>;

/// One window's buckets filled by the IFMA engine, still in limbs.
pub type IfmaWindow<'a, C> = LaneWindow<'a, C, IfmaField<C>>;

/// The prepared-file layout of the IFMA engine's points: [`LanePoint`](crate::backend::lanes::engine::LanePoint)
/// records, radix-2^52 limbs in Montgomery form for 2^416.
pub const LAYOUT: &str = "ifma52-point52";
/// Bits per limb of [`LAYOUT`].
pub const RADIX: u32 = 52;

/// Whether batch-affine runs here: AVX-512 F, DQ and IFMA present, and not
/// turned off with `ZKMSM_NO_IFMA=1` (to compare with the other paths).
pub fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| Avx512::available() && std::env::var_os("ZKMSM_NO_IFMA").is_none_or(|v| v != "1"))
}

/// Convert points once (callers check [`enabled`] first).
pub fn prepare<C: MsmCurve>(points: &[Affine<C>]) -> IfmaPoints<C> {
    IfmaPoints::prepare(points)
}

/// As [`prepare`], freeing the affine points as they are converted.
pub fn prepare_owned<C: MsmCurve>(points: Vec<Affine<C>>) -> IfmaPoints<C> {
    IfmaPoints::prepare_owned(points)
}

/// One window's buckets, scheduled by `scheduler` in batches of `batch`,
/// with what the scheduler did.
pub fn accumulate<'a, C: MsmCurve>(
    prepared: &'a IfmaPoints<C>,
    digits: &[i32],
    plan: &Plan,
    scheduler: &dyn Scheduler,
    batch: usize,
) -> (IfmaWindow<'a, C>, ScheduleStats) {
    crate::backend::lanes::engine::accumulate(prepared, digits, plan, scheduler, batch)
}

#[cfg(test)]
mod tests {
    use super::ops::{Avx512, Emulated};
    use super::Ifma52;
    use crate::backend::lanes::engine::tests::window_sum_equals_shared_aggregation;
    use zkmsm_curve::{Bls12_377, Bls12_381};

    /// The IFMA engine, emulated (every x86-64 CPU) and real (where present).
    #[test]
    fn ifma_lanes_equal_reference() {
        type Fq381 = <Bls12_381 as zkmsm_curve::SwCurve>::Base;
        type Fq377 = <Bls12_377 as zkmsm_curve::SwCurve>::Base;
        window_sum_equals_shared_aggregation::<Bls12_381, Ifma52<Fq381, Emulated>>();
        window_sum_equals_shared_aggregation::<Bls12_377, Ifma52<Fq377, Emulated>>();
        window_sum_equals_shared_aggregation::<Bls12_381, Ifma52<Fq381, Avx512>>();
        window_sum_equals_shared_aggregation::<Bls12_377, Ifma52<Fq377, Avx512>>();
    }
}
