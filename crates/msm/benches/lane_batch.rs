//! The bare cost of one lane batch (thread CPU time per addition): `batch`
//! additions into distinct occupied buckets, no scheduling, everything in
//! cache. What the lane engine costs beyond its multiplications. Runs the
//! four-lane FMA engine and, where the CPU has AVX-512 IFMA, the eight-lane
//! IFMA engine (512-bit, and as two 256-bit halves), each on BLS12-377 (eight limbs) and BN254 (six FMA limbs,
//! five IFMA limbs); and first measures the core clock while running (a chain of
//! dependent 1-cycle integer adds against this thread's CPU time, which a
//! preempted thread does not accrue) and the
//! latency and throughput of `vpmadd52luq`/`vpmadd52huq` at 512 and 256 bits, so that
//! nanoseconds can be given in cycles without hardware counters.
//!
//!     cargo bench -p zkmsm --bench lane_batch -- [batch] [rounds]

#[path = "common.rs"]
mod common;
use common::{add_chain, thread_time};
use zkmsm::backend::lanes::engine::{bare_batches, LanePoints};
use zkmsm::backend::lanes::ifma::{ops::Avx512, ops::Avx512Ymm, ops::Ifma, Ifma52};
use zkmsm::backend::lanes::{simd::Simd, Fma51, LaneField, NativeSimd};
use zkmsm::gen::random_points;
use zkmsm::{Bls12_377, Bn254, SwCurve};

/// Iterations of each vector probe loop (as many as the clock's add chain).
const ITERS: u64 = common::CHAIN_ITERS;

/// Probe [`vector_loop`] kinds besides the vpmadd52 chain counts 1, 10 and 12.
const ADDS_ONLY: usize = 0;
/// 100 vpmadd52 on 12 accumulators with 48 independent `vpaddq` between them.
const MIXED: usize = 100;

/// Seconds for `ITERS` iterations of a vector loop, 512-bit (`WIDE`) or
/// 256-bit (the same instructions on ymm registers). `CHAINS` = 1, 10, 12:
/// 100 `vpmadd52luq`/`vpmadd52huq` (alternating), one dependent chain
/// through the accumulator (latency) or as many independent accumulators
/// (throughput). [`ADDS_ONLY`]: 100 `vpaddq` on 10 independent accumulators
/// (the simple vector ALU's throughput). [`MIXED`]: the 12-chain vpmadd52
/// loop with 48 `vpaddq` on 6 other accumulators woven in (about the lane
/// kernel's ratio of other vector ALU work to vpmadd52): whether that work
/// runs beside the IFMA pipes or takes their slots.
#[target_feature(enable = "avx512f,avx512ifma,avx512vl")]
unsafe fn vector_loop<const CHAINS: usize, const WIDE: bool>() -> f64 {
    let t = thread_time();
    // `$w` names the register file: "zmm" or "ymm" (ymm16-21 need AVX-512 VL)
    macro_rules! probe {
        ($w:literal; $($body:expr),*) => {
            core::arch::asm!(
                "vpxorq zmm0, zmm0, zmm0", "vpxorq zmm1, zmm1, zmm1", "vpxorq zmm2, zmm2, zmm2",
                "vpxorq zmm3, zmm3, zmm3", "vpxorq zmm4, zmm4, zmm4", "vpxorq zmm5, zmm5, zmm5",
                "vpxorq zmm6, zmm6, zmm6", "vpxorq zmm7, zmm7, zmm7", "vpxorq zmm8, zmm8, zmm8",
                "vpxorq zmm9, zmm9, zmm9", "vpxorq zmm10, zmm10, zmm10", "vpxorq zmm11, zmm11, zmm11",
                "vpxorq zmm16, zmm16, zmm16", "vpxorq zmm17, zmm17, zmm17", "vpxorq zmm18, zmm18, zmm18",
                "vpxorq zmm19, zmm19, zmm19", "vpxorq zmm20, zmm20, zmm20", "vpxorq zmm21, zmm21, zmm21",
                "vpternlogq zmm14, zmm14, zmm14, 0xff",
                "vpsrlq zmm14, zmm14, 12",
                "vmovdqa64 zmm15, zmm14",
                "2:",
                $($body,)*
                "dec {n}",
                "jnz 2b",
                n = inout(reg) ITERS => _,
                out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _, out("zmm4") _,
                out("zmm5") _, out("zmm6") _, out("zmm7") _, out("zmm8") _, out("zmm9") _,
                out("zmm10") _, out("zmm11") _, out("zmm14") _, out("zmm15") _,
                out("zmm16") _, out("zmm17") _, out("zmm18") _, out("zmm19") _, out("zmm20") _,
                out("zmm21") _,
                options(nomem, nostack),
            )
        };
    }
    macro_rules! at_width {
        ($w:literal) => {
            match CHAINS {
                ADDS_ONLY => probe!($w;
                    ".rept 10", ".irp r, 0,1,2,3,4,5,6,7,8,9",
                    concat!("vpaddq ", $w, "\\r, ", $w, "\\r, ", $w, "14"), ".endr", ".endr"),
                MIXED => probe!($w;
                    ".rept 4",
                    ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11",
                    concat!("vpmadd52luq ", $w, "\\r, ", $w, "14, ", $w, "15"),
                    ".endr",
                    ".irp r, 16,17,18,19,20,21",
                    concat!("vpaddq ", $w, "\\r, ", $w, "\\r, ", $w, "14"),
                    ".endr",
                    ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11",
                    concat!("vpmadd52huq ", $w, "\\r, ", $w, "14, ", $w, "15"),
                    ".endr",
                    ".irp r, 16,17,18,19,20,21",
                    concat!("vpaddq ", $w, "\\r, ", $w, "\\r, ", $w, "14"),
                    ".endr",
                    ".endr",
                    ".rept 2",
                    concat!("vpmadd52luq ", $w, "0, ", $w, "14, ", $w, "15"),
                    concat!("vpmadd52huq ", $w, "1, ", $w, "14, ", $w, "15"),
                    ".endr"),
                1 => probe!($w;
                    ".rept 50",
                    concat!("vpmadd52luq ", $w, "0, ", $w, "14, ", $w, "15"),
                    concat!("vpmadd52huq ", $w, "0, ", $w, "14, ", $w, "15"),
                    ".endr"),
                10 => probe!($w;
                    ".rept 5",
                    ".irp r, 0,1,2,3,4,5,6,7,8,9",
                    concat!("vpmadd52luq ", $w, "\\r, ", $w, "14, ", $w, "15"),
                    ".endr",
                    ".irp r, 0,1,2,3,4,5,6,7,8,9",
                    concat!("vpmadd52huq ", $w, "\\r, ", $w, "14, ", $w, "15"),
                    ".endr",
                    ".endr"),
                _ => probe!($w;
                    ".rept 4",
                    ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11",
                    concat!("vpmadd52luq ", $w, "\\r, ", $w, "14, ", $w, "15"),
                    ".endr",
                    ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11",
                    concat!("vpmadd52huq ", $w, "\\r, ", $w, "14, ", $w, "15"),
                    ".endr",
                    ".endr",
                    ".rept 2",
                    concat!("vpmadd52luq ", $w, "0, ", $w, "14, ", $w, "15"),
                    concat!("vpmadd52huq ", $w, "1, ", $w, "14, ", $w, "15"),
                    ".endr"),
            }
        };
    }
    if WIDE {
        at_width!("zmm")
    } else {
        at_width!("ymm")
    }
    thread_time() - t
}

/// The vpmadd52 and vpaddq probes at one width: cycles per instruction and
/// per 64-bit lane product.
///
/// # Safety
///
/// Only where [`Avx512::available`] and AVX-512 VL.
unsafe fn probe_width<const WIDE: bool>(rounds: usize, n: f64, ghz: f64) {
    let (lat, _) = stats(rounds, || vector_loop::<1, WIDE>());
    let (t10, _) = stats(rounds, || vector_loop::<10, WIDE>());
    let (t12, _) = stats(rounds, || vector_loop::<12, WIDE>());
    let (adds, _) = stats(rounds, || vector_loop::<ADDS_ONLY, WIDE>());
    let (mixed, _) = stats(rounds, || vector_loop::<MIXED, WIDE>());
    let cyc = |s: f64| s / n * ghz * 1e9;
    let (bits, lanes) = if WIDE { (512, 8.0) } else { (256, 4.0) };
    println!(
        "vpmadd52 ({bits}-bit): latency {:.2} cycles (one chain); {:.2} cycles per instruction with 10 chains, {:.2} with 12 ({:.2} / {:.2} per cycle, {:.2} lane products per cycle)",
        cyc(lat),
        cyc(t10),
        cyc(t12),
        1.0 / cyc(t10),
        1.0 / cyc(t12),
        lanes / cyc(t12).min(cyc(t10))
    );
    println!(
        "vpaddq ({bits}-bit): {:.2} cycles per instruction with 10 chains ({:.2} per cycle); \
         100 vpmadd52 (12 chains) with 48 vpaddq beside them: {:.2} cycles per vpmadd52",
        cyc(adds),
        1.0 / cyc(adds),
        cyc(mixed)
    );
}

/// Median and best of `rounds` runs of `f`.
fn stats(rounds: usize, mut f: impl FnMut() -> f64) -> (f64, f64) {
    let mut v: Vec<f64> = (0..rounds).map(|_| f()).collect();
    v.sort_by(f64::total_cmp);
    (v[rounds / 2], v[0])
}

fn lane_batch<C: zkmsm::InputCurve<Base: zkmsm_field::PrimeField>, L: LaneField<C::Base>>(
    batch: usize,
    rounds: usize,
    ghz: f64,
) {
    let points = random_points::<C>(batch + 1, 1).points;
    let prepared = LanePoints::<C, L>::prepare(&points);
    let reps = 200_000 / batch;
    let (med, best) = stats(rounds, || {
        let t = thread_time();
        std::hint::black_box(bare_batches(&prepared, batch, reps));
        (thread_time() - t) / (reps * batch) as f64
    });
    println!(
        "{} lane batch of {batch} ({}): {:.1} ns per addition median, {:.1} best of {rounds}; {:.0} cycles median at {ghz:.2} GHz",
        C::NAME,
        L::NAME,
        med * 1e9,
        best * 1e9,
        med * 1e9 * ghz
    );
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let batch = args.first().copied().unwrap_or(256);
    let rounds = args.get(1).copied().unwrap_or(7).max(1);
    let n = (ITERS * 100) as f64;
    // the clock, before and after the engines (it may move with heat and load)
    let (add_med, add_best) = stats(rounds, add_chain);
    let ghz = n / add_med / 1e9;
    println!("core clock (dependent add chain): {ghz:.3} GHz median, {:.3} GHz best of {rounds}", n / add_best / 1e9);
    if Avx512::available() && std::arch::is_x86_feature_detected!("avx512vl") {
        // SAFETY: the features were detected.
        unsafe {
            probe_width::<true>(rounds, n, ghz);
            probe_width::<false>(rounds, n, ghz);
        }
    }
    type Fq377 = <Bls12_377 as SwCurve>::Base;
    type Fq254 = <Bn254 as SwCurve>::Base;
    if NativeSimd::available() {
        lane_batch::<Bls12_377, Fma51<Fq377, NativeSimd>>(batch, rounds, ghz);
        lane_batch::<Bn254, Fma51<Fq254, NativeSimd, 6>>(batch, rounds, ghz);
    }
    if Avx512::available() {
        lane_batch::<Bls12_377, Ifma52<Fq377, Avx512>>(batch, rounds, ghz);
        lane_batch::<Bn254, Ifma52<Fq254, Avx512, 5>>(batch, rounds, ghz);
    }
    if Avx512Ymm::available() {
        lane_batch::<Bls12_377, Ifma52<Fq377, Avx512Ymm>>(batch, rounds, ghz);
        lane_batch::<Bn254, Ifma52<Fq254, Avx512Ymm, 5>>(batch, rounds, ghz);
    }
    let (add_after, _) = stats(rounds, add_chain);
    println!("core clock after: {:.3} GHz median", n / add_after / 1e9);
    let _ = NativeSimd::NAME;
}
