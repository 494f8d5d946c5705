//! Reference vectors for the batched-affine adder `zk_dp_aff` (docs/RTL.md,
//! "Batched-affine adder"), on any short-Weierstrass curve of the host
//! library (BLS12-381 and BLS12-377 in `rtl/test.sh`).
//!
//! Every expected value is `Affine::add_reference` (the curve crate's
//! chord-and-tangent reference with every special case); a test checks the
//! vectors again through the extended-Jacobian arithmetic. Coordinates are
//! written as the host stores them: Montgomery form with R = 2^384,
//! canonical; the point at infinity as `1` and two zero coordinates.

use crate::{hex, Raw};
use rand::Rng;
use std::io::{self, Write};
use zkmsm_curve::{Affine, SwCurve};
use zkmsm_field::{Field, PrimeField};

/// One independent operation: `out = bucket + point` (`sub`: `bucket - point`).
#[derive(Clone, Debug)]
pub struct AffVector<C: SwCurve<Base: PrimeField>> {
    /// Subtract the point instead of adding it.
    pub sub: bool,
    /// The tag the adder carries alongside.
    pub tag: u32,
    /// The bucket operand (possibly the point at infinity).
    pub bucket: Affine<C>,
    /// The point operand (never infinity: the adder's point port has no flag).
    pub point: Affine<C>,
    /// The host's result.
    pub out: Affine<C>,
}

/// The Montgomery words of a coordinate (fields of at most 384 bits).
pub fn raw<F: PrimeField>(f: &F) -> Raw {
    assert!(F::NUM_BYTES <= 48, "the RTL vectors hold fields of at most 384 bits");
    let mut w = [0u64; 6];
    f.write_montgomery_words(&mut w);
    w
}

/// The result of the adder's operation, by the reference addition.
pub fn reference<C: SwCurve<Base: PrimeField>>(bucket: &Affine<C>, point: &Affine<C>, sub: bool) -> Affine<C> {
    bucket.add_reference(&if sub { point.neg() } else { *point })
}

/// The point (x, 0) on `C` if it exists among a few candidates: a 2-torsion
/// point (BLS12-377: (-1, 0)), not in the prime-order subgroup but on the
/// curve, where doubling gives infinity.
pub fn two_torsion<C: SwCurve<Base: PrimeField>>() -> Option<Affine<C>> {
    let minus_one = C::Base::ZERO - C::Base::ONE;
    [minus_one, C::Base::ONE, C::Base::ZERO]
        .into_iter()
        .map(|x| Affine::<C>::new_unchecked(x, C::Base::ZERO))
        .find(|p| p.is_on_curve())
}

/// `count` random operations after the fixed edge cases: empty buckets,
/// doublings (P + P and P - (-P)), cancellations (P - P, P + (-P)), the
/// 2-torsion point where the curve has one; the random part repeats the
/// special cases every few operations so that they fall inside batches.
pub fn aff_vectors<C: SwCurve<Base: PrimeField>, R: Rng + ?Sized>(rng: &mut R, count: usize) -> Vec<AffVector<C>> {
    let pool: Vec<Affine<C>> = (0..8).map(|_| Affine::<C>::random_in_subgroup(rng)).collect();
    let mut out = Vec::new();
    let mut push = |rng: &mut R, bucket: Affine<C>, point: Affine<C>, sub: bool| {
        let out_p = reference(&bucket, &point, sub);
        out.push(AffVector { sub, tag: rng.gen(), bucket, point, out: out_p });
    };
    let (p, q) = (pool[0], pool[1]);
    let inf = Affine::<C>::identity();
    for sub in [false, true] {
        push(rng, inf, p, sub); // empty bucket
        push(rng, p, if sub { p.neg() } else { p }, sub); // doubling
        push(rng, p, if sub { p } else { p.neg() }, sub); // cancellation
        push(rng, p, q, sub); // chord
        push(rng, p.neg(), p, sub);
    }
    if let Some(t) = two_torsion::<C>() {
        for sub in [false, true] {
            push(rng, t, t, sub); // 2T = T - T = infinity
            push(rng, t, p, sub);
            push(rng, p, t, sub);
            push(rng, inf, t, sub);
        }
    }
    let mut acc = pool[2];
    for i in 0..count {
        acc = acc.add_reference(&pool[rng.gen_range(0..pool.len())]);
        let sub = rng.gen_bool(0.5);
        let (bucket, point) = match i % 8 {
            0 => (acc, if sub { acc.neg() } else { acc }),
            1 => (acc, if sub { acc } else { acc.neg() }),
            2 => (inf, acc),
            3 => (acc, pool[rng.gen_range(0..pool.len())]),
            _ => (acc, acc.add_reference(&pool[rng.gen_range(0..pool.len())])),
        };
        let point = if point.is_identity() { pool[3] } else { point };
        push(rng, bucket, point, sub);
    }
    out
}

/// Bucket accumulation: `ops` in order per bucket (bucket index, subtract,
/// point) and the final value of every bucket. The points repeat the
/// bucket's current value often (doublings, cancellations to infinity that
/// later operations build on), the rest come from a small pool (with the
/// 2-torsion point where the curve has one).
pub struct AccCase<C: SwCurve<Base: PrimeField>> {
    /// (bucket, subtract, point), in order for each bucket.
    pub ops: Vec<(usize, bool, Affine<C>)>,
    /// The buckets after all the operations (starting from infinity).
    pub finals: Vec<Affine<C>>,
}

/// `buckets` buckets of `per_bucket` operations each.
pub fn aff_acc_case<C: SwCurve<Base: PrimeField>, R: Rng + ?Sized>(
    rng: &mut R,
    buckets: usize,
    per_bucket: usize,
) -> AccCase<C> {
    let mut pool: Vec<Affine<C>> = (0..6).map(|_| Affine::<C>::random_in_subgroup(rng)).collect();
    if let Some(t) = two_torsion::<C>() {
        pool.push(t);
    }
    let mut ops = Vec::with_capacity(buckets * per_bucket);
    let mut finals = Vec::with_capacity(buckets);
    for b in 0..buckets {
        let mut s = Affine::<C>::identity();
        for _ in 0..per_bucket {
            let r = rng.gen_range(0..10);
            let (sub, point) = if s.is_identity() || r >= 5 {
                (rng.gen_bool(0.5), pool[rng.gen_range(0..pool.len())])
            } else {
                match r {
                    0 => (false, s),       // doubling
                    1 => (true, s.neg()),  // doubling
                    2 => (true, s),        // to infinity
                    3 => (false, s.neg()), // to infinity
                    _ => (rng.gen_bool(0.5), s.add_reference(&pool[0])),
                }
            };
            // the point port has no infinity (s + pool[0] can be it)
            let point = if point.is_identity() { pool[1] } else { point };
            s = reference(&s, &point, sub);
            ops.push((b, sub, point));
        }
        finals.push(s);
    }
    AccCase { ops, finals }
}

fn coords<C: SwCurve<Base: PrimeField>>(p: &Affine<C>) -> (u8, Raw, Raw) {
    if p.is_identity() {
        (1, [0; 6], [0; 6])
    } else {
        (0, raw(&p.x), raw(&p.y))
    }
}

/// "sub tag binf bx by px py oinf ox oy" per operation; an empty bucket's
/// coordinates are random (the adder must ignore them).
pub fn write_stream<C: SwCurve<Base: PrimeField>, R: Rng + ?Sized, W: Write>(
    rng: &mut R,
    w: &mut W,
    vs: &[AffVector<C>],
) -> io::Result<()> {
    for v in vs {
        assert!(!v.point.is_identity(), "the adder's point operand cannot be infinity");
        let (binf, mut bx, mut by) = coords(&v.bucket);
        if binf == 1 {
            bx = raw(&C::Base::random(rng));
            by = raw(&C::Base::random(rng));
        }
        let (_, px, py) = coords(&v.point);
        let (oinf, ox, oy) = coords(&v.out);
        writeln!(
            w,
            "{} {:08x} {binf} {} {} {} {} {oinf} {} {}",
            v.sub as u8,
            v.tag,
            hex(&bx),
            hex(&by),
            hex(&px),
            hex(&py),
            hex(&ox),
            hex(&oy)
        )?;
    }
    Ok(())
}

/// "op b sub px py" per operation, then "fin b inf x y" per bucket.
pub fn write_acc<C: SwCurve<Base: PrimeField>, W: Write>(w: &mut W, case: &AccCase<C>) -> io::Result<()> {
    for (b, sub, p) in &case.ops {
        assert!(!p.is_identity(), "the adder's point operand cannot be infinity");
        let (_, px, py) = coords(p);
        writeln!(w, "op {b} {} {} {}", *sub as u8, hex(&px), hex(&py))?;
    }
    for (b, p) in case.finals.iter().enumerate() {
        let (inf, x, y) = coords(p);
        writeln!(w, "fin {b} {inf} {} {}", hex(&x), hex(&y))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use zkmsm_curve::{Bls12_377, Bls12_381, Xyzz};

    // the reference again, through the extended-Jacobian formulas
    fn check<C: SwCurve<Base: PrimeField>>(vs: &[AffVector<C>]) {
        for (i, v) in vs.iter().enumerate() {
            let b = Xyzz::from_affine(&v.bucket);
            let s = if v.sub { b.sub_affine(&v.point) } else { b.add_affine(&v.point) };
            assert_eq!(s.to_affine(), v.out, "vector {i}");
            assert!(v.out.is_on_curve() && v.bucket.is_on_curve() && v.point.is_on_curve(), "vector {i}");
        }
    }

    #[test]
    fn stream_vectors_are_point_additions() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        check(&aff_vectors::<Bls12_381, _>(&mut rng, 40));
        check(&aff_vectors::<Bls12_377, _>(&mut rng, 40));
    }

    #[test]
    fn edge_cases_are_present() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let vs = aff_vectors::<Bls12_377, _>(&mut rng, 16);
        assert!(vs.iter().any(|v| v.bucket.is_identity()));
        assert!(vs.iter().any(|v| v.out.is_identity() && !v.bucket.is_identity()));
        assert!(vs.iter().any(|v| !v.bucket.is_identity() && v.bucket.x == v.point.x && !v.out.is_identity()));
        assert!(vs.iter().any(|v| v.point.y.is_zero())); // the 2-torsion point
        let vs = aff_vectors::<Bls12_381, _>(&mut rng, 16);
        assert!(!vs.iter().any(|v| v.point.y.is_zero()));
        assert!(two_torsion::<Bls12_377>().is_some());
        assert!(two_torsion::<Bls12_381>().is_none());
    }

    #[test]
    fn acc_case_sums_buckets() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let case = aff_acc_case::<Bls12_381, _>(&mut rng, 8, 12);
        for (b, fin) in case.finals.iter().enumerate() {
            let mut s = Xyzz::<Bls12_381>::identity();
            for (_, sub, p) in case.ops.iter().filter(|o| o.0 == b) {
                s = if *sub { s.sub_affine(p) } else { s.add_affine(p) };
            }
            assert_eq!(s.to_affine(), *fin, "bucket {b}");
        }
        assert!(case.ops.iter().all(|o| !o.2.is_identity()));
        // infinity is reached and built on
        let mut reached = false;
        for b in 0..8 {
            let mut s = Affine::<Bls12_381>::identity();
            for (i, (_, sub, p)) in case.ops.iter().filter(|o| o.0 == b).enumerate() {
                s = reference(&s, p, *sub);
                reached |= s.is_identity() && i + 1 < 12;
            }
        }
        assert!(reached);
    }
}
