//! The soak campaign: random and adversarial MSMs on every engine
//! of every curve, each checked against (sum s_i g_i) G and arkworks'
//! `VariableBaseMSM::msm`, until every engine has run `--count` MSMs per curve.
//!
//!     nice -n 10 cargo run --release -p zkmsm-checks --example soak -- --count 10000 [--seed S] [--curve bls12-377]
//!
//! The curves take turns, case by case, so a run cut short has covered them
//! alike; the counts so far are printed every 1000 cases. Case k of a curve
//! is drawn from its own generator (seed, curve, k), so a failure is replayed
//! alone with `--case k --curve C`, and a campaign splits into processes
//! that run disjoint ranges of cases (`--from K --count M`: cases K..K+M).
//! Not a CI test: it takes an hour.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use zkmsm::{Bls12_377, Bls12_381, Bn254};
use zkmsm_checks::curves::TestCurve;
use zkmsm_checks::msm::{check_case, Case, Class, Tally};

struct Args {
    count: u64,
    seed: u64,
    curves: Vec<String>,
    case: Option<u64>,
    from: u64,
}

fn parse() -> Args {
    let mut a = Args {
        count: 10_000,
        seed: 1,
        curves: vec!["bls12-377".into(), "bls12-381".into(), "bn254".into()],
        case: None,
        from: 0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--count" => a.count = value().parse().expect("--count N"),
            "--seed" => a.seed = value().parse().expect("--seed S"),
            "--curve" => a.curves = vec![value()],
            "--case" => a.case = Some(value().parse().expect("--case K")),
            "--from" => a.from = value().parse().expect("--from K"),
            _ => panic!("unknown argument {flag} (--count N, --seed S, --curve C, --case K, --from K)"),
        }
    }
    a
}

fn rng_for(seed: u64, curve: &str, k: u64) -> ChaCha20Rng {
    let mut rng = ChaCha20Rng::seed_from_u64(seed ^ if curve == "bls12-377" { 0x377 } else { 0x381 } << 32);
    rng.set_stream(k);
    rng
}

/// One curve's campaign so far.
#[derive(Default)]
struct Soak {
    name: &'static str,
    cases: u64,
    tally: Tally,
    classes: BTreeMap<Class, u64>,
    arkworks: u64,
    time: Duration,
    first: u64,
}

impl Soak {
    fn new(name: &'static str, first: u64) -> Self {
        Soak { name, first, ..Default::default() }
    }

    /// Case k of curve C, on every engine.
    fn case<C: TestCurve>(&mut self, seed: u64, k: u64) {
        let t = Instant::now();
        let class = Class::ALL[k as usize % Class::ALL.len()];
        let mut rng = rng_for(seed, C::NAME, k);
        let case = Case::<C>::random(class, &mut rng);
        let also = (case.points.len() == case.scalars.len()).then(|| C::arkworks_msm(&case.points, &case.limbs()));
        self.arkworks += also.is_some() as u64;
        check_case(&case, also.as_deref(), &mut self.tally);
        eprintln!("case {k}: {class:?}, {} ({:.0} ms)", case.describe(), t.elapsed().as_secs_f64() * 1e3);
        *self.classes.entry(class).or_default() += 1;
        self.cases += 1;
        self.time += t.elapsed();
    }

    fn done(&self, count: u64) -> bool {
        self.tally.values().all(|&v| v >= count) && !self.tally.is_empty()
    }

    fn report(&self, seed: u64) {
        println!(
            "## {} ({} cases, {:.0} s, seed {seed}, first case {})",
            self.name,
            self.cases,
            self.time.as_secs_f64(),
            self.first
        );
        println!();
        println!("| engine | MSMs checked |");
        println!("|---|---|");
        for (e, v) in &self.tally {
            println!("| {} | {v} |", e.label());
        }
        println!();
        println!("| class | cases |");
        println!("|---|---|");
        for (c, v) in &self.classes {
            println!("| {c:?} | {v} |");
        }
        println!();
        println!("cases also checked against arkworks: {}; failures: 0", self.arkworks);
        println!();
    }

    fn progress(&self) {
        let least = self.tally.values().min().copied().unwrap_or(0);
        eprintln!(
            "{}: {} cases in {:.0} s, every engine at least {least} MSMs",
            self.name,
            self.cases,
            self.time.as_secs_f64()
        );
    }
}

fn main() {
    let a = parse();
    let mut soaks: Vec<Soak> = a
        .curves
        .iter()
        .map(|c| match c.as_str() {
            "bls12-377" => Soak::new("bls12-377", a.from),
            "bls12-381" => Soak::new("bls12-381", a.from),
            "bn254" => Soak::new("bn254", a.from),
            other => panic!("unknown curve {other} (bls12-377, bls12-381, bn254)"),
        })
        .collect();
    let run = |s: &mut Soak, k: u64| match s.name {
        "bls12-377" => s.case::<Bls12_377>(a.seed, k),
        "bls12-381" => s.case::<Bls12_381>(a.seed, k),
        _ => s.case::<Bn254>(a.seed, k),
    };
    if let Some(k) = a.case {
        for s in &mut soaks {
            run(s, k);
        }
    } else {
        for k in a.from.. {
            for s in soaks.iter_mut().filter(|s| !s.done(a.count)) {
                run(s, k);
            }
            if (k - a.from) % 1000 == 999 {
                soaks.iter().for_each(Soak::progress);
            }
            if soaks.iter().all(|s| s.done(a.count)) {
                break;
            }
        }
    }
    for s in &soaks {
        s.report(a.seed);
    }
}
