//! What the lane engine computes with: [`LaneArith`], elements of a field F
//! in lanes, whatever F is. A prime field's vector arithmetic
//! ([`LaneField`]) is one as it stands; an extension field's is built over
//! its prime field's ([`super::tower`]), so the engine is written once for
//! G1 and G2.

use super::simd::Kernel;
use super::{LaneField, Limbs};
use core::fmt::Debug;
use zkmsm_field::{Field, PrimeField};

/// An element in memory: one [`Limbs`] per coefficient over the prime
/// field (c0 first), each 64 bytes. Bit 63 of the first coefficient's top
/// limb is free in every radix; the engine flags the point at infinity there.
///
/// # Safety
///
/// Only plain arrays of `Limbs` (no padding; every bit pattern a value):
/// lane records are written and mapped as bytes.
pub unsafe trait LaneElem: Copy + Default + Debug + Eq + Send + Sync + 'static {
    /// The coefficients' limbs.
    fn parts(&self) -> &[Limbs];
    /// The same, to write.
    fn parts_mut(&mut self) -> &mut [Limbs];
}

// SAFETY: eight u64.
unsafe impl LaneElem for Limbs {
    fn parts(&self) -> &[Limbs] {
        core::slice::from_ref(self)
    }
    fn parts_mut(&mut self) -> &mut [Limbs] {
        core::slice::from_mut(self)
    }
}

// SAFETY: sixteen u64.
unsafe impl LaneElem for [Limbs; 2] {
    fn parts(&self) -> &[Limbs] {
        self
    }
    fn parts_mut(&mut self) -> &mut [Limbs] {
        self
    }
}

/// What the lane engine needs of a vector arithmetic over field F: elements
/// of `LANES` lanes, products two at a time (two independent chains keep the
/// pipes busy), lazily reduced differences, and the way in and out of the
/// lanes for the one scalar inversion per batch. The bounds each operation
/// takes and gives are [`LaneField`]'s; an extension's ([`super::tower`])
/// states its own, which cover every use in the engine.
///
/// # Safety
///
/// The `unsafe fn`s may only run inside [`LaneArith::run`], on a CPU where
/// [`LaneArith::available`] is true.
pub trait LaneArith<F: Field>: Sized + Send + Sync + 'static {
    /// Elements per vector.
    const LANES: usize;
    /// The name shown in backend names and benchmarks.
    const NAME: &'static str;
    /// See [`LaneField::PIPELINED`].
    const PIPELINED: bool;
    /// One element in memory.
    type Elem: LaneElem;
    /// `LANES` elements.
    type Fe: Copy;
    /// A product on its way into a fused reduction.
    type Uncarried: Copy;
    /// Vector constants, made once per engine.
    type Consts: Copy;

    /// Whether this CPU has what the arithmetic needs.
    fn available() -> bool;
    /// Whether the arithmetic takes field F.
    fn fits() -> bool;
    /// `None` for a field the arithmetic cannot hold.
    fn new() -> Option<Self>;
    /// The largest canonical coefficient (q - 1 of the prime field) as
    /// limbs of `radix` bits: what a record read from a file may hold.
    fn max_coefficient(radix: u32) -> Limbs;
    /// x in the arithmetic's form (canonical).
    fn elem_of(&self, x: &F) -> Self::Elem;
    /// The element these limbs hold (any value the arithmetic produces).
    fn value_of(&self, e: &Self::Elem) -> F;
    /// -y for canonical y (each coefficient q - y_i).
    fn neg_elem(&self, y: &Self::Elem) -> Self::Elem;
    /// See [`LaneField::scaled_value_of`] (rho lies in the prime field).
    fn scaled_value_of(&self, e: &Self::Elem) -> F;
    /// See [`LaneField::limbs_of_scaled`].
    fn elem_of_scaled(&self, x: &F) -> Self::Elem;
    /// See [`LaneField::scaled_inverse_factor`].
    fn scaled_inverse_factor(&self) -> F;

    /// Run `k` with the arithmetic's target features.
    ///
    /// # Safety
    ///
    /// Only where [`LaneArith::available`].
    unsafe fn run<K: Kernel>(k: K) -> K::Output;
    /// The vector constants of this field.
    unsafe fn consts(&self) -> Self::Consts;
    /// Lane k from the element at `ptrs[k]` (8-byte aligned, valid for
    /// `size_of::<Self::Elem>()` bytes; `ptrs.len() == LANES`).
    unsafe fn load(ptrs: &[*const u64]) -> Self::Fe;
    /// Lane k to the element at `ptrs[k]` (valid for writing, pairwise
    /// disjoint, not behind any live reference).
    unsafe fn store(ptrs: &[*mut u64], v: &Self::Fe);
    /// Canonical one in every lane.
    unsafe fn one(&self, k: &Self::Consts) -> Self::Fe;
    /// Lane i.
    unsafe fn lane(v: &Self::Fe, i: usize) -> Self::Elem;
    /// Elements as lanes (`x.len() == LANES`).
    unsafe fn from_lanes(x: &[Self::Elem]) -> Self::Fe;
    /// See [`LaneField::swap_lanes`].
    unsafe fn swap_lanes(v: &Self::Fe, d: usize) -> Self::Fe;
    /// See [`LaneField::mul2`].
    unsafe fn mul2(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe, c: &Self::Fe, d: &Self::Fe) -> (Self::Fe, Self::Fe);
    /// See [`LaneField::square2`].
    unsafe fn square2(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> (Self::Fe, Self::Fe);
    /// See [`LaneField::mul2_uncarried`].
    unsafe fn mul2_uncarried(
        k: &Self::Consts,
        a: &Self::Fe,
        b: &Self::Fe,
        c: &Self::Fe,
        d: &Self::Fe,
    ) -> (Self::Uncarried, Self::Uncarried);
    /// See [`LaneField::square2_uncarried`].
    unsafe fn square2_uncarried(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> (Self::Uncarried, Self::Uncarried);
    /// See [`LaneField::sub4`].
    unsafe fn sub4(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> Self::Fe;
    /// See [`LaneField::sub4_reduce`].
    unsafe fn sub4_reduce(k: &Self::Consts, a: &Self::Uncarried, b: &Self::Fe) -> Self::Fe;
    /// See [`LaneField::sub8_reduce`].
    unsafe fn sub8_reduce(k: &Self::Consts, a: &Self::Uncarried, b: &Self::Fe, c: &Self::Fe) -> Self::Fe;
    /// See [`LaneField::neg_where`].
    unsafe fn neg_where(k: &Self::Consts, a: &Self::Fe, mask: u32) -> Self::Fe;
}

/// The largest canonical element of prime field F (q - 1) as limbs of `radix` bits.
pub fn max_limbs<F: PrimeField>(radix: u32) -> Limbs {
    let mut bytes = (-F::ONE).to_bytes_le();
    bytes.resize(48, 0);
    let q_minus_1: [u64; 6] = zkmsm_field::limbs::from_le_bytes(&bytes);
    max_coordinate(&q_minus_1, radix)
}

/// The limbs of `radix` bits (below 64) of a 384-bit value given as six
/// words, least significant first: the bound [`LanePoint::canonical`](super::engine::LanePoint::canonical) takes.
pub fn max_coordinate(words: &[u64; 6], radix: u32) -> Limbs {
    let bit = |k: usize| k < 384 && words[k / 64] >> (k % 64) & 1 == 1;
    core::array::from_fn(|i| (0..radix as usize).fold(0, |l, b| l | (bit(radix as usize * i + b) as u64) << b))
}

// A prime field's arithmetic, as the engine's: its own types and operations.
type Fe<F, L> = <L as LaneField<F>>::Fe;
type Un<F, L> = <L as LaneField<F>>::Uncarried;
type Ks<F, L> = <L as LaneField<F>>::Consts;

impl<F: PrimeField, L: LaneField<F>> LaneArith<F> for L {
    const LANES: usize = <L as LaneField<F>>::LANES;
    const NAME: &'static str = <L as LaneField<F>>::NAME;
    const PIPELINED: bool = <L as LaneField<F>>::PIPELINED;
    type Elem = Limbs;
    type Fe = <L as LaneField<F>>::Fe;
    type Uncarried = <L as LaneField<F>>::Uncarried;
    type Consts = <L as LaneField<F>>::Consts;

    fn available() -> bool {
        <L as LaneField<F>>::available()
    }
    fn fits() -> bool {
        <L as LaneField<F>>::fits()
    }
    fn new() -> Option<Self> {
        <L as LaneField<F>>::new()
    }
    fn max_coefficient(radix: u32) -> Limbs {
        max_limbs::<F>(radix)
    }
    fn elem_of(&self, x: &F) -> Limbs {
        self.limbs_of(x)
    }
    fn value_of(&self, e: &Limbs) -> F {
        LaneField::value_of(self, e)
    }
    fn neg_elem(&self, y: &Limbs) -> Limbs {
        self.neg_limbs(y)
    }
    fn scaled_value_of(&self, e: &Limbs) -> F {
        LaneField::scaled_value_of(self, e)
    }
    fn elem_of_scaled(&self, x: &F) -> Limbs {
        self.limbs_of_scaled(x)
    }
    fn scaled_inverse_factor(&self) -> F {
        LaneField::scaled_inverse_factor(self)
    }
    #[inline(always)]
    unsafe fn run<K: Kernel>(k: K) -> K::Output {
        <L as LaneField<F>>::run(k)
    }
    #[inline(always)]
    unsafe fn consts(&self) -> Ks<F, L> {
        LaneField::consts(self)
    }
    #[inline(always)]
    unsafe fn load(ptrs: &[*const u64]) -> Fe<F, L> {
        <L as LaneField<F>>::load(ptrs)
    }
    #[inline(always)]
    unsafe fn store(ptrs: &[*mut u64], v: &Fe<F, L>) {
        <L as LaneField<F>>::store(ptrs, v)
    }
    #[inline(always)]
    unsafe fn one(&self, k: &Ks<F, L>) -> Fe<F, L> {
        LaneField::one(self, k)
    }
    #[inline(always)]
    unsafe fn lane(v: &Fe<F, L>, i: usize) -> Limbs {
        <L as LaneField<F>>::lane(v, i)
    }
    #[inline(always)]
    unsafe fn from_lanes(x: &[Limbs]) -> Fe<F, L> {
        <L as LaneField<F>>::from_lanes(x)
    }
    #[inline(always)]
    unsafe fn swap_lanes(v: &Fe<F, L>, d: usize) -> Fe<F, L> {
        <L as LaneField<F>>::swap_lanes(v, d)
    }
    #[inline(always)]
    unsafe fn mul2(k: &Ks<F, L>, a: &Fe<F, L>, b: &Fe<F, L>, c: &Fe<F, L>, d: &Fe<F, L>) -> (Fe<F, L>, Fe<F, L>) {
        <L as LaneField<F>>::mul2(k, a, b, c, d)
    }
    #[inline(always)]
    unsafe fn square2(k: &Ks<F, L>, a: &Fe<F, L>, b: &Fe<F, L>) -> (Fe<F, L>, Fe<F, L>) {
        <L as LaneField<F>>::square2(k, a, b)
    }
    #[inline(always)]
    unsafe fn mul2_uncarried(
        k: &Ks<F, L>,
        a: &Fe<F, L>,
        b: &Fe<F, L>,
        c: &Fe<F, L>,
        d: &Fe<F, L>,
    ) -> (Un<F, L>, Un<F, L>) {
        <L as LaneField<F>>::mul2_uncarried(k, a, b, c, d)
    }
    #[inline(always)]
    unsafe fn square2_uncarried(k: &Ks<F, L>, a: &Fe<F, L>, b: &Fe<F, L>) -> (Un<F, L>, Un<F, L>) {
        <L as LaneField<F>>::square2_uncarried(k, a, b)
    }
    #[inline(always)]
    unsafe fn sub4(k: &Ks<F, L>, a: &Fe<F, L>, b: &Fe<F, L>) -> Fe<F, L> {
        <L as LaneField<F>>::sub4(k, a, b)
    }
    #[inline(always)]
    unsafe fn sub4_reduce(k: &Ks<F, L>, a: &Un<F, L>, b: &Fe<F, L>) -> Fe<F, L> {
        <L as LaneField<F>>::sub4_reduce(k, a, b)
    }
    #[inline(always)]
    unsafe fn sub8_reduce(k: &Ks<F, L>, a: &Un<F, L>, b: &Fe<F, L>, c: &Fe<F, L>) -> Fe<F, L> {
        <L as LaneField<F>>::sub8_reduce(k, a, b, c)
    }
    #[inline(always)]
    unsafe fn neg_where(k: &Ks<F, L>, a: &Fe<F, L>, mask: u32) -> Fe<F, L> {
        <L as LaneField<F>>::neg_where(k, a, mask)
    }
}
