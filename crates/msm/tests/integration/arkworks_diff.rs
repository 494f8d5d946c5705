//! Differential tests of the whole pipeline against arkworks' VariableBaseMSM,
//! on every curve: 1,000 random cases over sizes 0..=4096 and every
//! adversarial input we know of.

use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::PrimeField as _;
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zkmsm::gen::{random_points, random_scalars};
use zkmsm::reference::naive_msm;
use zkmsm::*;
use zkmsm_curve::PointFormat;
use zkmsm_field::{Field, PrimeField as _};

/// The arkworks side of one curve.
trait Ark: EngineCurve {
    type G: CurveGroup<ScalarField = Self::Fr, Affine = Self::A> + VariableBaseMSM;
    type A: ark_ec::AffineRepr<ScalarField = Self::Fr> + CanonicalSerialize + CanonicalDeserialize;
    type Fr: ark_ff::PrimeField;
    /// Backends only this curve has.
    fn curve_specific(
        _points: &[Affine<Self>],
        _scalars: &[ScalarLimbs],
        _window: Option<u32>,
        _glv: GlvMode,
    ) -> Vec<(String, Affine<Self>)> {
        vec![]
    }
}
impl Ark for Bls12_377 {
    type G = ark_bls12_377::G1Projective;
    type A = ark_bls12_377::G1Affine;
    type Fr = ark_bls12_377::Fr;
    fn curve_specific(
        points: &[Affine<Self>],
        scalars: &[ScalarLimbs],
        window: Option<u32>,
        glv: GlvMode,
    ) -> Vec<(String, Affine<Self>)> {
        vec![("twisted-edwards".into(), ours_with(TwistedEdwardsBackend, points, scalars, window, glv))]
    }
}
impl Ark for Bls12_381 {
    type G = ark_bls12_381::G1Projective;
    type A = ark_bls12_381::G1Affine;
    type Fr = ark_bls12_381::Fr;
}
impl Ark for Bn254 {
    type G = ark_bn254::G1Projective;
    type A = ark_bn254::G1Affine;
    type Fr = ark_bn254::Fr;
}
impl Ark for Bls12_377G2 {
    type G = ark_bls12_377::G2Projective;
    type A = ark_bls12_377::G2Affine;
    type Fr = ark_bls12_377::Fr;
}
impl Ark for Bls12_381G2 {
    type G = ark_bls12_381::G2Projective;
    type A = ark_bls12_381::G2Affine;
    type Fr = ark_bls12_381::Fr;
}
impl Ark for Bn254G2 {
    type G = ark_bn254::G2Projective;
    type A = ark_bn254::G2Affine;
    type Fr = ark_bn254::Fr;
}

/// Through the canonical encodings, which are checked equal to arkworks' own in the curve crate.
fn to_ark<C: Ark>(p: &Affine<C>) -> C::A {
    C::A::deserialize_uncompressed_unchecked(&p.to_bytes(PointFormat::Uncompressed)[..]).unwrap()
}

fn from_ark<C: Ark>(p: &C::A) -> Affine<C> {
    let mut b = Vec::new();
    p.serialize_uncompressed(&mut b).unwrap();
    Affine::from_bytes(&b, PointFormat::Uncompressed).unwrap()
}

fn ark_scalar<C: Ark>(s: &ScalarLimbs) -> C::Fr {
    C::Fr::from_le_bytes_mod_order(&s.iter().flat_map(|l| l.to_le_bytes()).collect::<Vec<_>>())
}

fn ark_msm<C: Ark>(points: &[Affine<C>], scalars: &[ScalarLimbs]) -> Affine<C> {
    let a: Vec<C::A> = points.iter().map(to_ark::<C>).collect();
    let s: Vec<C::Fr> = scalars.iter().map(ark_scalar::<C>).collect();
    from_ark::<C>(&C::G::msm(&a, &s).unwrap().into_affine())
}

/// Our MSM of points already known valid, with the planner's or a forced window.
fn ours_with<C: Ark, B: Backend<C>>(
    backend: B,
    points: &[Affine<C>],
    scalars: &[ScalarLimbs],
    window: Option<u32>,
    glv: GlvMode,
) -> Affine<C> {
    let builder = MsmBuilder::new().validation(Validation::OnCurveOnly).window(window).glv(glv);
    let ctx = builder.build_context(backend, points).unwrap();
    assert!(glv != GlvMode::On || ctx.glv(), "GLV on runs GLV");
    assert!(glv != GlvMode::Off || !ctx.glv(), "GLV off does not");
    ctx.msm_bigint(scalars).unwrap()
}

fn batch_affine<S: Scheduler>(s: S, batch: Option<usize>) -> BatchAffineBackend<S> {
    let mut b = BatchAffineBackend::new(s);
    b.batch_size = batch;
    b
}

/// Every backend and scheduler configuration; `which` picks one of the
/// configurations with realistic batch sizes (or all, tiny batches included, with None).
fn ours_all<C: Ark>(
    points: &[Affine<C>],
    scalars: &[ScalarLimbs],
    window: Option<u32>,
    which: Option<usize>,
    glv: GlvMode,
) -> Vec<(String, Affine<C>)> {
    let mut out = Vec::new();
    // Where the CPU has AVX-512 IFMA, batch-affine runs it by default:
    // 1, 3 and 5 use it, 2, 4 and 6 force the portable arithmetic.
    let pick = |i: usize| which.is_none_or(|w| [0, 1, 2, 5, 6][w % 5] == i);
    if pick(0) {
        out.push(("xyzz".into(), ours_with(XyzzBackend, points, scalars, window, glv)));
    }
    if pick(1) {
        out.push((
            "greedy".into(),
            ours_with(batch_affine(GreedyScheduler::default(), None), points, scalars, window, glv),
        ));
    }
    if pick(2) {
        out.push((
            "delayed".into(),
            ours_with(batch_affine(DelayedScheduler::default(), None).scalar_only(), points, scalars, window, glv),
        ));
    }
    if pick(3) {
        out.push((
            "greedy, batch 3".into(),
            ours_with(batch_affine(GreedyScheduler { queue_factor: 1 }, Some(3)), points, scalars, window, glv),
        ));
    }
    if pick(4) {
        let d = DelayedScheduler { fifo_factor: 1, max_passes: 2 };
        out.push((
            "delayed, batch 5".into(),
            ours_with(batch_affine(d, Some(5)).scalar_only(), points, scalars, window, glv),
        ));
    }
    if pick(5) {
        out.push((
            "greedy, batch 64".into(),
            ours_with(batch_affine(GreedyScheduler::default(), Some(64)), points, scalars, window, glv),
        ));
    }
    if pick(6) {
        out.push((
            "greedy, portable".into(),
            ours_with(batch_affine(GreedyScheduler::default(), None).scalar_only(), points, scalars, window, glv),
        ));
    }
    if which.is_none_or(|w| w % 2 == 1) {
        out.extend(C::curve_specific(points, scalars, window, glv));
    }
    out
}

fn order_minus<C: zkmsm::InputCurve>(k: u64) -> ScalarLimbs {
    let mut s = [0u64; 4];
    s[..C::ORDER.len()].copy_from_slice(C::ORDER);
    let (v, borrow) = s[0].overflowing_sub(k);
    s[0] = v;
    if borrow {
        for l in s.iter_mut().skip(1) {
            let (v, b) = l.overflowing_sub(1);
            *l = v;
            if !b {
                break;
            }
        }
    }
    s
}

/// Scalars whose GLV halves sit at the decomposition's edges: 0, 1,
/// lambda - 1, lambda, lambda + 1, r - 1, and k = q lambda + rem with q and rem
/// at and around each balancing threshold (the largest |k1| and |k0|).
fn glv_edges<C: zkmsm::InputCurve>() -> Vec<ScalarLimbs> {
    let g = C::glv().unwrap();
    let Some((lam, z2)) = g.seed_split() else {
        return lattice_edges::<C>();
    };
    let wide = |q: u128, rem: u128| {
        let (q0, q1, l0, l1) = (q as u64 as u128, q >> 64, lam as u64 as u128, lam >> 64);
        // q lambda + rem in 4 limbs, 64-bit columns summed in u128
        let mut cols = [0u128; 5];
        for (i, v) in [(0, q0 * l0), (1, q0 * l1), (1, q1 * l0), (2, q1 * l1), (0, rem as u64 as u128), (1, rem >> 64)]
        {
            cols[i] += v as u64 as u128;
            cols[i + 1] += v >> 64;
        }
        let mut limbs = [0u64; 4];
        let mut carry = 0u128;
        for i in 0..4 {
            let t = cols[i] + carry;
            limbs[i] = t as u64;
            carry = t >> 64;
        }
        limbs
    };
    let mut v = vec![[0u64; 4], [1, 0, 0, 0], wide(0, lam - 1), wide(1, 0), wide(1, 1), order_minus::<C>(1)];
    for q in [z2 / 2 - 1, z2 / 2, z2 / 2 + 1, z2 - 1] {
        for rem in [0, 1, lam / 2, lam / 2 + 1, lam - 1] {
            v.push(wide(q, rem));
        }
    }
    v
}

/// The lattice split's edges (BN254): 0, 1, r - 1, r - 2, and lambda, the
/// basis' first coordinates and (r + 1) / 2 (where both rounded coefficients
/// are near one half) with their neighbours.
fn lattice_edges<C: zkmsm::InputCurve>() -> Vec<ScalarLimbs> {
    let g = C::glv().unwrap();
    let [a1, _, a2, _] = g.lattice_basis().unwrap();
    let fr = |l: &ScalarLimbs| {
        let b: Vec<u8> = l.iter().flat_map(|x| x.to_le_bytes()).collect();
        C::Scalar::from_bytes_le(&b).unwrap()
    };
    let half = fr(&[2, 0, 0, 0]).inverse().unwrap();
    let mut v = vec![[0u64; 4], [1, 0, 0, 0], order_minus::<C>(1), order_minus::<C>(2)];
    for base in
        [fr(&g.lambda), fr(&[a1 as u64, (a1 >> 64) as u64, 0, 0]), fr(&[a2 as u64, (a2 >> 64) as u64, 0, 0]), half]
    {
        for d in [-C::Scalar::ONE, C::Scalar::ZERO, C::Scalar::ONE] {
            v.push(C::scalar_to_limbs(&(base + d)));
        }
    }
    v
}

fn random_cases<C: Ark>(cases: usize, seed: u64) {
    let pool = random_points::<C>(4096, seed).points;
    let scalars_pool = random_scalars::<C>(4096, seed + 1);
    let mut rng = ChaCha20Rng::seed_from_u64(seed + 2);
    for case in 0..cases {
        let n = if rng.gen_bool(0.6) { rng.gen_range(0..=256) } else { rng.gen_range(0..=4096) };
        let off = rng.gen_range(0..=4096 - n);
        let points = &pool[off..off + n];
        let scalars: Vec<ScalarLimbs> = (0..n).map(|i| scalars_pool[(i * 7 + case) % 4096]).collect();
        let window = if case % 5 == 0 { Some(rng.gen_range(1..=16)) } else { None };
        let want = ark_msm(points, &scalars);
        // every third case with GLV on, the rest as auto decides
        let glv = if case % 3 == 0 { GlvMode::On } else { GlvMode::Auto };
        for (backend, got) in ours_all(points, &scalars, window, Some(case), glv) {
            assert_eq!(got, want, "{} case {case}: n = {n}, window {window:?}, {backend}, {glv:?}", C::LABEL);
        }
    }
}

#[test]
fn random_cases_bls12_377() {
    random_cases::<Bls12_377>(500, 10);
}

#[test]
fn random_cases_bls12_381() {
    random_cases::<Bls12_381>(500, 20);
}

#[test]
fn random_cases_bn254() {
    random_cases::<Bn254>(500, 30);
}

/// G2: fewer cases (an Fq2 addition costs about three Fq ones), the same
/// sizes, windows and backends.
#[test]
fn random_cases_g2() {
    random_cases::<Bls12_377G2>(40, 60);
    random_cases::<Bls12_381G2>(40, 61);
    random_cases::<Bn254G2>(40, 62);
}

/// (name, points, scalars)
type Case<C> = (&'static str, Vec<Affine<C>>, Vec<ScalarLimbs>);

/// Every adversarial input we know of, for `adversarial` and the prepared files' GLV test.
fn adversarial_cases<C: Ark>(seed: u64) -> Vec<Case<C>> {
    let pts = random_points::<C>(300, seed).points;
    let rnd = random_scalars::<C>(300, seed + 1);
    let p = pts[0];
    let r1 = order_minus::<C>(1);
    let mut cases: Vec<Case<C>> = vec![
        ("n = 0", vec![], vec![]),
        ("n = 1", vec![p], vec![rnd[0]]),
        ("n = 1, scalar 1", vec![p], vec![[1, 0, 0, 0]]),
        ("n = 1, scalar r-1", vec![p], vec![r1]),
        ("zero scalars", pts.clone(), vec![[0; 4]; 300]),
        ("scalar r-1 everywhere", pts.clone(), vec![r1; 300]),
        (
            "r-1 and r-2 mixed",
            pts.clone(),
            (0..300).map(|i| if i % 2 == 0 { r1 } else { order_minus::<C>(2) }).collect(),
        ),
        ("all scalars equal", pts.clone(), vec![rnd[5]; 300]),
        ("repeated point", vec![p; 300], rnd.clone()),
        ("repeated point, equal scalars", vec![p; 257], vec![rnd[1]; 257]),
        (
            "P and -P, same scalar",
            pts.iter().take(150).flat_map(|q| [*q, q.neg()]).collect(),
            (0..300).map(|i| rnd[i / 2]).collect(),
        ),
        ("P and -P, random scalars", pts.iter().take(150).flat_map(|q| [*q, q.neg()]).collect(), rnd.clone()),
        (
            "points at infinity",
            (0..300).map(|i| if i % 3 == 0 { Affine::identity() } else { pts[i] }).collect(),
            rnd.clone(),
        ),
        ("all infinity", vec![Affine::identity(); 77], rnd[..77].to_vec()),
        ("sparse scalars", pts.clone(), (0..300).map(|i| if i % 17 == 0 { rnd[i] } else { [0; 4] }).collect()),
        ("small scalars", pts.clone(), (0..300u64).map(|i| [i, 0, 0, 0]).collect()),
        (
            "powers of two",
            pts[..250].to_vec(),
            (0..250)
                .map(|i| {
                    let mut s = [0u64; 4];
                    s[i / 64] = 1 << (i % 64);
                    s
                })
                .collect(),
        ),
        ("doubling in a bucket", vec![p, p, p.neg(), p], vec![[3, 0, 0, 0]; 4]),
        ("n = 1000 non power of two", random_points::<C>(1000, seed + 7).points, random_scalars::<C>(1000, seed + 8)),
    ];
    // digit-boundary scalars: 2^(c-1) - 1, 2^(c-1), 2^c - 1 at several c
    let boundary: Vec<ScalarLimbs> = (1..=16u32)
        .flat_map(|c| [(1u64 << (c - 1)) - 1, 1 << (c - 1), (1 << c) - 1])
        .map(|v| [v, v << 7, 0, v])
        .collect();
    cases.push(("digit boundaries", pts[..boundary.len()].to_vec(), boundary));
    cases.push(("GLV halves at their bounds", pts[..glv_edges::<C>().len()].to_vec(), glv_edges::<C>()));
    cases
}

fn adversarial<C: Ark>(seed: u64) {
    let pts = random_points::<C>(300, seed).points;
    let rnd = random_scalars::<C>(300, seed + 1);
    for (name, points, scalars) in &adversarial_cases::<C>(seed) {
        let want = ark_msm(points, scalars);
        for window in [None, Some(1), Some(2), Some(5), Some(13)] {
            for (backend, got) in ours_all(points, scalars, window, None, GlvMode::Off) {
                assert_eq!(got, want, "{}: {name}, window {window:?}, {backend}", C::LABEL);
            }
        }
        for window in [None, Some(3), Some(16)] {
            for (backend, got) in ours_all(points, scalars, window, None, GlvMode::On) {
                assert_eq!(got, want, "{}: {name}, window {window:?}, {backend}, GLV on", C::LABEL);
            }
        }
        // and through the fully validating one-shot API
        assert_eq!(msm_bigint(points, scalars).unwrap(), want, "{}: {name}", C::LABEL);
    }
    // a slow reference computed without buckets agrees too
    assert_eq!(naive_msm(&pts[..64], &rnd[..64]), ark_msm(&pts[..64], &rnd[..64]));
}

#[test]
fn adversarial_bls12_377() {
    adversarial::<Bls12_377>(30);
}

#[test]
fn adversarial_bls12_381() {
    adversarial::<Bls12_381>(40);
}

#[test]
fn adversarial_bn254() {
    adversarial::<Bn254>(50);
}

#[test]
fn adversarial_g2() {
    adversarial::<Bls12_377G2>(63);
    adversarial::<Bls12_381G2>(64);
    adversarial::<Bn254G2>(65);
}

/// Prepared files with GLV images, on the adversarial inputs: every backend
/// (and the portable batch-affine layout) prepared with GLV on, written,
/// mapped back and run with GLV auto, on and off, against arkworks.
fn prepared_glv<C: Ark + EngineCurve>(seed: u64) {
    let dir =
        std::env::temp_dir().join(format!("zkmsm-ark-prepared-{}-{}", C::LABEL.replace(' ', "-"), std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("glv.prep");
    for (name, points, scalars) in &adversarial_cases::<C>(seed) {
        let want = ark_msm(points, scalars);
        let mut choices =
            vec![BackendChoice::Xyzz, BackendChoice::BatchAffineGreedy, BackendChoice::BatchAffineDelayed];
        if C::LABEL == "bls12-377" {
            choices.push(BackendChoice::TwistedEdwards);
        }
        // the file at `path` run with GLV auto, on and off
        let check = |backend: &str| {
            for (mode, glv) in [(GlvMode::Auto, true), (GlvMode::On, true), (GlvMode::Off, false)] {
                let back = open_prepared_with::<C>(&path, mode).unwrap();
                assert_eq!((back.glv(), back.len()), (glv, points.len()), "{name} {backend} {mode:?}");
                let got = back.msm_report(scalars).unwrap().result.to_affine();
                assert_eq!(got, want, "{}: {name}, prepared {backend}, {mode:?}", C::LABEL);
            }
        };
        for choice in choices {
            let ctx = MsmBuilder::new().backend(choice).glv(GlvMode::On).build(&points[..]).unwrap();
            ctx.write_prepared(&path).unwrap();
            check(choice.name());
        }
        let portable = MsmBuilder::new()
            .glv(GlvMode::On)
            .build_context(BatchAffineBackend::new(GreedyScheduler::default()).scalar_only(), &points[..])
            .unwrap();
        portable.write_prepared(&path, BackendChoice::BatchAffineGreedy).unwrap();
        check("batch-affine, portable");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn prepared_glv_bls12_377() {
    prepared_glv::<Bls12_377>(33);
}

#[test]
fn prepared_glv_bls12_381() {
    prepared_glv::<Bls12_381>(43);
}

#[test]
fn prepared_glv_bn254() {
    prepared_glv::<Bn254>(53);
}

#[test]
fn prepared_glv_g2() {
    prepared_glv::<Bls12_377G2>(66);
    prepared_glv::<Bls12_381G2>(67);
    prepared_glv::<Bn254G2>(68);
}

#[test]
fn field_element_api_and_known_discrete_logs() {
    let k = random_points::<Bls12_377>(500, 50);
    let s = zkmsm::gen::random_field_elements::<Bls12_377>(500, 51);
    let got = MsmContext::new(&k.points).unwrap().msm(&s).unwrap();
    assert_eq!(got, zkmsm::gen::expected_msm::<Bls12_377>(&k.dlogs, &s));
    let k = random_points::<Bls12_381>(300, 52);
    let s = zkmsm::gen::random_field_elements::<Bls12_381>(300, 53);
    assert_eq!(msm(&k.points, &s).unwrap(), zkmsm::gen::expected_msm::<Bls12_381>(&k.dlogs, &s));
}

#[test]
fn bad_inputs_are_errors_naming_the_index() {
    let pts = random_points::<Bls12_377>(10, 60).points;
    let sc = random_scalars::<Bls12_377>(10, 61);
    assert!(matches!(msm_bigint(&pts, &sc[..9]), Err(MsmError::LengthMismatch { points: 10, scalars: 9 })));
    assert!(matches!(msm_bigint(&pts[..3], &sc), Err(MsmError::LengthMismatch { points: 3, scalars: 10 })));
    let ctx = MsmContext::new(&pts).unwrap();
    assert!(matches!(ctx.msm_bigint(&sc[..4]), Err(MsmError::LengthMismatch { .. })));
    // scalars >= r are rejected, not reduced
    let mut bad = sc.clone();
    bad[6] = order_minus::<Bls12_377>(0);
    assert!(matches!(ctx.msm_bigint(&bad), Err(MsmError::ScalarNotReduced { index: 6 })));
    bad[6] = [u64::MAX; 4];
    bad[3] = order_minus::<Bls12_377>(0);
    assert!(matches!(ctx.msm_bigint(&bad), Err(MsmError::ScalarNotReduced { index: 3 })));
    // a point off the curve
    let mut off = pts.clone();
    off[4].y += zkmsm_field::Bls12_377Fq::from_u64(1);
    assert!(matches!(MsmContext::new(&off), Err(MsmError::PointNotOnCurve { index: 4 })));
    // a point on the curve outside the subgroup
    let mut rng = ChaCha20Rng::seed_from_u64(62);
    let outsider = loop {
        let x = <zkmsm_field::Bls12_377Fq as zkmsm_field::Field>::random(&mut rng);
        if let Some(q) = Affine::<Bls12_377>::from_x(x, false) {
            break q;
        }
    };
    assert!(!outsider.is_in_subgroup());
    let mut outside = pts.clone();
    outside[7] = outsider;
    assert!(matches!(MsmContext::new(&outside), Err(MsmError::PointNotInSubgroup { index: 7 })));
    for ex in zkmsm_curve::te::exceptional_points() {
        let mut v = pts.clone();
        v[2] = ex;
        assert!(matches!(MsmContext::new(&v), Err(MsmError::PointNotInSubgroup { index: 2 })));
    }
}

fn fixed_base<C: Ark>(seed: u64) {
    let pts = random_points::<C>(200, seed).points;
    let rnd = random_scalars::<C>(200, seed + 1);
    let r1 = order_minus::<C>(1);
    let inputs: Vec<Case<C>> = vec![
        ("random", pts.clone(), rnd.clone()),
        ("r-1 and zeros", pts.clone(), (0..200).map(|i| if i % 3 == 0 { [0; 4] } else { r1 }).collect()),
        ("all equal, repeated point", vec![pts[0]; 200], vec![rnd[9]; 200]),
        (
            "P, -P and infinity",
            (0..200)
                .map(|i| match i % 3 {
                    0 => pts[i],
                    1 => pts[i - 1].neg(),
                    _ => Affine::identity(),
                })
                .collect(),
            rnd.clone(),
        ),
        ("n = 1", vec![pts[3]], vec![r1]),
        ("n = 0", vec![], vec![]),
    ];
    for (name, points, scalars) in &inputs {
        let want = ark_msm(points, scalars);
        for copies in [1u32, 2, 4, 300] {
            for window in [None, Some(1), Some(7), Some(16)] {
                let builder = MsmBuilder::new().precompute(Some(copies)).window(window);
                let ctx = builder.build_context(XyzzBackend, &points[..]).unwrap();
                assert_eq!(
                    ctx.msm_bigint(scalars).unwrap(),
                    want,
                    "{} {name}: xyzz, {copies} copies, window {window:?}",
                    C::NAME
                );
                match ctx.precompute() {
                    // one copy is the points themselves: plain mode
                    None => assert_eq!(copies, 1, "{} {name}: {copies} copies gave no fixed-base context", C::NAME),
                    Some(pre) => {
                        assert!(copies > 1, "{} {name}: one copy made a fixed-base context", C::NAME);
                        assert!(pre.copies * pre.sets >= pre.plan.windows && pre.copies <= copies);
                    }
                }
                let ctx =
                    builder.build_context(BatchAffineBackend::new(GreedyScheduler::default()), &points[..]).unwrap();
                assert_eq!(
                    ctx.msm_bigint(scalars).unwrap(),
                    want,
                    "{} {name}: batch-affine, {copies} copies, window {window:?}",
                    C::NAME
                );
            }
        }
    }
}

#[test]
fn fixed_base_bls12_377() {
    fixed_base::<Bls12_377>(70);
    // and the twisted-Edwards backend over shifted copies
    let pts = random_points::<Bls12_377>(100, 72).points;
    let sc = random_scalars::<Bls12_377>(100, 73);
    let ctx = MsmBuilder::new().precompute(Some(4)).build_context(TwistedEdwardsBackend, &pts).unwrap();
    assert_eq!(ctx.msm_bigint(&sc).unwrap(), ark_msm(&pts, &sc));
}

#[test]
fn fixed_base_bls12_381() {
    fixed_base::<Bls12_381>(71);
}

#[test]
fn fixed_base_bn254() {
    fixed_base::<Bn254>(72);
}

#[test]
fn fixed_base_g2() {
    fixed_base::<Bls12_377G2>(73);
    fixed_base::<Bls12_381G2>(74);
    fixed_base::<Bn254G2>(75);
}
