//! ns per Montgomery squaring of the 6-limb fields, as a dependent chain
//! x <- x^2 (the shape of bench/peers/rust/src/bin/fieldmul.rs): the dedicated
//! MULX/ADX squaring (`Fp::square_asm`) against the MULX/ADX multiplication
//! called as x * x (`Fp::mul_asm`), alternating round by round. Minimum over
//! `--rounds` rounds of `--iters` squarings each, and the median ratio of
//! paired rounds. Checks first that both chains agree for 10^6 steps.
//!
//!   fieldsqr [--iters 100000] [--rounds 200]

use std::hint::black_box;
use std::time::Instant;
use zkmsm_field::{Fp, FpConfig};

fn run<P: FpConfig<6>>(label: &str, iters: usize, rounds: usize) {
    let x0 = Fp::<P, 6>::from_u64(3);
    let (mut a, mut b) = (x0, x0);
    for _ in 0..1_000_000 {
        a = a.square_asm().expect("BMI2/ADX CPU");
        b = b.mul_asm(&b).unwrap();
        assert_eq!(a, b);
    }
    // The two chains alternate round by round, so that both see the same
    // machine (on a shared 2-thread machine a sibling load slows whole
    // stretches of rounds): minimum of each, and the median of the per-round
    // ratio square / x*x.
    let time = |sq: bool, n: usize| {
        let t0 = Instant::now();
        let mut x = black_box(x0);
        if sq {
            for _ in 0..n {
                x = x.square_asm().unwrap();
            }
        } else {
            for _ in 0..n {
                x = x.mul_asm(&x).unwrap();
            }
        }
        black_box(x);
        t0.elapsed().as_secs_f64() * 1e9 / n as f64
    };
    time(true, iters);
    time(false, iters);
    let (mut sqr, mut mul, mut ratios) = (f64::MAX, f64::MAX, Vec::with_capacity(rounds));
    for _ in 0..rounds {
        let (s, m) = (time(true, iters), time(false, iters));
        sqr = sqr.min(s);
        mul = mul.min(m);
        ratios.push(s / m);
    }
    ratios.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let median = ratios[ratios.len() / 2];
    println!("{label},zkmsm-asm,square,{sqr:.2}");
    println!("{label},zkmsm-asm x*x,square,{mul:.2}");
    println!("{label},zkmsm-asm / x*x (median of paired rounds),square,{median:.3}");
}

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).map(|i| args[i + 1].parse().expect("a number")).unwrap_or(default)
}

fn main() {
    let (iters, rounds) = (arg("--iters", 100_000), arg("--rounds", 200));
    println!("field,impl,op,ns");
    run::<zkmsm_field::Bls12_377FqConfig>("bls12-377 Fq", iters, rounds);
    run::<zkmsm_field::Bls12_381FqConfig>("bls12-381 Fq", iters, rounds);
}
