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
use crate::sched::core::CoreSched;

/// The batched-affine adder's latency, `zk_dp_aff_lat` of rtl/src/zk_funcs.svh
/// with the multiplier's latency on the curve's modulus (37 cycles on
/// BLS12-381, 36 on BLS12-377: `zk_mont_lo` has more terms for 381's q),
/// as many chains as that latency and the fewest elements per chain, and
/// `share` chains per inverter unit (`ZK_AFF_SHARE`).
pub const fn affine_lat(field: ScalarField, share: u32) -> u32 {
    let mlat = match field {
        ScalarField::Bls12_381 => 37,
        ScalarField::Bls12_377 => 36,
    };
    let il = 2 * 384 + 1; // steps of one inversion, 2 NB + 1 (NB = 384 on both curves)
    let di = (share - 1) * (il + 1) + il; // first chain total to last inverse
    let len = (2 * mlat + di).div_ceil(mlat);
    2 * mlat * len + 5 * mlat + di + 15
}

/// The twisted Edwards core's conversion in front of its adder on the
/// aggregation path (`zk_te_agg_in`): one multiplier's latency on
/// BLS12-377, what the RTL reports in AGG_LAT (the Verilated build's test
/// compares them).
pub const TE_AGG_LAT: u32 = 36;

/// The batched-affine core's hazard window: bucket read 2 + the adder's
/// latency ([`affine_lat`]), what its RTL reports in LATENCY.
pub const fn affine_hz(field: ScalarField, share: u32) -> u32 {
    2 + affine_lat(field, share)
}

/// The hazard window of the batched-affine core as built and tested on
/// BLS12-381 (one inverter unit per chain); the Verilated build's test
/// reads it from the RTL's registers.
pub const AFFINE_381_HZ: u32 = affine_hz(ScalarField::Bls12_381, 1);
/// The same on BLS12-377.
pub const AFFINE_377_HZ: u32 = affine_hz(ScalarField::Bls12_377, 1);

/// The batched-affine core of a configuration: curve, chains per inverter
/// unit and pending-queue depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AffineCore {
    /// The curve (the adder's field).
    pub field: ScalarField,
    /// Chains per inverter unit (`ZK_AFF_SHARE`): 1 as built; 3 or 4 for
    /// a third or a quarter of the inverters' LUTs (docs/RTL.md).
    pub share: u32,
    /// Pending-queue depth (`PD`).
    pub pending: usize,
}

impl AffineCore {
    /// One inverter unit per chain, a queue of 1,024: the Verilated build.
    pub const fn built(field: ScalarField) -> Self {
        Self { field, share: 1, pending: 1024 }
    }

    /// `share` chains per inverter unit and a pending queue of `pending`
    /// (the longer latency needs the deeper queue: docs/RTL.md).
    pub const fn shared(field: ScalarField, share: u32, pending: usize) -> Self {
        Self { field, share, pending }
    }
}

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
    /// Bucket aggregation on the device (the batched-affine core's
    /// `zk_core_agg`, in groups of the host's default size:
    /// `CoreSched::default_agg_log_m`) instead of the host.
    pub device_agg: bool,
    /// log2 of the points per MSM.
    pub log_n: u32,
    /// MSMs over the same points.
    pub msms: u32,
    /// The batched-affine core (hazard window [`affine_hz`], the lock
    /// table, requeueing; 96-byte points); `None`: the twisted Edwards core
    /// on BLS12-377 (hazard window 76, 144-byte points).
    pub affine: Option<AffineCore>,
}

/// The core and curve of a configuration, as the tables name them.
pub fn core_name(z: &ZkConfig) -> String {
    let Some(a) = z.affine else {
        return "twisted Edwards, BLS12-377".into();
    };
    let curve = match a.field {
        ScalarField::Bls12_381 => "BLS12-381",
        ScalarField::Bls12_377 => "BLS12-377",
    };
    if a == AffineCore::built(a.field) {
        format!("batched affine, {curve}")
    } else {
        let pd = match a.pending {
            p if p >= 1000 => format!("{},{:03}", p / 1000, p % 1000),
            p => p.to_string(),
        };
        format!("batched affine (SHARE {}, PD {pd}), {curve}", a.share)
    }
}

/// The timeline system of a zkmsm configuration.
pub fn system(z: &ZkConfig) -> System {
    let mut model = SchedKind::Core.preset(); // T = 76: the RW = 384 adder + bucket read
    model.c = z.c;
    model.core.cmax = z.c;
    model.core.cores = z.cores.max(1);
    model.core.fanout_depth = if z.cores > 1 { 4 } else { 0 };
    model.agg = AggKind::Host; // the core's own program: `core_agg_log_m`
    if z.device_agg && z.affine.is_none() {
        // the twisted Edwards core converts bucket + bucket first
        model.core.agg_latency = TE_AGG_LAT;
    }
    let (core, point_bytes, bucket_bytes) = if let Some(a) = z.affine {
        model.machine.depth = affine_hz(a.field, a.share);
        model.field = a.field;
        model.bits = a.field.bits();
        model.core.pending_cap = a.pending;
        model.core.requeue = true;
        (core_name(z), (96.0, "docs/RTL.md: {y, x}, 2 x 384 bits"), (97.0, "docs/RTL.md: {inf, y, x}, 769 bits"))
    } else {
        (core_name(z), (144.0, "docs/RTL.md: one 144 B point per cycle"), (192.0, "docs/RTL.md: 192 B per bucket"))
    };
    let agg = if z.device_agg { "device" } else { "host" };
    let windows_per_core = model.windows().div_ceil(z.cores.max(1) as usize) as u32;
    let core_agg_log_m = if z.device_agg {
        CoreSched::default_agg_log_m(1 << z.log_n, z.c, windows_per_core, model.machine.depth + model.core.agg_latency)
    } else {
        0
    };
    System {
        name: format!(
            "zkmsm {core}, K = {}, c = {}, {} MHz, {} digit threads, {} aggregation, {} x 2^{}",
            z.cores, z.c, z.clock_mhz, z.digit_threads, agg, z.msms, z.log_n
        ),
        n: 1 << z.log_n,
        msms: z.msms,
        model,
        clock_mhz: Param::assumed(
            z.clock_mhz,
            "estimated before placement (rtl/synth/CALIBRATION.md); no timing closure yet",
        ),
        layout: Layout::Passes { cores: z.cores.max(1) },
        device_agg: false,
        core_agg_log_m,
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

/// The twisted Edwards core's FPGA clock, calibrated on the anchors' own
/// RTL (rtl/synth/CALIBRATION.md, "zkmsm's FPGA clock"): 217 MHz, -0/+13%.
pub const TE_CLOCK_MHZ: f64 = 217.0;
/// The upper end of [`TE_CLOCK_MHZ`]'s uncertainty.
pub const TE_CLOCK_HIGH_MHZ: f64 = 245.0;
/// The batched-affine core's calibrated clock, timed on BLS12-381: 193 MHz,
/// -0/+13%; taken for BLS12-377 too (the same 384-bit datapath and control).
pub const AFFINE_CLOCK_MHZ: f64 = 193.0;
/// The upper end of [`AFFINE_CLOCK_MHZ`]'s uncertainty.
pub const AFFINE_CLOCK_HIGH_MHZ: f64 = 217.0;

/// The configurations of the projection table: the twisted Edwards core,
/// one and the four that fit the U250 at c = 15 (host aggregation), and
/// three with device aggregation, at 250 MHz (the anchors' clock) and at
/// its calibrated clock and that clock's upper end; the batched-affine
/// cores (below). The calibrated clocks are below 250 MHz: the 250 MHz
/// rows' digit threads keep up with them.
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
        let four4 = ZkConfig { agg_threads: 4, ..four };
        v.push(four4);
        v.push(ZkConfig { clock_mhz: TE_CLOCK_HIGH_MHZ, ..four4 });
        v.push(ZkConfig { clock_mhz: TE_CLOCK_MHZ, ..four4 });
        // bucket aggregation on the device: three cores (four with the
        // conversion's multipliers pass the U250's 80%, docs/RTL.md)
        let dev = ZkConfig { cores: 3, c: 16, digit_threads: 4, device_agg: true, ..b };
        v.push(dev);
        v.push(ZkConfig { clock_mhz: TE_CLOCK_HIGH_MHZ, ..dev });
        v.push(ZkConfig { clock_mhz: TE_CLOCK_MHZ, ..dev });
    }
    // the batched-affine core against ZPrize 2023's four 2^24 MSMs, on both
    // curves: three cores as built; three and four with three chains per
    // inverter unit; four with four per unit (docs/RTL.md, "Counting LUTs
    // for the U250": four fit at <= 80% at three or four chains per unit)
    for field in [ScalarField::Bls12_381, ScalarField::Bls12_377] {
        let aff = ZkConfig {
            affine: Some(AffineCore::built(field)),
            log_n: 24,
            msms: 4,
            cores: 3,
            c: 16,
            digit_threads: 4,
            agg_threads: 4,
            ..base
        };
        v.push(aff);
        let shared = ZkConfig { affine: Some(AffineCore::shared(field, 3, 4096)), ..aff };
        v.push(shared);
        let four = ZkConfig { cores: 4, digit_threads: 5, ..shared };
        v.push(four);
        v.push(ZkConfig { cores: 4, digit_threads: 5, affine: Some(AffineCore::shared(field, 4, 8192)), ..aff });
        // bucket aggregation on the device (zk_core_agg): four 2^24, and
        // one 2^26 at c = 16 (17 windows: five passes of four cores)
        // at ZPrize's 250 MHz, and at the calibrated clock and its upper end
        for (log_n, msms) in [(24, 4), (26, 1)] {
            let dev = ZkConfig { device_agg: true, log_n, msms, ..four };
            v.push(dev);
            v.push(ZkConfig { clock_mhz: AFFINE_CLOCK_HIGH_MHZ, ..dev });
            v.push(ZkConfig { clock_mhz: AFFINE_CLOCK_MHZ, ..dev });
        }
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
    // (cores, window, device aggregation, the affine core)
    type Device = (u32, u32, bool, Option<AffineCore>);
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
