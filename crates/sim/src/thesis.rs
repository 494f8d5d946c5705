//! Baseline: the UCSC thesis architecture (Masterson 2022) on its toy curve
//! `y^2 = x^3 + 7` over F_17, against the bucket architecture on the same
//! inputs.
//!
//! Thesis architecture, as its Chapter 3 describes it:
//! * modular inverse: a counter `n` from 0, one candidate per cycle, until
//!   `a * n = 1 mod p` (so `n + 1` cycles);
//! * point addition (affine): one cycle to latch, the inverse, one cycle to
//!   produce the result; the special cases (an operand at infinity, `P + -P`)
//!   finish in one cycle;
//! * point multiplication `s * P`: one load cycle, then `s - 1` repeated
//!   additions of `P` onto the running total (`s <= 1`, `P = O`: one cycle);
//! * reduction of k points: one load cycle, then `k - 1` additions on one
//!   adder;
//! * top level: `requestsize = k` multipliers work on k (point, scalar)
//!   pairs, then the single reducer sums their k results; the host streams
//!   the next k pairs afterwards (no overlap, ideal data flow).
//!
//! Assumption (the thesis does not give its workloads' scalars): scalars are
//! uniform in `[0, 18)`, 18 being the order of the curve group.

use crate::datapath::SimGroup;
use crate::rng::SplitMix64;

/// The base field's prime.
pub const P: u32 = 17;
/// The curve's b: y^2 = x^3 + 7.
pub const B: u32 = 7;
/// Order of E(F_17) for y^2 = x^3 + 7 (17 affine points + infinity).
pub const ORDER: u64 = 18;

/// The toy curve; a point is `None` (infinity) or `Some((x, y))`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Toy;

/// A toy point: `None` is infinity.
pub type ToyPoint = Option<(u32, u32)>;

fn inv(a: u32) -> u32 {
    // Fermat: a^(p-2).
    let mut r = 1u32;
    let mut b = a % P;
    let mut e = P - 2;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % P;
        }
        b = b * b % P;
        e >>= 1;
    }
    r
}

impl SimGroup for Toy {
    type P = ToyPoint;
    fn identity(&self) -> ToyPoint {
        None
    }
    fn neg(&self, a: &ToyPoint) -> ToyPoint {
        a.map(|(x, y)| (x, (P - y) % P))
    }
    fn add(&self, a: &ToyPoint, b: &ToyPoint) -> ToyPoint {
        let (Some((x1, y1)), Some((x2, y2))) = (*a, *b) else {
            return a.or(*b);
        };
        if x1 == x2 && (y1 + y2) % P == 0 {
            return None;
        }
        let lambda = if x1 == x2 {
            3 * x1 * x1 % P * inv(2 * y1 % P) % P
        } else {
            (y2 + P - y1) % P * inv((x2 + P - x1) % P) % P
        };
        let x3 = (lambda * lambda + 2 * P - x1 - x2) % P;
        let y3 = (lambda * ((x1 + P - x3) % P) % P + P - y1) % P;
        Some((x3, y3))
    }
}

impl Toy {
    /// The 17 affine points.
    pub fn points() -> Vec<ToyPoint> {
        let mut v = Vec::new();
        for x in 0..P {
            for y in 0..P {
                if (y * y) % P == (x * x % P * x + B) % P {
                    v.push(Some((x, y)));
                }
            }
        }
        v
    }

    /// `s * p` by double-and-add.
    pub fn mul(&self, s: u64, p: &ToyPoint) -> ToyPoint {
        let mut acc = None;
        for _ in 0..s % ORDER {
            acc = self.add(&acc, p);
        }
        acc
    }
}

/// Cycles of the thesis' brute-force inverse of `a` (a != 0).
pub fn inverse_cycles(a: u32) -> u64 {
    inv(a) as u64 + 1
}

/// Cycles of one thesis PAdd (`p1` is the running total, `p2` the addend).
pub fn padd_cycles(p1: &ToyPoint, p2: &ToyPoint) -> u64 {
    match (*p1, *p2) {
        (None, _) | (_, None) => 1,
        (Some((x1, y1)), Some((x2, y2))) => {
            if x1 == x2 && (y1 + y2) % P == 0 {
                1
            } else if x1 == x2 {
                1 + inverse_cycles(2 * y1 % P) + 1
            } else {
                1 + inverse_cycles((x2 + P - x1) % P) + 1
            }
        }
    }
}

/// Cycles and result of one thesis PMult.
pub fn pmult(s: u64, p: &ToyPoint) -> (u64, ToyPoint) {
    let g = Toy;
    if s == 0 || p.is_none() {
        return (2, None);
    }
    let mut cycles = 1;
    let mut acc = *p;
    for _ in 1..s {
        cycles += padd_cycles(p, &acc);
        acc = g.add(p, &acc);
    }
    (cycles.max(2), acc)
}

/// Cycles and result of the thesis' MSM with `k` multipliers.
pub fn thesis_msm(k: usize, points: &[ToyPoint], scalars: &[u64]) -> (u64, ToyPoint) {
    let g = Toy;
    let mut total_cycles = 0u64;
    let mut result = None;
    for (pc, sc) in points.chunks(k.max(1)).zip(scalars.chunks(k.max(1))) {
        let mut worst = 0u64;
        let mut products = Vec::with_capacity(pc.len());
        for (p, &s) in pc.iter().zip(sc) {
            let (cy, r) = pmult(s, p);
            worst = worst.max(cy);
            products.push(r);
        }
        // Reduction: one load cycle plus len - 1 additions.
        let mut red = 1u64;
        let mut acc = products[0];
        for q in &products[1..] {
            red += padd_cycles(&acc, q);
            acc = g.add(&acc, q);
        }
        total_cycles += worst + red;
        // The host accumulates the batch results.
        result = g.add(&result, &acc);
    }
    (total_cycles, result)
}

/// The thesis workload shape: `n` uniformly chosen points and scalars.
pub fn workload(n: usize, seed: u64) -> (Vec<ToyPoint>, Vec<u64>) {
    let pts = Toy::points();
    let mut r = SplitMix64::new(seed);
    let points = (0..n).map(|_| pts[r.below(pts.len() as u64) as usize]).collect();
    let scalars = (0..n).map(|_| r.below(ORDER)).collect();
    (points, scalars)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toy_group_laws() {
        let g = Toy;
        let pts = Toy::points();
        assert_eq!(pts.len() as u64 + 1, ORDER);
        for p in &pts {
            assert_eq!(g.mul(ORDER, p), None);
            assert_eq!(g.add(p, &g.neg(p)), None);
            for q in &pts {
                assert_eq!(g.add(p, q), g.add(q, p));
                for r in pts.iter().step_by(5) {
                    assert_eq!(g.add(&g.add(p, q), r), g.add(p, &g.add(q, r)));
                }
            }
        }
    }

    #[test]
    fn thesis_result_is_the_msm() {
        let (pts, sc) = workload(500, 9);
        let g = Toy;
        let want = pts.iter().zip(&sc).fold(None, |acc, (p, &s)| g.add(&acc, &g.mul(s, p)));
        for k in [1usize, 2, 7, 24] {
            assert_eq!(thesis_msm(k, &pts, &sc).1, want, "k={k}");
        }
        // More multipliers never take more cycles on this workload... up to
        // the reducer's growing share; 2 -> 16 must be a real improvement.
        let c2 = thesis_msm(2, &pts, &sc).0;
        let c16 = thesis_msm(16, &pts, &sc).0;
        assert!(c16 < c2, "{c16} {c2}");
    }
}
