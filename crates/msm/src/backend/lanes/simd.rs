//! Four 64-bit lanes, as doubles and as integers: the few operations the
//! double-precision field arithmetic ([`super::field51`]) needs, on AVX2 + FMA
//! (x86-64), on NEON (aarch64, two 128-bit registers per value) and in plain
//! Rust ([`Portable`], the reference the others are tested against).
//!
//! Every operation is `#[inline(always)]` so that, generic code instantiated
//! inside one `#[target_feature]` entry point ([`Simd::run`]), the whole
//! computation compiles to straight vector code.
//!
//! # Safety
//!
//! The operations of a type may only run where its [`Simd::available`] is
//! true, inside [`Simd::run`] (which enables the features); that is the only
//! reason they are `unsafe`. [`Simd::gather8`] and [`Simd::scatter8`] also
//! touch memory: see their own sections.
#![allow(clippy::missing_safety_doc)]

/// A computation to run with a [`Simd`]'s target features: implement
/// [`Kernel::run`] with `#[inline(always)]`, and write everything it calls as
/// `#[inline(always)]` functions without closures, so that the whole body is
/// compiled inside the entry point that enables the features ([`Simd::run`]).
/// (A closure is a function of its own, compiled without them unless the
/// compiler happens to inline it.)
pub trait Kernel {
    /// What the computation returns.
    type Output;
    /// The computation (inlined into [`Simd::run`]'s feature-enabled body).
    fn run(self) -> Self::Output;
}

/// Four lanes of f64 (`F`) and of u64 (`I`) with the operations the field
/// arithmetic uses.
pub trait Simd: Copy + Send + Sync + 'static {
    /// Four f64 lanes.
    type F: Copy;
    /// Four u64 lanes.
    type I: Copy;
    /// The name shown in backend names and benchmarks.
    const NAME: &'static str;

    /// Whether this CPU has what the operations need.
    fn available() -> bool;

    /// Run `k` with the target features enabled: the entry point of every
    /// computation.
    ///
    /// # Safety
    ///
    /// Only where [`Self::available`] is true.
    unsafe fn run<K: Kernel>(k: K) -> K::Output;

    /// `x` in every lane.
    unsafe fn splat_f(x: f64) -> Self::F;
    /// `x` in every lane.
    unsafe fn splat_i(x: u64) -> Self::I;
    /// Lane k = `x[k]`.
    unsafe fn set_i(x: [u64; 4]) -> Self::I;
    /// The integer lanes as an array.
    unsafe fn get_i(v: Self::I) -> [u64; 4];
    /// The double lanes as an array.
    unsafe fn get_f(v: Self::F) -> [f64; 4];
    /// a * b + c with one rounding.
    unsafe fn fma(a: Self::F, b: Self::F, c: Self::F) -> Self::F;
    /// a * b.
    unsafe fn mul_f(a: Self::F, b: Self::F) -> Self::F;
    /// a - b.
    unsafe fn sub_f(a: Self::F, b: Self::F) -> Self::F;
    /// Round toward minus infinity.
    unsafe fn floor_f(a: Self::F) -> Self::F;
    /// Maximum, lane-wise.
    unsafe fn max_f(a: Self::F, b: Self::F) -> Self::F;
    /// a + b, wrapping.
    unsafe fn add_i(a: Self::I, b: Self::I) -> Self::I;
    /// a - b, wrapping.
    unsafe fn sub_i(a: Self::I, b: Self::I) -> Self::I;
    /// a & b.
    unsafe fn and_i(a: Self::I, b: Self::I) -> Self::I;
    /// a | b.
    unsafe fn or_i(a: Self::I, b: Self::I) -> Self::I;
    /// a ^ b.
    unsafe fn xor_i(a: Self::I, b: Self::I) -> Self::I;
    /// Logical shift right by 51.
    unsafe fn shr51(a: Self::I) -> Self::I;
    /// Shift left by 32.
    unsafe fn shl32(a: Self::I) -> Self::I;
    /// Logical shift right by 32.
    unsafe fn shr32(a: Self::I) -> Self::I;
    /// Low 32 bits of a times low 32 bits of b, as 64 bits.
    unsafe fn mul_u32(a: Self::I, b: Self::I) -> Self::I;
    /// The bits of a double as an integer, and back.
    unsafe fn f_as_i(a: Self::F) -> Self::I;
    /// See [`Self::f_as_i`].
    unsafe fn i_as_f(a: Self::I) -> Self::F;

    /// The split limb product of [`super::field51`]: `hi = fma(a, b, c_hi)`,
    /// `lo = fma(a, b, c_lo - hi)`, `next += bits(hi)`, `cur += bits(lo)`.
    /// Implementations may write it as one block so that the compiler keeps
    /// the accumulations in program order (reassociated, they keep many
    /// partial products alive and spill).
    ///
    /// # Safety
    ///
    /// Besides [`Self::available`]: `b` points to a readable `Self::F`.
    #[inline(always)]
    unsafe fn mac(cur: &mut Self::I, next: &mut Self::I, a: Self::F, b: *const Self::F, c_hi: Self::F, c_lo: Self::F) {
        let b = *b;
        let hi = Self::fma(a, b, c_hi);
        let lo = Self::fma(a, b, Self::sub_f(c_lo, hi));
        *next = Self::add_i(*next, Self::f_as_i(hi));
        *cur = Self::add_i(*cur, Self::f_as_i(lo));
    }

    /// Eight consecutive u64 at each of four addresses, transposed: limb j of
    /// lane k is `*ptrs[k].add(j)`.
    ///
    /// # Safety
    ///
    /// Besides [`Self::available`]: each `ptrs[k]` must be valid for reading
    /// 64 bytes (eight u64), aligned to 8 bytes.
    unsafe fn gather8(ptrs: [*const u64; 4]) -> [Self::I; 8];

    /// The inverse of [`Self::gather8`]: limb j of lane k to `*ptrs[k].add(j)`.
    ///
    /// # Safety
    ///
    /// Besides [`Self::available`]: each `ptrs[k]` must be valid for writing
    /// 64 bytes, aligned to 8 bytes, and the four ranges must not overlap
    /// memory that any live reference points to.
    unsafe fn scatter8(ptrs: [*mut u64; 4], v: &[Self::I; 8]);
}

/// Plain Rust: the reference, and what tests run everywhere.
#[derive(Clone, Copy, Debug)]
pub struct Portable;

impl Simd for Portable {
    type F = [f64; 4];
    type I = [u64; 4];
    const NAME: &'static str = "portable";

    fn available() -> bool {
        true
    }
    #[inline(always)]
    unsafe fn run<K: Kernel>(k: K) -> K::Output {
        k.run()
    }
    #[inline(always)]
    unsafe fn splat_f(x: f64) -> [f64; 4] {
        [x; 4]
    }
    #[inline(always)]
    unsafe fn splat_i(x: u64) -> [u64; 4] {
        [x; 4]
    }
    #[inline(always)]
    unsafe fn set_i(x: [u64; 4]) -> [u64; 4] {
        x
    }
    #[inline(always)]
    unsafe fn get_i(v: [u64; 4]) -> [u64; 4] {
        v
    }
    #[inline(always)]
    unsafe fn get_f(v: [f64; 4]) -> [f64; 4] {
        v
    }
    #[inline(always)]
    unsafe fn fma(a: [f64; 4], b: [f64; 4], c: [f64; 4]) -> [f64; 4] {
        core::array::from_fn(|k| a[k].mul_add(b[k], c[k]))
    }
    #[inline(always)]
    unsafe fn mul_f(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
        core::array::from_fn(|k| a[k] * b[k])
    }
    #[inline(always)]
    unsafe fn sub_f(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
        core::array::from_fn(|k| a[k] - b[k])
    }
    #[inline(always)]
    unsafe fn floor_f(a: [f64; 4]) -> [f64; 4] {
        a.map(f64::floor)
    }
    #[inline(always)]
    unsafe fn max_f(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
        core::array::from_fn(|k| a[k].max(b[k]))
    }
    #[inline(always)]
    unsafe fn add_i(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
        core::array::from_fn(|k| a[k].wrapping_add(b[k]))
    }
    #[inline(always)]
    unsafe fn sub_i(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
        core::array::from_fn(|k| a[k].wrapping_sub(b[k]))
    }
    #[inline(always)]
    unsafe fn and_i(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
        core::array::from_fn(|k| a[k] & b[k])
    }
    #[inline(always)]
    unsafe fn or_i(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
        core::array::from_fn(|k| a[k] | b[k])
    }
    #[inline(always)]
    unsafe fn xor_i(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
        core::array::from_fn(|k| a[k] ^ b[k])
    }
    #[inline(always)]
    unsafe fn shr51(a: [u64; 4]) -> [u64; 4] {
        a.map(|x| x >> 51)
    }
    #[inline(always)]
    unsafe fn shl32(a: [u64; 4]) -> [u64; 4] {
        a.map(|x| x << 32)
    }
    #[inline(always)]
    unsafe fn shr32(a: [u64; 4]) -> [u64; 4] {
        a.map(|x| x >> 32)
    }
    #[inline(always)]
    unsafe fn mul_u32(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
        core::array::from_fn(|k| (a[k] as u32 as u64) * (b[k] as u32 as u64))
    }
    #[inline(always)]
    unsafe fn f_as_i(a: [f64; 4]) -> [u64; 4] {
        a.map(f64::to_bits)
    }
    #[inline(always)]
    unsafe fn i_as_f(a: [u64; 4]) -> [f64; 4] {
        a.map(f64::from_bits)
    }
    #[inline(always)]
    unsafe fn gather8(ptrs: [*const u64; 4]) -> [[u64; 4]; 8] {
        core::array::from_fn(|j| core::array::from_fn(|k| *ptrs[k].add(j)))
    }
    #[inline(always)]
    unsafe fn scatter8(ptrs: [*mut u64; 4], v: &[[u64; 4]; 8]) {
        for (j, limb) in v.iter().enumerate() {
            for (k, p) in ptrs.iter().enumerate() {
                *p.add(j) = limb[k];
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
pub use x86::Avx2;

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Kernel, Simd};
    use core::arch::x86_64::*;

    /// AVX2 and FMA: four lanes in one 256-bit register.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx2;

    #[target_feature(enable = "avx2,fma")]
    unsafe fn with_avx2<K: Kernel>(k: K) -> K::Output {
        k.run()
    }

    /// One split limb product as one block (see [`Simd::mac`]): a function
    /// of its own because `asm!` with vector registers needs the features
    /// where it is written; [`with_avx2`] callers inline it.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    unsafe fn mac_asm(
        cur: &mut __m256i,
        next: &mut __m256i,
        a: __m256d,
        b: *const __m256d,
        c_hi: __m256d,
        c_lo: __m256d,
    ) {
        // b as a memory operand of both FMAs: no instruction of its own
        core::arch::asm!(
            "vmovapd {hi}, {c_hi}",
            "vfmadd231pd {hi}, {a}, ymmword ptr [{b}]",
            "vsubpd {lo}, {c_lo}, {hi}",
            "vfmadd231pd {lo}, {a}, ymmword ptr [{b}]",
            "vpaddq {next}, {next}, {hi}",
            "vpaddq {cur}, {cur}, {lo}",
            a = in(ymm_reg) a,
            b = in(reg) b,
            c_hi = in(ymm_reg) c_hi,
            c_lo = in(ymm_reg) c_lo,
            hi = out(ymm_reg) _,
            lo = out(ymm_reg) _,
            cur = inout(ymm_reg) *cur,
            next = inout(ymm_reg) *next,
            options(pure, readonly, nostack),
        );
    }

    /// 4x4 transpose of 64-bit elements.
    #[inline(always)]
    unsafe fn transpose(r: [__m256i; 4]) -> [__m256i; 4] {
        let t0 = _mm256_unpacklo_epi64(r[0], r[1]); // a0 b0 a2 b2
        let t1 = _mm256_unpackhi_epi64(r[0], r[1]); // a1 b1 a3 b3
        let t2 = _mm256_unpacklo_epi64(r[2], r[3]); // c0 d0 c2 d2
        let t3 = _mm256_unpackhi_epi64(r[2], r[3]); // c1 d1 c3 d3
        [
            _mm256_permute2x128_si256::<0x20>(t0, t2),
            _mm256_permute2x128_si256::<0x20>(t1, t3),
            _mm256_permute2x128_si256::<0x31>(t0, t2),
            _mm256_permute2x128_si256::<0x31>(t1, t3),
        ]
    }

    impl Simd for Avx2 {
        type F = __m256d;
        type I = __m256i;
        const NAME: &'static str = "avx2";

        fn available() -> bool {
            std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        }
        #[inline(always)]
        unsafe fn run<K: Kernel>(k: K) -> K::Output {
            with_avx2(k)
        }
        #[inline(always)]
        unsafe fn splat_f(x: f64) -> __m256d {
            _mm256_set1_pd(x)
        }
        #[inline(always)]
        unsafe fn splat_i(x: u64) -> __m256i {
            _mm256_set1_epi64x(x as i64)
        }
        #[inline(always)]
        unsafe fn set_i(x: [u64; 4]) -> __m256i {
            _mm256_loadu_si256(x.as_ptr() as *const __m256i)
        }
        #[inline(always)]
        unsafe fn get_i(v: __m256i) -> [u64; 4] {
            let mut out = [0u64; 4];
            _mm256_storeu_si256(out.as_mut_ptr() as *mut __m256i, v);
            out
        }
        #[inline(always)]
        unsafe fn get_f(v: __m256d) -> [f64; 4] {
            let mut out = [0f64; 4];
            _mm256_storeu_pd(out.as_mut_ptr(), v);
            out
        }
        #[inline(always)]
        unsafe fn fma(a: __m256d, b: __m256d, c: __m256d) -> __m256d {
            _mm256_fmadd_pd(a, b, c)
        }
        #[inline(always)]
        unsafe fn mul_f(a: __m256d, b: __m256d) -> __m256d {
            _mm256_mul_pd(a, b)
        }
        #[inline(always)]
        unsafe fn sub_f(a: __m256d, b: __m256d) -> __m256d {
            _mm256_sub_pd(a, b)
        }
        #[inline(always)]
        unsafe fn floor_f(a: __m256d) -> __m256d {
            _mm256_floor_pd(a)
        }
        #[inline(always)]
        unsafe fn max_f(a: __m256d, b: __m256d) -> __m256d {
            _mm256_max_pd(a, b)
        }
        #[inline(always)]
        unsafe fn add_i(a: __m256i, b: __m256i) -> __m256i {
            _mm256_add_epi64(a, b)
        }
        #[inline(always)]
        unsafe fn sub_i(a: __m256i, b: __m256i) -> __m256i {
            _mm256_sub_epi64(a, b)
        }
        #[inline(always)]
        unsafe fn and_i(a: __m256i, b: __m256i) -> __m256i {
            _mm256_and_si256(a, b)
        }
        #[inline(always)]
        unsafe fn or_i(a: __m256i, b: __m256i) -> __m256i {
            _mm256_or_si256(a, b)
        }
        #[inline(always)]
        unsafe fn xor_i(a: __m256i, b: __m256i) -> __m256i {
            _mm256_xor_si256(a, b)
        }
        #[inline(always)]
        unsafe fn shr51(a: __m256i) -> __m256i {
            _mm256_srli_epi64::<51>(a)
        }
        #[inline(always)]
        unsafe fn shl32(a: __m256i) -> __m256i {
            _mm256_slli_epi64::<32>(a)
        }
        #[inline(always)]
        unsafe fn shr32(a: __m256i) -> __m256i {
            _mm256_srli_epi64::<32>(a)
        }
        #[inline(always)]
        unsafe fn mul_u32(a: __m256i, b: __m256i) -> __m256i {
            _mm256_mul_epu32(a, b)
        }
        #[inline(always)]
        unsafe fn f_as_i(a: __m256d) -> __m256i {
            _mm256_castpd_si256(a)
        }
        #[inline(always)]
        unsafe fn i_as_f(a: __m256i) -> __m256d {
            _mm256_castsi256_pd(a)
        }
        #[inline(always)]
        unsafe fn mac(
            cur: &mut __m256i,
            next: &mut __m256i,
            a: __m256d,
            b: *const __m256d,
            c_hi: __m256d,
            c_lo: __m256d,
        ) {
            mac_asm(cur, next, a, b, c_hi, c_lo)
        }
        #[inline(always)]
        unsafe fn gather8(ptrs: [*const u64; 4]) -> [__m256i; 8] {
            let lo = ptrs.map(|p| _mm256_loadu_si256(p as *const __m256i));
            let hi = ptrs.map(|p| _mm256_loadu_si256(p.add(4) as *const __m256i));
            let [a, b, c, d] = transpose(lo);
            let [e, f, g, h] = transpose(hi);
            [a, b, c, d, e, f, g, h]
        }
        #[inline(always)]
        unsafe fn scatter8(ptrs: [*mut u64; 4], v: &[__m256i; 8]) {
            let lo = transpose([v[0], v[1], v[2], v[3]]);
            let hi = transpose([v[4], v[5], v[6], v[7]]);
            for k in 0..4 {
                _mm256_storeu_si256(ptrs[k] as *mut __m256i, lo[k]);
                _mm256_storeu_si256(ptrs[k].add(4) as *mut __m256i, hi[k]);
            }
        }
    }
}

#[cfg(target_arch = "aarch64")]
pub use arm::Neon;

#[cfg(target_arch = "aarch64")]
mod arm {
    use super::{Kernel, Simd};
    use core::arch::aarch64::*;

    /// NEON (always present on aarch64): four lanes in two 128-bit registers.
    #[derive(Clone, Copy, Debug)]
    pub struct Neon;

    #[derive(Clone, Copy)]
    pub struct F2(float64x2_t, float64x2_t);
    #[derive(Clone, Copy)]
    pub struct I2(uint64x2_t, uint64x2_t);

    macro_rules! both_f {
        ($f:ident, $($a:ident),+) => { F2($f($($a.0),+), $f($($a.1),+)) };
    }
    macro_rules! both_i {
        ($f:ident, $($a:ident),+) => { I2($f($($a.0),+), $f($($a.1),+)) };
    }

    impl Simd for Neon {
        type F = F2;
        type I = I2;
        const NAME: &'static str = "neon";

        fn available() -> bool {
            true
        }
        #[inline(always)]
        unsafe fn run<K: Kernel>(k: K) -> K::Output {
            k.run()
        }
        #[inline(always)]
        unsafe fn splat_f(x: f64) -> F2 {
            F2(vdupq_n_f64(x), vdupq_n_f64(x))
        }
        #[inline(always)]
        unsafe fn splat_i(x: u64) -> I2 {
            I2(vdupq_n_u64(x), vdupq_n_u64(x))
        }
        #[inline(always)]
        unsafe fn set_i(x: [u64; 4]) -> I2 {
            I2(vld1q_u64(x.as_ptr()), vld1q_u64(x.as_ptr().add(2)))
        }
        #[inline(always)]
        unsafe fn get_i(v: I2) -> [u64; 4] {
            let mut out = [0u64; 4];
            vst1q_u64(out.as_mut_ptr(), v.0);
            vst1q_u64(out.as_mut_ptr().add(2), v.1);
            out
        }
        #[inline(always)]
        unsafe fn get_f(v: F2) -> [f64; 4] {
            let mut out = [0f64; 4];
            vst1q_f64(out.as_mut_ptr(), v.0);
            vst1q_f64(out.as_mut_ptr().add(2), v.1);
            out
        }
        #[inline(always)]
        unsafe fn fma(a: F2, b: F2, c: F2) -> F2 {
            // vfmaq_f64(c, a, b) = c + a * b
            F2(vfmaq_f64(c.0, a.0, b.0), vfmaq_f64(c.1, a.1, b.1))
        }
        #[inline(always)]
        unsafe fn mul_f(a: F2, b: F2) -> F2 {
            both_f!(vmulq_f64, a, b)
        }
        #[inline(always)]
        unsafe fn sub_f(a: F2, b: F2) -> F2 {
            both_f!(vsubq_f64, a, b)
        }
        #[inline(always)]
        unsafe fn floor_f(a: F2) -> F2 {
            both_f!(vrndmq_f64, a)
        }
        #[inline(always)]
        unsafe fn max_f(a: F2, b: F2) -> F2 {
            both_f!(vmaxq_f64, a, b)
        }
        #[inline(always)]
        unsafe fn add_i(a: I2, b: I2) -> I2 {
            both_i!(vaddq_u64, a, b)
        }
        #[inline(always)]
        unsafe fn sub_i(a: I2, b: I2) -> I2 {
            both_i!(vsubq_u64, a, b)
        }
        #[inline(always)]
        unsafe fn and_i(a: I2, b: I2) -> I2 {
            both_i!(vandq_u64, a, b)
        }
        #[inline(always)]
        unsafe fn or_i(a: I2, b: I2) -> I2 {
            both_i!(vorrq_u64, a, b)
        }
        #[inline(always)]
        unsafe fn xor_i(a: I2, b: I2) -> I2 {
            both_i!(veorq_u64, a, b)
        }
        #[inline(always)]
        unsafe fn shr51(a: I2) -> I2 {
            I2(vshrq_n_u64::<51>(a.0), vshrq_n_u64::<51>(a.1))
        }
        #[inline(always)]
        unsafe fn shl32(a: I2) -> I2 {
            I2(vshlq_n_u64::<32>(a.0), vshlq_n_u64::<32>(a.1))
        }
        #[inline(always)]
        unsafe fn shr32(a: I2) -> I2 {
            I2(vshrq_n_u64::<32>(a.0), vshrq_n_u64::<32>(a.1))
        }
        #[inline(always)]
        unsafe fn mul_u32(a: I2, b: I2) -> I2 {
            I2(vmull_u32(vmovn_u64(a.0), vmovn_u64(b.0)), vmull_u32(vmovn_u64(a.1), vmovn_u64(b.1)))
        }
        #[inline(always)]
        unsafe fn f_as_i(a: F2) -> I2 {
            I2(vreinterpretq_u64_f64(a.0), vreinterpretq_u64_f64(a.1))
        }
        #[inline(always)]
        unsafe fn i_as_f(a: I2) -> F2 {
            F2(vreinterpretq_f64_u64(a.0), vreinterpretq_f64_u64(a.1))
        }
        #[inline(always)]
        unsafe fn gather8(ptrs: [*const u64; 4]) -> [I2; 8] {
            // lanes (0, 1) and (2, 3): zip the two lanes' limb pairs
            let mut out = [I2(vdupq_n_u64(0), vdupq_n_u64(0)); 8];
            for j in (0..8).step_by(2) {
                let a = vld1q_u64(ptrs[0].add(j));
                let b = vld1q_u64(ptrs[1].add(j));
                let c = vld1q_u64(ptrs[2].add(j));
                let d = vld1q_u64(ptrs[3].add(j));
                out[j] = I2(vzip1q_u64(a, b), vzip1q_u64(c, d));
                out[j + 1] = I2(vzip2q_u64(a, b), vzip2q_u64(c, d));
            }
            out
        }
        #[inline(always)]
        unsafe fn scatter8(ptrs: [*mut u64; 4], v: &[I2; 8]) {
            for j in (0..8).step_by(2) {
                vst1q_u64(ptrs[0].add(j), vzip1q_u64(v[j].0, v[j + 1].0));
                vst1q_u64(ptrs[1].add(j), vzip2q_u64(v[j].0, v[j + 1].0));
                vst1q_u64(ptrs[2].add(j), vzip1q_u64(v[j].1, v[j + 1].1));
                vst1q_u64(ptrs[3].add(j), vzip2q_u64(v[j].1, v[j + 1].1));
            }
        }
    }
}
