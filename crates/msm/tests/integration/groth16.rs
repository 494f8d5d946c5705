//! `zkmsm::groth16` against ark-groth16 on every pairing curve: the same
//! proof from the same random generator, accepted by `Groth16::verify`, on
//! circuits with one public input, none and many; an unsatisfied witness,
//! a circuit the key was not made for and a wrong public input refused.
#![cfg(feature = "groth16")]

use ark_ec::pairing::Pairing;
use ark_ff::{BigInt, Field, PrimeField};
use ark_groth16::{prepare_verifying_key, Groth16, ProvingKey};
use ark_snark::SNARK;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zkmsm::ark::ArkAffine;
use zkmsm::groth16::{ProveError, Prover, SquareChain};

fn key<E: Pairing>(circuit: SquareChain<E::ScalarField>) -> ProvingKey<E> {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    Groth16::<E>::generate_random_parameters_with_reduction(circuit, &mut rng).unwrap()
}

fn proves_as_ark_groth16<E: Pairing>()
where
    E::G1Affine: ArkAffine,
    E::G2Affine: ArkAffine,
    E::ScalarField: PrimeField<BigInt = BigInt<4>>,
{
    for (steps, public) in [(1, 1), (40, 1), (40, 0), (64, 20), (100, 100)] {
        let circuit = SquareChain::<E::ScalarField>::new(steps, public);
        let pk = key::<E>(circuit.clone());
        let pvk = prepare_verifying_key(&pk.vk);
        let prover = Prover::new(&pk).unwrap();
        for seed in [2, 3] {
            let ours = prover.prove(circuit.clone(), &mut ChaCha20Rng::seed_from_u64(seed)).unwrap();
            let theirs = Groth16::<E>::prove(&pk, circuit.clone(), &mut ChaCha20Rng::seed_from_u64(seed)).unwrap();
            assert_eq!(ours, theirs, "{steps} steps, {public} public, seed {seed}");
            let inputs = circuit.public_inputs();
            assert!(Groth16::<E>::verify_with_processed_vk(&pvk, &inputs, &ours).unwrap());
            // the same proof does not prove another statement
            if let Some(first) = inputs.first() {
                let mut wrong = inputs.clone();
                wrong[0] = *first + E::ScalarField::ONE;
                assert!(!Groth16::<E>::verify_with_processed_vk(&pvk, &wrong, &ours).unwrap());
            }
        }
        // r = s = 0 (no zero knowledge) is still a valid proof
        let plain = prover.prove_deterministic(circuit.clone(), 0u64.into(), 0u64.into()).unwrap();
        assert!(Groth16::<E>::verify_with_processed_vk(&pvk, &circuit.public_inputs(), &plain).unwrap());
    }
}

fn refuses_what_cannot_be_proved<E: Pairing>()
where
    E::G1Affine: ArkAffine,
    E::G2Affine: ArkAffine,
    E::ScalarField: PrimeField<BigInt = BigInt<4>>,
{
    let circuit = SquareChain::<E::ScalarField>::new(30, 2);
    let prover = Prover::new(&key::<E>(circuit.clone())).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let broken = SquareChain { break_at: Some(7), ..circuit.clone() };
    match prover.prove(broken, &mut rng) {
        Err(e @ ProveError::Unsatisfied { .. }) => assert!(e.to_string().contains("does not satisfy"), "{e}"),
        other => panic!("an unsatisfied witness gave {other:?}"),
    }
    for other in [SquareChain::new(31, 2), SquareChain::new(29, 2), SquareChain::new(30, 3)] {
        match prover.prove(other, &mut rng) {
            Err(e @ ProveError::KeyMismatch { .. }) => assert!(e.to_string().contains("does not fit"), "{e}"),
            r => panic!("a circuit the key was not made for gave {r:?}"),
        }
    }
}

#[test]
fn bn254_proofs_are_ark_groth16_s() {
    proves_as_ark_groth16::<ark_bn254::Bn254>();
    refuses_what_cannot_be_proved::<ark_bn254::Bn254>();
}

#[test]
fn bls12_381_proofs_are_ark_groth16_s() {
    proves_as_ark_groth16::<ark_bls12_381::Bls12_381>();
    refuses_what_cannot_be_proved::<ark_bls12_381::Bls12_381>();
}

#[test]
fn bls12_377_proofs_are_ark_groth16_s() {
    proves_as_ark_groth16::<ark_bls12_377::Bls12_377>();
    refuses_what_cannot_be_proved::<ark_bls12_377::Bls12_377>();
}
