//! Scalar-side conversions between a field element's 64-bit words and the
//! lane engines' limbs (radix 2^51 for the FMA lanes, 2^52 for IFMA), and
//! the little word arithmetic their set-up and tests need. Seven words
//! (448 bits) hold any eight limbs of either radix.

/// A value as seven little-endian 64-bit words.
pub(crate) type Words = [u64; 7];

/// Little-endian bytes (at most 56) as words.
pub(crate) fn bytes_to_words(b: &[u8]) -> Words {
    let mut w = [0u64; 7];
    for (i, byte) in b.iter().enumerate() {
        w[i / 8] |= (*byte as u64) << (8 * (i % 8));
    }
    w
}

/// Words as eight limbs of `radix` bits. The top limb keeps every bit above
/// its place when `top_keeps_rest` (the FMA lanes' form), else it is masked
/// like the others.
pub(crate) fn words_to_limbs(w: &Words, radix: u32, top_keeps_rest: bool) -> [u64; 8] {
    let mask = (1u64 << radix) - 1;
    let mut l = [0u64; 8];
    for (j, limb) in l.iter_mut().enumerate() {
        let bit = radix as usize * j;
        let (i, off) = (bit / 64, bit % 64);
        let mut v = w[i] >> off;
        if off + radix as usize > 64 && i + 1 < 7 {
            v |= w[i + 1] << (64 - off);
        }
        *limb = if j == 7 && top_keeps_rest { v } else { v & mask };
    }
    l
}

/// The value of eight limbs of `radix` bits as words: limb j weighs
/// 2^(radix j), and a limb may exceed its radix (it is added with carries).
/// `mask_limbs` first drops every bit of a limb above its radix (the IFMA
/// form, whose top bit is a flag).
pub(crate) fn limbs_to_words(l: &[u64; 8], radix: u32, mask_limbs: bool) -> Words {
    let mask = if mask_limbs { (1u64 << radix) - 1 } else { u64::MAX };
    let mut w = [0u64; 7];
    for (j, &limb) in l.iter().enumerate() {
        let bit = radix as usize * j;
        let (i, off) = (bit / 64, bit % 64);
        let wide = ((limb & mask) as u128) << off;
        let mut carry = 0u128;
        for (k, part) in [wide as u64, (wide >> 64) as u64].into_iter().enumerate() {
            if i + k < 7 {
                let s = w[i + k] as u128 + part as u128 + carry;
                w[i + k] = s as u64;
                carry = s >> 64;
            }
        }
        let mut k = i + 2;
        while carry != 0 && k < 7 {
            let s = w[k] as u128 + carry;
            w[k] = s as u64;
            carry = s >> 64;
            k += 1;
        }
    }
    w
}

/// a >= b.
pub(crate) fn geq(a: &Words, b: &Words) -> bool {
    for i in (0..7).rev() {
        if a[i] != b[i] {
            return a[i] > b[i];
        }
    }
    true
}

/// a -= b (modulo 2^448).
pub(crate) fn sub_in_place(a: &mut Words, b: &Words) {
    let mut borrow = 0u64;
    for i in 0..7 {
        let (d, b1) = a[i].overflowing_sub(b[i]);
        let (d, b2) = d.overflowing_sub(borrow);
        a[i] = d;
        borrow = (b1 | b2) as u64;
    }
}

/// w * m (modulo 2^448).
pub(crate) fn mul_small(w: &Words, m: u64) -> Words {
    let mut out = *w;
    let mut carry = 0u128;
    for x in out.iter_mut() {
        let t = (*x as u128) * (m as u128) + carry;
        *x = t as u64;
        carry = t >> 64;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Limbs and words round-trip in both radices, at the edges of every
    /// limb and word, and a limb above its radix carries into the next.
    #[test]
    fn limbs_and_words_round_trip() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            let mut w = [0u64; 7];
            for x in w.iter_mut() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                *x = s;
            }
            w[6] &= (1 << 20) - 1; // below 2^404: fits eight limbs of 51 bits with the top one whole
            for (radix, top) in [(51, true), (52, false)] {
                let l = words_to_limbs(&w, radix, top);
                assert!(l[..7].iter().all(|&v| v < 1 << radix));
                assert_eq!(limbs_to_words(&l, radix, !top), w, "radix {radix}");
            }
        }
        let mut l = [0u64; 8];
        l[0] = 1 << 51; // one above radix 51: carries into limb 1's place
        assert_eq!(limbs_to_words(&l, 51, false), limbs_to_words(&[0, 1, 0, 0, 0, 0, 0, 0], 51, false));
        assert_eq!(limbs_to_words(&l, 51, true), [0; 7], "masked");
        let bytes: Vec<u8> = (1..=48).collect();
        let w = bytes_to_words(&bytes);
        assert_eq!(w[0], u64::from_le_bytes(bytes[..8].try_into().unwrap()));
        assert_eq!(w[5], u64::from_le_bytes(bytes[40..48].try_into().unwrap()));
        let mut a = w;
        sub_in_place(&mut a, &w);
        assert_eq!(a, [0; 7]);
        assert!(geq(&w, &w) && geq(&mul_small(&w, 2), &w) && !geq(&a, &w));
    }
}
