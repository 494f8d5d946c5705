//! The AVX-512 operations the IFMA arithmetic ([`super::field52`]) uses,
//! behind a trait with two implementations: the instructions themselves
//! ([`Avx512`]) and a plain-Rust emulation of their exact semantics
//! ([`Emulated`]), so that the arithmetic and the engine built on it are
//! tested on every x86-64 CPU, IFMA or not.
//!
//! As in [`crate::backend::lanes::simd`], every operation is
//! `#[inline(always)]` and computations enter through [`Ifma::run`], which
//! enables the features for the [`Kernel`] inlined into it.
//!
//! # Safety
//!
//! [`Avx512`]'s operations may only run where [`Ifma::available`] is true,
//! inside [`Ifma::run`]; [`Ifma::load`] and [`Ifma::store`] also touch
//! memory (see their own sections).
#![allow(clippy::missing_safety_doc)]

use crate::backend::lanes::simd::Kernel;

/// Eight 64-bit lanes as integers (`V`) and doubles (`D`).
pub trait Ifma: Copy + Send + Sync + 'static {
    /// Eight u64 lanes.
    type V: Copy;
    /// Eight f64 lanes.
    type D: Copy;
    /// The name shown in backend names and benchmarks.
    const NAME: &'static str;

    /// Whether this CPU has AVX-512 IFMA (and what the operations need beside it).
    fn available() -> bool;
    /// Run `k` with the features enabled.
    ///
    /// # Safety
    ///
    /// Only where [`Self::available`].
    unsafe fn run<K: Kernel>(k: K) -> K::Output;

    /// All lanes zero.
    unsafe fn zero() -> Self::V;
    /// `x` in every lane.
    unsafe fn splat(x: u64) -> Self::V;
    /// `x` in every lane.
    unsafe fn splat_d(x: f64) -> Self::D;
    /// Lane k = `x[k]`.
    unsafe fn from_array(x: [u64; 8]) -> Self::V;
    /// The lanes as an array.
    unsafe fn to_array(v: Self::V) -> [u64; 8];
    /// a + low 52 bits of (b mod 2^52)(c mod 2^52).
    unsafe fn madd52lo(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// a + bits 52..104 of (b mod 2^52)(c mod 2^52).
    unsafe fn madd52hi(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// a + b, lane-wise, wrapping.
    unsafe fn add(a: Self::V, b: Self::V) -> Self::V;
    /// a - b, lane-wise, wrapping.
    unsafe fn sub(a: Self::V, b: Self::V) -> Self::V;
    /// Lanes with bit l of `m` set: a - b, others `src`.
    unsafe fn mask_sub(src: Self::V, m: u8, a: Self::V, b: Self::V) -> Self::V;
    /// a & b.
    unsafe fn and(a: Self::V, b: Self::V) -> Self::V;
    /// Arithmetic shift right by 52.
    unsafe fn srai52(a: Self::V) -> Self::V;
    /// Logical shift right by 52.
    unsafe fn srli52(a: Self::V) -> Self::V;
    /// Unsigned maximum, lane-wise.
    unsafe fn max_u(a: Self::V, b: Self::V) -> Self::V;
    /// Low 64 bits of a * b.
    unsafe fn mullo(a: Self::V, b: Self::V) -> Self::V;
    /// Signed integer to double (round to nearest).
    unsafe fn i_to_d(a: Self::V) -> Self::D;
    /// Double (non-negative, in range) to integer, truncating.
    unsafe fn d_to_u(a: Self::D) -> Self::V;
    /// a * b + c with one rounding.
    unsafe fn fmadd_d(a: Self::D, b: Self::D, c: Self::D) -> Self::D;
    /// a * b.
    unsafe fn mul_d(a: Self::D, b: Self::D) -> Self::D;
    /// Round toward minus infinity.
    unsafe fn floor_d(a: Self::D) -> Self::D;

    /// The 8 u64 at `p` (64 bytes, any alignment) as lanes 0..8.
    ///
    /// # Safety
    ///
    /// Besides [`Self::available`]: `p` valid for reading 64 bytes.
    unsafe fn load(p: *const u64) -> Self::V;
    /// Lanes 0..8 to the 8 u64 at `p` (64 bytes, any alignment).
    ///
    /// # Safety
    ///
    /// Besides [`Self::available`]: `p` valid for writing 64 bytes, not
    /// behind any live reference.
    unsafe fn store(p: *mut u64, v: Self::V);
    /// The 8 x 8 transpose: lane k of `out[j]` is lane j of `rows[k]`.
    unsafe fn transpose(rows: [Self::V; 8]) -> [Self::V; 8];
}

/// The plain-Rust emulation: the reference, and what tests run on CPUs
/// without AVX-512 IFMA.
#[derive(Clone, Copy, Debug)]
pub struct Emulated;

const M52: u64 = (1 << 52) - 1;

fn lanes(f: impl Fn(usize) -> u64) -> [u64; 8] {
    core::array::from_fn(f)
}

impl Ifma for Emulated {
    type V = [u64; 8];
    type D = [f64; 8];
    const NAME: &'static str = "ifma-emulated";

    fn available() -> bool {
        true
    }
    #[inline(always)]
    unsafe fn run<K: Kernel>(k: K) -> K::Output {
        k.run()
    }
    #[inline(always)]
    unsafe fn zero() -> [u64; 8] {
        [0; 8]
    }
    #[inline(always)]
    unsafe fn splat(x: u64) -> [u64; 8] {
        [x; 8]
    }
    #[inline(always)]
    unsafe fn splat_d(x: f64) -> [f64; 8] {
        [x; 8]
    }
    #[inline(always)]
    unsafe fn from_array(x: [u64; 8]) -> [u64; 8] {
        x
    }
    #[inline(always)]
    unsafe fn to_array(v: [u64; 8]) -> [u64; 8] {
        v
    }
    #[inline(always)]
    unsafe fn madd52lo(a: [u64; 8], b: [u64; 8], c: [u64; 8]) -> [u64; 8] {
        lanes(|l| a[l].wrapping_add(((b[l] & M52) as u128 * (c[l] & M52) as u128) as u64 & M52))
    }
    #[inline(always)]
    unsafe fn madd52hi(a: [u64; 8], b: [u64; 8], c: [u64; 8]) -> [u64; 8] {
        lanes(|l| a[l].wrapping_add((((b[l] & M52) as u128 * (c[l] & M52) as u128) >> 52) as u64))
    }
    #[inline(always)]
    unsafe fn add(a: [u64; 8], b: [u64; 8]) -> [u64; 8] {
        lanes(|l| a[l].wrapping_add(b[l]))
    }
    #[inline(always)]
    unsafe fn sub(a: [u64; 8], b: [u64; 8]) -> [u64; 8] {
        lanes(|l| a[l].wrapping_sub(b[l]))
    }
    #[inline(always)]
    unsafe fn mask_sub(src: [u64; 8], m: u8, a: [u64; 8], b: [u64; 8]) -> [u64; 8] {
        lanes(|l| if m >> l & 1 == 1 { a[l].wrapping_sub(b[l]) } else { src[l] })
    }
    #[inline(always)]
    unsafe fn and(a: [u64; 8], b: [u64; 8]) -> [u64; 8] {
        lanes(|l| a[l] & b[l])
    }
    #[inline(always)]
    unsafe fn srai52(a: [u64; 8]) -> [u64; 8] {
        lanes(|l| ((a[l] as i64) >> 52) as u64)
    }
    #[inline(always)]
    unsafe fn srli52(a: [u64; 8]) -> [u64; 8] {
        lanes(|l| a[l] >> 52)
    }
    #[inline(always)]
    unsafe fn max_u(a: [u64; 8], b: [u64; 8]) -> [u64; 8] {
        lanes(|l| a[l].max(b[l]))
    }
    #[inline(always)]
    unsafe fn mullo(a: [u64; 8], b: [u64; 8]) -> [u64; 8] {
        lanes(|l| a[l].wrapping_mul(b[l]))
    }
    #[inline(always)]
    unsafe fn i_to_d(a: [u64; 8]) -> [f64; 8] {
        a.map(|x| x as i64 as f64)
    }
    #[inline(always)]
    unsafe fn d_to_u(a: [f64; 8]) -> [u64; 8] {
        a.map(|x| x as u64)
    }
    #[inline(always)]
    unsafe fn fmadd_d(a: [f64; 8], b: [f64; 8], c: [f64; 8]) -> [f64; 8] {
        core::array::from_fn(|l| a[l].mul_add(b[l], c[l]))
    }
    #[inline(always)]
    unsafe fn mul_d(a: [f64; 8], b: [f64; 8]) -> [f64; 8] {
        core::array::from_fn(|l| a[l] * b[l])
    }
    #[inline(always)]
    unsafe fn floor_d(a: [f64; 8]) -> [f64; 8] {
        a.map(f64::floor)
    }
    #[inline(always)]
    unsafe fn load(p: *const u64) -> [u64; 8] {
        core::ptr::read_unaligned(p as *const [u64; 8])
    }
    #[inline(always)]
    unsafe fn store(p: *mut u64, v: [u64; 8]) {
        core::ptr::write_unaligned(p as *mut [u64; 8], v)
    }
    #[inline(always)]
    unsafe fn transpose(rows: [[u64; 8]; 8]) -> [[u64; 8]; 8] {
        core::array::from_fn(|j| lanes(|k| rows[k][j]))
    }
}

pub use x86::{Avx512, Avx512Ymm};

mod x86 {
    use super::{Ifma, Kernel};
    use core::arch::x86_64::*;

    /// AVX-512 F, DQ and IFMA: the instructions.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx512;

    #[target_feature(enable = "avx512f,avx512ifma,avx512dq")]
    unsafe fn with_avx512<K: Kernel>(k: K) -> K::Output {
        k.run()
    }

    impl Ifma for Avx512 {
        type V = __m512i;
        type D = __m512d;
        const NAME: &'static str = "ifma";

        fn available() -> bool {
            std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512ifma")
                && std::arch::is_x86_feature_detected!("avx512dq")
        }
        #[inline(always)]
        unsafe fn run<K: Kernel>(k: K) -> K::Output {
            with_avx512(k)
        }
        #[inline(always)]
        unsafe fn zero() -> __m512i {
            _mm512_setzero_si512()
        }
        #[inline(always)]
        unsafe fn splat(x: u64) -> __m512i {
            _mm512_set1_epi64(x as i64)
        }
        #[inline(always)]
        unsafe fn splat_d(x: f64) -> __m512d {
            _mm512_set1_pd(x)
        }
        #[inline(always)]
        unsafe fn from_array(x: [u64; 8]) -> __m512i {
            _mm512_loadu_si512(x.as_ptr() as *const _)
        }
        #[inline(always)]
        unsafe fn to_array(v: __m512i) -> [u64; 8] {
            let mut out = [0u64; 8];
            _mm512_storeu_si512(out.as_mut_ptr() as *mut _, v);
            out
        }
        #[inline(always)]
        unsafe fn madd52lo(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
            _mm512_madd52lo_epu64(a, b, c)
        }
        #[inline(always)]
        unsafe fn madd52hi(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
            _mm512_madd52hi_epu64(a, b, c)
        }
        #[inline(always)]
        unsafe fn add(a: __m512i, b: __m512i) -> __m512i {
            _mm512_add_epi64(a, b)
        }
        #[inline(always)]
        unsafe fn sub(a: __m512i, b: __m512i) -> __m512i {
            _mm512_sub_epi64(a, b)
        }
        #[inline(always)]
        unsafe fn mask_sub(src: __m512i, m: u8, a: __m512i, b: __m512i) -> __m512i {
            _mm512_mask_sub_epi64(src, m, a, b)
        }
        #[inline(always)]
        unsafe fn and(a: __m512i, b: __m512i) -> __m512i {
            _mm512_and_si512(a, b)
        }
        #[inline(always)]
        unsafe fn srai52(a: __m512i) -> __m512i {
            _mm512_srai_epi64::<52>(a)
        }
        #[inline(always)]
        unsafe fn srli52(a: __m512i) -> __m512i {
            _mm512_srli_epi64::<52>(a)
        }
        #[inline(always)]
        unsafe fn max_u(a: __m512i, b: __m512i) -> __m512i {
            _mm512_max_epu64(a, b)
        }
        #[inline(always)]
        unsafe fn mullo(a: __m512i, b: __m512i) -> __m512i {
            _mm512_mullo_epi64(a, b)
        }
        #[inline(always)]
        unsafe fn i_to_d(a: __m512i) -> __m512d {
            _mm512_cvtepi64_pd(a)
        }
        #[inline(always)]
        unsafe fn d_to_u(a: __m512d) -> __m512i {
            _mm512_cvttpd_epu64(a)
        }
        #[inline(always)]
        unsafe fn fmadd_d(a: __m512d, b: __m512d, c: __m512d) -> __m512d {
            _mm512_fmadd_pd(a, b, c)
        }
        #[inline(always)]
        unsafe fn mul_d(a: __m512d, b: __m512d) -> __m512d {
            _mm512_mul_pd(a, b)
        }
        #[inline(always)]
        unsafe fn floor_d(a: __m512d) -> __m512d {
            _mm512_roundscale_pd::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(a)
        }
        #[inline(always)]
        unsafe fn load(p: *const u64) -> __m512i {
            _mm512_loadu_si512(p as *const _)
        }
        #[inline(always)]
        unsafe fn store(p: *mut u64, v: __m512i) {
            _mm512_storeu_si512(p as *mut _, v)
        }
        /// Three stages of 8 shuffles: 64-bit pairs (unpack), 128-bit pairs
        /// (two-source permute), 256-bit halves (128-bit-lane shuffle).
        /// Written out without closures, so that everything inlines into
        /// the feature-enabled kernel.
        #[inline(always)]
        unsafe fn transpose(r: [__m512i; 8]) -> [__m512i; 8] {
            // t0 = (r0[0], r1[0], r0[2], r1[2], ...): columns 0, 2, 4, 6 of rows 0-1;
            // t1 columns 1, 3, 5, 7 of rows 0-1; t2, t3 the same of rows 2-3, ...
            let t0 = _mm512_unpacklo_epi64(r[0], r[1]);
            let t1 = _mm512_unpackhi_epi64(r[0], r[1]);
            let t2 = _mm512_unpacklo_epi64(r[2], r[3]);
            let t3 = _mm512_unpackhi_epi64(r[2], r[3]);
            let t4 = _mm512_unpacklo_epi64(r[4], r[5]);
            let t5 = _mm512_unpackhi_epi64(r[4], r[5]);
            let t6 = _mm512_unpacklo_epi64(r[6], r[7]);
            let t7 = _mm512_unpackhi_epi64(r[6], r[7]);
            // rows 0-3 of two columns each, in the low and high 256 bits:
            // u0 columns 0 | 4, u1 2 | 6, u2 1 | 5, u3 3 | 7; u4-u7 the same of rows 4-7
            let even = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
            let odd = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
            let u0 = _mm512_permutex2var_epi64(t0, even, t2);
            let u1 = _mm512_permutex2var_epi64(t0, odd, t2);
            let u2 = _mm512_permutex2var_epi64(t1, even, t3);
            let u3 = _mm512_permutex2var_epi64(t1, odd, t3);
            let u4 = _mm512_permutex2var_epi64(t4, even, t6);
            let u5 = _mm512_permutex2var_epi64(t4, odd, t6);
            let u6 = _mm512_permutex2var_epi64(t5, even, t7);
            let u7 = _mm512_permutex2var_epi64(t5, odd, t7);
            // low 256 bits of both (0x44) or high (0xEE)
            [
                _mm512_shuffle_i64x2::<0x44>(u0, u4),
                _mm512_shuffle_i64x2::<0x44>(u2, u6),
                _mm512_shuffle_i64x2::<0x44>(u1, u5),
                _mm512_shuffle_i64x2::<0x44>(u3, u7),
                _mm512_shuffle_i64x2::<0xEE>(u0, u4),
                _mm512_shuffle_i64x2::<0xEE>(u2, u6),
                _mm512_shuffle_i64x2::<0xEE>(u1, u5),
                _mm512_shuffle_i64x2::<0xEE>(u3, u7),
            ]
        }
    }

    /// The same eight lanes as two 256-bit halves (AVX-512 VL forms of the
    /// same instructions): where a core runs 256-bit IFMA on more ports than
    /// 512-bit, or keeps more vector ALU ports open without 512-bit work in
    /// flight. Twice the instructions and half the registers per value of
    /// [`Avx512`]; which is faster is measured (docs/BENCHMARKS.md).
    #[derive(Clone, Copy, Debug)]
    pub struct Avx512Ymm;

    /// Eight u64 lanes: 0-3 in the first register, 4-7 in the second.
    #[derive(Clone, Copy, Debug)]
    pub struct Y2(__m256i, __m256i);
    /// Eight f64 lanes, as [`Y2`].
    #[derive(Clone, Copy, Debug)]
    pub struct Yd2(__m256d, __m256d);

    #[target_feature(enable = "avx512f,avx512ifma,avx512dq,avx512vl,fma")]
    unsafe fn with_avx512_ymm<K: Kernel>(k: K) -> K::Output {
        k.run()
    }

    /// The 4 x 4 transpose of 64-bit lanes: unpack pairs, then 128-bit halves.
    #[inline(always)]
    unsafe fn transpose4(a: __m256i, b: __m256i, c: __m256i, d: __m256i) -> [__m256i; 4] {
        let t0 = _mm256_unpacklo_epi64(a, b);
        let t1 = _mm256_unpackhi_epi64(a, b);
        let t2 = _mm256_unpacklo_epi64(c, d);
        let t3 = _mm256_unpackhi_epi64(c, d);
        [
            _mm256_permute2x128_si256::<0x20>(t0, t2),
            _mm256_permute2x128_si256::<0x20>(t1, t3),
            _mm256_permute2x128_si256::<0x31>(t0, t2),
            _mm256_permute2x128_si256::<0x31>(t1, t3),
        ]
    }

    impl Ifma for Avx512Ymm {
        type V = Y2;
        type D = Yd2;
        const NAME: &'static str = "ifma256";

        fn available() -> bool {
            Avx512::available()
                && std::arch::is_x86_feature_detected!("avx512vl")
                && std::arch::is_x86_feature_detected!("fma")
        }
        #[inline(always)]
        unsafe fn run<K: Kernel>(k: K) -> K::Output {
            with_avx512_ymm(k)
        }
        #[inline(always)]
        unsafe fn zero() -> Y2 {
            Y2(_mm256_setzero_si256(), _mm256_setzero_si256())
        }
        #[inline(always)]
        unsafe fn splat(x: u64) -> Y2 {
            let v = _mm256_set1_epi64x(x as i64);
            Y2(v, v)
        }
        #[inline(always)]
        unsafe fn splat_d(x: f64) -> Yd2 {
            let v = _mm256_set1_pd(x);
            Yd2(v, v)
        }
        #[inline(always)]
        unsafe fn from_array(x: [u64; 8]) -> Y2 {
            Self::load(x.as_ptr())
        }
        #[inline(always)]
        unsafe fn to_array(v: Y2) -> [u64; 8] {
            let mut out = [0u64; 8];
            Self::store(out.as_mut_ptr(), v);
            out
        }
        #[inline(always)]
        unsafe fn madd52lo(a: Y2, b: Y2, c: Y2) -> Y2 {
            Y2(_mm256_madd52lo_epu64(a.0, b.0, c.0), _mm256_madd52lo_epu64(a.1, b.1, c.1))
        }
        #[inline(always)]
        unsafe fn madd52hi(a: Y2, b: Y2, c: Y2) -> Y2 {
            Y2(_mm256_madd52hi_epu64(a.0, b.0, c.0), _mm256_madd52hi_epu64(a.1, b.1, c.1))
        }
        #[inline(always)]
        unsafe fn add(a: Y2, b: Y2) -> Y2 {
            Y2(_mm256_add_epi64(a.0, b.0), _mm256_add_epi64(a.1, b.1))
        }
        #[inline(always)]
        unsafe fn sub(a: Y2, b: Y2) -> Y2 {
            Y2(_mm256_sub_epi64(a.0, b.0), _mm256_sub_epi64(a.1, b.1))
        }
        #[inline(always)]
        unsafe fn mask_sub(src: Y2, m: u8, a: Y2, b: Y2) -> Y2 {
            Y2(_mm256_mask_sub_epi64(src.0, m & 15, a.0, b.0), _mm256_mask_sub_epi64(src.1, m >> 4, a.1, b.1))
        }
        #[inline(always)]
        unsafe fn and(a: Y2, b: Y2) -> Y2 {
            Y2(_mm256_and_si256(a.0, b.0), _mm256_and_si256(a.1, b.1))
        }
        #[inline(always)]
        unsafe fn srai52(a: Y2) -> Y2 {
            Y2(_mm256_srai_epi64::<52>(a.0), _mm256_srai_epi64::<52>(a.1))
        }
        #[inline(always)]
        unsafe fn srli52(a: Y2) -> Y2 {
            Y2(_mm256_srli_epi64::<52>(a.0), _mm256_srli_epi64::<52>(a.1))
        }
        #[inline(always)]
        unsafe fn max_u(a: Y2, b: Y2) -> Y2 {
            Y2(_mm256_max_epu64(a.0, b.0), _mm256_max_epu64(a.1, b.1))
        }
        #[inline(always)]
        unsafe fn mullo(a: Y2, b: Y2) -> Y2 {
            Y2(_mm256_mullo_epi64(a.0, b.0), _mm256_mullo_epi64(a.1, b.1))
        }
        #[inline(always)]
        unsafe fn i_to_d(a: Y2) -> Yd2 {
            Yd2(_mm256_cvtepi64_pd(a.0), _mm256_cvtepi64_pd(a.1))
        }
        #[inline(always)]
        unsafe fn d_to_u(a: Yd2) -> Y2 {
            Y2(_mm256_cvttpd_epu64(a.0), _mm256_cvttpd_epu64(a.1))
        }
        #[inline(always)]
        unsafe fn fmadd_d(a: Yd2, b: Yd2, c: Yd2) -> Yd2 {
            Yd2(_mm256_fmadd_pd(a.0, b.0, c.0), _mm256_fmadd_pd(a.1, b.1, c.1))
        }
        #[inline(always)]
        unsafe fn mul_d(a: Yd2, b: Yd2) -> Yd2 {
            Yd2(_mm256_mul_pd(a.0, b.0), _mm256_mul_pd(a.1, b.1))
        }
        #[inline(always)]
        unsafe fn floor_d(a: Yd2) -> Yd2 {
            Yd2(_mm256_floor_pd(a.0), _mm256_floor_pd(a.1))
        }
        #[inline(always)]
        unsafe fn load(p: *const u64) -> Y2 {
            Y2(_mm256_loadu_si256(p as *const _), _mm256_loadu_si256(p.add(4) as *const _))
        }
        #[inline(always)]
        unsafe fn store(p: *mut u64, v: Y2) {
            _mm256_storeu_si256(p as *mut _, v.0);
            _mm256_storeu_si256(p.add(4) as *mut _, v.1)
        }
        /// Four 4 x 4 transposes: lanes 0-3 of `out[j]`, j < 4, come from
        /// the first halves of rows 0-3, lanes 4-7 from those of rows 4-7;
        /// `out[j]`, j >= 4, the same from the second halves.
        #[inline(always)]
        unsafe fn transpose(r: [Y2; 8]) -> [Y2; 8] {
            let a = transpose4(r[0].0, r[1].0, r[2].0, r[3].0);
            let b = transpose4(r[4].0, r[5].0, r[6].0, r[7].0);
            let c = transpose4(r[0].1, r[1].1, r[2].1, r[3].1);
            let d = transpose4(r[4].1, r[5].1, r[6].1, r[7].1);
            [
                Y2(a[0], b[0]),
                Y2(a[1], b[1]),
                Y2(a[2], b[2]),
                Y2(a[3], b[3]),
                Y2(c[0], d[0]),
                Y2(c[1], d[1]),
                Y2(c[2], d[2]),
                Y2(c[3], d[3]),
            ]
        }
    }
}
