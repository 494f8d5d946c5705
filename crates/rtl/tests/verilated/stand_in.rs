//! The core's control logic on its integer stand-in datapath (as Hardcaml
//! tests its controller): many random MSMs, each checked exactly, and the
//! cycle model (crates/sim, scheduler `core`) against the simulated core's
//! accumulation cycles on the same digits. Needs the `verilated` feature.

use rand::{Rng, SeedableRng};
use zkmsm::{Plan, ScalarLimbs};
use zkmsm_rtl::machine::{model_config, produce_digits, CoreParams, StreamDigits};
use zkmsm_rtl::sim::{Kind, Opts, RunError, Sim};

struct Case {
    n: usize,
    c: u32,
    windows: u32,
    top: Option<u32>,
    digits: Vec<i32>,
}

/// Random digits in the patterns that stress the scheduler: uniform, all
/// in one bucket, a few buckets, mostly zero, the extreme digits; the last
/// window narrow and spread half the time (as the host's Booth digits are).
fn case<R: Rng>(rng: &mut R, cmax: u32, max_n: usize) -> Case {
    let n = if rng.gen_bool(0.1) { rng.gen_range(0..3) } else { rng.gen_range(0..=max_n) };
    let c = rng.gen_range(1..=cmax);
    let windows = rng.gen_range(0..6u32);
    let half = 1i32 << (c - 1);
    let top = (c >= 2 && windows > 0 && rng.gen_bool(0.5)).then(|| rng.gen_range(0..c - 1));
    let pattern = rng.gen_range(0..5);
    let fixed = rng.gen_range(-half..=half);
    let mut digits = Vec::with_capacity(n * windows as usize);
    for w in 0..windows {
        for _ in 0..n {
            let d = match (top, w + 1 == windows) {
                (Some(tb), true) => {
                    let lim = 1i32 << tb;
                    if pattern == 1 {
                        lim
                    } else {
                        rng.gen_range(-lim..=lim)
                    }
                }
                _ => match pattern {
                    0 => rng.gen_range(-half..=half),
                    1 => fixed,
                    2 => rng.gen_range(-1..=1),
                    3 if rng.gen_bool(0.75) => 0,
                    3 => rng.gen_range(-half..=half),
                    _ if rng.gen_bool(0.5) => half,
                    _ => -half,
                },
            };
            digits.push(d);
        }
    }
    Case { n, c, windows, top, digits }
}

/// The buckets the core must return: signed sums of the points mod 2^32,
/// the spread last window as copies the caller folds (folded here).
fn expected(case: &Case, points: &[u64]) -> Vec<u32> {
    let nb = 1usize << (case.c - 1);
    let mut b = vec![0u32; nb * case.windows as usize];
    for w in 0..case.windows as usize {
        for (i, &pt) in points.iter().enumerate().take(case.n) {
            let d = case.digits[w * case.n + i];
            if d != 0 {
                let k = &mut b[w * nb + d.unsigned_abs() as usize - 1];
                *k = if d > 0 { k.wrapping_add(pt as u32) } else { k.wrapping_sub(pt as u32) };
            }
        }
    }
    b
}

fn fold(case: &Case, got: &mut [u32]) {
    if let (Some(tb), true) = (case.top, case.windows > 0) {
        let nb = 1usize << (case.c - 1);
        let last = &mut got[(case.windows as usize - 1) * nb..];
        for i in (1usize << tb)..nb {
            let v = last[i];
            last[i % (1 << tb)] = last[i % (1 << tb)].wrapping_add(v);
            last[i] = 0;
        }
    }
}

fn params(sim: &Sim) -> CoreParams {
    let i = sim.info();
    CoreParams::from(&i)
}

fn setup(seed: u64) -> (Sim, Vec<u64>, rand_chacha::ChaCha8Rng) {
    setup_kind(seed, Kind::Int)
}

fn setup_kind(seed: u64, kind: Kind) -> (Sim, Vec<u64>, rand_chacha::ChaCha8Rng) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut sim = Sim::new(kind, &Opts::default()).expect("stand-in core");
    let points: Vec<u64> = (0..1000).map(|_| rng.gen::<u32>() as u64).collect();
    sim.load_points(&points);
    (sim, points, rng)
}

/// Exact buckets and exactly the model's accumulation cycles, with point
/// memory at full bandwidth (any latency) and the host always ready, on one
/// or both cores of the two-core top (the model runs the same fan-out).
#[test]
fn model_matches_the_stand_in_core() {
    let (mut sim, points, mut rng) = setup(1);
    let p = params(&sim);
    assert_eq!((p.cmax, p.pd, p.brl, p.hz), (10, 16, 2, 26));
    let info = sim.info();
    assert_eq!((info.ncores, info.fanout_depth), (2, 4));
    let (mut ops, mut cycles, mut stalls) = (0u64, 0u64, 0u64);
    for t in 0..200 {
        let mut cs = case(&mut rng, p.cmax, 1000);
        if t % 4 == 0 {
            // the pending queue fills: one core holds the stream for both
            cs.digits.iter_mut().for_each(|d| *d = d.signum());
        }
        let cores = rng.gen_range(1..=info.ncores);
        let opts = Opts { mem_latency: rng.gen_range(1..60), cores, ..Opts::default() };
        sim.set_opts(&opts);
        let (words, st) = sim.run(cs.n, cs.c, cs.windows, cs.top, &cs.digits).unwrap();
        let mut got: Vec<u32> = words.iter().map(|&w| w as u32).collect();
        fold(&cs, &mut got);
        assert_eq!(got, expected(&cs, &points), "case {t}: buckets");
        let nz = cs.digits.iter().filter(|&&d| d != 0).count() as u64;
        assert_eq!(st.issued, nz, "case {t}: one addition per non-zero digit");
        let plan = Plan { c: cs.c, windows: cs.windows, buckets: 1 << (cs.c - 1) };
        let mut cfg = model_config(&p, &plan, 253, cs.n, opts.mem_latency);
        cfg.core.top_bits = Some(cs.top.unwrap_or(31));
        cfg.core.cores = cores;
        cfg.core.fanout_depth = info.fanout_depth;
        let src = StreamDigits { digits: &cs.digits, n: cs.n, windows: cs.windows as usize, c: cs.c };
        let model = cfg.run_stats_digits(&src);
        assert_eq!(
            st.acc_cycles, model.acc.cycles,
            "case {t}: n {} c {} windows {} top {:?} cores {cores}: RTL vs model accumulation cycles",
            cs.n, cs.c, cs.windows, cs.top
        );
        assert_eq!(st.conflicts, model.acc.conflicts, "case {t}: conflicts");
        assert_eq!(st.bubbles, model.acc.bubbles, "case {t}: bubbles");
        let model_stalls = model.acc.extra.iter().find(|e| e.0 == "fanout_stalls").map_or(0.0, |e| e.1) as u64;
        assert_eq!(st.fanout_stalls, model_stalls, "case {t}: cycles the fan-out held the point stream");
        ops += nz;
        cycles += st.acc_cycles;
        stalls += st.fanout_stalls;
    }
    println!(
        "200 cases: {ops} additions in {cycles} accumulation cycles, fan-out stalls {stalls}, RTL = model in every case"
    );
}

/// The lock-table core (bucket lock bits, block-RAM pending queue, blocked
/// pending heads requeued) with 2,002 cycles between an operation's
/// decision and its bucket's next one: exact buckets and exactly the
/// model's accumulation cycles, on one or both cores; every fourth case has
/// all scalars equal (every addition of a window into one bucket: the queue
/// fills and the input waits).
#[test]
fn model_matches_the_lock_table_core_at_latency_2000() {
    let (mut sim, points, mut rng) = setup_kind(3, Kind::IntLock);
    let p = params(&sim);
    assert_eq!((p.cmax, p.pd, p.brl, p.hz, p.requeue), (8, 1024, 2, 2002, true));
    assert_eq!(sim.info().lock, 1);
    let info = sim.info();
    let (mut ops, mut cycles, mut hwm) = (0u64, 0u64, 0u64);
    for t in 0..40 {
        let mut cs = case(&mut rng, p.cmax, 300);
        if t % 4 == 0 {
            let d = rng.gen_range(1..=1i32 << (cs.c - 1)) * if rng.gen_bool(0.5) { 1 } else { -1 };
            cs.top = None;
            cs.digits.iter_mut().for_each(|x| *x = d);
        }
        let cores = rng.gen_range(1..=info.ncores);
        let opts = Opts { mem_latency: rng.gen_range(1..60), cores, ..Opts::default() };
        sim.set_opts(&opts);
        let (words, st) = sim.run(cs.n, cs.c, cs.windows, cs.top, &cs.digits).unwrap();
        let mut got: Vec<u32> = words.iter().map(|&w| w as u32).collect();
        fold(&cs, &mut got);
        assert_eq!(got, expected(&cs, &points), "case {t}: buckets");
        let nz = cs.digits.iter().filter(|&&d| d != 0).count() as u64;
        assert_eq!(st.issued, nz, "case {t}: one addition per non-zero digit");
        let plan = Plan { c: cs.c, windows: cs.windows, buckets: 1 << (cs.c - 1) };
        let mut cfg = model_config(&p, &plan, 253, cs.n, opts.mem_latency);
        cfg.core.top_bits = Some(cs.top.unwrap_or(31));
        cfg.core.cores = cores;
        cfg.core.fanout_depth = info.fanout_depth;
        let src = StreamDigits { digits: &cs.digits, n: cs.n, windows: cs.windows as usize, c: cs.c };
        let model = cfg.run_stats_digits(&src);
        assert_eq!(
            st.acc_cycles, model.acc.cycles,
            "case {t}: n {} c {} windows {} top {:?} cores {cores}: RTL vs model accumulation cycles",
            cs.n, cs.c, cs.windows, cs.top
        );
        assert_eq!(st.conflicts, model.acc.conflicts, "case {t}: conflicts");
        assert_eq!(st.bubbles, model.acc.bubbles, "case {t}: bubbles");
        ops += nz;
        cycles += st.acc_cycles;
        hwm = hwm.max(st.pending_hwm);
    }
    println!("40 cases: {ops} additions in {cycles} accumulation cycles, pending queue up to {hwm}, RTL = model in every case");
}

/// Slow, bursty point memory, gaps in the digit stream and a host that is
/// often not ready: the same buckets, every operation issued once.
#[test]
fn backpressure_everywhere_changes_timing_not_results() {
    let (mut sim, points, mut rng) = setup(2);
    let p = params(&sim);
    for t in 0..120 {
        let cs = case(&mut rng, p.cmax, 500);
        let opts = Opts {
            mem_latency: rng.gen_range(1..80),
            mem_rate_pct: rng.gen_range(20..=100),
            dg_rate_pct: rng.gen_range(30..=100),
            out_ready_pct: rng.gen_range(10..=100),
            seed: rng.gen(),
            cores: rng.gen_range(1..=2),
            ..Opts::default()
        };
        sim.set_opts(&opts);
        let (words, st) = sim.run(cs.n, cs.c, cs.windows, cs.top, &cs.digits).unwrap();
        let mut got: Vec<u32> = words.iter().map(|&w| w as u32).collect();
        fold(&cs, &mut got);
        assert_eq!(got, expected(&cs, &points), "case {t} ({opts:?})");
        assert_eq!(st.issued, cs.digits.iter().filter(|&&d| d != 0).count() as u64);
    }
}

/// Bad input is flagged, not obeyed: a digit beyond 2^(c-1), and a window
/// size the core does not have.
#[test]
fn out_of_range_digits_are_flagged_and_skipped() {
    let (mut sim, _, _) = setup(3);
    let err = sim.run(4, 3, 1, None, &[1, 5, -2, 0]).unwrap_err();
    assert_eq!(err, RunError::Flagged { status: 0x15 }, "{err}");
    // the core is usable afterwards
    let (_, st) = sim.run(4, 3, 1, None, &[1, 4, -2, 0]).unwrap();
    assert_eq!(st.issued, 3);
    assert!(matches!(sim.run(4, 11, 1, None, &[1, 1, 1, 1]), Err(RunError::Invalid(_))));
}

/// A run that stops moving fails with a message instead of hanging: with a
/// host that is never ready for buckets, the core holds its first bucket
/// forever; the driver gives up once nothing has gone in or out for longer
/// than any phase of an MSM takes (about 2^20 cycles here, against the
/// 2^34 of `max_cycles`), and the core is usable afterwards.
#[test]
fn a_stalled_run_fails_instead_of_hanging() {
    let (mut sim, _, _) = setup(4);
    sim.set_opts(&Opts { out_ready_pct: 0, ..Opts::default() });
    let err = sim.run(4, 3, 1, None, &[1, 4, -2, 0]).unwrap_err();
    match &err {
        RunError::Failed(msg) => assert!(msg.starts_with("stalled: nothing in or out for"), "{msg}"),
        other => panic!("expected a stall, got {other}"),
    }
    sim.set_opts(&Opts::default());
    let (_, st) = sim.run(4, 3, 1, None, &[1, 4, -2, 0]).unwrap();
    assert_eq!(st.issued, 3);
}

/// The digit stream from a producer (`Sim::run_stream`), cut into chunks of
/// random lengths that end inside windows, with empty chunks between: the
/// same buckets and the same cycles as the whole array; a stream that ends
/// early fails the run with a message, and the core is usable afterwards.
#[test]
fn streamed_digits_in_any_chunks_equal_the_whole_stream() {
    let (mut sim, points, mut rng) = setup(4);
    let p = params(&sim);
    for t in 0..40 {
        let cs = case(&mut rng, p.cmax, 600);
        let (whole, st_whole) = sim.run(cs.n, cs.c, cs.windows, cs.top, &cs.digits).unwrap();
        let mut chunks = Vec::new();
        let mut rest = &cs.digits[..];
        while !rest.is_empty() {
            let k = rng.gen_range(1..=rest.len().min(700));
            chunks.push(rest[..k].to_vec());
            if rng.gen_bool(0.2) {
                chunks.push(Vec::new());
            }
            rest = &rest[k..];
        }
        let (streamed, st) = sim.run_stream(cs.n, cs.c, cs.windows, cs.top, chunks.into_iter()).unwrap();
        assert_eq!(streamed, whole, "case {t}: buckets");
        assert_eq!(st.acc_cycles, st_whole.acc_cycles, "case {t}: accumulation cycles");
        let mut got: Vec<u32> = streamed.iter().map(|&w| w as u32).collect();
        fold(&cs, &mut got);
        assert_eq!(got, expected(&cs, &points), "case {t}: buckets vs the reference");
    }
    let short = vec![vec![1, 2, 3], vec![-1]];
    let err = sim.run_stream(4, 3, 2, None, short.into_iter()).unwrap_err();
    assert!(matches!(&err, RunError::Failed(m) if m.contains("digit stream ended after 4 of 8")), "{err}");
    let (_, st) = sim.run(4, 3, 1, None, &[1, 4, -2, 0]).unwrap();
    assert_eq!(st.issued, 3);
}

/// The host's producer (`machine::produce_digits`): any chunk size gives
/// the window-major digits of `zkmsm::digits`, and it stops when the
/// receiver is gone.
#[test]
fn produced_chunks_are_the_window_major_digits() {
    let scalars: Vec<ScalarLimbs> = (0..37u64).map(|i| [i * 0x9e37_79b9_7f4a_7c15, !i, i << 60, i >> 1]).collect();
    let plan = Plan::with_window(7, 253);
    let want: Vec<i32> = (0..plan.windows).flat_map(|w| zkmsm::digits::window_digits(&scalars, w, &plan)).collect();
    for chunk in [1, 5, 37, 64] {
        let (tx, rx) = std::sync::mpsc::sync_channel(1 << 16); // room for every chunk: consumed after
        let times = produce_digits(&scalars, &plan, chunk, &tx);
        assert_eq!(times.len(), plan.windows as usize);
        drop(tx);
        let got: Vec<Vec<i32>> = rx.iter().collect();
        assert!(got.iter().all(|c| !c.is_empty() && c.len() <= chunk));
        assert_eq!(got.concat(), want, "chunk {chunk}");
    }
    // a receiver that is gone stops the producer
    let (tx, rx) = std::sync::mpsc::sync_channel(0);
    drop(rx);
    assert!(produce_digits(&scalars, &plan, 8, &tx).is_empty());
}

/// sum_k (k+1) B_k of every window, mod 2^32 (the spread last window folded).
fn window_sums(case: &Case, buckets: &[u32]) -> Vec<u32> {
    let nb = 1usize << (case.c - 1);
    let mut b = buckets.to_vec();
    fold(case, &mut b);
    b.chunks(nb)
        .map(|w| w.iter().enumerate().fold(0u32, |a, (k, &v)| a.wrapping_add(v.wrapping_mul(k as u32 + 1))))
        .collect()
}

/// The host's part of a device-aggregated window, in integers
/// (`zkmsm_rtl::aggregate::window_sum`'s formula).
fn host_part(sent: &[u32], lm: u32, spread: bool) -> u32 {
    let m = 1usize << lm;
    let (mut total, mut weighted) = (0u32, 0u32);
    for (g, grp) in sent.chunks(m).enumerate() {
        total = total.wrapping_add(grp[0]).wrapping_add(if m >= 2 { grp[1] } else { 0 });
        if !spread {
            weighted = weighted.wrapping_add(grp[0].wrapping_mul(g as u32));
        }
    }
    total.wrapping_add(weighted.wrapping_mul(m as u32))
}

/// Device aggregation (register AGG) on the stand-in: random MSMs, group
/// sizes and core counts; every window's sum from the partial sums the core
/// sent equals the sum of the buckets it accumulated, only the partial sums
/// come back, and the RTL's cycles (accumulation and START to the last
/// bucket out) are the model's.
fn device_aggregation_matches_the_model(kind: Kind, seed: u64, cases: usize, max_n: usize) {
    use zkmsm_rtl::aggregate::{sent, window_log_m};
    let (mut sim, points, mut rng) = setup_kind(seed, kind);
    let p = params(&sim);
    let info = sim.info();
    let (mut agg_cycles, mut host_cycles) = (0u64, 0u64);
    for t in 0..cases {
        let cs = case(&mut rng, p.cmax, max_n);
        let lm = rng.gen_range(1..p.cmax);
        let cores = rng.gen_range(1..=info.ncores);
        let mem_latency = rng.gen_range(1..60);
        let plan = Plan { c: cs.c, windows: cs.windows, buckets: 1 << (cs.c - 1) };
        let nb = plan.buckets;
        let want = window_sums(&cs, &expected(&cs, &points));
        for agg in [lm, 0] {
            sim.set_opts(&Opts { mem_latency, cores, agg_log_m: agg, ..Opts::default() });
            let (words, st) = sim.run(cs.n, cs.c, cs.windows, cs.top, &cs.digits).unwrap();
            let got: Vec<u32> = words.iter().map(|&w| w as u32).collect();
            let what = format!(
                "case {t}: n {} c {} windows {} top {:?} cores {cores} agg {agg}",
                cs.n, cs.c, cs.windows, cs.top
            );
            let mut sums = Vec::new();
            for w in 0..cs.windows as usize {
                let last = w + 1 == cs.windows as usize;
                let wl = window_log_m(agg, cs.c, cs.top, last);
                if agg == 0 {
                    sums.push(
                        window_sums(
                            &Case { windows: 1, top: cs.top.filter(|_| last), digits: vec![], ..cs },
                            &got[w * nb..][..nb],
                        )[0],
                    );
                } else {
                    // what was not sent is left as it was: poison it
                    let mut win = got[w * nb..][..nb].to_vec();
                    win.iter_mut().enumerate().filter(|(k, _)| !sent(*k, wl)).for_each(|(_, v)| *v = 0xdead_beef);
                    sums.push(host_part(&win, wl, cs.top.is_some() && last));
                }
            }
            assert_eq!(sums, want, "{what}: window sums");
            assert_eq!(st.issued, cs.digits.iter().filter(|&&d| d != 0).count() as u64, "{what}: issued");
            let mut cfg = model_config(&p, &plan, 253, cs.n, mem_latency);
            cfg.core.top_bits = Some(cs.top.unwrap_or(31));
            cfg.core.cores = cores;
            cfg.core.fanout_depth = info.fanout_depth;
            cfg.core.agg_log_m = agg;
            let src = StreamDigits { digits: &cs.digits, n: cs.n, windows: cs.windows as usize, c: cs.c };
            let model = cfg.run_stats_digits(&src);
            assert_eq!(st.acc_cycles, model.acc.cycles, "{what}: accumulation cycles");
            assert_eq!(st.bubbles, model.acc.bubbles, "{what}: bubbles");
            assert_eq!(
                st.cycles,
                model.acc.extra("total_cycles").unwrap() as u64,
                "{what}: START to the last bucket out"
            );
            if agg == 0 {
                host_cycles += st.cycles;
            } else {
                agg_cycles += st.cycles;
            }
        }
    }
    println!(
        "{cases} cases: {agg_cycles} cycles with device aggregation, {host_cycles} without; RTL = model in every case"
    );
}

#[test]
fn device_aggregation_on_the_stand_in() {
    device_aggregation_matches_the_model(Kind::Int, 11, 150, 600);
}

/// The same at HZ = 2,002 (the lock table, requeueing): the aggregation's
/// write-backs stay out of the lock table.
#[test]
fn device_aggregation_on_the_lock_table_core() {
    device_aggregation_matches_the_model(Kind::IntLock, 12, 12, 300);
}
