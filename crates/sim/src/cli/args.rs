//! The arguments of `zkmsm sim` and `zkmsm-sim`. The model's own enums
//! ([`SchedKind`], [`AggKind`]) take their command-line names from the model
//! (`name()`, `ALL`) here, so the model library does not depend on clap.

use crate::model::{AggKind, SchedKind};
use clap::builder::PossibleValue;
use std::path::PathBuf;

/// Statistics mode tracks bucket indices only; functional mode moves real
/// points through the modelled pipeline and checks the MSM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// Bucket indices and timing only.
    Stats,
    /// Real points through the pipeline, the MSM checked.
    Functional,
}

/// Curve for the functional mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CurveArg {
    /// BLS12-377 G1 in extended twisted Edwards coordinates (the FPGA papers'
    /// adder).
    #[value(name = "bls12-377")]
    Bls12_377,
    /// BLS12-377 G1 in XYZZ coordinates.
    #[value(name = "bls12-377-xyzz")]
    Bls12_377Xyzz,
    /// BLS12-381 G1 in XYZZ coordinates (no twisted Edwards form).
    #[value(name = "bls12-381")]
    Bls12_381,
    /// The thesis' toy curve y^2 = x^3 + 7 over F_17.
    Toy,
}

/// Scalar distribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ScalarsArg {
    /// Independent uniform scalars.
    Uniform,
    /// All scalars equal (adversarial: every digit hits one bucket).
    Equal,
    /// All scalars zero.
    Zero,
}

/// Cycle-level model of MSM accelerator hardware.
///
/// Without a subcommand: run one MSM on the model and print cycles, cycles
/// per bucket addition, pipeline utilization, stalls and bubbles, queue
/// high-water marks, aggregation share and the projected latency. Unset
/// parameters take the published design's values for the chosen scheduler.
#[derive(clap::Args, Clone, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SimArgs {
    /// `sweep` or `thesis`; none: one run.
    #[command(subcommand)]
    pub command: Option<SimCommand>,
    /// Scheduler (and with it the published design's default parameters).
    #[arg(long, value_enum, default_value = "delayed")]
    pub scheduler: SchedKind,
    /// N = 2^log_n points.
    #[arg(long, default_value_t = 20)]
    pub log_n: u32,
    /// Exact N (overrides --log-n).
    #[arg(long)]
    pub n: Option<usize>,
    /// Window size c (signed digits: 2^(c-1) buckets per window).
    #[arg(long)]
    pub window: Option<u32>,
    /// Adder pipeline depth T (ZPrize: in-flight time of an operation).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Number of adder pipelines (delayed, greedy: digits per cycle;
    /// prior: PADD units).
    #[arg(long)]
    pub adders: Option<u32>,
    /// Bucket-memory banks.
    #[arg(long)]
    pub banks: Option<u32>,
    /// Read ports per bank (delayed, greedy).
    #[arg(long)]
    pub ports: Option<u32>,
    /// Scheduler queue capacity, 0 = unbounded (greedy queue, prior FIFOs;
    /// core: the pending FIFO, at least 1).
    #[arg(long)]
    pub fifo_depth: Option<usize>,
    /// Core: bucket-memory read latency (paces the read-out).
    #[arg(long)]
    pub read_latency: Option<u32>,
    /// Core: first cycle the input can be taken.
    #[arg(long)]
    pub input_latency: Option<u64>,
    /// Core: largest window the bucket memory holds (CMAX).
    #[arg(long)]
    pub cmax: Option<u32>,
    /// Core: do not spread the narrow last window over its bucket slots.
    #[arg(long)]
    pub no_spread_top: bool,
    /// Core: requeue a blocked pending head (the RTL's RQ = 1).
    #[arg(long)]
    pub requeue: bool,
    /// Core: bucket aggregation on the device in groups of 2^M buckets (the
    /// RTL's AGG register; 0: buckets to the host).
    #[arg(long, value_name = "M")]
    pub core_agg_log_m: Option<u32>,
    /// Core: cycles between a device-aggregation addition's reads and its
    /// adder slot beyond the other cores' (the RTL's AGG_LAT: 36 on the
    /// twisted Edwards core, its conversion's multiplier; default 0).
    #[arg(long, value_name = "L")]
    pub core_agg_latency: Option<u32>,
    /// Core: cores on one point stream (window w on core w mod K; the
    /// RTL's NCORES > 1 top, fan-out FIFOs of --fanout-depth beats).
    #[arg(long)]
    pub cores: Option<u32>,
    /// Core: depth of each core's fan-out FIFO (default 4 with --cores > 1).
    #[arg(long)]
    pub fanout_depth: Option<u32>,
    /// Hardcaml per-window stall FIFO depth.
    #[arg(long)]
    pub stall_fifo: Option<usize>,
    /// ZPrize batch frame in cycles (results return T cycles after the frame
    /// closes); 0 = plain pipeline.
    #[arg(long)]
    pub batch: Option<u32>,
    /// ZPrize compute units.
    #[arg(long)]
    pub cus: Option<usize>,
    /// ZPrize pending-buffer capacity per lane, 0 = unbounded.
    #[arg(long)]
    pub pending_cap: Option<usize>,
    /// Delayed scheduler: start each pass at once instead of after the
    /// previous pass's additions are written back.
    #[arg(long)]
    pub no_pass_drain: bool,
    /// PriorMSM: serve only the head of FIFO_U3 (fresh PADD results queue
    /// behind a blocked head).
    #[arg(long)]
    pub prior_strict_u3: bool,
    /// Clock frequency in MHz for the projected latency.
    #[arg(long)]
    pub freq_mhz: Option<f64>,
    /// Statistics mode: every window a full c-bit window (the papers'
    /// modelling assumption; real scalars leave a narrow top window).
    #[arg(long)]
    pub full_width_windows: bool,
    /// Bucket aggregation model.
    #[arg(long, value_enum)]
    pub agg: Option<AggKind>,
    /// Groups H for partitioned aggregation.
    #[arg(long)]
    pub groups: Option<usize>,
    /// Field multiplier latency (CycloneMSM full Add = T + this + 1).
    #[arg(long)]
    pub mul_latency: Option<u32>,
    /// Seed of the deterministic digit generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Statistics or functional mode.
    #[arg(long, value_enum, default_value = "stats")]
    pub mode: Mode,
    /// Curve: its scalar field sets the scalars (both modes), its group the
    /// functional mode's points. Default: the scheduler's preset
    /// (BLS12-381 for zprize, else BLS12-377).
    #[arg(long, value_enum)]
    pub curve: Option<CurveArg>,
    /// Scalar distribution.
    #[arg(long, value_enum, default_value = "uniform")]
    pub scalars: ScalarsArg,
    /// Statistics mode: also print the key figures as one JSON object on the
    /// last line.
    #[arg(long)]
    pub json: bool,
}

/// The subcommands of `zkmsm sim`.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum SimCommand {
    /// Window-size and depth sweeps for every scheduler: CSV and SVG plots.
    Sweep(SweepArgs),
    /// The UCSC thesis architecture against the bucket architecture on its
    /// toy curve, for k = 2..24 multipliers.
    Thesis(ThesisArgs),
    /// Whole-system timeline: the anchors (published against reproduced)
    /// and zkmsm's projected configurations.
    Timeline,
}

/// Arguments of `zkmsm sim sweep`.
#[derive(clap::Args, Clone, Debug)]
pub struct SweepArgs {
    /// Output directory (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// N = 2^log_n points per run.
    #[arg(long, default_value_t = 16)]
    pub log_n: u32,
    /// Smallest window size.
    #[arg(long, default_value_t = 8)]
    pub c_min: u32,
    /// Largest window size.
    #[arg(long, default_value_t = 16)]
    pub c_max: u32,
    /// Pipeline depths for the depth sweep (comma separated).
    #[arg(long, value_delimiter = ',', default_value = "25,50,100,200,400,800")]
    pub depths: Vec<u32>,
    /// Schedulers (comma separated; default all).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub schedulers: Vec<SchedKind>,
    /// Workload seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Arguments of `zkmsm sim thesis`.
#[derive(clap::Args, Clone, Debug)]
pub struct ThesisArgs {
    /// Points and scalars in the workload (the thesis used 12,000).
    #[arg(long, default_value_t = 12000)]
    pub n: usize,
    /// Pipeline depth of the bucket architecture's adder.
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// Window size of the bucket architecture (6: one window holds the
    /// toy curve's 5-bit scalars).
    #[arg(long, default_value_t = 6)]
    pub window: u32,
    /// Workload seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Largest k (multipliers).
    #[arg(long, default_value_t = 24)]
    pub k_max: usize,
    /// Also write the table as CSV here.
    #[arg(long)]
    pub csv: Option<PathBuf>,
}

impl clap::ValueEnum for SchedKind {
    fn value_variants<'a>() -> &'a [Self] {
        &SchedKind::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let help = match self {
            SchedKind::Delayed => "CycloneMSM delayed scheduler (conflicts replayed in later passes)",
            SchedKind::Greedy => "CycloneMSM greedy scheduler (conflicts replayed when the bucket frees)",
            SchedKind::Hardcaml => "Hardcaml stall controller (per-window stall FIFOs, three rules)",
            SchedKind::Prior => "PriorMSM priority-based scheduling (pairing, multi-FIFO, multi-bank)",
            SchedKind::Zprize => "ZPrize 2023 collision handler (locked buckets, pending buffer)",
            SchedKind::Core => "the zkmsm RTL core (rtl/src/zk_msm_core.sv), cycle-exact",
        };
        Some(PossibleValue::new(self.name()).help(help))
    }
}

impl clap::ValueEnum for AggKind {
    fn value_variants<'a>() -> &'a [Self] {
        &AggKind::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let help = match self {
            AggKind::Serial => "CycloneMSM Algorithm 3 on the adder reconfigured for full Add, one Add in flight",
            AggKind::SerialOverlap => "Algorithm 3 with in-order, non-blocking issue",
            AggKind::Partitioned => "PriorMSM partitioned aggregation with H groups on the pipelined PADD",
            AggKind::Host => "aggregation on the host (Hardcaml, ZPrize): not in the device cycles",
        };
        Some(PossibleValue::new(self.name()).help(help))
    }
}
