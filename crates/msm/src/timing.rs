//! Wall-clock time of each phase of one MSM, and the stopwatch that measures it.

use std::time::{Duration, Instant};

/// The phases of one MSM after init, in pipeline order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Signed-digit slicing of the scalars.
    Digits,
    /// Bucket accumulation.
    Accumulation,
    /// Bucket aggregation (running sums).
    BucketAggregation,
    /// Result aggregation (doublings across windows).
    ResultAggregation,
}

impl Phase {
    /// Every phase, in pipeline order.
    pub const ALL: [Phase; 4] =
        [Phase::Digits, Phase::Accumulation, Phase::BucketAggregation, Phase::ResultAggregation];

    /// The phase's key in `--json`'s `phases_ms`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Digits => "digits",
            Phase::Accumulation => "accumulation",
            Phase::BucketAggregation => "bucket_aggregation",
            Phase::ResultAggregation => "result_aggregation",
        }
    }
}

/// Wall-clock time of each phase of one MSM; [`Self::total`] is the MSM's
/// wall time (less the scalar check).
///
/// Digits, accumulation and bucket aggregation run fused: each window's (or
/// fixed-base bucket set's) task makes that window's digits, accumulates its
/// buckets and, when there are at least as many windows as threads, sums
/// them, so only about one window per thread is in memory. Those phases'
/// wall time is then the fused stage's wall time split in proportion to the
/// thread time each phase took, summed over the tasks ([`Self::scaled_to`]).
/// With fewer bucket sets than threads (fixed-base mode), bucket aggregation
/// runs after all accumulation, split across threads, and is its own wall
/// time. Result aggregation is always its own wall time.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhaseTimings {
    /// Signed-digit slicing.
    pub digits: Duration,
    /// Bucket accumulation.
    pub accumulation: Duration,
    /// Bucket aggregation.
    pub bucket_aggregation: Duration,
    /// Result aggregation.
    pub result_aggregation: Duration,
}

impl PhaseTimings {
    /// The four phases' sum.
    pub fn total(&self) -> Duration {
        self.digits + self.accumulation + self.bucket_aggregation + self.result_aggregation
    }

    /// The time of one phase.
    pub fn get(&self, phase: Phase) -> Duration {
        match phase {
            Phase::Digits => self.digits,
            Phase::Accumulation => self.accumulation,
            Phase::BucketAggregation => self.bucket_aggregation,
            Phase::ResultAggregation => self.result_aggregation,
        }
    }

    fn get_mut(&mut self, phase: Phase) -> &mut Duration {
        match phase {
            Phase::Digits => &mut self.digits,
            Phase::Accumulation => &mut self.accumulation,
            Phase::BucketAggregation => &mut self.bucket_aggregation,
            Phase::ResultAggregation => &mut self.result_aggregation,
        }
    }

    /// Add `d` to `phase`.
    pub fn charge(&mut self, phase: Phase, d: Duration) {
        *self.get_mut(phase) += d;
    }

    /// Phase by phase sum.
    pub fn add(&mut self, o: &PhaseTimings) {
        for p in Phase::ALL {
            self.charge(p, o.get(p));
        }
    }

    /// The wall time of a parallel stage shared among its phases in
    /// proportion to `self` (their thread time summed over the stage's tasks).
    pub fn scaled_to(&self, wall: Duration) -> PhaseTimings {
        let total = self.total().as_secs_f64();
        let mut out = PhaseTimings::default();
        for p in Phase::ALL {
            let share = if total == 0.0 { 0.0 } else { self.get(p).as_secs_f64() / total };
            out.charge(p, wall.mul_f64(share));
        }
        out
    }

    /// (name, milliseconds) pairs, in pipeline order.
    pub fn as_ms(&self) -> [(&'static str, f64); 4] {
        Phase::ALL.map(|p| (p.name(), self.get(p).as_secs_f64() * 1e3))
    }
}

/// Charges the time between laps to phases: a task calls
/// [`Self::lap`] as it finishes each phase.
#[derive(Debug, Clone)]
pub struct Stopwatch {
    last: Instant,
    times: PhaseTimings,
}

impl Stopwatch {
    /// A stopwatch started now, every phase at zero.
    pub fn start() -> Self {
        Self { last: Instant::now(), times: PhaseTimings::default() }
    }

    /// Charge the time since the previous lap (or the start) to `phase`.
    pub fn lap(&mut self, phase: Phase) {
        let now = Instant::now();
        self.times.charge(phase, now - self.last);
        self.last = now;
    }

    /// The time charged so far, per phase.
    pub fn times(&self) -> PhaseTimings {
        self.times
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaled_to_shares_the_wall_time_in_proportion() {
        let ms = Duration::from_millis;
        let t = PhaseTimings { digits: ms(10), accumulation: ms(30), bucket_aggregation: ms(60), ..Default::default() };
        let s = t.scaled_to(ms(50));
        assert_eq!((s.digits, s.accumulation, s.bucket_aggregation), (ms(5), ms(15), ms(30)));
        assert_eq!(s.result_aggregation, Duration::ZERO);
        assert_eq!(PhaseTimings::default().scaled_to(ms(7)).total(), Duration::ZERO);
    }

    #[test]
    fn laps_charge_the_phase_just_finished() {
        let mut w = Stopwatch::start();
        std::thread::sleep(Duration::from_millis(2));
        w.lap(Phase::Accumulation);
        w.lap(Phase::Digits);
        let t = w.times();
        assert!(t.accumulation >= Duration::from_millis(2));
        assert_eq!(t.bucket_aggregation + t.result_aggregation, Duration::ZERO);
    }
}
