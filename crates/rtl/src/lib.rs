//! RTL support for zkmsm: the host side of the accelerator in `rtl/`
//! (docs/RTL.md).
//!
//! * [`machine`]: the core as the host sees it (window choice, the narrow
//!   last window's spreading, the cycle model configured like the core);
//! * [`aff`]: vectors for the batched-affine adder (any curve);
//! * [`mod@format`]: points and buckets as the core reads and writes them;
//! * [`params`]: the RTL's parameter file and the C++ header made from it;
//! * [`msm_file`]: whole MSMs as files, for the Yosys netlist of the core;
//! * `sim`, `backend` (feature `verilated`, needs Verilator): the Verilated
//!   accelerator and the `rtl` backend on it;
//! * reference vectors for the datapath test benches (below).
//!
//! The datapath test benches check against vectors this crate writes: every
//! expected value comes from `zkmsm_field` / `zkmsm_curve`, never from a
//! second hand-written model. The `zkmsm-vectors` binary writes them as hex
//! lines (one operation per line, 384-bit values as 96 hex digits, most
//! significant first, Montgomery form with R = 2^384 exactly as the host
//! library stores them).

// Every public item is documented (checked by clippy -D warnings and cargo doc in CI).
#![warn(missing_docs)]

pub mod aff;
pub mod aggregate;
pub mod format;
pub mod machine;
pub mod msm_file;
pub mod params;

#[cfg(feature = "verilated")]
pub mod backend;
#[cfg(feature = "verilated")]
pub mod sim;

use rand::Rng;
use zkmsm_curve::te::{TeAffine, TeExtended, TePrecomputed};
use zkmsm_curve::{Affine, Bls12_377};
use zkmsm_field::{limbs, Bls12_377Fq as Fq, Field};

/// Raw 384-bit value, little-endian 64-bit limbs.
pub type Raw = [u64; 6];

/// The modulus q of the BLS12-377 base field.
pub const Q: Raw = Fq::MODULUS;

/// Upper bound (exclusive) of the multiplier's redundant input range: 12q.
pub fn mul_in_bound() -> Raw {
    mul_small(&Q, 12)
}

/// v * k for a small k (no overflow expected).
pub fn mul_small(v: &Raw, k: u64) -> Raw {
    let mut acc = [0u64; 6];
    for _ in 0..k {
        let (s, c) = limbs::add(&acc, v);
        assert_eq!(c, 0, "overflow");
        acc = s;
    }
    acc
}

/// v mod q for v < 2^384 by repeated subtraction (v is at most a few q here).
pub fn reduce(v: &Raw) -> Raw {
    let mut x = *v;
    while limbs::geq(&x, &Q) {
        x = limbs::sub(&x, &Q).0;
    }
    x
}

/// 96 hex digits, most significant first (the vector files' format).
pub fn hex(v: &Raw) -> String {
    v.iter().rev().map(|l| format!("{l:016x}")).collect()
}

/// The inverse of [`hex`]; panics unless `s` is 96 hex digits (vector files are written by this
/// crate).
pub fn parse_hex(s: &str) -> Raw {
    assert_eq!(s.len(), 96);
    let mut v = [0u64; 6];
    for (i, l) in v.iter_mut().enumerate() {
        let a = 96 - 16 * (i + 1);
        *l = u64::from_str_radix(&s[a..a + 16], 16).expect("hex");
    }
    v
}

/// The multiplier's function: a * b / 2^384 mod q (canonical), for any raw
/// Montgomery-form inputs (redundant: only their residues matter).
pub fn mont_mul_ref(a: &Raw, b: &Raw) -> Raw {
    let fa = Fq::from_mont_limbs(reduce(a));
    let fb = Fq::from_mont_limbs(reduce(b));
    *(fa * fb).mont_limbs()
}

/// Uniform raw value below `bound`.
pub fn random_below<R: Rng + ?Sized>(rng: &mut R, bound: &Raw) -> Raw {
    let bits = limbs::num_bits(bound);
    loop {
        let mut v = [0u64; 6];
        for (i, l) in v.iter_mut().enumerate() {
            let lo = 64 * i as u32;
            if lo >= bits {
                break;
            }
            *l = rng.gen();
            if bits - lo < 64 {
                *l &= (1u64 << (bits - lo)) - 1;
            }
        }
        if !limbs::geq(&v, bound) {
            return v;
        }
    }
}

fn small(v: u64) -> Raw {
    [v, 0, 0, 0, 0, 0]
}

/// Edge values of the multiplier's input range [0, 12q).
pub fn mul_edge_values() -> Vec<Raw> {
    let b = mul_in_bound();
    let one = small(1);
    let mut v = vec![
        small(0),
        one,
        small(2),
        limbs::sub(&Q, &one).0,
        Q,
        limbs::add(&Q, &one).0,
        limbs::sub(&mul_small(&Q, 2), &one).0,
        mul_small(&Q, 2),
        limbs::sub(&mul_small(&Q, 6), &one).0,
        mul_small(&Q, 11),
        limbs::sub(&b, &one).0,
        limbs::sub(&b, &small(2)).0,
        *Fq::ONE.mont_limbs(),
        *(-Fq::ONE).mont_limbs(),
    ];
    // powers of two and all-ones patterns inside the range
    let mut p380 = [0u64; 6];
    p380[5] = 1u64 << 60; // 2^380 < 12q
    v.push(p380);
    let mut ones = [u64::MAX; 6];
    ones[5] = (1u64 << 57) - 1; // 2^377 - 1 (> q)
    v.push(ones);
    v
}

/// One multiplier vector: (a, b, expected canonical c).
pub fn mul_vectors<R: Rng + ?Sized>(rng: &mut R, random: usize) -> Vec<(Raw, Raw, Raw)> {
    let edges = mul_edge_values();
    let bound = mul_in_bound();
    let mut out = Vec::new();
    for a in &edges {
        for b in &edges {
            out.push((*a, *b, mont_mul_ref(a, b)));
        }
    }
    for i in 0..random {
        let (a, b) = match i % 4 {
            // canonical field elements from the library
            0 | 1 => (*Fq::random(rng).mont_limbs(), *Fq::random(rng).mont_limbs()),
            // anywhere in the redundant range
            2 => (random_below(rng, &bound), random_below(rng, &bound)),
            // an edge value against a random one
            _ => (edges[rng.gen_range(0..edges.len())], random_below(rng, &bound)),
        };
        out.push((a, b, mont_mul_ref(&a, &b)));
    }
    out
}

/// Add/sub vectors on canonical inputs: (a, b, a + b mod q, a - b mod q).
pub fn addsub_vectors<R: Rng + ?Sized>(rng: &mut R, random: usize) -> Vec<(Raw, Raw, Raw, Raw)> {
    let one = small(1);
    let edges = [small(0), one, small(2), limbs::sub(&Q, &one).0, limbs::sub(&Q, &small(2)).0, limbs::shr(&Q, 1)];
    let mut pairs = Vec::new();
    for a in &edges {
        for b in &edges {
            pairs.push((*a, *b));
        }
    }
    for _ in 0..random {
        pairs.push((*Fq::random(rng).mont_limbs(), *Fq::random(rng).mont_limbs()));
    }
    pairs
        .into_iter()
        .map(|(a, b)| {
            let (fa, fb) = (Fq::from_mont_limbs(a), Fq::from_mont_limbs(b));
            (a, b, *(fa + fb).mont_limbs(), *(fa - fb).mont_limbs())
        })
        .collect()
}

/// Which case a point-adder vector exercises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaddCase {
    /// P1 a running sum, P2 a random subgroup point.
    Random,
    /// P1 = P2 as points (add P2, or subtract -P2): the adder must double.
    Double,
    /// P1 = P2, subtract P2 (or add -P2): the result is the identity.
    Cancel,
    /// P1 the identity.
    IdentityLhs,
    /// P2 the identity.
    IdentityRhs,
}

/// One point-adder vector.
#[derive(Clone, Debug)]
pub struct PaddVector {
    /// Which case this vector exercises.
    pub case: PaddCase,
    /// Subtract P2 (else add).
    pub sub: bool,
    /// A random tag the adder carries through its pipeline unchanged.
    pub tag: u32,
    /// X1, Y1, Z1, T1 as fed to the RTL (each < 2q, sometimes redundant).
    pub p1: [Raw; 4],
    /// y2 - x2, y2 + x2, k x2 y2 (canonical).
    pub p2: [Raw; 3],
    /// Expected X3, Y3, Z3, T3 (canonical), from the library's formula.
    pub out: [Raw; 4],
}

fn ext_raw(p: &TeExtended) -> [Raw; 4] {
    [*p.x.mont_limbs(), *p.y.mont_limbs(), *p.z.mont_limbs(), *p.t.mont_limbs()]
}

/// Lift some coordinates into the redundant range [q, 2q) (same residues).
fn redundant<R: Rng + ?Sized>(rng: &mut R, v: [Raw; 4]) -> [Raw; 4] {
    v.map(|c| if rng.gen_bool(0.25) { limbs::add(&c, &Q).0 } else { c })
}

/// A random projective representative of p: (rX : rY : rZ : rT).
fn rescale<R: Rng + ?Sized>(rng: &mut R, p: &TeExtended) -> TeExtended {
    let r = loop {
        let r = Fq::random(rng);
        if !r.is_zero() {
            break r;
        }
    };
    TeExtended { x: p.x * r, y: p.y * r, z: p.z * r, t: p.t * r }
}

/// Point-adder vectors: random sums, P+P, P-P, identity on either side, with
/// signed (add/sub) control and random tags. `base` random subgroup points
/// come from the curve crate; further points are sums of them.
pub fn padd_vectors<R: Rng + ?Sized>(rng: &mut R, count: usize, base: usize) -> Vec<PaddVector> {
    let pts: Vec<TeAffine> = (0..base.max(2))
        .map(|_| {
            let w = Affine::<Bls12_377>::random_in_subgroup(rng);
            TeAffine::from_weierstrass(&w).expect("subgroup points map to TE")
        })
        .collect();
    // a running accumulator gives many distinct points cheaply
    let mut acc = TeExtended::from_affine(&pts[0]);
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let case = match i % 10 {
            0 => PaddCase::Double,
            1 => PaddCase::Cancel,
            2 => PaddCase::IdentityLhs,
            3 => PaddCase::IdentityRhs,
            _ => PaddCase::Random,
        };
        let q2 = pts[rng.gen_range(0..pts.len())];
        acc = acc.add_precomputed(&q2.precompute());
        let mut sub = rng.gen_bool(0.5);
        let (p1, pre): (TeExtended, TePrecomputed) = match case {
            PaddCase::Random => (rescale(rng, &acc), q2.precompute()),
            PaddCase::Double => {
                // P1 = P2 (as a point); add P2, or subtract -P2
                let a = acc.to_affine();
                let pre = if sub { a.neg().precompute() } else { a.precompute() };
                (rescale(rng, &acc), pre)
            }
            PaddCase::Cancel => {
                // P1 = P2, subtract P2; or add -P2
                let a = acc.to_affine();
                let pre = if sub { a.precompute() } else { a.neg().precompute() };
                (rescale(rng, &acc), pre)
            }
            PaddCase::IdentityLhs => (rescale(rng, &TeExtended::identity()), q2.precompute()),
            PaddCase::IdentityRhs => {
                sub = rng.gen_bool(0.5);
                (rescale(rng, &acc), TeAffine::identity().precompute())
            }
        };
        let r = if sub { p1.sub_precomputed(&pre) } else { p1.add_precomputed(&pre) };
        out.push(PaddVector {
            case,
            sub,
            tag: rng.gen(),
            p1: redundant(rng, ext_raw(&p1)),
            p2: [*pre.y_minus_x.mont_limbs(), *pre.y_plus_x.mont_limbs(), *pre.kxy.mont_limbs()],
            out: ext_raw(&r),
        });
    }
    out
}

/// Check a point-adder vector semantically (not just the formula): the
/// result is P1 +/- P2 as points, compared in affine Weierstrass coordinates
/// through the curve crate's reference addition.
pub fn padd_semantic_check(v: &PaddVector) -> bool {
    let f = |r: &Raw| Fq::from_mont_limbs(reduce(r));
    let p1 = TeExtended { x: f(&v.p1[0]), y: f(&v.p1[1]), z: f(&v.p1[2]), t: f(&v.p1[3]) };
    let out = TeExtended { x: f(&v.out[0]), y: f(&v.out[1]), z: f(&v.out[2]), t: f(&v.out[3]) };
    // recover P2 affine from (y-x, y+x): y = (s+d)/2, x = (s-d)/2
    let (d, s) = (f(&v.p2[0]), f(&v.p2[1]));
    let half = Fq::from_u64(2).inverse().unwrap();
    let p2 = TeAffine { x: (s - d) * half, y: (s + d) * half };
    let p2 = if v.sub { p2.neg() } else { p2 };
    let w1 = p1.to_affine().to_weierstrass().expect("w1");
    let w2 = p2.to_weierstrass().expect("w2");
    let w3 = out.to_affine().to_weierstrass().expect("w3");
    w1.add_reference(&w2) == w3 && out.x * out.y == out.t * out.z
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn hex_roundtrip() {
        let v = mul_in_bound();
        assert_eq!(parse_hex(&hex(&v)), v);
    }

    #[test]
    fn mul_range_contract() {
        // (12q)^2 < 2^384 q: the RTL's output bound c < a*b/R + q < 2q.
        let b = mul_in_bound();
        assert!(limbs::num_bits(&b) <= 381);
    }

    #[test]
    fn padd_vectors_are_point_additions() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for v in padd_vectors(&mut rng, 60, 4) {
            assert!(padd_semantic_check(&v), "{:?}", v.case);
        }
    }
}
