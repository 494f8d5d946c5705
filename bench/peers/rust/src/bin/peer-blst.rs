//! blst peer runner (BLS12-381 only): Pippenger over `[blst_p1_affine]`, the
//! same code path as `p1_affines::mult`, on blst's thread pool (all cores).
//!
//!   peer-blst msm --curve bls12-381 --points P --scalars S [--repeat R]
//!
//! P holds uncompressed points (96-byte Zcash encoding = arkworks' BLS12-381
//! uncompressed encoding); S holds 32-byte little-endian scalars (blst's own
//! scalar byte order).

use blst::{blst_p1, blst_p1_affine, blst_p1_compress, blst_p1_deserialize, MultiPoint, BLST_ERROR};
use zkmsm_peers::*;

fn main() {
    let a = Args::parse();
    if a.sub != "msm" {
        die("only the msm subcommand exists");
    }
    let curve = a.get("curve");
    if curve != "bls12-381" {
        die("blst implements BLS12-381 only");
    }
    let pts = read(&a.get("points"));
    let sc = read(&a.get("scalars"));
    let repeat = a.usize_or("repeat", 5);
    if pts.len() % 96 != 0 || pts.len() / 96 != sc.len() / 32 || sc.len() % 32 != 0 {
        die("want 96-byte uncompressed points and as many 32-byte scalars");
    }
    let n = sc.len() / 32;
    let points: Vec<blst_p1_affine> = pts
        .chunks_exact(96)
        .enumerate()
        .map(|(i, b)| {
            let mut p = blst_p1_affine::default();
            // Safety: `b` is 96 readable bytes, `p` a valid output location.
            let e = unsafe { blst_p1_deserialize(&mut p, b.as_ptr()) };
            if e != BLST_ERROR::BLST_SUCCESS {
                die(&format!("point {i}: {e:?}"));
            }
            p
        })
        .collect();
    let (res, med, runs): (blst_p1, f64, Vec<f64>) = time_runs(repeat, || points.as_slice().mult(&sc, 255));
    let mut out = [0u8; 48];
    // Safety: 48-byte output buffer, valid input point.
    unsafe { blst_p1_compress(out.as_mut_ptr(), &res) };
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let runs_s: Vec<String> = runs.iter().map(|r| format!("{r:.3}")).collect();
    println!(
        "{{\"impl\":\"blst\",\"curve\":\"{curve}\",\"n\":{n},\"threads\":{threads},\"result\":\"{}\",\"msm_ms\":{med:.3},\"runs_ms\":[{}]}}",
        hex(&out),
        runs_s.join(",")
    );
}
