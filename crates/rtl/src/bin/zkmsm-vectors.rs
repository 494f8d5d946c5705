//! zkmsm-vectors KIND COUNT SEED OUT
//! zkmsm-vectors params OUT      (the C++ header generated from rtl/src/zk_params.svh)
//! zkmsm-vectors msm-cases CMAX SEED OUT       (whole MSMs for zk_msm_file_tb)
//! zkmsm-vectors msm-check CMAX SEED BUCKETS   (its buckets checked; exit 1 on a mismatch)
//!
//! Writes reference vectors for the RTL test benches (see docs/RTL.md):
//!   mul    "a b c"                         c = a*b/2^384 mod q
//!   addsub "a b s d"                       s = a+b mod q, d = a-b mod q
//!   padd   "sub tag X1 Y1 Z1 T1 ymx ypx kxy X3 Y3 Z3 T3"
//!   aff381, aff377          "sub tag binf bx by px py oinf ox oy" (zk_dp_aff, BLS12-381 / -377)
//!   aff381-acc, aff377-acc  "op b sub px py" ... "fin b inf x y": COUNT operations on
//!                           COUNT / 6 buckets, the final buckets (zk_aff_tb acc)
//! COUNT random operations are generated in addition to the edge cases.

use rand::SeedableRng;
use std::io::{BufWriter, Write};
use zkmsm_curve::{Bls12_377, Bls12_381, SwCurve};
use zkmsm_rtl::*;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 3 && args[1] == "params" {
        let text = std::fs::read_to_string(zkmsm_rtl::params::svh_path()).expect("read zk_params.svh");
        let params = zkmsm_rtl::params::parse_svh(&text).unwrap_or_else(|e| {
            eprintln!("zkmsm-vectors: {e}");
            std::process::exit(1);
        });
        std::fs::write(&args[2], zkmsm_rtl::params::cpp_header(&params)).expect("write header");
        eprintln!("zkmsm-vectors: wrote {}", args[2]);
        return;
    }
    if args.len() == 5 && (args[1] == "msm-cases" || args[1] == "msm-check") {
        msm_file(&args[1], &args[2], &args[3], &args[4]);
        return;
    }
    if args.len() != 5 {
        eprintln!(
            "usage: zkmsm-vectors mul|addsub|padd|aff381|aff377|aff381-acc|aff377-acc COUNT SEED OUT | \
             zkmsm-vectors params OUT | \
             zkmsm-vectors msm-cases CMAX SEED OUT | zkmsm-vectors msm-check CMAX SEED BUCKETS"
        );
        std::process::exit(2);
    }
    let count: usize = args[2].parse().expect("COUNT");
    let seed: u64 = args[3].parse().expect("SEED");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut w = BufWriter::new(std::fs::File::create(&args[4]).expect("create OUT"));
    let mut n = 0usize;
    match args[1].as_str() {
        "mul" => {
            for (a, b, c) in mul_vectors(&mut rng, count) {
                writeln!(w, "{} {} {}", hex(&a), hex(&b), hex(&c)).unwrap();
                n += 1;
            }
        }
        "addsub" => {
            for (a, b, s, d) in addsub_vectors(&mut rng, count) {
                writeln!(w, "{} {} {} {}", hex(&a), hex(&b), hex(&s), hex(&d)).unwrap();
                n += 1;
            }
        }
        "padd" => {
            let vs = padd_vectors(&mut rng, count, 64);
            // the formula's output is also checked as a point addition, on a sample
            for v in vs.iter().step_by(97) {
                assert!(padd_semantic_check(v), "reference point addition mismatch");
            }
            for v in &vs {
                write!(w, "{} {:08x}", v.sub as u8, v.tag).unwrap();
                for c in v.p1.iter().chain(v.p2.iter()).chain(v.out.iter()) {
                    write!(w, " {}", hex(c)).unwrap();
                }
                writeln!(w).unwrap();
                n += 1;
            }
        }
        "aff381" => n = aff_stream::<Bls12_381, _>(&mut rng, count, &mut w),
        "aff377" => n = aff_stream::<Bls12_377, _>(&mut rng, count, &mut w),
        "aff381-acc" => n = aff_acc::<Bls12_381, _>(&mut rng, count, &mut w),
        "aff377-acc" => n = aff_acc::<Bls12_377, _>(&mut rng, count, &mut w),
        k => {
            eprintln!("unknown kind {k}");
            std::process::exit(2);
        }
    }
    w.flush().unwrap();
    eprintln!("zkmsm-vectors: wrote {n} {} vectors to {}", args[1], args[4]);
}

/// Independent affine additions (edge cases first); returns the number written.
fn aff_stream<C: SwCurve<Base: zkmsm_field::PrimeField>, W: Write>(
    rng: &mut rand_chacha::ChaCha8Rng,
    count: usize,
    w: &mut W,
) -> usize {
    let vs = aff::aff_vectors::<C, _>(rng, count);
    aff::write_stream(rng, w, &vs).expect("write OUT");
    vs.len()
}

/// Bucket accumulation: `count` operations, 6 per bucket; returns the operation count.
fn aff_acc<C: SwCurve<Base: zkmsm_field::PrimeField>, W: Write>(
    rng: &mut rand_chacha::ChaCha8Rng,
    count: usize,
    w: &mut W,
) -> usize {
    let case = aff::aff_acc_case::<C, _>(rng, count.div_ceil(6).max(1), 6);
    aff::write_acc(w, &case).expect("write OUT");
    case.ops.len()
}

/// Whole MSMs for a core simulated outside cargo (`zkmsm_rtl::msm_file`).
fn msm_file(kind: &str, cmax: &str, seed: &str, path: &str) {
    let fail = |e: String| -> ! {
        eprintln!("zkmsm-vectors {kind}: {e}");
        std::process::exit(1);
    };
    let cmax: u32 = cmax.parse().unwrap_or_else(|_| fail(format!("CMAX {cmax:?} is not a number")));
    if !(1..=20).contains(&cmax) {
        fail(format!("CMAX {cmax} out of range 1..=20"));
    }
    let seed: u64 = seed.parse().unwrap_or_else(|_| fail(format!("SEED {seed:?} is not a number")));
    let cases = zkmsm_rtl::msm_file::cases(seed);
    if kind == "msm-cases" {
        std::fs::write(path, zkmsm_rtl::msm_file::write_cases(&cases, cmax))
            .unwrap_or_else(|e| fail(format!("{path}: {e}")));
        eprintln!("zkmsm-vectors: wrote {} MSM cases to {path}", cases.len());
        return;
    }
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(format!("{path}: {e}")));
    match zkmsm_rtl::msm_file::check(&cases, cmax, &text) {
        Ok(done) => {
            for c in &done {
                println!(
                    "{}: n {} c {} windows {} on {} core(s): {} additions, {} accumulation cycles = model, result = CPU engine",
                    c.name, c.n, c.c, c.windows, c.cores, c.additions, c.acc_cycles
                );
            }
            println!("zkmsm-vectors msm-check: {} MSMs equal to the CPU engine and the model", done.len());
        }
        Err(e) => fail(e),
    }
}
