//! The soak campaign (issue #14): random and adversarial MSMs on every engine
//! of both curves, each checked against (sum s_i g_i) G and arkworks'
//! `VariableBaseMSM::msm`, until every engine has run `--count` MSMs per curve.
//!
//!     nice -n 10 cargo run --release -p zkmsm-checks --example soak -- --count 10000 [--seed S] [--curve bls12-377]
//!
//! Case k of a curve is drawn from its own generator (seed, curve, k), so a
//! failure is replayed alone with `--case k`. Not a CI test: it takes minutes.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use std::collections::BTreeMap;
use std::time::Instant;
use zkmsm::{Bls12_377, Bls12_381};
use zkmsm_checks::curves::TestCurve;
use zkmsm_checks::msm::{check_case, Case, Class, Tally};

struct Args {
    count: u64,
    seed: u64,
    curves: Vec<String>,
    case: Option<u64>,
}

fn parse() -> Args {
    let mut a = Args { count: 10_000, seed: 1, curves: vec!["bls12-377".into(), "bls12-381".into()], case: None };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--count" => a.count = value().parse().expect("--count N"),
            "--seed" => a.seed = value().parse().expect("--seed S"),
            "--curve" => a.curves = vec![value()],
            "--case" => a.case = Some(value().parse().expect("--case K")),
            _ => panic!("unknown argument {flag} (--count N, --seed S, --curve C, --case K)"),
        }
    }
    a
}

fn rng_for(seed: u64, curve: &str, k: u64) -> ChaCha20Rng {
    let mut rng = ChaCha20Rng::seed_from_u64(seed ^ if curve == "bls12-377" { 0x377 } else { 0x381 } << 32);
    rng.set_stream(k);
    rng
}

fn soak<C: TestCurve>(a: &Args) {
    let t = Instant::now();
    let mut tally = Tally::new();
    let mut classes: BTreeMap<Class, u64> = BTreeMap::new();
    let mut arkworks = 0u64;
    let rounds: Box<dyn Iterator<Item = u64>> = match a.case {
        Some(k) => Box::new(std::iter::once(k)),
        None => Box::new(0..),
    };
    for k in rounds {
        let class = Class::ALL[k as usize % Class::ALL.len()];
        let mut rng = rng_for(a.seed, C::NAME, k);
        let case = Case::<C>::random(class, &mut rng);
        let also = (case.points.len() == case.scalars.len()).then(|| C::arkworks_msm(&case.points, &case.limbs()));
        arkworks += also.is_some() as u64;
        let tc = Instant::now();
        check_case(&case, also.as_deref(), &mut tally);
        eprintln!("case {k}: {class:?}, {} ({:.0} ms)", case.describe(), tc.elapsed().as_secs_f64() * 1e3);
        *classes.entry(class).or_default() += 1;
        if k % 1000 == 999 {
            eprintln!("{}: {} cases, {:.0} s", C::NAME, k + 1, t.elapsed().as_secs_f64());
        }
        if a.case.is_none() && tally.values().all(|&v| v >= a.count) {
            break;
        }
    }
    println!("## {} ({:.0} s, seed {})", C::NAME, t.elapsed().as_secs_f64(), a.seed);
    println!();
    println!("| engine | MSMs checked |");
    println!("|---|---|");
    for (e, v) in &tally {
        println!("| {} | {v} |", e.label());
    }
    println!();
    println!("| class | cases |");
    println!("|---|---|");
    for (c, v) in &classes {
        println!("| {c:?} | {v} |");
    }
    println!();
    println!("cases also checked against arkworks: {arkworks}; failures: 0");
    println!();
}

fn main() {
    let a = parse();
    for c in &a.curves {
        match c.as_str() {
            "bls12-377" => soak::<Bls12_377>(&a),
            "bls12-381" => soak::<Bls12_381>(&a),
            other => panic!("unknown curve {other}"),
        }
    }
}
