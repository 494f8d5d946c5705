//! The curves and groups zkmsm runs on at run time, in one table: the name
//! each entry point spells, the group, the code of the C ABI, the curve type
//! behind it. The C ABI, the Python package, the sharded MSMs and the CLI's
//! run-time checks draw from it; a new (curve, group) is one line here and
//! its type in `zkmsm-curve`.

use crate::input::bytes::{ErrorKind, InputError};
use crate::pipeline::fixed_base::Precompute;
use zkmsm_curve::{MsmCurve, PointFormat};

/// G1 (coordinates in the base field) or G2 (on the twist, coordinates in
/// its quadratic extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Group {
    /// G1, the default everywhere.
    G1,
    /// G2.
    G2,
}

impl Group {
    /// Both groups.
    pub const ALL: [Group; 2] = [Group::G1, Group::G2];

    /// `"g1"` or `"g2"`, as every entry point spells them.
    pub fn name(self) -> &'static str {
        match self {
            Group::G1 => "g1",
            Group::G2 => "g2",
        }
    }

    /// The group with this name (case tolerated).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.name().eq_ignore_ascii_case(name))
    }
}

/// The table: `Variant = type, "curve name", group, C ABI code;`. `$d` is a
/// literal `$`, so that the table also writes [`with_curve!`].
macro_rules! registry {
    ($d:tt $( $variant:ident = $ty:ident, $name:literal, $group:ident, $code:literal; )*) => {
        /// A (curve, group) of the table: every entry point's run-time curve.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Curve {
            $(
                #[doc = concat!("`", $name, "`, ", stringify!($group), ".")]
                $variant,
            )*
        }

        impl Curve {
            /// Every (curve, group), G1s first.
            pub const ALL: &'static [Curve] = &[$(Curve::$variant),*];

            /// The curve's name, the same for both its groups (`"bls12-381"`).
            pub fn name(self) -> &'static str {
                match self {
                    $(Curve::$variant => $name,)*
                }
            }

            /// The group.
            pub fn group(self) -> Group {
                match self {
                    $(Curve::$variant => Group::$group,)*
                }
            }

            /// The C ABI's code: the curve's, plus [`Curve::G2_CODE`] on G2.
            pub fn code(self) -> u32 {
                match self {
                    $(Curve::$variant => $code,)*
                }
            }
        }

        /// Runs `$body` with `$C` the curve type of the [`Curve`] `$curve`.
        #[macro_export]
        macro_rules! with_curve {
            ($d curve:expr, $d C:ident => $d body:expr) => {
                match $d curve {
                    $(
                        $crate::registry::Curve::$variant => {
                            #[allow(dead_code)]
                            type $d C = $crate::$ty;
                            $d body
                        }
                    )*
                }
            };
        }
    };
}

registry! { $
    Bls12_377 = Bls12_377, "bls12-377", G1, 0;
    Bls12_381 = Bls12_381, "bls12-381", G1, 1;
    Bn254 = Bn254, "bn254", G1, 2;
    Bls12_377G2 = Bls12_377G2, "bls12-377", G2, 0x10;
    Bls12_381G2 = Bls12_381G2, "bls12-381", G2, 0x11;
    Bn254G2 = Bn254G2, "bn254", G2, 0x12;
}

impl Curve {
    /// Added to a curve's code for its G2 (the C ABI's `ZKMSM_G2`).
    pub const G2_CODE: u32 = 0x10;

    /// The curves' names, each once, in the table's order.
    pub fn names() -> Vec<&'static str> {
        let mut names: Vec<&'static str> = Vec::new();
        for c in Self::ALL {
            if !names.contains(&c.name()) {
                names.push(c.name());
            }
        }
        names
    }

    /// The entry for curve `name` (case and `_` for `-` tolerated) in `group`.
    pub fn find(name: &str, group: Group) -> Option<Self> {
        let n = name.to_ascii_lowercase().replace('_', "-");
        Self::ALL.iter().copied().find(|c| c.name() == n && c.group() == group)
    }

    /// G1 of the curve `name` ([`Curve::find`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::find(name, Group::G1)
    }

    /// The entry with the C ABI's `code`.
    pub fn from_code(code: u32) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.code() == code)
    }

    /// The same curve in `group`.
    pub fn with_group(self, group: Group) -> Self {
        Self::find(self.name(), group).expect("every curve of the table has both groups")
    }

    /// What errors and reports call it: `"bls12-381"` for G1,
    /// `"bls12-381 g2"` for G2 (the curve type's `NAME`).
    pub fn label(self) -> &'static str {
        with_curve!(self, C => <C as MsmCurve>::LABEL)
    }

    /// The one-line refusal of a curve name the table does not have.
    pub fn unknown(name: &str) -> InputError {
        InputError::plain(
            ErrorKind::Unsupported,
            format!("unknown curve {name:?} (known: {})", Self::names().join(", ")),
        )
    }

    /// The point copies a context of `n` points keeps for fixed-base
    /// precomputation M: M clamped to the windows of the plan chosen for n
    /// (more buy nothing), 1 for M <= 1. What sizes the context's memory.
    pub fn precompute_copies(self, n: usize, m: u32) -> u32 {
        if m <= 1 {
            return 1;
        }
        let bits = with_curve!(self, C => <C as MsmCurve>::Scalar::NUM_BITS);
        Precompute::for_size(n, m, bits).copies
    }

    /// Whether the curve has an EVM point layout ([`PointFormat::Evm`]):
    /// BN254's (EIP-196/197) and BLS12-381's (EIP-2537); the curve type
    /// says ([`zkmsm_curve::MsmCurve::EVM`]).
    pub fn has_evm_format(self) -> bool {
        with_curve!(self, C => <C as MsmCurve>::EVM.is_some())
    }

    /// `format` for this curve's points, or why not: the one rule every entry
    /// point (the CLI, the C ABI, the Python package) applies to a format it
    /// is given, before any input is read.
    pub fn check_format(self, format: PointFormat) -> Result<(), InputError> {
        if format == PointFormat::Evm && !self.has_evm_format() {
            return Err(InputError::plain(
                ErrorKind::Unsupported,
                format!("{} has no EVM point layout (BN254 has EIP-196/197's, BLS12-381 EIP-2537's)", self.label()),
            ));
        }
        Ok(())
    }

    /// Bytes of one encoded point.
    pub fn point_size(self, format: PointFormat) -> usize {
        with_curve!(self, C => format.size::<C>())
    }

    /// The memory a context of `n` points with `copies` prepared copies
    /// takes while it is built (None: more than the address space): per
    /// point and copy, four uncompressed points' bytes (the decoded affine
    /// point, the backend's prepared copy, the builder's temporaries) and
    /// 128 more. What the C ABI and the Python package try to allocate
    /// before they decode anything.
    pub fn context_work(self, n: usize, copies: u32) -> Option<usize> {
        let per_point = 4 * self.point_size(PointFormat::Uncompressed) + 128;
        n.checked_mul(per_point)?.checked_mul(copies.max(1) as usize)
    }

    /// The memory an MSM on `n` scalars takes beside its context: 256 bytes
    /// a scalar (its limbs, the signed digits, the sort of the points by
    /// bucket).
    pub fn msm_work(n: usize) -> Option<usize> {
        n.checked_mul(256)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_groups_and_codes_round_trip() {
        for &c in Curve::ALL {
            assert_eq!(Curve::find(c.name(), c.group()), Some(c));
            assert_eq!(Curve::from_code(c.code()), Some(c));
            assert_eq!(c.with_group(c.group()), c);
            let g2 = c.with_group(Group::G2);
            assert_eq!(g2.code(), c.with_group(Group::G1).code() + Curve::G2_CODE);
            assert_eq!(g2.label(), format!("{} g2", c.name()));
        }
        assert_eq!(Curve::names(), ["bls12-377", "bls12-381", "bn254"]);
        assert_eq!(Curve::from_name("BLS12_381"), Some(Curve::Bls12_381));
        assert_eq!(Curve::from_name("bls12-380"), None);
        assert_eq!(Curve::from_code(3), None);
        assert_eq!(Group::from_name("G2"), Some(Group::G2));
    }

    #[test]
    fn g2_points_are_twice_as_wide() {
        for &c in Curve::ALL.iter().filter(|c| c.group() == Group::G1) {
            for f in [PointFormat::Compressed, PointFormat::Uncompressed] {
                assert_eq!(c.with_group(Group::G2).point_size(f), 2 * c.point_size(f), "{c:?} {f:?}");
            }
        }
        assert_eq!(Curve::Bls12_381G2.point_size(PointFormat::Compressed), 96);
        assert_eq!(Curve::Bn254G2.point_size(PointFormat::Uncompressed), 128);
        assert_eq!(Curve::Bls12_381.context_work(1, 1), Some(512));
        assert_eq!(Curve::Bls12_381G2.context_work(2, 3), Some(6 * (4 * 192 + 128)));
        assert_eq!(Curve::Bn254.context_work(usize::MAX / 64, 1), None);
    }
}
