//! Field multiplication throughput, ns per element, one thread (thread CPU
//! time, so that other processes on a shared machine matter less): the scalar
//! Montgomery code against the four-lane FMA arithmetic (and, where present,
//! the eight-lane IFMA arithmetic, products and squares: one or more chains
//! called in turn, and the interleaved two-chain `mul2`/`square2` that the
//! square roots' exponentiation runs), with the core clock before and after
//! (see common.rs) to give them in cycles.
//!
//!     cargo bench -p zkmsm --bench field_lanes

#[path = "common.rs"]
mod common;
use common::thread_time;
use std::hint::black_box;
use zkmsm::backend::lanes::field51::{from_lanes, Consts, Fe4, Field51};
use zkmsm::backend::lanes::ifma::field52::{from_lanes as ifma_from_lanes, Fe8, Field52, VConsts};
use zkmsm::backend::lanes::ifma::ops::{Avx512, Ifma};
use zkmsm::backend::lanes::simd::{Kernel, Simd};
use zkmsm_field::{Bls12_377Fq, Bls12_381Fq, PrimeField};

#[inline(always)]
/// Minimum over rounds of the time per operation of `f` (which does `ops` operations).
fn best(rounds: usize, ops: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = thread_time();
        f();
        best = best.min((thread_time() - t) / ops as f64);
    }
    best * 1e9
}

const ITERS: usize = 2000;

fn scalar<F: PrimeField>(name: &str) {
    // 8 independent chains: throughput, as the batch-affine passes need it
    let mut x: [F; 8] = core::array::from_fn(|i| F::from_u64(i as u64 + 3));
    let y = F::from_u64(12345).inverse().unwrap();
    let t = best(200, 8 * ITERS, || {
        for _ in 0..ITERS {
            for v in x.iter_mut() {
                *v *= y;
            }
        }
        black_box(&x);
    });
    let tc = best(200, ITERS, || {
        let mut v = x[0];
        for _ in 0..ITERS {
            v *= y;
        }
        black_box(v);
    });
    println!("{name:>12} scalar mul: {t:6.1} ns/element (8 chains), {tc:6.1} ns (one chain)");
}

/// ITERS rounds of CHAINS independent 4-lane products (or squares).
struct MulLoop<'a, S: Simd, const CHAINS: usize> {
    k: &'a Consts<S>,
    y: Fe4<S>,
    square: bool,
}

impl<S: Simd, const CHAINS: usize> Kernel for MulLoop<'_, S, CHAINS> {
    type Output = [Fe4<S>; CHAINS];
    #[inline(always)]
    fn run(self) -> [Fe4<S>; CHAINS] {
        let mut a = [self.y; CHAINS];
        let k = self.k;
        for _ in 0..ITERS {
            // SAFETY: run through S::run only.
            unsafe {
                if CHAINS == 2 {
                    (a[0], a[1]) =
                        if self.square { k.square2(&a[0], &a[1]) } else { k.mul2(&a[0], &self.y, &a[1], &self.y) };
                } else {
                    for v in a.iter_mut() {
                        *v = if self.square { k.square(v) } else { k.mul(v, &self.y) };
                    }
                }
            }
        }
        a
    }
}

fn lanes<F: PrimeField, S: Simd>(name: &str) {
    if !S::available() {
        return;
    }
    let f = Field51::<F>::new().unwrap();
    let vals: [_; 4] = core::array::from_fn(|i| f.to_limbs(&F::from_u64(i as u64 + 7).inverse().unwrap()));
    // SAFETY: available() checked.
    unsafe {
        let k = f.consts::<S>();
        let y: Fe4<S> = from_lanes(&vals);
        let t1 = best(100, 4 * ITERS, || {
            black_box(S::run(MulLoop::<S, 1> { k: &k, y, square: false }));
        });
        let t2 = best(100, 8 * ITERS, || {
            black_box(S::run(MulLoop::<S, 2> { k: &k, y, square: false }));
        });
        let ts = best(100, 8 * ITERS, || {
            black_box(S::run(MulLoop::<S, 2> { k: &k, y, square: true }));
        });
        println!(
            "{name:>12} {:>8} mul: {t2:6.1} ns/element (mul2: 2 chains of 4 lanes), {t1:6.1} (1 chain); square {ts:6.1}",
            S::NAME
        );
    }
}

/// ITERS rounds of CHAINS independent 8-lane IFMA products (or squares).
struct IfmaLoop<'a, S: Ifma, const CHAINS: usize> {
    k: &'a VConsts<S>,
    y: Fe8<S>,
    square: bool,
}

impl<S: Ifma, const CHAINS: usize> Kernel for IfmaLoop<'_, S, CHAINS> {
    type Output = [Fe8<S>; CHAINS];
    #[inline(always)]
    fn run(self) -> [Fe8<S>; CHAINS] {
        let mut a = [self.y; CHAINS];
        let k = self.k;
        for _ in 0..ITERS {
            // SAFETY: run through S::run only.
            unsafe {
                for v in a.iter_mut() {
                    *v = if self.square { k.square(v) } else { k.mul(v, &self.y) };
                }
            }
        }
        a
    }
}

/// ITERS rounds of the interleaved two-chain forms the roots' exponentiation
/// runs ([`VConsts::square2`], or [`VConsts::mul2`] by a constant): the two
/// chains' rows and rounds woven in the code, where [`IfmaLoop`] calls the
/// one-chain form once per chain. SQUARE is a constant: with a run-time
/// flag both forms share one loop, and its register allocation costs the
/// square 25% (4.07 ns/element against 3.19, Zen 5).
struct IfmaPair<'a, S: Ifma, const SQUARE: bool> {
    k: &'a VConsts<S>,
    y: Fe8<S>,
}

impl<S: Ifma, const SQUARE: bool> Kernel for IfmaPair<'_, S, SQUARE> {
    type Output = [Fe8<S>; 2];
    #[inline(always)]
    fn run(self) -> [Fe8<S>; 2] {
        let (k, y) = (self.k, self.y);
        let mut a = [y; 2];
        for _ in 0..ITERS {
            // SAFETY: run through S::run only.
            let (p, q) = unsafe {
                if SQUARE {
                    k.square2(&a[0], &a[1])
                } else {
                    k.mul2(&a[0], &y, &a[1], &y)
                }
            };
            a = [p, q];
        }
        a
    }
}

fn ifma_lanes<F: PrimeField, S: Ifma>(name: &str) {
    if !S::available() {
        return;
    }
    let f = Field52::<F>::new().unwrap();
    let vals: [_; 8] = core::array::from_fn(|i| f.to_limbs52(&F::from_u64(i as u64 + 7).inverse().unwrap()));
    // SAFETY: available() checked.
    unsafe {
        let k = f.vconsts::<S>();
        let y: Fe8<S> = ifma_from_lanes(&vals);
        let t1 = best(100, 8 * ITERS, || {
            black_box(S::run(IfmaLoop::<S, 1> { k: &k, y, square: false }));
        });
        let t2 = best(100, 16 * ITERS, || {
            black_box(S::run(IfmaLoop::<S, 2> { k: &k, y, square: false }));
        });
        let t4 = best(100, 32 * ITERS, || {
            black_box(S::run(IfmaLoop::<S, 4> { k: &k, y, square: false }));
        });
        let s1 = best(100, 8 * ITERS, || {
            black_box(S::run(IfmaLoop::<S, 1> { k: &k, y, square: true }));
        });
        let s2 = best(100, 16 * ITERS, || {
            black_box(S::run(IfmaLoop::<S, 2> { k: &k, y, square: true }));
        });
        let m2 = best(100, 16 * ITERS, || {
            black_box(S::run(IfmaPair::<S, false> { k: &k, y }));
        });
        let q2 = best(100, 16 * ITERS, || {
            black_box(S::run(IfmaPair::<S, true> { k: &k, y }));
        });
        println!(
            "{name:>12} {:>8} mul: {t2:6.2} ns/element (2 chains of 8 lanes), {t4:6.2} (4 chains), {t1:6.2} (1 chain); \
             square {s2:6.2} (2 chains), {s1:6.2} (1 chain); interleaved (the roots'): mul2 {m2:6.2}, square2 {q2:6.2}",
            S::NAME
        );
    }
}

fn main() {
    #[cfg(target_arch = "x86_64")]
    black_box([
        probes::zkmsm_probe_mul1 as *const (),
        probes::zkmsm_probe_mul2 as *const (),
        probes::zkmsm_probe_sq1 as *const (),
    ]);
    #[cfg(target_arch = "x86_64")]
    println!("core clock {:.3} GHz (dependent add chain)", common::clock_ghz());
    scalar::<Bls12_377Fq>("bls12-377 Fq");
    scalar::<Bls12_381Fq>("bls12-381 Fq");
    lanes::<Bls12_377Fq, zkmsm::backend::lanes::simd::Portable>("bls12-377 Fq");
    #[cfg(target_arch = "x86_64")]
    {
        lanes::<Bls12_377Fq, zkmsm::backend::lanes::simd::Avx2>("bls12-377 Fq");
        lanes::<Bls12_381Fq, zkmsm::backend::lanes::simd::Avx2>("bls12-381 Fq");
        ifma_lanes::<Bls12_377Fq, Avx512>("bls12-377 Fq");
        ifma_lanes::<Bls12_381Fq, Avx512>("bls12-381 Fq");
        println!("core clock after: {:.3} GHz", common::clock_ghz());
    }
}

/// Straight-line single operations, for static analysis of the generated code
/// (`llvm-mca -mcpu=znver3` on their disassembly).
///
/// # Safety
///
/// Only on CPUs with AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::missing_safety_doc)]
pub mod probes {
    use zkmsm::backend::lanes::field51::{Consts, Fe4};
    use zkmsm::backend::lanes::simd::Avx2;

    #[no_mangle]
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn zkmsm_probe_mul1(k: &Consts<Avx2>, a: &Fe4<Avx2>, b: &Fe4<Avx2>, out: &mut Fe4<Avx2>) {
        *out = k.mul(a, b);
    }

    #[no_mangle]
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn zkmsm_probe_mul2(k: &Consts<Avx2>, a: &[Fe4<Avx2>; 4], out: &mut [Fe4<Avx2>; 2]) {
        let (x, y) = k.mul2(&a[0], &a[1], &a[2], &a[3]);
        *out = [x, y];
    }

    #[no_mangle]
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn zkmsm_probe_sq1(k: &Consts<Avx2>, a: &Fe4<Avx2>, out: &mut Fe4<Avx2>) {
        *out = k.square(a);
    }
}
