//! zkmsm vs arkworks 0.5 on the `zkmsm demo` inputs (same seeds), both curves.
//! Median of REPEAT timed runs after a warm-up; results cross-checked first.
//!
//!     cargo bench -p zkmsm --bench vs_arkworks -- [g2] [log_n ...]   (default: 16 18; g2: the three G2s)

use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::PrimeField as _;
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize};
use std::time::Instant;
use zkmsm::gen::{random_points, random_scalars};
use zkmsm::*;
use zkmsm_curve::PointFormat;

const REPEAT: usize = 5;

trait Ark: EngineCurve {
    type G: CurveGroup<ScalarField = Self::Fr, Affine = Self::A> + VariableBaseMSM;
    type A: ark_ec::AffineRepr<ScalarField = Self::Fr> + CanonicalSerialize + CanonicalDeserialize;
    type Fr: ark_ff::PrimeField;
}
impl Ark for Bls12_377 {
    type G = ark_bls12_377::G1Projective;
    type A = ark_bls12_377::G1Affine;
    type Fr = ark_bls12_377::Fr;
}
impl Ark for Bls12_381 {
    type G = ark_bls12_381::G1Projective;
    type A = ark_bls12_381::G1Affine;
    type Fr = ark_bls12_381::Fr;
}
impl Ark for Bn254 {
    type G = ark_bn254::G1Projective;
    type A = ark_bn254::G1Affine;
    type Fr = ark_bn254::Fr;
}
impl Ark for Bls12_377G2 {
    type G = ark_bls12_377::G2Projective;
    type A = ark_bls12_377::G2Affine;
    type Fr = ark_bls12_377::Fr;
}
impl Ark for Bls12_381G2 {
    type G = ark_bls12_381::G2Projective;
    type A = ark_bls12_381::G2Affine;
    type Fr = ark_bls12_381::Fr;
}
impl Ark for Bn254G2 {
    type G = ark_bn254::G2Projective;
    type A = ark_bn254::G2Affine;
    type Fr = ark_bn254::Fr;
}

fn median_ms(mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..REPEAT)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[REPEAT / 2]
}

fn run<C: Ark + EngineCurve>(log_n: u32) {
    let n = 1usize << log_n;
    // the demo's inputs: seed 1 for points, seed 2 for scalars
    let points = random_points::<C>(n, 1).points;
    let scalars = random_scalars::<C>(n, 2);
    let ark_points: Vec<C::A> = points
        .iter()
        .map(|p| C::A::deserialize_uncompressed_unchecked(&p.to_bytes(PointFormat::Uncompressed)[..]).unwrap())
        .collect();
    let ark_scalars: Vec<C::Fr> = scalars
        .iter()
        .map(|s| C::Fr::from_le_bytes_mod_order(&s.iter().flat_map(|l| l.to_le_bytes()).collect::<Vec<_>>()))
        .collect();
    let ctx = MsmBuilder::new().validation(Validation::AlreadyValidated).build(&points).unwrap();
    let ours = ctx.msm_report(&scalars).unwrap().result.to_affine();
    let theirs = C::G::msm(&ark_points, &ark_scalars).unwrap().into_affine();
    let mut b = Vec::new();
    theirs.serialize_compressed(&mut b).unwrap();
    assert_eq!(ours.to_bytes(PointFormat::Compressed), b, "results differ");
    let z = median_ms(|| {
        ctx.msm_report(&scalars).unwrap();
    });
    let a = median_ms(|| {
        C::G::msm(&ark_points, &ark_scalars).unwrap();
    });
    println!("| {} | 2^{log_n} | {} | {:.1} | {:.1} | {:.2} |", C::LABEL, ctx.backend_name(), z, a, z / a);
}

fn main() {
    let g2 = std::env::args().any(|a| a == "g2");
    let sizes: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![16, 18] } else { sizes };
    println!("threads: {}", rayon::current_num_threads());
    println!("| curve | n | zkmsm backend (auto) | zkmsm ms | arkworks ms | zkmsm / arkworks |");
    println!("|---|---|---|---|---|---|");
    for &k in &sizes {
        if g2 {
            run::<Bls12_377G2>(k);
            run::<Bls12_381G2>(k);
            run::<Bn254G2>(k);
        } else {
            run::<Bls12_377>(k);
            run::<Bls12_381>(k);
        }
    }
}
