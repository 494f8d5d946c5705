//! Command-line front end: `zkmsm sim ...` (through the `zkmsm` CLI crate)
//! and the stand-alone `zkmsm-sim` binary share [`SimArgs`] and [`run`].

use crate::curves::{self, ScalarSet};
use crate::model::{AggKind, ModelConfig, Report, ScalarField, SchedKind};
use crate::svg::{line_chart, Series};
use crate::thesis;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;
use zkmsm_curve::{Bls12_377, Bls12_381, MsmCurve};

/// Statistics mode tracks bucket indices only; functional mode moves real
/// points through the modelled pipeline and checks the MSM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    Stats,
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

#[derive(clap::Subcommand, Clone, Debug)]
pub enum SimCommand {
    /// Window-size and depth sweeps for every scheduler: CSV and SVG plots.
    Sweep(SweepArgs),
    /// The UCSC thesis architecture against the bucket architecture on its
    /// toy curve, for k = 2..24 multipliers.
    Thesis(ThesisArgs),
}

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
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

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

/// Errors of the sim front end.
#[derive(Debug)]
pub struct SimError(pub String);

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SimError {}

impl From<std::io::Error> for SimError {
    fn from(e: std::io::Error) -> Self {
        SimError(e.to_string())
    }
}

impl SimArgs {
    /// The model configuration these arguments describe.
    pub fn config(&self) -> Result<ModelConfig, SimError> {
        let mut c = self.scheduler.preset();
        c.n = match self.n {
            Some(n) => n,
            None if self.log_n <= 40 => 1usize << self.log_n,
            None => return Err(SimError("--log-n must be at most 40".into())),
        };
        if let Some(v) = self.window {
            if !(2..=30).contains(&v) {
                return Err(SimError("--window must be in 2..=30".into()));
            }
            c.c = v;
        }
        if let Some(v) = self.depth {
            c.machine.depth = v;
        }
        if let Some(v) = self.adders {
            c.machine.adders = v.max(1);
        }
        if let Some(v) = self.banks {
            c.machine.banks = v.max(1);
        }
        if let Some(v) = self.ports {
            c.machine.ports = v.max(1);
        }
        if let Some(v) = self.fifo_depth {
            c.machine.fifo_depth = v;
            if self.scheduler == SchedKind::Core {
                if v == 0 {
                    return Err(SimError("--fifo-depth must be at least 1 for the core".into()));
                }
                c.core.pending_cap = v;
            }
        }
        if let Some(v) = self.read_latency {
            c.core.read_latency = v.max(1);
        }
        if let Some(v) = self.input_latency {
            c.core.input_latency = v;
        }
        if let Some(v) = self.cmax {
            c.core.cmax = v.clamp(3, 20);
        }
        c.core.spread_top = !self.no_spread_top;
        if c.sched == SchedKind::Core && c.c > c.core.cmax {
            return Err(SimError(format!(
                "--window {} is larger than the core's bucket memory (--cmax {})",
                c.c, c.core.cmax
            )));
        }
        if let Some(v) = self.stall_fifo {
            c.stall_fifo = v.max(1);
        }
        if let Some(v) = self.batch {
            c.machine.batch = v;
        }
        if let Some(v) = self.cus {
            c.cus = v.max(1);
        }
        if let Some(v) = self.pending_cap {
            c.pending_cap = v;
        }
        if let Some(v) = self.freq_mhz {
            c.freq_mhz = v;
        }
        match self.curve {
            Some(CurveArg::Bls12_377 | CurveArg::Bls12_377Xyzz) => c.field = ScalarField::Bls12_377,
            Some(CurveArg::Bls12_381) => c.field = ScalarField::Bls12_381,
            Some(CurveArg::Toy) | None => {}
        }
        c.bits = c.field.bits();
        c.full_width = self.full_width_windows;
        if let Some(v) = self.agg {
            c.agg = v;
        }
        if let Some(v) = self.groups {
            if !v.is_power_of_two() {
                return Err(SimError("--groups must be a power of two".into()));
            }
            c.groups = v;
        }
        if let Some(v) = self.mul_latency {
            c.mul_latency = v;
        }
        c.no_pass_drain = self.no_pass_drain;
        c.prior_strict_u3 = self.prior_strict_u3;
        c.seed = self.seed;
        Ok(c)
    }
}

/// The key figures of one run as a one-line JSON object.
pub fn report_json(r: &Report) -> String {
    let c = &r.cfg;
    let a = &r.acc;
    let num = |v: f64| if v.is_finite() { format!("{v}") } else { "null".into() };
    format!(
        concat!(
            "{{\"scheduler\":\"{}\",\"n\":{},\"c\":{},\"depth\":{},\"windows\":{},\"buckets\":{},",
            "\"acc_cycles\":{},\"agg_cycles\":{},\"device_cycles\":{},\"cycles_per_op\":{},",
            "\"utilization\":{},\"ops\":{},\"conflicts\":{},\"bubbles\":{},\"input_stalls\":{},",
            "\"queue_hwm\":{},\"agg_on_device\":{},\"agg_share\":{},\"freq_mhz\":{},\"latency_ms\":{}}}"
        ),
        c.sched.name(),
        c.n,
        c.c,
        c.machine.depth,
        r.windows,
        r.buckets,
        a.cycles,
        r.agg_cycles_total(),
        r.device_cycles,
        num(r.cycles_per_op()),
        num(a.utilization()),
        a.ops,
        a.conflicts,
        a.bubbles,
        a.input_stalls,
        a.queue_hwm,
        r.agg_on_device(),
        num(r.agg_share()),
        num(c.freq_mhz),
        num(r.latency_ms())
    )
}

/// Human-readable report of one run.
pub fn format_report(r: &Report, wall_s: f64) -> String {
    let c = &r.cfg;
    let a = &r.acc;
    let mut s = String::new();
    let _ = writeln!(s, "scheduler            {}", c.sched.name());
    let _ = writeln!(s, "N                    {} (2^{:.2})", c.n, (c.n.max(1) as f64).log2());
    let _ = writeln!(
        s,
        "window c             {} ({} windows of {} buckets, {}-bit scalars)",
        c.c, r.windows, r.buckets, c.bits
    );
    let _ = writeln!(
        s,
        "depth T              {}   adders {}   banks {}   ports {}",
        c.machine.depth, c.machine.adders, c.machine.banks, c.machine.ports
    );
    let _ = writeln!(s, "accumulation cycles  {}", a.cycles);
    let _ = writeln!(s, "cycles per addition  {:.6}", r.cycles_per_op());
    let _ = writeln!(s, "pipeline utilization {:.4}%", 100.0 * a.utilization());
    let _ = writeln!(s, "operations issued    {}", a.ops);
    let _ = writeln!(s, "zero digits          {}", a.zero_digits);
    let _ = writeln!(
        s,
        "conflicts            {} ({:.4}% of N per window)",
        a.conflicts,
        100.0 * a.conflicts as f64 / (c.n.max(1) as f64 * r.windows as f64)
    );
    let _ = writeln!(s, "bubbles              {}", a.bubbles);
    let _ = writeln!(s, "input stalls         {}", a.input_stalls);
    let ideal = c.n as u64 * r.windows as u64;
    if c.sched == SchedKind::Hardcaml && ideal > 0 {
        let _ = writeln!(
            s,
            "stall overhead       {:.4}% (issue cycles over N*W)",
            100.0 * (a.slots as f64 / ideal as f64 - 1.0)
        );
    }
    if !a.window_conflicts.is_empty() && r.windows > 1 && c.n > 0 {
        // Every window but the top one has full-width digits; the top one
        // holds the scalar's last bits - c*(W-1) bits and fewer buckets.
        let full = r.windows - 1;
        let mean = |v: &[u64]| v[..full].iter().sum::<u64>() as f64 / full as f64;
        let mc = mean(&a.window_conflicts);
        let _ = writeln!(
            s,
            "conflicts/window     {:.1} ({:.4}% of N) mean of the {} full windows; top window {}",
            mc,
            100.0 * mc / c.n as f64,
            full,
            a.window_conflicts[full]
        );
        if c.sched == SchedKind::Delayed {
            let maxp = a.window_passes[..full].iter().max().unwrap();
            let _ =
                writeln!(s, "passes/window        max {} over full windows (per window: {:?})", maxp, a.window_passes);
            let longest = a.window_pass_sizes[..full].iter().map(Vec::len).max().unwrap_or(0);
            let means: Vec<String> = (0..longest)
                .map(|p| {
                    let tot: u64 = a.window_pass_sizes[..full].iter().map(|v| v.get(p).copied().unwrap_or(0)).sum();
                    format!("{:.2}", tot as f64 / full as f64)
                })
                .collect();
            let _ = writeln!(s, "digits per pass      [{}] mean of full windows", means.join(", "));
            let _ = writeln!(
                s,
                "FIFO total/window    {:.1} mean of full windows (all passes); top window {}",
                mean(&a.window_deferred),
                a.window_deferred[full]
            );
        }
        if c.sched == SchedKind::Greedy {
            let maxq = a.window_deferred[..full].iter().max().unwrap();
            let _ =
                writeln!(s, "queue max/window     {} over full windows; top window {}", maxq, a.window_deferred[full]);
        }
    }
    let _ = writeln!(s, "queue high-water     {}", a.queue_hwm);
    for (k, v) in &a.extra {
        let _ = writeln!(s, "{:<20} {}", k, v);
    }
    if !a.window_cycles.is_empty() && c.n > 0 {
        let max = *a.window_cycles.iter().max().unwrap();
        let _ = writeln!(
            s,
            "cycles per point     {:.6} per window on average, {:.6} worst window",
            a.cycles as f64 / (c.n as f64 * r.windows as f64),
            max as f64 / c.n as f64
        );
    }
    let where_ = if r.agg_on_device() { "device" } else { "host" };
    let _ = writeln!(
        s,
        "aggregation          {:?} on {where_}: {} cycles/window ({} adds, {} doublings), {} total",
        c.agg,
        r.agg_cycles_per_window,
        r.agg_adds_per_window,
        r.agg_doubles_per_window,
        r.agg_cycles_total()
    );
    if let Some(naive) = r.naive_agg_cycles_per_window {
        let _ = writeln!(
            s,
            "optimization rate    {:.3}% (partitioned {} / unpartitioned {} cycles per window, H = {})",
            100.0 * r.agg_cycles_per_window as f64 / naive.max(1) as f64,
            r.agg_cycles_per_window,
            naive,
            c.groups
        );
    }
    if r.agg_on_device() {
        let _ = writeln!(s, "result aggregation   {} cycles", r.result_agg_cycles);
        let _ = writeln!(s, "aggregation share    {:.3}%", 100.0 * r.agg_share());
    }
    let _ = writeln!(s, "device cycles        {}", r.device_cycles);
    let _ =
        writeln!(s, "latency @ {} MHz   {:.3} ms (device only: no host, PCIe or DDR time)", c.freq_mhz, r.latency_ms());
    let _ = writeln!(s, "model wall time      {wall_s:.2} s");
    s
}

fn scalar_set(s: ScalarsArg) -> ScalarSet {
    match s {
        ScalarsArg::Uniform => ScalarSet::Uniform,
        ScalarsArg::Equal => ScalarSet::AllEqual,
        ScalarsArg::Zero => ScalarSet::Zero,
    }
}

/// Functional run on a BLS curve, checked against the CPU engine.
fn functional_bls<C: MsmCurve>(
    args: &SimArgs,
    cfg: &ModelConfig,
    run: curves::FunctionalRun<C>,
) -> Result<String, SimError> {
    if cfg.n > 1 << 20 {
        return Err(SimError("functional mode is meant for N <= 2^20".into()));
    }
    let pts = curves::points::<C>(cfg.n, cfg.seed);
    let sc = curves::scalars::<C>(cfg.n, scalar_set(args.scalars), cfg.seed + 1);
    let t0 = Instant::now();
    let (rep, got) = run(cfg, &pts, &sc);
    let wall = t0.elapsed().as_secs_f64();
    let want = zkmsm::msm_bigint(&pts, &sc).map_err(|e| SimError(e.to_string()))?;
    let mut out = format_report(&rep, wall);
    let _ = writeln!(out, "curve                {}", C::NAME);
    if got != want {
        return Err(SimError(format!("{out}functional check     MISMATCH against the CPU engine")));
    }
    let _ = writeln!(out, "functional check     OK (equals the zkmsm CPU engine's MSM)");
    Ok(out)
}

fn run_functional(args: &SimArgs, cfg: &ModelConfig) -> Result<String, SimError> {
    let curve = args.curve.unwrap_or(match cfg.field {
        ScalarField::Bls12_377 => CurveArg::Bls12_377,
        ScalarField::Bls12_381 => CurveArg::Bls12_381,
    });
    match curve {
        CurveArg::Bls12_377 => functional_bls::<Bls12_377>(args, cfg, curves::run_te),
        CurveArg::Bls12_377Xyzz => functional_bls::<Bls12_377>(args, cfg, curves::run_xyzz),
        CurveArg::Bls12_381 => functional_bls::<Bls12_381>(args, cfg, curves::run_xyzz),
        CurveArg::Toy => {
            let (points, uniform) = thesis::workload(cfg.n, cfg.seed);
            let mut cfg = cfg.clone();
            cfg.bits = 5;
            let scal: Vec<[u64; 4]> = match args.scalars {
                ScalarsArg::Uniform => uniform.iter().map(|&s| [s, 0, 0, 0]).collect(),
                ScalarsArg::Equal => vec![[thesis::ORDER - 1, 0, 0, 0]; cfg.n],
                ScalarsArg::Zero => vec![[0; 4]; cfg.n],
            };
            let g = thesis::Toy;
            let t0 = Instant::now();
            let (rep, got) = cfg.run_functional(&g, &points, &scal);
            let want = points
                .iter()
                .zip(&scal)
                .fold(None, |acc, (p, s)| crate::datapath::SimGroup::add(&g, &acc, &g.mul(s[0], p)));
            let mut out = format_report(&rep, t0.elapsed().as_secs_f64());
            let _ = writeln!(out, "functional result    {:?}", got);
            let _ = writeln!(out, "reference result     {:?}", want);
            if got != want {
                return Err(SimError(format!("{out}MISMATCH")));
            }
            let _ = writeln!(out, "functional check     OK");
            Ok(out)
        }
    }
}

/// Run the `sim` command.
pub fn run(args: SimArgs) -> Result<(), SimError> {
    match &args.command {
        Some(SimCommand::Sweep(s)) => return sweep(s),
        Some(SimCommand::Thesis(t)) => return thesis_cmd(t),
        None => {}
    }
    let cfg = args.config()?;
    let out = match args.mode {
        Mode::Stats => {
            if args.curve == Some(CurveArg::Toy) {
                return Err(SimError("the toy curve runs in functional mode only (--mode functional)".into()));
            }
            let t0 = Instant::now();
            let rep = if args.scalars == ScalarsArg::Uniform {
                cfg.run_stats()
            } else if cfg.field == ScalarField::Bls12_377 {
                cfg.run_stats_on(&curves::scalars::<Bls12_377>(cfg.n, scalar_set(args.scalars), cfg.seed))
            } else {
                cfg.run_stats_on(&curves::scalars::<Bls12_381>(cfg.n, scalar_set(args.scalars), cfg.seed))
            };
            let mut out = format_report(&rep, t0.elapsed().as_secs_f64());
            if args.json {
                out.push_str(&report_json(&rep));
                out.push('\n');
            }
            out
        }
        Mode::Functional => run_functional(&args, &cfg)?,
    };
    print!("{out}");
    Ok(())
}

fn sweep(a: &SweepArgs) -> Result<(), SimError> {
    std::fs::create_dir_all(&a.out)?;
    let scheds: Vec<SchedKind> = if a.schedulers.is_empty() { SchedKind::ALL.to_vec() } else { a.schedulers.clone() };
    if a.c_min < 2 || a.c_max > 24 || a.c_min > a.c_max {
        return Err(SimError("need 2 <= c-min <= c-max <= 24".into()));
    }
    let header = "sweep,scheduler,log_n,c,depth,scalar_bits,windows,acc_cycles,device_cycles,cycles_per_op,\
                  utilization,conflicts,queue_hwm,agg_share,latency_ms\n";
    let mut csv = String::from(header);
    let mut win_series = Vec::new();
    let mut full_series = Vec::new();
    let mut dep_series = Vec::new();
    for &sk in &scheds {
        // Real scalars (253 or 255 bits: a narrower top window), and scalars
        // of c*W - 1 bits so that every window is full width.
        for full in [false, true] {
            let mut pts = Vec::new();
            for c in a.c_min..=a.c_max {
                let mut cfg = sk.preset();
                cfg.n = 1 << a.log_n;
                cfg.c = c;
                cfg.seed = a.seed;
                cfg.full_width = full;
                let r = cfg.run_stats();
                row(&mut csv, if full { "window-full" } else { "window" }, &r, a.log_n);
                pts.push((c as f64, r.latency_ms()));
                eprintln!("window {} c={c} bits={}: {:.3} ms", sk.name(), cfg.bits, r.latency_ms());
            }
            let series = Series { name: sk.name().into(), points: pts };
            if full {
                full_series.push(series);
            } else {
                win_series.push(series);
            }
        }
        let mut pts = Vec::new();
        for &d in &a.depths {
            let mut cfg = sk.preset();
            cfg.n = 1 << a.log_n;
            cfg.machine.depth = d;
            cfg.seed = a.seed;
            let r = cfg.run_stats();
            row(&mut csv, "depth", &r, a.log_n);
            pts.push((d as f64, r.cycles_per_op()));
            eprintln!("depth {} T={d}: {:.5} cycles/op", sk.name(), r.cycles_per_op());
        }
        dep_series.push(Series { name: sk.name().into(), points: pts });
    }
    std::fs::write(a.out.join("sweep.csv"), csv)?;
    std::fs::write(
        a.out.join("window_sweep.svg"),
        line_chart(
            &format!("Projected device latency vs window size, N = 2^{}", a.log_n),
            "window size c",
            "latency (ms, each design's clock)",
            &win_series,
            true,
        ),
    )?;
    std::fs::write(
        a.out.join("window_sweep_full.svg"),
        line_chart(
            &format!("Projected device latency vs window size, full-width windows, N = 2^{}", a.log_n),
            "window size c",
            "latency (ms, each design's clock)",
            &full_series,
            true,
        ),
    )?;
    std::fs::write(
        a.out.join("depth_sweep.svg"),
        line_chart(
            &format!("Accumulation cycles per bucket addition vs depth, N = 2^{}", a.log_n),
            "pipeline depth T",
            "cycles per addition",
            &dep_series,
            false,
        ),
    )?;
    println!(
        "wrote {}, {}, {}, {}",
        a.out.join("sweep.csv").display(),
        a.out.join("window_sweep.svg").display(),
        a.out.join("window_sweep_full.svg").display(),
        a.out.join("depth_sweep.svg").display()
    );
    Ok(())
}

fn row(csv: &mut String, sweep: &str, r: &Report, log_n: u32) {
    let _ = writeln!(
        csv,
        "{sweep},{},{log_n},{},{},{},{},{},{},{:.6},{:.6},{},{},{:.6},{:.6}",
        r.cfg.sched.name(),
        r.cfg.c,
        r.cfg.machine.depth,
        r.cfg.bits,
        r.windows,
        r.acc.cycles,
        r.device_cycles,
        r.cycles_per_op(),
        r.acc.utilization(),
        r.acc.conflicts,
        r.acc.queue_hwm,
        r.agg_share(),
        r.latency_ms()
    );
}

fn thesis_cmd(a: &ThesisArgs) -> Result<(), SimError> {
    let (points, scalars) = thesis::workload(a.n, a.seed);
    let g = thesis::Toy;
    let limbs: Vec<[u64; 4]> = scalars.iter().map(|&s| [s, 0, 0, 0]).collect();
    // Bucket architecture: one pipelined adder of depth T, greedy scheduler,
    // serial aggregation on the same adder (in-order, non-blocking).
    let mut cfg = SchedKind::Greedy.preset();
    cfg.n = a.n;
    cfg.bits = 5;
    cfg.c = a.window;
    cfg.machine.depth = a.depth;
    cfg.agg = AggKind::SerialOverlap;
    cfg.mul_latency = 0;
    let (rep, bucket_res) = cfg.run_functional(&g, &points, &limbs);
    let mut out = String::new();
    let mut csv = String::from("k,thesis_cycles,bucket_cycles,speedup\n");
    let _ = writeln!(out, "workload: {} points on y^2 = x^3 + 7 over F_17, scalars uniform in [0, 18)", a.n);
    let _ = writeln!(
        out,
        "bucket architecture: depth {} pipelined adder, c = {}, greedy scheduler: {} cycles (accumulation {}, aggregation {})",
        a.depth,
        a.window,
        rep.device_cycles,
        rep.acc.cycles,
        rep.device_cycles - rep.acc.cycles
    );
    let _ = writeln!(out, "{:>3} {:>14} {:>14} {:>9}", "k", "thesis cycles", "bucket cycles", "ratio");
    for k in 2..=a.k_max.max(2) {
        let (cy, res) = thesis::thesis_msm(k, &points, &scalars);
        if res != bucket_res {
            return Err(SimError(format!("results differ at k={k}: thesis {res:?}, bucket {bucket_res:?}")));
        }
        let ratio = cy as f64 / rep.device_cycles as f64;
        let _ = writeln!(out, "{k:>3} {cy:>14} {:>14} {ratio:>8.2}x", rep.device_cycles);
        let _ = writeln!(csv, "{k},{cy},{},{ratio:.4}", rep.device_cycles);
    }
    let _ = writeln!(out, "both architectures computed {bucket_res:?}");
    if let Some(p) = &a.csv {
        std::fs::write(p, csv)?;
    }
    print!("{out}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        sim: SimArgs,
    }

    fn parse(args: &[&str]) -> SimArgs {
        Wrap::try_parse_from(std::iter::once("zkmsm-sim").chain(args.iter().copied())).unwrap().sim
    }

    #[test]
    fn presets_and_overrides() {
        let c = parse(&["--scheduler", "hardcaml"]).config().unwrap();
        assert_eq!((c.c, c.machine.depth, c.freq_mhz, c.stall_fifo), (13, 238, 278.0, 4));
        let c = parse(&["--scheduler", "prior", "--window", "16", "--groups", "8", "--log-n", "10"]).config().unwrap();
        assert_eq!((c.c, c.groups, c.n, c.machine.banks), (16, 8, 1024, 8));
        let c = parse(&["--scheduler", "zprize", "--depth", "100", "--batch", "0"]).config().unwrap();
        assert_eq!((c.machine.depth, c.machine.batch, c.cus), (100, 0, 3));
        assert!(parse(&["--groups", "3"]).config().is_err());
        assert!(parse(&["--window", "1"]).config().is_err());
        assert!(Wrap::try_parse_from(["zkmsm-sim", "--scheduler", "nope"]).is_err());
        // Subcommands parse with their own options.
        let a = parse(&["sweep", "--out", "/tmp/x", "--schedulers", "delayed,prior", "--depths", "10,20"]);
        match a.command {
            Some(SimCommand::Sweep(s)) => {
                assert_eq!(s.schedulers, vec![SchedKind::Delayed, SchedKind::Prior]);
                assert_eq!(s.depths, vec![10, 20]);
            }
            _ => panic!("expected sweep"),
        }
    }

    #[test]
    fn report_and_functional_run() {
        let a = parse(&["--scheduler", "greedy", "--log-n", "10", "--window", "8", "--depth", "20"]);
        let r = a.config().unwrap().run_stats();
        let text = format_report(&r, 0.0);
        for key in ["cycles per addition", "pipeline utilization", "queue high-water", "aggregation share", "latency @"]
        {
            assert!(text.contains(key), "missing {key}");
        }
        let a =
            parse(&["--scheduler", "prior", "--log-n", "8", "--window", "6", "--mode", "functional", "--curve", "toy"]);
        let out = run_functional(&a, &a.config().unwrap()).unwrap();
        assert!(out.contains("functional check     OK"));
        let a = parse(&["--scheduler", "hardcaml", "--log-n", "7", "--window", "7", "--mode", "functional"]);
        let out = run_functional(&a, &a.config().unwrap()).unwrap();
        assert!(out.contains("equals the zkmsm CPU engine"));
    }
}
