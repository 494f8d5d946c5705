//! blst peer runner (BLS12-381 only): Pippenger over `[blst_p1_affine]` or
//! `[blst_p2_affine]`, the code path of `p1_affines::mult` / `p2_affines`,
//! on blst's thread pool (all cores).
//!
//!   peer-blst msm --curve bls12-381 [--group g1|g2] --points P --scalars S [--repeat R]
//!
//! P holds uncompressed points (the 96- or 192-byte Zcash encoding =
//! arkworks' BLS12-381 uncompressed encoding); S holds 32-byte little-endian
//! scalars (blst's own scalar byte order).

use blst::{
    blst_p1, blst_p1_affine, blst_p1_compress, blst_p1_deserialize, blst_p2, blst_p2_affine, blst_p2_compress,
    blst_p2_deserialize, MultiPoint, BLST_ERROR,
};
use zkmsm_peers::*;

/// Decodes `size`-byte points with `deserialize` (which checks the curve,
/// not the subgroup: the inputs are the harness's own).
fn points<A: Default>(
    pts: &[u8],
    size: usize,
    deserialize: unsafe extern "C" fn(*mut A, *const u8) -> BLST_ERROR,
) -> Vec<A> {
    pts.chunks_exact(size)
        .enumerate()
        .map(|(i, b)| {
            let mut p = A::default();
            // Safety: `b` is `size` readable bytes, `p` a valid output location.
            let e = unsafe { deserialize(&mut p, b.as_ptr()) };
            if e != BLST_ERROR::BLST_SUCCESS {
                die(&format!("point {i}: {e:?}"));
            }
            p
        })
        .collect()
}

fn main() {
    let a = Args::parse();
    if a.sub != "msm" {
        die("only the msm subcommand exists");
    }
    let curve = a.get("curve");
    if curve != "bls12-381" {
        die("blst implements BLS12-381 only");
    }
    let g2 = match a.get_or("group", "g1").as_str() {
        "g1" => false,
        "g2" => true,
        _ => die("the group must be g1 or g2"),
    };
    let pts = read(&a.get("points"));
    let sc = read(&a.get("scalars"));
    let repeat = a.usize_or("repeat", 5);
    let size = if g2 { 192 } else { 96 };
    if pts.len() % size != 0 || pts.len() / size != sc.len() / 32 || sc.len() % 32 != 0 {
        die(&format!("want {size}-byte uncompressed points and as many 32-byte scalars"));
    }
    let n = sc.len() / 32;
    let (out, med, runs) = if g2 {
        let points: Vec<blst_p2_affine> = points(&pts, size, blst_p2_deserialize);
        let (res, med, runs): (blst_p2, f64, Vec<f64>) = time_runs(repeat, || points.as_slice().mult(&sc, 255));
        let mut out = [0u8; 96];
        // Safety: 96-byte output buffer, valid input point.
        unsafe { blst_p2_compress(out.as_mut_ptr(), &res) };
        (out.to_vec(), med, runs)
    } else {
        let points: Vec<blst_p1_affine> = points(&pts, size, blst_p1_deserialize);
        let (res, med, runs): (blst_p1, f64, Vec<f64>) = time_runs(repeat, || points.as_slice().mult(&sc, 255));
        let mut out = [0u8; 48];
        // Safety: 48-byte output buffer, valid input point.
        unsafe { blst_p1_compress(out.as_mut_ptr(), &res) };
        (out.to_vec(), med, runs)
    };
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let runs_s: Vec<String> = runs.iter().map(|r| format!("{r:.3}")).collect();
    println!(
        "{{\"impl\":\"blst\",\"curve\":\"{curve}\",\"n\":{n},\"threads\":{threads},\"result\":\"{}\",\"msm_ms\":{med:.3},\"runs_ms\":[{}]}}",
        hex(&out),
        runs_s.join(",")
    );
}
