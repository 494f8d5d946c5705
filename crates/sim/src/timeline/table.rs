//! The anchor table (published against reproduced) and the projection
//! table, as markdown: what `zkmsm-sim timeline` prints and docs/MODEL.md
//! quotes.

use super::anchors::{self, Anchor};
use super::project::{configs, project_all};
use super::{simulate, System};
use std::fmt::Write as _;

/// One anchor reproduced: (timeline ms, relative error).
pub fn reproduce(a: &Anchor) -> (f64, f64) {
    let t = simulate(&a.system, &a.system.profile());
    let ms = 1e3 * if a.per_msm { t.per_msm_s } else { t.total_s };
    (ms, ms / a.published_ms - 1.0)
}

fn assumed(sys: &System) -> String {
    let a = sys.assumed();
    if a.is_empty() {
        "none".into()
    } else {
        a.join(", ")
    }
}

/// Markdown table of every anchor.
pub fn anchor_table() -> String {
    let mut s =
        String::from("| anchor | published | timeline | error | assumed parameters |\n|---|---:|---:|---:|---|\n");
    for a in anchors::all() {
        let (ms, err) = reproduce(&a);
        let what = if a.per_msm { " per MSM" } else { "" };
        let _ = writeln!(
            s,
            "| {} | {} ms{what} ({}) | {ms:.1} ms | {:+.1}% | {} |",
            a.system.name,
            a.published_ms,
            a.published_at,
            100.0 * err,
            assumed(&a.system)
        );
    }
    s
}

/// Markdown table of zkmsm's projected configurations.
pub fn projection_table() -> String {
    let mut s = String::from(
        "| MSMs | core | cores K | c | clock | digit threads | aggregation | device busy | host agg. busy | whole system |\n\
         |---|---|---:|---:|---:|---:|---|---:|---:|---:|\n",
    );
    let cfgs = configs();
    for (z, t) in cfgs.iter().zip(project_all(&cfgs)) {
        let agg = if z.device_agg { "device".to_string() } else { format!("host, {} thread(s)", z.agg_threads) };
        let dev = t.busy("device accumulation") + t.busy("device aggregation");
        let _ = writeln!(
            s,
            "| {} x 2^{} | {} | {} | {} | {} MHz | {} | {agg} | {:.1} ms | {:.1} ms | **{:.1} ms** |",
            z.msms,
            z.log_n,
            super::project::core_name(z),
            z.cores,
            z.c,
            z.clock_mhz,
            z.digit_threads,
            1e3 * dev,
            1e3 * t.busy("host aggregation"),
            1e3 * t.total_s
        );
    }
    s
}

/// Both tables with their headings: the output of `zkmsm-sim timeline`.
pub fn report() -> String {
    format!(
        "Anchors: each design's published parameters through the timeline\n\n{}\n\
         zkmsm projections (250 MHz: the anchors' clock; 217 (+13%: 245) MHz twisted Edwards, 193 (+13%: 217) MHz batched affine: the calibrated clocks, rtl/synth/CALIBRATION.md; host rates measured on EPYC Zen 3)\n\n{}",
        anchor_table(),
        projection_table()
    )
}
