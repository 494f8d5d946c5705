//! What `--backend` names ([`Backend`]): one of the library's backends or
//! the RTL core that Verilator simulates (crates/rtl), each built by
//! [`Backend::build`] from the same options.

use crate::args::{BackendName, RtlArgs};
use crate::curve::CliCurve;
use crate::error::CliError;
use crate::rtl::RtlHandle;
use std::borrow::Cow;
use zkmsm::{Affine, BackendChoice, GlvMode, MsmBuilder, MsmCurve, MsmEngine, MsmError, Validation};

/// A bucket-accumulation backend, as `--backend` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// One of the library's backends.
    Library(BackendChoice),
    /// The RTL core as Verilator simulates it (zkmsm-cli built with `--features rtl`).
    Rtl,
}

impl BackendName {
    /// The backend this name chooses.
    pub fn choice(self) -> Backend {
        use zkmsm::BackendChoice as B;
        Backend::Library(match self {
            BackendName::Auto => B::Auto,
            BackendName::Xyzz => B::Xyzz,
            BackendName::BatchAffine => B::BatchAffineGreedy,
            BackendName::BatchAffineDelayed => B::BatchAffineDelayed,
            BackendName::TwistedEdwards => B::TwistedEdwards,
            BackendName::Rtl => return Backend::Rtl,
        })
    }
}

/// How an engine sets its points up, whatever the backend. The RTL core has
/// no fixed-base mode and no GLV: each command refuses those options with
/// `--backend rtl` before any input is read ([`crate::contract::backend_options`]).
pub struct EngineOptions<'a> {
    /// What the library's backends check of the points (the RTL core takes
    /// them as validated: its callers have read them validated or made them).
    pub validation: Validation,
    /// Fixed-base mode with this many shifted copies.
    pub precompute: Option<u32>,
    /// Window size c (`None`: the cost model's).
    pub window: Option<u32>,
    /// The GLV endomorphism.
    pub glv: GlvMode,
    /// The simulated core's options.
    pub rtl: &'a RtlArgs,
}

/// An engine, and on the RTL core the handle that reads its cycles.
pub struct Engine<C: MsmCurve> {
    /// The context behind a trait object.
    pub ctx: Box<dyn MsmEngine<C>>,
    /// The core's counters (`None` off the RTL core).
    pub rtl: Option<RtlHandle>,
}

impl Backend {
    /// The library's backend; the RTL core refused with `why`, for the
    /// commands that run or write the library's backends only.
    pub fn library(self, why: &str) -> Result<BackendChoice, CliError> {
        match self {
            Backend::Library(choice) => Ok(choice),
            Backend::Rtl => Err(MsmError::Unsupported(why.into()).into()),
        }
    }

    /// An engine on this backend for `points` (owned points are taken, not
    /// copied: peak memory).
    pub fn build<C: CliCurve>(self, points: Cow<'_, [Affine<C>]>, o: &EngineOptions) -> Result<Engine<C>, CliError> {
        match self {
            Backend::Library(choice) => {
                let ctx = MsmBuilder::new()
                    .validation(o.validation)
                    .backend(choice)
                    .precompute(o.precompute)
                    .glv(o.glv)
                    .window(o.window)
                    .build(points)?;
                Ok(Engine { ctx, rtl: None })
            }
            Backend::Rtl => {
                let (ctx, handle) = C::rtl_engine(points.into_owned(), o.window, o.rtl)?;
                Ok(Engine { ctx, rtl: Some(handle) })
            }
        }
    }
}
