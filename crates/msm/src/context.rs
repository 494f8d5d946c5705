//! `MsmContext`: points set up once (validated, converted: the papers'
//! MSM_INIT), then any number of MSMs against them.

use crate::backend::{Backend, Bucket, XyzzBackend};
use crate::bucket_aggregation::partitioned_sum;
use crate::digits::window_digits;
use crate::fixed_base::Precompute;
use crate::result_aggregation::combine_windows;
use crate::{MsmError, PhaseTimings, Plan, ScalarLimbs};
use rayon::prelude::*;
use std::time::{Duration, Instant};
use zkmsm_curve::{Affine, MsmCurve, PointError, Xyzz};
use zkmsm_field::PrimeField;

/// How much to check of the points given to a context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Validation {
    /// On the curve and in the prime-order subgroup (the default).
    Full,
    /// Only the curve equation: for points already known to be in the subgroup
    /// (e.g. an SRS checked when it was made). Off-subgroup points then give
    /// wrong results, silently.
    OnCurveOnly,
    /// Nothing: the caller has validated the points already (e.g.
    /// [`crate::io::read_points`] with full validation).
    AlreadyValidated,
}

/// One MSM's result with the plan it used and the time of each phase.
#[derive(Debug, Clone)]
pub struct MsmOutput<C: MsmCurve> {
    pub result: Xyzz<C>,
    pub plan: Plan,
    pub timings: PhaseTimings,
}

pub struct MsmContext<C: MsmCurve, B: Backend<C> = XyzzBackend> {
    backend: B,
    prepared: B::Prepared,
    len: usize,
    window: Option<u32>,
    precompute: Option<Precompute>,
}

impl<C: MsmCurve> MsmContext<C, XyzzBackend> {
    /// Validate and prepare `points` for the default backend.
    pub fn new(points: &[Affine<C>]) -> Result<Self, MsmError> {
        Self::with_backend(points, XyzzBackend, Validation::Full)
    }
}

/// Index and reason of the first invalid point, if any.
pub fn validate_points<C: MsmCurve>(points: &[Affine<C>], validation: Validation) -> Result<(), MsmError> {
    if validation == Validation::AlreadyValidated {
        return Ok(());
    }
    let bad = points.par_iter().enumerate().find_map_first(|(i, p)| {
        let r = match validation {
            Validation::Full => p.validate(),
            Validation::OnCurveOnly => {
                if p.is_on_curve() {
                    Ok(())
                } else {
                    Err(PointError::NotOnCurve)
                }
            }
            Validation::AlreadyValidated => Ok(()),
        };
        r.err().map(|e| (i, e))
    });
    match bad {
        None => Ok(()),
        Some((index, PointError::NotOnCurve)) => Err(MsmError::PointNotOnCurve { index }),
        Some((index, PointError::NotInSubgroup)) => Err(MsmError::PointNotInSubgroup { index }),
    }
}

/// Scalars as canonical limbs, rejecting any >= r (naming the first).
pub fn check_scalars<C: MsmCurve>(scalars: &[ScalarLimbs]) -> Result<(), MsmError> {
    let order = C::ORDER;
    let reduced = |s: &ScalarLimbs| {
        for i in (0..4).rev() {
            let o = order.get(i).copied().unwrap_or(0);
            if s[i] != o {
                return s[i] < o;
            }
        }
        false // equal to r
    };
    match scalars.par_iter().position_first(|s| !reduced(s)) {
        None => Ok(()),
        Some(index) => Err(MsmError::ScalarNotReduced { index }),
    }
}

impl<C: MsmCurve, B: Backend<C>> MsmContext<C, B> {
    pub fn with_backend(points: &[Affine<C>], backend: B, validation: Validation) -> Result<Self, MsmError> {
        validate_points(points, validation)?;
        let prepared = backend.prepare(points);
        Ok(Self { backend, prepared, len: points.len(), window: None, precompute: None })
    }

    /// As [`Self::with_backend`], taking the points ([`Backend::prepare_owned`]):
    /// the backend keeps them or frees them as it converts, instead of the
    /// context holding a copy beside the caller's (peak memory).
    pub fn with_backend_owned(points: Vec<Affine<C>>, backend: B, validation: Validation) -> Result<Self, MsmError> {
        validate_points(&points, validation)?;
        let len = points.len();
        let prepared = backend.prepare_owned(points);
        Ok(Self { backend, prepared, len, window: None, precompute: None })
    }

    /// Fixed-base mode: also store `copies - 1` shifted copies of the points
    /// (memory: `copies` times the points) so that windows share bucket sets
    /// and need fewer aggregations and doublings; see [`crate::fixed_base`].
    /// The window size is chosen here (or given) and fixed for the context.
    pub fn with_precompute(
        points: &[Affine<C>],
        backend: B,
        validation: Validation,
        copies: u32,
        window: Option<u32>,
    ) -> Result<Self, MsmError> {
        validate_points(points, validation)?;
        let bits = C::Scalar::NUM_BITS;
        let pre = match window {
            Some(c) => Precompute::new(Plan::with_window(c, bits), copies),
            None => Precompute::for_size(points.len(), copies, bits),
        };
        let prepared = backend.prepare_owned(pre.shifted_copies(points));
        Ok(Self { backend, prepared, len: points.len(), window: Some(pre.plan.c), precompute: Some(pre) })
    }

    /// As [`Self::with_precompute`], taking the points: they become the first
    /// of the copies instead of being copied.
    pub fn with_precompute_owned(
        points: Vec<Affine<C>>,
        backend: B,
        validation: Validation,
        copies: u32,
        window: Option<u32>,
    ) -> Result<Self, MsmError> {
        validate_points(&points, validation)?;
        let bits = C::Scalar::NUM_BITS;
        let len = points.len();
        let pre = match window {
            Some(c) => Precompute::new(Plan::with_window(c, bits), copies),
            None => Precompute::for_size(len, copies, bits),
        };
        let prepared = backend.prepare_owned(pre.shifted_copies_owned(points));
        Ok(Self { backend, prepared, len, window: Some(pre.plan.c), precompute: Some(pre) })
    }

    /// The precomputation, in fixed-base mode.
    pub fn precompute(&self) -> Option<&Precompute> {
        self.precompute.as_ref()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn backend_name(&self) -> &'static str {
        self.backend.name()
    }

    /// Scheduler statistics since the last call (batch-affine backends).
    pub fn take_schedule_stats(&self) -> Option<crate::scheduler::ScheduleStats> {
        self.backend.take_schedule_stats()
    }

    /// Force window size c instead of the cost model's choice (ignored in
    /// fixed-base mode, where c is fixed by the precomputation).
    pub fn set_window(&mut self, c: Option<u32>) {
        if self.precompute.is_none() {
            self.window = c;
        }
    }

    pub fn plan(&self) -> Plan {
        let bits = C::Scalar::NUM_BITS;
        match self.window {
            Some(c) => Plan::with_window(c, bits),
            None => Plan::for_size(self.len, bits),
        }
    }

    /// sum_i scalars[i] * P_i.
    pub fn msm(&self, scalars: &[C::Scalar]) -> Result<Affine<C>, MsmError> {
        let limbs: Vec<ScalarLimbs> = scalars.par_iter().map(C::scalar_to_limbs).collect();
        Ok(self.msm_bigint_report(&limbs)?.result.to_affine())
    }

    /// As [`Self::msm`] for scalars given as canonical integers (< r, else an
    /// error naming the first offending index).
    pub fn msm_bigint(&self, scalars: &[ScalarLimbs]) -> Result<Affine<C>, MsmError> {
        Ok(self.msm_bigint_report(scalars)?.result.to_affine())
    }

    /// The MSM with its plan and per-phase timings.
    pub fn msm_bigint_report(&self, scalars: &[ScalarLimbs]) -> Result<MsmOutput<C>, MsmError> {
        if scalars.len() != self.len {
            return Err(MsmError::LengthMismatch { points: self.len, scalars: scalars.len() });
        }
        check_scalars::<C>(scalars)?;
        let plan = self.plan();
        let mut timings = PhaseTimings::default();
        if self.len == 0 {
            return Ok(MsmOutput { result: Xyzz::identity(), plan, timings });
        }

        // One digit stream per bucket set: a window each, or in fixed-base
        // mode the windows that share a set. Each stream is made in its set's
        // task and dropped once accumulated, so only about one stream and one
        // bucket array per thread are alive at a time, not W x n digits.
        let sets = self.precompute.as_ref().map_or(plan.windows, |pre| pre.sets);
        let stream = |t: u32| match &self.precompute {
            None => window_digits(scalars, t, &plan),
            Some(pre) => pre.stream(t, scalars),
        };
        let accumulate = |t: u32| {
            let start = Instant::now();
            let digits = stream(t);
            let made = Instant::now();
            let buckets = self.backend.accumulate(&self.prepared, &digits, &plan);
            (buckets, made - start, made.elapsed())
        };
        let threads = rayon::current_num_threads();
        let sums: Vec<Xyzz<C>> = if sets as usize >= threads {
            // Enough sets to keep every thread busy: digits, accumulation and
            // the set's sum in one task, so its digits and buckets are freed
            // before the thread takes another set. The backend may sum the set
            // itself ([`Backend::window_sum`]), else the shared running sum.
            let t = Instant::now();
            let per_set: Vec<(Xyzz<C>, [Duration; 3])> = (0..sets)
                .into_par_iter()
                .map(|set| {
                    let start = Instant::now();
                    let digits = stream(set);
                    let made = Instant::now();
                    if let Some((sum, aggregation)) = self.backend.window_sum(&self.prepared, &digits, &plan) {
                        return (sum, [made - start, made.elapsed().saturating_sub(aggregation), aggregation]);
                    }
                    let buckets = self.backend.accumulate(&self.prepared, &digits, &plan);
                    drop(digits);
                    let summed = Instant::now();
                    let sum = partitioned_sum::<C, _>(&buckets, 1).to_xyzz();
                    (sum, [made - start, summed - made, summed.elapsed()])
                })
                .collect();
            let [d, a, b] = split_wall_time(t.elapsed(), per_set.iter().map(|s| s.1));
            (timings.digits, timings.accumulation, timings.bucket_aggregation) = (d, a, b);
            per_set.into_iter().map(|s| s.0).collect()
        } else {
            // Fewer sets than threads (fixed-base mode): accumulate them, then
            // split each set's aggregation across threads (PriorMSM).
            let t = Instant::now();
            let per_set: Vec<(Vec<B::Bucket>, Duration, Duration)> =
                (0..sets).into_par_iter().map(accumulate).collect();
            let [d, a] = split_wall_time(t.elapsed(), per_set.iter().map(|s| [s.1, s.2]));
            (timings.digits, timings.accumulation) = (d, a);
            let t = Instant::now();
            let groups = (2 * threads).div_ceil(per_set.len());
            let sums = per_set.par_iter().map(|s| partitioned_sum::<C, _>(&s.0, groups).to_xyzz()).collect();
            timings.bucket_aggregation = t.elapsed();
            sums
        };

        let t = Instant::now();
        let result = combine_windows(&sums, plan.c);
        timings.result_aggregation = t.elapsed();
        Ok(MsmOutput { result, plan, timings })
    }
}

/// Split the wall time of a parallel stage among its fused phases in
/// proportion to the thread time each took, summed over the tasks (see
/// [`PhaseTimings`]).
fn split_wall_time<const K: usize>(wall: Duration, tasks: impl Iterator<Item = [Duration; K]>) -> [Duration; K] {
    let mut sums = [Duration::ZERO; K];
    for task in tasks {
        for (s, d) in sums.iter_mut().zip(task) {
            *s += d;
        }
    }
    let total: f64 = sums.iter().map(Duration::as_secs_f64).sum();
    if total == 0.0 {
        return [wall / K as u32; K];
    }
    sums.map(|s| wall.mul_f64(s.as_secs_f64() / total))
}

/// One-shot MSM for callers that do not keep a context.
pub fn msm<C: MsmCurve>(points: &[Affine<C>], scalars: &[C::Scalar]) -> Result<Affine<C>, MsmError> {
    if points.len() != scalars.len() {
        return Err(MsmError::LengthMismatch { points: points.len(), scalars: scalars.len() });
    }
    MsmContext::new(points)?.msm(scalars)
}

/// One-shot MSM on canonical integer scalars.
pub fn msm_bigint<C: MsmCurve>(points: &[Affine<C>], scalars: &[ScalarLimbs]) -> Result<Affine<C>, MsmError> {
    if points.len() != scalars.len() {
        return Err(MsmError::LengthMismatch { points: points.len(), scalars: scalars.len() });
    }
    MsmContext::new(points)?.msm_bigint(scalars)
}
