//! The published designs, each with its own published parameters (the
//! source of every value beside it) and its measured whole-system time.
//! The structure is the same for all ([`super::simulate`]); only the
//! parameters differ, and nothing is fitted to the measured times.

use super::{Input, Layout, Param, System};
use crate::model::{AggKind, ModelConfig, ScalarField, SchedKind};

/// A design, its published time and what the time covers.
#[derive(Clone, Debug)]
pub struct Anchor {
    /// The system fed to the timeline.
    pub system: System,
    /// Published (measured) time: per MSM for masked rounds, else the
    /// whole run, ms.
    pub published_ms: f64,
    /// Compare per MSM (`total / msms`) instead of the whole run.
    pub per_msm: bool,
    /// Where the published time is.
    pub published_at: &'static str,
}

const MB: f64 = 1e6;
const GB: f64 = 1e9;

/// 2^26 scalars of 32 B crossed PCIe in 198 ms on AWS F1 (Hardcaml MSM,
/// Table 3): 10.85 GB/s, a Gen3 x16 link.
pub fn pcie_f1() -> Param {
    Param::paper((1u64 << 26) as f64 * 32.0 / 0.198, "Hardcaml Table 3: 2^26 scalars to the FPGA in 198 ms")
}

/// The same rate for the U250's Gen3 x16 link (no ZPrize 2023 figure).
pub fn pcie_u250() -> Param {
    Param::assumed(pcie_f1().value, "U250 Gen3 x16 as fast as F1's (Hardcaml Table 3)")
}

/// Read-back latency of a small result.
pub fn pcie_latency() -> Param {
    Param::assumed(2e-6, "one PCIe round trip, ~2 us")
}

/// DDR efficiency of a sequential stream (the value docs/RTL.md assumed
/// before this timeline existed).
pub fn ddr_efficiency() -> Param {
    Param::assumed(0.7, "refresh and page changes; docs/RTL.md's figure")
}

/// U250: four DDR4-2400 channels of 19.2 GB/s.
pub fn ddr_u250() -> Param {
    Param::assumed(4.0 * 19.2 * GB, "U250 data sheet: 4 x DDR4-2400 (not in the seed texts)")
}

/// Digits per second of one host thread: zkmsm's producer
/// (`machine::produce_digits`), docs/RTL.md, `digit_stream` bench.
pub fn digit_rate_here() -> Param {
    Param::here(2.48e8, "docs/RTL.md: digit_stream bench, 2.48e8 digits/s per thread, EPYC Zen 3")
}

/// Host bucket aggregation, one thread: 93.8 ms per 2^15 buckets.
pub fn host_bucket_here() -> Param {
    Param::here(93.8e-3 / 32768.0, "docs/RTL.md: 93.8 ms per c = 16 window (2^15 buckets), one thread, EPYC Zen 3")
}

/// Window combination on the host.
pub fn host_final_here() -> Param {
    Param::here(0.23e-3, "docs/RTL.md: window combination 0.23 ms")
}

/// Host threads aggregating buckets on the ZPrize 2023 test machine.
pub fn zprize_host_threads() -> Param {
    Param::assumed(8.0, "ZPrize 2023 host's threads not published: 8")
}

fn none(why: &'static str) -> Param {
    Param::paper(0.0, why)
}

/// CycloneMSM, one 2^log_n MSM on AWS F1 (Table 3).
pub fn cyclone(log_n: u32) -> System {
    let mut model = SchedKind::Delayed.preset();
    model.c = 16; // 4.4 "c = 16-bit signed reduced scalars"
    model.machine.depth = 96; // 4.3: "has length 96 stages" at 250 MHz
    model.mul_latency = 39; // Table 2: mul, 39 stages
    model.agg = AggKind::Serial; // 4.4: reconfigured full Add, ~1.5T per Add
    System {
        name: format!("CycloneMSM 2^{log_n}"),
        n: 1 << log_n,
        msms: 1,
        model,
        clock_mhz: Param::paper(250.0, "4.3 / 5.2: runs at 250 MHz"),
        layout: Layout::SequentialWindows,
        device_agg: true,
        core_agg_log_m: 0,
        device_result_agg: false,
        host_digit_rate: Param::assumed(
            digit_rate_here().value,
            "F1 host not measured: zkmsm's producer rate as a proxy",
        ),
        host_digit_threads: Param::paper(1.0, "4.4: reduced scalars computed on the fly while streaming"),
        staging_bps: none("4.4: digits streamed, no staging copy"),
        input: Input::Digits,
        input_bytes: Param::paper(8.0, "4.4: one 16-bit reduced scalar per 64-bit command"),
        pcie_bps: Param::paper(8.0 * 250.0 * MB, "4.4: at most 64 bits/cycle from PCIe at 250 MHz"),
        pcie_latency_s: pcie_latency(),
        ddr_bps: Param::paper(3.0 * 16.0 * GB, "4.4: 3 channels, one per coordinate; 5.1: 16 GB/s each"),
        ddr_efficiency: ddr_efficiency(),
        ddr_bytes_per_point: Param::paper(3.0 * 48.0, "4.3: (x, y, u) of 377 bits in 384-bit words"),
        bucket_bytes: Param::paper(4.0 * 48.0, "4.3: (X : Y : Z : T)"),
        result_bytes: Param::paper(4.0 * 48.0, "4.3: (X : Y : Z : T)"),
        host_bucket_s: none("buckets aggregated on the FPGA"),
        host_agg_threads: Param::paper(1.0, "Algorithm 3: one host loop"),
        host_final_s: none("4.4 Result aggregation: negligible"),
        serial_windows: true,
    }
}

/// CycloneMSM Table 3 (ms): 2^22 .. 2^26.
pub const CYCLONE_TABLE3: [(u32, f64); 5] = [(22, 817.9), (23, 1133.0), (24, 1761.0), (25, 3016.0), (26, 5656.0)];

/// Hardcaml MSM, `rounds` MSMs of 2^26 over the same points on AWS F1.
pub fn hardcaml(rounds: u32) -> System {
    let mut model = SchedKind::Hardcaml.preset(); // c = 13, T = 238, FIFOs 4 deep
                                                  // The paper's 0.543% stall rate is its model's, on full 13-bit slices;
                                                  // how the design treats the narrow top slice is not published.
    model.full_width = true;
    let n = 1u64 << 26;
    let buckets = 20.0 * 4096.0; // 20 windows of 2^12 buckets (signed 13-bit slices)
    System {
        name: format!("Hardcaml MSM 2^26 x {rounds}"),
        n,
        msms: rounds,
        model,
        clock_mhz: Param::paper(278.0, "abstract, 4.5: 278 MHz"),
        layout: Layout::Concurrent,
        device_agg: false,
        core_agg_log_m: 0,
        device_result_agg: false,
        host_digit_rate: none("4.4: the FPGA slices the scalars"),
        host_digit_threads: none("4.4: the FPGA slices the scalars"),
        staging_bps: Param::paper(n as f64 * 32.0 / 0.289, "Table 3: memcpy of 2^26 scalars, 289 ms"),
        input: Input::ScalarsStreamed,
        input_bytes: Param::paper(32.0, "Table 3 / 4.4: whole scalars sent"),
        pcie_bps: pcie_f1(),
        pcie_latency_s: pcie_latency(),
        ddr_bps: Param::paper(16.0 * GB, "4.1: one DDR interface (CycloneMSM 5.1: 16 GB/s on F1)"),
        ddr_efficiency: ddr_efficiency(),
        ddr_bytes_per_point: Param::paper(3.0 * 48.0, "4.2: precomputed (x, y, t) in DDR"),
        bucket_bytes: Param::paper(4.0 * 48.0, "4.5: extended coordinates"),
        result_bytes: Param::paper(4.0 * 48.0, "4.5: extended coordinates"),
        host_bucket_s: Param::paper(0.470 / buckets, "Table 3: on-host bucket sums and post-processing, 470 ms"),
        host_agg_threads: Param::paper(1.0, "Table 3's 470 ms is the step's wall time"),
        host_final_s: none("in Table 3's 470 ms"),
        serial_windows: false,
    }
}

/// ZPrize 2023 batched affine (Yrrid / Ingonyama): four 2^24 MSMs on a U250.
pub fn zprize_batched_affine(field: ScalarField) -> System {
    let mut model: ModelConfig = SchedKind::Zprize.preset(); // 3 CUs, c = 13, 336-cycle frames
    model.field = field;
    model.bits = field.bits();
    model.full_width = true; // the design's 21 windows of 13 bits are all full
    let curve = match field {
        ScalarField::Bls12_377 => "BLS12-377",
        ScalarField::Bls12_381 => "BLS12-381",
    };
    System {
        name: format!("ZPrize 2023 batched affine, {curve}, 4 x 2^24"),
        n: 1 << 24,
        msms: 4,
        model,
        clock_mhz: Param::paper(250.0, "blog: both designs clocked at 250 MHz"),
        layout: Layout::Concurrent,
        device_agg: false,
        core_agg_log_m: 0,
        device_result_agg: false,
        host_digit_rate: none("blog: the CUs' slicer makes the digits"),
        host_digit_threads: none("blog: the CUs' slicer makes the digits"),
        staging_bps: none("blog: scalars transferred to device memory"),
        input: Input::ScalarsStaged,
        input_bytes: Param::paper(32.0, "blog compute phase 1: scalars to device memory"),
        pcie_bps: pcie_u250(),
        pcie_latency_s: pcie_latency(),
        ddr_bps: ddr_u250(),
        ddr_efficiency: ddr_efficiency(),
        ddr_bytes_per_point: Param::paper(2.0 * 48.0 + 32.0, "blog: ingress reads affine point and scalar"),
        bucket_bytes: Param::paper(2.0 * 48.0, "blog: affine buckets (window memories) sent back"),
        result_bytes: Param::paper(2.0 * 48.0, "affine"),
        host_bucket_s: Param::assumed(host_bucket_here().value, "host not published: zkmsm's measured rate"),
        host_agg_threads: zprize_host_threads(),
        host_final_s: host_final_here(),
        serial_windows: false,
    }
}

/// SuperScalar (ZPrize 2023): three twisted-Edwards cores on one point
/// stream, 280 MHz, BLS12-377, four 2^24 MSMs. Only the cores, the clock,
/// the curve and the time are known here (the seed texts do not describe
/// it); the rest is assumed, as named.
pub fn superscalar(c: u32) -> System {
    let mut model = SchedKind::Core.preset();
    model.c = c;
    model.core.cmax = c.max(model.core.cmax);
    model.core.cores = 3;
    model.core.fanout_depth = 4;
    System {
        name: format!("SuperScalar, BLS12-377, 4 x 2^24, c = {c}"),
        n: 1 << 24,
        msms: 4,
        model,
        clock_mhz: Param::paper(280.0, "ZPrize 2023 entry: 280 MHz"),
        layout: Layout::Passes { cores: 3 },
        device_agg: false,
        core_agg_log_m: 0,
        device_result_agg: false,
        host_digit_rate: none("assumed: the device slices the scalars, as in the ZPrize harness"),
        host_digit_threads: none("assumed: the device slices the scalars"),
        staging_bps: none("scalars transferred to device memory"),
        input: Input::ScalarsStaged,
        input_bytes: Param::assumed(32.0, "ZPrize harness: whole scalars to device memory"),
        pcie_bps: pcie_u250(),
        pcie_latency_s: pcie_latency(),
        ddr_bps: ddr_u250(),
        ddr_efficiency: ddr_efficiency(),
        ddr_bytes_per_point: Param::assumed(3.0 * 48.0 + 32.0, "extended affine TE point and scalar per pass"),
        bucket_bytes: Param::assumed(4.0 * 48.0, "extended TE buckets"),
        result_bytes: Param::assumed(4.0 * 48.0, "extended TE"),
        host_bucket_s: Param::assumed(host_bucket_here().value, "host not published: zkmsm's measured rate"),
        host_agg_threads: zprize_host_threads(),
        host_final_s: host_final_here(),
        serial_windows: false,
    }
}

/// PriorMSM (TSMC 28 nm, 1 GHz), one 2^log_n MSM, device only: Table 6 is
/// simulated device time with points and scalars in external DRAM.
pub fn prior(log_n: u32) -> System {
    let model = SchedKind::Prior.preset(); // c = 12, D = 87, 8 banks, H = 16, partitioned
    System {
        name: format!("PriorMSM 2^{log_n}"),
        n: 1 << log_n,
        msms: 1,
        model,
        clock_mhz: Param::paper(1000.0, "4.2: runs at 1 GHz in TSMC 28 nm"),
        layout: Layout::SequentialWindows,
        device_agg: true,
        core_agg_log_m: 0,
        device_result_agg: true,
        host_digit_rate: none("4.2: scalars in external DRAM"),
        host_digit_threads: none("4.2: scalars in external DRAM"),
        staging_bps: none("4.2: scalars in external DRAM"),
        input: Input::ScalarsStaged,
        input_bytes: none("Table 6 excludes loading DRAM"),
        pcie_bps: none("no host link in Table 6"),
        pcie_latency_s: none("no host link in Table 6"),
        ddr_bps: Param::paper(f64::INFINITY, "4.2: DRAM can satisfy the required bandwidth"),
        ddr_efficiency: Param::paper(1.0, "4.2: DRAM can satisfy the required bandwidth"),
        ddr_bytes_per_point: Param::paper(4.0 * 48.0, "4.2: points in extended coordinates"),
        bucket_bytes: Param::paper(4.0 * 48.0, "4.2"),
        result_bytes: none("result stays on the device"),
        host_bucket_s: none("aggregation on the device"),
        host_agg_threads: Param::paper(1.0, "none"),
        host_final_s: none("result aggregation on the device"),
        serial_windows: false,
    }
}

/// PriorMSM Table 6 (ms), 2^16 .. 2^26.
pub const PRIOR_TABLE6: [(u32, f64); 11] = [
    (16, 1.8),
    (17, 3.3),
    (18, 6.2),
    (19, 12.0),
    (20, 24.0),
    (21, 47.0),
    (22, 95.0),
    (23, 189.0),
    (24, 377.0),
    (25, 754.0),
    (26, 1509.0),
];

/// Every anchor the brief names, with its published time.
pub fn all() -> Vec<Anchor> {
    let mut v = vec![
        Anchor { system: cyclone(26), published_ms: 5656.0, per_msm: false, published_at: "CycloneMSM Table 3" },
        Anchor { system: hardcaml(1), published_ms: 5518.0, per_msm: false, published_at: "Hardcaml abstract" },
        Anchor { system: hardcaml(4), published_ms: 5083.0, per_msm: true, published_at: "Hardcaml 5: 20.331 s / 4" },
        Anchor {
            system: zprize_batched_affine(ScalarField::Bls12_377),
            published_ms: 2020.0,
            per_msm: false,
            published_at: "ZPrize 2023 result, BLS12-377",
        },
        Anchor {
            system: zprize_batched_affine(ScalarField::Bls12_381),
            published_ms: 2024.0,
            per_msm: false,
            published_at: "ZPrize 2023 result, BLS12-381",
        },
        Anchor { system: superscalar(16), published_ms: 1431.0, per_msm: false, published_at: "ZPrize 2023 result" },
    ];
    for (log_n, ms) in PRIOR_TABLE6 {
        v.push(Anchor { system: prior(log_n), published_ms: ms, per_msm: false, published_at: "PriorMSM Table 6" });
    }
    v
}
