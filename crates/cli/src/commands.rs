//! What each subcommand does, generic over the curve.

use crate::args::*;
use serde_json::json;
use std::time::{Duration, Instant};
use zkmsm::gen::{expected_msm, random_field_elements, random_points};
use zkmsm::io::{read_points, read_scalars, result_hex, write_points, write_scalars};
use zkmsm::{
    build_owned, build_with, BackendChoice, Bls12_377, Bls12_381, EngineCurve, MsmCurve, MsmEngine, MsmOutput,
    ScalarLimbs, Validation,
};

pub fn run(cli: Cli) -> Result<(), String> {
    if matches!(cli.command, Command::Demo(_) | Command::Msm(_)) {
        return_large_buffers_to_the_os();
    }
    match cli.command {
        Command::Demo(a) => match a.curve {
            CurveName::Bls12_377 => demo::<Bls12_377>(&a),
            CurveName::Bls12_381 => demo::<Bls12_381>(&a),
        },
        Command::Gen(a) => match a.curve {
            CurveName::Bls12_377 => gen::<Bls12_377>(&a),
            CurveName::Bls12_381 => gen::<Bls12_381>(&a),
        },
        Command::Msm(a) => match a.curve {
            CurveName::Bls12_377 => msm::<Bls12_377>(&a),
            CurveName::Bls12_381 => msm::<Bls12_381>(&a),
        },
        Command::Bench(a) => match a.curve {
            CurveName::Bls12_377 => bench::<Bls12_377>(&a),
            CurveName::Bls12_381 => bench::<Bls12_381>(&a),
        },
        Command::Sim(a) => zkmsm_sim::cli::run(*a).map_err(|e| e.to_string()),
    }
}

/// Peak memory (issue #3): have glibc serve every allocation of 1 MiB or more
/// (a window's digits, bucket arrays) from its own mapping, returned to the OS
/// when freed. By default glibc raises that threshold after the first such
/// free, and the per-window buffers then cycle through its per-thread arenas,
/// which kept ~14 MiB more resident at 2^20 points (batch-affine, 2 threads;
/// docs/BENCHMARKS.md). Other allocators and platforms: nothing to do.
fn return_large_buffers_to_the_os() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn mallopt(param: i32, value: i32) -> i32;
        }
        const M_MMAP_THRESHOLD: i32 = -3;
        // SAFETY: mallopt only changes glibc malloc's tuning parameters; it
        // is called before this command allocates its buffers.
        unsafe {
            mallopt(M_MMAP_THRESHOLD, 1 << 20);
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn phases_json<C: MsmCurve>(out: &MsmOutput<C>) -> serde_json::Value {
    out.timings.as_ms().iter().map(|(k, v)| (k.to_string(), json!(v))).collect::<serde_json::Map<_, _>>().into()
}

fn print_phases<C: MsmCurve>(out: &MsmOutput<C>) {
    for (name, v) in out.timings.as_ms() {
        eprintln!("  {name:<20} {v:10.2} ms");
    }
}

/// Warm-up plus `repeat` timed runs; the run with the median time.
fn timed_runs<C: MsmCurve>(
    ctx: &dyn MsmEngine<C>,
    scalars: &[ScalarLimbs],
    repeat: u32,
) -> Result<(MsmOutput<C>, Vec<f64>), String> {
    ctx.msm_report(scalars).map_err(|e| e.to_string())?;
    let mut runs = Vec::new();
    for _ in 0..repeat {
        let t = Instant::now();
        let out = ctx.msm_report(scalars).map_err(|e| e.to_string())?;
        runs.push((ms(t.elapsed()), out));
    }
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let all: Vec<f64> = runs.iter().map(|r| r.0).collect();
    let median = runs.swap_remove(runs.len() / 2);
    Ok((median.1, all))
}

fn demo<C: EngineCurve>(a: &DemoArgs) -> Result<(), String> {
    let n = 1usize << a.log_n;
    eprintln!("zkmsm demo: {} G1, n = 2^{} = {n}, seed {}", C::NAME, a.log_n, a.seed);
    let t = Instant::now();
    let known = random_points::<C>(n, a.seed);
    let scalars_f = random_field_elements::<C>(n, a.seed.wrapping_add(1));
    let scalars: Vec<ScalarLimbs> = scalars_f.iter().map(C::scalar_to_limbs).collect();
    eprintln!("  inputs generated      {:10.2} ms", ms(t.elapsed()));
    let t = Instant::now();
    let mut ctx =
        build_with(&known.points, a.backend.into(), Validation::Full, a.precompute).map_err(|e| e.to_string())?;
    ctx.set_window(a.window);
    let init = t.elapsed();
    eprintln!("  init (validate, convert) {:7.2} ms", ms(init));
    let t = Instant::now();
    let out = ctx.msm_report(&scalars).map_err(|e| e.to_string())?;
    let msm_time = t.elapsed();
    let result = out.result.to_affine();
    eprintln!(
        "  msm                   {:10.2} ms  (window c = {}, {} windows, backend {})",
        ms(msm_time),
        out.plan.c,
        out.plan.windows,
        ctx.backend_name()
    );
    print_phases(&out);
    // Independent check: the points are g_i * G with known g_i, so the MSM
    // equals (sum s_i g_i mod r) * G, computed in the scalar field.
    let t = Instant::now();
    let expected = expected_msm::<C>(&known.dlogs, &scalars_f);
    let ok = expected == result;
    eprintln!("  reference (sum s_i g_i) G {:6.2} ms: {}", ms(t.elapsed()), if ok { "MATCH" } else { "MISMATCH" });
    let hex = result_hex(&result);
    if a.json {
        println!(
            "{}",
            json!({"curve": C::NAME, "n": n, "result": hex, "check": ok, "msm_ms": ms(msm_time), "init_ms": ms(init),
                   "window": out.plan.c, "windows": out.plan.windows, "backend": ctx.backend_name(), "phases_ms": phases_json(&out)})
        );
    } else {
        println!("{hex}");
    }
    if ok {
        Ok(())
    } else {
        Err(format!("result {} differs from the reference {}", hex, result_hex(&expected)))
    }
}

fn gen<C: MsmCurve>(a: &GenArgs) -> Result<(), String> {
    let n = 1usize << a.log_n;
    let t = Instant::now();
    let points = random_points::<C>(n, a.seed).points;
    let scalars = zkmsm::gen::random_scalars::<C>(n, a.seed.wrapping_add(1));
    write_points(&a.points, &points, a.point_format.into()).map_err(|e| e.to_string())?;
    write_scalars(&a.scalars, &scalars).map_err(|e| e.to_string())?;
    eprintln!(
        "wrote {n} {} points ({:?}) to {} and {n} scalars to {} in {:.0} ms",
        C::NAME,
        a.point_format,
        a.points.display(),
        a.scalars.display(),
        ms(t.elapsed())
    );
    Ok(())
}

fn msm<C: EngineCurve>(a: &MsmArgs) -> Result<(), String> {
    let t = Instant::now();
    let scalars = read_scalars::<C>(&a.scalars).map_err(|e| e.to_string())?;
    let (points, layout) = read_points::<C>(&a.points, scalars.len(), a.point_format.map(Into::into), Validation::Full)
        .map_err(|e| e.to_string())?;
    let load = t.elapsed();
    eprintln!(
        "loaded {} points ({:?}{}) and scalars in {:.1} ms (decoded, validated)",
        points.len(),
        layout.format,
        if layout.prefixed { ", length-prefixed" } else { "" },
        ms(load)
    );
    let t = Instant::now();
    let n = points.len();
    // Without --check the context takes the points (no second copy: peak memory).
    let (ctx, points) = if a.check {
        (build_with(&points, a.backend.into(), Validation::AlreadyValidated, a.precompute), points)
    } else {
        (build_owned(points, a.backend.into(), Validation::AlreadyValidated, a.precompute), Vec::new())
    };
    let mut ctx = ctx.map_err(|e| e.to_string())?;
    ctx.set_window(a.window);
    let init = t.elapsed();
    let (out, all) = timed_runs(ctx.as_ref(), &scalars, a.repeat)?;
    let msm_ms = all[all.len() / 2];
    let result = out.result.to_affine();
    eprintln!(
        "msm: {msm_ms:.2} ms (median of {}), window c = {}, {} windows, backend {}",
        a.repeat,
        out.plan.c,
        out.plan.windows,
        ctx.backend_name()
    );
    print_phases(&out);
    if a.check {
        let t = Instant::now();
        let reference = zkmsm::reference::naive_msm(&points, &scalars);
        if reference != result {
            return Err(format!("MSM {} differs from the reference {}", result_hex(&result), result_hex(&reference)));
        }
        eprintln!("check: matches the bucket-free reference ({:.0} ms)", ms(t.elapsed()));
    }
    let hex = result_hex(&result);
    if a.json {
        println!(
            "{}",
            json!({"curve": C::NAME, "n": n, "result": hex, "msm_ms": msm_ms, "msm_ms_all": all, "repeat": a.repeat,
                   "load_ms": ms(load), "init_ms": ms(init), "window": out.plan.c, "windows": out.plan.windows,
                   "backend": ctx.backend_name(), "phases_ms": phases_json(&out)})
        );
    } else {
        println!("{hex}");
    }
    Ok(())
}

fn bench<C: EngineCurve>(a: &BenchArgs) -> Result<(), String> {
    let backends: Vec<BackendChoice> = if a.backend.is_empty() {
        BackendChoice::ALL.into_iter().filter(|b| *b != BackendChoice::Auto).collect()
    } else {
        a.backend.iter().map(|&b| b.into()).collect()
    };
    let mut sched_rows: Vec<String> = Vec::new();
    println!(
        "| curve | n | backend | c | msm ms (median of {}) | digits | accumulation | bucket agg. | result agg. |",
        a.repeat
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for &k in &a.log_n {
        let n = 1usize << k;
        let points = random_points::<C>(n, a.seed).points;
        let scalars = zkmsm::gen::random_scalars::<C>(n, a.seed.wrapping_add(1));
        let mut first: Option<String> = None;
        let modes: Vec<Option<u32>> = std::iter::once(None).chain(a.precompute.iter().map(|&m| Some(m))).collect();
        for (&b, &mode) in backends.iter().flat_map(|b| modes.iter().map(move |m| (b, m))) {
            let ctx = match build_with(&points, b, Validation::AlreadyValidated, mode) {
                Ok(ctx) => ctx,
                Err(zkmsm::MsmError::Unsupported(_)) if a.backend.is_empty() => continue,
                Err(e) => return Err(e.to_string()),
            };
            let (out, all) = timed_runs(ctx.as_ref(), &scalars, a.repeat)?;
            let hex = result_hex(&out.result.to_affine());
            if *first.get_or_insert_with(|| hex.clone()) != hex {
                return Err(format!("backend {} disagrees with the first backend at n = 2^{k}", ctx.backend_name()));
            }
            // one more MSM alone, for the scheduler's statistics
            ctx.take_schedule_stats();
            ctx.msm_report(&scalars).map_err(|e| e.to_string())?;
            if let Some(st) = ctx.take_schedule_stats() {
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
            println!(
                "| {} | 2^{k} | {}{} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
                C::NAME,
                ctx.backend_name(),
                mode.map(|m| format!(", fixed-base x{m}")).unwrap_or_default(),
                out.plan.c,
                all[all.len() / 2],
                p[0].1,
                p[1].1,
                p[2].1,
                p[3].1
            );
        }
    }
    if !sched_rows.is_empty() {
        println!();
        println!("Scheduler statistics (one MSM, all windows):");
        println!();
        println!("| curve | n | backend | ops | conflicts | conflict rate | batches | passes (max) | max queue | overflowed |");
        println!("|---|---|---|---|---|---|---|---|---|---|");
        for r in sched_rows {
            println!("{r}");
        }
    }
    Ok(())
}
