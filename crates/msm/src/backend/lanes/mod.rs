//! Lane-parallel batch-affine arithmetic for CPUs without AVX-512 IFMA.

pub mod field51;
pub mod simd;
