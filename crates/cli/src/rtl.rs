//! `--backend rtl` (msm, demo): the MSM on an RTL core as Verilator
//! simulates it (crates/rtl, `zkmsm_rtl::backend::RtlEngine`): the
//! batched-affine core on BLS12-381, BLS12-377 and BN254, the twisted
//! Edwards core on BLS12-377 (`--rtl-adder`; which curve has which core:
//! [`crate::curve::CliCurve`]). Built with `--features rtl`; without it the
//! backend says in one line how to get it.

use crate::args::RtlAdder;
#[cfg(feature = "rtl")]
use crate::args::{RtlAggregation, RtlArgs};
use crate::console::errln;
use crate::error::CliError;
use zkmsm::MsmEngine;
#[cfg(feature = "rtl")]
use zkmsm::{Affine, MsmError};

/// What the last MSM on the core measured.
pub struct RtlCycles {
    /// Accumulation cycles of the simulated core (START to the last bucket
    /// write-back).
    pub rtl: u64,
    /// The cycle model's (crates/sim, scheduler `core`) for the same digits.
    pub model: u64,
    /// Non-zero digits: bucket additions.
    pub additions: u64,
    /// Cores the MSM ran on (`--rtl-cores`).
    pub cores: u32,
    /// The core's adder.
    pub adder: RtlAdder,
    /// log2 of the device aggregation's groups (0: on the host).
    pub agg_log_m: u32,
    /// Cycles from START to the last bucket (or partial sum) out, and the
    /// model's.
    pub total: u64,
    /// See `total`.
    pub model_total: u64,
    /// Buckets or partial sums the core sent.
    pub sent: u64,
}

/// An engine on a simulated core and the handle that reads its counters.
pub type RtlRun<C> = (Box<dyn MsmEngine<C>>, RtlHandle);

/// Reads the core's counters after an MSM.
pub struct RtlHandle {
    adder: RtlAdder,
    #[cfg(feature = "rtl")]
    slot: zkmsm_rtl::backend::ReportSlot,
}

impl RtlHandle {
    pub fn cycles(&self) -> Option<RtlCycles> {
        #[cfg(feature = "rtl")]
        return self.slot.get().map(|r| RtlCycles {
            rtl: r.stats.acc_cycles,
            model: r.model_cycles,
            additions: r.additions,
            cores: r.cores,
            adder: self.adder,
            agg_log_m: r.agg_log_m,
            total: r.stats.cycles,
            model_total: r.model_total_cycles,
            sent: r.sent,
        });
        #[cfg(not(feature = "rtl"))]
        {
            let _ = self.adder;
            None
        }
    }
}

/// An engine on the core with datapath `D`.
#[cfg(feature = "rtl")]
pub fn engine<D: zkmsm_rtl::backend::CoreDatapath>(
    points: Vec<Affine<D::Curve>>,
    window: Option<u32>,
    rtl: &RtlArgs,
    adder: RtlAdder,
) -> Result<RtlRun<D::Curve>, CliError> {
    use zkmsm_rtl::backend::{Aggregation, Device, RtlEngine};
    let device = Device::shared(D::KIND).map_err(MsmError::Unsupported)?;
    let mut engine = RtlEngine::<D>::new(points, zkmsm::Validation::AlreadyValidated, device)?;
    engine.set_window(window);
    engine.set_cores(rtl.rtl_cores)?;
    engine.set_aggregation(match rtl.rtl_aggregation {
        RtlAggregation::Host => Aggregation::Host,
        RtlAggregation::Device => Aggregation::Device(rtl.rtl_agg_log_m),
    })?;
    let handle = RtlHandle { adder, slot: engine.backend().report_slot() };
    Ok((Box::new(engine), handle))
}

/// The cycles of the last MSM on the core, printed to standard error.
pub fn report(handle: Option<&RtlHandle>) -> Result<Option<RtlCycles>, CliError> {
    let Some(c) = handle.and_then(RtlHandle::cycles) else { return Ok(None) };
    errln!(
        "  rtl ({} core): {} additions in {} accumulation cycles on {} core{} ({:.4} additions/cycle); cycle model {} cycles",
        match c.adder {
            RtlAdder::Edwards => "twisted Edwards",
            RtlAdder::Affine => "batched-affine",
        },
        c.additions,
        c.rtl,
        c.cores,
        if c.cores == 1 { "" } else { "s" },
        c.additions as f64 / c.rtl.max(1) as f64,
        c.model
    )?;
    if c.agg_log_m > 0 {
        errln!(
            "  rtl: buckets aggregated on the device in groups of 2^{}: {} partial sums sent; {} cycles from START to the last (cycle model {})",
            c.agg_log_m,
            c.sent,
            c.total,
            c.model_total
        )?;
    }
    Ok(Some(c))
}

/// `--json`: the core's and the model's accumulation cycles.
pub fn add_json(j: &mut serde_json::Value, cycles: Option<&RtlCycles>) {
    if let (Some(c), Some(m)) = (cycles, j.as_object_mut()) {
        m.insert("rtl_cycles".into(), c.rtl.into());
        m.insert("model_cycles".into(), c.model.into());
        m.insert("rtl_additions".into(), c.additions.into());
        m.insert("rtl_cores".into(), c.cores.into());
        let adder = match c.adder {
            RtlAdder::Edwards => "edwards",
            RtlAdder::Affine => "affine",
        };
        m.insert("rtl_adder".into(), adder.into());
        m.insert("rtl_aggregation".into(), if c.agg_log_m > 0 { "device" } else { "host" }.into());
        m.insert("rtl_agg_log_m".into(), c.agg_log_m.into());
        m.insert("rtl_sent".into(), c.sent.into());
        m.insert("rtl_total_cycles".into(), c.total.into());
        m.insert("model_total_cycles".into(), c.model_total.into());
    }
}
