//! Wall-clock time of each phase of one MSM.

use std::time::Duration;

/// Wall-clock time of each phase of one MSM; [`Self::total`] is the MSM's
/// wall time (less the scalar check).
///
/// Digits, accumulation and bucket aggregation run fused: each window's (or
/// fixed-base bucket set's) task makes that window's digits, accumulates its
/// buckets and, when there are at least as many windows as threads, sums
/// them (or has the backend do both, [`crate::Backend::window_sum`], which
/// reports its aggregation part), so only about one window per thread is in
/// memory. Those phases' wall time is then the fused stage's wall time split
/// in proportion to the thread time each phase took, summed over the tasks. With fewer bucket sets than
/// threads (fixed-base mode), bucket aggregation runs after all accumulation,
/// split across threads, and is its own wall time. Result aggregation is
/// always its own wall time.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhaseTimings {
    pub digits: Duration,
    pub accumulation: Duration,
    pub bucket_aggregation: Duration,
    pub result_aggregation: Duration,
}

impl PhaseTimings {
    pub fn total(&self) -> Duration {
        self.digits + self.accumulation + self.bucket_aggregation + self.result_aggregation
    }

    /// (name, milliseconds) pairs, in pipeline order.
    pub fn as_ms(&self) -> [(&'static str, f64); 4] {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        [
            ("digits", ms(self.digits)),
            ("accumulation", ms(self.accumulation)),
            ("bucket_aggregation", ms(self.bucket_aggregation)),
            ("result_aggregation", ms(self.result_aggregation)),
        ]
    }
}
