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

use crate::backend::lanes::simd::Kernel;
use crate::backend::lanes::sized::{SizedPoints, SizedWindow};
use crate::backend::lanes::{LaneField, Limbs};
use field52::{Fe8, Field52, Limbs52, Uncarried8, VConsts};
use ops::{Avx512, Ifma};
use zkmsm_curve::SwCurve;
use zkmsm_field::PrimeField;

/// [`field52`] as a [`LaneField`]: eight lanes of N limbs.
pub struct Ifma52<F: PrimeField, S: Ifma = Avx512, const N: usize = { field52::LIMBS }> {
    field: Field52<F, N>,
    _ops: core::marker::PhantomData<S>,
}

impl<F: PrimeField, S: Ifma, const N: usize> LaneField<F> for Ifma52<F, S, N> {
    const LANES: usize = 8;
    type Fe = Fe8<S, N>;
    type Uncarried = Uncarried8<S, N>;
    type Consts = VConsts<S, N>;
    const NAME: &'static str = S::NAME;
    // 10-12% fewer cycles per addition in the bare batch (docs/BENCHMARKS.md)
    const PIPELINED: bool = true;

    fn available() -> bool {
        S::available()
    }
    fn fits() -> bool {
        field52::fits::<F>(N)
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
    unsafe fn consts(&self) -> VConsts<S, N> {
        self.field.vconsts::<S>()
    }
    /// Eight 64-byte loads and a transpose, not gathers (which load the 64
    /// limbs one by one; see docs/BENCHMARKS.md).
    #[inline(always)]
    unsafe fn load(ptrs: &[*const u64]) -> Fe8<S, N> {
        field52::load_rows([ptrs[0], ptrs[1], ptrs[2], ptrs[3], ptrs[4], ptrs[5], ptrs[6], ptrs[7]])
    }
    /// A transpose and eight 64-byte stores (not scatters).
    #[inline(always)]
    unsafe fn store(ptrs: &[*mut u64], v: &Fe8<S, N>) {
        field52::store_rows([ptrs[0], ptrs[1], ptrs[2], ptrs[3], ptrs[4], ptrs[5], ptrs[6], ptrs[7]], v)
    }
    #[inline(always)]
    unsafe fn one(&self, _k: &VConsts<S, N>) -> Fe8<S, N> {
        field52::from_lanes(&[self.field.to_limbs52(&F::ONE); 8])
    }
    #[inline(always)]
    unsafe fn lane(v: &Fe8<S, N>, i: usize) -> Limbs {
        field52::lane(v, i).0
    }
    #[inline(always)]
    unsafe fn from_lanes(x: &[Limbs]) -> Fe8<S, N> {
        let mut l = [Limbs52::default(); 8];
        for (o, x) in l.iter_mut().zip(x) {
            *o = Limbs52(*x);
        }
        field52::from_lanes(&l)
    }
    #[inline(always)]
    unsafe fn mul2(
        k: &VConsts<S, N>,
        a: &Fe8<S, N>,
        b: &Fe8<S, N>,
        c: &Fe8<S, N>,
        d: &Fe8<S, N>,
    ) -> (Fe8<S, N>, Fe8<S, N>) {
        k.mul2(a, b, c, d)
    }
    #[inline(always)]
    unsafe fn square2(k: &VConsts<S, N>, a: &Fe8<S, N>, b: &Fe8<S, N>) -> (Fe8<S, N>, Fe8<S, N>) {
        // interleaved: decompression's chains of squarings have nothing else
        // to overlap (a lane root 10% less CPU time than two squares in
        // turn); beside the rest of a batch addition it measures the same
        k.square2(a, b)
    }
    #[inline(always)]
    unsafe fn sub4(k: &VConsts<S, N>, a: &Fe8<S, N>, b: &Fe8<S, N>) -> Fe8<S, N> {
        k.sub(a, b, &k.q4)
    }
    #[inline(always)]
    unsafe fn mul2_uncarried(
        k: &VConsts<S, N>,
        a: &Fe8<S, N>,
        b: &Fe8<S, N>,
        c: &Fe8<S, N>,
        d: &Fe8<S, N>,
    ) -> (Uncarried8<S, N>, Uncarried8<S, N>) {
        k.mul2_uncarried(a, b, c, d)
    }
    #[inline(always)]
    unsafe fn square2_uncarried(
        k: &VConsts<S, N>,
        a: &Fe8<S, N>,
        b: &Fe8<S, N>,
    ) -> (Uncarried8<S, N>, Uncarried8<S, N>) {
        k.square2_uncarried(a, b)
    }
    #[inline(always)]
    unsafe fn sub4_reduce(k: &VConsts<S, N>, a: &Uncarried8<S, N>, b: &Fe8<S, N>) -> Fe8<S, N> {
        k.sub_reduce(a, b, &k.q4)
    }
    #[inline(always)]
    unsafe fn sub8_reduce(k: &VConsts<S, N>, a: &Uncarried8<S, N>, b: &Fe8<S, N>, c: &Fe8<S, N>) -> Fe8<S, N> {
        k.sub2_reduce(a, b, c, &k.q8)
    }
    #[inline(always)]
    unsafe fn neg_where(k: &VConsts<S, N>, a: &Fe8<S, N>, mask: u32) -> Fe8<S, N> {
        k.neg_where(a, mask as u8)
    }
}

/// The IFMA arithmetic of a curve's base field in eight limbs (the BLS12 fields).
type IfmaWide<C> = Ifma52<<C as SwCurve>::Base, Avx512, 8>;
/// The IFMA arithmetic in five limbs (fields below 2^254: BN254).
type IfmaNarrow<C> = Ifma52<<C as SwCurve>::Base, Avx512, 5>;

/// Points converted for the IFMA engine, at the limb count of the curve's field.
pub type IfmaPoints<C> = SizedPoints<C, IfmaWide<C>, IfmaNarrow<C>>;

/// One window's buckets filled by the IFMA engine, still in limbs.
pub type IfmaWindow<'a, C> = SizedWindow<'a, C, IfmaWide<C>, IfmaNarrow<C>>;

/// The prepared-file layout of the IFMA engine's points: [`LanePoint`](crate::backend::lanes::engine::LanePoint)
/// records, radix-2^52 limbs in Montgomery form for 2^(52 N) (N = 8; 5 on BN254), eight limbs stored.
pub const LAYOUT: &str = "ifma52-point52";
/// Bits per limb of [`LAYOUT`].
pub const RADIX: u32 = 52;

/// Whether batch-affine runs here: AVX-512 F, DQ and IFMA present, and not
/// turned off with `ZKMSM_NO_IFMA=1` (to compare with the other paths).
pub fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| Avx512::available() && std::env::var_os("ZKMSM_NO_IFMA").is_none_or(|v| v != "1"))
}

#[cfg(test)]
mod tests {
    use super::ops::{Avx512, Avx512Ymm, Emulated};
    use super::Ifma52;
    use crate::backend::lanes::engine::tests::window_sum_equals_shared_aggregation;
    use zkmsm_curve::{Bls12_377, Bls12_381, Bn254};

    /// The IFMA engine, emulated (every x86-64 CPU) and real (where present,
    /// 512-bit and 256-bit),
    /// at eight limbs (BLS12) and five (BN254).
    #[test]
    fn ifma_lanes_equal_reference() {
        type Fq381 = <Bls12_381 as zkmsm_curve::SwCurve>::Base;
        type Fq377 = <Bls12_377 as zkmsm_curve::SwCurve>::Base;
        type Fq254 = <Bn254 as zkmsm_curve::SwCurve>::Base;
        window_sum_equals_shared_aggregation::<Bls12_381, Ifma52<Fq381, Emulated>>();
        window_sum_equals_shared_aggregation::<Bls12_377, Ifma52<Fq377, Emulated>>();
        window_sum_equals_shared_aggregation::<Bn254, Ifma52<Fq254, Emulated, 5>>();
        window_sum_equals_shared_aggregation::<Bls12_381, Ifma52<Fq381, Avx512>>();
        window_sum_equals_shared_aggregation::<Bls12_377, Ifma52<Fq377, Avx512>>();
        window_sum_equals_shared_aggregation::<Bn254, Ifma52<Fq254, Avx512, 5>>();
        window_sum_equals_shared_aggregation::<Bls12_381, Ifma52<Fq381, Avx512Ymm>>();
        window_sum_equals_shared_aggregation::<Bn254, Ifma52<Fq254, Avx512Ymm, 5>>();
    }

    /// The limb count follows the field: eight on BLS12, five on BN254.
    #[test]
    fn bn254_takes_five_limbs() {
        use super::ops::Ifma;
        use crate::backend::lanes::sized::SizedPoints;
        let g = [<Bn254 as zkmsm_curve::SwCurve>::generator()];
        if !Avx512::available() {
            return;
        }
        assert!(matches!(super::IfmaPoints::<Bn254>::prepare(&g), SizedPoints::Narrow(_)));
        let h = [<Bls12_381 as zkmsm_curve::SwCurve>::generator()];
        assert!(matches!(super::IfmaPoints::<Bls12_381>::prepare(&h), SizedPoints::Wide(_)));
    }
}
