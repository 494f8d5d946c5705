//! A KZG polynomial commitment with arkworks types end to end, the MSMs done
//! by zkmsm (`zkmsm::ark`): commit to a random polynomial, open it at a point,
//! and verify the opening with the pairing.
//!
//!     cargo run --release -p zkmsm --features ark --example kzg_commit -- [log_n]
//!
//! The setup uses a tau drawn from a seeded RNG, so it is a test setup and
//! insecure by construction (whoever knows tau can forge openings); a real
//! one comes from a ceremony (the Python package's tests use Ethereum's).

use ark_bls12_381::{Bls12_381, Fr, G1Affine, G1Projective, G2Projective};
use ark_ec::pairing::Pairing;
use ark_ec::{CurveGroup, PrimeGroup, ScalarMul, VariableBaseMSM};
use ark_ff::{Field, UniformRand, Zero};
use std::time::Instant;
use zkmsm::ark::ArkMsm;

/// p(z) by Horner's rule.
fn evaluate(coeffs: &[Fr], z: Fr) -> Fr {
    coeffs.iter().rev().fold(Fr::zero(), |acc, c| acc * z + c)
}

/// q(X) = (p(X) - p(z)) / (X - z) by synthetic division, padded with a zero
/// to p's length so that it commits against the same points.
fn quotient(coeffs: &[Fr], z: Fr) -> Vec<Fr> {
    let n = coeffs.len();
    let mut q = vec![Fr::zero(); n];
    let mut carry = Fr::zero();
    for i in (1..n).rev() {
        carry = coeffs[i] + carry * z;
        q[i - 1] = carry;
    }
    q
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let log_n: u32 = std::env::args().nth(1).map(|s| s.parse()).transpose()?.unwrap_or(12);
    let n = 1usize << log_n;
    let mut rng = ark_std::test_rng();

    // Test setup: [tau^i] G1 for i < n, and [tau] G2.
    let t = Instant::now();
    let tau = Fr::rand(&mut rng);
    let powers: Vec<Fr> = std::iter::successors(Some(Fr::ONE), |p| Some(*p * tau)).take(n).collect();
    let srs: Vec<G1Affine> = G1Projective::generator().batch_mul(&powers);
    let g2 = G2Projective::generator();
    let tau_g2 = g2 * tau;
    println!("setup: {n} powers of tau in {:.0} ms (test setup, insecure)", t.elapsed().as_secs_f64() * 1e3);

    // The points are set up once and serve both MSMs.
    let ctx = ArkMsm::new(&srs)?;

    let coeffs: Vec<Fr> = (0..n).map(|_| Fr::rand(&mut rng)).collect();
    let t = Instant::now();
    let commitment = ctx.msm(&coeffs)?;
    println!("commit: {:.1} ms with zkmsm ({})", t.elapsed().as_secs_f64() * 1e3, ctx.backend_name());
    let t = Instant::now();
    let theirs = G1Projective::msm(&srs, &coeffs).map_err(|_| "length mismatch")?;
    println!("commit: {:.1} ms with arkworks' VariableBaseMSM::msm", t.elapsed().as_secs_f64() * 1e3);
    assert_eq!(commitment, theirs, "zkmsm and arkworks disagree");
    assert_eq!(commitment, G1Projective::generator() * evaluate(&coeffs, tau), "C != p(tau) G");

    // Open at z: y = p(z), proof = [q(tau)] G1.
    let z = Fr::rand(&mut rng);
    let y = evaluate(&coeffs, z);
    let proof = ctx.msm(&quotient(&coeffs, z))?;

    // Verify: e(C - y G1, G2) == e(proof, [tau - z] G2).
    let lhs = Bls12_381::pairing((commitment - G1Projective::generator() * y).into_affine(), g2.into_affine());
    let rhs = Bls12_381::pairing(proof.into_affine(), (tau_g2 - g2 * z).into_affine());
    assert_eq!(lhs, rhs, "the opening does not verify");
    println!("opened at z, y = p(z); pairing check: OK");
    println!("{}", commitment.into_affine());
    Ok(())
}
