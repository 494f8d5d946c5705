//! The report of one run: the human-readable table and, with `--json`, the
//! key figures as one JSON object.

use crate::model::{Report, SchedKind};
use serde::Serialize;
use std::fmt::Write as _;

/// The key figures of one run (`--json`); a figure that is not finite (a
/// ratio over zero operations) is `null`.
#[derive(Serialize)]
pub struct KeyFigures {
    /// The scheduler's name.
    pub scheduler: &'static str,
    /// Number of points N.
    pub n: usize,
    /// Window size.
    pub c: u32,
    /// Pipeline depth T.
    pub depth: u32,
    /// Number of windows.
    pub windows: usize,
    /// Buckets per window.
    pub buckets: usize,
    /// Bucket accumulation cycles.
    pub acc_cycles: u64,
    /// Bucket aggregation cycles, all windows.
    pub agg_cycles: u64,
    /// Device cycles: accumulation plus on-device aggregation.
    pub device_cycles: u64,
    /// Accumulation cycles per non-zero digit and adder (1.0: a perfectly fed adder).
    pub cycles_per_op: Option<f64>,
    /// Operations per issue slot while input was pending.
    pub utilization: Option<f64>,
    /// Operations issued.
    pub ops: u64,
    /// Operations that found their bucket busy.
    pub conflicts: u64,
    /// Issue slots left empty while work was pending.
    pub bubbles: u64,
    /// Cycles the input stream was held back.
    pub input_stalls: u64,
    /// High-water mark of the scheduler's queue(s).
    pub queue_hwm: u64,
    /// Bucket aggregation runs on the device.
    pub agg_on_device: bool,
    /// Share of the device cycles spent in bucket aggregation.
    pub agg_share: Option<f64>,
    /// Clock frequency of the projection, MHz.
    pub freq_mhz: Option<f64>,
    /// Projected latency at that clock, ms.
    pub latency_ms: Option<f64>,
}

impl KeyFigures {
    /// The key figures of a report.
    pub fn of(r: &Report) -> Self {
        let finite = |v: f64| v.is_finite().then_some(v);
        KeyFigures {
            scheduler: r.cfg.sched.name(),
            n: r.cfg.n,
            c: r.cfg.c,
            depth: r.cfg.machine.depth,
            windows: r.windows,
            buckets: r.buckets,
            acc_cycles: r.acc.cycles,
            agg_cycles: r.agg_cycles_total(),
            device_cycles: r.device_cycles,
            cycles_per_op: finite(r.cycles_per_op()),
            utilization: finite(r.acc.utilization()),
            ops: r.acc.ops,
            conflicts: r.acc.conflicts,
            bubbles: r.acc.bubbles,
            input_stalls: r.acc.input_stalls,
            queue_hwm: r.acc.queue_hwm,
            agg_on_device: r.agg_on_device(),
            agg_share: finite(r.agg_share()),
            freq_mhz: finite(r.cfg.freq_mhz),
            latency_ms: finite(r.latency_ms()),
        }
    }
}

/// The key figures of one run as a one-line JSON object.
pub fn report_json(r: &Report) -> String {
    serde_json::to_string(&KeyFigures::of(r)).expect("plain numbers and strings serialize")
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
