//! halo2curves peer runner (BN254 only, halo2curves' `bn256`): `msm_best`,
//! the MSM halo2's provers call, on rayon's thread pool (all cores).
//!
//!   peer-halo2 msm --curve bn254 --points P --scalars S [--point-format F] [--repeat R]
//!
//! P holds arkworks canonical BN254 G1 affine encodings (ark-bn254 0.5):
//! little-endian coordinates, flags in the top two bits of the last byte
//! (bit 6: point at infinity, bit 7: y is the lexicographically largest
//! root); uncompressed = x || y (64 bytes), compressed = x (32 bytes). S holds
//! 32-byte little-endian scalars below r. The result is printed as the hex of
//! the arkworks compressed encoding, like every other runner.

use halo2curves::bn256::{Fq, Fr, G1Affine};
use halo2curves::ff::Field;
use halo2curves::group::{prime::PrimeCurveAffine, Curve};
use halo2curves::msm::msm_best;
use halo2curves::CurveAffine;
use rayon::prelude::*;
use zkmsm_peers::*;

const INFINITY: u8 = 1 << 6;
const Y_LARGEST: u8 = 1 << 7;

/// y is the lexicographically largest of {y, -y}: y > (q-1)/2.
fn largest(y: &Fq) -> bool {
    let (a, b) = (y.to_bytes(), (-*y).to_bytes());
    a.iter().rev().cmp(b.iter().rev()) == std::cmp::Ordering::Greater
}

/// A little-endian field element whose last byte carries arkworks' flags:
/// (element with the flags cleared, flags).
fn field_with_flags(b: &[u8], what: &str, i: usize) -> (Fq, u8) {
    let mut x: [u8; 32] = b.try_into().unwrap();
    let flags = x[31] & (INFINITY | Y_LARGEST);
    x[31] &= !(INFINITY | Y_LARGEST);
    let f = Option::from(Fq::from_bytes(&x)).unwrap_or_else(|| die(&format!("point {i}: {what} is not below q")));
    (f, flags)
}

fn decode_point(b: &[u8], compressed: bool, i: usize) -> G1Affine {
    if compressed {
        let (x, flags) = field_with_flags(b, "x", i);
        if flags & INFINITY != 0 {
            return G1Affine::identity();
        }
        // y^2 = x^3 + 3
        let y2 = x.square() * x + Fq::from(3u64);
        let y: Fq = Option::from(y2.sqrt()).unwrap_or_else(|| die(&format!("point {i}: x is not on the curve")));
        let y = if largest(&y) == (flags & Y_LARGEST != 0) { y } else { -y };
        G1Affine { x, y }
    } else {
        let x = field_with_flags(&b[..32], "x", i).0;
        let (y, flags) = field_with_flags(&b[32..], "y", i);
        if flags & INFINITY != 0 {
            return G1Affine::identity();
        }
        Option::from(G1Affine::from_xy(x, y)).unwrap_or_else(|| die(&format!("point {i} is not on the curve")))
    }
}

/// arkworks' compressed encoding: x little-endian, bit 7 of the last byte =
/// y is the larger root; infinity = zero with bit 6 set.
fn encode_compressed(p: &G1Affine) -> [u8; 32] {
    let mut out = [0u8; 32];
    if bool::from(p.is_identity()) {
        out[31] = INFINITY;
    } else {
        out = p.x.to_bytes();
        if largest(&p.y) {
            out[31] |= Y_LARGEST;
        }
    }
    out
}

fn main() {
    let a = Args::parse();
    if a.sub != "msm" {
        die("only the msm subcommand exists");
    }
    let curve = a.get("curve");
    if curve != "bn254" {
        die("the halo2curves runner implements BN254 only");
    }
    let compressed = match a.get_or("point-format", "uncompressed").as_str() {
        "compressed" => true,
        "uncompressed" => false,
        _ => die("point format must be compressed or uncompressed"),
    };
    let size = if compressed { 32 } else { 64 };
    let pts = read(&a.get("points"));
    let sc = read(&a.get("scalars"));
    let repeat = a.usize_or("repeat", 5);
    if pts.len() % size != 0 {
        die(&format!("point file length {} is not a multiple of {size}", pts.len()));
    }
    let bases: Vec<G1Affine> =
        pts.par_chunks_exact(size).enumerate().map(|(i, b)| decode_point(b, compressed, i)).collect();
    let coeffs: Vec<Fr> = scalar_chunks(&sc)
        .iter()
        .enumerate()
        .map(|(i, b)| Option::from(Fr::from_bytes(b)).unwrap_or_else(|| die(&format!("scalar {i} is not below r"))))
        .collect();
    if coeffs.len() != bases.len() {
        die(&format!("{} points but {} scalars", bases.len(), coeffs.len()));
    }
    let (res, med, runs) = time_runs(repeat, || msm_best(&coeffs, &bases));
    let out = encode_compressed(&res.to_affine());
    report("halo2curves", &curve, coeffs.len(), &hex(&out), med, &runs);
}
