//! zkmsm's Groth16 prover (`zkmsm::groth16::Prover`) against ark-groth16's
//! `Groth16::prove` on the same proving key and circuit (`SquareChain` of
//! 2^k constraints, one public input), in one run: the two proofs are
//! checked equal (the same r and s from the same generator) and verified
//! before any time is printed. Median of REPEAT proofs each, alternated;
//! setup (key generation, `Prover::new`) is timed apart and excluded.
//!
//!     cargo bench -p zkmsm --features groth16 --bench groth16 -- [bn254] [bls12-381] [bls12-377] [k ...]
//!
//! (default: bn254 and bls12-381 at k = 16)

use ark_ec::pairing::Pairing;
use ark_ff::{BigInt, PrimeField, UniformRand};
use ark_groth16::{prepare_verifying_key, Groth16};
use ark_snark::SNARK;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use std::time::{Duration, Instant};
use zkmsm::ark::ArkAffine;
use zkmsm::groth16::{ProveTimings, Prover, SquareChain};

const REPEAT: usize = 3;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn run<E: Pairing>(curve: &str, k: u32)
where
    E::G1Affine: ArkAffine,
    E::G2Affine: ArkAffine,
    E::ScalarField: PrimeField<BigInt = BigInt<4>>,
{
    let circuit = SquareChain::<E::ScalarField>::new(1 << k, 1);
    let t = Instant::now();
    let pk =
        Groth16::<E>::generate_random_parameters_with_reduction(circuit.clone(), &mut ChaCha20Rng::seed_from_u64(1))
            .expect("setup");
    let setup = t.elapsed();
    let t = Instant::now();
    let prover = Prover::new(&pk).expect("Prover::new");
    let init = t.elapsed();
    let pvk = prepare_verifying_key(&pk.vk);
    let inputs = circuit.public_inputs();
    let (mut ours, mut theirs, mut splits) = (Vec::new(), Vec::new(), Vec::<ProveTimings>::new());
    for seed in 0..=REPEAT as u64 {
        let t = Instant::now();
        let b = Groth16::<E>::prove(&pk, circuit.clone(), &mut ChaCha20Rng::seed_from_u64(seed)).unwrap();
        let ark_ms = ms(t.elapsed());
        let t = Instant::now();
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let (r, s) = (E::ScalarField::rand(&mut rng), E::ScalarField::rand(&mut rng));
        let (a, split) = prover.prove_timed(circuit.clone(), r, s).unwrap();
        let zk_ms = ms(t.elapsed());
        assert_eq!(a, b, "{curve} 2^{k}: the proofs differ");
        assert!(Groth16::<E>::verify_with_processed_vk(&pvk, &inputs, &a).unwrap(), "{curve} 2^{k}: no verify");
        if seed > 0 {
            // the first of each is a warm-up
            ours.push(zk_ms);
            theirs.push(ark_ms);
            splits.push(split);
        }
    }
    let (zk, ark) = (median(ours.clone()), median(theirs));
    let mid = ours.iter().position(|&x| x == zk).unwrap();
    let s = splits[mid];
    println!(
        "| {curve} | 2^{k} | {:.1} | {:.0} | {ark:.0} | {zk:.0} | {:.2} | {:.0} / {:.0} / {:.0} + {:.0} + {:.0} + {:.0} + {:.0} |",
        setup.as_secs_f64(),
        ms(init),
        zk / ark,
        ms(s.synthesis),
        ms(s.witness_map),
        ms(s.msm_a),
        ms(s.msm_b_g1),
        ms(s.msm_b_g2),
        ms(s.msm_h),
        ms(s.msm_l),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let mut curves: Vec<&str> = args.iter().map(|s| s.as_str()).filter(|a| a.parse::<u32>().is_err()).collect();
    let mut ks: Vec<u32> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if curves.is_empty() {
        curves = vec!["bn254", "bls12-381"];
    }
    if ks.is_empty() {
        ks = vec![16];
    }
    println!(
        "threads {}; median of {REPEAT} proofs each after one warm-up, proofs checked equal and verified",
        rayon::current_num_threads()
    );
    println!("| curve | constraints | setup s | Prover::new ms | ark-groth16 ms | zkmsm ms | zkmsm / ark | zkmsm: synthesis / witness map / MSMs a + b_g1 + b_g2 + h + l (ms) |");
    println!("|---|---|---|---|---|---|---|---|");
    for &k in &ks {
        for &c in &curves {
            match c {
                "bn254" => run::<ark_bn254::Bn254>(c, k),
                "bls12-381" => run::<ark_bls12_381::Bls12_381>(c, k),
                "bls12-377" => run::<ark_bls12_377::Bls12_377>(c, k),
                other => panic!("unknown curve {other}"),
            }
        }
    }
}
