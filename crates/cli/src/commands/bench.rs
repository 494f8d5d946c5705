//! `zkmsm bench`: the MSM phases of every backend at several sizes, as a
//! markdown table on standard output (and a plot with `--plot`).

use super::memory::{self, EngineShape};
use super::plot;
use super::report::timed_runs;
use crate::args::BenchArgs;
use crate::console::outln;
use crate::contract;
use crate::error::CliError;
use crate::progress;
use zkmsm::io::result_hex;
use zkmsm::{BackendChoice, EngineCurve, MsmBuilder, MsmError, Validation};

pub fn bench<C: EngineCurve>(a: &BenchArgs) -> Result<(), CliError> {
    let backends = refuse::<C>(a)?;
    // the plot's path is checked (its temporary file made) before the benchmark
    let plot_out = a.plot.as_deref().map(crate::output::Output::open).transpose()?;
    let mut sched_rows: Vec<String> = Vec::new();
    let mut series = plot::Series::default();
    outln!(
        "| curve | n | backend | c | msm ms (median of {}) | digits | accumulation | bucket agg. | result agg. |",
        a.repeat
    )?;
    outln!("|---|---|---|---|---|---|---|---|---|")?;
    for &k in &a.log_n {
        let n = 1usize << k;
        let pb = progress::spinner(format!("generating 2^{k} points"));
        let points = zkmsm::gen::random_points::<C>(n, a.seed).points;
        let scalars = zkmsm::gen::random_scalars::<C>(n, a.seed.wrapping_add(1));
        pb.finish_and_clear();
        let mut first: Option<(String, &'static str)> = None;
        // --precompute 1 is plain mode, the first row already
        let mut modes: Vec<Option<u32>> = vec![None];
        for m in a.precompute.iter().filter_map(|&m| contract::fixed_base(Some(m))) {
            if !modes.contains(&Some(m)) {
                modes.push(Some(m));
            }
        }
        for (&b, &mode) in backends.iter().flat_map(|b| modes.iter().map(move |m| (b, m))) {
            let label = format!("{}{}", b.name(), mode.map(|m| format!(", fixed-base x{m}")).unwrap_or_default());
            let pb = progress::spinner(format!("2^{k}: {label}"));
            let builder = MsmBuilder::new().validation(Validation::AlreadyValidated).backend(b).precompute(mode);
            let ctx = match builder.build(&points) {
                Ok(ctx) => ctx,
                Err(MsmError::Unsupported(_)) if a.backend.is_empty() => continue,
                Err(e) => return Err(e.into()),
            };
            let (out, all) = timed_runs(ctx.as_ref(), &scalars, a.repeat)?;
            pb.finish_and_clear();
            let hex = result_hex(&out.result.to_affine());
            let (first_hex, first_name) = first.get_or_insert_with(|| (hex.clone(), ctx.backend_name()));
            if *first_hex != hex {
                return Err(CliError::BackendsDisagree { backend: ctx.backend_name(), first: first_name, log_n: k });
            }
            if let Some(st) = out.schedule {
                sched_rows.push(format!(
                    "| {} | 2^{k} | {}{} | {} | {} | {:.3}% | {} | {} | {} | {} |",
                    C::NAME,
                    ctx.backend_name(),
                    mode.map(|m| format!(", fixed-base x{m}")).unwrap_or_default(),
                    st.ops,
                    st.conflicts,
                    100.0 * st.conflicts as f64 / st.ops.max(1) as f64,
                    st.batches,
                    st.passes,
                    st.max_queue,
                    st.overflowed
                ));
            }
            let p = out.timings.as_ms();
            let median = all[all.len() / 2];
            series.add(
                format!("{}{}", ctx.backend_name(), mode.map(|m| format!(" x{m}")).unwrap_or_default()),
                k,
                median,
            );
            outln!(
                "| {} | 2^{k} | {}{} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
                C::NAME,
                ctx.backend_name(),
                mode.map(|m| format!(", fixed-base x{m}")).unwrap_or_default(),
                out.plan.c,
                median,
                p[0].1,
                p[1].1,
                p[2].1,
                p[3].1
            )?;
        }
    }
    if !sched_rows.is_empty() {
        outln!()?;
        outln!("Scheduler statistics (one MSM, all windows):")?;
        outln!()?;
        outln!("| curve | n | backend | ops | conflicts | conflict rate | batches | passes (max) | max queue | overflowed |")?;
        outln!("|---|---|---|---|---|---|---|---|---|---|")?;
        for r in sched_rows {
            outln!("{r}")?;
        }
    }
    if let Some(out) = plot_out {
        plot::draw(
            out,
            &format!("zkmsm bench, {} {}, median of {}", C::NAME, C::GROUP.to_uppercase(), a.repeat),
            &series,
        )?;
    }
    Ok(())
}

/// Every refusal of `zkmsm bench`'s options, before any input is generated:
/// the backends it times, then the memory of its largest size.
fn refuse<C: EngineCurve>(a: &BenchArgs) -> Result<Vec<BackendChoice>, CliError> {
    let backends = backends::<C>(a)?;
    refuse_memory::<C>(a)?;
    Ok(backends)
}

/// The backends `bench` times (by default every one the library has).
fn backends<C: EngineCurve>(a: &BenchArgs) -> Result<Vec<BackendChoice>, CliError> {
    if a.backend.is_empty() {
        return Ok(BackendChoice::ALL.into_iter().filter(|b| *b != BackendChoice::Auto).collect());
    }
    let why = "bench runs the library's backends; run --backend rtl with msm or demo";
    let backends = a.backend.iter().map(|b| b.choice().library(why)).collect::<Result<_, _>>()?;
    for b in &a.backend {
        contract::backend_for_curve::<C>(b.choice())?;
    }
    Ok(backends)
}

/// A size whose memory cannot be had, refused before the first is
/// generated: at the largest size, the points, their discrete logs, the
/// scalars, and the largest engine (one at a time).
fn refuse_memory<C: EngineCurve>(a: &BenchArgs) -> Result<(), CliError> {
    let Some(&k) = a.log_n.iter().max() else { return Ok(()) };
    let n = 1usize << k;
    let shapes = std::iter::once(EngineShape { fixed_base: None, glv: C::glv().is_some() })
        .chain(a.precompute.iter().map(|&m| EngineShape { fixed_base: contract::fixed_base(Some(m)), glv: false }));
    let engine = shapes.map(|shape| memory::engine::<C>(n, shape)).max().unwrap_or(0);
    memory::reserve(memory::inputs::<C>(n, 2).saturating_add(engine), &format!("a bench at 2^{k} {} points", C::LABEL))
}
