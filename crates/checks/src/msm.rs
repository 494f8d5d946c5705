//! The MSM property: every backend (each batch-affine one with the IFMA and
//! the portable arithmetic, any batch size), with or without fixed-base
//! precomputation, at any window size, computes sum s_i P_i. The points are
//! built as P_i = g_i G with known g_i, so the answer is also
//! (sum s_i g_i mod r) G, computed in the scalar field without a single bucket;
//! the soak compares with arkworks besides.
//!
//! Inputs come from fuzz bytes ([`Case::from_bytes`]) or from a random
//! generator of the known bug classes ([`Case::random`], [`Class`]).

use crate::curves::TestCurve;
use crate::readers::Bytes;
use rand::Rng;
use std::collections::BTreeMap;
use zkmsm::backend::BatchAffineBackend;
use zkmsm::{
    Affine, BackendChoice, DelayedScheduler, GreedyScheduler, MsmBuilder, MsmEngine, MsmError, ScalarLimbs, Scheduler,
    Validation, Xyzz,
};
use zkmsm_field::{Field, PrimeField};

/// One MSM to check on every engine.
#[derive(Clone, Debug)]
pub struct Case<C: TestCurve> {
    /// Discrete logs of the points: P_i = g_i G.
    pub dlogs: Vec<C::Scalar>,
    /// The points `g_i G`, in the order of `dlogs`.
    pub points: Vec<Affine<C>>,
    /// As many as the points, except in the unequal-length cases.
    pub scalars: Vec<C::Scalar>,
    /// The window size to force (`None`: the plan's choice).
    pub window: Option<u32>,
    /// Fixed-base copies to precompute (`None`: none).
    pub precompute: Option<u32>,
    /// Additions per shared inversion for the batch-affine engines.
    pub batch: Option<usize>,
}

impl<C: TestCurve> Case<C> {
    /// The case of these discrete logs and scalars, its points computed from the fixed-base table;
    /// window, precomputation and batch left to the engines.
    pub fn new(dlogs: Vec<C::Scalar>, scalars: Vec<C::Scalar>) -> Self {
        let table = C::table();
        let proj: Vec<Xyzz<C>> = dlogs.iter().map(|g| table.mul(&C::scalar_to_limbs(g))).collect();
        let points = Xyzz::batch_to_affine(&proj);
        Case { dlogs, points, scalars, window: None, precompute: None, batch: None }
    }

    /// The scalars as canonical 4-limb integers, as the engines take them.
    pub fn limbs(&self) -> Vec<ScalarLimbs> {
        self.scalars.iter().map(C::scalar_to_limbs).collect()
    }

    /// (sum s_i g_i) G, or `None` when the lengths differ.
    pub fn expected(&self) -> Option<Affine<C>> {
        if self.scalars.len() != self.points.len() {
            return None;
        }
        let e = self.dlogs.iter().zip(&self.scalars).fold(C::Scalar::ZERO, |acc, (g, s)| acc + *g * *s);
        Some(C::table().mul(&C::scalar_to_limbs(&e)).to_affine())
    }

    /// One line naming the case (curve, sizes, options), for failure messages.
    pub fn describe(&self) -> String {
        format!(
            "{} n = {} points, {} scalars, window {:?}, precompute {:?}, batch {:?}",
            C::NAME,
            self.points.len(),
            self.scalars.len(),
            self.window,
            self.precompute,
            self.batch
        )
    }
}

/// Scalar-field values the bucket method finds hard.
fn special<F: PrimeField>(k: u8) -> F {
    let two_k = |k: u32| (0..k).fold(F::ONE, |acc, _| acc.double());
    match k % 10 {
        0 => F::ZERO,
        1 => F::ONE,
        2 => -F::ONE,                                     // r - 1: every digit at its largest
        3 => -F::ONE * F::from_u64(2).inverse().unwrap(), // (r - 1) / 2
        4 => F::from_u64(2).inverse().unwrap(),           // (r + 1) / 2
        5 => two_k(k as u32 % 256),                       // 2^k: one digit, carries
        6 => two_k(k as u32 % 256) - F::ONE,              // 2^k - 1: all ones
        7 => -two_k(k as u32 % 256),                      // r - 2^k
        8 => F::from_u64(k as u64),                       // small
        _ => -F::from_u64(k as u64),                      // r - small
    }
}

impl<C: TestCurve> Case<C> {
    /// Fuzz bytes to a case. Byte 0: size; 1: window; 2: precompute and
    /// batch; 3: length difference; then per point a kind byte (and its
    /// operands), then per scalar the same. Exhausted input continues with
    /// random points and scalars seeded by the input.
    pub fn from_bytes(data: &[u8]) -> Self {
        let seed = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
        let mut d = Bytes(data);
        let size = d.byte();
        let n = match size {
            0..=199 => size as usize % 40,
            200..=249 => [63, 64, 65, 127, 128, 129][size as usize % 6],
            _ => [255, 256, 257, 511, 512, 513][size as usize % 6],
        };
        let w = d.byte();
        // windows up to 8 bits: larger ones only cost bucket aggregation
        let window = if w < 128 { None } else { Some(1 + w as u32 % 8) };
        let pb = d.byte();
        let precompute = if pb & 0x0f < 12 { None } else { Some(1 + (pb & 3) as u32) };
        let batch = match pb >> 4 {
            0..=9 => None,
            k => Some([1, 2, 3, 8, 16, 64][k as usize - 10]),
        };
        let diff = match d.byte() {
            0..=249 => 0i64,
            b => b as i64 - 252,
        };
        let mut dlogs: Vec<C::Scalar> = Vec::with_capacity(n);
        for i in 0..n {
            let random = d.0.is_empty();
            let g = if random {
                C::Scalar::random(&mut rng)
            } else {
                let kind = d.byte();
                let earlier = |j: u8| if i == 0 { C::Scalar::ONE } else { dlogs[j as usize % i] };
                match kind % 8 {
                    0 => C::Scalar::ZERO, // the point at infinity
                    1 => C::Scalar::ONE,
                    2 => earlier(d.byte()),          // a repeat: P + P in a bucket
                    3 => -earlier(d.byte()),         // a negation: P - P
                    4 => earlier(d.byte()).double(), // 2P
                    5 => special(d.byte()),
                    6 => C::Scalar::from_u64(d.u64()),
                    _ => C::Scalar::random(&mut rng),
                }
            };
            dlogs.push(g);
        }
        let m = (n as i64 + diff).max(0) as usize;
        let mut scalars: Vec<C::Scalar> = Vec::with_capacity(m);
        for i in 0..m {
            let s = if d.0.is_empty() {
                C::Scalar::random(&mut rng)
            } else {
                let kind = d.byte();
                match kind % 6 {
                    0 => C::Scalar::ZERO,
                    1 if i > 0 => scalars[d.byte() as usize % i], // equal scalars: same buckets
                    2 => special(d.byte()),
                    3 => C::Scalar::from_u64(d.u64()),
                    4 if i > 0 => -scalars[d.byte() as usize % i],
                    _ => C::Scalar::random(&mut rng),
                }
            };
            scalars.push(s);
        }
        Case { window, precompute, batch, ..Case::new(dlogs, scalars) }
    }
}

/// The bug classes the peers have had, and plain random inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// Uniform random discrete logs and scalars.
    Random,
    /// Points at infinity among the inputs (XYZZ additions with an identity).
    Infinity,
    /// n = 1, with every kind of scalar.
    OnePoint,
    /// n around 512 and around the batch sizes (64, 256, 1024).
    SizeEdges,
    /// Fewer or more scalars than points: an error, never a result.
    UnequalLengths,
    /// Few distinct points, their negations, equal scalars: batches full of
    /// P + P and P - P.
    Doublings,
    /// Terms that cancel: the result is the point at infinity.
    IdentityResult,
    /// Small discrete logs and special scalars (0, 1, r - 1, 2^k, ...).
    SmallAndSpecial,
}

impl Class {
    /// Every class, in the order the soak campaign visits them.
    pub const ALL: [Class; 8] = [
        Class::Random,
        Class::Infinity,
        Class::OnePoint,
        Class::SizeEdges,
        Class::UnequalLengths,
        Class::Doublings,
        Class::IdentityResult,
        Class::SmallAndSpecial,
    ];
}

impl<C: TestCurve> Case<C> {
    /// A random case of `class`.
    pub fn random<R: Rng>(class: Class, rng: &mut R) -> Self {
        let rnd = |rng: &mut R| C::Scalar::random(rng);
        let any_n = |rng: &mut R| -> usize {
            // log-uniform up to 2^9: the bug classes show at small n, and a
            // case's cost grows with n on every engine (the large sizes are
            // SizeEdges' job)
            let k = rng.gen_range(0..=9);
            rng.gen_range(0..=1usize << k)
        };
        let mut case = match class {
            Class::Random => {
                let n = any_n(rng);
                Self::new((0..n).map(|_| rnd(rng)).collect(), (0..n).map(|_| rnd(rng)).collect())
            }
            Class::Infinity => {
                let n = any_n(rng).max(1);
                let share = rng.gen_range(0.05..1.0);
                let dlogs = (0..n).map(|_| if rng.gen_bool(share) { C::Scalar::ZERO } else { rnd(rng) }).collect();
                Self::new(dlogs, (0..n).map(|_| rnd(rng)).collect())
            }
            Class::OnePoint => {
                let g = if rng.gen_bool(0.2) { special(rng.gen()) } else { rnd(rng) };
                let s = if rng.gen_bool(0.5) { special(rng.gen()) } else { rnd(rng) };
                Self::new(vec![g], vec![s])
            }
            Class::SizeEdges => {
                // 1024 (the largest batch size) costs the most: a tenth of them
                let centre = [64usize, 64, 64, 256, 256, 256, 512, 512, 512, 1024][rng.gen_range(0..10)];
                let n = centre + rng.gen_range(0..=4) - 2;
                Self::new((0..n).map(|_| rnd(rng)).collect(), (0..n).map(|_| rnd(rng)).collect())
            }
            Class::UnequalLengths => {
                let n = any_n(rng);
                let m = (n as i64 + [-3i64, -2, -1, 1, 2, 5][rng.gen_range(0..6)]).max(0) as usize;
                let m = if m == n { n + 1 } else { m };
                Self::new((0..n).map(|_| rnd(rng)).collect(), (0..m).map(|_| rnd(rng)).collect())
            }
            Class::Doublings => {
                let n = any_n(rng).max(2);
                let distinct: Vec<C::Scalar> = (0..rng.gen_range(1..=3)).map(|_| rnd(rng)).collect();
                let svals: Vec<C::Scalar> = (0..rng.gen_range(1..=2)).map(|_| rnd(rng)).collect();
                let dlogs = (0..n)
                    .map(|_| {
                        let g = distinct[rng.gen_range(0..distinct.len())];
                        if rng.gen_bool(0.5) {
                            -g
                        } else {
                            g
                        }
                    })
                    .collect();
                let scalars = (0..n).map(|_| svals[rng.gen_range(0..svals.len())]).collect();
                Self::new(dlogs, scalars)
            }
            Class::IdentityResult => {
                let half = any_n(rng) / 2 + 1;
                let mut terms: Vec<(C::Scalar, C::Scalar)> = Vec::new();
                for _ in 0..half {
                    let (g, s) = (rnd(rng), rnd(rng));
                    terms.push((g, s));
                    // s P + s (-P), or s P + (r - s) P
                    terms.push(if rng.gen_bool(0.5) { (-g, s) } else { (g, -s) });
                }
                if rng.gen_bool(0.3) {
                    terms.push((rnd(rng), C::Scalar::ZERO));
                    terms.push((C::Scalar::ZERO, rnd(rng)));
                }
                // shuffle
                for i in (1..terms.len()).rev() {
                    terms.swap(i, rng.gen_range(0..=i));
                }
                let (dlogs, scalars) = terms.into_iter().unzip();
                let case = Self::new(dlogs, scalars);
                debug_assert!(case.expected().unwrap().is_identity());
                case
            }
            Class::SmallAndSpecial => {
                let n = any_n(rng);
                let dlogs = (0..n).map(|_| C::Scalar::from_u64(rng.gen_range(0..16))).collect();
                let scalars = (0..n).map(|_| special(rng.gen())).collect();
                Self::new(dlogs, scalars)
            }
        };
        // the engine's knobs: mostly defaults, sometimes odd
        if rng.gen_bool(0.25) {
            // up to 2^9 buckets: larger windows cost seconds of bucket
            // aggregation per MSM at these sizes, and test nothing new
            case.window = Some(rng.gen_range(1..=10));
        }
        // precomputation builds (copies - 1) shifted points per point per
        // engine: seconds at n = 1024, and its bugs show at any n
        if case.points.len() <= 256 && rng.gen_bool(0.15) {
            case.precompute = Some(rng.gen_range(1..=4));
        }
        if rng.gen_bool(0.2) {
            case.batch = Some([1, 2, 3, 8, 16, 64, 256][rng.gen_range(0..7)]);
        }
        case
    }
}

/// The engines every case runs on: each backend by name (as the CLI builds
/// it), and the batch-affine backends built directly, with the IFMA and the
/// portable arithmetic and the case's batch size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Engine {
    /// A backend by its CLI name, built as the CLI builds it (`MsmBuilder`).
    Named(&'static str),
    /// A batch-affine backend built directly, with the case's batch size.
    BatchAffine {
        /// Delayed scheduling (else greedy).
        delayed: bool,
        /// The portable arithmetic (else the IFMA engine where the CPU has it).
        portable: bool,
    },
}

impl Engine {
    /// The engine's name in reports (the CLI name, or the direct batch-affine variant).
    pub fn label(&self) -> String {
        match self {
            Engine::Named(n) => n.to_string(),
            Engine::BatchAffine { delayed, portable } => format!(
                "batch-affine{}{} (direct)",
                if *delayed { "-delayed" } else { "" },
                if *portable { ", portable" } else { "" }
            ),
        }
    }
}

/// Every engine: each `BackendChoice` by name, then the four direct batch-affine variants (greedy
/// or delayed scheduling, IFMA or portable arithmetic).
pub fn engines() -> Vec<Engine> {
    let mut v: Vec<Engine> = BackendChoice::ALL.iter().map(|b| Engine::Named(b.name())).collect();
    for delayed in [false, true] {
        for portable in [false, true] {
            v.push(Engine::BatchAffine { delayed, portable });
        }
    }
    v
}

/// The points are built valid; one engine (`auto`) validates them fully (no
/// false rejection), the others skip the subgroup checks, which would
/// otherwise cost more than the MSMs.
fn validation(engine: Engine) -> Validation {
    if engine == Engine::Named("auto") {
        Validation::Full
    } else {
        Validation::AlreadyValidated
    }
}

fn builder<C: TestCurve>(engine: Engine, case: &Case<C>) -> MsmBuilder {
    MsmBuilder::new().validation(validation(engine)).precompute(case.precompute).window(case.window)
}

fn direct<C: TestCurve, S: Scheduler + Default + 'static>(
    engine: Engine,
    case: &Case<C>,
    portable: bool,
) -> Result<Box<dyn MsmEngine<C>>, MsmError> {
    let mut backend = BatchAffineBackend::new(S::default());
    if portable {
        backend = backend.scalar_only();
    }
    backend.batch_size = case.batch;
    Ok(Box::new(builder(engine, case).build_context(backend, &case.points[..])?))
}

fn build<C: TestCurve>(engine: Engine, case: &Case<C>) -> Result<Box<dyn MsmEngine<C>>, MsmError> {
    match engine {
        Engine::Named(name) => {
            let choice = BackendChoice::from_name(name).expect("a backend name");
            builder(engine, case).backend(choice).build(&case.points[..])
        }
        Engine::BatchAffine { delayed: false, portable } => direct::<C, GreedyScheduler>(engine, case, portable),
        Engine::BatchAffine { delayed: true, portable } => direct::<C, DelayedScheduler>(engine, case, portable),
    }
}

/// MSMs run per engine.
pub type Tally = BTreeMap<Engine, u64>;

/// Run `case` on every engine; panics, describing the case, on any wrong
/// result, wrong error or panic. `also` is one more reference (arkworks, in
/// the soak) as a compressed encoding.
pub fn check_case<C: TestCurve>(case: &Case<C>, also: Option<&[u8]>, tally: &mut Tally) {
    let expected = case.expected();
    if let (Some(e), Some(a)) = (&expected, also) {
        assert_eq!(
            e.to_bytes(zkmsm_curve::PointFormat::Compressed),
            a,
            "the two references disagree (a checker bug): {}",
            case.describe()
        );
    }
    let limbs = case.limbs();
    for engine in engines() {
        let ctx = match build(engine, case) {
            Ok(ctx) => ctx,
            Err(MsmError::Unsupported(_)) if engine == Engine::Named("twisted-edwards") && C::NAME != "bls12-377" => {
                continue
            }
            Err(e) => panic!("{}: building failed: {e} ({})", engine.label(), case.describe()),
        };
        let got = ctx.msm_report(&limbs);
        match (&expected, got) {
            (Some(e), Ok(out)) => {
                assert!(
                    out.result.to_affine() == *e,
                    "{} ({}): wrong result {:?}, expected {:?}: {}",
                    engine.label(),
                    ctx.backend_name(),
                    out.result.to_affine(),
                    e,
                    case.describe()
                );
            }
            (None, Err(MsmError::LengthMismatch { points, scalars })) => {
                assert_eq!((points, scalars), (case.points.len(), case.scalars.len()));
            }
            (Some(_), Err(e)) => panic!("{}: error on valid input: {e}: {}", engine.label(), case.describe()),
            (None, Ok(_)) => panic!("{}: a result for unequal lengths: {}", engine.label(), case.describe()),
            (None, Err(e)) => panic!("{}: wrong error for unequal lengths: {e}: {}", engine.label(), case.describe()),
        }
        *tally.entry(engine).or_default() += 1;
    }
}

/// The fuzz target's property on every curve (the first byte picks it: even
/// BLS12-377, odd BLS12-381, and with bit 1 set as well BN254).
pub fn msm_differential(data: &[u8]) {
    let Some((&curve, rest)) = data.split_first() else { return };
    let mut tally = Tally::new();
    match (curve & 1, curve & 2) {
        (1, 2) => check_case(&Case::<zkmsm::Bn254>::from_bytes(rest), None, &mut tally),
        (1, _) => check_case(&Case::<zkmsm::Bls12_381>::from_bytes(rest), None, &mut tally),
        _ => check_case(&Case::<zkmsm::Bls12_377>::from_bytes(rest), None, &mut tally),
    }
}
