//! Does `auto` pick well? Every backend and `auto` on the same inputs at
//! each size, timed in alternation (one run of each in turn, so that a busy
//! machine disturbs all alike), median of the rounds, all cores; prints each
//! time and auto / fastest.
//!
//!     cargo bench -p zkmsm --bench auto_sweep -- [curve] [max_log_n] [rounds]
//!
//! (curve: bls12-377, bls12-381, both, bn254, g2 (the three G2s) or
//! bls12-381-g2, bls12-377-g2, bn254-g2; defaults: both BLS12 curves, every n from 1 to 16, then four sizes per
//! doubling (2^(k/4), rounded) up to 2^max_log_n, max_log_n 18, 7 rounds; up
//! to 22 adds the larger sizes, whose points take a while to generate.)

use std::time::Instant;
use zkmsm::gen::{random_points, random_scalars};
use zkmsm::*;

fn sizes(max_log_n: u32) -> Vec<usize> {
    let mut n: Vec<usize> = (1..=16).collect();
    n.extend((17..=4 * max_log_n).map(|k| 2f64.powf(k as f64 / 4.0).round() as usize).filter(|&v| v > 16));
    n.dedup();
    n
}

fn sweep<C: EngineCurve>(max_log_n: u32, rounds: usize) -> f64 {
    let max_n = *sizes(max_log_n).last().unwrap();
    let points = random_points::<C>(max_n, 1).points;
    let scalars = random_scalars::<C>(max_n, 2);
    // Every backend with GLV as `auto` decides it, and once more with GLV
    // forced the other way where that differs somewhere (so the sweep also
    // says where GLV wins); `auto` itself first.
    let backends: Vec<BackendChoice> = BackendChoice::ALL
        .into_iter()
        .filter(|&b| b != BackendChoice::TwistedEdwards || C::NAME.contains("377"))
        .collect();
    let mut choices: Vec<(BackendChoice, GlvMode)> = backends.iter().map(|&b| (b, GlvMode::Auto)).collect();
    choices.extend(
        backends.iter().filter(|&&b| b != BackendChoice::Auto).flat_map(|&b| [(b, GlvMode::On), (b, GlvMode::Off)]),
    );
    println!("{} (auto = {:?} at 2^16)", C::NAME, C::auto_backend(1 << 16));
    let mut worst: f64 = 0.0;
    for n in sizes(max_log_n) {
        let mut engines: Vec<(BackendChoice, Box<dyn MsmEngine<C>>)> = Vec::new();
        let mut seen = Vec::new();
        for &(b, glv) in &choices {
            let builder = MsmBuilder::new().validation(Validation::AlreadyValidated).backend(b).glv(glv);
            let engine = match builder.build::<C>(&points[..n]) {
                Ok(engine) => engine,
                Err(_) if glv != GlvMode::Auto => continue, // a backend that cannot run GLV
                Err(e) => panic!("{b:?} at n = {n}: {e}"),
            };
            // A forced GLV mode equal to what auto chose at this n is a repeat.
            let key = (engine.backend_name(), engine.glv());
            if b == BackendChoice::Auto || !seen.contains(&key) {
                seen.push(key);
                engines.push((b, engine));
            }
        }
        let s = &scalars[..n];
        let mut times = vec![Vec::new(); engines.len()];
        let mut results = Vec::new();
        for round in 0..=rounds {
            for (i, (_, e)) in engines.iter().enumerate() {
                let t = Instant::now();
                let out = e.msm_report(s).expect("msm");
                let dt = t.elapsed().as_secs_f64() * 1e3;
                if round == 0 {
                    results.push(out.result); // warm-up, and the cross-check
                } else {
                    times[i].push(dt);
                }
            }
        }
        assert!(results.windows(2).all(|w| w[0] == w[1]), "backends disagree at n = {n}");
        let med: Vec<f64> = times
            .iter_mut()
            .map(|t| {
                t.sort_by(f64::total_cmp);
                t[t.len() / 2]
            })
            .collect();
        let auto = med[0];
        let best = med[1..].iter().copied().fold(f64::MAX, f64::min);
        let ratio = auto / best;
        worst = worst.max(ratio);
        let cells: Vec<String> = engines
            .iter()
            .zip(&med)
            .map(|((b, e), t)| {
                let name = if *b == BackendChoice::Auto { "auto" } else { e.backend_name() };
                format!("{name}{}={t:.3}", if e.glv() { "+glv" } else { "" })
            })
            .collect();
        let auto_glv = if engines[0].1.glv() { "+glv" } else { "" };
        println!(
            "n {n:>8}: {}  auto/best {ratio:.2} (auto runs {}{auto_glv})",
            cells.join(" "),
            engines[0].1.backend_name()
        );
    }
    worst
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let curve = args.first().cloned().unwrap_or_else(|| "both".into());
    let max_log_n: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(18);
    let rounds: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(7);
    if curve == "both" || curve == "bls12-377" {
        let w = sweep::<Bls12_377>(max_log_n, rounds);
        println!("bls12-377: worst auto/best {w:.2}");
    }
    if curve == "both" || curve == "bls12-381" {
        let w = sweep::<Bls12_381>(max_log_n, rounds);
        println!("bls12-381: worst auto/best {w:.2}");
    }
    if curve == "bn254" {
        let w = sweep::<Bn254>(max_log_n, rounds);
        println!("bn254: worst auto/best {w:.2}");
    }
    if curve == "g2" || curve == "bls12-381-g2" {
        let w = sweep::<Bls12_381G2>(max_log_n, rounds);
        println!("bls12-381 g2: worst auto/best {w:.2}");
    }
    if curve == "g2" || curve == "bls12-377-g2" {
        let w = sweep::<Bls12_377G2>(max_log_n, rounds);
        println!("bls12-377 g2: worst auto/best {w:.2}");
    }
    if curve == "g2" || curve == "bn254-g2" {
        let w = sweep::<Bn254G2>(max_log_n, rounds);
        println!("bn254 g2: worst auto/best {w:.2}");
    }
}
