//! The arkworks-native entry point (zkmsm::ark) against arkworks'
//! VariableBaseMSM::msm and against zkmsm's own context on the same points:
//! what the conversion costs and whether the one-shot still wins.
//! Median of REPEAT timed runs after a warm-up; results checked equal first.
//!
//!     cargo bench -p zkmsm --features ark --bench ark_entry -- [log_n ...]   (default: 12 16)
//!
//! With `--files CURVE POINTS SCALARS REPEAT` it times the same calls on the
//! files `zkmsm gen --point-format uncompressed` writes and prints one JSON
//! line (the result's compressed hex beside the times), so that
//! bench/entry/run.py can put them beside the CLI, Python and the C ABI.

use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::PrimeField as _;
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize};
use std::time::Instant;
use zkmsm::ark::{points_to_zkmsm, scalars_to_limbs, ArkAffine, ArkMsm};
use zkmsm::gen::{random_points, random_scalars};
use zkmsm::*;
use zkmsm_curve::PointFormat;

const REPEAT: usize = 5;

fn median_ms(f: impl FnMut()) -> f64 {
    median_ms_of(REPEAT, f)
}

fn median_ms_of(repeat: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..repeat)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[repeat / 2]
}

fn run<A>(log_n: u32)
where
    A: ArkAffine + CanonicalDeserialize,
    A::ScalarField: ark_ff::PrimeField<BigInt = ark_ff::BigInt<4>>,
    A::Group: VariableBaseMSM<MulBase = A>,
{
    let n = 1usize << log_n;
    let points = random_points::<A::Curve>(n, 1).points;
    let scalars = random_scalars::<A::Curve>(n, 2);
    let ark_points: Vec<A> = points
        .iter()
        .map(|p| A::deserialize_uncompressed_unchecked(&p.to_bytes(PointFormat::Uncompressed)[..]).unwrap())
        .collect();
    let ark_scalars: Vec<A::ScalarField> = scalars
        .iter()
        .map(|s| A::ScalarField::from_le_bytes_mod_order(&s.iter().flat_map(|l| l.to_le_bytes()).collect::<Vec<_>>()))
        .collect();
    let ctx = ArkMsm::new(&ark_points).unwrap();
    let expected = A::Group::msm(&ark_points, &ark_scalars).unwrap();
    assert_eq!(zkmsm::ark::msm(&ark_points, &ark_scalars).unwrap(), expected);
    assert_eq!(ctx.msm(&ark_scalars).unwrap(), expected);
    let native = MsmBuilder::new().validation(Validation::AlreadyValidated).build(&points[..]).unwrap();

    let conv_points = median_ms(|| {
        std::hint::black_box(points_to_zkmsm(&ark_points));
    });
    let conv_scalars = median_ms(|| {
        std::hint::black_box(scalars_to_limbs(&ark_scalars));
    });
    let native_ms = median_ms(|| {
        std::hint::black_box(native.msm_report(&scalars).unwrap());
    });
    let ctx_ms = median_ms(|| {
        std::hint::black_box(ctx.msm(&ark_scalars).unwrap());
    });
    let one_shot = median_ms(|| {
        std::hint::black_box(zkmsm::ark::msm(&ark_points, &ark_scalars).unwrap());
    });
    let ark_ms = median_ms(|| {
        std::hint::black_box(A::Group::msm(&ark_points, &ark_scalars).unwrap());
    });
    println!(
        "| {} | 2^{log_n} | {} | {conv_points:.2} | {conv_scalars:.2} | {native_ms:.1} | {ctx_ms:.1} | {one_shot:.1} | {ark_ms:.1} | {:.2} |",
        <A::Curve as zkmsm::SwCurve>::NAME,
        ctx.backend_name(),
        one_shot / ark_ms
    );
    let _ = expected.into_affine();
}

/// The `--files` mode: arkworks points (uncompressed encodings, as `zkmsm gen
/// --point-format uncompressed` writes them) and 32-byte little-endian scalars
/// read from files, then the one-shot (conversion included), the context and
/// `VariableBaseMSM::msm` timed on them, checked equal first.
fn files<A>(points: &str, scalars: &str, repeat: usize)
where
    A: ArkAffine + CanonicalDeserialize,
    A::ScalarField: ark_ff::PrimeField<BigInt = ark_ff::BigInt<4>>,
    A::Group: VariableBaseMSM<MulBase = A> + CanonicalSerialize,
{
    let read = |path: &str| std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (point_bytes, scalar_bytes) = (read(points), read(scalars));
    let ark_points: Vec<A> = point_bytes
        .chunks(PointFormat::Uncompressed.size::<A::Curve>())
        .map(|c| A::deserialize_uncompressed_unchecked(c).expect("uncompressed point"))
        .collect();
    let ark_scalars: Vec<A::ScalarField> =
        scalar_bytes.chunks(32).map(A::ScalarField::from_le_bytes_mod_order).collect();
    assert_eq!(ark_points.len(), ark_scalars.len(), "points and scalars differ in number");
    let expected = A::Group::msm(&ark_points, &ark_scalars).unwrap();
    assert_eq!(zkmsm::ark::msm(&ark_points, &ark_scalars).unwrap(), expected);
    let ctx = ArkMsm::new(&ark_points).unwrap();
    assert_eq!(ctx.msm(&ark_scalars).unwrap(), expected);
    let one_shot = median_ms_of(repeat, || {
        std::hint::black_box(zkmsm::ark::msm(&ark_points, &ark_scalars).unwrap());
    });
    let context = median_ms_of(repeat, || {
        std::hint::black_box(ctx.msm(&ark_scalars).unwrap());
    });
    let arkworks = median_ms_of(repeat, || {
        std::hint::black_box(A::Group::msm(&ark_points, &ark_scalars).unwrap());
    });
    let mut result = Vec::new();
    expected.serialize_compressed(&mut result).unwrap();
    let hex: String = result.iter().map(|b| format!("{b:02x}")).collect();
    println!(
        "{{\"result\": \"{hex}\", \"backend\": \"{}\", \"ark_oneshot_ms\": {one_shot:.3}, \
         \"ark_context_ms\": {context:.3}, \"arkworks_ms\": {arkworks:.3}}}",
        ctx.backend_name()
    );
}

fn main() {
    // (cargo bench appends `--bench`)
    let args: Vec<String> = std::env::args().filter(|a| a != "--bench").collect();
    if let Some(at) = args.iter().position(|a| a == "--files") {
        let [curve, points, scalars, repeat] = &args[at + 1..] else {
            panic!("usage: ark_entry --files bls12-377|bls12-381 POINTS SCALARS REPEAT");
        };
        let repeat: usize = repeat.parse().expect("REPEAT: a number");
        match curve.as_str() {
            "bls12-377" => files::<ark_bls12_377::G1Affine>(points, scalars, repeat),
            "bls12-381" => files::<ark_bls12_381::G1Affine>(points, scalars, repeat),
            other => panic!("unknown curve {other}"),
        }
        return;
    }
    let sizes: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![12, 16] } else { sizes };
    println!("threads: {}", rayon::current_num_threads());
    println!(
        "| curve | n | backend (auto) | convert points ms | convert scalars ms | zkmsm context ms | ArkMsm context ms | \
         zkmsm::ark::msm one-shot ms | arkworks msm ms | one-shot / arkworks |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for &k in &sizes {
        run::<ark_bls12_377::G1Affine>(k);
        run::<ark_bls12_381::G1Affine>(k);
    }
}
