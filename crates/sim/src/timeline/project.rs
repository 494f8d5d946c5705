//! zkmsm's own configurations through the same timeline: K of the RTL's
//! cores (`zk_msm_core`: the twisted Edwards core on BLS12-377, or the
//! batched-affine core on BLS12-381 or BLS12-377) on one point stream, digits made by
//! host producer threads and streamed over PCIe, bucket aggregation on the
//! host or on the device.

use super::anchors::{
    ddr_efficiency, ddr_u250, digit_rate_here, host_bucket_here, host_final_here, pcie_latency, pcie_u250,
};
use super::device::DeviceProfile;
use super::{simulate, Input, Layout, Param, System, Timeline};
use crate::model::{AggKind, ScalarField, SchedKind};

/// The batched-affine core's hazard window on BLS12-381: bucket read 2 +
/// `zk_dp_aff_lat` (one inverter unit per chain), the latency its RTL
/// reports in LATENCY; the Verilated builds' test reads both.
pub const AFFINE_381_HZ: u32 = 2 + 2666;
/// The same core's hazard window on BLS12-377.
pub const AFFINE_377_HZ: u32 = 2 + 2607;

/// One zkmsm configuration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ZkConfig {
    /// Cores K on the point stream.
    pub cores: u32,
    /// Clock, MHz (an assumption until timing closes).
    pub clock_mhz: f64,
    /// Window size c.
    pub c: u32,
    /// Host threads making digits.
    pub digit_threads: u32,
    /// Host threads aggregating buckets (unused with device aggregation).
    pub agg_threads: u32,
    /// Bucket aggregation on the device (PriorMSM's partitioned program on
    /// the core's pipeline) instead of the host.
    pub device_agg: bool,
    /// log2 of the points per MSM.
    pub log_n: u32,
    /// MSMs over the same points.
    pub msms: u32,
    /// The batched-affine core on this curve (hazard window
    /// [`AFFINE_381_HZ`] or [`AFFINE_377_HZ`], the lock table, a pending
    /// queue of 1,024, requeueing; 96-byte points); `None`: the twisted
    /// Edwards core on BLS12-377 (hazard window 76, 144-byte points).
    pub affine: Option<ScalarField>,
}

/// The batched-affine core's hazard window on a curve.
pub fn affine_hz(field: ScalarField) -> u32 {
    match field {
        ScalarField::Bls12_381 => AFFINE_381_HZ,
        ScalarField::Bls12_377 => AFFINE_377_HZ,
    }
}

/// The core and curve of a configuration, as the tables name them.
pub fn core_name(z: &ZkConfig) -> &'static str {
    match z.affine {
        None => "twisted Edwards, BLS12-377",
        Some(ScalarField::Bls12_381) => "batched affine, BLS12-381",
        Some(ScalarField::Bls12_377) => "batched affine, BLS12-377",
    }
}

/// The timeline system of a zkmsm configuration.
pub fn system(z: &ZkConfig) -> System {
    let mut model = SchedKind::Core.preset(); // T = 76: the RW = 384 adder + bucket read
    model.c = z.c;
    model.core.cmax = z.c;
    model.core.cores = z.cores.max(1);
    model.core.fanout_depth = if z.cores > 1 { 4 } else { 0 };
    model.agg = if z.device_agg { AggKind::Partitioned } else { AggKind::Host };
    model.groups = 16;
    let (core, point_bytes, bucket_bytes) = if let Some(field) = z.affine {
        model.machine.depth = affine_hz(field);
        model.field = field;
        model.bits = field.bits();
        model.core.pending_cap = 1024;
        model.core.requeue = true;
        (core_name(z), (96.0, "docs/RTL.md: {y, x}, 2 x 384 bits"), (97.0, "docs/RTL.md: {inf, y, x}, 769 bits"))
    } else {
        (core_name(z), (144.0, "docs/RTL.md: one 144 B point per cycle"), (192.0, "docs/RTL.md: 192 B per bucket"))
    };
    let agg = if z.device_agg { "device" } else { "host" };
    System {
        name: format!(
            "zkmsm {core}, K = {}, c = {}, {} MHz, {} digit threads, {} aggregation, {} x 2^{}",
            z.cores, z.c, z.clock_mhz, z.digit_threads, agg, z.msms, z.log_n
        ),
        n: 1 << z.log_n,
        msms: z.msms,
        model,
        clock_mhz: Param::assumed(z.clock_mhz, "no timing closure yet"),
        layout: Layout::Passes { cores: z.cores.max(1) },
        device_agg: z.device_agg,
        device_result_agg: false,
        host_digit_rate: digit_rate_here(),
        host_digit_threads: Param::assumed(z.digit_threads as f64, "a configuration choice"),
        staging_bps: Param::here(0.0, "digits streamed from the producer, no staging copy"),
        input: Input::Digits,
        input_bytes: Param::here(4.0, "docs/RTL.md: one 32-bit field per digit"),
        pcie_bps: pcie_u250(),
        pcie_latency_s: pcie_latency(),
        ddr_bps: ddr_u250(),
        ddr_efficiency: ddr_efficiency(),
        ddr_bytes_per_point: Param::here(point_bytes.0, point_bytes.1),
        bucket_bytes: Param::here(bucket_bytes.0, bucket_bytes.1),
        result_bytes: Param::here(bucket_bytes.0, "one bucket-sized point per window"),
        host_bucket_s: host_bucket_here(),
        host_agg_threads: Param::assumed(z.agg_threads as f64, "a configuration choice"),
        host_final_s: host_final_here(),
        serial_windows: false,
    }
}

/// The configurations of the projection table: today's one core, the four
/// cores that fit the U250 at c = 15 (host or device aggregation, 250 and
/// 300 MHz), and six cores (what the four-MSM target needs; does not fit).
pub fn configs() -> Vec<ZkConfig> {
    let base = ZkConfig {
        cores: 1,
        clock_mhz: 250.0,
        c: 16,
        digit_threads: 1,
        agg_threads: 1,
        device_agg: false,
        log_n: 26,
        msms: 1,
        affine: None,
    };
    let mut v = Vec::new();
    for (log_n, msms) in [(26, 1), (24, 4)] {
        let b = ZkConfig { log_n, msms, ..base };
        v.push(b);
        v.push(ZkConfig { digit_threads: 2, ..b });
        let four = ZkConfig { cores: 4, c: 15, digit_threads: 5, ..b };
        v.push(four);
        v.push(ZkConfig { agg_threads: 4, ..four });
        v.push(ZkConfig { device_agg: true, ..four });
        v.push(ZkConfig { device_agg: true, clock_mhz: 300.0, digit_threads: 6, ..four });
        v.push(ZkConfig { cores: 6, c: 16, digit_threads: 7, device_agg: true, ..b });
    }
    // the batched-affine core against ZPrize 2023's four 2^24 MSMs, on both
    // curves: three cores (what fits the U250, docs/RTL.md) and four
    for field in [ScalarField::Bls12_381, ScalarField::Bls12_377] {
        let aff = ZkConfig {
            affine: Some(field),
            log_n: 24,
            msms: 4,
            cores: 3,
            c: 16,
            digit_threads: 4,
            agg_threads: 4,
            ..base
        };
        v.push(aff);
        v.push(ZkConfig { cores: 4, digit_threads: 5, ..aff });
    }
    v
}

/// Project one configuration.
pub fn project(z: &ZkConfig) -> Timeline {
    let sys = system(z);
    simulate(&sys, &sys.profile())
}

/// Project several configurations, fitting each distinct device (cores,
/// window, aggregation) once: the profile does not depend on N or the host.
pub fn project_all(cfgs: &[ZkConfig]) -> Vec<Timeline> {
    // (cores, window, device aggregation, the affine core's curve)
    type Device = (u32, u32, bool, Option<ScalarField>);
    let mut cache: Vec<(Device, DeviceProfile)> = Vec::new();
    cfgs.iter()
        .map(|z| {
            let sys = system(z);
            let key = (z.cores, z.c, z.device_agg, z.affine);
            let prof = match cache.iter().find(|(k, _)| *k == key) {
                Some((_, p)) => p.clone(),
                None => {
                    let p = sys.profile();
                    cache.push((key, p.clone()));
                    p
                }
            };
            simulate(&sys, &prof)
        })
        .collect()
}
