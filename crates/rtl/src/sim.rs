//! The Verilated accelerator (`zk_msm_top` in its test-bench environment,
//! `rtl/tb/zk_driver.h`) behind a safe interface. Built by this crate's
//! build script with the `verilated` feature.

use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Which Verilated configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The integer stand-in datapath (fast; control tests).
    Int = 0,
    /// The twisted Edwards adder: the core as synthesized.
    Te = 1,
    /// The integer stand-in with the bucket lock table, a block-RAM pending
    /// queue and blocked heads requeued (`LOCK = 1`, `RQ = 1`) at a
    /// datapath latency of 2,000 cycles.
    IntLock = 2,
    /// The batched-affine adder with the lock table (`DP = 2`, `LOCK = 1`,
    /// `RQ = 1`, `PD = 1024`) on BLS12-381: the core as synthesized.
    Aff381 = 3,
    /// The same batched-affine core on BLS12-377.
    Aff377 = 4,
    /// The same batched-affine core on BN254, at its own width (NB = 256).
    AffBn254 = 5,
}

impl Kind {
    /// The name `ZKMSM_RTL_MODELS` gives this model at build time.
    pub fn model_name(self) -> &'static str {
        match self {
            Kind::Int => "int",
            Kind::Te => "te",
            Kind::IntLock => "lk",
            Kind::Aff381 => "aff381",
            Kind::Aff377 => "aff377",
            Kind::AffBn254 => "affbn254",
        }
    }

    /// Whether this build Verilated the model (all of them unless
    /// `ZKMSM_RTL_MODELS` named fewer when it was built).
    pub fn built(self) -> bool {
        env!("ZKMSM_RTL_BUILT").split(',').any(|m| m == self.model_name())
    }
}

/// The environment of a run (`zk_sim_opts`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Opts {
    /// Point memory: cycles from a read to its data.
    pub mem_latency: u32,
    /// Point memory: points per 100 cycles (<= 100).
    pub mem_rate_pct: u32,
    /// Digit stream: beats offered per 100 cycles.
    pub dg_rate_pct: u32,
    /// Bucket stream: cycles the host is ready, per 100.
    pub out_ready_pct: u32,
    /// Seed of the random patterns above.
    pub seed: u64,
    /// Give up after this many cycles per MSM. A run with nothing in or out
    /// for longer than any phase of an MSM takes (a lost operation) fails
    /// sooner, "stalled" (see docs/RTL.md, host side).
    pub max_cycles: u64,
    /// Cores to use (register CORES), 1..=`Info::ncores`.
    pub cores: u32,
    /// Register AGG: 0 sends every bucket to the host; otherwise the device
    /// aggregates each window in groups of 2^`agg_log_m` buckets and sends
    /// two partial sums per group (`zkmsm_rtl::aggregate`).
    pub agg_log_m: u32,
}

impl Default for Opts {
    fn default() -> Self {
        Self {
            mem_latency: 40,
            mem_rate_pct: 100,
            dg_rate_pct: 100,
            out_ready_pct: 100,
            seed: 1,
            max_cycles: 1 << 34,
            cores: 1,
            agg_log_m: 0,
        }
    }
}

/// The core's parameters, read from its registers.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Datapath: 0 the integer stand-in, 1 the twisted Edwards adder, 2 the
    /// batched-affine adder.
    pub dp: u32,
    /// Largest window (bucket memory of 2^(CMAX-1) buckets per window slot).
    pub cmax: u32,
    /// Pending queue depth.
    pub pd: u32,
    /// Bucket-memory read latency.
    pub brl: u32,
    /// Datapath latency (the adder's 74; 110 with RW = 48).
    pub lat_dp: u32,
    /// Hazard window: bucket-read latency + datapath latency.
    pub lat_hz: u32,
    /// Bits of a point word in point memory.
    pub point_bits: u32,
    /// Bits of a bucket value.
    pub value_bits: u32,
    /// Cores built (NCORES).
    pub ncores: u32,
    /// Depth of the per-core fan-out FIFOs (0: one core, no fan-out).
    pub fanout_depth: u32,
    /// 1: hazards by the bucket lock table and a block-RAM pending queue (LOCK).
    pub lock: u32,
    /// 1: a pending head whose bucket is busy goes to the back of the queue (RQ).
    pub requeue: u32,
    /// Cycles between a device-aggregation addition's bucket reads and its
    /// slot in the adder beyond the other cores' (the twisted Edwards
    /// core's conversion, zk_te_agg_in; AGG_LAT register).
    pub lat_agg: u32,
}

/// The core's counters after an MSM (zk_msm_core), and the simulation's cost.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// START to the last bucket out.
    pub cycles: u64,
    /// START to the last bucket write-back: the accumulation cycles.
    pub acc_cycles: u64,
    /// Additions issued to the datapath.
    pub issued: u64,
    /// Operations that found their bucket in flight (sent to the pending queue).
    pub conflicts: u64,
    /// Cycles the input head held an operation it could not take yet.
    pub stalls: u64,
    /// Accumulation cycles with nothing issued.
    pub bubbles: u64,
    /// Zero digits consumed (no addition).
    pub zero_digits: u64,
    /// Cycles the bucket stream was held back by the host (not ready).
    pub ro_stalls: u64,
    /// The pending queue's high-water mark.
    pub pending_hwm: u64,
    /// STATUS register at the end.
    pub status: u32,
    /// Cycles simulated for this MSM, register accesses included.
    pub sim_cycles: u64,
    /// Wall time of the simulation.
    pub sim_seconds: f64,
    /// Cycles a point beat waited for a core's full fan-out FIFO.
    pub fanout_stalls: u64,
}

#[repr(C)]
struct Raw {
    _private: [u8; 0],
}

extern "C" {
    fn zk_sim_new(kind: c_int, o: *const Opts) -> *mut Raw;
    fn zk_sim_free(s: *mut Raw);
    fn zk_sim_get_info(s: *mut Raw, out: *mut Info);
    fn zk_sim_set_opts(s: *mut Raw, o: *const Opts);
    fn zk_sim_load_points(s: *mut Raw, words: *const u64, n: usize) -> c_int;
    fn zk_sim_run(
        s: *mut Raw,
        n: u32,
        c: u32,
        windows: u32,
        top_bits: u32,
        digits: *const i32,
        buckets: *mut u64,
        stats: *mut Stats,
    ) -> c_int;
    fn zk_sim_run_stream(
        s: *mut Raw,
        n: u32,
        c: u32,
        windows: u32,
        top_bits: u32,
        next: extern "C" fn(*mut c_void, *mut *const i32) -> usize,
        ctx: *mut c_void,
        buckets: *mut u64,
        stats: *mut Stats,
    ) -> c_int;
    fn zk_sim_error(s: *mut Raw) -> *const c_char;
}

/// One simulated accelerator with its point memory.
pub struct Sim {
    raw: *mut Raw,
    info: Info,
    points: usize,
}

// SAFETY: the C++ object has no thread affinity; `&mut self` on every call
// that touches it keeps it to one thread at a time.
unsafe impl Send for Sim {}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The MSM ran, but the core flagged its input (STATUS bits 4..7).
    Flagged {
        /// The STATUS register.
        status: u32,
    },
    /// The MSM did not complete (timeout, a broken stream order, ...).
    Failed(String),
    /// The call was malformed (lengths).
    Invalid(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Flagged { status } => write!(f, "the core flagged its input: STATUS 0x{status:x}"),
            RunError::Failed(s) => write!(f, "the simulated MSM failed: {s}"),
            RunError::Invalid(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for RunError {}

impl Sim {
    /// Reset a new accelerator (its bucket memory clears itself).
    pub fn new(kind: Kind, opts: &Opts) -> Option<Self> {
        // SAFETY: `opts` is a valid zk_sim_opts; a null return is handled.
        let raw = unsafe { zk_sim_new(kind as c_int, opts) };
        if raw.is_null() {
            return None;
        }
        let mut info = Info::default();
        // SAFETY: `raw` is live, `info` writable.
        unsafe { zk_sim_get_info(raw, &mut info) };
        Some(Self { raw, info, points: 0 })
    }

    /// The core's parameters (read from its registers at reset).
    pub fn info(&self) -> Info {
        self.info
    }

    /// Change the environment (memory latency and bandwidth, stream rates) for the next runs.
    pub fn set_opts(&mut self, opts: &Opts) {
        // SAFETY: `raw` is live.
        unsafe { zk_sim_set_opts(self.raw, opts) };
    }

    /// 64-bit words per point and per bucket value.
    pub fn point_words(&self) -> usize {
        self.info.point_bits.div_ceil(64) as usize
    }
    /// 64-bit words per bucket value.
    pub fn value_words(&self) -> usize {
        self.info.value_bits.div_ceil(64) as usize
    }

    /// MSM_INIT: the points into point memory (`point_words()` each).
    pub fn load_points(&mut self, words: &[u64]) {
        let n = words.len() / self.point_words();
        assert_eq!(words.len(), n * self.point_words(), "whole points");
        // SAFETY: `words` holds n points of point_words() words.
        unsafe { zk_sim_load_points(self.raw, words.as_ptr(), n) };
        self.points = n;
    }

    /// Points in point memory.
    pub fn points(&self) -> usize {
        self.points
    }

    /// One MSM over the first `n` loaded points: `digits` window-major
    /// (windows x n); returns windows x 2^(c-1) bucket values
    /// (`value_words()` each) and the counters. `top_bits`: the last
    /// window's digits lie in [-2^tb, 2^tb] and are spread over its buckets
    /// (the caller adds the copies up); `None`: no spreading.
    pub fn run(
        &mut self,
        n: usize,
        c: u32,
        windows: u32,
        top_bits: Option<u32>,
        digits: &[i32],
    ) -> Result<(Vec<u64>, Stats), RunError> {
        if digits.len() != n * windows as usize {
            return Err(RunError::Invalid(format!("{} digits for {windows} windows of {n}", digits.len())));
        }
        self.run_with(n, c, windows, |raw, buckets, st| {
            // SAFETY: `digits` holds windows x n digits; the buffers have the sizes zk_sim_run documents.
            unsafe { zk_sim_run(raw, n as u32, c, windows, top_bits.unwrap_or(31), digits.as_ptr(), buckets, st) }
        })
    }

    /// [`Sim::run`] with the digit stream from a producer: `chunks` yields
    /// the same window-major digits in pieces of any length, in order, and
    /// is asked for the next piece only when the core has taken the previous
    /// one, so a host can compute window w+1's digits while the core
    /// accumulates window w. A stream that ends early fails the run.
    pub fn run_stream<I: Iterator<Item = Vec<i32>>>(
        &mut self,
        n: usize,
        c: u32,
        windows: u32,
        top_bits: Option<u32>,
        chunks: I,
    ) -> Result<(Vec<u64>, Stats), RunError> {
        let mut src = Source { chunks, current: Vec::new() };
        let ctx = &mut src as *mut Source<I> as *mut c_void;
        self.run_with(n, c, windows, |raw, buckets, st| {
            // SAFETY: `ctx` points to `src`, alive for the call; the buffers have the sizes zk_sim_run documents.
            unsafe {
                zk_sim_run_stream(raw, n as u32, c, windows, top_bits.unwrap_or(31), next_chunk::<I>, ctx, buckets, st)
            }
        })
    }

    /// The checks and buffers around one run; `call` runs it.
    fn run_with(
        &mut self,
        n: usize,
        c: u32,
        windows: u32,
        call: impl FnOnce(*mut Raw, *mut u64, *mut Stats) -> c_int,
    ) -> Result<(Vec<u64>, Stats), RunError> {
        if n > self.points {
            return Err(RunError::Invalid(format!("{n} digits per window but {} points loaded", self.points)));
        }
        if !(1..=self.info.cmax).contains(&c) {
            return Err(RunError::Invalid(format!("window {c} outside the core's 1..={}", self.info.cmax)));
        }
        let nb = 1usize << (c - 1);
        let mut buckets = vec![0u64; (nb * windows as usize).max(1) * self.value_words()];
        let mut st = Stats::default();
        let rc = call(self.raw, buckets.as_mut_ptr(), &mut st);
        buckets.truncate(nb * windows as usize * self.value_words());
        match rc {
            0 => Ok((buckets, st)),
            1 => Err(RunError::Flagged { status: st.status }),
            _ => Err(RunError::Failed(self.error())),
        }
    }

    fn error(&self) -> String {
        // SAFETY: zk_sim_error returns a NUL-terminated string owned by the object.
        unsafe { CStr::from_ptr(zk_sim_error(self.raw)) }.to_string_lossy().into_owned()
    }
}

/// A digit producer as the driver sees it: the iterator and the chunk it
/// handed out last (kept alive until the next call).
struct Source<I> {
    chunks: I,
    current: Vec<i32>,
}

/// `zk_digit_source`: the next non-empty chunk, or 0 at the end (or if the
/// producer panicked: the run then fails with a message, nothing unwinds
/// into C++).
extern "C" fn next_chunk<I: Iterator<Item = Vec<i32>>>(ctx: *mut c_void, chunk: *mut *const i32) -> usize {
    // SAFETY: `ctx` is the `Source<I>` run_stream passed, alive and not otherwise borrowed during the call.
    let src = unsafe { &mut *(ctx as *mut Source<I>) };
    let next = catch_unwind(AssertUnwindSafe(|| src.chunks.find(|v| !v.is_empty())));
    match next {
        Ok(Some(v)) => {
            src.current = v;
            // SAFETY: `chunk` is the driver's out-pointer.
            unsafe { *chunk = src.current.as_ptr() };
            src.current.len()
        }
        _ => 0,
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        // SAFETY: `raw` came from zk_sim_new and is freed once.
        unsafe { zk_sim_free(self.raw) };
    }
}
