//! Four field elements at once in double-precision FMA, for CPUs without
//! AVX-512 IFMA: a prime field in radix 2^51, L limbs (L = 8, 408 bits, for
//! the 381-bit BLS12 fields; L = 6, 306 bits, for BN254's 254-bit field)
//! with Montgomery constant R = 2^(51 L), over any [`Simd`] (AVX2 + FMA,
//! NEON, plain Rust). In memory an element is always eight limbs, the
//! unused ones zero.
//!
//! A limb product a * b (a, b < 2^51, so a * b < 2^102) is split exactly by
//! two FMAs (Emmart, Zheng and Weems, "Faster modular exponentiation using
//! double precision floating point arithmetic on the GPU", ARITH 2018):
//!
//! - `hi = fma(a, b, 2^103)` lies in [2^103, 2^104), where one unit in the
//!   last place is 2^51: its bit pattern is bits(2^103) + round(a b / 2^51);
//! - `lo = fma(a, b, (2^103 + 3 * 2^51) - hi)` is a b - round(a b / 2^51) 2^51
//!   (in [-2^50, 2^50]) plus 3 * 2^51, exactly, in [2^52, 2^53) where the unit
//!   is 1: its bit pattern is a constant plus that signed low part.
//!
//! Bit patterns are summed as 64-bit integers in column accumulators; the
//! constants they carry are multiples of 2^52, known in advance, and are
//! subtracted once when a column starts (`Consts::columns`), so Montgomery's
//! quotient digit, which only reads a column's low 51 bits, never sees them.
//! Three floating-point operations and two integer additions per limb product.
//!
//! Montgomery's quotient digits are made with 32-bit integer multiplications,
//! and each column's carry past its digit with one exact FMA (no split
//! product m_k q_0): the chain from one column to the next is what bounds a
//! product's latency (one product: 26.7 ns per element against 33.3 with the
//! floating-point digit and the split m_k q_0, AMD Zen 5, `--bench
//! field_lanes`).
//!
//! Reduction is lazy, as in the IFMA arithmetic: a product of inputs below 64q
//! is below q (1 + 2^-14) (the field is taken with at least 26 spare bits: q
//! < 2^(51 L - 26)); differences add a
//! multiple of q to stay positive; [`Consts::reduce`] brings a value below 16q
//! under 2q with a floating-point quotient estimate.
//!
//! # Safety
//!
//! The `unsafe fn`s of [`Consts`] and the lane helpers may only run where
//! `S::available()`, inside `S::run`; that one condition is why they are unsafe.
#![allow(clippy::needless_range_loop)]
#![allow(clippy::missing_safety_doc)]

use super::simd::Simd;
use super::words::{bytes_to_words, geq, limbs_to_words, mul_small, sub_in_place, words_to_limbs};
use zkmsm_field::PrimeField;

/// `for $i in 0..8 { $body }` written out eight times, so that limb indices
/// are constants and the accumulators can live in registers (closures and
/// loops the compiler keeps would be compiled without the vector features).
macro_rules! unroll8 {
    ($i:ident, $body:block) => {{
        unroll8!(@one $i, 0, $body);
        unroll8!(@one $i, 1, $body);
        unroll8!(@one $i, 2, $body);
        unroll8!(@one $i, 3, $body);
        unroll8!(@one $i, 4, $body);
        unroll8!(@one $i, 5, $body);
        unroll8!(@one $i, 6, $body);
        unroll8!(@one $i, 7, $body);
    }};
    (@one $i:ident, $v:expr, $body:block) => {{
        #[allow(unused_variables)]
        let $i: usize = $v;
        $body
    }};
}

/// `for $i in 0..16 { $body }`, written out.
macro_rules! unroll16 {
    ($i:ident, $body:block) => {{
        unroll8!($i, $body);
        unroll8!(@one $i, 8, $body);
        unroll8!(@one $i, 9, $body);
        unroll8!(@one $i, 10, $body);
        unroll8!(@one $i, 11, $body);
        unroll8!(@one $i, 12, $body);
        unroll8!(@one $i, 13, $body);
        unroll8!(@one $i, 14, $body);
        unroll8!(@one $i, 15, $body);
    }};
}

/// Limbs of an element in memory, in radix 2^51 (8 x 51 = 408 bits hold a 384-bit q with room
/// for lazy reduction): the most any field here needs.
pub const LIMBS: usize = 8;
const MASK: u64 = (1 << 51) - 1;
/// bits(2^103), carried by every high part.
const HI_BIAS: u64 = (1023 + 103) << 52;
/// 2^103: the addend that puts a limb product's high part in the unit 2^51.
const C_HI: f64 = f64::from_bits(HI_BIAS);
/// 2^103 + 3 * 2^51 (mantissa 3): hi's addend plus the offset that makes the
/// low part positive.
const C_LO: f64 = f64::from_bits(HI_BIAS + 3);
/// bits(2^52) + 2^51, carried by every low part.
const LO_BIAS: u64 = 0x4338_0000_0000_0000;
/// bits(2^52): OR-ing an integer below 2^52 into it gives 2^52 + that integer.
const EXP52: u64 = 0x4330_0000_0000_0000;
const TWO52: f64 = f64::from_bits(EXP52);
/// Offset that keeps a column positive until its carry leaves (a multiple of 2^51).
const COLUMN_OFFSET: u64 = 1 << 62;

/// One element: limbs of 51 bits, little-endian (L used, the rest zero), the
/// top one holding the rest. Bit 63 of limb 7 is free; the engine uses it
/// as a flag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Limbs51(pub [u64; LIMBS]);

/// Four elements of L limbs, limb-major: `self.0[j]` holds limb j of the four lanes.
pub struct Fe4<S: Simd, const L: usize = LIMBS>(pub [S::I; L]);

impl<S: Simd, const L: usize> Clone for Fe4<S, L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Simd, const L: usize> Copy for Fe4<S, L> {}

/// Scalar-side constants of a field, derived from its canonical encoding.
#[derive(Clone, Debug)]
pub struct Field51<F: PrimeField, const L: usize = LIMBS> {
    /// q in radix-2^51 limbs (zero above L).
    pub q: [u64; LIMBS],
    q64: [u64; 7],
    /// -q^-1 mod 2^51
    qinv: u64,
    /// 2^(51 L - 8 NUM_BYTES) (this radix's Montgomery constant over `F`'s:
    /// 2^24 on BLS12, 2^50 on BN254) and its inverse: limbs are `F`'s
    /// Montgomery words of x times it.
    shift: F,
    shift_inv: F,
    /// One, as limbs.
    one: Limbs51,
}

/// Whether the arithmetic of L limbs takes field F: its lazy reduction
/// needs 26 spare bits (q < 2^(51 L - 26)), q at least 2^(51 (L - 2) + 15)
/// ([`Consts::reduce`] estimates the quotient from the top two limbs: the
/// lower ones must hold under 2^-14 of q, or the estimate stays at zero and
/// values grow unreduced), and R = 2^(51 L) at least F's own Montgomery
/// constant 2^(8 NUM_BYTES) (the conversions scale by their ratio).
pub const fn fits<F: PrimeField>(l: usize) -> bool {
    fits_bits(F::NUM_BITS as usize, F::NUM_BYTES, l)
}

/// [`fits`] for a modulus of `bits` bits stored in `bytes` bytes.
pub const fn fits_bits(bits: usize, bytes: usize, l: usize) -> bool {
    l >= 3 && l <= LIMBS && bits + 26 <= 51 * l && bits > 51 * (l - 2) + 15 && 8 * bytes <= 51 * l
}

impl<F: PrimeField, const L: usize> Field51<F, L> {
    /// `None` unless this limb count takes F ([`fits`]).
    pub fn new() -> Option<Self> {
        if !fits::<F>(L) {
            return None;
        }
        let mut q64 = bytes_to_words(&(-F::ONE).to_bytes_le());
        q64[0] += 1; // q - 1 is even: no carry
        let q = words_to_limbs(&q64, 51, true);
        let mut inv = 1u64;
        for _ in 0..7 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(q64[0].wrapping_mul(inv)));
        }
        let qinv = inv.wrapping_neg() & MASK;
        let mut shift = F::ONE;
        for _ in 0..51 * L - 8 * F::NUM_BYTES {
            shift = shift.double();
        }
        let shift_inv = shift.inverse()?;
        let mut f = Self { q, q64, qinv, shift, shift_inv, one: Limbs51::default() };
        f.one = f.to_limbs(&F::ONE);
        Some(f)
    }

    /// x as limbs of x * 2^(51 L) mod q (canonical).
    pub fn to_limbs(&self, x: &F) -> Limbs51 {
        self.raw_to_limbs(&(*x * self.shift))
    }

    /// Limbs holding the value of `F`'s Montgomery words of x (canonical):
    /// the limbs of x / shift, without a multiplication.
    pub fn raw_to_limbs(&self, x: &F) -> Limbs51 {
        let mut w = [0u64; 7];
        x.write_montgomery_words(&mut w);
        Limbs51(words_to_limbs(&w, 51, true))
    }

    /// The element whose `F` Montgomery words are the value these limbs hold
    /// (any value below 2^400), reduced: the limbs' element times the
    /// shift, without a multiplication.
    pub fn raw_from_limbs(&self, l: &Limbs51) -> F {
        F::from_montgomery_words(&self.canonical_words(l)).expect("reduced below q")
    }

    /// shift^2: the inverse of [`Self::raw_from_limbs`]'s element times this,
    /// through [`Self::raw_to_limbs`], gives the limbs of the inverse.
    pub fn raw_inverse_factor(&self) -> F {
        self.shift.square()
    }

    /// One, as limbs.
    pub fn one_limbs(&self) -> Limbs51 {
        self.one
    }

    /// The Montgomery form these limbs hold (any value below 2^400),
    /// reduced below q, as words: equal exactly when the elements are.
    pub fn canonical_words(&self, l: &Limbs51) -> [u64; 7] {
        let mut w = limbs_to_words(&l.0, 51, false);
        while geq(&w, &self.q64) {
            sub_in_place(&mut w, &self.q64);
        }
        w
    }

    /// The element whose Montgomery form these limbs hold (any value below 2^400).
    pub fn from_limbs(&self, l: &Limbs51) -> F {
        self.raw_from_limbs(l) * self.shift_inv
    }

    /// q - y for canonical y.
    pub fn neg_limbs(&self, y: &Limbs51) -> Limbs51 {
        let mut w = self.q64;
        sub_in_place(&mut w, &limbs_to_words(&y.0, 51, false));
        Limbs51(words_to_limbs(&w, 51, true))
    }

    /// The vector constants.
    ///
    /// # Safety
    ///
    /// Only where `S::available()`.
    #[inline(always)]
    pub unsafe fn consts<S: Simd>(&self) -> Consts<S, L> {
        let first = |l: [u64; LIMBS]| -> [u64; L] { core::array::from_fn(|j| l[j]) };
        let limbs_i = |w: &[u64; 7]| first(words_to_limbs(w, 51, true)).map(|v| S::splat_i(v));
        let q = first(self.q);
        let mut columns = [S::splat_i(0); 2 * LIMBS];
        for (k, col) in columns.iter_mut().enumerate().take(2 * L) {
            let lows = |k: usize| if k < 2 * L - 1 { (k + 1).min(2 * L - 1 - k) as u64 } else { 0 };
            let his = if k == 0 { 0 } else { lows(k - 1) };
            // two families of products (a b and m q) land in every column
            let bias = 2u64.wrapping_mul(lows(k).wrapping_mul(LO_BIAS).wrapping_add(his.wrapping_mul(HI_BIAS)));
            let offset = if k < 2 * L - 1 { COLUMN_OFFSET } else { 0 };
            let carried = if k == 0 { 0 } else { COLUMN_OFFSET >> 51 };
            *col = S::splat_i(offset.wrapping_sub(bias).wrapping_sub(carried));
        }
        // m_k q_0 (k < L) is not added as a split product: the column's
        // carry comes from one exact FMA instead (see `montgomery`), so its
        // low part's bias leaves column k, its high part's column k + 1,
        // which instead gets the bits of 2^52 + 2 + c'
        for k in 0..L {
            columns[k] = S::add_i(columns[k], S::splat_i(LO_BIAS));
            columns[k + 1] = S::add_i(columns[k + 1], S::splat_i(HI_BIAS.wrapping_sub(EXP52 + 2)));
        }
        // squaring computes each cross product once: one bias instead of two
        let mut columns_sq = columns;
        for i in 0..L {
            for j in i + 1..L {
                columns_sq[i + j] = S::add_i(columns_sq[i + j], S::splat_i(LO_BIAS));
                columns_sq[i + j + 1] = S::add_i(columns_sq[i + j + 1], S::splat_i(HI_BIAS));
            }
        }
        let q_float: f64 = self.q64.iter().enumerate().map(|(i, &w)| w as f64 * 2f64.powi(64 * i as i32)).sum();
        Consts {
            qf: q.map(|v| S::splat_f(v as f64)),
            q: q.map(|v| S::splat_i(v)),
            q_lo32: q.map(|v| S::splat_i(v & 0xffff_ffff)),
            q_hi: q.map(|v| S::splat_i(v >> 32)),
            q4: limbs_i(&mul_small(&self.q64, 4)),
            q8: limbs_i(&mul_small(&self.q64, 8)),
            q16: limbs_i(&mul_small(&self.q64, 16)),
            q32: limbs_i(&mul_small(&self.q64, 32)),
            q0_scaled: S::splat_f(self.q[0] as f64 * 2f64.powi(-51)),
            two_bits: S::splat_i(2f64.to_bits()),
            minus_two52: S::splat_f(-TWO52),
            qinv_lo: S::splat_i(self.qinv & 0xffff_ffff),
            qinv_hi: S::splat_i(self.qinv >> 32),
            columns,
            columns_sq,
            mask: S::splat_i(MASK),
            exp52: S::splat_i(EXP52),
            sign13: S::splat_i(1 << 12),
            c_hi: S::splat_f(C_HI),
            c_lo: S::splat_f(C_LO),
            two52: S::splat_f(TWO52),
            two51: S::splat_f(2f64.powi(51)),
            one: S::splat_f(1.0),
            // value / 2^(51 (L - 2)) ~ limb(L-1) 2^51 + limb(L-2)
            q_top_inv: S::splat_f(2f64.powi(51 * (L as i32 - 2)) / q_float),
        }
    }
}

/// Vector constants, built once per engine.
pub struct Consts<S: Simd, const L: usize = LIMBS> {
    qf: [S::F; L],
    q: [S::I; L],
    q_lo32: [S::I; L],
    q_hi: [S::I; L],
    /// 4q in every lane, for subtractions that keep results non-negative.
    pub q4: [S::I; L],
    /// 8q in every lane.
    pub q8: [S::I; L],
    /// 16q and 32q (the extension field's subtractions of small multiples).
    pub q16: [S::I; L],
    /// 32q.
    pub q32: [S::I; L],
    /// q_0 / 2^51 (exact).
    q0_scaled: S::F,
    /// The bits of 2.0: OR-ing x < 2^51 into them gives 2 + x / 2^51.
    two_bits: S::I,
    minus_two52: S::F,
    /// -q^-1 mod 2^51 in two 32-bit halves.
    qinv_lo: S::I,
    qinv_hi: S::I,
    /// Each column's starting value (2L used).
    columns: [S::I; 2 * LIMBS],
    columns_sq: [S::I; 2 * LIMBS],
    mask: S::I,
    exp52: S::I,
    sign13: S::I,
    c_hi: S::F,
    c_lo: S::F,
    two52: S::F,
    two51: S::F,
    one: S::F,
    q_top_inv: S::F,
}

impl<S: Simd, const L: usize> Clone for Consts<S, L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Simd, const L: usize> Copy for Consts<S, L> {}

impl<S: Simd, const L: usize> Consts<S, L> {
    /// An integer below 2^52 as a double.
    #[inline(always)]
    unsafe fn float_of(&self, x: S::I) -> S::F {
        S::sub_f(S::i_as_f(S::or_i(x, self.exp52)), self.two52)
    }

    /// Add the split product a * b to a column (low part) and the next one (high part).
    #[inline(always)]
    unsafe fn mac(&self, cur: &mut S::I, next: &mut S::I, a: S::F, b: &S::F) {
        S::mac(cur, next, a, b, self.c_hi, self.c_lo);
    }

    /// floor(x / 2^51) for x a signed 64-bit value (two's complement), |x| < 2^63.
    #[inline(always)]
    unsafe fn carry_signed(&self, x: S::I) -> S::I {
        S::sub_i(S::xor_i(S::shr51(x), self.sign13), self.sign13)
    }

    /// Carry-propagate limbs that may be negative or above 2^51.
    #[inline(always)]
    unsafe fn normalize(&self, mut t: [S::I; L]) -> Fe4<S, L> {
        unroll8!(j, {
            if j < L - 1 {
                let c = self.carry_signed(t[j]);
                t[j] = S::and_i(t[j], self.mask);
                t[j + 1] = S::add_i(t[j + 1], c);
            }
        });
        Fe4(t)
    }

    /// a * b / 2^(51 L) mod q for inputs below 64q; the result is below q (1 + 2^-14),
    /// its limbs normalized.
    #[inline(always)]
    pub unsafe fn mul(&self, a: &Fe4<S, L>, b: &Fe4<S, L>) -> Fe4<S, L> {
        let [r] = self.montgomery::<1>([&a.0], [&b.0], false);
        r
    }

    /// Two independent products, their instructions interleaved: one
    /// product's column chain leaves the pipes idle part of the time.
    #[inline(always)]
    pub unsafe fn mul2(&self, a: &Fe4<S, L>, b: &Fe4<S, L>, c: &Fe4<S, L>, d: &Fe4<S, L>) -> (Fe4<S, L>, Fe4<S, L>) {
        let [r, s] = self.montgomery::<2>([&a.0, &c.0], [&b.0, &d.0], false);
        (r, s)
    }

    /// a^2, with each cross product computed once (doubled operand).
    #[inline(always)]
    pub unsafe fn square(&self, a: &Fe4<S, L>) -> Fe4<S, L> {
        let [r] = self.montgomery::<1>([&a.0], [&a.0], true);
        r
    }

    /// Two independent squares, interleaved.
    #[inline(always)]
    pub unsafe fn square2(&self, a: &Fe4<S, L>, b: &Fe4<S, L>) -> (Fe4<S, L>, Fe4<S, L>) {
        let [r, s] = self.montgomery::<2>([&a.0, &b.0], [&a.0, &b.0], true);
        (r, s)
    }

    /// N Montgomery multiplications a[n] * b[n] column by column (product
    /// scanning), so that only two column accumulators per product are live:
    /// column k gets the low parts of the products a_i b_j and m_i q_j with
    /// i + j = k and the high parts of those with i + j = k - 1; below column
    /// 8, the quotient digit m_k is then chosen to clear its low 51 bits and
    /// the column carries upward. `square`: a = b, and only the products with
    /// i <= j are made, the others folded in by doubling (2 a_j < 2^52 keeps
    /// a_i (2 a_j) < 2^103: still one unit 2^51).
    #[inline(always)]
    #[allow(unused_assignments)] // the last column's successors
    unsafe fn montgomery<const N: usize>(
        &self,
        a: [&[S::I; L]; N],
        b: [&[S::I; L]; N],
        square: bool,
    ) -> [Fe4<S, L>; N] {
        let zero_f = S::splat_f(0.0);
        let mut af = [[zero_f; L]; N];
        let mut bf = [[zero_f; L]; N];
        for n in 0..N {
            unroll8!(j, {
                if j < L {
                    af[n][j] = self.float_of(a[n][j]);
                    bf[n][j] = if square { self.float_of(S::add_i(b[n][j], b[n][j])) } else { self.float_of(b[n][j]) };
                }
            });
        }
        let cols = if square { &self.columns_sq } else { &self.columns };
        let mut m = [[zero_f; L]; N];
        let mut r = [[S::splat_i(0); L]; N];
        let mut cur = [cols[0]; N];
        let mut next = [cols[1]; N];
        unroll16!(k, {
            if k < 2 * L {
                // the products that do not wait for a quotient digit first, then
                // those with m_i, the most recent last: the column completes soon
                // after m_(k-1) is known
                unroll8!(i, {
                    if i < L && i <= k && k - i < L {
                        let j = k - i;
                        for n in 0..N {
                            if !square || i < j {
                                self.mac(&mut cur[n], &mut next[n], af[n][i], &bf[n][j]);
                            } else if i == j {
                                self.mac(&mut cur[n], &mut next[n], af[n][i], &af[n][i]);
                            }
                        }
                    }
                });
                unroll8!(i, {
                    if i < L && i < k && k - i < L {
                        for n in 0..N {
                            self.mac(&mut cur[n], &mut next[n], m[n][i], &self.qf[k - i]);
                        }
                    }
                });
                for n in 0..N {
                    if k < L {
                        // m_k = x (-q^-1) mod 2^51 for x the column's low 51
                        // bits, in 32-bit pieces (x0 + 2^32 x1 times i0 + 2^32
                        // i1: x0 i0 + 2^32 (x0 i1 + x1 i0) mod 2^51), integer
                        // multiplications whose chain is shorter than the
                        // floating-point split's; the column's bits above 51
                        // only reach the product from 2^51 on
                        let c = cur[n];
                        let low = S::mul_u32(c, self.qinv_lo);
                        let cross = S::add_i(S::mul_u32(c, self.qinv_hi), S::mul_u32(S::shr32(c), self.qinv_lo));
                        m[n][k] = self.float_of(S::and_i(S::add_i(low, S::shl32(cross)), self.mask));
                        // the column plus m_k q_0 is 2^51 (floor(column / 2^51) + c'),
                        // c' = (x + m_k q_0) / 2^51 an integer below 2^51 + 1:
                        // m_k (q_0 / 2^51) + (2 + x / 2^51) = 2 + c' is exact in
                        // one FMA, and adding 2^52 gives its bits (the column
                        // constants take the 2^52 + 2 back); no split product
                        // m_k q_0, and the carry waits for m_k by one FMA and one
                        // addition only
                        let xs = S::i_as_f(S::or_i(S::and_i(c, self.mask), self.two_bits));
                        let y = S::sub_f(S::fma(m[n][k], self.q0_scaled, xs), self.minus_two52);
                        cur[n] = S::add_i(next[n], S::add_i(S::shr51(c), S::f_as_i(y)));
                        // k + 2 <= L + 1 < 2L here; `min` only keeps the
                        // unrolled copies for k >= 2L (never run) in bounds
                        next[n] = cols[(k + 2).min(2 * LIMBS - 1)];
                    } else if k < 2 * L - 1 {
                        r[n][k - L] = S::and_i(cur[n], self.mask);
                        cur[n] = S::add_i(next[n], S::shr51(cur[n]));
                        next[n] = if k + 2 < 2 * L { cols[(k + 2).min(2 * LIMBS - 1)] } else { S::splat_i(0) };
                    } else {
                        r[n][L - 1] = cur[n];
                    }
                }
            }
        });
        let mut out = [Fe4([S::splat_i(0); L]); N];
        for n in 0..N {
            out[n] = Fe4(r[n]);
        }
        out
    }

    /// a + k - b, with k a multiple of q above b (keeps the result positive).
    #[inline(always)]
    pub unsafe fn sub(&self, a: &Fe4<S, L>, b: &Fe4<S, L>, k: &[S::I; L]) -> Fe4<S, L> {
        let mut t = a.0;
        unroll8!(j, {
            if j < L {
                t[j] = S::sub_i(S::add_i(t[j], k[j]), b.0[j]);
            }
        });
        self.normalize(t)
    }

    /// a + b, carried.
    #[inline(always)]
    pub unsafe fn add(&self, a: &Fe4<S, L>, b: &Fe4<S, L>) -> Fe4<S, L> {
        let mut t = a.0;
        unroll8!(j, {
            if j < L {
                t[j] = S::add_i(t[j], b.0[j]);
            }
        });
        self.normalize(t)
    }

    /// s a for a small s (limbs below 2^(63 - 51) s stay exact), carried.
    #[inline(always)]
    pub unsafe fn mul_small(&self, a: &Fe4<S, L>, s: u32) -> Fe4<S, L> {
        let mut t = [S::splat_i(0); L];
        for _ in 0..s {
            unroll8!(j, {
                if j < L {
                    t[j] = S::add_i(t[j], a.0[j]);
                }
            });
        }
        self.normalize(t)
    }

    /// a + k - b - c.
    #[inline(always)]
    pub unsafe fn sub2(&self, a: &Fe4<S, L>, b: &Fe4<S, L>, c: &Fe4<S, L>, k: &[S::I; L]) -> Fe4<S, L> {
        let mut t = a.0;
        unroll8!(j, {
            if j < L {
                t[j] = S::sub_i(S::sub_i(S::add_i(t[j], k[j]), b.0[j]), c.0[j]);
            }
        });
        self.normalize(t)
    }

    /// Lanes whose `negate` bit is set become q - a (a canonical: the result is in (0, q]).
    #[inline(always)]
    pub unsafe fn neg_where(&self, a: &Fe4<S, L>, negate: [bool; 4]) -> Fe4<S, L> {
        let m = S::set_i(negate.map(|b| if b { u64::MAX } else { 0 }));
        let mut t = a.0;
        unroll8!(j, {
            if j < L {
                let neg = S::sub_i(self.q[j], a.0[j]);
                t[j] = S::xor_i(a.0[j], S::and_i(S::xor_i(neg, a.0[j]), m));
            }
        });
        self.normalize(t)
    }

    /// A value below 16q brought below 3q (below 2q unless the estimate falls
    /// just under an integer): subtract k q, k one less than a floating-point
    /// estimate of the quotient (never too large).
    #[inline(always)]
    pub unsafe fn reduce(&self, a: &Fe4<S, L>) -> Fe4<S, L> {
        let top = S::fma(self.float_of(a.0[L - 1]), self.two51, self.float_of(a.0[L - 2]));
        let est = S::floor_f(S::mul_f(top, self.q_top_inv));
        let k = S::max_f(S::sub_f(est, self.one), S::splat_f(0.0));
        // k < 16 as an integer: the bits of k + 2^52 above 2^52
        let k = S::sub_i(S::f_as_i(S::fma(k, self.one, self.two52)), self.exp52);
        let mut t = a.0;
        unroll8!(j, {
            if j < L {
                let kq = S::add_i(S::mul_u32(k, self.q_lo32[j]), S::shl32(S::mul_u32(k, self.q_hi[j])));
                t[j] = S::sub_i(t[j], kq);
            }
        });
        self.normalize(t)
    }
}

/// Lane k of a 4-lane value, as scalar limbs.
///
/// # Safety
///
/// Only where `S::available()`.
#[inline(always)]
pub unsafe fn lane<S: Simd, const L: usize>(v: &Fe4<S, L>, k: usize) -> Limbs51 {
    let mut out = [0u64; LIMBS];
    unroll8!(j, {
        if j < L {
            out[j] = S::get_i(v.0[j])[k];
        }
    });
    Limbs51(out)
}

/// Four scalar values as one 4-lane value.
///
/// # Safety
///
/// Only where `S::available()`.
#[inline(always)]
pub unsafe fn from_lanes<S: Simd, const L: usize>(x: &[Limbs51; 4]) -> Fe4<S, L> {
    let mut out = [S::splat_i(0); L];
    unroll8!(j, {
        if j < L {
            out[j] = S::set_i([x[0].0[j], x[1].0[j], x[2].0[j], x[3].0[j]]);
        }
    });
    Fe4(out)
}

#[cfg(test)]
mod tests {
    use super::super::simd::{Kernel, Portable};
    use super::*;
    use rand::SeedableRng;
    use zkmsm_field::{Bls12_377Fq, Bls12_381Fq, Bn254Fq};

    fn below(w: &[u64; 7], bound: &[u64; 7]) -> bool {
        !geq(w, bound)
    }

    type Four = [Limbs51; 4];

    /// Every operation on one set of lanes.
    struct Ops<'a, F: PrimeField, S, const L: usize> {
        f: &'a Field51<F, L>,
        a: [F; 4],
        b: [F; 4],
        _simd: core::marker::PhantomData<S>,
    }

    impl<F: PrimeField, S: Simd, const L: usize> Kernel for Ops<'_, F, S, L> {
        type Output = (Four, Four, Four, Four, Four, Four, Four, Four);
        #[inline(always)]
        fn run(self) -> Self::Output {
            let f = self.f;
            // SAFETY: only run through `S::run`, after `S::available()`.
            unsafe {
                let k = f.consts::<S>();
                let va = from_lanes::<S, L>(&self.a.map(|x| f.to_limbs(&x)));
                let vb = from_lanes::<S, L>(&self.b.map(|x| f.to_limbs(&x)));
                let prod = k.mul(&va, &vb);
                let sq = k.square(&va);
                let (prod2, sq3) = k.mul2(&va, &vb, &vb, &vb);
                let (sq4, sq5) = k.square2(&vb, &va);
                for i in 0..4 {
                    assert_eq!(lane(&prod2, i), lane(&prod, i));
                    assert_eq!(lane(&sq5, i), lane(&sq, i));
                    assert_eq!(lane(&sq3, i), lane(&sq4, i));
                }
                let sq2 = k.square(&prod);
                let diff = k.sub(&va, &vb, &k.q4);
                let d2 = k.sub2(&va, &vb, &vb, &k.q8);
                let neg = k.neg_where(&va, [false, true, false, true]);
                // a value near 14q, reduced; and a product of lazy inputs
                let big = k.sub2(&k.sub2(&va, &vb, &vb, &k.q8), &vb, &vb, &k.q8);
                let red = k.reduce(&big);
                let lazy = k.mul(&big, &d2);
                let out = |v: &Fe4<S, L>| -> Four { core::array::from_fn(|i| lane(v, i)) };
                (out(&prod), out(&sq), out(&sq2), out(&diff), out(&d2), out(&neg), out(&red), out(&lazy))
            }
        }
    }

    fn check<F: PrimeField, S: Simd, const L: usize>() {
        if !S::available() {
            eprintln!("{} not available here: skipped", S::NAME);
            return;
        }
        let f = Field51::<F, L>::new().unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut special = vec![F::ZERO, F::ONE, -F::ONE, -F::ONE.double(), F::from_u64(2), F::from_u64(3)];
        special.extend((0..2000).map(|_| F::random(&mut rng)));
        let two_q = mul_small(&f.q64, 2);
        let three_q = mul_small(&f.q64, 3);
        for chunk in special.chunks(4).filter(|c| c.len() == 4) {
            let a: [F; 4] = chunk.try_into().unwrap();
            let b: [F; 4] = core::array::from_fn(|k| a[(k + 1) % 4] + F::from_u64(k as u64));
            // SAFETY: `available()` checked above.
            let (prod, sq, sq2, diff, d2, neg, red, lazy) =
                unsafe { S::run(Ops::<F, S, L> { f: &f, a, b, _simd: core::marker::PhantomData }) };
            for i in 0..4 {
                let back = |v: &[Limbs51; 4]| f.from_limbs(&v[i]);
                assert_eq!(back(&prod), a[i] * b[i]);
                assert_eq!(back(&sq), a[i].square());
                assert_eq!(back(&sq2), (a[i] * b[i]).square());
                assert_eq!(back(&diff), a[i] - b[i]);
                assert_eq!(back(&d2), a[i] - b[i].double());
                assert_eq!(back(&neg), if i % 2 == 1 { -a[i] } else { a[i] });
                assert_eq!(back(&red), a[i] - b[i].double().double());
                assert_eq!(back(&lazy), (a[i] - b[i].double().double()) * (a[i] - b[i].double()));
                for (v, bound) in [(&prod, &two_q), (&sq, &two_q), (&sq2, &two_q), (&lazy, &two_q), (&red, &three_q)] {
                    let l = v[i];
                    assert!(l.0[..L - 1].iter().all(|&x| x <= MASK), "limbs normalized");
                    assert!(l.0[L..].iter().all(|&x| x == 0), "limbs above L zero");
                    assert!(below(&limbs_to_words(&l.0, 51, false), bound), "below the bound");
                }
            }
        }
        for x in special.iter().take(50) {
            assert_eq!(f.from_limbs(&f.to_limbs(x)), *x);
            assert_eq!(f.from_limbs(&f.neg_limbs(&f.to_limbs(x))), -*x);
        }
    }

    /// The multiplication-free conversions against the exact ones, at the
    /// bounds the engine gives them: canonical limbs, values up to q + q
    /// (lazily reduced products), every limb at 2^51 - 1 under a small top
    /// limb, zero and q - 1; and the batch inversion's identity.
    fn scaled_conversions<F: PrimeField, const L: usize>() {
        let f = Field51::<F, L>::new().unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(17);
        let shift = F::from_u64(1 << (51 * L - 8 * F::NUM_BYTES));
        let mut cases: Vec<Limbs51> = [F::ZERO, F::ONE, -F::ONE, F::from_u64(2)]
            .iter()
            .chain((0..300).map(|_| F::random(&mut rng)).collect::<Vec<_>>().iter())
            .map(|x| f.to_limbs(x))
            .collect();
        // the same values plus q and plus 2q (limbs unnormalized: not masked)
        let lazy: Vec<Limbs51> = cases
            .iter()
            .flat_map(|l| {
                [1u64, 2].map(|m| {
                    let mut t = l.0;
                    for (v, q) in t.iter_mut().zip(f.q) {
                        *v += m * q;
                    }
                    Limbs51(t)
                })
            })
            .collect();
        cases.extend(lazy);
        let mut max = Limbs51([0; LIMBS]);
        max.0[..L].fill(MASK);
        // about 2^(8 NUM_BYTES + 3): several q
        max.0[L - 1] = 1 << (8 * F::NUM_BYTES + 3 - 51 * (L - 1));
        cases.push(max);
        cases.push(Limbs51(words_to_limbs(
            &{
                let mut w = f.q64;
                w[0] -= 1;
                w
            },
            51,
            true,
        )));
        assert_eq!(f.one_limbs(), f.to_limbs(&F::ONE));
        for l in &cases {
            let x = f.from_limbs(l);
            let u = f.raw_from_limbs(l);
            assert_eq!(u, x * shift, "scaled value");
            assert_eq!(f.from_limbs(&f.raw_to_limbs(&u)), x, "round trip");
            assert_eq!(f.raw_to_limbs(&u), f.to_limbs(&x), "back to canonical limbs");
            if !x.is_zero() {
                let inv = f.raw_to_limbs(&(u.inverse().unwrap() * f.raw_inverse_factor()));
                assert_eq!(f.from_limbs(&inv), x.inverse().unwrap(), "inverse through the scaled values");
                assert!(inv.0[..L - 1].iter().all(|&v| v <= MASK) && below(&limbs_to_words(&inv.0, 51, false), &f.q64));
            }
        }
    }

    /// Products and squares at the input bound (values up to 63q above
    /// canonical, limbs normalized, so that every column and quotient digit
    /// meets its largest operands), zero, one and q - 1, against the scalar
    /// field.
    struct Bounds<'a, F: PrimeField, S, const L: usize> {
        f: &'a Field51<F, L>,
        a: [Limbs51; 4],
        b: [Limbs51; 4],
        _simd: core::marker::PhantomData<S>,
    }

    impl<F: PrimeField, S: Simd, const L: usize> Kernel for Bounds<'_, F, S, L> {
        type Output = (Four, Four, Four);
        #[inline(always)]
        fn run(self) -> Self::Output {
            // SAFETY: only run through `S::run`, after `S::available()`.
            unsafe {
                let k = self.f.consts::<S>();
                let (va, vb) = (from_lanes::<S, L>(&self.a), from_lanes::<S, L>(&self.b));
                let prod = k.mul(&va, &vb);
                let (sq, sq2) = k.square2(&va, &vb);
                let out = |v: &Fe4<S, L>| -> Four { core::array::from_fn(|i| lane(v, i)) };
                (out(&prod), out(&sq), out(&sq2))
            }
        }
    }

    fn at_the_bounds<F: PrimeField, S: Simd, const L: usize>() {
        if !S::available() {
            return;
        }
        let f = Field51::<F, L>::new().unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(23);
        let mut values = vec![F::ZERO, F::ONE, -F::ONE, F::from_u64(2), -F::from_u64(2)];
        values.extend((0..400).map(|_| F::random(&mut rng)));
        // the limbs of x plus m q, normalized (m q < 2^388: seven words)
        let lifted = |x: &F, m: u64| -> Limbs51 {
            let mut w = limbs_to_words(&f.to_limbs(x).0, 51, false);
            let add = mul_small(&f.q64, m);
            let mut carry = 0u128;
            for (v, a) in w.iter_mut().zip(add) {
                let t = *v as u128 + a as u128 + carry;
                *v = t as u64;
                carry = t >> 64;
            }
            assert_eq!(carry, 0);
            Limbs51(words_to_limbs(&w, 51, true))
        };
        for (i, chunk) in values.chunks(4).filter(|c| c.len() == 4).enumerate() {
            let x: [F; 4] = chunk.try_into().unwrap();
            let y: [F; 4] = core::array::from_fn(|k| values[(i * 7 + k * 13) % values.len()]);
            let ms = [63, 62, 1 + i as u64 % 63, 0];
            let a = core::array::from_fn(|k| lifted(&x[k], ms[k]));
            let b = core::array::from_fn(|k| lifted(&y[k], ms[(k + 1) % 4]));
            // SAFETY: `available()` checked above.
            let (prod, sq, sq2) =
                unsafe { S::run(Bounds::<F, S, L> { f: &f, a, b, _simd: core::marker::PhantomData }) };
            let two_q = mul_small(&f.q64, 2);
            for k in 0..4 {
                assert_eq!(f.from_limbs(&prod[k]), x[k] * y[k], "{} product", S::NAME);
                assert_eq!(f.from_limbs(&sq[k]), x[k].square(), "{} square", S::NAME);
                assert_eq!(f.from_limbs(&sq2[k]), y[k].square(), "{} square", S::NAME);
                for v in [&prod[k], &sq[k], &sq2[k]] {
                    assert!(v.0[..L - 1].iter().all(|&l| l <= MASK), "limbs normalized");
                    assert!(below(&limbs_to_words(&v.0, 51, false), &two_q), "below 2q");
                }
            }
        }
    }

    #[test]
    fn products_at_the_input_bound() {
        at_the_bounds::<Bls12_377Fq, Portable, 8>();
        at_the_bounds::<Bls12_381Fq, Portable, 8>();
        at_the_bounds::<Bn254Fq, Portable, 6>();
        #[cfg(target_arch = "x86_64")]
        {
            at_the_bounds::<Bls12_377Fq, super::super::simd::Avx2, 8>();
            at_the_bounds::<Bls12_381Fq, super::super::simd::Avx2, 8>();
            at_the_bounds::<Bn254Fq, super::super::simd::Avx2, 6>();
        }
        #[cfg(target_arch = "aarch64")]
        {
            at_the_bounds::<Bls12_377Fq, super::super::simd::Neon, 8>();
            at_the_bounds::<Bls12_381Fq, super::super::simd::Neon, 8>();
            at_the_bounds::<Bn254Fq, super::super::simd::Neon, 6>();
        }
    }

    #[test]
    fn scaled_conversions_match_exact() {
        scaled_conversions::<Bls12_377Fq, 8>();
        scaled_conversions::<Bls12_381Fq, 8>();
        scaled_conversions::<Bn254Fq, 6>();
    }

    /// Which limb counts take which field: 26 spare bits and the quotient
    /// estimate's margin (q at least 2^(51 (L - 2) + 15)) decide.
    #[test]
    fn limb_counts_that_fit() {
        assert!(fits::<Bls12_381Fq>(8) && fits::<Bls12_377Fq>(8) && fits::<Bn254Fq>(6));
        assert!(!fits::<Bls12_381Fq>(7) && !fits::<Bn254Fq>(5) && !fits::<Bn254Fq>(8));
        assert!(Field51::<Bn254Fq, 5>::new().is_none() && Field51::<Bn254Fq, 8>::new().is_none());
        // 255- and 256-bit fields (Pallas, secp256k1) take six limbs
        for bits in [255, 256] {
            assert!((3..=8).filter(|&l| fits_bits(bits, 32, l)).eq([6]), "{bits} bits");
        }
        assert!(!fits_bits(219, 32, 6) && fits_bits(220, 32, 6) && fits_bits(256, 32, 6) && !fits_bits(257, 40, 6));
        assert!(fits::<F220>(6));
    }

    /// The smallest field six limbs take (220 bits, a random prime): the
    /// quotient estimate's bound, where the lower limbs' share is largest.
    #[derive(Debug)]
    struct F220Config;
    impl zkmsm_field::FpConfig<4> for F220Config {
        const MODULUS: [u64; 4] =
            zkmsm_field::limbs::from_hex("0x9fe0f51f17fd374c6a5387777330bdbd7210dff076ce2ef87b0b197");
        const NONRESIDUE: u64 = 3;
        const NAME: &'static str = "f220";
    }
    type F220 = zkmsm_field::Fp<F220Config, 4>;

    #[test]
    fn the_smallest_field_of_six_limbs() {
        assert_eq!(F220::NUM_BITS, 51 * 4 + 16);
        check::<F220, Portable, 6>();
        at_the_bounds::<F220, Portable, 6>();
        #[cfg(target_arch = "x86_64")]
        {
            check::<F220, super::super::simd::Avx2, 6>();
            at_the_bounds::<F220, super::super::simd::Avx2, 6>();
        }
        #[cfg(target_arch = "aarch64")]
        {
            check::<F220, super::super::simd::Neon, 6>();
            at_the_bounds::<F220, super::super::simd::Neon, 6>();
        }
    }

    #[test]
    fn portable_matches_scalar() {
        check::<Bls12_377Fq, Portable, 8>();
        check::<Bls12_381Fq, Portable, 8>();
        check::<Bn254Fq, Portable, 6>();
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_matches_scalar() {
        check::<Bls12_377Fq, super::super::simd::Avx2, 8>();
        check::<Bls12_381Fq, super::super::simd::Avx2, 8>();
        check::<Bn254Fq, super::super::simd::Avx2, 6>();
    }

    #[cfg(target_arch = "aarch64")]
    #[test]
    fn neon_matches_scalar() {
        check::<Bls12_377Fq, super::super::simd::Neon, 8>();
        check::<Bls12_381Fq, super::super::simd::Neon, 8>();
        check::<Bn254Fq, super::super::simd::Neon, 6>();
    }

    /// The largest limbs the splitting meets: products of 2^51 - 1 (and the
    /// doubled operand of squaring) split exactly.
    #[test]
    fn split_is_exact_at_the_bounds() {
        for (a, b) in [(MASK, MASK), (MASK, 2 * MASK), (1, 1), (0, MASK), (MASK, 1 << 51), (12345, 2 * MASK - 7)] {
            let (af, bf) = (a as f64, b as f64);
            let hi = af.mul_add(bf, C_HI);
            let lo = af.mul_add(bf, C_LO - hi);
            let h = hi.to_bits() - HI_BIAS;
            let l = lo.to_bits().wrapping_sub(LO_BIAS) as i64;
            assert_eq!((h as i128) * (1 << 51) + l as i128, (a as i128) * (b as i128), "{a} * {b}");
            assert!(l.unsigned_abs() <= 1 << 50);
        }
    }
}
