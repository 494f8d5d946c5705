//! The quadratic extension in lanes: [`Fp2Lanes`] makes a [`LaneArith`]
//! over Fp2 = Fp\[u\]/(u^2 - beta) out of any prime-field lane arithmetic
//! that also adds, scales by a small integer and reduces ([`TowerBase`]),
//! so that the lane engine runs G2 as it runs G1. A product is Karatsuba's
//! three base products, a square the complex method's two; they pair up in
//! the base arithmetic's `mul2`, so an Fp2 `mul2` is three base `mul2`s and
//! an Fp2 `square2` two.
//!
//! Bounds, for beta = -n with 1 <= n <= 7 (-1 on BLS12-381 and BN254, -5
//! on BLS12-377), on a base arithmetic whose products take inputs below 64q
//! and give results below q (1 + 2^-14) (the FMA arithmetic): coefficients
//! of products' inputs below 16q (Karatsuba's sums below 32q), of squares'
//! inputs below 4q; every result below 3q (each coefficient reduced with
//! [`TowerBase::reduce`] where it could reach beyond). The engine's largest
//! inputs are a denominator or difference below 7q by a product below 3q;
//! its subtractions take values below 4q: every bound holds.

use super::arith::{max_limbs, LaneArith};
use super::simd::{Kernel, Simd};
use super::{Fma51, LaneField, Limbs};
use zkmsm_field::{Fp2, Fp2Config, PrimeField};

/// A prime-field lane arithmetic the extension can be built on: what
/// Karatsuba's sums and the non-residue's multiple need beyond
/// [`LaneField`], with its products' bounds as stated in the module
/// documentation.
///
/// # Safety
///
/// As [`LaneField`]: only inside `run`, where `available`.
pub unsafe trait TowerBase<F: PrimeField>: LaneField<F> {
    /// a + b, carried: a product's input (a + b below 64q).
    unsafe fn add(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> Self::Fe;
    /// s a, carried, for s in 1..=8.
    unsafe fn mul_small(k: &Self::Consts, a: &Self::Fe, s: u32) -> Self::Fe;
    /// a + m q - b for m one of 4, 8, 16, 32 and b below m q.
    unsafe fn sub_multiple(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe, m: u32) -> Self::Fe;
    /// A value below 16q brought below 3q.
    unsafe fn reduce(k: &Self::Consts, a: &Self::Fe) -> Self::Fe;
    /// Zero in every lane.
    unsafe fn zero(k: &Self::Consts) -> Self::Fe;
}

// SAFETY: the FMA arithmetic's own operations, under its conditions.
unsafe impl<F: PrimeField, S: Simd, const L: usize> TowerBase<F> for Fma51<F, S, L> {
    #[inline(always)]
    unsafe fn add(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> Self::Fe {
        k.add(a, b)
    }
    #[inline(always)]
    unsafe fn mul_small(k: &Self::Consts, a: &Self::Fe, s: u32) -> Self::Fe {
        k.mul_small(a, s)
    }
    #[inline(always)]
    unsafe fn sub_multiple(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe, m: u32) -> Self::Fe {
        let q = match m {
            4 => &k.q4,
            8 => &k.q8,
            16 => &k.q16,
            _ => &k.q32,
        };
        k.sub(a, b, q)
    }
    #[inline(always)]
    unsafe fn reduce(k: &Self::Consts, a: &Self::Fe) -> Self::Fe {
        k.reduce(a)
    }
    #[inline(always)]
    unsafe fn zero(_: &Self::Consts) -> Self::Fe {
        super::field51::Fe4([S::splat_i(0); L])
    }
}

/// A field that is an [`Fp2`]: names its configuration, so that a curve's
/// lane types can be written from its coordinate field alone.
pub trait Quadratic {
    /// The extension's parameters.
    type Config: Fp2Config;
}

impl<P: Fp2Config> Quadratic for Fp2<P> {
    type Config = P;
}

/// Fp2 over the prime-field lane arithmetic `B`: each element a pair of
/// base vectors (c0, c1).
pub struct Fp2Lanes<P: Fp2Config, B: TowerBase<P::Base>> {
    base: B,
    _p: core::marker::PhantomData<P>,
}

/// An element of Fp2 in lanes: c0 and c1.
pub struct Fe2<T>(T, T);

impl<T: Copy> Clone for Fe2<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Copy> Copy for Fe2<T> {}

/// The base arithmetic's constants and zero.
pub struct Consts2<B: Copy, Z: Copy> {
    base: B,
    zero: Z,
}

impl<B: Copy, Z: Copy> Clone for Consts2<B, Z> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: Copy, Z: Copy> Copy for Consts2<B, Z> {}

impl<P: Fp2Config, B: TowerBase<P::Base>> Fp2Lanes<P, B> {
    /// n for beta = -n.
    const N: u32 = P::NONRESIDUE.unsigned_abs() as u32;

    /// The smallest multiple of q among 4, 8, 16, 32 above n times a bound of `times` q.
    const fn multiple_above(times: u32) -> u32 {
        let need = Self::N * times;
        if need < 4 {
            4
        } else if need < 8 {
            8
        } else if need < 16 {
            16
        } else {
            32
        }
    }

    /// beta v + w for products v, w (below 1.01 q): w + m q - n v, reduced
    /// below 3q (w + m q < 9.1 q for n <= 7).
    #[inline(always)]
    unsafe fn plus_beta(k: &B::Consts, w: &B::Fe, v: &B::Fe) -> B::Fe {
        let nv = if Self::N == 1 { *v } else { B::mul_small(k, v, Self::N) };
        B::reduce(k, &B::sub_multiple(k, w, &nv, Self::multiple_above(2)))
    }

    /// Two Karatsuba products, their six base products paired.
    #[inline(always)]
    unsafe fn mul2_(
        k: &Consts2<B::Consts, B::Fe>,
        a: &Fe2<B::Fe>,
        b: &Fe2<B::Fe>,
        c: &Fe2<B::Fe>,
        d: &Fe2<B::Fe>,
    ) -> (Fe2<B::Fe>, Fe2<B::Fe>) {
        let k = &k.base;
        let (v0, v1) = B::mul2(k, &a.0, &b.0, &a.1, &b.1);
        let (w0, w1) = B::mul2(k, &c.0, &d.0, &c.1, &d.1);
        let (sa, sb) = (B::add(k, &a.0, &a.1), B::add(k, &b.0, &b.1));
        let (sc, sd) = (B::add(k, &c.0, &c.1), B::add(k, &d.0, &d.1));
        let (m, n) = B::mul2(k, &sa, &sb, &sc, &sd);
        // c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1: below 1.01 q + 8q
        let r1 = B::reduce(k, &B::sub_multiple(k, &B::sub_multiple(k, &m, &v0, 4), &v1, 4));
        let s1 = B::reduce(k, &B::sub_multiple(k, &B::sub_multiple(k, &n, &w0, 4), &w1, 4));
        (Fe2(Self::plus_beta(k, &v0, &v1), r1), Fe2(Self::plus_beta(k, &w0, &w1), s1))
    }

    /// Two squares by the complex method: c0 = (a0 + a1)(a0 + beta a1) -
    /// (1 + beta) a0 a1 = (a0 + a1)(a0 - n a1) + (n - 1) a0 a1, c1 = 2 a0
    /// a1 (coefficients below 4q: a0 + m q - n a1 stays positive).
    #[inline(always)]
    unsafe fn square2_(k: &Consts2<B::Consts, B::Fe>, a: &Fe2<B::Fe>, b: &Fe2<B::Fe>) -> (Fe2<B::Fe>, Fe2<B::Fe>) {
        let k = &k.base;
        let m4 = Self::multiple_above(4);
        let minus = |x: &Fe2<B::Fe>| {
            let n1 = if Self::N == 1 { x.1 } else { B::mul_small(k, &x.1, Self::N) };
            B::sub_multiple(k, &x.0, &n1, m4)
        };
        let (va, vb) = B::mul2(k, &a.0, &a.1, &b.0, &b.1);
        let (pa, ma) = (B::add(k, &a.0, &a.1), minus(a));
        let (pb, mb) = (B::add(k, &b.0, &b.1), minus(b));
        let (ra, rb) = B::mul2(k, &pa, &ma, &pb, &mb);
        let c0 = |r: &B::Fe, v: &B::Fe| {
            if Self::N == 1 {
                *r
            } else {
                B::reduce(k, &B::add(k, r, &B::mul_small(k, v, Self::N - 1)))
            }
        };
        (Fe2(c0(&ra, &va), B::add(k, &va, &va)), Fe2(c0(&rb, &vb), B::add(k, &vb, &vb)))
    }
}

/// Pointers moved by one coefficient (eight words).
#[inline(always)]
fn second<T>(ptrs: &[*const T]) -> [*const T; 16] {
    let mut out = [core::ptr::null(); 16];
    for (o, p) in out.iter_mut().zip(ptrs) {
        // SAFETY: callers hand pointers to whole elements of two coefficients.
        *o = unsafe { p.add(8) };
    }
    out
}

impl<P: Fp2Config, B: TowerBase<P::Base>> LaneArith<Fp2<P>> for Fp2Lanes<P, B> {
    const LANES: usize = B::LANES;
    const NAME: &'static str = B::NAME;
    const PIPELINED: bool = B::PIPELINED;
    type Elem = [Limbs; 2];
    type Fe = Fe2<B::Fe>;
    type Uncarried = Fe2<B::Fe>;
    type Consts = Consts2<B::Consts, B::Fe>;

    fn available() -> bool {
        B::available()
    }
    /// The base arithmetic takes Fp, and beta is -1 .. -7 (the bounds above).
    fn fits() -> bool {
        B::fits() && (-7..=-1).contains(&P::NONRESIDUE)
    }
    fn new() -> Option<Self> {
        if !Self::fits() {
            return None;
        }
        Some(Self { base: B::new()?, _p: core::marker::PhantomData })
    }
    fn max_coefficient(radix: u32) -> Limbs {
        max_limbs::<P::Base>(radix)
    }
    fn elem_of(&self, x: &Fp2<P>) -> [Limbs; 2] {
        [self.base.limbs_of(&x.c0), self.base.limbs_of(&x.c1)]
    }
    fn value_of(&self, e: &[Limbs; 2]) -> Fp2<P> {
        Fp2::new(LaneField::value_of(&self.base, &e[0]), LaneField::value_of(&self.base, &e[1]))
    }
    fn neg_elem(&self, y: &[Limbs; 2]) -> [Limbs; 2] {
        [self.base.neg_limbs(&y[0]), self.base.neg_limbs(&y[1])]
    }
    fn scaled_value_of(&self, e: &[Limbs; 2]) -> Fp2<P> {
        Fp2::new(LaneField::scaled_value_of(&self.base, &e[0]), LaneField::scaled_value_of(&self.base, &e[1]))
    }
    fn elem_of_scaled(&self, x: &Fp2<P>) -> [Limbs; 2] {
        [self.base.limbs_of_scaled(&x.c0), self.base.limbs_of_scaled(&x.c1)]
    }
    fn scaled_inverse_factor(&self) -> Fp2<P> {
        Fp2::new(LaneField::scaled_inverse_factor(&self.base), <P::Base as zkmsm_field::Field>::ZERO)
    }
    #[inline(always)]
    unsafe fn run<K: Kernel>(k: K) -> K::Output {
        B::run(k)
    }
    #[inline(always)]
    unsafe fn consts(&self) -> Self::Consts {
        let base = LaneField::consts(&self.base);
        Consts2 { base, zero: B::zero(&base) }
    }
    #[inline(always)]
    unsafe fn load(ptrs: &[*const u64]) -> Self::Fe {
        Fe2(B::load(ptrs), B::load(&second(ptrs)[..ptrs.len()]))
    }
    #[inline(always)]
    unsafe fn store(ptrs: &[*mut u64], v: &Self::Fe) {
        let mut hi = [core::ptr::null_mut(); 16];
        for (o, p) in hi.iter_mut().zip(ptrs) {
            *o = p.add(8);
        }
        B::store(ptrs, &v.0);
        B::store(&hi[..ptrs.len()], &v.1);
    }
    #[inline(always)]
    unsafe fn one(&self, k: &Self::Consts) -> Self::Fe {
        Fe2(LaneField::one(&self.base, &k.base), k.zero)
    }
    #[inline(always)]
    unsafe fn lane(v: &Self::Fe, i: usize) -> [Limbs; 2] {
        [B::lane(&v.0, i), B::lane(&v.1, i)]
    }
    #[inline(always)]
    unsafe fn from_lanes(x: &[[Limbs; 2]]) -> Self::Fe {
        let mut c0 = [[0u64; 8]; 16];
        let mut c1 = [[0u64; 8]; 16];
        for (i, e) in x.iter().enumerate() {
            c0[i] = e[0];
            c1[i] = e[1];
        }
        Fe2(B::from_lanes(&c0[..x.len()]), B::from_lanes(&c1[..x.len()]))
    }
    #[inline(always)]
    unsafe fn swap_lanes(v: &Self::Fe, d: usize) -> Self::Fe {
        Fe2(B::swap_lanes(&v.0, d), B::swap_lanes(&v.1, d))
    }
    #[inline(always)]
    unsafe fn mul2(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe, c: &Self::Fe, d: &Self::Fe) -> (Self::Fe, Self::Fe) {
        Self::mul2_(k, a, b, c, d)
    }
    #[inline(always)]
    unsafe fn square2(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> (Self::Fe, Self::Fe) {
        Self::square2_(k, a, b)
    }
    /// Karatsuba's sums come after its products: nothing cheaper to hand on.
    #[inline(always)]
    unsafe fn mul2_uncarried(
        k: &Self::Consts,
        a: &Self::Fe,
        b: &Self::Fe,
        c: &Self::Fe,
        d: &Self::Fe,
    ) -> (Self::Fe, Self::Fe) {
        Self::mul2_(k, a, b, c, d)
    }
    #[inline(always)]
    unsafe fn square2_uncarried(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> (Self::Fe, Self::Fe) {
        Self::square2_(k, a, b)
    }
    #[inline(always)]
    unsafe fn sub4(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> Self::Fe {
        Fe2(B::sub4(&k.base, &a.0, &b.0), B::sub4(&k.base, &a.1, &b.1))
    }
    /// Each coefficient a + 4q - b (below 7q) reduced below 3q.
    #[inline(always)]
    unsafe fn sub4_reduce(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe) -> Self::Fe {
        let k = &k.base;
        Fe2(B::reduce(k, &B::sub4(k, &a.0, &b.0)), B::reduce(k, &B::sub4(k, &a.1, &b.1)))
    }
    /// Each coefficient a + 8q - (b + c) (below 11q) reduced below 3q.
    #[inline(always)]
    unsafe fn sub8_reduce(k: &Self::Consts, a: &Self::Fe, b: &Self::Fe, c: &Self::Fe) -> Self::Fe {
        let k = &k.base;
        let part = |a: &B::Fe, b: &B::Fe, c: &B::Fe| B::reduce(k, &B::sub_multiple(k, a, &B::add(k, b, c), 8));
        Fe2(part(&a.0, &b.0, &c.0), part(&a.1, &b.1, &c.1))
    }
    #[inline(always)]
    unsafe fn neg_where(k: &Self::Consts, a: &Self::Fe, mask: u32) -> Self::Fe {
        Fe2(B::neg_where(&k.base, &a.0, mask), B::neg_where(&k.base, &a.1, mask))
    }
}

#[cfg(test)]
mod tests {
    use super::super::simd::Portable;
    use super::super::words::{bytes_to_words, geq, limbs_to_words, mul_small};
    use super::*;
    use rand::SeedableRng;
    use zkmsm_field::{Bls12_377Fq2Config, Bls12_381Fq2Config, Bn254Fq2Config, Field};

    type Arith<P, S, const L: usize> = Fp2Lanes<P, Fma51<<P as Fp2Config>::Base, S, L>>;

    /// Every result's coefficients below 3q, as the module promises.
    fn below_3q<F: PrimeField>(e: &[Limbs; 2]) -> bool {
        let mut q = bytes_to_words(&(-F::ONE).to_bytes_le());
        q[0] += 1;
        let three = mul_small(&q, 3);
        e.iter().all(|l| !geq(&limbs_to_words(l, 51, false), &three))
    }

    struct Check<P, S, const L: usize>(core::marker::PhantomData<(P, S)>);

    impl<P: Fp2Config, S: Simd, const L: usize> Kernel for Check<P, S, L> {
        type Output = ();
        /// Products and squares against the scalar Fp2 on random elements,
        /// on coefficients 0, 1 and q - 1, and on the engine's largest
        /// inputs (differences below 7q times results below 3q), with the
        /// outputs fed back in for a long chain: every value equal, every
        /// result below 3q.
        fn run(self) {
            let f = Arith::<P, S, L>::new().expect("the field fits");
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
            let minus_one = -<P::Base as Field>::ONE;
            let mut xs: Vec<Fp2<P>> = (0..64).map(|_| Fp2::random(&mut rng)).collect();
            for (c0, c1) in [(0u64, 0u64), (1, 0), (0, 1)] {
                xs.push(Fp2::new(P::Base::from_u64(c0), P::Base::from_u64(c1)));
            }
            xs.push(Fp2::new(minus_one, minus_one));
            xs.push(Fp2::new(minus_one, P::Base::ZERO));
            xs.push(Fp2::new(P::Base::ZERO, minus_one));
            // SAFETY: run through `run` where available (the caller checks).
            unsafe {
                let k = LaneArith::consts(&f);
                let vec = |x: &[Fp2<P>]| {
                    let e: Vec<[Limbs; 2]> = x.iter().map(|v| f.elem_of(v)).collect();
                    <Arith<P, S, L> as LaneArith<Fp2<P>>>::from_lanes(&e)
                };
                let lanes = |v: &Fe2<_>| -> Vec<[Limbs; 2]> {
                    (0..4).map(|i| <Arith<P, S, L> as LaneArith<Fp2<P>>>::lane(v, i)).collect()
                };
                type A<P, S, const L: usize> = Arith<P, S, L>;
                let mut chain = vec(&xs[..4]);
                let mut chain_want: Vec<Fp2<P>> = xs[..4].to_vec();
                for j in (0..xs.len() - 4).step_by(2) {
                    let (w, next) = (&xs[j..j + 4], &xs[j + 1..j + 5]);
                    let (a, b) = (vec(w), vec(next));
                    // a difference below 7q: a + 4q - (a result below 3q)
                    let d = A::<P, S, L>::sub4(&k, &a, &chain);
                    let d_want: Vec<Fp2<P>> = w.iter().zip(&chain_want).map(|(x, y)| *x - *y).collect();
                    let (p, s) = A::<P, S, L>::mul2(&k, &d, &chain, &a, &b);
                    let (sq, sq2) = A::<P, S, L>::square2(&k, &chain, &a);
                    for (i, (e_p, (e_s, (e_q, e_q2)))) in lanes(&p)
                        .iter()
                        .zip(lanes(&s).iter().zip(lanes(&sq).iter().zip(lanes(&sq2).iter())))
                        .enumerate()
                    {
                        assert_eq!(f.value_of(e_p), d_want[i] * chain_want[i], "{} product", P::NAME);
                        assert_eq!(f.value_of(e_s), w[i] * next[i], "{} product", P::NAME);
                        assert_eq!(f.value_of(e_q), chain_want[i].square(), "{} square", P::NAME);
                        assert_eq!(f.value_of(e_q2), w[i].square(), "{} square", P::NAME);
                        for e in [e_p, e_s, e_q, e_q2] {
                            assert!(below_3q::<P::Base>(e), "{} result at or above 3q", P::NAME);
                        }
                    }
                    // the engine's reductions of a result below 3q
                    let r4 = A::<P, S, L>::sub4_reduce(&k, &p, &chain);
                    let r8 = A::<P, S, L>::sub8_reduce(&k, &sq, &chain, &a);
                    for (i, (e4, e8)) in lanes(&r4).iter().zip(lanes(&r8).iter()).enumerate() {
                        assert_eq!(f.value_of(e4), d_want[i] * chain_want[i] - chain_want[i]);
                        assert_eq!(f.value_of(e8), chain_want[i].square() - chain_want[i] - w[i]);
                        assert!(below_3q::<P::Base>(e4) && below_3q::<P::Base>(e8));
                    }
                    chain = p;
                    chain_want = (0..4).map(|i| d_want[i] * chain_want[i]).collect();
                }
                let one = lanes(&LaneArith::one(&f, &k));
                assert!(one.iter().all(|e| f.value_of(e) == Fp2::ONE));
                let neg = A::<P, S, L>::neg_where(&k, &vec(&xs[..4]), 0b0101);
                for (i, e) in lanes(&neg).iter().enumerate() {
                    let want = if i % 2 == 0 { -xs[i] } else { xs[i] };
                    assert_eq!(f.value_of(e), want);
                }
                // the batch inversion's way out of the lanes and back
                for x in xs.iter().filter(|x| !x.is_zero()) {
                    let e = f.elem_of(x);
                    let u = f.scaled_value_of(&e);
                    let inv = f.elem_of_scaled(&(u.inverse().unwrap() * f.scaled_inverse_factor()));
                    assert_eq!(f.value_of(&inv) * *x, Fp2::ONE, "{}", P::NAME);
                    assert_eq!(f.value_of(&f.neg_elem(&e)), -*x);
                }
            }
        }
    }

    fn check<P: Fp2Config, S: Simd, const L: usize>() {
        if !S::available() {
            eprintln!("{} not available here: skipped", S::NAME);
            return;
        }
        // SAFETY: available (checked above).
        unsafe { S::run(Check::<P, S, L>(core::marker::PhantomData)) }
    }

    #[test]
    fn fp2_lanes_equal_the_scalar_extension() {
        check::<Bls12_381Fq2Config, Portable, 8>();
        check::<Bls12_377Fq2Config, Portable, 8>();
        check::<Bn254Fq2Config, Portable, 6>();
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        {
            type S = super::super::NativeSimd;
            check::<Bls12_381Fq2Config, S, 8>();
            check::<Bls12_377Fq2Config, S, 8>();
            check::<Bn254Fq2Config, S, 6>();
        }
    }

    /// The extension is built only where its bounds hold: beta in -7..-1
    /// and a base arithmetic that takes Fp.
    #[test]
    fn the_extension_takes_small_negative_nonresidues_only() {
        assert!(<Arith<Bls12_377Fq2Config, Portable, 8> as LaneArith<_>>::fits());
        assert!(<Arith<Bn254Fq2Config, Portable, 6> as LaneArith<_>>::fits());
        assert!(!<Arith<Bls12_381Fq2Config, Portable, 6> as LaneArith<_>>::fits(), "six limbs do not hold 381 bits");
        #[derive(Debug)]
        struct Beta2;
        impl Fp2Config for Beta2 {
            type Base = zkmsm_field::Bn254Fq;
            const NONRESIDUE: i64 = 3;
            const NAME: &'static str = "beta 3";
        }
        assert!(!<Arith<Beta2, Portable, 6> as LaneArith<_>>::fits());
        assert!(<Arith<Beta2, Portable, 6> as LaneArith<_>>::new().is_none());
    }
}
