//! Batch-affine accumulation: buckets kept in affine coordinates; the
//! scheduler hands over batches of additions into distinct buckets, and each
//! batch shares one inversion (Montgomery's trick), so an addition costs
//! about 6 multiplications instead of the 10 of a mixed XYZZ addition.
//! The special cases (empty bucket, P + P, P - P) are settled inside the
//! batch without an inversion or with the doubling slope; operations the
//! scheduler could not place go to a projective overflow bucket.

use super::choice::{Arithmetic, BackendKind};
use super::lanes::lane_curve::{LaneBuckets, LaneCurve, LaneSet};
use super::side_buckets::SideBuckets;
use super::{prefetch, Backend, WindowBuckets, PREFETCH_AHEAD};
use crate::pipeline::plan::Plan;
use crate::scheduler::{BatchSink, DistinctBatch, GreedyScheduler, Op, ScheduleStats, Scheduler};
use crate::store::Store;
use std::marker::PhantomData;
use zkmsm_curve::{Affine, Xyzz};
use zkmsm_field::Field;

/// Bucket accumulation in affine coordinates with one shared inversion per batch of additions (the
/// ZPrize 2023 batched-affine design); the scheduler `S` keeps each batch free of bucket conflicts.
pub struct BatchAffineBackend<S: Scheduler = GreedyScheduler> {
    /// Orders the additions into conflict-free batches.
    pub scheduler: S,
    /// Additions per shared inversion; `None` picks from the bucket count.
    pub batch_size: Option<usize>,
    /// IFMA lanes, FMA lanes or scalar code.
    arithmetic: Arithmetic,
}

/// Points as the chosen arithmetic wants them. (One per context: the size of
/// the lane variants' field constants does not matter.)
#[allow(clippy::large_enum_variant)]
pub enum BatchAffinePoints<C: LaneCurve> {
    /// Plain affine points for the portable 64-bit arithmetic (owned, or mapped from a prepared file).
    Scalar(Store<Affine<C>>),
    /// Points in radix 2^52 for the eight-lane AVX-512 IFMA engine.
    #[cfg(target_arch = "x86_64")]
    Ifma(<C as LaneCurve>::Ifma),
    /// Points in radix 2^51 for the four-lane double-precision FMA engine (AVX2 or NEON).
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    Fma(<C as LaneCurve>::Fma),
}

/// The four-lane FMA arithmetic this CPU runs, in eight limbs (the BLS12 fields).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub type FmaWide<C> = super::lanes::Fma51<<C as zkmsm_curve::SwCurve>::Base, super::lanes::NativeSimd, 8>;
/// The same in six limbs (fields below 2^280: BN254).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub type FmaNarrow<C> = super::lanes::Fma51<<C as zkmsm_curve::SwCurve>::Base, super::lanes::NativeSimd, 6>;

/// Points for the four-lane FMA engine of this CPU, at the limb count of the curve's field.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub type FmaPoints<C> = super::lanes::sized::SizedPoints<C, FmaWide<C>, FmaNarrow<C>>;

/// The Fp2 configuration of a G2 curve's coordinates.
type Fp2Of<C> = <<C as zkmsm_curve::SwCurve>::Base as super::lanes::tower::Quadratic>::Config;
/// Its prime field.
type FqOf<C> = <Fp2Of<C> as zkmsm_field::Fp2Config>::Base;

/// Points over Fp2 (G2) for the four-lane FMA engine, at the limb count of Fp.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub type FmaFp2Points<C> = super::lanes::sized::SizedPoints<
    C,
    super::lanes::tower::Fp2Lanes<Fp2Of<C>, super::lanes::Fma51<FqOf<C>, super::lanes::NativeSimd, 8>>,
    super::lanes::tower::Fp2Lanes<Fp2Of<C>, super::lanes::Fma51<FqOf<C>, super::lanes::NativeSimd, 6>>,
>;

/// Whether `arithmetic` takes curve C's base field (at one of its limb
/// counts). Curves whose field a lane arithmetic does not take run
/// batch-affine on scalar arithmetic.
pub fn lanes_fit<C: LaneCurve>(arithmetic: Arithmetic) -> bool {
    match arithmetic {
        Arithmetic::Scalar => true,
        #[cfg(target_arch = "x86_64")]
        Arithmetic::Ifma => <C as LaneCurve>::Ifma::fits(),
        #[cfg(not(target_arch = "x86_64"))]
        Arithmetic::Ifma => false,
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        Arithmetic::Fma => <C as LaneCurve>::Fma::fits(),
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        Arithmetic::Fma => false,
    }
}

impl<S: Scheduler + Default> Default for BatchAffineBackend<S> {
    fn default() -> Self {
        Self::new(S::default())
    }
}

impl<S: Scheduler> BatchAffineBackend<S> {
    /// A backend with this scheduler, on the fastest arithmetic this CPU has (IFMA, then FMA lanes,
    /// then portable); batch size chosen per window.
    pub fn new(scheduler: S) -> Self {
        Self { scheduler, batch_size: None, arithmetic: Arithmetic::detect() }
    }

    /// The scalar arithmetic even where a lane engine runs.
    pub fn scalar_only(mut self) -> Self {
        self.arithmetic = Arithmetic::Scalar;
        self
    }

    /// The four-lane FMA arithmetic even where AVX-512 IFMA is present (when
    /// the CPU has it at all).
    pub fn fma_only(mut self) -> Self {
        self.arithmetic = if super::lanes::fma_enabled() { Arithmetic::Fma } else { Arithmetic::Scalar };
        self
    }

    /// The arithmetic this backend runs on curves the lane engines take.
    pub fn arithmetic(&self) -> Arithmetic {
        self.arithmetic
    }

    /// The arithmetic this backend runs on curve C: its own where that
    /// lane engine takes C's field ([`lanes_fit`]); else the FMA lanes
    /// where those run here and take it (a 255- or 256-bit field, too
    /// large for five 52-bit limbs and too small for eight, is six 51-bit
    /// ones); else scalar code.
    pub fn arithmetic_on<C: LaneCurve>(&self) -> Arithmetic {
        if lanes_fit::<C>(self.arithmetic) {
            self.arithmetic
        } else if self.arithmetic == Arithmetic::Ifma && lanes_fit::<C>(Arithmetic::Fma) && super::lanes::fma_enabled()
        {
            Arithmetic::Fma
        } else {
            Arithmetic::Scalar
        }
    }

    /// Whether this backend runs the four-lane FMA arithmetic.
    pub fn uses_fma(&self) -> bool {
        self.arithmetic == Arithmetic::Fma
    }

    /// Whether this backend runs the 8-lane IFMA arithmetic.
    pub fn uses_ifma(&self) -> bool {
        self.arithmetic == Arithmetic::Ifma
    }

    /// Large enough to amortize the inversion (about 2 us), small enough that
    /// collisions (about T^2 / 2B per batch) stay at a few percent and the
    /// batch stays in cache: B/16 within 64..1024 portable, the lane
    /// engines' rule ([`super::lanes::batch_size_for`]) on IFMA and FMA
    /// (`cargo bench -p zkmsm --bench accumulate -- log_n c batch`;
    /// docs/BENCHMARKS.md).
    pub fn batch_size_for(&self, buckets: usize) -> usize {
        self.batch_size_with(self.arithmetic, buckets)
    }

    fn batch_size_with(&self, arithmetic: Arithmetic, buckets: usize) -> usize {
        if arithmetic != Arithmetic::Scalar {
            return self.batch_size.unwrap_or_else(|| super::lanes::batch_size_for(buckets)).max(1);
        }
        self.batch_size.unwrap_or((buckets / 16).clamp(64, 1024)).max(1)
    }
}

/// One window's buckets and what the scheduler did filling them.
pub struct BatchAffineWindow<'a, C: LaneCurve> {
    buckets: Filled<'a, C>,
    stats: ScheduleStats,
}

enum Filled<'a, C: LaneCurve> {
    Scalar(Vec<Xyzz<C>>, PhantomData<&'a ()>),
    #[cfg(target_arch = "x86_64")]
    Ifma(Box<<<C as LaneCurve>::Ifma as LaneSet<C>>::Window<'a>>),
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    Fma(Box<<<C as LaneCurve>::Fma as LaneSet<C>>::Window<'a>>),
}

impl<C: LaneCurve> WindowBuckets<C, Xyzz<C>> for BatchAffineWindow<'_, C> {
    /// In lanes where a lane engine filled the buckets (faster than the
    /// shared XYZZ path), else the shared path.
    fn sum(self) -> Xyzz<C> {
        match self.buckets {
            Filled::Scalar(b, _) => crate::pipeline::bucket_aggregation::partitioned_sum::<C, Xyzz<C>>(&b, 1),
            #[cfg(target_arch = "x86_64")]
            Filled::Ifma(w) => w.sum(),
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            Filled::Fma(w) => w.sum(),
        }
    }

    fn into_buckets(self) -> Vec<Xyzz<C>> {
        match self.buckets {
            Filled::Scalar(b, _) => b,
            #[cfg(target_arch = "x86_64")]
            Filled::Ifma(w) => w.into_buckets(),
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            Filled::Fma(w) => w.into_buckets(),
        }
    }

    fn schedule_stats(&self) -> Option<ScheduleStats> {
        Some(self.stats)
    }
}

struct AffineBuckets<'a, C: LaneCurve> {
    points: &'a [Affine<C>],
    buckets: Vec<Affine<C>>,
    /// For what cannot go through a batch (P + P, operations the scheduler overflowed).
    side: SideBuckets<C>,
    /// The batch's chord additions: bucket index and (signed) point.
    adds: Vec<(u32, Affine<C>)>,
    denominators: Vec<C::Base>,
    scratch: Vec<C::Base>,
}

impl<C: LaneCurve> AffineBuckets<'_, C> {
    #[inline]
    fn point(&self, op: &Op) -> Affine<C> {
        let p = self.points[op.point as usize];
        if op.negate {
            p.neg()
        } else {
            p
        }
    }

    fn into_buckets(mut self) -> Vec<Xyzz<C>> {
        match self.side.take() {
            None => self.buckets.iter().map(Xyzz::from_affine).collect(),
            Some(side) => self.buckets.iter().zip(side).map(|(a, o)| o.add_affine(a)).collect(),
        }
    }
}

/// Montgomery's trick on non-zero elements, run as two interleaved product
/// chains: each multiplication waits on the previous one of its chain, so two
/// chains keep the multiplier busy while one would leave it idle half the time.
fn batch_inverse_nonzero<F: Field>(v: &mut [F], prefix: &mut Vec<F>) {
    let m = v.len();
    if m == 0 {
        return;
    }
    let h = m / 2;
    prefix.clear();
    prefix.resize(m, F::ONE);
    let (mut a0, mut a1) = (F::ONE, F::ONE);
    for i in 0..h {
        prefix[i] = a0;
        a0 *= v[i];
        prefix[h + i] = a1;
        a1 *= v[h + i];
    }
    if m % 2 == 1 {
        prefix[m - 1] = a1;
        a1 *= v[m - 1];
    }
    let inv = (a0 * a1).inverse().expect("the elements are non-zero");
    let (mut i0, mut i1) = (inv * a1, inv * a0);
    if m % 2 == 1 {
        let x = v[m - 1];
        v[m - 1] = i1 * prefix[m - 1];
        i1 *= x;
    }
    for i in (0..h).rev() {
        let (x0, x1) = (v[i], v[h + i]);
        v[i] = i0 * prefix[i];
        v[h + i] = i1 * prefix[h + i];
        i0 *= x0;
        i1 *= x1;
    }
}

impl<C: LaneCurve> BatchSink for AffineBuckets<'_, C> {
    fn execute(&mut self, batch: DistinctBatch<'_>) {
        let batch = batch.ops();
        // Pass 1: settle what needs no inversion right away (empty bucket,
        // P - P, and P + P, which goes to the side bucket), collect the rest.
        self.adds.clear();
        self.denominators.clear();
        for (i, op) in batch.iter().enumerate() {
            if let Some(ahead) = batch.get(i + PREFETCH_AHEAD) {
                prefetch(&self.buckets[ahead.bucket as usize]);
            }
            let p = self.point(op);
            let b = &mut self.buckets[op.bucket as usize];
            if b.infinity {
                *b = p;
            } else if b.x != p.x {
                self.denominators.push(p.x - b.x);
                self.adds.push((op.bucket, p));
            } else if b.y == p.y {
                self.side.add(op.bucket, &p);
            } else {
                *b = Affine::identity();
            }
        }
        // One inversion for the batch, then the chord additions.
        batch_inverse_nonzero(&mut self.denominators, &mut self.scratch);
        for ((k, p), inv) in self.adds.iter().zip(&self.denominators) {
            let b = &mut self.buckets[*k as usize];
            let lambda = (p.y - b.y) * *inv;
            let x3 = lambda.square() - b.x - p.x;
            let y3 = lambda * (b.x - x3) - b.y;
            *b = Affine::new_unchecked(x3, y3);
        }
    }

    fn overflow(&mut self, op: Op) {
        let p = self.point(&op);
        self.side.add(op.bucket, &p);
    }
}

impl<C: LaneCurve, S: Scheduler> Backend<C> for BatchAffineBackend<S> {
    type Prepared = BatchAffinePoints<C>;
    type Bucket = Xyzz<C>;
    type Window<'a>
        = BatchAffineWindow<'a, C>
    where
        S: 'a;

    fn name(&self) -> &'static str {
        match (self.scheduler.name(), self.arithmetic_on::<C>()) {
            ("greedy", Arithmetic::Scalar) => "batch-affine/greedy",
            ("delayed", Arithmetic::Scalar) => "batch-affine/delayed",
            ("greedy", Arithmetic::Ifma) => "batch-affine/greedy (ifma)",
            ("delayed", Arithmetic::Ifma) => "batch-affine/delayed (ifma)",
            ("greedy", Arithmetic::Fma) => "batch-affine/greedy (fma)",
            ("delayed", Arithmetic::Fma) => "batch-affine/delayed (fma)",
            _ => "batch-affine",
        }
    }

    fn kind(&self) -> BackendKind {
        BackendKind::BatchAffine(self.arithmetic_on::<C>())
    }

    fn prepare(&self, points: &[Affine<C>]) -> BatchAffinePoints<C> {
        #[cfg(target_arch = "x86_64")]
        if self.arithmetic_on::<C>() == Arithmetic::Ifma {
            return BatchAffinePoints::Ifma(<C as LaneCurve>::Ifma::prepare(points));
        }
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        if self.arithmetic_on::<C>() == Arithmetic::Fma {
            return BatchAffinePoints::Fma(<C as LaneCurve>::Fma::prepare(points));
        }
        BatchAffinePoints::Scalar(points.to_vec().into())
    }

    fn prepare_owned(&self, points: Vec<Affine<C>>) -> BatchAffinePoints<C> {
        #[cfg(target_arch = "x86_64")]
        if self.arithmetic_on::<C>() == Arithmetic::Ifma {
            return BatchAffinePoints::Ifma(<C as LaneCurve>::Ifma::prepare_owned(points));
        }
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        if self.arithmetic_on::<C>() == Arithmetic::Fma {
            return BatchAffinePoints::Fma(<C as LaneCurve>::Fma::prepare_owned(points));
        }
        BatchAffinePoints::Scalar(points.into())
    }

    fn accumulate<'a>(
        &'a self,
        prepared: &'a BatchAffinePoints<C>,
        digits: &[i32],
        plan: &Plan,
    ) -> BatchAffineWindow<'a, C> {
        let batch = self.batch_size_with(self.arithmetic_on::<C>(), plan.buckets);
        let points = match prepared {
            BatchAffinePoints::Scalar(p) => p,
            #[cfg(target_arch = "x86_64")]
            BatchAffinePoints::Ifma(p) => {
                let (window, stats) = p.accumulate(digits, plan, &self.scheduler, batch);
                return BatchAffineWindow { buckets: Filled::Ifma(Box::new(window)), stats };
            }
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            BatchAffinePoints::Fma(p) => {
                let (window, stats) = p.accumulate(digits, plan, &self.scheduler, batch);
                return BatchAffineWindow { buckets: Filled::Fma(Box::new(window)), stats };
            }
        };
        let mut engine = AffineBuckets {
            points,
            buckets: vec![Affine::identity(); plan.buckets],
            side: SideBuckets::new(plan.buckets),
            adds: Vec::with_capacity(batch),
            denominators: Vec::with_capacity(batch),
            scratch: Vec::with_capacity(batch),
        };
        let mut ops = digits
            .iter()
            .enumerate()
            .filter(|&(i, &d)| d != 0 && !points[i].infinity)
            .map(|(i, &d)| Op::from_digit(i, d));
        let stats = self.scheduler.schedule(&mut ops, plan.buckets, batch, &mut engine);
        BatchAffineWindow { buckets: Filled::Scalar(engine.into_buckets(), PhantomData), stats }
    }
}
