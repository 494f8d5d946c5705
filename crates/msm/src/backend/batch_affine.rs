//! Batch-affine accumulation: buckets kept in affine coordinates; the
//! scheduler hands over batches of additions into distinct buckets, and each
//! batch shares one inversion (Montgomery's trick), so an addition costs
//! about 6 multiplications instead of the 10 of a mixed XYZZ addition.
//! The special cases (empty bucket, P + P, P - P) are settled inside the
//! batch without an inversion or with the doubling slope; operations the
//! scheduler could not place go to a projective overflow bucket.

use super::Backend;
use crate::scheduler::{BatchSink, GreedyScheduler, Op, ScheduleStats, Scheduler};
use crate::Plan;
use std::sync::Mutex;
use zkmsm_curve::{Affine, MsmCurve, Xyzz};
use zkmsm_field::batch::batch_inverse_with_scratch;
use zkmsm_field::PrimeField;

pub struct BatchAffineBackend<S: Scheduler = GreedyScheduler> {
    pub scheduler: S,
    /// Additions per shared inversion; `None` picks from the bucket count.
    pub batch_size: Option<usize>,
    stats: Mutex<ScheduleStats>,
}

impl<S: Scheduler + Default> Default for BatchAffineBackend<S> {
    fn default() -> Self {
        Self::new(S::default())
    }
}

impl<S: Scheduler> BatchAffineBackend<S> {
    pub fn new(scheduler: S) -> Self {
        Self { scheduler, batch_size: None, stats: Mutex::new(ScheduleStats::default()) }
    }

    /// Scheduler statistics summed over the windows accumulated since the last call.
    pub fn take_stats(&self) -> ScheduleStats {
        std::mem::take(&mut *self.stats.lock().unwrap())
    }

    /// Large enough to amortize the inversion, small enough that the
    /// collisions (about T^2 / 2B per batch) stay cheap to re-queue. B/2 was
    /// best of B/16, B/4, B/2 and B at 2^14 points, c = 11 and 12, counted in
    /// instructions (valgrind --tool=callgrind; docs/BENCHMARKS.md).
    pub fn batch_size_for(&self, buckets: usize) -> usize {
        self.batch_size.unwrap_or((buckets / 2).clamp(16, 4096)).max(1)
    }
}

/// What one batch slot does once the inverses are known.
#[derive(Clone, Copy)]
enum Action {
    /// Bucket was empty: it becomes the point.
    Set,
    /// P + (-P): the bucket empties.
    Clear,
    /// Chord (distinct x) or tangent (same point) slope.
    Add,
    Double,
}

struct AffineBuckets<'a, C: MsmCurve> {
    points: &'a [Affine<C>],
    buckets: Vec<Affine<C>>,
    overflow: Option<Vec<Xyzz<C>>>,
    denominators: Vec<C::Base>,
    actions: Vec<Action>,
    scratch: Vec<C::Base>,
}

impl<C: MsmCurve> AffineBuckets<'_, C> {
    #[inline]
    fn point(&self, op: &Op) -> Affine<C> {
        let p = self.points[op.point as usize];
        if op.negate {
            p.neg()
        } else {
            p
        }
    }

    fn into_buckets(self) -> Vec<Xyzz<C>> {
        match self.overflow {
            None => self.buckets.iter().map(Xyzz::from_affine).collect(),
            Some(over) => self.buckets.iter().zip(over).map(|(a, o)| o.add_affine(a)).collect(),
        }
    }
}

impl<C: MsmCurve> BatchSink for AffineBuckets<'_, C> {
    fn execute(&mut self, batch: &[Op]) {
        self.denominators.clear();
        self.actions.clear();
        for op in batch {
            let p = self.point(op);
            let b = &self.buckets[op.bucket as usize];
            let (action, den) = if b.infinity {
                (Action::Set, C::Base::ZERO)
            } else if b.x != p.x {
                (Action::Add, p.x - b.x)
            } else if b.y == p.y && !p.y.is_zero() {
                (Action::Double, p.y.double())
            } else {
                (Action::Clear, C::Base::ZERO)
            };
            self.actions.push(action);
            self.denominators.push(den);
        }
        batch_inverse_with_scratch(&mut self.denominators, &mut self.scratch);
        for ((op, action), inv) in batch.iter().zip(&self.actions).zip(&self.denominators) {
            let p = self.point(op);
            let b = &mut self.buckets[op.bucket as usize];
            match action {
                Action::Set => *b = p,
                Action::Clear => *b = Affine::identity(),
                Action::Add | Action::Double => {
                    let lambda = match action {
                        Action::Add => (p.y - b.y) * *inv,
                        _ => {
                            let x2 = p.x.square();
                            (x2.double() + x2) * *inv
                        }
                    };
                    let x3 = lambda.square() - b.x - p.x;
                    let y3 = lambda * (b.x - x3) - b.y;
                    *b = Affine::new_unchecked(x3, y3);
                }
            }
        }
    }

    fn overflow(&mut self, op: Op) {
        let p = self.point(&op);
        let n = self.buckets.len();
        let over = self.overflow.get_or_insert_with(|| vec![Xyzz::identity(); n]);
        let o = &mut over[op.bucket as usize];
        *o = o.add_affine(&p);
    }
}

impl<C: MsmCurve, S: Scheduler> Backend<C> for BatchAffineBackend<S> {
    type Prepared = Vec<Affine<C>>;
    type Bucket = Xyzz<C>;

    fn name(&self) -> &'static str {
        match self.scheduler.name() {
            "greedy" => "batch-affine/greedy",
            "delayed" => "batch-affine/delayed",
            _ => "batch-affine",
        }
    }

    fn prepare(&self, points: &[Affine<C>]) -> Vec<Affine<C>> {
        points.to_vec()
    }

    fn accumulate(&self, points: &Vec<Affine<C>>, digits: &[i32], plan: &Plan) -> Vec<Xyzz<C>> {
        let batch = self.batch_size_for(plan.buckets);
        let mut engine = AffineBuckets {
            points,
            buckets: vec![Affine::identity(); plan.buckets],
            overflow: None,
            denominators: Vec::with_capacity(batch),
            actions: Vec::with_capacity(batch),
            scratch: Vec::with_capacity(batch),
        };
        let mut ops = digits
            .iter()
            .enumerate()
            .filter(|&(i, &d)| d != 0 && !points[i].infinity)
            .map(|(i, &d)| Op::from_digit(i, d));
        let st = self.scheduler.schedule(&mut ops, plan.buckets, batch, &mut engine);
        self.stats.lock().unwrap().merge(&st);
        engine.into_buckets()
    }

    fn take_schedule_stats(&self) -> Option<ScheduleStats> {
        Some(self.take_stats())
    }
}
