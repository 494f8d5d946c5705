//! The concrete fields. Each states only its modulus (hex, as published) and a
//! small quadratic non-residue; `tests/field/constants.rs` re-derives every modulus
//! from the curve's seed x (BLS12 or BN) and checks it against arkworks.

use crate::fp::{Fp, FpConfig};
use crate::fp2::{Fp2, Fp2Config};
use crate::limbs::from_hex;

macro_rules! field {
    ($cfg:ident, $ty:ident, $n:literal, $name:literal, $hex:literal, $nr:literal) => {
        #[doc = concat!("The parameters of ", $name, " (modulus, non-residue).")]
        #[derive(Debug)]
        pub struct $cfg;
        impl FpConfig<$n> for $cfg {
            const MODULUS: [u64; $n] = from_hex($hex);
            const NONRESIDUE: u64 = $nr;
            const NAME: &'static str = $name;
        }
        #[doc = concat!("An element of ", $name, ".")]
        pub type $ty = Fp<$cfg, $n>;
    };
}

field!(
    Bls12_377FqConfig,
    Bls12_377Fq,
    6,
    "bls12_377::Fq",
    "0x01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001",
    15
);
field!(
    Bls12_377FrConfig,
    Bls12_377Fr,
    4,
    "bls12_377::Fr",
    "0x12ab655e9a2ca55660b44d1e5c37b00159aa76fed00000010a11800000000001",
    22
);
field!(
    Bls12_381FqConfig,
    Bls12_381Fq,
    6,
    "bls12_381::Fq",
    "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
    2
);
field!(
    Bls12_381FrConfig,
    Bls12_381Fr,
    4,
    "bls12_381::Fr",
    "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
    7
);
field!(Bn254FqConfig, Bn254Fq, 4, "bn254::Fq", "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", 3);
field!(Bn254FrConfig, Bn254Fr, 4, "bn254::Fr", "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001", 5);
// The toy field of the thesis' example curve y^2 = x^3 + 7: small enough that
// tests can enumerate every element and every curve point.
field!(F17Config, F17, 1, "F17", "0x11", 3);

macro_rules! quadratic {
    ($cfg:ident, $ty:ident, $base:ident, $nr:literal, $name:literal) => {
        #[doc = concat!("The parameters of ", $name, ": u^2 = ", stringify!($nr), ".")]
        #[derive(Debug)]
        pub struct $cfg;
        impl Fp2Config for $cfg {
            type Base = $base;
            const NONRESIDUE: i64 = $nr;
            const NAME: &'static str = $name;
        }
        #[doc = concat!("An element of ", $name, ", the coordinates of G2.")]
        pub type $ty = Fp2<$cfg>;
    };
}

// The twists' fields: each beta is the one arkworks, blst and gnark use
// (tests/field/fp2.rs checks every operation against arkworks).
quadratic!(Bls12_377Fq2Config, Bls12_377Fq2, Bls12_377Fq, -5, "bls12_377::Fq2");
quadratic!(Bls12_381Fq2Config, Bls12_381Fq2, Bls12_381Fq, -1, "bls12_381::Fq2");
quadratic!(Bn254Fq2Config, Bn254Fq2, Bn254Fq, -1, "bn254::Fq2");
