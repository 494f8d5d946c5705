//! The curves the commands run on ([`CliCurve`]): the library's curves, each
//! with the RTL cores built for it.

use crate::args::{RtlAdder, RtlArgs};
use crate::error::CliError;
use crate::rtl::RtlRun;
use zkmsm::{Affine, Bls12_377, Bls12_381, Bn254, EngineCurve, MsmError};

/// Curves the commands run on, with the RTL cores built for them.
pub trait CliCurve: EngineCurve {
    /// The adder `--backend rtl` uses when `--rtl-adder` is not given.
    const DEFAULT_ADDER: RtlAdder;

    /// Whether this curve has a core with `adder`: the one-line error
    /// `--backend rtl` gives before any input is read or generated.
    fn rtl_adder_available(adder: RtlAdder) -> Result<(), CliError>;

    /// An engine on the simulated core with `adder` for already validated points.
    fn rtl_engine_with(
        points: Vec<Affine<Self>>,
        window: Option<u32>,
        rtl: &RtlArgs,
        adder: RtlAdder,
    ) -> Result<RtlRun<Self>, CliError>;

    /// Whether this build has the core `adder` (default: [`Self::DEFAULT_ADDER`]) for this curve.
    fn rtl_available(adder: Option<RtlAdder>) -> Result<(), CliError> {
        if !cfg!(feature = "rtl") {
            return Err(MsmError::Unsupported(
                "--backend rtl needs the Verilated cores: install Verilator 5 (apt-get install verilator) and build with `cargo run --release -p zkmsm-cli --features rtl -- ...`".into(),
            )
            .into());
        }
        Self::rtl_adder_available(adder.unwrap_or(Self::DEFAULT_ADDER))
    }

    /// An engine on the simulated core for already validated points.
    fn rtl_engine(points: Vec<Affine<Self>>, window: Option<u32>, rtl: &RtlArgs) -> Result<RtlRun<Self>, CliError> {
        let adder = rtl.rtl_adder.unwrap_or(Self::DEFAULT_ADDER);
        Self::rtl_available(Some(adder))?;
        Self::rtl_engine_with(points, window, rtl, adder)
    }
}

#[cfg(not(feature = "rtl"))]
fn unbuilt<C: CliCurve>() -> Result<RtlRun<C>, CliError> {
    Err(C::rtl_available(None).unwrap_err())
}

impl CliCurve for Bls12_377 {
    const DEFAULT_ADDER: RtlAdder = RtlAdder::Edwards;

    fn rtl_adder_available(_: RtlAdder) -> Result<(), CliError> {
        Ok(())
    }

    #[cfg(feature = "rtl")]
    fn rtl_engine_with(
        points: Vec<Affine<Self>>,
        window: Option<u32>,
        rtl: &RtlArgs,
        adder: RtlAdder,
    ) -> Result<RtlRun<Self>, CliError> {
        use zkmsm_rtl::backend::{AffineCore, Edwards377};
        match adder {
            RtlAdder::Edwards => crate::rtl::engine::<Edwards377>(points, window, rtl, adder),
            RtlAdder::Affine => crate::rtl::engine::<AffineCore<Self>>(points, window, rtl, adder),
        }
    }

    #[cfg(not(feature = "rtl"))]
    fn rtl_engine_with(
        _: Vec<Affine<Self>>,
        _: Option<u32>,
        _: &RtlArgs,
        _: RtlAdder,
    ) -> Result<RtlRun<Self>, CliError> {
        unbuilt()
    }
}

/// BLS12-381 and BN254 have no twisted Edwards form: their core is the
/// batched-affine one.
macro_rules! affine_only {
    ($curve:ty, $name:literal) => {
        impl CliCurve for $curve {
            const DEFAULT_ADDER: RtlAdder = RtlAdder::Affine;

            fn rtl_adder_available(adder: RtlAdder) -> Result<(), CliError> {
                match adder {
                    RtlAdder::Affine => Ok(()),
                    RtlAdder::Edwards => Err(MsmError::Unsupported(
                        concat!(
                            "--rtl-adder edwards: ",
                            $name,
                            " has no twisted Edwards form; its core is --rtl-adder affine"
                        )
                        .into(),
                    )
                    .into()),
                }
            }

            #[cfg(feature = "rtl")]
            fn rtl_engine_with(
                points: Vec<Affine<Self>>,
                window: Option<u32>,
                rtl: &RtlArgs,
                adder: RtlAdder,
            ) -> Result<RtlRun<Self>, CliError> {
                crate::rtl::engine::<zkmsm_rtl::backend::AffineCore<Self>>(points, window, rtl, adder)
            }

            #[cfg(not(feature = "rtl"))]
            fn rtl_engine_with(
                _: Vec<Affine<Self>>,
                _: Option<u32>,
                _: &RtlArgs,
                _: RtlAdder,
            ) -> Result<RtlRun<Self>, CliError> {
                unbuilt()
            }
        }
    };
}

affine_only!(Bls12_381, "BLS12-381");
affine_only!(Bn254, "BN254");

/// G2: no RTL core takes Fq2 coordinates; `--backend rtl` says so in one
/// line before any input is read.
macro_rules! g2_cli_curve {
    ($($c:ty),*) => {$(
        impl CliCurve for $c {
            const DEFAULT_ADDER: RtlAdder = RtlAdder::Affine;
            fn rtl_adder_available(_: RtlAdder) -> Result<(), CliError> {
                Err(MsmError::Unsupported(format!(
                    "{} has no RTL core (the cores take G1 coordinates): use --backend auto, xyzz or batch-affine",
                    <$c as zkmsm::MsmCurve>::LABEL
                ))
                .into())
            }
            fn rtl_engine_with(
                _: Vec<Affine<Self>>,
                _: Option<u32>,
                _: &RtlArgs,
                adder: RtlAdder,
            ) -> Result<RtlRun<Self>, CliError> {
                Err(Self::rtl_adder_available(adder).unwrap_err())
            }
        }
    )*};
}

g2_cli_curve!(zkmsm::Bls12_377G2, zkmsm::Bls12_381G2, zkmsm::Bn254G2);
