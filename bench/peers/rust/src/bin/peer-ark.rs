//! arkworks 0.5 peer runner, also the input generator and format converter.
//!
//!   peer-ark gen --curve C [--group G] --log-n K --points P --scalars S [--seed N] [--point-format compressed|uncompressed]
//!   peer-ark convert --curve C [--group G] --in P --out Q --to compressed|uncompressed
//!   peer-ark msm --curve C [--group G] --points P --scalars S [--point-format F] [--repeat R]
//!
//! C is bls12-377, bls12-381 or bn254, G is g1 (the default) or g2. Points
//! are concatenated arkworks canonical affine encodings of the group, scalars
//! 32-byte little-endian integers below r: the formats of `zkmsm gen`.

use ark_ec::{scalar_mul::ScalarMul, CurveGroup, PrimeGroup, VariableBaseMSM};
use ark_ff::{BigInteger, PrimeField};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize, Compress, Validate};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;
use zkmsm_peers::*;

fn compress_flag(fmt: &str) -> Compress {
    match fmt {
        "compressed" => Compress::Yes,
        "uncompressed" => Compress::No,
        _ => die("point format must be compressed or uncompressed"),
    }
}

fn encode<A: CanonicalSerialize + Sync>(points: &[A], c: Compress) -> Vec<u8> {
    points
        .par_iter()
        .map(|p| {
            let mut v = Vec::new();
            p.serialize_with_mode(&mut v, c).unwrap();
            v
        })
        .flatten()
        .collect()
}

/// Decodes points; subgroup checks are skipped for speed when `check` is false.
fn decode<A: CanonicalDeserialize + CanonicalSerialize + Default + Send>(
    bytes: &[u8],
    c: Compress,
    check: bool,
) -> Vec<A> {
    let size = A::default().serialized_size(c);
    if bytes.len() % size != 0 {
        die(&format!("point file length {} is not a multiple of {size}", bytes.len()));
    }
    let v = if check { Validate::Yes } else { Validate::No };
    bytes
        .par_chunks_exact(size)
        .enumerate()
        .map(|(i, b)| A::deserialize_with_mode(b, c, v).unwrap_or_else(|e| die(&format!("point {i}: {e}"))))
        .collect()
}

macro_rules! curve_impl {
    ($mod:ident, $ark:ident, $affine:ident, $projective:ident) => {
        mod $mod {
            use super::*;
            use $ark::{$affine as G1Affine, $projective as G1Projective, Fr};

            /// Uniform scalars below r and points s_i * G for uniform s_i: uniform
            /// points of the prime-order subgroup.
            pub fn gen(log_n: usize, seed: u64) -> (Vec<G1Affine>, Vec<u8>) {
                let n = 1usize << log_n;
                let mut rng = ChaCha20Rng::seed_from_u64(seed);
                let mut scalars = Vec::with_capacity(32 * n);
                let mut sks = Vec::with_capacity(n);
                for _ in 0..n {
                    scalars.extend_from_slice(&uniform_scalar(&mut rng));
                    sks.push(Fr::from_le_bytes_mod_order(&uniform_scalar(&mut rng)));
                }
                let points = G1Projective::generator().batch_mul(&sks);
                (points, scalars)
            }

            fn uniform_scalar(rng: &mut ChaCha20Rng) -> [u8; 32] {
                // rejection sampling below r
                let r = Fr::MODULUS.to_bytes_le();
                let top_bits = Fr::MODULUS_BIT_SIZE as usize;
                loop {
                    let mut b: [u8; 32] = rng.gen();
                    for bit in top_bits..256 {
                        b[bit / 8] &= !(1u8 << (bit % 8));
                    }
                    // b < r as little-endian integers
                    if b.iter().rev().cmp(r.iter().rev()) == std::cmp::Ordering::Less {
                        return b;
                    }
                }
            }

            pub fn encode_points(p: &[G1Affine], c: Compress) -> Vec<u8> {
                encode(p, c)
            }

            pub fn convert(bytes: &[u8], from: Compress, to: Compress) -> Vec<u8> {
                encode(&decode::<G1Affine>(bytes, from, false), to)
            }

            pub fn msm(points: &[u8], c: Compress, scalars: &[u8], repeat: usize) -> (String, f64, Vec<f64>, usize) {
                let bases = decode::<G1Affine>(points, c, false);
                let sc: Vec<Fr> = scalar_chunks(scalars).iter().map(|b| Fr::from_le_bytes_mod_order(b)).collect();
                if sc.len() != bases.len() {
                    die(&format!("{} points but {} scalars", bases.len(), sc.len()));
                }
                let (res, med, runs) = time_runs(repeat, || G1Projective::msm(&bases, &sc).unwrap());
                let mut out = Vec::new();
                res.into_affine().serialize_compressed(&mut out).unwrap();
                (hex(&out), med, runs, sc.len())
            }
        }
    };
}

curve_impl!(c377, ark_bls12_377, G1Affine, G1Projective);
curve_impl!(c381, ark_bls12_381, G1Affine, G1Projective);
curve_impl!(c254, ark_bn254, G1Affine, G1Projective);
curve_impl!(c377g2, ark_bls12_377, G2Affine, G2Projective);
curve_impl!(c381g2, ark_bls12_381, G2Affine, G2Projective);
curve_impl!(c254g2, ark_bn254, G2Affine, G2Projective);

fn main() {
    let a = Args::parse();
    let curve = a.get("curve");
    let group = a.get_or("group", "g1");
    let key = format!("{curve} {group}");
    match a.sub.as_str() {
        "gen" => {
            let log_n = a.usize_or("log-n", 12);
            let seed = a.usize_or("seed", 1) as u64;
            let c = compress_flag(&a.get_or("point-format", "compressed"));
            macro_rules! gen {
                ($m:ident) => {{
                    let (p, s) = $m::gen(log_n, seed);
                    ($m::encode_points(&p, c), s)
                }};
            }
            let (pts, sc) = match key.as_str() {
                "bls12-377 g1" => gen!(c377),
                "bls12-381 g1" => gen!(c381),
                "bn254 g1" => gen!(c254),
                "bls12-377 g2" => gen!(c377g2),
                "bls12-381 g2" => gen!(c381g2),
                "bn254 g2" => gen!(c254g2),
                _ => die("unknown curve or group"),
            };
            std::fs::write(a.get("points"), pts).unwrap_or_else(|e| die(&e.to_string()));
            std::fs::write(a.get("scalars"), sc).unwrap_or_else(|e| die(&e.to_string()));
        }
        "convert" => {
            let to = compress_flag(&a.get("to"));
            let from = if to == Compress::Yes { Compress::No } else { Compress::Yes };
            let input = read(&a.get("in"));
            let out = match key.as_str() {
                "bls12-377 g1" => c377::convert(&input, from, to),
                "bls12-381 g1" => c381::convert(&input, from, to),
                "bn254 g1" => c254::convert(&input, from, to),
                "bls12-377 g2" => c377g2::convert(&input, from, to),
                "bls12-381 g2" => c381g2::convert(&input, from, to),
                "bn254 g2" => c254g2::convert(&input, from, to),
                _ => die("unknown curve or group"),
            };
            std::fs::write(a.get("out"), out).unwrap_or_else(|e| die(&e.to_string()));
        }
        "msm" => {
            let c = compress_flag(&a.get_or("point-format", "uncompressed"));
            let pts = read(&a.get("points"));
            let sc = read(&a.get("scalars"));
            let repeat = a.usize_or("repeat", 5);
            let (res, med, runs, n) = match key.as_str() {
                "bls12-377 g1" => c377::msm(&pts, c, &sc, repeat),
                "bls12-381 g1" => c381::msm(&pts, c, &sc, repeat),
                "bn254 g1" => c254::msm(&pts, c, &sc, repeat),
                "bls12-377 g2" => c377g2::msm(&pts, c, &sc, repeat),
                "bls12-381 g2" => c381g2::msm(&pts, c, &sc, repeat),
                "bn254 g2" => c254g2::msm(&pts, c, &sc, repeat),
                _ => die("unknown curve or group"),
            };
            report("arkworks", &curve, n, &res, med, &runs);
        }
        s => die(&format!("unknown subcommand {s}")),
    }
}
