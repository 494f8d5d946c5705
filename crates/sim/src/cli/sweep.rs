//! `sim sweep`: window-size and depth sweeps for every scheduler, as CSV and
//! SVG plots.

use super::args::SweepArgs;
use super::error::SimError;
use super::{say, write_file};
use crate::model::{Report, SchedKind};
use crate::svg::{line_chart, Series};
use std::fmt::Write as _;

/// `zkmsm sim sweep`: every scheduler over window sizes and pipeline depths, written as CSV and SVG
/// charts to `a.out`.
pub fn sweep(a: &SweepArgs) -> Result<(), SimError> {
    let scheds: Vec<SchedKind> = if a.schedulers.is_empty() { SchedKind::ALL.to_vec() } else { a.schedulers.clone() };
    if a.c_min < 2 || a.c_max > zkmsm::plan::MAX_C || a.c_min > a.c_max {
        return Err(SimError::SweepWindows { c_min: a.c_min, c_max: a.c_max });
    }
    if a.log_n > super::config::MAX_LOG_N {
        return Err(SimError::LogN(a.log_n, super::config::MAX_LOG_N));
    }
    if let Some(&d) = a.depths.iter().find(|&&d| d == 0) {
        return Err(SimError::arg("--depths", d, "each depth must be at least 1"));
    }
    let most = super::config::MAX_DEPTH;
    if let Some(&d) = a.depths.iter().find(|&&d| d > most) {
        return Err(SimError::arg("--depths", d, format!("each depth must be in 1..={most}")));
    }
    std::fs::create_dir_all(&a.out).map_err(|e| SimError::io(&a.out, e))?;
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
    let files = [
        ("sweep.csv", csv),
        (
            "window_sweep.svg",
            line_chart(
                &format!("Projected device latency vs window size, N = 2^{}", a.log_n),
                "window size c",
                "latency (ms, each design's clock)",
                &win_series,
                true,
            ),
        ),
        (
            "window_sweep_full.svg",
            line_chart(
                &format!("Projected device latency vs window size, full-width windows, N = 2^{}", a.log_n),
                "window size c",
                "latency (ms, each design's clock)",
                &full_series,
                true,
            ),
        ),
        (
            "depth_sweep.svg",
            line_chart(
                &format!("Accumulation cycles per bucket addition vs depth, N = 2^{}", a.log_n),
                "pipeline depth T",
                "cycles per addition",
                &dep_series,
                false,
            ),
        ),
    ];
    let mut wrote = Vec::new();
    for (name, text) in files {
        let path = a.out.join(name);
        write_file(&path, &text)?;
        wrote.push(path.display().to_string());
    }
    say(&format!("wrote {}\n", wrote.join(", ")))?;
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
