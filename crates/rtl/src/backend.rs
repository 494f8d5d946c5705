//! The `rtl` backend: bucket accumulation on a Verilated core.
//!
//! * [`CoreDatapath`] is what the host knows of a core's adder: which
//!   Verilated model, the curve, how a point goes into point memory and how
//!   a bucket comes back. [`Edwards377`] is the twisted Edwards core
//!   (BLS12-377 only: the curve needs a twisted Edwards form);
//!   [`AffineCore`] the batched-affine core, on BLS12-381, BLS12-377 and
//!   BN254.
//! * [`RtlBackend`] implements `zkmsm::Backend` on either: init converts
//!   the points to the core's form and loads them into the simulated point
//!   memory (MSM_INIT); `accumulate` runs one window through the core. The
//!   host's code does the rest (digits, aggregation).
//! * [`RtlEngine`] is the way the core is meant to run, as a
//!   `zkmsm::MsmEngine`: all windows of an MSM streamed back to back in one
//!   run (a window's tail overlaps the next window's head), with the host's
//!   plan, digits (`zkmsm::digits`), bucket aggregation (on the host, or on
//!   the device: [`RtlBackend::set_aggregation`], `crate::aggregate`) and
//!   result aggregation around it, and beside the simulated cycles the cycle
//!   model's for the same digits. `zkmsm msm --backend rtl` uses it. The
//!   digits are streamed: a producer thread computes window w+1's digits
//!   while the core takes window w ([`crate::machine::produce_digits`]).
//!
//! Points at infinity add nothing: their digits go to the core as zeros
//! (the batched-affine core's point port has no infinity flag).

use crate::aggregate::{default_log_m, sent as sent_by_core, window_log_m, window_sum};
use crate::format::{
    aff_bucket_from_words, aff_point_len, bucket_from_words, point_words, push_aff_point, POINT_WORDS,
};
use crate::machine::{model_config, produce_digits, spread_bits, window_for, CoreParams, StreamDigits, DIGIT_CHUNK};
use crate::sim::{Info, Kind, Opts, Sim, Stats};
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use zkmsm::bucket_aggregation::partitioned_sum;
use zkmsm::context::check_scalars;
use zkmsm::load::validate_points;
use zkmsm::result_aggregation::combine_windows;
use zkmsm::{Backend, Bucket, MsmCurve, MsmEngine, MsmError, MsmOutput, PhaseTimings, Plan, ScalarLimbs};
use zkmsm_curve::te::{precompute_points, TeExtended};
use zkmsm_curve::{Affine, Bls12_377, Bls12_381, Bn254, Xyzz};
use zkmsm_field::PrimeField;

/// What the host knows of a core's adder.
pub trait CoreDatapath: Send + Sync + 'static {
    /// The curve of the core's field.
    type Curve: zkmsm::InputCurve<Base: PrimeField>;
    /// A bucket as the host keeps it after reading it back.
    type Bucket: Bucket<Self::Curve>;
    /// The Verilated model with this adder.
    const KIND: Kind;
    /// The adder's name, for messages.
    const ADDER: &'static str;
    /// 64-bit words of one point in point memory (`Sim::point_words` of
    /// the model built for this adder).
    fn point_len() -> usize;
    /// Points (validated) in the core's point-memory form, `point_len()` each.
    fn point_words(points: &[Affine<Self::Curve>]) -> Vec<u64>;
    /// One bucket from its value words; an error names what the core got wrong.
    fn bucket(words: &[u64]) -> Result<Self::Bucket, String>;
}

/// The twisted Edwards core (`DP = 1`): BLS12-377, points in the
/// precomputed extended form, buckets in extended coordinates.
pub struct Edwards377;

impl CoreDatapath for Edwards377 {
    type Curve = Bls12_377;
    type Bucket = TeExtended;
    const KIND: Kind = Kind::Te;
    const ADDER: &'static str = "twisted Edwards";
    fn point_len() -> usize {
        POINT_WORDS
    }
    fn point_words(points: &[Affine<Bls12_377>]) -> Vec<u64> {
        let pre = precompute_points(points).expect("validated subgroup points have a twisted Edwards image");
        pre.iter().flat_map(point_words).collect()
    }
    fn bucket(words: &[u64]) -> Result<TeExtended, String> {
        Ok(bucket_from_words(words))
    }
}

/// The batched-affine core (`DP = 2`, the lock table) on curve `C`: affine
/// points and buckets, summed on the host in XYZZ coordinates.
pub struct AffineCore<C>(PhantomData<C>);

/// The Verilated batched-affine model of each curve.
pub trait AffineModel: zkmsm::InputCurve<Base: PrimeField> {
    /// The model built for this curve's field.
    const KIND: Kind;
}
impl AffineModel for Bls12_381 {
    const KIND: Kind = Kind::Aff381;
}
impl AffineModel for Bls12_377 {
    const KIND: Kind = Kind::Aff377;
}
impl AffineModel for Bn254 {
    const KIND: Kind = Kind::AffBn254;
}

impl<C: AffineModel> CoreDatapath for AffineCore<C> {
    type Curve = C;
    type Bucket = Xyzz<C>;
    const KIND: Kind = C::KIND;
    const ADDER: &'static str = "batched affine";
    fn point_len() -> usize {
        aff_point_len::<C>()
    }
    fn point_words(points: &[Affine<C>]) -> Vec<u64> {
        let mut words = Vec::with_capacity(points.len() * aff_point_len::<C>());
        for p in points {
            push_aff_point(p, &mut words);
        }
        words
    }
    fn bucket(words: &[u64]) -> Result<Xyzz<C>, String> {
        aff_bucket_from_words::<C>(words).map(|p| Xyzz::from_affine(&p))
    }
}

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
    /// log2 of the device aggregation's groups (0: buckets to the host).
    pub agg_log_m: u32,
    /// The cycle model's cycles from START to the last bucket out (the
    /// core's CYCLES counter).
    pub model_total_cycles: u64,
    /// Buckets (or partial sums) the core sent.
    pub sent: u64,
}

/// Where a window's bucket aggregation runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Aggregation {
    /// The core sends every bucket; the host aggregates.
    #[default]
    Host,
    /// The core reduces each window in groups of 2^`log_m` buckets
    /// (`None`: `aggregate::default_log_m`) and sends two partial sums a
    /// group.
    Device(Option<u32>),
}

/// Where a backend leaves its last report; a clone reads the same slot.
#[derive(Clone, Default)]
pub struct ReportSlot(Arc<Mutex<Option<RtlReport>>>);

impl ReportSlot {
    /// The last run's report, if any.
    pub fn get(&self) -> Option<RtlReport> {
        *self.0.lock().unwrap()
    }
    fn set(&self, r: RtlReport) {
        *self.0.lock().unwrap() = Some(r);
    }
}

impl From<&Info> for CoreParams {
    fn from(i: &Info) -> Self {
        CoreParams { cmax: i.cmax, pd: i.pd, brl: i.brl, hz: i.lat_hz, requeue: i.requeue != 0, agg_lat: i.lat_agg }
    }
}

/// A simulated device: the accelerator and which point set its point memory
/// holds. Contexts on one device take turns; the one whose points are not
/// loaded reloads them first (as a host would re-run MSM_INIT).
pub struct Device {
    sim: Mutex<(Sim, u64)>,
    kind: Kind,
    params: CoreParams,
    opts: Opts,
    /// 64-bit words of a point in its point memory (from the core's widths).
    point_words: usize,
    /// Cores built (NCORES) and their fan-out FIFOs' depth.
    ncores: u32,
    fanout_depth: u32,
}

impl Device {
    /// A freshly reset simulated accelerator of the given build.
    pub fn new(kind: Kind, opts: Opts) -> Result<Arc<Self>, String> {
        if !kind.built() {
            return Err(format!(
                "this build has no `{}` model: it was built with ZKMSM_RTL_MODELS={}; rebuild without that variable",
                kind.model_name(),
                env!("ZKMSM_RTL_BUILT")
            ));
        }
        let sim = Sim::new(kind, &opts).ok_or("the Verilated core did not come out of reset")?;
        let i = sim.info();
        let point_words = sim.point_words();
        Ok(Arc::new(Self {
            sim: Mutex::new((sim, 0)),
            kind,
            params: CoreParams::from(&i),
            opts,
            point_words,
            ncores: i.ncores,
            fanout_depth: i.fanout_depth,
        }))
    }

    /// One device of each build for the whole process (tests, repeated
    /// contexts): the bucket memory's clear after reset is paid once.
    pub fn shared(kind: Kind) -> Result<Arc<Self>, String> {
        static DEVICES: Mutex<Vec<Arc<Device>>> = Mutex::new(Vec::new());
        let mut d = DEVICES.lock().unwrap();
        if let Some(dev) = d.iter().find(|dev| dev.kind == kind) {
            return Ok(dev.clone());
        }
        let dev = Device::new(kind, Opts::default())?;
        d.push(dev.clone());
        Ok(dev)
    }

    /// The core's parameters (read from its registers).
    pub fn params(&self) -> CoreParams {
        self.params
    }

    /// Cores built (NCORES, register MULTI).
    pub fn ncores(&self) -> u32 {
        self.ncores
    }

    /// Which build this is.
    pub fn kind(&self) -> Kind {
        self.kind
    }
}

static NEXT_OWNER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// `zkmsm::Backend` on a simulated core with adder `D`.
pub struct RtlBackend<D: CoreDatapath> {
    device: Arc<Device>,
    last: ReportSlot,
    cores: u32,
    aggregation: Aggregation,
    _d: PhantomData<D>,
}

impl<D: CoreDatapath> Clone for RtlBackend<D> {
    fn clone(&self) -> Self {
        Self {
            device: self.device.clone(),
            last: self.last.clone(),
            cores: self.cores,
            aggregation: self.aggregation,
            _d: PhantomData,
        }
    }
}

/// Points converted for the core (and loaded into point memory when their
/// context runs).
pub struct RtlPoints {
    n: usize,
    owner: u64,
    words: Vec<u64>,
    /// Indices of the points at infinity: their digits are sent as zeros.
    at_infinity: Vec<usize>,
}

fn scalar_bits<C: MsmCurve>() -> u32 {
    <C::Scalar as PrimeField>::NUM_BITS
}

impl<D: CoreDatapath> RtlBackend<D> {
    /// A backend on `device`, which must be a build with adder `D`.
    pub fn new(device: Arc<Device>) -> Result<Self, MsmError> {
        if device.kind != D::KIND {
            return Err(MsmError::Unsupported(format!(
                "the simulated device is the {:?} build, not the {} core's",
                device.kind,
                D::ADDER
            )));
        }
        if device.point_words != D::point_len() {
            return Err(MsmError::Unsupported(format!(
                "the {:?} build's points are {} words, the host's {} core writes {}: a build at another width",
                device.kind,
                device.point_words,
                D::ADDER,
                D::point_len()
            )));
        }
        Ok(Self { device, last: ReportSlot::default(), cores: 1, aggregation: Aggregation::Host, _d: PhantomData })
    }

    /// Where whole MSMs ([`RtlEngine`]) aggregate their windows' buckets;
    /// groups larger than a window of the core are refused (one line).
    pub fn set_aggregation(&mut self, a: Aggregation) -> Result<(), MsmError> {
        if let Aggregation::Device(Some(lm)) = a {
            let max = self.device.params.cmax - 1;
            if lm == 0 || lm > max {
                return Err(MsmError::Unsupported(format!(
                    "--rtl-agg-log-m {lm}: groups of 2^1 to 2^{max} buckets (the core's windows hold 2^{max})"
                )));
            }
        }
        self.aggregation = a;
        Ok(())
    }

    /// Where bucket aggregation runs.
    pub fn aggregation(&self) -> Aggregation {
        self.aggregation
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
        self.last.get()
    }

    /// The slot the last report is kept in (a handle that outlives the engine's borrow).
    pub fn report_slot(&self) -> ReportSlot {
        self.last.clone()
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
        agg_log_m: u32,
        chunks: impl Iterator<Item = Vec<i32>>,
    ) -> Result<Vec<Vec<D::Bucket>>, MsmError> {
        let p = &self.device.params;
        if plan.c > p.cmax {
            return Err(MsmError::Unsupported(format!(
                "the RTL core holds windows of at most {} bits (asked for {})",
                p.cmax, plan.c
            )));
        }
        let n = points.n;
        // the streamed digits (points at infinity zeroed), kept for the
        // cycle model after the run
        let mut digits = Vec::with_capacity(n * windows as usize);
        let mut pos = 0usize;
        let recorded = chunks.map(|mut ch| {
            for &i in &points.at_infinity {
                // chunk [pos, pos + len) of the window-major stream
                let (w0, w1) = (pos / n.max(1), (pos + ch.len()).div_ceil(n.max(1)));
                for w in w0..w1 {
                    let at = w * n + i;
                    if (pos..pos + ch.len()).contains(&at) {
                        ch[at - pos] = 0;
                    }
                }
            }
            pos += ch.len();
            digits.extend_from_slice(&ch);
            ch
        });
        let (words, stats) = {
            let mut dev = self.device.sim.lock().unwrap();
            dev.0.set_opts(&Opts { cores: self.cores, agg_log_m, ..self.device.opts });
            if dev.1 != points.owner {
                dev.0.load_points(&points.words);
                dev.1 = points.owner;
            }
            dev.0.run_stream(n, plan.c, windows, top, recorded).map_err(|e| MsmError::Unsupported(e.to_string()))?
        };
        let nb = plan.buckets;
        let per = words.len() / (nb * windows as usize).max(1);
        let mut out = Vec::with_capacity(windows as usize);
        let mut sent = 0u64;
        for (w, ws) in words.chunks(nb * per).enumerate() {
            // with device aggregation only the partial sums came back
            let lm = window_log_m(agg_log_m, plan.c, top, w + 1 == windows as usize);
            let window = ws
                .chunks(per)
                .enumerate()
                .map(|(k, b)| {
                    if !sent_by_core(k, lm) {
                        return Ok(D::Bucket::identity());
                    }
                    sent += 1;
                    D::bucket(b).map_err(|e| MsmError::Unsupported(format!("window {w}, bucket {k}: {e}")))
                })
                .collect::<Result<Vec<_>, _>>()?;
            out.push(window);
        }
        if let (Some(tb), Some(last), 0) = (top, out.last_mut(), agg_log_m) {
            // bucket k of the spread window is the sum of its copies k + j 2^tb
            let k = 1usize << tb;
            for i in k..nb {
                let v = last[i];
                last[i % k] = last[i % k].add(&v);
                last[i] = D::Bucket::identity();
            }
        }
        let mut cfg = model_config(p, plan, scalar_bits::<D::Curve>(), n, self.device.opts.mem_latency);
        cfg.core.top_bits = Some(top.unwrap_or(31)); // 31: no spreading, as the TOP register
        cfg.core.cores = self.cores;
        cfg.core.fanout_depth = self.device.fanout_depth;
        cfg.core.agg_log_m = agg_log_m;
        let src = StreamDigits { digits: &digits, n, windows: windows as usize, c: plan.c };
        let model = cfg.run_stats_digits(&src);
        let model_cycles = model.acc.cycles;
        let model_total_cycles = model.acc.extra("total_cycles").unwrap_or(0.0) as u64;
        let additions = digits.iter().filter(|&&d| d != 0).count() as u64;
        self.last.set(RtlReport {
            stats,
            model_cycles,
            additions,
            c: plan.c,
            windows,
            cores: self.cores,
            agg_log_m,
            model_total_cycles,
            sent,
        });
        Ok(out)
    }
}

impl<D: CoreDatapath> Backend<D::Curve> for RtlBackend<D> {
    type Prepared = RtlPoints;
    type Bucket = D::Bucket;
    type Window<'a> = Vec<D::Bucket>;

    fn name(&self) -> &'static str {
        "rtl"
    }

    /// Validated subgroup points, converted and loaded into point memory.
    fn prepare(&self, points: &[Affine<D::Curve>]) -> RtlPoints {
        let words = D::point_words(points);
        let owner = NEXT_OWNER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let at_infinity = points.iter().enumerate().filter(|(_, p)| p.is_identity()).map(|(i, _)| i).collect();
        RtlPoints { n: points.len(), owner, words, at_infinity }
    }

    /// One window through the core (a run of its own). A window whose digits
    /// stay small is spread over its buckets, as the core does for the last
    /// window of a stream.
    fn accumulate<'a>(&'a self, points: &'a RtlPoints, digits: &[i32], plan: &Plan) -> Vec<D::Bucket> {
        assert_eq!(digits.len(), points.n);
        let max = digits.iter().map(|d| d.unsigned_abs()).max().unwrap_or(0);
        let tb = (32 - max.saturating_sub(1).leading_zeros()).min(plan.c - 1);
        let top = (max > 0 && max <= 1 << tb && tb + 1 < plan.c).then_some(tb);
        match self.run(points, plan, 1, top, 0, std::iter::once(digits.to_vec())) {
            Ok(mut w) => w.pop().unwrap_or_else(|| vec![D::Bucket::identity(); plan.buckets]),
            Err(e) => panic!("rtl backend: {e}"),
        }
    }
}

/// A whole MSM on the core per call, all windows in one stream (see the
/// module docs); `zkmsm::MsmEngine` for the core's curve.
pub struct RtlEngine<D: CoreDatapath> {
    backend: RtlBackend<D>,
    points: RtlPoints,
    window: Option<u32>,
}

impl<D: CoreDatapath> RtlEngine<D> {
    /// Validate and convert `points` (MSM_INIT) for the core on `device`.
    pub fn new(
        points: Vec<Affine<D::Curve>>,
        validation: zkmsm::Validation,
        device: Arc<Device>,
    ) -> Result<Self, MsmError> {
        validate_points(&points, validation)?;
        let backend = RtlBackend::new(device)?;
        let points = backend.prepare(&points);
        Ok(Self { backend, points, window: None })
    }

    /// The backend (device and last report) this engine runs on.
    pub fn backend(&self) -> &RtlBackend<D> {
        &self.backend
    }

    /// Run on `k` cores (see [`RtlBackend::set_cores`]).
    pub fn set_cores(&mut self, k: u32) -> Result<(), MsmError> {
        self.backend.set_cores(k)
    }

    /// Where bucket aggregation runs (see [`RtlBackend::set_aggregation`]).
    pub fn set_aggregation(&mut self, a: Aggregation) -> Result<(), MsmError> {
        self.backend.set_aggregation(a)
    }

    /// The last MSM's counters and model cycles.
    pub fn last_report(&self) -> Option<RtlReport> {
        self.backend.last_report()
    }
}

impl<D: CoreDatapath> MsmEngine<D::Curve> for RtlEngine<D> {
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
        let c = self.window.unwrap_or_else(|| window_for(self.points.n, &self.backend.params()));
        Plan::with_window(c, scalar_bits::<D::Curve>())
    }
    /// The core reads points from its own memory image, not a prepared file: refused.
    fn write_prepared(&self, _path: &std::path::Path) -> Result<(), MsmError> {
        Err(MsmError::Unsupported("the rtl backend has no prepared-file layout; prepare with a CPU backend".into()))
    }
    fn msm_report(&self, scalars: &[ScalarLimbs]) -> Result<MsmOutput<D::Curve>, MsmError> {
        let n = self.points.n;
        if scalars.len() != n {
            return Err(MsmError::LengthMismatch { points: n, scalars: scalars.len() });
        }
        check_scalars::<D::Curve>(scalars)?;
        let plan = self.plan();
        let mut timings = PhaseTimings::default();
        if n == 0 {
            return Ok(MsmOutput { result: Xyzz::identity(), plan, timings, schedule: None });
        }
        // digits streamed: the producer runs at most one window (of chunks)
        // ahead of the core; `timings.digits` is its computing time, which
        // overlaps `timings.accumulation` (the run's wall time)
        let t = Instant::now();
        let top = spread_bits(&plan, scalar_bits::<D::Curve>());
        let lm = match self.backend.aggregation {
            Aggregation::Host => 0,
            Aggregation::Device(Some(lm)) => lm,
            Aggregation::Device(None) => {
                let per_core = plan.windows.div_ceil(self.backend.cores);
                let p = self.backend.params();
                // (a step waits HZ plus the conversion's cycles)
                default_log_m(n, plan.c, per_core, p.hz + p.agg_lat)
            }
        };
        let (windows, per_window) = std::thread::scope(|s| {
            let (tx, rx) = std::sync::mpsc::sync_channel(n.div_ceil(DIGIT_CHUNK));
            let producer = s.spawn(move || produce_digits(scalars, &plan, DIGIT_CHUNK, &tx));
            let windows = self.backend.run(&self.points, &plan, plan.windows, top, lm, rx.into_iter());
            (windows, producer.join())
        });
        let per_window = per_window.map_err(|_| MsmError::Unsupported("the digit producer panicked".into()))?;
        let windows = windows?;
        timings.digits = per_window.iter().sum();
        timings.accumulation = t.elapsed();
        let t = Instant::now();
        let last = windows.len().saturating_sub(1);
        let sums: Vec<Xyzz<D::Curve>> = windows
            .iter()
            .enumerate()
            .map(|(w, b)| match lm {
                0 => partitioned_sum::<D::Curve, _>(b, 1).to_xyzz(),
                _ => {
                    let wl = window_log_m(lm, plan.c, top, w == last);
                    window_sum::<D::Curve, _>(b, wl, top.is_some() && w == last).to_xyzz()
                }
            })
            .collect();
        timings.bucket_aggregation = t.elapsed();
        let t = Instant::now();
        let result = combine_windows(&sums, plan.c);
        timings.result_aggregation = t.elapsed();
        Ok(MsmOutput { result, plan, timings, schedule: None })
    }
}
