//! Whole-system timeline of an MSM accelerator: the host's digits (or a
//! copy of the scalars), the PCIe transfer down, the device's point reads
//! from DDR, bucket accumulation and (where the design does it) bucket
//! aggregation on the device, the PCIe transfer of results or buckets back,
//! and the host's bucket and result aggregation; overlapped as each design
//! overlaps them, for one MSM or several over the same points (Hardcaml's
//! masked rounds, ZPrize's batch of four).
//!
//! * [`System`]: one design's parameters, each a [`Param`] with its source;
//! * [`simulate`]: the timeline of a system ([`engine`] does the overlap);
//! * [`device::DeviceProfile`]: device cycles from the cycle model;
//! * [`anchors`]: the published designs with their published parameters and
//!   measured times; [`project`]: zkmsm's own configurations.
//!
//! See docs/MODEL.md, "Whole-system timeline".

pub mod anchors;
pub mod device;
pub mod engine;
pub mod project;
pub mod table;

#[cfg(test)]
mod tests;

use crate::model::ModelConfig;
use crate::sched::core::agg_window_cycles;
use device::DeviceProfile;
use engine::{Gate, StageDef};

/// Where a parameter's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    /// Stated or measured by the design's own publication (where in it).
    Paper(&'static str),
    /// Measured here, on zkmsm's host code (what and where it is recorded).
    Here(&'static str),
    /// Not published: assumed (why this value).
    Assumed(&'static str),
}

/// A parameter value with its source.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// The value (units in the field's documentation).
    pub value: f64,
    /// Where it comes from.
    pub src: Src,
}

impl Param {
    /// A published value.
    pub const fn paper(value: f64, at: &'static str) -> Self {
        Self { value, src: Src::Paper(at) }
    }
    /// A value measured here.
    pub const fn here(value: f64, at: &'static str) -> Self {
        Self { value, src: Src::Here(at) }
    }
    /// An assumed value.
    pub const fn assumed(value: f64, why: &'static str) -> Self {
        Self { value, src: Src::Assumed(why) }
    }
    /// True for an assumption.
    pub fn is_assumed(&self) -> bool {
        matches!(self.src, Src::Assumed(_))
    }
}

/// How the windows of one MSM map onto device units of work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One window after another on one adder (CycloneMSM, PriorMSM): a unit
    /// is a window and streams every point once.
    SequentialWindows,
    /// K cores on one point stream, window w on core w mod K (SuperScalar,
    /// zkmsm): a unit is a pass of K windows and streams every point once.
    Passes {
        /// Cores K.
        cores: u32,
    },
    /// Every window at once (Hardcaml round-robin, ZPrize compute units): a
    /// unit is the whole MSM and streams every point once.
    Concurrent,
}

/// What crosses PCIe towards the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Digits made on the host, streamed with the accumulation, unit by unit.
    Digits,
    /// Whole scalars, streamed into the device as they arrive.
    ScalarsStreamed,
    /// Whole scalars, copied into device memory before the MSM starts there.
    ScalarsStaged,
}

/// One design's whole-system parameters. Rates are per second, sizes in
/// bytes, times in seconds; a rate of 0 means the stage does not exist.
#[derive(Clone, Debug)]
pub struct System {
    /// Name in reports.
    pub name: String,
    /// Points per MSM.
    pub n: u64,
    /// MSMs over the same points, run back to back.
    pub msms: u32,
    /// The device's scheduler, pipeline and aggregation program (the cycle
    /// model's configuration; its N is ignored).
    pub model: ModelConfig,
    /// Device clock, MHz.
    pub clock_mhz: Param,
    /// Windows onto units.
    pub layout: Layout,
    /// Bucket aggregation on the device by the model's aggregation program
    /// (else buckets go back to the host).
    pub device_agg: bool,
    /// zkmsm's core: bucket aggregation on the device in groups of
    /// 2^`core_agg_log_m` (rtl/src/zk_core_agg.sv; 0: not used): each window
    /// holds the scheduler one cycle per addition, the MSM's last window
    /// adds its program's latency, 2G partial sums a window go back and the
    /// host adds them (3G additions and lm doublings, counted as 1.5G + lm/2
    /// of `host_bucket_s`, a running-sum step of two additions).
    pub core_agg_log_m: u32,
    /// Result aggregation (Horner over windows) on the device.
    pub device_result_agg: bool,
    /// Digits one host thread makes per second (0: the device makes them).
    pub host_digit_rate: Param,
    /// Host threads making digits.
    pub host_digit_threads: Param,
    /// Host copy of the scalars before the transfer, bytes/s (0: none).
    pub staging_bps: Param,
    /// What goes down the link.
    pub input: Input,
    /// Bytes per digit (`Input::Digits`) or per scalar.
    pub input_bytes: Param,
    /// Usable host-to-device and device-to-host bandwidth, bytes/s.
    pub pcie_bps: Param,
    /// Latency of a read-back from the device, s.
    pub pcie_latency_s: Param,
    /// Peak DDR bandwidth of the channels the point reader uses, bytes/s.
    pub ddr_bps: Param,
    /// Share of the DDR peak a sequential stream gets.
    pub ddr_efficiency: Param,
    /// DDR bytes read per point per unit (point, and scalar if read there).
    pub ddr_bytes_per_point: Param,
    /// Bytes of one bucket read back.
    pub bucket_bytes: Param,
    /// Bytes of one window result read back (device aggregation).
    pub result_bytes: Param,
    /// Host bucket aggregation, seconds per bucket per thread.
    pub host_bucket_s: Param,
    /// Host threads aggregating buckets (windows in parallel).
    pub host_agg_threads: Param,
    /// Host work per MSM after its last window (result aggregation and
    /// post-processing), s.
    pub host_final_s: Param,
    /// The host sends unit j + 1 only after reading unit j's result
    /// (CycloneMSM Algorithm 3).
    pub serial_windows: bool,
}

impl System {
    /// Every parameter by name.
    pub fn params(&self) -> Vec<(&'static str, Param)> {
        vec![
            ("clock_mhz", self.clock_mhz),
            ("host_digit_rate", self.host_digit_rate),
            ("host_digit_threads", self.host_digit_threads),
            ("staging_bps", self.staging_bps),
            ("input_bytes", self.input_bytes),
            ("pcie_bps", self.pcie_bps),
            ("pcie_latency_s", self.pcie_latency_s),
            ("ddr_bps", self.ddr_bps),
            ("ddr_efficiency", self.ddr_efficiency),
            ("ddr_bytes_per_point", self.ddr_bytes_per_point),
            ("bucket_bytes", self.bucket_bytes),
            ("result_bytes", self.result_bytes),
            ("host_bucket_s", self.host_bucket_s),
            ("host_agg_threads", self.host_agg_threads),
            ("host_final_s", self.host_final_s),
        ]
    }

    /// Names of the parameters that are assumptions.
    pub fn assumed(&self) -> Vec<&'static str> {
        self.params().into_iter().filter(|(_, p)| p.is_assumed()).map(|(n, _)| n).collect()
    }

    /// The device profile, fitted at 2^lo and 2^(lo + 1) with lo =
    /// max(16, c + 1): below ~2^c points a window's accumulation is shorter
    /// than the read-out of its 2^(c-1) buckets, which the RTL core overlaps
    /// with the next window, and ZPrize's 3,500 cycles in flight are a
    /// visible share of a small MSM, so the cycles are not yet linear in N
    /// there (fitted at 2^14 and 2^15, ZPrize's line was 2.7% off the model
    /// at 2^16).
    pub fn profile(&self) -> DeviceProfile {
        let lo = (self.model.c + 1).max(16);
        DeviceProfile::fit(&self.model, lo, lo + 1)
    }

    /// Units of one MSM and the windows in each.
    pub fn units(&self, windows: usize) -> Vec<usize> {
        match self.layout {
            Layout::SequentialWindows => vec![1; windows],
            Layout::Concurrent => vec![windows],
            Layout::Passes { cores } => {
                let k = cores.max(1) as usize;
                (0..windows.div_ceil(k)).map(|p| k.min(windows - p * k)).collect()
            }
        }
    }
}

/// The stages, in flow order.
pub const STAGES: [&str; 7] = [
    "host digits",
    "host staging copy",
    "PCIe down",
    "device accumulation",
    "device aggregation",
    "PCIe up",
    "host aggregation",
];

/// A system's timeline.
#[derive(Clone, Debug)]
pub struct Timeline {
    /// Wall time of all `msms` MSMs, s.
    pub total_s: f64,
    /// `total_s / msms`.
    pub per_msm_s: f64,
    /// Busy time of each stage of [`STAGES`], summed over the run, s.
    pub busy_s: Vec<f64>,
    /// Device accumulation cycles of one MSM (from the profile).
    pub acc_cycles: f64,
    /// Units per MSM.
    pub units_per_msm: usize,
}

impl Timeline {
    /// Busy time of the named stage.
    pub fn busy(&self, stage: &str) -> f64 {
        STAGES.iter().position(|s| *s == stage).map_or(0.0, |i| self.busy_s[i])
    }
}

fn rate_time(amount: f64, rate: f64) -> f64 {
    if rate > 0.0 && amount > 0.0 {
        amount / rate
    } else {
        0.0
    }
}

/// The timeline of `sys` with device cycles from `prof`.
pub fn simulate(sys: &System, prof: &DeviceProfile) -> Timeline {
    let n = sys.n as f64;
    let f = sys.clock_mhz.value * 1e6;
    let units = sys.units(prof.windows);
    let per_unit_acc = prof.acc_cycles(sys.n) / units.len() as f64 / f;
    let ddr = sys.ddr_bps.value * sys.ddr_efficiency.value;
    let acc_s = per_unit_acc.max(rate_time(n * sys.ddr_bytes_per_point.value, ddr));
    let agg_parallel = match sys.layout {
        Layout::Passes { cores } => cores.max(1) as usize,
        _ => 1,
    };
    let input_streamed = sys.input != Input::ScalarsStaged;
    let stages = [
        StageDef { name: STAGES[0], resource: 0, streamed: true },
        StageDef { name: STAGES[1], resource: 1, streamed: false },
        StageDef { name: STAGES[2], resource: 2, streamed: input_streamed },
        StageDef { name: STAGES[3], resource: 3, streamed: true },
        StageDef { name: STAGES[4], resource: 3, streamed: false },
        StageDef { name: STAGES[5], resource: 4, streamed: false },
        StageDef { name: STAGES[6], resource: 5, streamed: false },
    ];
    let threads = sys.host_digit_threads.value.max(1.0);
    let agg_threads = sys.host_agg_threads.value.max(1.0);
    let buckets = prof.buckets as f64;
    // the core's device aggregation: one window's held cycles and latency
    let lm = sys.core_agg_log_m;
    let groups = (prof.buckets >> lm.min(31)) as f64;
    let wait = (sys.model.machine.depth + sys.model.core.agg_latency) as u64;
    let (held, latency) = agg_window_cycles(prof.buckets as u64, lm, wait);
    let mut work = Vec::new();
    for _ in 0..sys.msms {
        for (u, &w) in units.iter().enumerate() {
            let (first, last) = (u == 0, u + 1 == units.len());
            let wf = w as f64;
            let digits = rate_time(n * wf, sys.host_digit_rate.value * threads);
            let scalar_bytes = if first { n * sys.input_bytes.value } else { 0.0 };
            let staging = rate_time(scalar_bytes, sys.staging_bps.value);
            let down = match sys.input {
                Input::Digits => rate_time(n * wf * sys.input_bytes.value, sys.pcie_bps.value),
                _ => rate_time(scalar_bytes, sys.pcie_bps.value),
            };
            let mut dev_agg = 0.0;
            if lm > 0 {
                dev_agg += (w.div_ceil(agg_parallel) as u64 * held) as f64 / f;
                if last {
                    dev_agg += latency as f64 / f;
                }
            }
            if sys.device_agg {
                dev_agg += (w.div_ceil(agg_parallel) as u64 * prof.agg_cycles_per_window) as f64 / f;
            }
            if sys.device_result_agg && last {
                dev_agg += prof.result_agg_cycles as f64 / f;
            }
            let back = if sys.device_agg {
                wf * sys.result_bytes.value
            } else if lm > 0 {
                wf * 2.0 * groups * sys.bucket_bytes.value
            } else {
                wf * buckets * sys.bucket_bytes.value
            };
            let up = sys.pcie_latency_s.value + rate_time(back, sys.pcie_bps.value);
            let mut host = 0.0;
            if lm > 0 {
                host += wf * (1.5 * groups + 0.5 * lm as f64) * sys.host_bucket_s.value / agg_threads;
            } else if !sys.device_agg {
                // Threads split a window's buckets into ranges (a running
                // sum each, then one combination): parallel within a window.
                host += wf * buckets * sys.host_bucket_s.value / agg_threads;
            }
            if last {
                host += sys.host_final_s.value;
            }
            work.push(vec![digits, staging, down, acc_s, dev_agg, up, host]);
        }
    }
    let gate = sys.serial_windows.then_some(Gate { from: 6, to: 2 });
    let flow = engine::run(&stages, &work, gate);
    Timeline {
        total_s: flow.total_s,
        per_msm_s: flow.total_s / sys.msms.max(1) as f64,
        busy_s: flow.busy_s,
        acc_cycles: prof.acc_cycles(sys.n),
        units_per_msm: units.len(),
    }
}

/// One line per stage: busy time over the run, and the total.
pub fn describe(sys: &System, prof: &DeviceProfile, t: &Timeline) -> String {
    let mut s = format!(
        "{}: {:.1} ms ({:.1} ms per MSM); {} units per MSM; accumulation {:.4} cycles per digit (model fitted at 2^{} and 2^{})\n",
        sys.name,
        1e3 * t.total_s,
        1e3 * t.per_msm_s,
        t.units_per_msm,
        prof.cycles_per_digit(sys.n),
        prof.fitted_at.0,
        prof.fitted_at.1
    );
    for (name, busy) in STAGES.iter().zip(&t.busy_s) {
        if *busy > 0.0 {
            s.push_str(&format!("  {name:<20} busy {:>10.1} ms\n", 1e3 * busy));
        }
    }
    s
}
