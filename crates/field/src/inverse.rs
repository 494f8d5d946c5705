//! Variable-time modular inversion by Bernstein–Yang "safegcd" divsteps
//! (eprint 2019/266), batched 62 divsteps at a time on single words, in the
//! variable-time form described for libsecp256k1's `modinv64` (runs of zeros
//! skipped with one trailing-zero count, several odd steps folded into one
//! multiply-add).
//!
//! State: f, g (the gcd pair, f = q and g = x at the start), d, e (their
//! cofactors mod q) and eta = -delta. With c the starting value of e the
//! invariants are f * c = d * x and g * c = e * x (mod q). Every outer round
//! runs 62 divsteps on the low words of f and g only, which yields a 2x2
//! integer matrix T with 2^62 [f', g'] = T [f, g]; T is then applied to the
//! full-width f, g (exactly divisible by 2^62) and to d, e (made divisible by
//! adding a multiple of q, Montgomery style). When g reaches 0, f = ±1 and
//! d = ±c / x.
//!
//! Montgomery form: for x = a R we start with c = R^2 mod q, so d is
//! ±R^2 / (a R) = a^-1 R, the Montgomery form of a^-1, with no correction
//! multiplication at the end.
//!
//! Numbers are held in "signed62" form: L = N + 1 limbs of 62 bits, the lower
//! L - 1 in [0, 2^62) and the top one signed, so that the sign of the number is
//! the sign of its top limb. 62(L - 1) + 63 bits hold every value in (-2q, q)
//! for q < 2^(64N) and N <= 31.
//!
//! Not constant time: the number of rounds and the branches depend on x. MSM
//! inputs are public, so this is the right trade here; do not use it on
//! secrets.

use crate::config::FpConfig;
use crate::limbs;

const M62: u64 = u64::MAX >> 2;

/// 2^62 times the transition matrix of 62 divsteps: 2^62 [f'; g'] = [[u, v], [q, r]] [f; g].
/// |u| + |v| <= 2^62 and |q| + |r| <= 2^62.
#[derive(Clone, Copy, Debug)]
struct Trans {
    u: i64,
    v: i64,
    q: i64,
    r: i64,
}

/// Bits [62 i, 62 i + 62) of `x` in limb i (all limbs non-negative).
const fn to_s62<const N: usize, const L: usize>(x: &[u64; N]) -> [i64; L] {
    let mut out = [0i64; L];
    let mut i = 0;
    while i < L {
        let bit = 62 * i;
        let (w, s) = (bit / 64, bit % 64);
        let mut val = 0u64;
        if w < N {
            val = x[w] >> s;
            if s > 2 && w + 1 < N {
                val |= x[w + 1] << (64 - s);
            }
        }
        out[i] = (val & M62) as i64;
        i += 1;
    }
    out
}

/// The inverse of [`to_s62`] for a value in [0, 2^(64N)) in canonical signed62 form.
#[inline(always)]
fn from_s62<const N: usize, const L: usize>(x: &[i64; L]) -> [u64; N] {
    let mut out = [0u64; N];
    let mut acc: u128 = 0;
    let mut bits = 0u32;
    let mut j = 0;
    for &limb in x.iter() {
        acc |= ((limb as u64) as u128) << bits;
        bits += 62;
        if bits >= 64 {
            if j < N {
                out[j] = acc as u64;
            }
            j += 1;
            acc >>= 64;
            bits -= 64;
        }
    }
    if j < N {
        out[j] = acc as u64;
    }
    out
}

/// Per-field constants of the inversion.
struct Consts<P, const N: usize, const L: usize>(core::marker::PhantomData<P>);

impl<P: FpConfig<N>, const N: usize, const L: usize> Consts<P, N, L> {
    /// q in signed62 form.
    const Q: [i64; L] = to_s62(&P::MODULUS);
    /// q^-1 mod 2^62 (the negation of -q^-1 mod 2^64).
    const QINV62: u64 = limbs::neg_inv_u64(P::MODULUS[0]).wrapping_neg() & M62;
    /// R^2 mod q in signed62 form: the starting e, so that d ends as a^-1 R.
    const R2: [i64; L] = to_s62(&limbs::pow2_mod(128 * N, &P::MODULUS));
}

/// 62 divsteps on the low 62 bits of f (odd) and g, variable time. Returns
/// the new eta (= -delta) and the scaled transition matrix.
///
/// The matrix is kept scaled by 2^(divsteps done): the row of f is doubled
/// whenever g is halved, instead of halving the row of g. Zero bits of g are
/// skipped in bulk (a trailing-zero count, with a sentinel bit so that no
/// more than the remaining steps are taken); an odd g is cleared of up to 6
/// low bits at once by adding w f with w = -g / f mod 2^k, which is exactly
/// what k consecutive "g <- (g + f) / 2 or g / 2" divsteps do while delta
/// stays <= 0 (that is why k <= eta + 1).
#[inline(always)]
fn divsteps_62_var(mut eta: i64, f0: u64, g0: u64) -> (i64, Trans) {
    let (mut u, mut v, mut q, mut r) = (1u64, 0u64, 0u64, 1u64);
    let (mut f, mut g) = (f0, g0);
    let mut left = 62u32; // divsteps still to do in this round
    loop {
        let zeros = (g | (u64::MAX << left)).trailing_zeros();
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= zeros as i64;
        left -= zeros;
        if left == 0 {
            break;
        }
        // g is odd here.
        if eta < 0 {
            // delta > 0 and g odd: (f, g) <- (g, -f); the subtraction
            // below then makes it (g, (g - f) / 2) as the divstep says.
            eta = -eta;
            let t = f;
            f = g;
            g = t.wrapping_neg();
            let t = u;
            u = q;
            q = t.wrapping_neg();
            let t = v;
            v = r;
            r = t.wrapping_neg();
        }
        // k = min(eta + 1, left, 6) low bits of g to clear. For odd f,
        // f^-1 = f (2 - f^2) mod 2^6 (f^2 = 1 mod 8, then one Newton step), so
        // w = -g / f = g f (f^2 - 2) mod 2^k. (Measured: a 4-bit or 3-bit cap
        // with cheaper w, an 8-bit cap, or a branch-free swap were all slower.)
        let k = (eta + 1).min(left as i64).min(6) as u32;
        let mask = u64::MAX >> (64 - k);
        let w = g.wrapping_mul(f).wrapping_mul(f.wrapping_mul(f).wrapping_sub(2)) & mask;
        g = g.wrapping_add(f.wrapping_mul(w));
        q = q.wrapping_add(u.wrapping_mul(w));
        r = r.wrapping_add(v.wrapping_mul(w));
    }
    (eta, Trans { u: u as i64, v: v as i64, q: q as i64, r: r as i64 })
}

#[inline(always)]
fn mul(a: i64, b: i64) -> i128 {
    a as i128 * b as i128
}

/// [d, e] <- T [d, e] / 2^62 mod q, for d, e in (-2q, q); the results are in
/// (-2q, q) again.
///
/// Before dividing, a multiple of q is added: first q u (q v) when d (e) is
/// negative, which brings the inputs to (-q, q) in effect; then k q with
/// 0 <= k < 2^62 chosen to zero the low 62 bits. So the sum is in
/// (-2^63 q, 2^62 q) and its quotient by 2^62 in (-2q, q).
#[inline(always)]
fn update_de<const L: usize>(d: &mut [i64; L], e: &mut [i64; L], t: Trans, q: &[i64; L], qinv62: u64) {
    let sd = d[L - 1] >> 63;
    let se = e[L - 1] >> 63;
    let mut md = (t.u & sd) + (t.v & se);
    let mut me = (t.q & sd) + (t.r & se);
    let mut cd = mul(t.u, d[0]) + mul(t.v, e[0]);
    let mut ce = mul(t.q, d[0]) + mul(t.r, e[0]);
    // k = (cd + q0 md) / q mod 2^62 = cd q^-1 + md mod 2^62; md -= k.
    md -= (qinv62.wrapping_mul(cd as u64).wrapping_add(md as u64) & M62) as i64;
    me -= (qinv62.wrapping_mul(ce as u64).wrapping_add(me as u64) & M62) as i64;
    cd += mul(q[0], md);
    ce += mul(q[0], me);
    debug_assert_eq!(cd as u64 & M62, 0);
    debug_assert_eq!(ce as u64 & M62, 0);
    cd >>= 62;
    ce >>= 62;
    for i in 1..L {
        cd += mul(t.u, d[i]) + mul(t.v, e[i]) + mul(q[i], md);
        ce += mul(t.q, d[i]) + mul(t.r, e[i]) + mul(q[i], me);
        d[i - 1] = (cd as u64 & M62) as i64;
        e[i - 1] = (ce as u64 & M62) as i64;
        cd >>= 62;
        ce >>= 62;
    }
    d[L - 1] = cd as i64;
    e[L - 1] = ce as i64;
}

/// [f, g] <- T [f, g] / 2^62 (exact) on the low `len` limbs.
#[inline(always)]
fn update_fg<const L: usize>(f: &mut [i64; L], g: &mut [i64; L], len: usize, t: Trans) {
    let mut cf = mul(t.u, f[0]) + mul(t.v, g[0]);
    let mut cg = mul(t.q, f[0]) + mul(t.r, g[0]);
    debug_assert_eq!(cf as u64 & M62, 0);
    debug_assert_eq!(cg as u64 & M62, 0);
    cf >>= 62;
    cg >>= 62;
    for i in 1..len {
        cf += mul(t.u, f[i]) + mul(t.v, g[i]);
        cg += mul(t.q, f[i]) + mul(t.r, g[i]);
        f[i - 1] = (cf as u64 & M62) as i64;
        g[i - 1] = (cg as u64 & M62) as i64;
        cf >>= 62;
        cg >>= 62;
    }
    f[len - 1] = cf as i64;
    g[len - 1] = cg as i64;
}

/// Carries so that limbs 0..L-1 are in [0, 2^62) and the top one holds the sign.
#[inline(always)]
fn carry<const L: usize>(x: &mut [i64; L]) {
    for i in 0..L - 1 {
        let c = x[i] >> 62;
        x[i] &= M62 as i64;
        x[i + 1] += c;
    }
}

#[inline(always)]
fn add_q_if_negative<const L: usize>(x: &mut [i64; L], q: &[i64; L]) {
    if x[L - 1] < 0 {
        for i in 0..L {
            x[i] += q[i];
        }
        carry(x);
    }
}

/// d in (-2q, q), canonical; returns (negate ? -d : d) mod q in [0, q).
#[inline(always)]
fn normalize<const L: usize>(mut d: [i64; L], negate: bool, q: &[i64; L]) -> [i64; L] {
    add_q_if_negative(&mut d, q); // (-q, q)
    if negate {
        for x in d.iter_mut() {
            *x = -*x;
        }
        carry(&mut d);
    }
    add_q_if_negative(&mut d, q); // [0, q)
    d
}

/// x^-1 R^2 mod q for 0 < x < q, i.e. the Montgomery form of a^-1 when x is
/// the Montgomery form of a.
fn inverse_s62<P: FpConfig<N>, const N: usize, const L: usize>(x: &[u64; N]) -> [u64; N] {
    // Only reached with L = N + 1 (see `inverse`); the other match arms are
    // instantiated but dead, so this is not a compile-time assertion.
    assert!(L == N + 1);
    let q = &Consts::<P, N, L>::Q;
    let qinv62 = Consts::<P, N, L>::QINV62;
    let mut d = [0i64; L];
    let mut e = Consts::<P, N, L>::R2;
    let mut f = *q;
    let mut g: [i64; L] = to_s62(x);
    let mut eta = -1i64; // delta = 1
    let mut len = L;
    loop {
        let (eta2, t) = divsteps_62_var(eta, f[0] as u64, g[0] as u64);
        eta = eta2;
        update_de(&mut d, &mut e, t, q, qinv62);
        update_fg(&mut f, &mut g, len, t);
        if g[0] == 0 && g[1..len].iter().all(|&x| x == 0) {
            break;
        }
        // Drop the top limb when it is only sign extension in both f and g.
        if len > 1 {
            let (fl, gl) = (f[len - 1], g[len - 1]);
            if (fl ^ (fl >> 63)) | (gl ^ (gl >> 63)) == 0 {
                f[len - 2] |= ((fl as u64) << 62) as i64;
                g[len - 2] |= ((gl as u64) << 62) as i64;
                len -= 1;
            }
        }
    }
    // g = 0, so f = ±gcd(q, x) = ±1.
    debug_assert!(f[0] == 1 && f[1..len].iter().all(|&x| x == 0) || f[len - 1] < 0);
    let d = normalize(d, f[len - 1] < 0, q);
    from_s62(&d)
}

/// The Montgomery form of a^-1 given that of a (non-zero, below q); `None`
/// for N > 8, where the caller falls back to Fermat.
#[inline]
pub(crate) fn inverse<P: FpConfig<N>, const N: usize>(x: &[u64; N]) -> Option<[u64; N]> {
    debug_assert!(!crate::limbs::is_zero(x) && !crate::limbs::geq(x, &P::MODULUS));
    Some(match N {
        1 => inverse_s62::<P, N, 2>(x),
        2 => inverse_s62::<P, N, 3>(x),
        3 => inverse_s62::<P, N, 4>(x),
        4 => inverse_s62::<P, N, 5>(x),
        5 => inverse_s62::<P, N, 6>(x),
        6 => inverse_s62::<P, N, 7>(x),
        7 => inverse_s62::<P, N, 8>(x),
        8 => inverse_s62::<P, N, 9>(x),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s62_round_trip() {
        let x = [0x0123_4567_89ab_cdef, u64::MAX, 0x8000_0000_0000_0001, 1, u64::MAX >> 1, 0xdead_beef];
        let s: [i64; 7] = to_s62(&x);
        assert!(s.iter().all(|&l| (0..1i64 << 62).contains(&l)));
        assert_eq!(from_s62::<6, 7>(&s), x);
        let y = [u64::MAX; 4];
        assert_eq!(from_s62::<4, 5>(&to_s62(&y)), y);
    }

    #[test]
    fn divsteps_matrix_is_bounded_and_exact() {
        // 2^62 [f'; g'] = T [f; g] must hold on the low words; |u|+|v|, |q|+|r| <= 2^62.
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..10_000 {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let f = s | 1;
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let g = s;
            let (_, t) = divsteps_62_var(-1, f, g);
            assert!(t.u.unsigned_abs() + t.v.unsigned_abs() <= 1 << 62);
            assert!(t.q.unsigned_abs() + t.r.unsigned_abs() <= 1 << 62);
            let nf = (t.u as i128 * f as i128 + t.v as i128 * g as i128) as u64;
            let ng = (t.q as i128 * f as i128 + t.r as i128 * g as i128) as u64;
            assert_eq!(nf & M62, 0);
            assert_eq!(ng & M62, 0);
        }
    }
}
