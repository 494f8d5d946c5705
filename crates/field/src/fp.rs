//! `Fp<P, N>`: an element of the prime field given by `P::MODULUS`, stored in
//! Montgomery form a*R mod q with R = 2^(64N).

pub use crate::config::FpConfig;

use crate::limbs;
use crate::{Field, PrimeField, TowerField};
use core::fmt;
use core::marker::PhantomData;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// An element of the prime field `P` in N 64-bit limbs, kept in Montgomery form (a * R mod q, R =
/// 2^(64N)).
pub struct Fp<P: FpConfig<N>, const N: usize> {
    mont: [u64; N],
    _p: PhantomData<P>,
}

impl<P: FpConfig<N>, const N: usize> Fp<P, N> {
    /// The prime q, little-endian limbs.
    pub const MODULUS: [u64; N] = P::MODULUS;
    /// -q^{-1} mod 2^64
    pub const INV: u64 = limbs::neg_inv_u64(P::MODULUS[0]);
    /// R mod q (the Montgomery form of 1)
    pub const R: [u64; N] = limbs::pow2_mod(64 * N, &P::MODULUS);
    /// R^2 mod q (converts into Montgomery form)
    pub const R2: [u64; N] = limbs::pow2_mod(128 * N, &P::MODULUS);
    /// Bits of q.
    pub const NUM_BITS: u32 = limbs::num_bits(&P::MODULUS);
    /// Bytes of the canonical little-endian encoding.
    pub const NUM_BYTES: usize = 8 * N;

    /// The element whose Montgomery form is `mont` (a * R mod q, taken as is: must be below q).
    pub const fn from_mont_limbs(mont: [u64; N]) -> Self {
        Self { mont, _p: PhantomData }
    }

    /// The Montgomery-form limbs (a * R mod q), for backends that need them.
    #[inline(always)]
    pub const fn mont_limbs(&self) -> &[u64; N] {
        &self.mont
    }

    /// Element from a canonical integer; `None` if it is not below q.
    pub fn from_canonical(v: [u64; N]) -> Option<Self> {
        if limbs::geq(&v, &P::MODULUS) {
            return None;
        }
        Some(Self::from_mont_limbs(Self::mont_mul(&v, &Self::R2)))
    }

    /// The canonical integer in [0, q).
    #[inline]
    pub fn to_canonical(&self) -> [u64; N] {
        let mut one = [0u64; N];
        one[0] = 1;
        Self::mont_mul(&self.mont, &one)
    }

    /// Montgomery multiplication a * b / R mod q for a, b < q: the MULX/ADX
    /// assembly of `asm.rs` when the CPU has it and the modulus fits, else the
    /// portable CIOS below.
    #[inline(always)]
    fn mont_mul(a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        #[cfg(target_arch = "x86_64")]
        if Self::ASM_DISPATCH && crate::asm::enabled() {
            // SAFETY: `enabled()` checked BMI2/ADX, ASM_DISPATCH the modulus.
            if let Some(r) = unsafe { crate::asm::mont_mul(a, b, &Self::ASM_CONSTS) } {
                return r;
            }
        }
        Self::mont_mul_portable(a, b)
    }

    /// Montgomery squaring a * a / R mod q: the dedicated MULX/ADX squaring
    /// when the multiplication would run the assembly (6 limbs), else the
    /// multiplication.
    #[inline(always)]
    fn mont_sqr(a: &[u64; N]) -> [u64; N] {
        #[cfg(target_arch = "x86_64")]
        if Self::ASM_DISPATCH && crate::asm::enabled() {
            // SAFETY: `enabled()` checked BMI2/ADX, ASM_DISPATCH the modulus.
            if let Some(r) = unsafe { crate::asm::mont_sqr(a, &Self::ASM_CONSTS) } {
                return r;
            }
        }
        Self::mont_mul(a, a)
    }

    #[cfg(target_arch = "x86_64")]
    const ASM_ELIGIBLE: bool = crate::asm::eligible(&P::MODULUS);
    /// The 4-limb assembly exists (and is tested) but measured no faster than
    /// the portable code (docs/BENCHMARKS.md), so only 6 limbs dispatch to it.
    #[cfg(target_arch = "x86_64")]
    const ASM_DISPATCH: bool = Self::ASM_ELIGIBLE && N == 6;
    #[cfg(target_arch = "x86_64")]
    const ASM_CONSTS: [u64; 8] = crate::asm::consts(&P::MODULUS);

    /// Whether multiplications of this field run the assembly on this CPU.
    pub fn uses_asm() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            Self::ASM_DISPATCH && crate::asm::enabled()
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// Multiplication by the portable Rust code, whatever the CPU (for tests
    /// and benchmarks).
    #[inline]
    pub fn mul_portable(&self, o: &Self) -> Self {
        Self::from_mont_limbs(Self::mont_mul_portable(&self.mont, &o.mont))
    }

    /// Multiplication by the assembly; `None` when the CPU or the modulus does
    /// not allow it (for tests and benchmarks; ignores `ZKMSM_NO_ASM`).
    #[inline]
    pub fn mul_asm(&self, o: &Self) -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        if Self::ASM_ELIGIBLE && crate::asm::supported() {
            // SAFETY: support and eligibility checked just above.
            return unsafe { crate::asm::mont_mul(&self.mont, &o.mont, &Self::ASM_CONSTS) }.map(Self::from_mont_limbs);
        }
        let _ = o;
        None
    }

    /// Squaring by the dedicated assembly; `None` when the CPU or the modulus
    /// does not allow it or no template exists for N (only N = 6 has one; for
    /// tests and benchmarks; ignores `ZKMSM_NO_ASM`).
    #[inline]
    pub fn square_asm(&self) -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        if Self::ASM_ELIGIBLE && crate::asm::supported() {
            // SAFETY: support and eligibility checked just above.
            return unsafe { crate::asm::mont_sqr(&self.mont, &Self::ASM_CONSTS) }.map(Self::from_mont_limbs);
        }
        None
    }

    /// Montgomery multiplication (CIOS), portable: a * b / R mod q for a, b < q.
    #[allow(clippy::needless_range_loop)] // index form mirrors the CIOS recurrence
    #[inline(always)]
    fn mont_mul_portable(a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        let p = &P::MODULUS;
        let mut t = [0u64; N];
        let mut t_hi = 0u64;
        for i in 0..N {
            let mut c = 0u64;
            for j in 0..N {
                (t[j], c) = limbs::mac(t[j], a[j], b[i], c);
            }
            let (s, top) = limbs::adc(t_hi, c, 0);
            t_hi = s;
            let m = t[0].wrapping_mul(Self::INV);
            let (_, mut c) = limbs::mac(t[0], m, p[0], 0);
            for j in 1..N {
                (t[j - 1], c) = limbs::mac(t[j], m, p[j], c);
            }
            let (s, c2) = limbs::adc(t_hi, c, 0);
            t[N - 1] = s;
            t_hi = top + c2;
        }
        if t_hi != 0 || limbs::geq(&t, p) {
            t = limbs::sub(&t, p).0;
        }
        t
    }

    /// `self^exp`, `exp` as little-endian limbs (square and multiply, not constant time).
    pub fn pow(&self, exp: &[u64]) -> Self {
        let mut acc = Self::one();
        for i in (0..exp.len() * 64).rev() {
            acc = acc.square();
            if (exp[i / 64] >> (i % 64)) & 1 == 1 {
                acc *= *self;
            }
        }
        acc
    }

    /// Zero.
    #[inline(always)]
    pub const fn zero() -> Self {
        Self::from_mont_limbs([0; N])
    }

    /// One.
    #[inline(always)]
    pub const fn one() -> Self {
        Self::from_mont_limbs(Self::R)
    }

    /// `v` as a field element (reduced mod q for a modulus below 2^64).
    pub fn from_u64(v: u64) -> Self {
        let mut l = [0u64; N];
        l[0] = v;
        if limbs::geq(&l, &P::MODULUS) {
            // only reachable for toy moduli below 2^64
            l[0] = v % P::MODULUS[0];
        }
        Self::from_canonical(l).expect("reduced")
    }

    /// Little-endian canonical bytes (8N of them).
    pub fn to_bytes_le(&self) -> Vec<u8> {
        self.to_canonical().iter().flat_map(|l| l.to_le_bytes()).collect()
    }

    /// From exactly 8N little-endian bytes; `None` if the value is not below q.
    pub fn from_bytes_le(bytes: &[u8]) -> Option<Self> {
        if bytes.len() != 8 * N {
            return None;
        }
        Self::from_canonical(limbs::from_le_bytes(bytes))
    }

    /// Inverse by Fermat's little theorem, a^(q-2) (about 1.1 log2(q)
    /// multiplications; the reference for tests and benchmarks); `None` for zero.
    pub fn inverse_fermat(&self) -> Option<Self> {
        if self.is_zero() {
            return None;
        }
        let mut two = [0u64; N];
        two[0] = 2;
        let e = limbs::sub(&P::MODULUS, &two).0;
        Some(self.pow(&e))
    }

    /// Legendre symbol: 1 for a non-zero square, -1 for a non-square, 0 for zero.
    pub fn legendre(&self) -> i8 {
        if self.is_zero() {
            return 0;
        }
        let e = limbs::shr(&limbs::sub(&P::MODULUS, &Self::one_limbs()).0, 1);
        let l = self.pow(&e);
        if l == Self::one() {
            1
        } else {
            -1
        }
    }

    fn one_limbs() -> [u64; N] {
        let mut o = [0u64; N];
        o[0] = 1;
        o
    }

    /// Square root by Tonelli-Shanks (works for any odd q); `None` for non-squares.
    pub fn sqrt_ts(&self) -> Option<Self> {
        if self.is_zero() {
            return Some(*self);
        }
        // q - 1 = 2^s * t with t odd
        let qm1 = limbs::sub(&P::MODULUS, &Self::one_limbs()).0;
        let mut s = 0u32;
        let mut t = qm1;
        while t[0] & 1 == 0 {
            t = limbs::shr(&t, 1);
            s += 1;
        }
        let mut z = Self::from_u64(P::NONRESIDUE).pow(&t);
        let tp1_half = limbs::shr(&limbs::add(&t, &Self::one_limbs()).0, 1);
        let mut x = self.pow(&tp1_half);
        let mut b = self.pow(&t);
        let mut m = s;
        while b != Self::one() {
            // least i with b^(2^i) = 1
            let mut i = 0;
            let mut b2 = b;
            while b2 != Self::one() {
                b2 = b2.square();
                i += 1;
                if i == m {
                    return None; // not a square
                }
            }
            let mut w = z;
            for _ in 0..(m - i - 1) {
                w = w.square();
            }
            z = w.square();
            x *= w;
            b *= z;
            m = i;
        }
        Some(x)
    }
}

impl<P: FpConfig<N>, const N: usize> Field for Fp<P, N> {
    const ZERO: Self = Self::zero();
    const ONE: Self = Self::one();

    #[inline(always)]
    fn is_zero(&self) -> bool {
        limbs::is_zero(&self.mont)
    }
    #[inline(always)]
    fn square(&self) -> Self {
        Self::from_mont_limbs(Self::mont_sqr(&self.mont))
    }
    #[inline(always)]
    fn double(&self) -> Self {
        *self + *self
    }
    /// Bernstein–Yang divsteps (`inverse.rs`, variable time); Fermat for N > 8.
    fn inverse(&self) -> Option<Self> {
        if self.is_zero() {
            return None;
        }
        match crate::inverse::inverse::<P, N>(&self.mont) {
            Some(m) => Some(Self::from_mont_limbs(m)),
            None => self.inverse_fermat(),
        }
    }
    fn from_u64(v: u64) -> Self {
        Self::from_u64(v)
    }
    fn random<R: rand::Rng + ?Sized>(rng: &mut R) -> Self {
        let top_mask = if Self::NUM_BITS % 64 == 0 { u64::MAX } else { (1u64 << (Self::NUM_BITS % 64)) - 1 };
        loop {
            let mut v = [0u64; N];
            for l in v.iter_mut() {
                *l = rng.gen();
            }
            v[N - 1] &= top_mask;
            if let Some(f) = Self::from_canonical(v) {
                return f;
            }
        }
    }
}

impl<P: FpConfig<N>, const N: usize> TowerField for Fp<P, N> {
    type Prime = Self;
    const DEGREE: usize = 1;
    #[inline(always)]
    fn coefficient(&self, i: usize) -> Self {
        assert_eq!(i, 0, "a prime field has one coefficient");
        *self
    }
    fn from_coefficients(c: &[Self]) -> Self {
        assert_eq!(c.len(), 1, "a prime field has one coefficient");
        c[0]
    }
    fn sqrt(&self) -> Option<Self> {
        self.sqrt_ts()
    }
    fn is_lexicographically_largest(&self) -> bool {
        // x > (q-1)/2  <=>  x > -x as integers
        let half = limbs::shr(&P::MODULUS, 1);
        let c = self.to_canonical();
        c != half && limbs::geq(&c, &half)
    }
    /// The identity: x^q = x in F_q.
    fn frobenius(&self) -> Self {
        *self
    }
}

impl<P: FpConfig<N>, const N: usize> PrimeField for Fp<P, N> {
    const NUM_BITS: u32 = Self::NUM_BITS;
    const NUM_BYTES: usize = 8 * N;

    fn to_bytes_le(&self) -> Vec<u8> {
        self.to_bytes_le()
    }
    fn from_bytes_le(bytes: &[u8]) -> Option<Self> {
        Self::from_bytes_le(bytes)
    }
    #[inline]
    fn write_montgomery_words(&self, out: &mut [u64]) {
        out[..N].copy_from_slice(&self.mont);
    }
    #[inline]
    fn from_montgomery_words(words: &[u64]) -> Option<Self> {
        let mont: [u64; N] = words.get(..N)?.try_into().ok()?;
        (!limbs::geq(&mont, &P::MODULUS)).then_some(Self::from_mont_limbs(mont))
    }
}

impl<P: FpConfig<N>, const N: usize> Clone for Fp<P, N> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<P: FpConfig<N>, const N: usize> Copy for Fp<P, N> {}
impl<P: FpConfig<N>, const N: usize> PartialEq for Fp<P, N> {
    #[inline(always)]
    fn eq(&self, o: &Self) -> bool {
        self.mont == o.mont
    }
}
impl<P: FpConfig<N>, const N: usize> Eq for Fp<P, N> {}
impl<P: FpConfig<N>, const N: usize> Default for Fp<P, N> {
    fn default() -> Self {
        Self::zero()
    }
}
impl<P: FpConfig<N>, const N: usize> fmt::Debug for Fp<P, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(0x", P::NAME)?;
        for l in self.to_canonical().iter().rev() {
            write!(f, "{l:016x}")?;
        }
        write!(f, ")")
    }
}

impl<P: FpConfig<N>, const N: usize> Add for Fp<P, N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Self::from_mont_limbs(limbs::add_mod(&self.mont, &o.mont, &P::MODULUS))
    }
}
impl<P: FpConfig<N>, const N: usize> Sub for Fp<P, N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        let (d, borrow) = limbs::sub(&self.mont, &o.mont);
        if borrow == 1 {
            Self::from_mont_limbs(limbs::add(&d, &P::MODULUS).0)
        } else {
            Self::from_mont_limbs(d)
        }
    }
}
impl<P: FpConfig<N>, const N: usize> Neg for Fp<P, N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        if self.is_zero() {
            self
        } else {
            Self::from_mont_limbs(limbs::sub(&P::MODULUS, &self.mont).0)
        }
    }
}
impl<P: FpConfig<N>, const N: usize> Mul for Fp<P, N> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        Self::from_mont_limbs(Self::mont_mul(&self.mont, &o.mont))
    }
}
impl<P: FpConfig<N>, const N: usize> AddAssign for Fp<P, N> {
    #[inline(always)]
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}
impl<P: FpConfig<N>, const N: usize> SubAssign for Fp<P, N> {
    #[inline(always)]
    fn sub_assign(&mut self, o: Self) {
        *self = *self - o;
    }
}
impl<P: FpConfig<N>, const N: usize> MulAssign for Fp<P, N> {
    #[inline(always)]
    fn mul_assign(&mut self, o: Self) {
        *self = *self * o;
    }
}
