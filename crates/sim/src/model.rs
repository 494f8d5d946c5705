//! A whole MSM on the modelled accelerator: bucket accumulation by one of the
//! schedulers, bucket aggregation, result aggregation; cycles per phase, and
//! in functional mode the resulting point.

use crate::aggregate::{partitioned, serial, Program};
use crate::datapath::{Buckets, Datapath, Functional, SimGroup, Stats};
use crate::digits::{DigitSource, HostDigits, UniformDigits};
use crate::sched::core::CoreSched;
use crate::sched::cyclone::{Delayed, Greedy};
use crate::sched::hardcaml::StallController;
use crate::sched::prior::Pbsm;
use crate::sched::zprize::CollisionHandler;
use crate::sched::{AccStats, Machine, Scheduler};
use zkmsm::{Plan, ScalarLimbs};
use zkmsm_curve::{Bls12_377, Bls12_381, MsmCurve};

/// The schedulers of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchedKind {
    /// CycloneMSM delayed scheduler (conflicts replayed in later passes).
    Delayed,
    /// CycloneMSM greedy scheduler (conflicts replayed when the bucket frees).
    Greedy,
    /// Hardcaml stall controller (per-window stall FIFOs, three rules).
    Hardcaml,
    /// PriorMSM priority-based scheduling (pairing, multi-FIFO, multi-bank).
    Prior,
    /// ZPrize 2023 collision handler (locked buckets, pending buffer).
    Zprize,
    /// The zkmsm RTL core (rtl/src/zk_msm_core.sv): pending FIFO with swap,
    /// windows back to back on two bucket banks; cycle-exact.
    Core,
}

impl SchedKind {
    /// Every scheduler, in the order reports list them.
    pub const ALL: [SchedKind; 6] = [
        SchedKind::Delayed,
        SchedKind::Greedy,
        SchedKind::Hardcaml,
        SchedKind::Prior,
        SchedKind::Zprize,
        SchedKind::Core,
    ];

    /// The name `--scheduler` takes.
    pub fn name(self) -> &'static str {
        match self {
            SchedKind::Delayed => "delayed",
            SchedKind::Greedy => "greedy",
            SchedKind::Hardcaml => "hardcaml",
            SchedKind::Prior => "prior",
            SchedKind::Zprize => "zprize",
            SchedKind::Core => "core",
        }
    }

    /// The published design's parameters (see docs/MODEL.md for sources).
    pub fn preset(self) -> ModelConfig {
        let base = ModelConfig {
            sched: self,
            n: 1 << 20,
            c: 16,
            bits: ScalarField::Bls12_377.bits(),
            field: ScalarField::Bls12_377,
            full_width: false,
            seed: 1,
            machine: Machine::default(),
            freq_mhz: 250.0,
            agg: AggKind::Serial,
            groups: 16,
            mul_latency: 39,
            stall_fifo: 4,
            cus: 3,
            pending_cap: 0,
            no_pass_drain: false,
            prior_strict_u3: false,
            core: CoreSched::default(),
        };
        match self {
            SchedKind::Delayed | SchedKind::Greedy => base,
            SchedKind::Hardcaml => ModelConfig {
                c: 13,
                machine: Machine { depth: 238, ..Machine::default() },
                freq_mhz: 278.0,
                agg: AggKind::Host,
                ..base
            },
            SchedKind::Prior => ModelConfig {
                c: 12,
                machine: Machine { depth: 87, banks: 8, ..Machine::default() },
                freq_mhz: 1000.0,
                agg: AggKind::Partitioned,
                ..base
            },
            SchedKind::Zprize => ModelConfig {
                c: 13,
                bits: ScalarField::Bls12_381.bits(),
                field: ScalarField::Bls12_381,
                // 336-cycle batch frames; 3332 + 336/2 = 3500 cycles in flight
                // on average.
                machine: Machine { depth: 3332, batch: 336, ..Machine::default() },
                agg: AggKind::Host,
                ..base
            },
            // rtl/src/zk_msm_core.sv at its synthesized parameters: T = HZ =
            // bucket-read latency 2 + adder latency 74 (zk_te_madd at the
            // default RW = 384; 110 with RW = 48: --depth 112).
            SchedKind::Core => {
                ModelConfig { machine: Machine { depth: 76, ..Machine::default() }, agg: AggKind::Host, ..base }
            }
        }
    }
}

/// Bucket aggregation model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggKind {
    /// CycloneMSM Algorithm 3 on the adder reconfigured for full Add
    /// (2-cycle issue, latency T + mul latency + 1), one Add in flight.
    Serial,
    /// Algorithm 3 with in-order, non-blocking issue (the two Adds of a step
    /// overlap).
    SerialOverlap,
    /// PriorMSM partitioned aggregation with H groups on the pipelined PADD.
    Partitioned,
    /// Aggregation on the host (Hardcaml, ZPrize): not in the device cycles.
    Host,
}

impl AggKind {
    /// Every aggregation mode.
    pub const ALL: [AggKind; 4] = [AggKind::Serial, AggKind::SerialOverlap, AggKind::Partitioned, AggKind::Host];

    /// The name `--agg` takes.
    pub fn name(self) -> &'static str {
        match self {
            AggKind::Serial => "serial",
            AggKind::SerialOverlap => "serial-overlap",
            AggKind::Partitioned => "partitioned",
            AggKind::Host => "host",
        }
    }
}

/// Whose uniform scalars the statistics mode draws: the host's generator
/// (`zkmsm::gen::random_scalars`) for that curve's scalar field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarField {
    /// BLS12-377's scalar field (253 bits).
    Bls12_377,
    /// BLS12-381's scalar field (255 bits).
    Bls12_381,
}

impl ScalarField {
    /// Bit length of the scalar field's order (253, 255).
    pub fn bits(self) -> u32 {
        match self {
            ScalarField::Bls12_377 => <Bls12_377 as MsmCurve>::Scalar::NUM_BITS,
            ScalarField::Bls12_381 => <Bls12_381 as MsmCurve>::Scalar::NUM_BITS,
        }
    }
}

/// One run of the model: scheduler, workload, machine and aggregation.
#[derive(Clone, Debug)]
pub struct ModelConfig {
    /// The accumulation scheduler (and the design it models).
    pub sched: SchedKind,
    /// Number of points and scalars N.
    pub n: usize,
    /// Window size: the plan is `zkmsm::Plan::with_window(c, bits)`.
    pub c: u32,
    /// Scalar bits for the plan (the scalar field's, or the toy curve's).
    pub bits: u32,
    /// Scalar field of the statistics mode's uniform scalars.
    pub field: ScalarField,
    /// Statistics mode: every window a full c-bit window (see
    /// [`UniformDigits`]), the papers' modelling assumption.
    pub full_width: bool,
    /// Seed of the uniform scalars.
    pub seed: u64,
    /// Pipeline depth, adders and bucket-memory ports.
    pub machine: Machine,
    /// Clock frequency for the latency projection, MHz.
    pub freq_mhz: f64,
    /// Where and how bucket aggregation runs.
    pub agg: AggKind,
    /// H for partitioned aggregation.
    pub groups: usize,
    /// Field-multiplier latency, for the reconfigured full Add (CycloneMSM).
    pub mul_latency: u32,
    /// Hardcaml stall FIFO depth.
    pub stall_fifo: usize,
    /// ZPrize compute units.
    pub cus: usize,
    /// ZPrize pending-buffer capacity per lane (0: unbounded).
    pub pending_cap: usize,
    /// Delayed scheduler: start a pass without waiting for the previous
    /// pass's additions to be written back.
    pub no_pass_drain: bool,
    /// PriorMSM: only the head of FIFO_U3 may be served.
    pub prior_strict_u3: bool,
    /// The RTL core's pending FIFO, read latency and input latency.
    pub core: CoreSched,
}

/// Everything one run measured.
#[derive(Clone, Debug)]
pub struct Report {
    /// The configuration that ran.
    pub cfg: ModelConfig,
    /// Number of windows.
    pub windows: usize,
    /// Buckets per window.
    pub buckets: usize,
    /// Bucket accumulation's figures.
    pub acc: AccStats,
    /// Aggregation program for one window: cycles, additions, doublings.
    pub agg_cycles_per_window: u64,
    /// Additions in one window's aggregation program.
    pub agg_adds_per_window: usize,
    /// Doublings in one window's aggregation program.
    pub agg_doubles_per_window: usize,
    /// Partitioned aggregation: cycles of the unpartitioned running sum on
    /// the same pipeline (PriorMSM's "naive" baseline), per window.
    pub naive_agg_cycles_per_window: Option<u64>,
    /// Result aggregation (Horner over windows) cycles, on device or host.
    pub result_agg_cycles: u64,
    /// Device cycles: accumulation plus on-device aggregation phases.
    pub device_cycles: u64,
}

impl Report {
    /// True when bucket aggregation runs on the device (not the host).
    pub fn agg_on_device(&self) -> bool {
        self.cfg.agg != AggKind::Host
    }
    /// Cycles of bucket aggregation over all windows.
    pub fn agg_cycles_total(&self) -> u64 {
        self.agg_cycles_per_window * self.windows as u64
    }
    /// Share of the device cycles spent in bucket aggregation.
    pub fn agg_share(&self) -> f64 {
        if !self.agg_on_device() || self.device_cycles == 0 {
            return 0.0;
        }
        self.agg_cycles_total() as f64 / self.device_cycles as f64
    }
    /// Projected latency in milliseconds at the configured clock.
    pub fn latency_ms(&self) -> f64 {
        self.device_cycles as f64 / (self.cfg.freq_mhz * 1e3)
    }
    /// Bucket additions wanted: one per non-zero digit.
    pub fn digit_ops(&self) -> u64 {
        (self.cfg.n as u64 * self.windows as u64).saturating_sub(self.acc.zero_digits)
    }
    /// Adders working in parallel (compute units for ZPrize).
    pub fn parallel_units(&self) -> u64 {
        match self.cfg.sched {
            SchedKind::Zprize => self.cfg.cus.clamp(1, self.windows.max(1)) as u64,
            _ => self.cfg.machine.adders.max(1) as u64,
        }
    }
    /// Accumulation cycles per non-zero digit and adder (1.0 is a perfectly
    /// fed adder).
    pub fn cycles_per_op(&self) -> f64 {
        let d = self.digit_ops();
        if d == 0 {
            return 0.0;
        }
        self.acc.cycles as f64 / d as f64 * self.parallel_units() as f64
    }
}

impl ModelConfig {
    /// The host's plan for this window size and scalar width.
    pub fn plan(&self) -> Plan {
        Plan::with_window(self.c, self.bits)
    }

    /// Number of windows of the plan.
    pub fn windows(&self) -> usize {
        self.plan().windows as usize
    }

    fn agg_program(&self, nb: usize) -> (Program, u64, u64, bool) {
        let t = self.machine.depth as u64;
        match self.agg {
            AggKind::Serial => (serial(nb), t + self.mul_latency as u64 + 1, 2, true),
            AggKind::SerialOverlap => (serial(nb), t + self.mul_latency as u64 + 1, 2, false),
            AggKind::Partitioned => (partitioned(nb, self.groups), t, 1, false),
            AggKind::Host => (serial(nb), t, 1, false),
        }
    }

    /// Bucket accumulation only, by the configured scheduler.
    pub fn accumulate<D: Datapath, S: DigitSource>(&self, digits: &S, dp: &D, buckets: &mut Buckets<D::V>) -> AccStats {
        let m = &self.machine;
        match self.sched {
            SchedKind::Delayed => {
                Delayed { drain_between_passes: !self.no_pass_drain }.accumulate(m, digits, dp, buckets)
            }
            SchedKind::Greedy => Greedy.accumulate(m, digits, dp, buckets),
            SchedKind::Hardcaml => StallController { fifo_depth: self.stall_fifo }.accumulate(m, digits, dp, buckets),
            SchedKind::Prior => Pbsm { strict_u3: self.prior_strict_u3 }.accumulate(m, digits, dp, buckets),
            SchedKind::Zprize => {
                CollisionHandler { cus: self.cus, pending_cap: self.pending_cap }.accumulate(m, digits, dp, buckets)
            }
            SchedKind::Core => {
                let mut core = self.core.clone();
                let plan = self.plan();
                if core.top_bits.is_none() && digits.windows() == plan.windows as usize {
                    core.top_bits = Some(CoreSched::top_bits_for(&plan, self.bits));
                }
                core.accumulate(m, digits, dp, buckets)
            }
        }
    }

    fn run_with<D: Datapath, S: DigitSource>(&self, digits: &S, dp: &D) -> (Report, Buckets<D::V>, Program) {
        let nb = self.plan().buckets;
        let w = digits.windows();
        let mut buckets = Buckets::new(w, nb, D::FUNCTIONAL);
        let acc = self.accumulate(digits, dp, &mut buckets);
        let (prog, lat, issue, blocking) = self.agg_program(nb);
        let agg_cycles = prog.cycles(lat, issue, blocking);
        // Horner: c doublings and one addition per window but the top one,
        // a dependent chain on the device's full-add latency.
        let result_agg = (w.saturating_sub(1) as u64) * (self.c as u64 + 1) * lat;
        // An empty MSM needs no aggregation at all.
        let device = if self.agg == AggKind::Host || digits.is_empty() {
            acc.cycles
        } else {
            acc.cycles + agg_cycles * w as u64 + result_agg
        };
        let naive = (self.agg == AggKind::Partitioned).then(|| serial(nb).cycles(lat, 1, false));
        let rep = Report {
            naive_agg_cycles_per_window: naive,
            cfg: self.clone(),
            windows: w,
            buckets: nb,
            agg_cycles_per_window: agg_cycles,
            agg_adds_per_window: prog.adds(),
            agg_doubles_per_window: prog.doubles(),
            result_agg_cycles: result_agg,
            device_cycles: device,
            acc,
        };
        (rep, buckets, prog)
    }

    /// Statistics mode: the host's digits of `n` uniform scalars from the
    /// host's generator, bucket indices only.
    pub fn run_stats(&self) -> Report {
        let plan = self.plan();
        match self.field {
            ScalarField::Bls12_377 => {
                self.run_with(&UniformDigits::<Bls12_377>::new(self.n, plan, self.seed, self.full_width), &Stats).0
            }
            ScalarField::Bls12_381 => {
                self.run_with(&UniformDigits::<Bls12_381>::new(self.n, plan, self.seed, self.full_width), &Stats).0
            }
        }
    }

    /// Statistics mode on explicit scalars.
    pub fn run_stats_on(&self, scalars: &[ScalarLimbs]) -> Report {
        self.run_with(&HostDigits::new(scalars, &self.plan()), &Stats).0
    }

    /// Statistics mode on digits already made (e.g. by the host for an MSM).
    pub fn run_stats_digits<S: DigitSource>(&self, digits: &S) -> Report {
        self.run_with(digits, &Stats).0
    }

    /// Functional mode: real points through the modelled pipeline; returns
    /// the MSM `sum scalars[i] * points[i]` as the model computed it.
    pub fn run_functional<G: SimGroup>(&self, group: &G, points: &[G::P], scalars: &[ScalarLimbs]) -> (Report, G::P) {
        assert_eq!(points.len(), scalars.len());
        let digits = HostDigits::new(scalars, &self.plan());
        let dp = Functional::new(group, points);
        let mut cfg = self.clone();
        cfg.n = points.len();
        let (rep, buckets, prog) = cfg.run_with(&digits, &dp);
        let mut acc = group.identity();
        for w in (0..rep.windows).rev() {
            for _ in 0..self.c {
                acc = group.double(&acc);
            }
            let s = prog.eval(&dp, buckets.window(w));
            acc = group.add(&acc, &s);
        }
        (rep, acc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curves::{points, reference_msm, run_xyzz, scalars, ScalarSet};
    use zkmsm_curve::Bls12_381;

    fn stats(s: SchedKind, log_n: u32, f: impl FnOnce(&mut ModelConfig)) -> Report {
        let mut c = s.preset();
        c.n = 1 << log_n;
        f(&mut c);
        c.run_stats()
    }

    #[test]
    fn cyclone_conflicts_follow_nt_over_buckets() {
        // CycloneMSM 3.2: about N T / 2^(c-1) conflicts per window.
        for s in [SchedKind::Delayed, SchedKind::Greedy] {
            let r = stats(s, 16, |c| {
                c.c = 12;
                c.machine.depth = 64;
            });
            let full = r.windows - 1;
            let mean = r.acc.window_conflicts[..full].iter().sum::<u64>() as f64 / full as f64;
            let expect = (1u64 << 16) as f64 * 64.0 / 2048.0;
            assert!((mean / expect - 1.0).abs() < 0.1, "{} mean {mean} expect {expect}", s.name());
            // Every conflict costs one issue slot, and each pass a drain.
            let n = (1u64 << 16) as f64;
            let per_point = r.acc.window_cycles[..full].iter().sum::<u64>() as f64 / full as f64 / n;
            let bound = 1.0 + expect / n + 6.0 * 64.0 / n;
            assert!(per_point > 1.0 + 0.9 * expect / n && per_point < bound, "{per_point} {bound}");
        }
    }

    #[test]
    fn greedy_queue_stays_short_and_delayed_needs_few_passes() {
        let g = stats(SchedKind::Greedy, 16, |c| c.c = 13);
        assert!(g.acc.window_deferred[..g.windows - 1].iter().all(|&q| q <= 12), "{:?}", g.acc.window_deferred);
        let d = stats(SchedKind::Delayed, 16, |c| c.c = 13);
        assert!(d.acc.window_passes[..d.windows - 1].iter().all(|&p| (2..=5).contains(&p)));
        // Starting passes before the pipeline drains makes the tail re-conflict.
        let nd = stats(SchedKind::Delayed, 16, |c| {
            c.c = 13;
            c.no_pass_drain = true;
        });
        assert!(nd.acc.passes > d.acc.passes);
    }

    #[test]
    fn hardcaml_stall_rate_is_small_with_full_windows() {
        // 20 full 13-bit windows: stalls below 1%.
        let r = stats(SchedKind::Hardcaml, 15, |c| c.full_width = true);
        let ideal = (r.cfg.n * r.windows) as f64;
        let overhead = r.acc.slots as f64 / ideal - 1.0;
        assert!(overhead > 0.001 && overhead < 0.01, "{overhead}");
        assert_eq!(r.acc.queue_hwm, 4);
        // Shallower stall FIFOs force more flush rounds.
        let shallow = stats(SchedKind::Hardcaml, 15, |c| {
            c.full_width = true;
            c.stall_fifo = 1;
        });
        assert!(shallow.acc.slots > r.acc.slots);
    }

    #[test]
    fn prior_cycles_per_point_tend_to_one() {
        let per_point = |r: &Report| r.acc.cycles as f64 / (r.cfg.n * r.windows) as f64;
        let small = stats(SchedKind::Prior, 12, |_| {});
        let large = stats(SchedKind::Prior, 17, |_| {});
        let (a, b) = (per_point(&small), per_point(&large));
        assert!(b < a && (1.0..1.01).contains(&b), "{a} {b}");
    }

    #[test]
    fn zprize_pipeline_efficiency() {
        let r = stats(SchedKind::Zprize, 14, |c| c.full_width = true);
        let eff = r.acc.extra.iter().find(|e| e.0 == "pipeline_efficiency").unwrap().1;
        assert!(eff > 0.99, "{eff}");
    }

    #[test]
    fn multi_adder_multi_bank_functional() {
        let n = 300;
        let pts = points::<Bls12_381>(n, 3);
        let sc = scalars::<Bls12_381>(n, ScalarSet::Uniform, 4);
        let want = reference_msm(&pts, &sc);
        for s in [SchedKind::Delayed, SchedKind::Greedy, SchedKind::Prior] {
            let mut c = s.preset();
            c.c = 6;
            c.machine.adders = 3;
            c.machine.banks = 4;
            c.machine.depth = 20;
            c.machine.fifo_depth = 8;
            c.no_pass_drain = true;
            let (r, got) = run_xyzz(&c, &pts, &sc);
            assert_eq!(got, want, "{}", s.name());
            assert!(r.acc.ops > 0);
        }
    }

    #[test]
    fn core_on_several_cores_is_exact_and_faster() {
        // K cores on one point stream (window w on core w mod K): the same
        // MSM, one operation per non-zero digit, about W/K passes of cycles.
        let n = 300;
        let pts = points::<Bls12_381>(n, 5);
        let sc = scalars::<Bls12_381>(n, ScalarSet::Uniform, 6);
        let want = reference_msm(&pts, &sc);
        let mut one = SchedKind::Core.preset();
        one.c = 7;
        one.machine.depth = 24;
        one.core.cmax = 10;
        let (r1, got) = run_xyzz(&one, &pts, &sc);
        assert_eq!(got, want, "one core");
        for (k, fd) in [(2, 4), (3, 2), (4, 1)] {
            let mut c = one.clone();
            c.core.cores = k;
            c.core.fanout_depth = fd;
            let (r, got) = run_xyzz(&c, &pts, &sc);
            assert_eq!(got, want, "{k} cores");
            assert_eq!(r.acc.ops, r1.acc.ops, "{k} cores: the same additions");
            let passes = r.windows.div_ceil(k as usize) as f64;
            let per_pass = r.acc.cycles as f64 / passes;
            assert!(per_pass > n as f64 && per_pass < 1.6 * n as f64 + 200.0, "{k} cores: {per_pass} cycles per pass");
        }
    }
    #[test]
    fn core_requeue_keeps_results_and_restores_throughput_at_long_latency() {
        // Thousands of cycles in flight (the batched-affine adder): a FIFO
        // pending queue blocks behind an entry whose bucket an earlier entry
        // just took; requeueing the blocked head keeps the queue moving.
        let n = 300;
        let pts = points::<Bls12_381>(n, 9);
        for set in [ScalarSet::Uniform, ScalarSet::AllEqual] {
            let sc = scalars::<Bls12_381>(n, set, 10);
            let want = reference_msm(&pts, &sc);
            let mut c = SchedKind::Core.preset();
            c.c = 6;
            c.machine.depth = 502;
            c.core.cmax = 10;
            c.core.pending_cap = 64;
            c.core.requeue = true;
            let (r, got) = run_xyzz(&c, &pts, &sc);
            assert_eq!(got, want, "{set:?}: requeue keeps the sums");
            assert!(r.acc.ops > 0);
        }
        let util = |requeue: bool| {
            stats(SchedKind::Core, 16, |c| {
                c.c = 14;
                c.machine.depth = 1002;
                c.core.pending_cap = 256;
                c.core.requeue = requeue;
            })
            .acc
            .utilization()
        };
        // (zkmsm-sim --scheduler core --log-n 16 --window 14 --depth 1002
        // --fifo-depth 256 [--requeue]: 47.2% without, 96.2% with; the rest
        // is each window's drain)
        let (fifo, rq) = (util(false), util(true));
        assert!(rq > 0.95 && rq > fifo + 0.3, "utilization {fifo} without requeue, {rq} with");
    }
}
