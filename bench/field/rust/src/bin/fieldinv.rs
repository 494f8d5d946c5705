//! ns per field inversion, one thread, for zkmsm's divstep inversion
//! (`PrimeField::inverse`), zkmsm's Fermat inversion (`Fp::inverse_fermat`)
//! and arkworks 0.5 (`Field::inverse`, `asm` feature). Two shapes:
//!
//! - `inverse`: a dependent chain x <- 1/x + 1 (latency; the same shape as
//!   bench/field/go/fieldinv_test.go);
//! - `inverse-indep`: 1024 independent random elements inverted in turn
//!   (throughput; the inputs differ, so a variable-time inversion is
//!   averaged over them).
//!
//! Minimum over `--rounds` rounds of `--iters` inversions each.
//!
//!   fieldinv [--iters 2000] [--rounds 50]

use std::hint::black_box;
use std::time::Instant;
use zkmsm_field::PrimeField as _;

fn best_ns(iters: usize, rounds: usize, mut f: impl FnMut(usize)) -> f64 {
    let mut best = f64::MAX;
    f(iters); // warm-up
    for _ in 0..rounds {
        let t0 = Instant::now();
        f(iters);
        best = best.min(t0.elapsed().as_secs_f64() * 1e9 / iters as f64);
    }
    best
}

/// Deterministic pseudo-random 64-bit words (splitmix64).
fn words(n: usize, mut s: u64) -> Vec<u64> {
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
}

const INDEP: usize = 1024;

/// Canonical little-endian byte strings of INDEP random field elements
/// (random bytes, reduced by zkmsm), so both libraries invert the same values.
fn inputs<P: zkmsm_field::FpConfig<N>, const N: usize>() -> Vec<Vec<u8>> {
    let w = words(INDEP * N, 7);
    w.chunks(N)
        .map(|c| {
            let mut l = [0u64; N];
            l.copy_from_slice(c);
            // reduce by dropping top bits until below q
            let mut x = zkmsm_field::Fp::<P, N>::from_canonical(l);
            let mut k = 1;
            while x.is_none() {
                l[N - 1] >>= k;
                k += 1;
                x = zkmsm_field::Fp::<P, N>::from_canonical(l);
            }
            x.unwrap().to_bytes_le()
        })
        .collect()
}

fn zk<P: zkmsm_field::FpConfig<N>, const N: usize>(label: &str, iters: usize, rounds: usize) {
    type F<P, const N: usize> = zkmsm_field::Fp<P, N>;
    let x0 = F::<P, N>::from_u64(3);
    let one = F::<P, N>::ONE;
    let by = best_ns(iters, rounds, |n| {
        let mut x = black_box(x0);
        for _ in 0..n {
            x = x.inverse().unwrap() + one;
        }
        black_box(x);
    });
    let fermat = best_ns(iters, rounds, |n| {
        let mut x = black_box(x0);
        for _ in 0..n {
            x = x.inverse_fermat().unwrap() + one;
        }
        black_box(x);
    });
    let v: Vec<F<P, N>> = inputs::<P, N>().iter().map(|b| F::<P, N>::from_bytes_le(b).unwrap()).collect();
    let by_i = best_ns(INDEP, rounds, |_| {
        let mut acc = F::<P, N>::ZERO;
        for x in black_box(&v) {
            acc += x.inverse().unwrap();
        }
        black_box(acc);
    });
    let fermat_i = best_ns(INDEP, rounds / 4 + 1, |_| {
        let mut acc = F::<P, N>::ZERO;
        for x in black_box(&v) {
            acc += x.inverse_fermat().unwrap();
        }
        black_box(acc);
    });
    println!("{label},zkmsm-divsteps,inverse,{by:.1}");
    println!("{label},zkmsm-fermat,inverse,{fermat:.1}");
    println!("{label},zkmsm-divsteps,inverse-indep,{by_i:.1}");
    println!("{label},zkmsm-fermat,inverse-indep,{fermat_i:.1}");
}

fn ark<A: ark_ff::PrimeField, P: zkmsm_field::FpConfig<N>, const N: usize>(label: &str, iters: usize, rounds: usize) {
    let x0 = A::from(3u64);
    let one = A::one();
    let chain = best_ns(iters, rounds, |n| {
        let mut x = black_box(x0);
        for _ in 0..n {
            x = x.inverse().unwrap() + one;
        }
        black_box(x);
    });
    let v: Vec<A> = inputs::<P, N>().iter().map(|b| A::from_le_bytes_mod_order(b)).collect();
    let indep = best_ns(INDEP, rounds, |_| {
        let mut acc = A::zero();
        for x in black_box(&v) {
            acc += x.inverse().unwrap();
        }
        black_box(acc);
    });
    println!("{label},arkworks-asm,inverse,{chain:.1}");
    println!("{label},arkworks-asm,inverse-indep,{indep:.1}");
}

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).map(|i| args[i + 1].parse().expect("a number")).unwrap_or(default)
}

fn main() {
    let (iters, rounds) = (arg("--iters", 2000), arg("--rounds", 50));
    println!("field,impl,op,ns");
    use zkmsm_field::*;
    zk::<Bls12_377FqConfig, 6>("bls12-377 Fq", iters, rounds);
    ark::<ark_bls12_377::Fq, Bls12_377FqConfig, 6>("bls12-377 Fq", iters, rounds);
    zk::<Bls12_381FqConfig, 6>("bls12-381 Fq", iters, rounds);
    ark::<ark_bls12_381::Fq, Bls12_381FqConfig, 6>("bls12-381 Fq", iters, rounds);
    zk::<Bls12_377FrConfig, 4>("bls12-377 Fr", iters, rounds);
    ark::<ark_bls12_377::Fr, Bls12_377FrConfig, 4>("bls12-377 Fr", iters, rounds);
    zk::<Bls12_381FrConfig, 4>("bls12-381 Fr", iters, rounds);
    ark::<ark_bls12_381::Fr, Bls12_381FrConfig, 4>("bls12-381 Fr", iters, rounds);
}
