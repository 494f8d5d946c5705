//! The `rtl` backend: bucket accumulation on the Verilated core.
//!
//! * [`RtlBackend`] implements `zkmsm::Backend` for BLS12-377: init converts
//!   the points to the core's precomputed form and loads them into the
//!   simulated point memory (MSM_INIT); `accumulate` runs one window through
//!   the core. The host's code does the rest (digits, aggregation).
//! * [`RtlEngine`] is the way the core is meant to run, as a
//!   `zkmsm::MsmEngine`: all windows of an MSM streamed back to back in one
//!   run (a window's tail overlaps the next window's head), with the host's
//!   plan, digits (`zkmsm::digits`), bucket aggregation and result
//!   aggregation around it, and beside the simulated cycles the cycle
//!   model's for the same digits. `zkmsm msm --backend rtl` uses it. The
//!   digits are streamed: a producer thread computes window w+1's digits
//!   while the core takes window w ([`crate::machine::produce_digits`]).

use crate::format::{bucket_from_words, point_words, POINT_WORDS};
use crate::machine::{model_config, produce_digits, spread_bits, window_for, CoreParams, StreamDigits, DIGIT_CHUNK};
use crate::sim::{Kind, Opts, Sim, Stats};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use zkmsm::bucket_aggregation::partitioned_sum;
use zkmsm::context::check_scalars;
use zkmsm::load::validate_points;
use zkmsm::result_aggregation::combine_windows;
use zkmsm::{Backend, Bucket, MsmEngine, MsmError, MsmOutput, PhaseTimings, Plan, ScalarLimbs};
use zkmsm_curve::te::{precompute_points, TeExtended};
use zkmsm_curve::{Affine, Bls12_377, Xyzz};
use zkmsm_field::PrimeField;

const SCALAR_BITS: u32 = <<Bls12_377 as zkmsm::MsmCurve>::Scalar as PrimeField>::NUM_BITS;

/// What the last MSM (or window) through the core measured.
#[derive(Clone, Copy, Debug)]
pub struct RtlReport {
    /// The core's counters (accumulation cycles: `stats.acc_cycles`).
    pub stats: Stats,
    /// The cycle model's accumulation cycles for the same digits.
    pub model_cycles: u64,
    /// Non-zero digits: additions.
    pub additions: u64,
    /// Window size in bits.
    pub c: u32,
    /// Windows in the run.
    pub windows: u32,
    /// Cores the MSM ran on.
    pub cores: u32,
}

/// A simulated device: the accelerator and which point set its point memory
/// holds. Contexts on one device take turns; the one whose points are not
/// loaded reloads them first (as a host would re-run MSM_INIT).
pub struct Device {
    sim: Mutex<(Sim, u64)>,
    params: CoreParams,
    opts: Opts,
    /// Cores built (NCORES) and their fan-out FIFOs' depth.
    ncores: u32,
    fanout_depth: u32,
}

impl Device {
    /// A freshly reset simulated accelerator (the twisted Edwards core).
    pub fn new(opts: Opts) -> Result<Arc<Self>, String> {
        let sim = Sim::new(Kind::Te, &opts).ok_or("the Verilated core did not come out of reset")?;
        let i = sim.info();
        let params = CoreParams { cmax: i.cmax, pd: i.pd, brl: i.brl, hz: i.lat_hz };
        Ok(Arc::new(Self { sim: Mutex::new((sim, 0)), params, opts, ncores: i.ncores, fanout_depth: i.fanout_depth }))
    }

    /// One device for the whole process (tests, repeated contexts): the
    /// bucket memory's clear after reset is paid once.
    pub fn shared() -> Result<Arc<Self>, String> {
        static DEVICE: Mutex<Option<Arc<Device>>> = Mutex::new(None);
        let mut d = DEVICE.lock().unwrap();
        if d.is_none() {
            *d = Some(Device::new(Opts::default())?);
        }
        Ok(d.as_ref().unwrap().clone())
    }

    /// The core's parameters (read from its registers).
    pub fn params(&self) -> CoreParams {
        self.params
    }

    /// Cores built (NCORES, register MULTI).
    pub fn ncores(&self) -> u32 {
        self.ncores
    }
}

static NEXT_OWNER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// `zkmsm::Backend` on a simulated core.
#[derive(Clone)]
pub struct RtlBackend {
    device: Arc<Device>,
    last: Arc<Mutex<Option<RtlReport>>>,
    cores: u32,
}

/// Points converted for the core (and loaded into point memory when their
/// context runs).
pub struct RtlPoints {
    n: usize,
    owner: u64,
    words: Vec<u64>,
}

impl RtlBackend {
    /// A backend on `device` (contexts on one device take turns).
    pub fn new(device: Arc<Device>) -> Self {
        Self { device, last: Arc::default(), cores: 1 }
    }

    /// Run on `k` cores (window w on core w mod k); refused (one line) if
    /// the simulated accelerator has fewer.
    pub fn set_cores(&mut self, k: u32) -> Result<(), MsmError> {
        let max = self.device.ncores;
        if k == 0 || k > max {
            return Err(MsmError::Unsupported(format!(
                "--rtl-cores {k}: the simulated accelerator has {max} core{} (NCORES, read from its MULTI register)",
                if max == 1 { "" } else { "s" }
            )));
        }
        self.cores = k;
        Ok(())
    }

    /// Cores in use.
    pub fn cores(&self) -> u32 {
        self.cores
    }

    /// The core's parameters (read from its registers).
    pub fn params(&self) -> CoreParams {
        self.device.params
    }

    /// The last run's counters and the model's cycles for it.
    pub fn last_report(&self) -> Option<RtlReport> {
        *self.last.lock().unwrap()
    }

    /// Run `windows` windows of `n` digits over `points` through the core,
    /// the digits streamed window-major in `chunks` (see `Sim::run_stream`),
    /// and return each window's buckets (the spread last window added up).
    fn run(
        &self,
        points: &RtlPoints,
        plan: &Plan,
        windows: u32,
        top: Option<u32>,
        chunks: impl Iterator<Item = Vec<i32>>,
    ) -> Result<Vec<Vec<TeExtended>>, MsmError> {
        let p = &self.device.params;
        if plan.c > p.cmax {
            return Err(MsmError::Unsupported(format!(
                "the RTL core holds windows of at most {} bits (asked for {})",
                p.cmax, plan.c
            )));
        }
        let n = points.n;
        // the streamed digits, kept for the cycle model after the run
        let mut digits = Vec::with_capacity(n * windows as usize);
        let recorded = chunks.inspect(|ch| digits.extend_from_slice(ch));
        let (words, stats) = {
            let mut dev = self.device.sim.lock().unwrap();
            dev.0.set_opts(&Opts { cores: self.cores, ..self.device.opts });
            if dev.1 != points.owner {
                dev.0.load_points(&points.words);
                dev.1 = points.owner;
            }
            dev.0.run_stream(n, plan.c, windows, top, recorded).map_err(|e| MsmError::Unsupported(e.to_string()))?
        };
        let nb = plan.buckets;
        let per = crate::format::BUCKET_WORDS;
        let mut out: Vec<Vec<TeExtended>> =
            words.chunks(nb * per).map(|w| w.chunks(per).map(bucket_from_words).collect()).collect();
        if let (Some(tb), Some(last)) = (top, out.last_mut()) {
            // bucket k of the spread window is the sum of its copies k + j 2^tb
            let k = 1usize << tb;
            for i in k..nb {
                let v = last[i];
                last[i % k] = Bucket::<Bls12_377>::add(&last[i % k], &v);
                last[i] = TeExtended::identity();
            }
        }
        let mut cfg = model_config(p, plan, SCALAR_BITS, n, self.device.opts.mem_latency);
        cfg.core.top_bits = Some(top.unwrap_or(31)); // 31: no spreading, as the TOP register
        cfg.core.cores = self.cores;
        cfg.core.fanout_depth = self.device.fanout_depth;
        let src = StreamDigits { digits: &digits, n, windows: windows as usize, c: plan.c };
        let model_cycles = cfg.run_stats_digits(&src).acc.cycles;
        let additions = digits.iter().filter(|&&d| d != 0).count() as u64;
        *self.last.lock().unwrap() =
            Some(RtlReport { stats, model_cycles, additions, c: plan.c, windows, cores: self.cores });
        Ok(out)
    }
}

impl Backend<Bls12_377> for RtlBackend {
    type Prepared = RtlPoints;
    type Bucket = TeExtended;
    type Window<'a> = Vec<TeExtended>;

    fn name(&self) -> &'static str {
        "rtl"
    }

    /// Validated subgroup points, converted and loaded into point memory.
    fn prepare(&self, points: &[Affine<Bls12_377>]) -> RtlPoints {
        let pre = precompute_points(points).expect("validated subgroup points have a twisted Edwards image");
        let words: Vec<u64> = pre.iter().flat_map(point_words).collect();
        debug_assert_eq!(words.len(), points.len() * POINT_WORDS);
        let owner = NEXT_OWNER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        RtlPoints { n: points.len(), owner, words }
    }

    /// One window through the core (a run of its own). A window whose digits
    /// stay small is spread over its buckets, as the core does for the last
    /// window of a stream.
    fn accumulate<'a>(&'a self, points: &'a RtlPoints, digits: &[i32], plan: &Plan) -> Vec<TeExtended> {
        assert_eq!(digits.len(), points.n);
        let max = digits.iter().map(|d| d.unsigned_abs()).max().unwrap_or(0);
        let tb = (32 - max.saturating_sub(1).leading_zeros()).min(plan.c - 1);
        let top = (max > 0 && max <= 1 << tb && tb + 1 < plan.c).then_some(tb);
        match self.run(points, plan, 1, top, std::iter::once(digits.to_vec())) {
            Ok(mut w) => w.pop().unwrap_or_else(|| vec![TeExtended::identity(); plan.buckets]),
            Err(e) => panic!("rtl backend: {e}"),
        }
    }
}

/// A whole MSM on the core per call, all windows in one stream (see the
/// module docs); `zkmsm::MsmEngine` for BLS12-377.
pub struct RtlEngine {
    backend: RtlBackend,
    points: RtlPoints,
    window: Option<u32>,
}

impl RtlEngine {
    /// Validate and convert `points` (MSM_INIT) for the core on `device`.
    pub fn new(
        points: Vec<Affine<Bls12_377>>,
        validation: zkmsm::Validation,
        device: Arc<Device>,
    ) -> Result<Self, MsmError> {
        validate_points(&points, validation)?;
        let backend = RtlBackend::new(device);
        let points = backend.prepare(&points);
        Ok(Self { backend, points, window: None })
    }

    /// The backend (device and last report) this engine runs on.
    pub fn backend(&self) -> &RtlBackend {
        &self.backend
    }

    /// Run on `k` cores (see [`RtlBackend::set_cores`]).
    pub fn set_cores(&mut self, k: u32) -> Result<(), MsmError> {
        self.backend.set_cores(k)
    }

    /// The last MSM's counters and model cycles.
    pub fn last_report(&self) -> Option<RtlReport> {
        self.backend.last_report()
    }
}

impl MsmEngine<Bls12_377> for RtlEngine {
    fn backend_name(&self) -> &'static str {
        "rtl"
    }
    fn len(&self) -> usize {
        self.points.n
    }
    fn set_window(&mut self, c: Option<u32>) {
        self.window = c;
    }
    fn plan(&self) -> Plan {
        Plan::with_window(self.window.unwrap_or_else(|| window_for(self.points.n, &self.backend.params())), SCALAR_BITS)
    }
    /// The core reads points from its own memory image, not a prepared file: refused.
    fn write_prepared(&self, _path: &std::path::Path) -> Result<(), MsmError> {
        Err(MsmError::Unsupported("the rtl backend has no prepared-file layout; prepare with a CPU backend".into()))
    }
    fn msm_report(&self, scalars: &[ScalarLimbs]) -> Result<MsmOutput<Bls12_377>, MsmError> {
        let n = self.points.n;
        if scalars.len() != n {
            return Err(MsmError::LengthMismatch { points: n, scalars: scalars.len() });
        }
        check_scalars::<Bls12_377>(scalars)?;
        let plan = self.plan();
        let mut timings = PhaseTimings::default();
        if n == 0 {
            return Ok(MsmOutput { result: Xyzz::identity(), plan, timings, schedule: None });
        }
        // digits streamed: the producer runs at most one window (of chunks)
        // ahead of the core; `timings.digits` is its computing time, which
        // overlaps `timings.accumulation` (the run's wall time)
        let t = Instant::now();
        let top = spread_bits(&plan, SCALAR_BITS);
        let (windows, per_window) = std::thread::scope(|s| {
            let (tx, rx) = std::sync::mpsc::sync_channel(n.div_ceil(DIGIT_CHUNK));
            let producer = s.spawn(move || produce_digits(scalars, &plan, DIGIT_CHUNK, &tx));
            let windows = self.backend.run(&self.points, &plan, plan.windows, top, rx.into_iter());
            (windows, producer.join())
        });
        let per_window = per_window.map_err(|_| MsmError::Unsupported("the digit producer panicked".into()))?;
        let windows = windows?;
        timings.digits = per_window.iter().sum();
        timings.accumulation = t.elapsed();
        let t = Instant::now();
        let sums: Vec<Xyzz<Bls12_377>> =
            windows.iter().map(|b| partitioned_sum::<Bls12_377, _>(b, 1).to_xyzz()).collect();
        timings.bucket_aggregation = t.elapsed();
        let t = Instant::now();
        let result = combine_windows(&sums, plan.c);
        timings.result_aggregation = t.elapsed();
        Ok(MsmOutput { result, plan, timings, schedule: None })
    }
}
