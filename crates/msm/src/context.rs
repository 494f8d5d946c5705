//! `MsmContext`: points set up once (validated, converted: the papers'
//! MSM_INIT, see [`crate::MsmBuilder`]), then any number of MSMs against them.

use crate::backend::choice::BackendChoice;
use crate::backend::{Backend, Bucket, WindowBuckets, XyzzBackend};
use crate::error::MsmError;
pub use crate::input::scalars::check_scalars;
use crate::input::InputCurve;
use crate::pipeline::bucket_aggregation::partitioned_sum;
use crate::pipeline::digits::{window_digits, ScalarLimbs};
use crate::pipeline::fixed_base::Precompute;
use crate::pipeline::plan::Plan;
use crate::pipeline::result_aggregation::combine_windows;
use crate::scheduler::ScheduleStats;
use crate::timing::{Phase, PhaseTimings, Stopwatch};
use rayon::prelude::*;
use std::time::Instant;
use zkmsm_curve::{Affine, Xyzz};
use zkmsm_field::PrimeField;

/// One MSM's result with the plan it used, the time of each phase and, for
/// backends that schedule, what the scheduler did (summed over the windows).
#[derive(Debug, Clone)]
pub struct MsmOutput<C: InputCurve> {
    /// `sum_i s_i * P_i`.
    pub result: Xyzz<C>,
    /// The window size and window count used.
    pub plan: Plan,
    /// Time spent in each phase.
    pub timings: PhaseTimings,
    /// For backends that schedule (batch-affine): what the scheduler did, summed over the windows.
    pub schedule: Option<ScheduleStats>,
}

/// Points validated and prepared once for backend `B` (MSM_INIT), then any number of MSMs over
/// them. Made by [`MsmContext::new`] or, for every other option, [`crate::MsmBuilder`].
pub struct MsmContext<C: InputCurve, B: Backend<C> = XyzzBackend> {
    pub(crate) backend: B,
    pub(crate) prepared: B::Prepared,
    pub(crate) len: usize,
    pub(crate) window: Option<u32>,
    pub(crate) precompute: Option<Precompute>,
    /// The backend by name, when the context was built by name (what a
    /// prepared file records).
    pub(crate) choice: Option<BackendChoice>,
    /// GLV ([`crate::pipeline::glv`]): `prepared` holds the 2n points [P | phi(P)] and
    /// every MSM splits its scalars in halves.
    pub(crate) glv: bool,
}

/// The scalars as the digits are cut from: whole, or GLV halves (2n of them).
#[derive(Clone, Copy)]
enum Cut<'a> {
    Whole(&'a [ScalarLimbs]),
    Halves(&'a [i128]),
}

/// What one bucket set's task hands back.
struct SetResult<T> {
    value: T,
    times: PhaseTimings,
    schedule: Option<ScheduleStats>,
}

impl<C: InputCurve, B: Backend<C>> MsmContext<C, B> {
    /// The precomputation, in fixed-base mode.
    pub fn precompute(&self) -> Option<&Precompute> {
        self.precompute.as_ref()
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no points.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The backend's name (as `--backend` takes it).
    pub fn backend_name(&self) -> &'static str {
        self.backend.name()
    }

    /// Force window size c instead of the cost model's choice (ignored in
    /// fixed-base mode, where c is fixed by the precomputation).
    pub fn set_window(&mut self, c: Option<u32>) {
        if self.precompute.is_none() {
            self.window = c;
        }
    }

    /// True when MSMs run with the GLV endomorphism (2n points, half-size scalars).
    pub fn glv(&self) -> bool {
        self.glv
    }

    /// The plan the next MSM uses: the forced window or the cost model's choice for this many
    /// points (under GLV: twice as many points, half-size scalars).
    pub fn plan(&self) -> Plan {
        let (n, bits) = match crate::pipeline::glv::half_bits::<C>().filter(|_| self.glv) {
            Some(half) => (2 * self.len, half),
            None => (self.len, C::Scalar::NUM_BITS),
        };
        match self.window {
            Some(c) => Plan::with_window(c, bits),
            None => Plan::for_size(n, bits),
        }
    }

    /// `sum_i scalars[i] * P_i`.
    pub fn msm(&self, scalars: &[C::Scalar]) -> Result<Affine<C>, MsmError> {
        let limbs: Vec<ScalarLimbs> = scalars.par_iter().map(C::scalar_to_limbs).collect();
        Ok(self.msm_bigint_report(&limbs)?.result.to_affine())
    }

    /// As [`Self::msm`] for scalars given as canonical integers (< r, else an
    /// error naming the first offending index).
    pub fn msm_bigint(&self, scalars: &[ScalarLimbs]) -> Result<Affine<C>, MsmError> {
        Ok(self.msm_bigint_report(scalars)?.result.to_affine())
    }

    /// The MSM with its plan and per-phase timings. Init (validation and
    /// conversion) happened when the context was built; then, per bucket set
    /// (a window, or in fixed-base mode the windows sharing a set): digits,
    /// accumulation, bucket aggregation; then result aggregation.
    pub fn msm_bigint_report(&self, scalars: &[ScalarLimbs]) -> Result<MsmOutput<C>, MsmError> {
        if scalars.len() != self.len {
            return Err(MsmError::LengthMismatch { points: self.len, scalars: scalars.len() });
        }
        check_scalars::<C>(scalars)?;
        let plan = self.plan();
        if self.len == 0 {
            return Ok(MsmOutput { result: Xyzz::identity(), plan, timings: PhaseTimings::default(), schedule: None });
        }
        let sets = self.precompute.as_ref().map_or(plan.windows, |pre| pre.sets);
        let mut clock = Stopwatch::start();
        let halves = match C::glv().filter(|_| self.glv) {
            Some(glv) => crate::pipeline::glv::split_scalars::<C>(glv, scalars),
            None => Vec::new(),
        };
        clock.lap(Phase::Digits);
        let split = clock.times();
        let cut = if self.glv { Cut::Halves(&halves) } else { Cut::Whole(scalars) };
        let (sums, mut timings, schedule) = if sets as usize >= rayon::current_num_threads() {
            self.sum_sets_each_in_its_task(cut, &plan, sets)
        } else {
            self.sum_sets_across_threads(cut, &plan, sets)
        };
        drop(halves);
        timings.add(&split);
        let mut clock = Stopwatch::start();
        let result = combine_windows(&sums, plan.c);
        clock.lap(Phase::ResultAggregation);
        timings.add(&clock.times());
        Ok(MsmOutput { result, plan, timings, schedule })
    }

    /// Digit stream of bucket set `set`: a window's digits, or in fixed-base
    /// mode the digits of the windows sharing the set. Made inside the set's
    /// task and dropped once accumulated, so only about one stream and one
    /// bucket array per thread are alive at a time, not W x n digits.
    fn digits(&self, set: u32, cut: Cut<'_>, plan: &Plan) -> Vec<i32> {
        match (&self.precompute, cut) {
            (None, Cut::Whole(scalars)) => window_digits(scalars, set, plan),
            (Some(pre), Cut::Whole(scalars)) => pre.stream(set, scalars),
            (_, Cut::Halves(halves)) => crate::pipeline::glv::window_digits(halves, set, plan),
        }
    }

    /// Enough bucket sets to keep every thread busy: digits, accumulation and
    /// the set's bucket aggregation in one task, so its digits and buckets
    /// are freed before the thread takes another set.
    fn sum_sets_each_in_its_task(
        &self,
        cut: Cut<'_>,
        plan: &Plan,
        sets: u32,
    ) -> (Vec<Xyzz<C>>, PhaseTimings, Option<ScheduleStats>) {
        parallel_stage(sets, |set, clock| {
            let digits = self.digits(set, cut, plan);
            clock.lap(Phase::Digits);
            let window = self.backend.accumulate(&self.prepared, &digits, plan);
            drop(digits);
            let schedule = window.schedule_stats();
            clock.lap(Phase::Accumulation);
            let sum = window.sum();
            clock.lap(Phase::BucketAggregation);
            (sum, schedule)
        })
    }

    /// Fewer bucket sets than threads (fixed-base mode): accumulate them,
    /// then split each set's bucket aggregation across threads (PriorMSM).
    fn sum_sets_across_threads(
        &self,
        cut: Cut<'_>,
        plan: &Plan,
        sets: u32,
    ) -> (Vec<Xyzz<C>>, PhaseTimings, Option<ScheduleStats>) {
        let (buckets, mut timings, schedule) = parallel_stage(sets, |set, clock| {
            let digits = self.digits(set, cut, plan);
            clock.lap(Phase::Digits);
            let window = self.backend.accumulate(&self.prepared, &digits, plan);
            let schedule = window.schedule_stats();
            let buckets = window.into_buckets();
            clock.lap(Phase::Accumulation);
            (buckets, schedule)
        });
        let mut clock = Stopwatch::start();
        let groups = (2 * rayon::current_num_threads()).div_ceil(buckets.len());
        let sums = buckets.par_iter().map(|b| partitioned_sum::<C, _>(b, groups).to_xyzz()).collect();
        clock.lap(Phase::BucketAggregation);
        timings.add(&clock.times());
        (sums, timings, schedule)
    }
}

/// Run `task` for bucket sets 0..sets in parallel, each timing its phases on
/// its own stopwatch; the stage's wall time is shared among the phases in
/// proportion to their summed thread time (see [`PhaseTimings`]), and the
/// sets' scheduler statistics are merged.
fn parallel_stage<T: Send>(
    sets: u32,
    task: impl Fn(u32, &mut Stopwatch) -> (T, Option<ScheduleStats>) + Sync + Send,
) -> (Vec<T>, PhaseTimings, Option<ScheduleStats>) {
    let start = Instant::now();
    let results: Vec<SetResult<T>> = (0..sets)
        .into_par_iter()
        .map(|set| {
            let mut clock = Stopwatch::start();
            let (value, schedule) = task(set, &mut clock);
            SetResult { value, times: clock.times(), schedule }
        })
        .collect();
    let wall = start.elapsed();
    let mut thread_time = PhaseTimings::default();
    let mut schedule: Option<ScheduleStats> = None;
    let values = results
        .into_iter()
        .map(|r| {
            thread_time.add(&r.times);
            if let Some(s) = r.schedule {
                schedule.get_or_insert_with(ScheduleStats::default).merge(&s);
            }
            r.value
        })
        .collect();
    (values, thread_time.scaled_to(wall), schedule)
}
