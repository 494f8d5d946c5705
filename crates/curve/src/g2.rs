//! G2 of BLS12-381, BLS12-377 and BN254: the prime-order subgroup of a
//! sextic twist E': y^2 = x^3 + b' over Fq2 ([`crate::psi`] for the twist
//! and its endomorphism). The scalar field, encodings and GLV split are the
//! G1 curve's; one macro states each twist (its xi, kind, generator,
//! cofactor and psi's eigenvalue), and the tests check every constant
//! against arkworks and against each other (generator of order r, psi on
//! the generator, the cofactor times r the twist's order).

use crate::encoding::EvmLayout;
use crate::params::{BN254_SEED, U377, U381};
use crate::psi::{Psi, PsiEigenvalue};
use crate::sqrt::SqrtTable;
use crate::subgroup::embed;
use crate::{Affine, Bls12_377, Bls12_381, Bn254, Encoding, Glv, MsmCurve, SwCurve};
use std::sync::OnceLock;
use zkmsm_field::{
    limbs::from_hex, Bls12_377Fq2, Bls12_377Fr, Bls12_381Fq2, Bls12_381Fr, Bn254Fq2, Bn254Fr, Field, Fp2, Fp2Config,
    PrimeField, TowerField,
};

/// How b' is made from b and xi.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Twist {
    /// b' = b xi.
    M,
    /// b' = b / xi.
    D,
}

/// An Fq2 constant from the little-endian limbs of c0 and c1.
fn fq2<P: Fp2Config>(c0: &[u64], c1: &[u64]) -> Fp2<P> {
    let f = |l: &[u64]| {
        let b: Vec<u8> = l.iter().flat_map(|w| w.to_le_bytes()).collect();
        P::Base::from_bytes_le(&b[..P::Base::NUM_BYTES]).expect("constant below the modulus")
    };
    Fp2::new(f(c0), f(c1))
}

macro_rules! g2_curve {
    (
        $(#[$doc:meta])*
        $name:ident: G2 of $g1:ident, $fq2:ident, $fr:ident,
        label $label:literal, twist $twist:ident, xi ($xi0:literal, $xi1:literal),
        evm $evm:expr, eigenvalue $eig:expr, glv $glv:expr,
        cofactor $cofactor:expr,
        generator ($x0:literal, $x1:literal, $y0:literal, $y1:literal $(,)?) $(,)?
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;

        impl $name {
            /// u^2 + ... : the twist's xi, b' = b xi or b / xi ([`Twist`]).
            pub fn xi() -> $fq2 {
                <$fq2>::new(
                    <$fq2 as TowerField>::Prime::from_u64($xi0),
                    <$fq2 as TowerField>::Prime::from_u64($xi1),
                )
            }
            /// M or D.
            pub const TWIST: Twist = Twist::$twist;
            /// psi of this twist.
            pub fn psi() -> &'static Psi<$fq2> {
                static PSI: OnceLock<Psi<$fq2>> = OnceLock::new();
                PSI.get_or_init(|| Psi::for_twist(Self::coeff_b() * embed::<$fq2>($g1::coeff_b()).inverse().unwrap()))
            }
            /// q mod r, psi's eigenvalue on G2.
            pub const PSI_EIGENVALUE: PsiEigenvalue = $eig;
        }

        impl SwCurve for $name {
            type Base = $fq2;
            const NAME: &'static str = <$g1 as SwCurve>::NAME;
            const ORDER: &'static [u64] = <$g1 as SwCurve>::ORDER;
            const COFACTOR: &'static [u64] = &$cofactor;
            fn coeff_b() -> $fq2 {
                static B: OnceLock<$fq2> = OnceLock::new();
                *B.get_or_init(|| {
                    let b = embed::<$fq2>($g1::coeff_b());
                    match Twist::$twist {
                        Twist::M => b * Self::xi(),
                        Twist::D => b * Self::xi().inverse().unwrap(),
                    }
                })
            }
            fn generator() -> Affine<Self> {
                const X0: [u64; 6] = from_hex($x0);
                const X1: [u64; 6] = from_hex($x1);
                const Y0: [u64; 6] = from_hex($y0);
                const Y1: [u64; 6] = from_hex($y1);
                Affine::new_unchecked(fq2(&X0, &X1), fq2(&Y0, &Y1))
            }
            fn is_in_subgroup(p: &Affine<Self>) -> bool {
                Self::psi().is_in_g2(p, Self::PSI_EIGENVALUE)
            }
            /// Two roots in Fq by the G1 curve's tables ([`zkmsm_field::Fp2::sqrt_with`]).
            fn sqrt_base(a: &$fq2) -> Option<$fq2> {
                a.sqrt_with(|v| <$g1 as SwCurve>::sqrt_base(v))
            }
            fn sqrt_table() -> Option<&'static SqrtTable<<$fq2 as TowerField>::Prime>> {
                <$g1 as SwCurve>::sqrt_table()
            }
        }

        impl MsmCurve for $name {
            type Scalar = $fr;
            const ENCODING: Encoding = <$g1 as MsmCurve>::ENCODING;
            const GROUP: &'static str = "g2";
            const LABEL: &'static str = $label;
            const EVM: Option<EvmLayout> = $evm;
            fn scalar_to_limbs(s: &$fr) -> [u64; 4] {
                <$g1 as MsmCurve>::scalar_to_limbs(s)
            }
            /// phi(x, y) = (beta x, y), beta in Fq: the twist has a = 0 too.
            fn glv() -> Option<&'static Glv<$fq2>> {
                static GLV: OnceLock<Glv<$fq2>> = OnceLock::new();
                Some(GLV.get_or_init($glv))
            }
        }
    };
}

g2_curve! {
    /// G2 of BLS12-381: y^2 = x^3 + 4(1 + u) over Fq2 = Fq\[u\]/(u^2 + 1), an
    /// M-twist; the group of BLS signatures' public keys (min-pk: signatures)
    /// and of EIP-2537's G2MSM.
    Bls12_381G2: G2 of Bls12_381, Bls12_381Fq2, Bls12_381Fr,
    label "bls12-381 g2", twist M, xi (1, 1),
    evm Some(EvmLayout { width: 64, imaginary_first: false }),
    eigenvalue PsiEigenvalue::Seed { abs: U381, negative: true },
    glv || Glv::for_curve::<Bls12_381G2>(U381),
    cofactor [
        0xcf1c38e31c7238e5, 0x1616ec6e786f0c70, 0x21537e293a6691ae, 0xa628f1cb4d9e82ef,
        0xa68a205b2e5a7ddf, 0xcd91de4547085aba, 0x091d50792876a202, 0x05d543a95414e7f1,
    ],
    generator (
        "0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8",
        "0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e",
        "0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801",
        "0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be",
    ),
}

g2_curve! {
    /// G2 of BLS12-377: y^2 = x^3 + 1/u over Fq2 = Fq\[u\]/(u^2 + 5), a D-twist.
    Bls12_377G2: G2 of Bls12_377, Bls12_377Fq2, Bls12_377Fr,
    label "bls12-377 g2", twist D, xi (0, 1),
    evm None,
    eigenvalue PsiEigenvalue::Seed { abs: U377, negative: false },
    glv || Glv::for_curve::<Bls12_377G2>(U377),
    cofactor [
        0x0000000000000001, 0x452217cc90000000, 0xa0f3622fba094800, 0xd693e8c36676bd09,
        0x8c505634fae2e189, 0xfbb36b00e1dcc40c, 0xddd88d99a6f6a829, 0x0026ba558ae9562a,
    ],
    generator (
        "0x018480be71c785fec89630a2a3841d01c565f071203e50317ea501f557db6b9b71889f52bb53540274e3e48f7c005196",
        "0x00ea6040e700403170dc5a51b1b140d5532777ee6651cecbe7223ece0799c9de5cf89984bff76fe6b26bfefa6ea16afe",
        "0x00690d665d446f7bd960736bcbb2efb4de03ed7274b49a58e458c282f832d204f2cf88886d8c7c2ef094094409fd4ddf",
        "0x00f8169fd28355189e549da3151a70aa61ef11ac3d591bf12463b01acee304c24279b83f5e52270bd9a1cdd185eb8f93",
    ),
}

g2_curve! {
    /// G2 of BN254 (alt_bn128): y^2 = x^3 + 3/(9 + u) over Fq2 = Fq\[u\]/(u^2 + 1),
    /// a D-twist; the group of EIP-197's pairing inputs and of Groth16's B.
    Bn254G2: G2 of Bn254, Bn254Fq2, Bn254Fr,
    label "bn254 g2", twist D, xi (9, 1),
    evm Some(EvmLayout { width: 32, imaginary_first: true }),
    eigenvalue PsiEigenvalue::SixSeedSquared { x: BN254_SEED },
    glv || Glv::for_bn_curve::<Bn254G2>(BN254_SEED),
    cofactor [0x345f2299c0f9fa8d, 0x06ceecda572a2489, 0xb85045b68181585e, 0x30644e72e131a029],
    generator (
        "0x1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed",
        "0x198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2",
        "0x12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa",
        "0x090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b",
    ),
}
