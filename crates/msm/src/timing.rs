//! Wall-clock time of each phase of one MSM.

use std::time::Duration;

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
