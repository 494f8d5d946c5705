//! Eight field elements at once in AVX-512 IFMA: a prime field in radix 2^52,
//! N limbs (N = 8, 416 bits, for the 381-bit BLS12 fields; N = 5, 260 bits,
//! for BN254's 254-bit field), with Montgomery constant R' = 2^(52 N).
//! Lane k of limb vector j holds limb j of element k, so one `vpmadd52luq`
//! does a limb product for eight independent additions of a batch.
//!
//! Reduction is lazy, and one rule covers every limb count: the field is
//! taken only when q < 2^(52 N - 6) (R' > 64q), so a Montgomery product of
//! a < A q and b < B q with A B <= 64 is below a b / R' + q < 2q. Sums and
//! differences are kept below 16q by adding multiples of q, and
//! [`VConsts::reduce`] brings a value below 16q back under ~2q with an
//! estimated quotient. The engine's largest A B is 2 x 7 = 14 (a chain
//! product below 2q times a denominator below 7q). Values are only made
//! canonical when they leave (`from_limbs52`).
//!
//! In memory an element is always eight 64-bit limbs (one cache line per
//! coordinate); limbs N..8 are zero.
//!
//! The vector code is generic over [`Ifma`]: the AVX-512 instructions, or
//! their plain-Rust emulation, which tests run on every CPU.
//!
//! # Safety
//!
//! The `unsafe fn`s of [`VConsts`] may only run where `S::available()`, inside
//! `S::run`; that one condition is why they are unsafe. [`load_rows`] and
//! [`store_rows`] also touch memory (see their sections).
#![allow(clippy::missing_safety_doc)]
// Limb loops index several arrays by the same limb number, as the formulas do.
#![allow(clippy::needless_range_loop)]

use super::ops::Ifma;
use crate::backend::lanes::words::{bytes_to_words, geq, limbs_to_words, sub_in_place, words_to_limbs};
use zkmsm_field::PrimeField;

/// Limbs of an element in memory (8 x 52 = 416 bits): the most any field
/// here needs; a field of N limbs leaves the rest zero.
pub const LIMBS: usize = 8;
const MASK: u64 = (1 << 52) - 1;

/// One element: normalized 52-bit limbs, little-endian (N used, the rest
/// zero). Bit 63 of the top limb is free; the backend uses it as a flag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Limbs52(pub [u64; LIMBS]);

/// Eight elements of N limbs, limb-major (`self.0[j]` = limb j of lanes 0..8).
pub struct Fe8<S: Ifma, const N: usize = LIMBS>(pub [S::V; N]);

impl<S: Ifma, const N: usize> Clone for Fe8<S, N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Ifma, const N: usize> Copy for Fe8<S, N> {}

/// Eight Montgomery products before their last carry pass: the top N
/// columns of the reduction, each below 2^58 (see [`VConsts::mul`]), the
/// value below 2q. Only the fused reductions ([`VConsts::sub_reduce`],
/// [`VConsts::sub2_reduce`]) take it: their quotient estimate and carry
/// pass work on uncarried limbs anyway, so the product's own carry pass
/// (3 (N - 1) vector instructions, a 2 (N - 1)-cycle chain) is saved.
pub struct Uncarried8<S: Ifma, const N: usize = LIMBS>(pub [S::V; N]);

impl<S: Ifma, const N: usize> Clone for Uncarried8<S, N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Ifma, const N: usize> Copy for Uncarried8<S, N> {}

/// Whether the IFMA arithmetic of N limbs takes field F: q below
/// 2^(52 N - 6) (the lazy reduction's margin, see the module notes), q at
/// least 2^(52 (N - 2) + 15) (the quotient estimate of [`VConsts::reduce`]
/// reads the top two limbs, so the value must live there: the lower limbs'
/// share, below 2^(52 (N - 2) + 9) for the uncarried limbs it takes, is
/// then under 2^-6 of q, where a 255-bit field in eight limbs would leave
/// the estimate at zero and the values unreduced), and R' = 2^(52 N) at
/// least F's own Montgomery constant 2^(8 NUM_BYTES) (the conversions
/// scale by their ratio).
pub const fn fits<F: PrimeField>(n: usize) -> bool {
    fits_bits(F::NUM_BITS as usize, F::NUM_BYTES, n)
}

/// [`fits`] for a modulus of `bits` bits stored in `bytes` bytes.
pub const fn fits_bits(bits: usize, bytes: usize, n: usize) -> bool {
    n >= 2 && n <= LIMBS && bits + 6 <= 52 * n && bits > 52 * (n - 2) + 15 && 8 * bytes <= 52 * n
}

/// Scalar-side constants of a field, derived from its canonical encoding.
#[derive(Clone, Debug)]
pub struct Field52<F: PrimeField, const N: usize = LIMBS> {
    /// q in radix-2^52 limbs (zero above N).
    pub q: [u64; LIMBS],
    /// q in 64-bit words (7 words cover 416 bits).
    q64: [u64; 7],
    /// -q^-1 mod 2^52
    qinv: u64,
    /// 2^(52 N - 8 NUM_BYTES) = R' / R: limbs (Montgomery for R') read as
    /// `F`'s Montgomery words (for R) hold their element times this.
    shift: F,
    /// R / R': the way from such an element back to the limbs' own.
    shift_inv: F,
    /// 2^(52 (N - 2)) / q, for the quotient estimate from the top two limbs.
    inv_q_top: f64,
}

impl<F: PrimeField, const N: usize> Field52<F, N> {
    /// `None` unless this limb count takes F ([`fits`]).
    pub fn new() -> Option<Self> {
        if !fits::<F>(N) {
            return None;
        }
        let mut q64 = bytes_to_words(&(-F::ONE).to_bytes_le());
        q64[0] += 1; // q - 1 is even: no carry
        let q = words_to_limbs(&q64, 52, false);
        // Newton's iteration for q^-1 mod 2^64, then negate mod 2^52.
        let mut inv = 1u64;
        for _ in 0..7 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(q64[0].wrapping_mul(inv)));
        }
        let qinv = inv.wrapping_neg() & MASK;
        let q_float: f64 = q64.iter().enumerate().map(|(i, &w)| w as f64 * 2f64.powi(64 * i as i32)).sum();
        let inv_q_top = 2f64.powi(52 * (N as i32 - 2)) / q_float;
        let mut shift = F::ONE;
        for _ in 0..52 * N - 8 * F::NUM_BYTES {
            shift = shift.double();
        }
        let shift_inv = shift.inverse()?;
        Some(Self { q, q64, qinv, shift, shift_inv, inv_q_top })
    }

    /// x as limbs of x * R' mod q (canonical): the Montgomery words of
    /// x * R' / R, one product.
    pub fn to_limbs52(&self, x: &F) -> Limbs52 {
        self.raw_to_limbs52(&(*x * self.shift))
    }

    /// The Montgomery form these limbs hold (any value below 2^(8 NUM_BYTES)),
    /// reduced below q, as words: equal exactly when the elements are.
    pub fn canonical_words(&self, l: &Limbs52) -> [u64; 7] {
        let mut w = limbs_to_words(&l.0, 52, true);
        while geq(&w, &self.q64) {
            sub_in_place(&mut w, &self.q64);
        }
        w
    }

    /// The element whose Montgomery form these limbs hold (any value below
    /// 2^(8 NUM_BYTES)). The limbs read as `F`'s Montgomery words are the
    /// element times R' / R ([`Self::raw_from_limbs52`]): one product by R / R'.
    pub fn from_limbs52(&self, l: &Limbs52) -> F {
        self.raw_from_limbs52(l) * self.shift_inv
    }

    /// The element whose `F` Montgomery words are the value these limbs hold
    /// (any value below 2^(8 NUM_BYTES)), reduced: the limbs' element times
    /// R' / R, without a multiplication (the batch inversion's way out of
    /// the lanes).
    pub fn raw_from_limbs52(&self, l: &Limbs52) -> F {
        F::from_montgomery_words(&self.canonical_words(l)).expect("reduced below q")
    }

    /// Limbs holding the value of `F`'s Montgomery words of x (canonical):
    /// the limbs of x R / R', without a multiplication (the way back in).
    pub fn raw_to_limbs52(&self, x: &F) -> Limbs52 {
        let mut w = [0u64; 7];
        x.write_montgomery_words(&mut w);
        Limbs52(words_to_limbs(&w, 52, false))
    }

    /// (R' / R)^2: for u = [`Self::raw_from_limbs52`] of a, the limbs of
    /// `raw_to_limbs52(u^-1 * this)` are those of a^-1.
    pub fn raw_inverse_factor(&self) -> F {
        self.shift.square()
    }

    /// q - y for canonical y, in limbs (the negation of a prepared coordinate).
    pub fn neg_limbs52(&self, y: &Limbs52) -> Limbs52 {
        let mut w = self.q64;
        sub_in_place(&mut w, &limbs_to_words(&y.0, 52, true));
        Limbs52(words_to_limbs(&w, 52, false))
    }

    /// Broadcast vector constants.
    ///
    /// # Safety
    ///
    /// Only where `S::available()`, inside `S::run`.
    #[inline(always)]
    pub unsafe fn vconsts<S: Ifma>(&self) -> VConsts<S, N> {
        let splat = |m: u64| -> [S::V; N] {
            let mut w = self.q64;
            // m * q in words, m small
            let mut carry = 0u128;
            for x in w.iter_mut() {
                let t = (*x as u128) * (m as u128) + carry;
                *x = t as u64;
                carry = t >> 64;
            }
            let l = words_to_limbs(&w, 52, false);
            let mut out = [S::zero(); N];
            for j in 0..N {
                out[j] = S::splat(l[j]);
            }
            out
        };
        VConsts {
            q: splat(1),
            q4: splat(4),
            q8: splat(8),
            qinv: S::splat(self.qinv),
            mask: S::splat(MASK),
            inv_q_top: S::splat_d(self.inv_q_top),
            two52: S::splat_d(2f64.powi(52)),
            one_d: S::splat_d(1.0),
            two: S::splat(2),
        }
    }
}

/// Vector constants, built once per engine.
pub struct VConsts<S: Ifma, const N: usize = LIMBS> {
    q: [S::V; N],
    /// 4q in every lane, for subtractions that keep results non-negative.
    pub q4: [S::V; N],
    /// 8q in every lane.
    pub q8: [S::V; N],
    qinv: S::V,
    mask: S::V,
    inv_q_top: S::D,
    two52: S::D,
    one_d: S::D,
    two: S::V,
}

impl<S: Ifma, const N: usize> Clone for VConsts<S, N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Ifma, const N: usize> Copy for VConsts<S, N> {}

/// Columns of a product before reduction: 2N used (N at most 8).
type Columns<S> = [<S as Ifma>::V; 2 * LIMBS];

impl<S: Ifma, const N: usize> VConsts<S, N> {
    /// Carry-propagate limbs that may be negative or above 2^52.
    #[inline(always)]
    unsafe fn normalize(&self, mut t: [S::V; N]) -> Fe8<S, N> {
        for j in 0..N - 1 {
            let c = S::srai52(t[j]);
            t[j] = S::and(t[j], self.mask);
            t[j + 1] = S::add(t[j + 1], c);
        }
        Fe8(t)
    }

    /// The top N columns: the reduced value, not carried.
    #[inline(always)]
    unsafe fn top(t: &Columns<S>) -> Uncarried8<S, N> {
        let mut out = [S::zero(); N];
        out.copy_from_slice(&t[N..2 * N]);
        Uncarried8(out)
    }

    /// Row I of [`Self::mul`]'s products: a_j b_I into columns I + j (low
    /// half) and I + j + 1 (high half). Nothing for I >= N.
    #[inline(always)]
    unsafe fn mul_row<const I: usize>(t: &mut Columns<S>, a: &Fe8<S, N>, b: &Fe8<S, N>) {
        if I >= N {
            return;
        }
        for j in 0..N {
            t[I + j] = S::madd52lo(t[I + j], a.0[j], b.0[I]);
            t[I + j + 1] = S::madd52hi(t[I + j + 1], a.0[j], b.0[I]);
        }
    }

    /// a * b / 2^(52 N) mod q, for a below A q and b below B q with A B <= 64
    /// (normalized limbs); the result is below a b / 2^(52 N) + q < 2q. The
    /// N^2 products go into 2N columns, then N reduction rounds (separated
    /// operand scanning: 2 N^2 vpmadd52 of products, 2N a reduction round
    /// with its quotient digit, see `reduce_round`: 4 N^2 in all, 256 at
    /// N = 8, 100 at N = 5).
    /// Rows and rounds are separate calls with constant column indices, not
    /// loops: the earlier interleaved form (CIOS: a round of products, its
    /// reduction, a shift of t by one limb), written as a loop, kept t in
    /// memory and ran at 2.3 times the cost of this form on Zen 5.
    ///
    /// Column bounds (u64; limbs below 2^52, so every half product below
    /// 2^52): column k gets at most N low halves (i + j = k) and N high
    /// halves (i + j = k - 1), below 2^56; the reduction adds at most N low
    /// and N high halves of m_i q_j (below 2^56) and a carry below 2^6:
    /// every column stays below 2^58. The value is (a b + M q) / 2^(52 N)
    /// with M < 2^(52 N): below a b / 2^(52 N) + q.
    #[inline(always)]
    pub unsafe fn mul(&self, a: &Fe8<S, N>, b: &Fe8<S, N>) -> Fe8<S, N> {
        let mut t = [S::zero(); 2 * LIMBS];
        Self::mul_row::<0>(&mut t, a, b);
        Self::mul_row::<1>(&mut t, a, b);
        Self::mul_row::<2>(&mut t, a, b);
        Self::mul_row::<3>(&mut t, a, b);
        Self::mul_row::<4>(&mut t, a, b);
        Self::mul_row::<5>(&mut t, a, b);
        Self::mul_row::<6>(&mut t, a, b);
        Self::mul_row::<7>(&mut t, a, b);
        self.reduce_rounds(t)
    }

    /// `(a * b, c * d)`, as [`Self::mul`], the two products' rows and
    /// reduction rounds interleaved in the code: each reduction round is a
    /// short dependency chain (quotient digit, low half, carry: about 10
    /// cycles), so two chains side by side keep the vpmadd52 pipes busy.
    #[inline(always)]
    pub unsafe fn mul2(&self, a: &Fe8<S, N>, b: &Fe8<S, N>, c: &Fe8<S, N>, d: &Fe8<S, N>) -> (Fe8<S, N>, Fe8<S, N>) {
        let (x, y) = self.mul2_uncarried(a, b, c, d);
        (self.carry(x), self.carry(y))
    }

    /// [`Self::mul2`] without the final carry passes.
    #[inline(always)]
    pub unsafe fn mul2_uncarried(
        &self,
        a: &Fe8<S, N>,
        b: &Fe8<S, N>,
        c: &Fe8<S, N>,
        d: &Fe8<S, N>,
    ) -> (Uncarried8<S, N>, Uncarried8<S, N>) {
        let mut t = [S::zero(); 2 * LIMBS];
        let mut u = [S::zero(); 2 * LIMBS];
        Self::mul_row::<0>(&mut t, a, b);
        Self::mul_row::<0>(&mut u, c, d);
        Self::mul_row::<1>(&mut t, a, b);
        Self::mul_row::<1>(&mut u, c, d);
        Self::mul_row::<2>(&mut t, a, b);
        Self::mul_row::<2>(&mut u, c, d);
        Self::mul_row::<3>(&mut t, a, b);
        Self::mul_row::<3>(&mut u, c, d);
        Self::mul_row::<4>(&mut t, a, b);
        Self::mul_row::<4>(&mut u, c, d);
        Self::mul_row::<5>(&mut t, a, b);
        Self::mul_row::<5>(&mut u, c, d);
        Self::mul_row::<6>(&mut t, a, b);
        Self::mul_row::<6>(&mut u, c, d);
        Self::mul_row::<7>(&mut t, a, b);
        Self::mul_row::<7>(&mut u, c, d);
        self.reduce_rounds2(t, u)
    }

    /// `(a * a, b * b)`, as [`Self::square`], interleaved as [`Self::mul2`].
    #[inline(always)]
    pub unsafe fn square2(&self, a: &Fe8<S, N>, b: &Fe8<S, N>) -> (Fe8<S, N>, Fe8<S, N>) {
        let (x, y) = self.square2_uncarried(a, b);
        (self.carry(x), self.carry(y))
    }

    /// [`Self::square2`] without the final carry passes.
    #[inline(always)]
    pub unsafe fn square2_uncarried(&self, a: &Fe8<S, N>, b: &Fe8<S, N>) -> (Uncarried8<S, N>, Uncarried8<S, N>) {
        self.reduce_rounds2(Self::square_columns(a), Self::square_columns(b))
    }

    /// A product's carry pass: normalized limbs.
    #[inline(always)]
    unsafe fn carry(&self, p: Uncarried8<S, N>) -> Fe8<S, N> {
        self.normalize(p.0)
    }

    /// [`Self::reduce_rounds`] of two column sets, round by round.
    #[inline(always)]
    unsafe fn reduce_rounds2(&self, mut t: Columns<S>, mut u: Columns<S>) -> (Uncarried8<S, N>, Uncarried8<S, N>) {
        self.reduce_round::<0>(&mut t);
        self.reduce_round::<0>(&mut u);
        self.reduce_round::<1>(&mut t);
        self.reduce_round::<1>(&mut u);
        self.reduce_round::<2>(&mut t);
        self.reduce_round::<2>(&mut u);
        self.reduce_round::<3>(&mut t);
        self.reduce_round::<3>(&mut u);
        self.reduce_round::<4>(&mut t);
        self.reduce_round::<4>(&mut u);
        self.reduce_round::<5>(&mut t);
        self.reduce_round::<5>(&mut u);
        self.reduce_round::<6>(&mut t);
        self.reduce_round::<6>(&mut u);
        self.reduce_round::<7>(&mut t);
        self.reduce_round::<7>(&mut u);
        (Self::top(&t), Self::top(&u))
    }

    /// Row I of the square's off-diagonal products: a_I a_j for j > I, into
    /// columns I + j (low half) and I + j + 1 (high half).
    #[inline(always)]
    unsafe fn square_row<const I: usize>(t: &mut Columns<S>, a: &Fe8<S, N>) {
        for j in I + 1..N {
            t[I + j] = S::madd52lo(t[I + j], a.0[I], a.0[j]);
            t[I + j + 1] = S::madd52hi(t[I + j + 1], a.0[I], a.0[j]);
        }
    }

    /// Montgomery reduction round I of [`Self::mul`] and [`Self::square`]: m from column I,
    /// t += m q 2^(52 I), column I's carry into column I + 1. Nothing for I >= N.
    ///
    /// Column I itself is not updated: t_I + lo(m q_0) is a multiple of 2^52
    /// (that is what m is for), and lo(m q_0) is 0 where t_I mod 2^52 is 0
    /// and 2^52 - (t_I mod 2^52) otherwise, so its carry into column I + 1
    /// is ceil(t_I / 2^52) = (t_I + 2^52 - 1) >> 52 (t_I below 2^58: no
    /// overflow), the same value as before, taken from t_I alone: one
    /// vpmadd52 less per round and the carry off the quotient's chain.
    #[inline(always)]
    unsafe fn reduce_round<const I: usize>(&self, t: &mut Columns<S>) {
        if I >= N {
            return;
        }
        let m = S::madd52lo(S::zero(), t[I], self.qinv);
        let carry = S::srli52(S::add(t[I], self.mask));
        // column I + 1, which the next quotient waits on: its two halves
        // in turn (8 cycles from m). Taken side by side and added, 4 cycles
        // but one vector add more a round; on Intel, whose vector adds share
        // the two IFMA ports, the add costs more than the latency saves
        // (see docs/BENCHMARKS.md)
        t[I + 1] = S::madd52lo(S::madd52hi(S::add(t[I + 1], carry), self.q[0], m), self.q[1], m);
        t[I + 2] = S::madd52hi(t[I + 2], self.q[1], m);
        for j in 2..N {
            t[I + j] = S::madd52lo(t[I + j], self.q[j], m);
            t[I + j + 1] = S::madd52hi(t[I + j + 1], self.q[j], m);
        }
    }

    /// `a * a / 2^(52 N) mod q`, as [`Self::mul`] (same bounds), with
    /// N (N - 1) + 2N instead of 2 N^2 product vpmadd52 (200 in all at N = 8,
    /// 80 at N = 5): the products a_i a_j (i < j) are taken once and the
    /// columns doubled, then the squares a_i^2, then the N reduction rounds
    /// on the 2N columns (separated operand scanning).
    ///
    /// Column bounds (u64, every limb of a below 2^52, so every half product
    /// below 2^52): column k gets at most N/2 low halves (i + j = k) and N/2
    /// high halves (i + j = k - 1) of the off-diagonal products, below 2^55,
    /// doubled below 2^56, plus at most 2 halves of a square: below 2^57.
    /// The reduction adds at most N low and N high halves of m_i q_j (below
    /// 2^56) and a carry below 2^6: every column stays below 2^58. The value
    /// is (a^2 + M q) / 2^(52 N) with M < 2^(52 N), the same bound as the product's.
    #[inline(always)]
    pub unsafe fn square(&self, a: &Fe8<S, N>) -> Fe8<S, N> {
        self.reduce_rounds(Self::square_columns(a))
    }

    /// The 2N columns of a^2 (see [`Self::square`]).
    #[inline(always)]
    unsafe fn square_columns(a: &Fe8<S, N>) -> Columns<S> {
        let mut t = [S::zero(); 2 * LIMBS];
        Self::square_row::<0>(&mut t, a);
        Self::square_row::<1>(&mut t, a);
        Self::square_row::<2>(&mut t, a);
        Self::square_row::<3>(&mut t, a);
        Self::square_row::<4>(&mut t, a);
        Self::square_row::<5>(&mut t, a);
        Self::square_row::<6>(&mut t, a);
        // off-diagonal columns: 1 (a_0 a_1, low) to 2N - 2 (a_(N-2) a_(N-1), high)
        for k in 1..2 * N - 1 {
            t[k] = S::add(t[k], t[k]);
        }
        for i in 0..N {
            t[2 * i] = S::madd52lo(t[2 * i], a.0[i], a.0[i]);
            t[2 * i + 1] = S::madd52hi(t[2 * i + 1], a.0[i], a.0[i]);
        }
        t
    }

    /// The N Montgomery reduction rounds on 2N columns (each below 2^57,
    /// see [`Self::mul`]), then the top N columns normalized.
    #[inline(always)]
    unsafe fn reduce_rounds(&self, mut t: Columns<S>) -> Fe8<S, N> {
        self.reduce_round::<0>(&mut t);
        self.reduce_round::<1>(&mut t);
        self.reduce_round::<2>(&mut t);
        self.reduce_round::<3>(&mut t);
        self.reduce_round::<4>(&mut t);
        self.reduce_round::<5>(&mut t);
        self.reduce_round::<6>(&mut t);
        self.reduce_round::<7>(&mut t);
        self.carry(Self::top(&t))
    }

    /// a + k - b, with k a multiple of q above b (keeps the result positive).
    #[inline(always)]
    pub unsafe fn sub(&self, a: &Fe8<S, N>, b: &Fe8<S, N>, k: &[S::V; N]) -> Fe8<S, N> {
        self.normalize(Self::sub_limbs(&a.0, b, k))
    }

    /// a + k - b - c.
    #[inline(always)]
    pub unsafe fn sub2(&self, a: &Fe8<S, N>, b: &Fe8<S, N>, c: &Fe8<S, N>, k: &[S::V; N]) -> Fe8<S, N> {
        self.normalize(Self::sub2_limbs(&a.0, b, c, k))
    }

    /// a + k - b for a product a not yet carried, brought below 3q as
    /// [`Self::reduce`] does: the limbs of the difference, each in
    /// (-2^52, 2^59), go to the estimate and the subtraction as they are,
    /// and one carry pass at the end does for the product, the difference
    /// and the reduction (at N = 8: 42 vector instructions and two 14-cycle
    /// carry chains fewer than a carried product, a carried difference and
    /// [`Self::reduce`]).
    #[inline(always)]
    pub unsafe fn sub_reduce(&self, a: &Uncarried8<S, N>, b: &Fe8<S, N>, k: &[S::V; N]) -> Fe8<S, N> {
        self.reduce_limbs(Self::sub_limbs(&a.0, b, k))
    }

    /// a + k - b - c for a product a not yet carried, reduced as
    /// [`Self::sub_reduce`] (limbs in (-2^53, 2^59)).
    #[inline(always)]
    pub unsafe fn sub2_reduce(&self, a: &Uncarried8<S, N>, b: &Fe8<S, N>, c: &Fe8<S, N>, k: &[S::V; N]) -> Fe8<S, N> {
        self.reduce_limbs(Self::sub2_limbs(&a.0, b, c, k))
    }

    /// The limbs of a + k - b, not carried.
    #[inline(always)]
    unsafe fn sub_limbs(a: &[S::V; N], b: &Fe8<S, N>, k: &[S::V; N]) -> [S::V; N] {
        let mut t = *a;
        for j in 0..N {
            t[j] = S::sub(S::add(t[j], k[j]), b.0[j]);
        }
        t
    }

    /// The limbs of a + k - b - c, not carried.
    #[inline(always)]
    unsafe fn sub2_limbs(a: &[S::V; N], b: &Fe8<S, N>, c: &Fe8<S, N>, k: &[S::V; N]) -> [S::V; N] {
        let mut t = *a;
        for j in 0..N {
            t[j] = S::sub(S::sub(S::add(t[j], k[j]), b.0[j]), c.0[j]);
        }
        t
    }

    /// Lanes selected by `m` become q - a (a canonical: the result is in (0, q]).
    #[inline(always)]
    pub unsafe fn neg_where(&self, a: &Fe8<S, N>, m: u8) -> Fe8<S, N> {
        let mut t = a.0;
        for j in 0..N {
            t[j] = S::mask_sub(a.0[j], m, self.q[j], a.0[j]);
        }
        self.normalize(t)
    }

    /// A value below 16q brought below about 2q (3q at worst): subtract k q
    /// with k one less than a floating-point estimate of the quotient (never
    /// too large).
    #[inline(always)]
    pub unsafe fn reduce(&self, a: &Fe8<S, N>) -> Fe8<S, N> {
        self.reduce_limbs(a.0)
    }

    /// [`Self::reduce`] of a value in [0, 16q) given as signed limbs: each
    /// of magnitude below 2^59 (normalized limbs, uncarried products and
    /// their differences are such limbs), the top one below 2^52.
    ///
    /// The estimate reads the top two limbs as signed doubles: hi = t_(N-1)
    /// 2^52 + t_(N-2), the value / 2^(52 (N - 2)) up to the lower limbs,
    /// which add less than 2^(52 (N - 2) + 8) either way, and up to the
    /// rounding of t_(N-2) to a double (below 2^5 units of 2^(52 (N - 2));
    /// t_(N-1) is exact): in all at most 2^(52 (N - 2) + 9) / q of a
    /// quotient unit (below 2^-55 at N = 8, 2^-88 at N = 5 for the curves
    /// here, 2^-6 for any field [`fits`] takes), which with the double's
    /// rounding the one subtracted covers.
    /// So k = max(floor(est), 1) - 1 is at most the true quotient and at
    /// least two below it: the result is in [0, 3q). The limbs minus k q_j
    /// (k q_j below 2^56) stay far inside 64 bits, and the final carry
    /// pass, with arithmetic shifts, carries negative limbs as it does
    /// positive ones.
    #[inline(always)]
    unsafe fn reduce_limbs(&self, mut t: [S::V; N]) -> Fe8<S, N> {
        let hi = S::fmadd_d(S::i_to_d(t[N - 1]), self.two52, S::i_to_d(t[N - 2]));
        // est + 1, positive: the estimate itself may fall below zero by
        // the lower limbs' share when the value is near 0, and a negative
        // double has no unsigned integer (the instruction returns 2^64 - 1,
        // the emulation 0: either would still give a value below 3q, by
        // wrapping or not, but not the same limbs)
        let est1 = S::fmadd_d(hi, self.inv_q_top, self.one_d);
        let k1 = S::d_to_u(S::floor_d(est1));
        let k = S::sub(S::max_u(k1, self.two), self.two);
        for j in 0..N {
            t[j] = S::sub(t[j], S::mullo(k, self.q[j]));
        }
        self.normalize(t)
    }
}

/// Eight elements loaded from `ptrs` (lane k from the 64 bytes at `ptrs[k]`):
/// eight 64-byte loads and a transpose (8 loads where gathers took 8N: one
/// per limb and lane); the first N rows of the transpose are the limbs.
///
/// # Safety
///
/// Only where `S::available()`, inside `S::run`; every pointer valid for
/// reading 64 bytes.
#[inline(always)]
pub unsafe fn load_rows<S: Ifma, const N: usize>(ptrs: [*const u64; 8]) -> Fe8<S, N> {
    let t = S::transpose([
        S::load(ptrs[0]),
        S::load(ptrs[1]),
        S::load(ptrs[2]),
        S::load(ptrs[3]),
        S::load(ptrs[4]),
        S::load(ptrs[5]),
        S::load(ptrs[6]),
        S::load(ptrs[7]),
    ]);
    let mut out = [S::zero(); N];
    out.copy_from_slice(&t[..N]);
    Fe8(out)
}

/// Eight elements written to `ptrs` (lane k to the 64 bytes at `ptrs[k]`):
/// a transpose and eight 64-byte stores; limbs N..8 written zero.
///
/// # Safety
///
/// Only where `S::available()`, inside `S::run`; the pointers valid for
/// writing 64 bytes, the ranges pairwise disjoint and not behind any live
/// reference.
#[inline(always)]
pub unsafe fn store_rows<S: Ifma, const N: usize>(ptrs: [*mut u64; 8], v: &Fe8<S, N>) {
    let mut limbs = [S::zero(); LIMBS];
    limbs[..N].copy_from_slice(&v.0);
    let rows = S::transpose(limbs);
    for (p, r) in ptrs.iter().zip(rows) {
        S::store(*p, r);
    }
}

/// Lane k of an 8-lane value, as scalar limbs.
///
/// # Safety
///
/// Only where `S::available()`.
#[inline(always)]
pub unsafe fn lane<S: Ifma, const N: usize>(v: &Fe8<S, N>, k: usize) -> Limbs52 {
    let mut out = [0u64; LIMBS];
    for j in 0..N {
        out[j] = S::to_array(v.0[j])[k];
    }
    Limbs52(out)
}

/// Eight scalar values as one 8-lane value (limbs N..8 of each ignored).
///
/// # Safety
///
/// Only where `S::available()`.
#[inline(always)]
pub unsafe fn from_lanes<S: Ifma, const N: usize>(x: &[Limbs52]) -> Fe8<S, N> {
    let mut out = [S::zero(); N];
    for (j, o) in out.iter_mut().enumerate() {
        let mut l = [0u64; 8];
        for (k, e) in x.iter().take(8).enumerate() {
            l[k] = e.0[j];
        }
        *o = S::from_array(l);
    }
    Fe8(out)
}

/// Whether this CPU has AVX-512 F, DQ and IFMA.
pub fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512ifma")
        && std::arch::is_x86_feature_detected!("avx512dq")
}

#[cfg(test)]
mod tests {
    use super::super::ops::{Avx512, Avx512Ymm, Emulated};
    use super::*;

    /// m q as 7 words.
    fn q_times(q64: &[u64; 7], m: u64) -> [u64; 7] {
        let mut w = *q64;
        let mut c = 0u128;
        for x in w.iter_mut() {
            let t = (*x as u128) * (m as u128) + c;
            *x = t as u64;
            c = t >> 64;
        }
        w
    }

    /// a + b as 7 words (no overflow for the values the tests use).
    fn add_words(a: &[u64; 7], b: &[u64; 7]) -> [u64; 7] {
        let mut w = [0u64; 7];
        let mut c = 0u128;
        for i in 0..7 {
            let t = a[i] as u128 + b[i] as u128 + c;
            w[i] = t as u64;
            c = t >> 64;
        }
        w
    }
    use rand::SeedableRng;
    use zkmsm_field::{Bls12_377Fq, Bls12_381Fq, Bn254Fq};

    fn check<F: PrimeField, S: Ifma, const N: usize>() {
        if !S::available() {
            eprintln!("{} not available here: skipped", S::NAME);
            return;
        }
        let f = Field52::<F, N>::new().unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut special = vec![F::ZERO, F::ONE, -F::ONE, -F::ONE.double(), F::from_u64(2)];
        special.extend((0..1000).map(|_| F::random(&mut rng)));
        for chunk in special.chunks(8).filter(|c| c.len() == 8) {
            let a: [F; 8] = chunk.try_into().unwrap();
            let b: [F; 8] = core::array::from_fn(|k| a[(k + 3) % 8] + F::from_u64(k as u64));
            // SAFETY: `available()` checked the features.
            unsafe {
                let va: Fe8<S, N> = from_lanes(&a.map(|x| f.to_limbs52(&x)));
                let vb: Fe8<S, N> = from_lanes(&b.map(|x| f.to_limbs52(&x)));
                let k = f.vconsts::<S>();
                let prod = k.mul(&va, &vb);
                let diff = k.sub(&va, &vb, &k.q4);
                let d2 = k.sub2(&va, &vb, &vb, &k.q8);
                let sq = k.square(&prod);
                let neg = k.neg_where(&va, 0b1010_1010);
                let (prod2, prod3) = k.mul2(&va, &vb, &vb, &vb);
                let (sq2, sq3) = k.square2(&prod, &va);
                // the products a fused reduction takes, not carried
                let (pu, pu3) = k.mul2_uncarried(&va, &vb, &vb, &vb);
                let (su, su3) = k.square2_uncarried(&prod, &va);
                let diff_r = k.sub_reduce(&pu, &vb, &k.q4);
                let d2_r = k.sub2_reduce(&su, &vb, &vb, &k.q8);
                let diff3_r = k.sub_reduce(&pu3, &va, &k.q4);
                let d3_r = k.sub2_reduce(&su3, &vb, &va, &k.q8);
                // stress the lazy bounds: a value near 15q, reduced
                let big = k.sub2(&k.sub2(&va, &vb, &vb, &k.q8), &vb, &vb, &k.q4);
                let red = k.reduce(&big);
                for i in 0..8 {
                    let back = |v: &Fe8<S, N>| f.from_limbs52(&lane(v, i));
                    assert_eq!(back(&prod), a[i] * b[i]);
                    assert_eq!(back(&diff), a[i] - b[i]);
                    assert_eq!(back(&d2), a[i] - b[i] - b[i]);
                    assert_eq!(back(&sq), (a[i] * b[i]).square());
                    let want_neg = if i % 2 == 1 { -a[i] } else { a[i] };
                    assert_eq!(back(&neg), want_neg);
                    let r = back(&red);
                    assert_eq!(r, a[i] - b[i].double().double());
                    assert_eq!(back(&prod2), a[i] * b[i]);
                    assert_eq!(back(&prod3), b[i] * b[i]);
                    assert_eq!(back(&sq2), (a[i] * b[i]).square());
                    assert_eq!(back(&sq3), a[i].square());
                    assert_eq!(back(&diff_r), a[i] * b[i] - b[i]);
                    assert_eq!(back(&d2_r), (a[i] * b[i]).square() - b[i] - b[i]);
                    assert_eq!(back(&diff3_r), b[i] * b[i] - a[i]);
                    assert_eq!(back(&d3_r), a[i].square() - b[i] - a[i]);
                    for v in [&diff_r, &d2_r, &diff3_r, &d3_r] {
                        let w = limbs_to_words(&lane(v, i).0, 52, true);
                        assert!(!geq(&w, &q_times(&f.q64, 3)), "a fused reduce left a value above 3q");
                    }
                    // reduced below 3q: fits the sub constants' margins
                    let w = limbs_to_words(&lane(&red, i).0, 52, true);
                    assert!(!geq(&w, &q_times(&f.q64, 3)), "reduce left a value above 3q");
                }
            }
        }
        // round trip, canonical
        for x in special.iter().take(50) {
            assert_eq!(f.from_limbs52(&f.to_limbs52(x)), *x);
            let n = f.neg_limbs52(&f.to_limbs52(x));
            assert_eq!(f.from_limbs52(&n), -*x);
        }
    }

    /// The multiplication-free conversions of the batch inversion against
    /// the exact ones: canonical limbs, the same values plus q and plus 2q
    /// (products are reduced below 2q, not q), zero, one and q - 1; and the
    /// inversion's identity (the limbs of a^-1, canonical).
    fn scaled_conversions<F: PrimeField, const N: usize>() {
        let f = Field52::<F, N>::new().unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(19);
        let bits = 52 * N;
        let mut shift = F::ONE;
        for _ in 0..bits - 8 * F::NUM_BYTES {
            shift = shift.double();
        }
        let values: Vec<F> = [F::ZERO, F::ONE, -F::ONE, F::from_u64(2)]
            .into_iter()
            .chain((0..300).map(|_| F::random(&mut rng)))
            .collect();
        // the definition, independently of the one-product conversions: the
        // limbs of the integer x 2^(52 N) mod q
        let mut r = F::ONE;
        for _ in 0..bits {
            r = r.double();
        }
        let mut cases: Vec<Limbs52> = Vec::new();
        for x in &values {
            let canonical = f.to_limbs52(x);
            assert_eq!(canonical.0, words_to_limbs(&bytes_to_words(&(*x * r).to_bytes_le()), 52, false), "x 2^(52 N)");
            cases.push(canonical);
            for m in [1, 2] {
                let w = add_words(&limbs_to_words(&canonical.0, 52, true), &q_times(&f.q64, m));
                cases.push(Limbs52(words_to_limbs(&w, 52, false)));
            }
        }
        for (k, l) in cases.iter().enumerate() {
            let x = f.from_limbs52(l);
            assert_eq!(x, values[k / 3], "the element back from canonical, + q and + 2q limbs");
            let u = f.raw_from_limbs52(l);
            assert_eq!(u, x * shift, "scaled value");
            assert_eq!(f.raw_to_limbs52(&u), f.to_limbs52(&x), "back to canonical limbs");
            if !x.is_zero() {
                let inv = f.raw_to_limbs52(&(u.inverse().unwrap() * f.raw_inverse_factor()));
                assert_eq!(f.from_limbs52(&inv), x.inverse().unwrap(), "inverse through the scaled values");
                assert_eq!(inv, f.to_limbs52(&x.inverse().unwrap()), "canonical inverse limbs");
            }
        }
    }

    #[test]
    fn scaled_conversions_match_exact() {
        scaled_conversions::<Bls12_377Fq, 8>();
        scaled_conversions::<Bls12_381Fq, 8>();
        scaled_conversions::<Bn254Fq, 5>();
    }

    /// Which limb counts take which field: the margin of the lazy reduction
    /// (q < 2^(52 N - 6)) and the quotient estimate's (q at least
    /// 2^(52 (N - 2) + 15)) decide.
    #[test]
    fn limb_counts_that_fit() {
        assert!(fits::<Bls12_381Fq>(8) && fits::<Bls12_377Fq>(8) && fits::<Bn254Fq>(5));
        assert!(!fits::<Bls12_381Fq>(7), "381 + 6 bits > 364");
        assert!(!fits::<Bn254Fq>(4), "254 + 6 bits > 208");
        assert!(fits::<Bn254Fq>(6) && !fits::<Bn254Fq>(8), "254 bits <= 52 x 6 + 15");
        assert!(Field52::<Bn254Fq, 4>::new().is_none() && Field52::<Bn254Fq, 8>::new().is_none());
        // 255- and 256-bit fields (Pallas, secp256k1): too large for five
        // limbs, too small for the estimate of seven or eight
        for bits in [255, 256] {
            assert!((2..=8).filter(|&n| fits_bits(bits, 32, n)).eq([6]), "{bits} bits");
        }
        assert!(!fits_bits(327, 48, 8) && fits_bits(328, 48, 8) && fits_bits(410, 52, 8) && !fits_bits(411, 52, 8));
    }

    /// The smallest fields eight and five limbs take (328 and 172 bits,
    /// random primes): the quotient estimate's bound, where the lower
    /// limbs' share is largest.
    #[derive(Debug)]
    struct F328Config;
    impl zkmsm_field::FpConfig<6> for F328Config {
        const MODULUS: [u64; 6] = zkmsm_field::limbs::from_hex(
            "0xf6a6eb8c9ebd69fe29d76d4330f1446beab0c11fdecb91ce375bc8fbbcbde5c0994164d8399f767ee1",
        );
        const NONRESIDUE: u64 = 3;
        const NAME: &'static str = "f328";
    }
    type F328 = zkmsm_field::Fp<F328Config, 6>;
    #[derive(Debug)]
    struct F172Config;
    impl zkmsm_field::FpConfig<3> for F172Config {
        const MODULUS: [u64; 3] = zkmsm_field::limbs::from_hex("0xe3fec99108ddb5b5fab8f4d3e27dda1494c73cf2705");
        const NONRESIDUE: u64 = 2;
        const NAME: &'static str = "f172";
    }
    type F172 = zkmsm_field::Fp<F172Config, 3>;

    #[test]
    fn the_smallest_fields_of_eight_and_five_limbs() {
        assert_eq!((F328::NUM_BITS, F172::NUM_BITS), (52 * 6 + 16, 52 * 3 + 16));
        assert!(fits::<F328>(8) && fits::<F172>(5) && !fits::<F172>(8));
        check::<F328, Emulated, 8>();
        reduce_signed_limbs::<F328, Emulated, 8>();
        scaled_conversions::<F328, 8>();
        check::<F328, Avx512, 8>();
        reduce_signed_limbs::<F328, Avx512, 8>();
        check::<F172, Emulated, 5>();
        reduce_signed_limbs::<F172, Emulated, 5>();
        scaled_conversions::<F172, 5>();
        check::<F172, Avx512, 5>();
        reduce_signed_limbs::<F172, Avx512, 5>();
    }

    /// The reduction of signed, uncarried limbs (what the fused
    /// subtractions hand it): values a + m q (a random or zero, m in
    /// 0..16) written with random borrows between neighbouring limbs (limb
    /// j + 2^52, limb j + 1 - 1, or the reverse) and random carries left
    /// in place as an uncarried product leaves them (limb j + c 2^52, limb
    /// j + 1 - c, c up to 63: limbs up to 2^58 and more), among them 0 with
    /// its second limb from the top at -1, where the estimate falls below
    /// zero. Each comes back as a below 3q.
    fn reduce_signed_limbs<F: PrimeField, S: Ifma, const N: usize>() {
        if !S::available() {
            eprintln!("{} not available here: skipped", S::NAME);
            return;
        }
        use rand::Rng;
        let f = Field52::<F, N>::new().unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(23);
        let mut cases: Vec<(F, [u64; LIMBS])> = Vec::new();
        let mut zero_borrow = [0u64; LIMBS];
        zero_borrow[N - 3] = 1 << 52;
        zero_borrow[N - 2] = u64::MAX; // -1
        cases.push((F::ZERO, zero_borrow));
        for t in 0..2000u64 {
            let a = if t % 7 == 0 { F::ZERO } else { F::random(&mut rng) };
            let m = t % 16;
            let w = add_words(&limbs_to_words(&f.to_limbs52(&a).0, 52, true), &q_times(&f.q64, m));
            let mut l = words_to_limbs(&w, 52, false);
            for j in 0..N - 1 {
                match rng.gen_range(0..4) {
                    3 => {
                        let c = if t % 5 == 0 { 63 } else { rng.gen_range(1..64) };
                        l[j] = l[j].wrapping_add(c << 52);
                        l[j + 1] = l[j + 1].wrapping_sub(c);
                    }
                    0 => {
                        l[j] = l[j].wrapping_add(1 << 52);
                        l[j + 1] = l[j + 1].wrapping_sub(1);
                    }
                    1 => {
                        l[j] = l[j].wrapping_sub(1 << 52);
                        l[j + 1] = l[j + 1].wrapping_add(1);
                    }
                    _ => {}
                }
            }
            cases.push((a, l));
        }
        for chunk in cases.chunks(8).filter(|c| c.len() == 8) {
            // SAFETY: `available()` checked the features.
            unsafe {
                let k = f.vconsts::<S>();
                let v: Fe8<S, N> = from_lanes(&chunk.iter().map(|c| Limbs52(c.1)).collect::<Vec<_>>());
                let r = k.reduce_limbs(v.0);
                for (i, (a, _)) in chunk.iter().enumerate() {
                    assert_eq!(f.from_limbs52(&lane(&r, i)), *a);
                    let w = limbs_to_words(&lane(&r, i).0, 52, true);
                    assert!(!geq(&w, &q_times(&f.q64, 3)), "reduce left a value above 3q");
                }
            }
        }
    }

    #[test]
    fn reduce_takes_signed_uncarried_limbs() {
        reduce_signed_limbs::<Bls12_377Fq, Emulated, 8>();
        reduce_signed_limbs::<Bls12_381Fq, Emulated, 8>();
        reduce_signed_limbs::<Bn254Fq, Emulated, 5>();
        reduce_signed_limbs::<Bls12_377Fq, Avx512, 8>();
        reduce_signed_limbs::<Bls12_381Fq, Avx512, 8>();
        reduce_signed_limbs::<Bn254Fq, Avx512, 5>();
        reduce_signed_limbs::<Bls12_381Fq, Avx512Ymm, 8>();
    }

    #[test]
    fn vector_arithmetic_matches_scalar() {
        check::<Bls12_377Fq, Emulated, 8>();
        check::<Bls12_381Fq, Emulated, 8>();
        check::<Bn254Fq, Emulated, 5>();
        check::<Bls12_377Fq, Avx512, 8>();
        check::<Bls12_381Fq, Avx512, 8>();
        check::<Bn254Fq, Avx512, 5>();
        check::<Bls12_381Fq, Avx512Ymm, 8>();
        check::<Bn254Fq, Avx512Ymm, 5>();
    }

    /// The dedicated square against the product `mul(a, a)` and the scalar
    /// field, on the edge of an input range below Kq (K = 8, A B = 64, the
    /// promise at every limb count; K = 64 where 12 spare bits allow it, as
    /// on the BLS12 fields): 0, 1, q - 1 and Kq - 1 in raw limbs, the
    /// Montgomery forms of 1 and -1, every limb at its maximum (2^52 - 1)
    /// under the largest top limb that keeps the value below Kq and below
    /// 2^(8 NUM_BYTES), and random limbs under those bounds.
    fn square_matches_product<F: PrimeField, S: Ifma, const N: usize>() {
        if !S::available() {
            eprintln!("{} not available here: skipped", S::NAME);
            return;
        }
        use rand::Rng;
        let f = Field52::<F, N>::new().unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let limbs_of_words = |w: [u64; 7]| Limbs52(words_to_limbs(&w, 52, false));
        let times = |m: u64| q_times(&f.q64, m);
        let k_bound: u64 = if F::NUM_BITS as usize + 12 <= 52 * N { 64 } else { 8 };
        // top limbs: one below Kq's (so the value is below Kq whatever the
        // lower limbs), and 2^(8 NUM_BYTES)'s minus one
        let top_q8 = words_to_limbs(&times(k_bound), 52, false)[N - 1] - 1;
        let top_words = (1u64 << (8 * F::NUM_BYTES - 52 * (N - 1))) - 1;
        let mut q_minus_1 = f.q64;
        q_minus_1[0] -= 1;
        let mut q8_minus_1 = times(k_bound);
        sub_in_place(&mut q8_minus_1, &[1, 0, 0, 0, 0, 0, 0]);
        let with_top = |pattern: [u64; 8], top: u64| {
            let mut l = [0u64; 8];
            l[..N - 1].copy_from_slice(&pattern[..N - 1]);
            l[N - 1] = top;
            Limbs52(l)
        };
        let mut vals = vec![
            Limbs52([0; 8]),
            Limbs52([1, 0, 0, 0, 0, 0, 0, 0]),
            limbs_of_words(q_minus_1),
            limbs_of_words(q8_minus_1),
            f.to_limbs52(&F::ONE),
            f.to_limbs52(&-F::ONE),
            with_top([MASK; 8], top_q8),
            with_top([MASK; 8], top_words.min(top_q8)),
            with_top([MASK, 0, MASK, 0, MASK, 0, MASK, 0], top_q8),
            with_top([0, MASK, 0, MASK, 0, MASK, 0, MASK], top_q8),
        ];
        while vals.len() < 8 * 250 {
            let top = if rng.gen() { top_q8 } else { top_words.min(top_q8) };
            let mut l: [u64; 8] = core::array::from_fn(|j| if j < N { rng.gen::<u64>() & MASK } else { 0 });
            l[N - 1] = rng.gen_range(0..=top);
            if rng.gen_range(0..4) == 0 {
                l[rng.gen_range(0..N - 1)] = MASK;
            }
            vals.push(Limbs52(l));
        }
        // the edge values again in other lanes
        vals.rotate_left(3);
        vals.extend_from_within(vals.len() - 16..);
        vals.truncate(vals.len() / 8 * 8);
        // 4q - 1, normalized: the largest subtrahend of the fused reductions
        let mut q4_minus_1 = times(4);
        sub_in_place(&mut q4_minus_1, &[1, 0, 0, 0, 0, 0, 0]);
        let sub_max: Fe8<S, N> = unsafe { from_lanes(&[limbs_of_words(q4_minus_1); 8]) };
        for chunk in vals.chunks(8) {
            // SAFETY: `available()` checked the features.
            unsafe {
                let k = f.vconsts::<S>();
                let v: Fe8<S, N> = from_lanes(chunk);
                let w: Fe8<S, N> = from_lanes(&core::array::from_fn::<_, 8, _>(|i| chunk[7 - i]));
                let sq = k.square(&v);
                let prod = k.mul(&v, &v);
                // the same products not carried, through the fused
                // reductions with their largest subtrahends, against the
                // carried products through the unfused ones
                let (pu, su) = (k.mul2_uncarried(&v, &w, &v, &v), k.square2_uncarried(&w, &v));
                let fused = [
                    k.sub_reduce(&pu.0, &sub_max, &k.q4),
                    k.sub2_reduce(&pu.1, &sub_max, &sub_max, &k.q8),
                    k.sub_reduce(&su.0, &sub_max, &k.q4),
                    k.sub2_reduce(&su.1, &sub_max, &sub_max, &k.q8),
                ];
                let unfused = [
                    k.reduce(&k.sub(&k.mul(&v, &w), &sub_max, &k.q4)),
                    k.reduce(&k.sub2(&prod, &sub_max, &sub_max, &k.q8)),
                    k.reduce(&k.sub(&k.square(&w), &sub_max, &k.q4)),
                    k.reduce(&k.sub2(&sq, &sub_max, &sub_max, &k.q8)),
                ];
                for (x, y) in fused.iter().zip(&unfused) {
                    for i in 0..8 {
                        let (x, y) = (lane(x, i), lane(y, i));
                        assert!(x.0[..N - 1].iter().all(|&l| l <= MASK), "fused reduction left limbs unnormalized");
                        assert!(!geq(&limbs_to_words(&x.0, 52, true), &times(3)), "fused reduction above 3q");
                        assert_eq!(f.canonical_words(&x), f.canonical_words(&y), "fused vs unfused on {:?}", chunk[i]);
                    }
                }
                for i in 0..8 {
                    let (s, p) = (lane(&sq, i), lane(&prod, i));
                    assert!(s.0.iter().all(|&x| x <= MASK), "square left limbs unnormalized: {s:?}");
                    assert_eq!(f.canonical_words(&s), f.canonical_words(&p), "square vs product of {:?}", chunk[i]);
                    // below q (1 + 2^-22): within 2q
                    assert!(!geq(&limbs_to_words(&s.0, 52, true), &times(2)), "square above 2q");
                    if chunk[i].0[N - 1] <= top_words {
                        let x = f.from_limbs52(&chunk[i]);
                        assert_eq!(f.from_limbs52(&s), x.square());
                    }
                }
            }
        }
    }

    #[test]
    fn square_equals_product_on_edges_and_random() {
        square_matches_product::<Bls12_377Fq, Emulated, 8>();
        square_matches_product::<Bls12_381Fq, Emulated, 8>();
        square_matches_product::<Bn254Fq, Emulated, 5>();
        square_matches_product::<Bls12_377Fq, Avx512, 8>();
        square_matches_product::<Bls12_381Fq, Avx512, 8>();
        square_matches_product::<Bn254Fq, Avx512, 5>();
        square_matches_product::<Bls12_377Fq, Avx512Ymm, 8>();
    }

    /// The emulation against the instructions, 512-bit and 256-bit, on
    /// random and extreme limbs (where the CPU has them).
    #[test]
    fn emulation_matches_the_instructions() {
        emulation_matches::<Avx512>();
        emulation_matches::<Avx512Ymm>();
    }

    fn emulation_matches<S: Ifma>() {
        if !S::available() {
            return;
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        use rand::Rng;
        for _ in 0..2000 {
            let pick = |rng: &mut rand::rngs::StdRng| -> [u64; 8] {
                core::array::from_fn(|_| match rng.gen_range(0..4) {
                    0 => u64::MAX,
                    1 => (1 << 52) - 1,
                    2 => rng.gen::<u64>() >> rng.gen_range(0..64),
                    _ => rng.gen(),
                })
            };
            let (a, b, c) = (pick(&mut rng), pick(&mut rng), pick(&mut rng));
            let m: u8 = rng.gen();
            // SAFETY: available() checked.
            unsafe {
                let (va, vb, vc) = (S::from_array(a), S::from_array(b), S::from_array(c));
                let same = |x: S::V, y: [u64; 8]| S::to_array(x) == y;
                assert!(same(S::madd52lo(va, vb, vc), Emulated::madd52lo(a, b, c)));
                assert!(same(S::madd52hi(va, vb, vc), Emulated::madd52hi(a, b, c)));
                assert!(same(S::srai52(va), Emulated::srai52(a)));
                assert!(same(S::srli52(va), Emulated::srli52(a)));
                assert!(same(S::mask_sub(va, m, vb, vc), Emulated::mask_sub(a, m, b, c)));
                assert!(same(S::mullo(va, vb), Emulated::mullo(a, b)));
                assert!(same(S::max_u(va, vb), Emulated::max_u(a, b)));
                let rows: [[u64; 8]; 8] = core::array::from_fn(|k| [a, b, c][k % 3].map(|x| x ^ k as u64));
                let t = S::transpose(rows.map(|r| S::from_array(r)));
                let e = Emulated::transpose(rows);
                assert!((0..8).all(|j| same(t[j], e[j])));
                assert!((0..8).all(|j| (0..8).all(|k| e[j][k] == rows[k][j])));
                let small = a.map(|x| x >> 12);
                let d = S::i_to_d(S::from_array(small));
                assert!(same(S::d_to_u(S::floor_d(d)), Emulated::d_to_u(Emulated::floor_d(Emulated::i_to_d(small)))));
                // negative limbs, read signed (shifted up to convert back)
                let signed = a.map(|x| ((x >> 10) as i64 - (1 << 53)) as u64);
                let up = |d| S::fmadd_d(d, S::splat_d(1.0), S::splat_d(2f64.powi(60)));
                let up_e = |d| Emulated::fmadd_d(d, [1.0; 8], [2f64.powi(60); 8]);
                let got = S::d_to_u(S::floor_d(up(S::i_to_d(S::from_array(signed)))));
                assert!(same(got, Emulated::d_to_u(Emulated::floor_d(up_e(Emulated::i_to_d(signed))))));
            }
        }
    }
}
