//! Multi-precision arithmetic on little-endian `[u64; N]` limbs.
//!
//! Everything here is `const fn` so that Montgomery constants (R, R^2, -q^-1)
//! are derived from the modulus at compile time instead of pasted as literals.

/// a + b + carry, returning (sum, carry-out).
#[inline(always)]
pub const fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// a - b - borrow (borrow is 0 or 1), returning (difference, borrow-out).
#[inline(always)]
pub const fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let t = (a as u128).wrapping_sub(b as u128 + borrow as u128);
    (t as u64, ((t >> 64) as u64) & 1)
}

/// a + b * c + carry, returning (low, high).
#[inline(always)]
pub const fn mac(a: u64, b: u64, c: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + (b as u128) * (c as u128) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// Parse a big-endian hex string (optional `0x`, underscores allowed) into limbs.
/// Panics at compile time if the value does not fit.
pub const fn from_hex<const N: usize>(s: &str) -> [u64; N] {
    let b = s.as_bytes();
    let mut out = [0u64; N];
    let mut start = 0;
    if b.len() >= 2 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') {
        start = 2;
    }
    let mut i = b.len();
    let mut nibble = 0usize;
    while i > start {
        i -= 1;
        let c = b[i];
        let v = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            b'_' => continue,
            _ => panic!("invalid hex digit"),
        };
        let limb = nibble / 16;
        if limb >= N {
            assert!(v == 0, "hex value does not fit in N limbs");
        } else {
            out[limb] |= (v as u64) << ((nibble % 16) * 4);
        }
        nibble += 1;
    }
    out
}

/// The first 8N bytes of `bytes`, little-endian, as N limbs (panics if
/// `bytes` is shorter: callers slice records of a known size).
#[inline]
pub fn from_le_bytes<const N: usize>(bytes: &[u8]) -> [u64; N] {
    core::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes")))
}

/// True when every limb is zero.
pub const fn is_zero<const N: usize>(a: &[u64; N]) -> bool {
    let mut i = 0;
    while i < N {
        if a[i] != 0 {
            return false;
        }
        i += 1;
    }
    true
}

/// a >= b
#[inline(always)]
pub const fn geq<const N: usize>(a: &[u64; N], b: &[u64; N]) -> bool {
    let mut i = N;
    while i > 0 {
        i -= 1;
        if a[i] != b[i] {
            return a[i] > b[i];
        }
    }
    true
}

/// `a + b` and the carry out of the top limb (0 or 1).
#[inline(always)]
pub const fn add<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], u64) {
    let mut out = [0u64; N];
    let mut carry = 0;
    let mut i = 0;
    while i < N {
        let (s, c) = adc(a[i], b[i], carry);
        out[i] = s;
        carry = c;
        i += 1;
    }
    (out, carry)
}

/// `a - b` and the borrow out of the top limb (0 or 1).
#[inline(always)]
pub const fn sub<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], u64) {
    let mut out = [0u64; N];
    let mut borrow = 0;
    let mut i = 0;
    while i < N {
        let (s, br) = sbb(a[i], b[i], borrow);
        out[i] = s;
        borrow = br;
        i += 1;
    }
    (out, borrow)
}

/// Number of significant bits.
pub const fn num_bits<const N: usize>(a: &[u64; N]) -> u32 {
    let mut i = N;
    while i > 0 {
        i -= 1;
        if a[i] != 0 {
            return (i as u32) * 64 + (64 - a[i].leading_zeros());
        }
    }
    0
}

/// Bit `i` of `a` (bit 0 is the least significant); false beyond the top limb.
#[inline(always)]
pub const fn bit<const N: usize>(a: &[u64; N], i: usize) -> bool {
    if i >= 64 * N {
        return false;
    }
    (a[i / 64] >> (i % 64)) & 1 == 1
}

/// Logical right shift by `k < 64` bits.
pub const fn shr<const N: usize>(a: &[u64; N], k: u32) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = a[i] >> k;
        if k > 0 && i + 1 < N {
            out[i] |= a[i + 1] << (64 - k);
        }
        i += 1;
    }
    out
}

/// (a + b) mod m for a, b < m.
pub const fn add_mod<const N: usize>(a: &[u64; N], b: &[u64; N], m: &[u64; N]) -> [u64; N] {
    let (s, carry) = add(a, b);
    if carry == 1 || geq(&s, m) {
        sub(&s, m).0
    } else {
        s
    }
}

/// 2^k mod m, by repeated doubling (only used for compile-time constants).
pub const fn pow2_mod<const N: usize>(k: usize, m: &[u64; N]) -> [u64; N] {
    let mut r = [0u64; N];
    r[0] = 1;
    // Reduce 1 in case m == 1 (never for a field, kept for totality).
    if geq(&r, m) {
        r = sub(&r, m).0;
    }
    let mut i = 0;
    while i < k {
        r = add_mod(&r, &r, m);
        i += 1;
    }
    r
}

/// -m0^{-1} mod 2^64 by Newton iteration (m0 odd).
pub const fn neg_inv_u64(m0: u64) -> u64 {
    let mut inv: u64 = 1;
    let mut i = 0;
    while i < 6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(m0.wrapping_mul(inv)));
        i += 1;
    }
    inv.wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_parsing() {
        assert_eq!(from_hex::<2>("0x1_0000000000000002"), [2, 1]);
        assert_eq!(from_hex::<1>("ff"), [255]);
    }

    #[test]
    fn neg_inv_is_inverse() {
        for m in [1u64, 3, 17, 0x8508c00000000001, u64::MAX] {
            assert_eq!(m.wrapping_mul(neg_inv_u64(m)), u64::MAX); // m * (-1/m) = -1
        }
    }

    #[test]
    fn pow2_mod_small() {
        assert_eq!(pow2_mod::<1>(64, &[17]), [((1u128 << 64) % 17) as u64]);
        assert_eq!(pow2_mod::<1>(10, &[1000]), [24]);
    }
}
