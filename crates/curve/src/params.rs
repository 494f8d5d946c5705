//! The curves. Generators and cofactors are checked against arkworks and against
//! each other (generator of order r, r * cofactor = curve order) in tests.

use crate::sqrt::SqrtTable;
use crate::subgroup::{endomorphism_check, find_beta};
use crate::{Affine, Encoding, EvmLayout, Glv, MsmCurve, SwCurve};
use std::sync::OnceLock;
use zkmsm_field::{
    limbs::from_hex, Bls12_377Fq, Bls12_377Fr, Bls12_381Fq, Bls12_381Fr, Bn254Fq, Bn254Fr, Field, FpConfig, PrimeField,
    F17,
};

fn fq<F: PrimeField>(hex_le_limbs: &[u64]) -> F {
    let bytes: Vec<u8> = hex_le_limbs.iter().flat_map(|l| l.to_le_bytes()).collect();
    F::from_bytes_le(&bytes).expect("constant below the modulus")
}

/// G1 of BLS12-377 (y^2 = x^3 + 1 over its 377-bit Fq).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bls12_377;
/// G1 of BLS12-381 (y^2 = x^3 + 4 over its 381-bit Fq).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bls12_381;
/// G1 of BN254, also alt_bn128 (y^2 = x^3 + 3 over its 254-bit Fq): the curve
/// of Ethereum's EIP-196/197 precompiles. Cofactor 1: every curve point is in G1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bn254;
/// y^2 = x^3 + 7 over F17: the thesis' example; 18 points, so every formula can
/// be tested exhaustively. ORDER is the whole group (not prime).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Toy17;

const G377_X: [u64; 6] =
    from_hex("0x008848defe740a67c8fc6225bf87ff5485951e2caa9d41bb188282c8bd37cb5cd5481512ffcd394eeab9b16eb21be9ef");
const G377_Y: [u64; 6] =
    from_hex("0x01914a69c5102eff1f674f5d30afeec4bd7fb348ca3e52d96d182ad44fb82305c2fe3d3634a9591afd82de55559c8ea6");
const G381_X: [u64; 6] =
    from_hex("0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
const G381_Y: [u64; 6] =
    from_hex("0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1");

impl SwCurve for Bls12_377 {
    type Base = Bls12_377Fq;
    const NAME: &'static str = "bls12-377";
    const ORDER: &'static [u64] = &<zkmsm_field::Bls12_377FrConfig as FpConfig<4>>::MODULUS;
    const COFACTOR: &'static [u64] = &[0x0, 0x170b5d4430000000];
    fn coeff_b() -> Self::Base {
        Bls12_377Fq::ONE
    }
    fn generator() -> Affine<Self> {
        Affine::new_unchecked(fq(&G377_X), fq(&G377_Y))
    }
    fn is_in_subgroup(p: &Affine<Self>) -> bool {
        static BETA: OnceLock<Bls12_377Fq> = OnceLock::new();
        endomorphism_check(p, U377, *BETA.get_or_init(|| find_beta::<Self>(U377)))
    }
    fn sqrt_base(a: &Bls12_377Fq) -> Option<Bls12_377Fq> {
        Self::sqrt_table().expect("tables for this field").sqrt(a)
    }
    fn sqrt_table() -> Option<&'static SqrtTable<Bls12_377Fq>> {
        static TABLE: OnceLock<SqrtTable<Bls12_377Fq>> = OnceLock::new();
        Some(TABLE.get_or_init(SqrtTable::new))
    }
}

/// |u|, the BLS12-377 seed (u = 0x8508c00000000001).
pub(crate) const U377: u64 = 0x8508c00000000001;
/// |u|, the BLS12-381 seed (u = -0xd201000000010000).
pub(crate) const U381: u64 = 0xd201000000010000;

impl MsmCurve for Bls12_377 {
    type Scalar = Bls12_377Fr;
    const ENCODING: Encoding = Encoding::ArkworksLe;
    fn scalar_to_limbs(s: &Bls12_377Fr) -> [u64; 4] {
        s.to_canonical()
    }
    fn glv() -> Option<&'static Glv<Bls12_377Fq>> {
        static GLV: OnceLock<Glv<Bls12_377Fq>> = OnceLock::new();
        Some(GLV.get_or_init(|| Glv::for_curve::<Self>(U377)))
    }
}

impl SwCurve for Bls12_381 {
    type Base = Bls12_381Fq;
    const NAME: &'static str = "bls12-381";
    const ORDER: &'static [u64] = &<zkmsm_field::Bls12_381FrConfig as FpConfig<4>>::MODULUS;
    const COFACTOR: &'static [u64] = &[0x8c00aaab0000aaab, 0x396c8c005555e156];
    fn coeff_b() -> Self::Base {
        Bls12_381Fq::from_u64(4)
    }
    fn generator() -> Affine<Self> {
        Affine::new_unchecked(fq(&G381_X), fq(&G381_Y))
    }
    fn is_in_subgroup(p: &Affine<Self>) -> bool {
        static BETA: OnceLock<Bls12_381Fq> = OnceLock::new();
        endomorphism_check(p, U381, *BETA.get_or_init(|| find_beta::<Self>(U381)))
    }
    fn sqrt_base(a: &Bls12_381Fq) -> Option<Bls12_381Fq> {
        Self::sqrt_table().expect("tables for this field").sqrt(a)
    }
    fn sqrt_table() -> Option<&'static SqrtTable<Bls12_381Fq>> {
        static TABLE: OnceLock<SqrtTable<Bls12_381Fq>> = OnceLock::new();
        Some(TABLE.get_or_init(SqrtTable::new))
    }
}

impl MsmCurve for Bls12_381 {
    type Scalar = Bls12_381Fr;
    const ENCODING: Encoding = Encoding::ZcashBe;
    /// EIP-2537: 64-byte big-endian elements, their top 16 bytes zero.
    const EVM: Option<EvmLayout> = Some(EvmLayout { width: 64, imaginary_first: false });
    fn scalar_to_limbs(s: &Bls12_381Fr) -> [u64; 4] {
        s.to_canonical()
    }
    fn glv() -> Option<&'static Glv<Bls12_381Fq>> {
        static GLV: OnceLock<Glv<Bls12_381Fq>> = OnceLock::new();
        Some(GLV.get_or_init(|| Glv::for_curve::<Self>(U381)))
    }
}

impl SwCurve for Bn254 {
    type Base = Bn254Fq;
    const NAME: &'static str = "bn254";
    const ORDER: &'static [u64] = &<zkmsm_field::Bn254FrConfig as FpConfig<4>>::MODULUS;
    const COFACTOR: &'static [u64] = &[1];
    fn coeff_b() -> Self::Base {
        Bn254Fq::from_u64(3)
    }
    fn generator() -> Affine<Self> {
        Affine::new_unchecked(Bn254Fq::ONE, Bn254Fq::from_u64(2))
    }
    /// Cofactor 1: the group of the curve is G1, so a point on the curve is in it.
    fn is_in_subgroup(_: &Affine<Self>) -> bool {
        true
    }
    fn sqrt_base(a: &Bn254Fq) -> Option<Bn254Fq> {
        Self::sqrt_table().expect("tables for this field").sqrt(a)
    }
    fn sqrt_table() -> Option<&'static SqrtTable<Bn254Fq>> {
        static TABLE: OnceLock<SqrtTable<Bn254Fq>> = OnceLock::new();
        Some(TABLE.get_or_init(SqrtTable::new))
    }
}

/// The BN254 seed x (q = 36x^4 + 36x^3 + 24x^2 + 6x + 1).
pub const BN254_SEED: u64 = 4965661367192848881;

impl MsmCurve for Bn254 {
    type Scalar = Bn254Fr;
    const ENCODING: Encoding = Encoding::ArkworksLe;
    /// EIP-196/197: 32-byte big-endian elements.
    const EVM: Option<EvmLayout> = Some(EvmLayout { width: 32, imaginary_first: true });
    fn scalar_to_limbs(s: &Bn254Fr) -> [u64; 4] {
        s.to_canonical()
    }
    fn glv() -> Option<&'static Glv<Bn254Fq>> {
        static GLV: OnceLock<Glv<Bn254Fq>> = OnceLock::new();
        Some(GLV.get_or_init(|| Glv::for_bn_curve::<Self>(BN254_SEED)))
    }
}

impl SwCurve for Toy17 {
    type Base = F17;
    const NAME: &'static str = "toy17";
    const ORDER: &'static [u64] = &[18];
    const COFACTOR: &'static [u64] = &[1];
    fn coeff_b() -> F17 {
        F17::from_u64(7)
    }
    fn generator() -> Affine<Self> {
        // (10, 2) has order 18: it generates the whole (cyclic) group.
        Affine::new_unchecked(F17::from_u64(10), F17::from_u64(2))
    }
}
