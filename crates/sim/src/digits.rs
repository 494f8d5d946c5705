//! Signed c-bit digits, one per (scalar, window).
//!
//! Convention (shared by the statistics and functional modes): a scalar
//! `s = sum_j r_j 2^(jc)` with raw chunks `r_j` in `[0, 2^c)`. Walking up
//! from window 0 with carry `k_0 = 0`: `d_j = r_j + k_j`; when
//! `d_j > 2^(c-1)` it becomes `d_j - 2^c` and `k_(j+1) = 1`. Digits lie in
//! `[-2^(c-1)+1, 2^(c-1)]`, so `2^(c-1)` buckets (magnitudes 1..=2^(c-1))
//! suffice, and `s = sum_j d_j 2^(jc)` exactly provided the top window
//! absorbs the last carry, which [`num_windows`] guarantees.

use crate::rng::mix64;

/// Windows needed for `bits`-bit scalars with signed `c`-bit digits:
/// `ceil((bits + 1) / c)`, so that the top raw chunk has at most `c - 1`
/// bits and the top digit never needs a further carry.
pub fn num_windows(bits: u32, c: u32) -> u32 {
    assert!((2..=30).contains(&c), "window size must be in 2..=30");
    (bits + 1).div_ceil(c)
}

/// Number of buckets per window for signed c-bit digits.
pub fn num_buckets(c: u32) -> u32 {
    1 << (c - 1)
}

/// A source of signed digits `d(i, j)` for scalar `i`, window `j`.
pub trait DigitSource: Sync {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn windows(&self) -> usize;
    fn window_bits(&self) -> u32;
    fn digit(&self, i: usize, j: usize) -> i32;
}

/// Digits of `n` independent uniform `bits`-bit scalars, generated on the
/// fly from a counter-based hash: no storage, any access order, a few ns per
/// digit. The raw chunk of window `j` of scalar `i` is a hash of
/// `(seed, i, j)`; the carry into window `j` needs the chunk below only,
/// except when that chunk equals exactly `2^(c-1)` (probability `2^-c`),
/// when it needs the carry below it in turn.
#[derive(Clone, Debug)]
pub struct UniformDigits {
    n: usize,
    c: u32,
    w: usize,
    top_bits: u32,
    seed: u64,
}

impl UniformDigits {
    pub fn new(n: usize, bits: u32, c: u32, seed: u64) -> Self {
        let w = num_windows(bits, c) as usize;
        let top_bits = bits - c * (w as u32 - 1);
        Self { n, c, w, top_bits, seed: mix64(seed ^ 0x5eed) }
    }

    #[inline(always)]
    fn raw(&self, i: usize, j: usize) -> u32 {
        let h = mix64(self.seed ^ ((i as u64) << 6 | j as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let bits = if j + 1 == self.w { self.top_bits } else { self.c };
        (h & ((1u64 << bits) - 1)) as u32
    }

    #[inline(always)]
    fn carry_into(&self, i: usize, j: usize) -> u32 {
        let half = 1u32 << (self.c - 1);
        let mut jj = j;
        while jj > 0 {
            let r = self.raw(i, jj - 1);
            if r != half {
                return (r > half) as u32;
            }
            // r == half: carry out iff carry in.
            jj -= 1;
        }
        0
    }
}

impl DigitSource for UniformDigits {
    fn len(&self) -> usize {
        self.n
    }
    fn windows(&self) -> usize {
        self.w
    }
    fn window_bits(&self) -> u32 {
        self.c
    }
    #[inline(always)]
    fn digit(&self, i: usize, j: usize) -> i32 {
        let half = 1u32 << (self.c - 1);
        let d = self.raw(i, j) + self.carry_into(i, j);
        if d > half {
            d as i32 - (1i32 << self.c)
        } else {
            d as i32
        }
    }
}

/// Digits precomputed from explicit scalars (little-endian u64 limbs).
#[derive(Clone, Debug)]
pub struct TableDigits {
    n: usize,
    c: u32,
    w: usize,
    d: Vec<i32>,
}

impl TableDigits {
    /// `scalars[i]` are little-endian 64-bit limbs of scalar i, below 2^bits.
    pub fn from_limbs(scalars: &[Vec<u64>], bits: u32, c: u32) -> Self {
        let w = num_windows(bits, c) as usize;
        let mut d = Vec::with_capacity(scalars.len() * w);
        for s in scalars {
            d.extend(signed_digits(s, c, w));
        }
        Self { n: scalars.len(), c, w, d }
    }
}

impl DigitSource for TableDigits {
    fn len(&self) -> usize {
        self.n
    }
    fn windows(&self) -> usize {
        self.w
    }
    fn window_bits(&self) -> u32 {
        self.c
    }
    #[inline(always)]
    fn digit(&self, i: usize, j: usize) -> i32 {
        self.d[i * self.w + j]
    }
}

/// One window's digits given as a slice (the host's digit stream for one
/// window, as the `zkmsm` backend seam hands it over).
#[derive(Clone, Copy, Debug)]
pub struct SliceDigits<'a> {
    pub digits: &'a [i32],
    pub c: u32,
}

impl DigitSource for SliceDigits<'_> {
    fn len(&self) -> usize {
        self.digits.len()
    }
    fn windows(&self) -> usize {
        1
    }
    fn window_bits(&self) -> u32 {
        self.c
    }
    #[inline(always)]
    fn digit(&self, i: usize, _j: usize) -> i32 {
        self.digits[i]
    }
}

/// Extract bits `[lo, lo+len)` of a little-endian limb vector.
pub fn bits_at(limbs: &[u64], lo: usize, len: u32) -> u64 {
    let mut v: u128 = 0;
    let li = lo / 64;
    let sh = lo % 64;
    if li < limbs.len() {
        v |= (limbs[li] >> sh) as u128;
    }
    if sh != 0 && li + 1 < limbs.len() {
        v |= (limbs[li + 1] as u128) << (64 - sh);
    }
    (v & ((1u128 << len) - 1)) as u64
}

/// Signed digits of one scalar; panics if the scalar does not fit in `w` windows.
pub fn signed_digits(limbs: &[u64], c: u32, w: usize) -> Vec<i32> {
    let half = 1i64 << (c - 1);
    let mut carry = 0i64;
    let mut out = Vec::with_capacity(w);
    for j in 0..w {
        let mut d = bits_at(limbs, j * c as usize, c) as i64 + carry;
        carry = 0;
        if d > half {
            d -= 1 << c;
            carry = 1;
        }
        out.push(d as i32);
    }
    // Everything above the last window must be zero.
    for (k, &l) in limbs.iter().enumerate() {
        let lo = w * c as usize;
        if (k + 1) * 64 > lo {
            let mask = if k * 64 >= lo { u64::MAX } else { u64::MAX << (lo - k * 64) };
            assert_eq!(l & mask, 0, "scalar does not fit in {w} windows of {c} bits");
        }
    }
    assert_eq!(carry, 0, "scalar does not fit in {w} windows of {c} bits");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    fn recompose(d: &[i32], c: u32) -> i128 {
        d.iter().rev().fold(0i128, |acc, &x| (acc << c) + x as i128)
    }

    #[test]
    fn windows_absorb_carry() {
        assert_eq!(num_windows(253, 16), 16);
        assert_eq!(num_windows(253, 13), 20);
        assert_eq!(num_windows(253, 12), 22);
        assert_eq!(num_windows(255, 16), 16);
        assert_eq!(num_windows(256, 16), 17);
    }

    #[test]
    fn signed_digits_recompose() {
        let mut r = SplitMix64::new(3);
        for c in [2u32, 4, 7, 12, 13, 16] {
            let w = num_windows(100, c) as usize;
            for _ in 0..200 {
                let s = [r.next_u64(), r.next_u64() & ((1 << 36) - 1)];
                let d = signed_digits(&s, c, w);
                let half = 1i32 << (c - 1);
                assert!(d.iter().all(|&x| x > -half && x <= half));
                let v = s[0] as i128 | (s[1] as i128) << 64;
                assert_eq!(recompose(&d, c), v);
            }
            let all_ones = [u64::MAX, (1 << 36) - 1];
            let d = signed_digits(&all_ones, c, w);
            assert_eq!(recompose(&d, c), all_ones[0] as i128 | (all_ones[1] as i128) << 64);
        }
    }

    #[test]
    fn uniform_digits_match_sequential_carry() {
        // The stateless carry look-back equals a sequential carry walk.
        for c in [3u32, 5, 16] {
            let u = UniformDigits::new(500, 40, c, 11);
            let half = 1u32 << (c - 1);
            for i in 0..u.len() {
                let mut carry = 0u32;
                for j in 0..u.windows() {
                    let d = u.raw(i, j) + carry;
                    carry = 0;
                    let e = if d > half {
                        carry = 1;
                        d as i32 - (1 << c)
                    } else {
                        d as i32
                    };
                    assert_eq!(u.digit(i, j), e);
                }
                assert_eq!(carry, 0);
            }
        }
    }

    #[test]
    fn uniform_digits_are_spread() {
        let c = 6;
        let u = UniformDigits::new(20000, 253, c, 1);
        let mut hist = vec![0u32; num_buckets(c) as usize + 1];
        for i in 0..u.len() {
            hist[u.digit(i, 3).unsigned_abs() as usize] += 1;
        }
        // Magnitudes 1..31 each get two signed values (~625 each); 0 and 32 one.
        for (m, &h) in hist.iter().enumerate() {
            let expect = if m == 0 || m == 32 { 312.5 } else { 625.0 };
            assert!((h as f64 - expect).abs() < 0.25 * expect, "m={m} h={h}");
        }
    }
}
