//! Whole BLS12-377 MSMs as files, for a core simulated outside this crate:
//! the Yosys netlist of the core with the twisted Edwards adder inside
//! (rtl/test.sh, rtl/tb/zk_msm_file_tb.cpp).
//!
//! * `zkmsm-vectors msm-cases CMAX SEED OUT` writes the [`cases`] as the
//!   host would send them: the points in the core's word format
//!   ([`crate::format::point_words`]), the window from [`window_for`], the
//!   host's signed digits (`zkmsm::digits`) window-major and the narrow last
//!   window's spreading ([`spread_bits`]).
//! * The test bench runs each case through the simulated core and writes
//!   the buckets it read out, with the core's counters.
//! * `zkmsm-vectors msm-check CMAX SEED BUCKETS` checks each case
//!   ([`check`]): the buckets aggregated on the host exactly as the `rtl`
//!   backend does, the result equal to the CPU engine's (XYZZ) and to the
//!   bucket-free reference, one issued addition per non-zero digit, no
//!   input error flagged, and the core's accumulation cycles equal to the
//!   cycle model's for the same digits.
//!
//! Cases file (whitespace-separated tokens): per case a line
//! `case N C WINDOWS TOP` (TOP 31: no spreading), then N x 18 point words
//! (hex), then WINDOWS x N digits (decimal). Buckets file: a line
//! `info CMAX PD BRL LAT_HZ MEM_LATENCY CORES FANOUT_DEPTH` (CORES: the cores
//! the windows ran on, window w on core w mod CORES, one shared point
//! stream; FANOUT_DEPTH: the RTL's FD, 0 when built with one core), then per case a line
//! `case RC ISSUED ACC_CYCLES STATUS` and WINDOWS x 2^(C-1) x 24 bucket
//! words (hex).

use crate::format::{bucket_from_words, point_words, BUCKET_WORDS};
use crate::machine::{model_config, spread_bits, window_for, CoreParams, StreamDigits};
use std::fmt::Write as _;
use zkmsm::bucket_aggregation::partitioned_sum;
use zkmsm::digits::window_digits;
use zkmsm::gen::{random_points, random_scalars};
use zkmsm::reference::naive_msm;
use zkmsm::result_aggregation::combine_windows;
use zkmsm::{BackendChoice, Bucket, MsmBuilder, Plan, ScalarLimbs};
use zkmsm_curve::te::{precompute_points, TeExtended};
use zkmsm_curve::{Affine, Bls12_377, SwCurve};
use zkmsm_field::PrimeField;

type C = Bls12_377;
const SCALAR_BITS: u32 = <<C as zkmsm::MsmCurve>::Scalar as PrimeField>::NUM_BITS;

/// One MSM case: a name, points and scalars.
pub struct Case {
    /// What the case exercises.
    pub name: &'static str,
    /// The points.
    pub points: Vec<Affine<C>>,
    /// Their scalars.
    pub scalars: Vec<ScalarLimbs>,
}

/// A few small MSMs (N a few dozen, so the netlist simulates them in
/// seconds): uniform scalars, all scalars equal (every addition of a
/// window on one bucket), P and -P with equal scalars (the result is the
/// identity) and with random ones, a repeated point, r - 1 and zero
/// scalars, n = 1.
pub fn cases(seed: u64) -> Vec<Case> {
    let pts = random_points::<C>(48, seed).points;
    let rnd = random_scalars::<C>(48, seed ^ 0x5eed);
    let mut r1 = [0u64; 4];
    r1[..C::ORDER.len()].copy_from_slice(C::ORDER);
    r1[0] -= 1; // the order is odd: no borrow
    let pm = |k: usize| -> Vec<Affine<C>> { pts.iter().take(k).flat_map(|q| [*q, q.neg()]).collect() };
    vec![
        Case { name: "uniform scalars", points: pts[..40].to_vec(), scalars: rnd[..40].to_vec() },
        Case { name: "all scalars equal", points: pts[..8].to_vec(), scalars: vec![rnd[3]; 8] },
        Case { name: "P and -P, same scalar", points: pm(12), scalars: (0..24).map(|i| rnd[i / 2]).collect() },
        Case { name: "P and -P, random scalars", points: pm(12), scalars: rnd[..24].to_vec() },
        Case { name: "repeated point", points: vec![pts[0]; 16], scalars: rnd[16..32].to_vec() },
        Case {
            name: "r - 1 and zero scalars",
            points: pts[..6].to_vec(),
            scalars: vec![r1, [0; 4], r1, [0; 4], r1, r1],
        },
        Case { name: "n = 1", points: vec![pts[5]], scalars: vec![rnd[7]] },
    ]
}

/// The plan and the last window's spread (`None`: no spreading) the host
/// uses for `n` points on a core of `cmax`.
pub fn plan_for(n: usize, cmax: u32) -> (Plan, Option<u32>) {
    let p = CoreParams { cmax, pd: 0, brl: 0, hz: 0, requeue: false, agg_lat: 0 };
    let plan = Plan::with_window(window_for(n, &p), SCALAR_BITS);
    let top = spread_bits(&plan, SCALAR_BITS);
    (plan, top)
}

/// Window-major digits of `scalars` under `plan`.
pub fn stream_digits(scalars: &[ScalarLimbs], plan: &Plan) -> Vec<i32> {
    (0..plan.windows).flat_map(|w| window_digits(scalars, w, plan)).collect()
}

/// The cases file for a core of `cmax`.
pub fn write_cases(cases: &[Case], cmax: u32) -> String {
    let mut s = String::new();
    for c in cases {
        let (plan, top) = plan_for(c.points.len(), cmax);
        let _ = writeln!(s, "case {} {} {} {}", c.points.len(), plan.c, plan.windows, top.unwrap_or(31));
        let pre = precompute_points(&c.points).expect("subgroup points have a twisted Edwards image");
        for p in &pre {
            let w = point_words(p);
            let line: Vec<String> = w.iter().map(|v| format!("{v:x}")).collect();
            let _ = writeln!(s, "{}", line.join(" "));
        }
        let digits = stream_digits(&c.scalars, &plan);
        for win in digits.chunks(c.points.len().max(1)) {
            let line: Vec<String> = win.iter().map(|d| d.to_string()).collect();
            let _ = writeln!(s, "{}", line.join(" "));
        }
    }
    s
}

/// What one case measured (for the report).
#[derive(Clone, Debug)]
pub struct Checked {
    /// The case's name.
    pub name: &'static str,
    /// Points.
    pub n: usize,
    /// Window size.
    pub c: u32,
    /// Windows.
    pub windows: u32,
    /// Cores the windows ran on (window w on core w mod cores).
    pub cores: u32,
    /// Issued additions (= non-zero digits).
    pub additions: u64,
    /// The core's accumulation cycles (= the model's).
    pub acc_cycles: u64,
}

struct Tokens<'a> {
    it: std::str::SplitAsciiWhitespace<'a>,
}

impl Tokens<'_> {
    fn word(&mut self, what: &str) -> Result<&str, String> {
        self.it.next().ok_or_else(|| format!("buckets file ends early (expected {what})"))
    }
    fn dec(&mut self, what: &str) -> Result<u64, String> {
        let t = self.word(what)?;
        t.parse().map_err(|_| format!("buckets file: {what} is not a decimal number: {t:?}"))
    }
    fn hex(&mut self, what: &str) -> Result<u64, String> {
        let t = self.word(what)?;
        u64::from_str_radix(t, 16).map_err(|_| format!("buckets file: {what} is not a hex word: {t:?}"))
    }
    fn expect(&mut self, tag: &str) -> Result<(), String> {
        match self.word(tag)? {
            t if t == tag => Ok(()),
            t => Err(format!("buckets file: expected `{tag}`, found {t:?}")),
        }
    }
}

/// Check the test bench's `buckets` file against `cases` run on a core
/// of `cmax`: see the module docs. Returns each case's figures, or the
/// first mismatch in one line.
pub fn check(cases: &[Case], cmax: u32, buckets: &str) -> Result<Vec<Checked>, String> {
    let mut tk = Tokens { it: buckets.split_ascii_whitespace() };
    tk.expect("info")?;
    let core_cmax = tk.dec("CMAX")? as u32;
    let pd = tk.dec("PD")? as u32;
    let brl = tk.dec("BRL")? as u32;
    let hz = tk.dec("LAT_HZ")? as u32;
    let mem_latency = tk.dec("MEM_LATENCY")? as u32;
    let cores = tk.dec("CORES")? as u32;
    let fanout_depth = tk.dec("FANOUT_DEPTH")? as u32;
    if cores == 0 || (cores > 1 && fanout_depth == 0) {
        return Err(format!("buckets file: {cores} cores with fan-out FIFOs of {fanout_depth}"));
    }
    if core_cmax != cmax {
        return Err(format!("the simulated core has CMAX {core_cmax}, the cases were made for {cmax}"));
    }
    let params = CoreParams { cmax, pd, brl, hz, requeue: false, agg_lat: 0 };
    let mut out = Vec::new();
    for case in cases {
        let name = case.name;
        let n = case.points.len();
        let (plan, top) = plan_for(n, cmax);
        tk.expect("case")?;
        let rc = tk.dec("RC")?;
        let issued = tk.dec("ISSUED")?;
        let acc_cycles = tk.dec("ACC_CYCLES")?;
        let status = tk.dec("STATUS")?;
        if rc != 0 {
            return Err(format!("{name}: the simulated run failed (rc {rc}, STATUS {status:#x})"));
        }
        let nb = plan.buckets;
        let mut windows: Vec<Vec<TeExtended>> = Vec::with_capacity(plan.windows as usize);
        let mut w = [0u64; BUCKET_WORDS];
        for _ in 0..plan.windows {
            let mut win = Vec::with_capacity(nb);
            for _ in 0..nb {
                for x in w.iter_mut() {
                    *x = tk.hex("a bucket word")?;
                }
                win.push(bucket_from_words(&w));
            }
            windows.push(win);
        }
        if let (Some(tb), Some(last)) = (top, windows.last_mut()) {
            // bucket k of the spread window is the sum of its copies k + j 2^tb
            let k = 1usize << tb;
            for i in k..nb {
                let v = last[i];
                last[i % k] = Bucket::<C>::add(&last[i % k], &v);
                last[i] = TeExtended::identity();
            }
        }
        let sums: Vec<_> = windows.iter().map(|b| partitioned_sum::<C, _>(b, 1).to_xyzz()).collect();
        let got = combine_windows(&sums, plan.c).to_affine();
        let engine = MsmBuilder::new().backend(BackendChoice::Xyzz).build(&case.points).map_err(|e| e.to_string())?;
        let want = engine.msm_report(&case.scalars).map_err(|e| e.to_string())?.result.to_affine();
        if naive_msm(&case.points, &case.scalars) != want {
            return Err(format!("{name}: the CPU engine and the reference differ"));
        }
        if got != want {
            return Err(format!("{name}: the simulated core's result differs from the CPU engine's"));
        }
        let digits = stream_digits(&case.scalars, &plan);
        let additions = digits.iter().filter(|&&d| d != 0).count() as u64;
        if issued != additions {
            return Err(format!("{name}: {issued} additions issued for {additions} non-zero digits"));
        }
        if status & 0xf0 != 0 {
            return Err(format!("{name}: the core flagged an input error (STATUS {status:#x})"));
        }
        let mut cfg = model_config(&params, &plan, SCALAR_BITS, n, mem_latency);
        cfg.core.top_bits = Some(top.unwrap_or(31));
        cfg.core.cores = cores;
        cfg.core.fanout_depth = fanout_depth;
        let src = StreamDigits { digits: &digits, n, windows: plan.windows as usize, c: plan.c };
        let model = cfg.run_stats_digits(&src).acc.cycles;
        if model != acc_cycles {
            return Err(format!("{name}: {acc_cycles} accumulation cycles simulated, the model says {model}"));
        }
        out.push(Checked { name, n, c: plan.c, windows: plan.windows, cores, additions, acc_cycles });
    }
    if let Ok(t) = tk.word("nothing") {
        return Err(format!("buckets file: more than the cases' buckets (next token {t:?})"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{bucket_words, POINT_WORDS};

    /// The check accepts the buckets an exact accumulation gives (computed
    /// here on the host) and refuses a wrong bucket, a wrong count and a
    /// short file: the check can fail.
    #[test]
    fn check_accepts_exact_buckets_and_refuses_wrong_ones() {
        let cmax = 4;
        let cases: Vec<Case> = cases(7).into_iter().filter(|c| c.points.len() <= 8).collect();
        let pts_te = |c: &Case| precompute_points(&c.points).unwrap();
        let mut model_cycles = Vec::new();
        let mut text = format!("info {cmax} 16 2 76 40 1 0\n");
        for c in &cases {
            let (plan, top) = plan_for(c.points.len(), cmax);
            let digits = stream_digits(&c.scalars, &plan);
            let pre = pts_te(c);
            let n = c.points.len();
            let mut b = vec![vec![TeExtended::identity(); plan.buckets]; plan.windows as usize];
            for (j, win) in digits.chunks(n).enumerate() {
                for (i, &d) in win.iter().enumerate() {
                    if d == 0 {
                        continue;
                    }
                    // spread: the last window's bucket k of point i goes to
                    // (i mod 2^(c-1-tb)) 2^tb + k (zk_msm_core)
                    let mut k = d.unsigned_abs() as usize - 1;
                    if let (Some(tb), true) = (top, j + 1 == plan.windows as usize) {
                        k += (i % (1 << (plan.c - 1 - tb))) << tb;
                    }
                    let s = &mut b[j][k];
                    *s = if d > 0 { s.add_precomputed(&pre[i]) } else { s.sub_precomputed(&pre[i]) };
                }
            }
            let params = CoreParams { cmax, pd: 16, brl: 2, hz: 76, requeue: false, agg_lat: 0 };
            let mut cfg = model_config(&params, &plan, SCALAR_BITS, n, 40);
            cfg.core.top_bits = Some(top.unwrap_or(31));
            let src = StreamDigits { digits: &digits, n, windows: plan.windows as usize, c: plan.c };
            let cycles = cfg.run_stats_digits(&src).acc.cycles;
            model_cycles.push(cycles);
            let adds = digits.iter().filter(|&&d| d != 0).count();
            let _ = writeln!(text, "case 0 {adds} {cycles} 1");
            for v in b.iter().flatten() {
                let w: Vec<String> = bucket_words(v).iter().map(|x| format!("{x:x}")).collect();
                let _ = writeln!(text, "{}", w.join(" "));
            }
        }
        let got = check(&cases, cmax, &text).unwrap();
        assert_eq!(got.len(), cases.len());
        assert!(got.iter().any(|c| c.additions > 0));
        // a wrong bucket word, a wrong count, a short file, a wrong CMAX
        let first_bucket = text.lines().nth(2).unwrap().to_string();
        let bad = text.replacen(&first_bucket, &first_bucket.replacen(' ', "1 ", 1), 1);
        assert!(check(&cases, cmax, &bad).is_err());
        let bad = text.replacen(&format!(" {} ", model_cycles[0]), &format!(" {} ", model_cycles[0] + 1), 1);
        assert!(check(&cases, cmax, &bad).unwrap_err().contains("model"));
        assert!(check(&cases, cmax, &text[..text.len() / 2]).is_err());
        assert!(check(&cases, 5, &text).is_err());
    }

    #[test]
    fn cases_file_has_the_declared_shape() {
        let cs = cases(1);
        let text = write_cases(&cs, 5);
        let mut lines = text.lines();
        for c in &cs {
            let head: Vec<u64> = lines.next().unwrap().split(' ').skip(1).map(|t| t.parse().unwrap()).collect();
            let (plan, top) = plan_for(c.points.len(), 5);
            assert_eq!(head, [c.points.len() as u64, plan.c as u64, plan.windows as u64, top.unwrap_or(31) as u64]);
            for _ in 0..c.points.len() {
                assert_eq!(lines.next().unwrap().split(' ').count(), POINT_WORDS);
            }
            for _ in 0..plan.windows {
                assert_eq!(lines.next().unwrap().split(' ').count(), c.points.len());
            }
        }
        assert!(lines.next().is_none());
    }
}
