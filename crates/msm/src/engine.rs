//! Choosing a backend at run time: a context behind a trait object, so a CLI
//! or a prover can pick the backend by name without generic plumbing
//! ([`crate::MsmBuilder::backend`], [`crate::MsmBuilder::build`]).

pub use crate::backend::choice::BackendChoice;

use crate::context::{MsmContext, MsmOutput};
use crate::error::MsmError;
use crate::input::InputCurve;
use crate::pipeline::digits::ScalarLimbs;
use crate::pipeline::fixed_base::Precompute;
use crate::pipeline::plan::Plan;
use crate::prepared::{Header, HeaderFault, Persist, PreparedRefusal};
use crate::store::Mapping;
use std::path::Path;
use zkmsm_field::PrimeField;

/// An MSM context whatever its backend.
pub trait MsmEngine<C: InputCurve>: Send + Sync {
    /// The backend's name (as `--backend` takes it).
    fn backend_name(&self) -> &'static str;
    /// Number of points.
    fn len(&self) -> usize;
    /// True when there are no points.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Force window size c (`None`: the cost model's choice; ignored in fixed-base mode).
    fn set_window(&mut self, c: Option<u32>);
    /// The plan the next MSM uses.
    fn plan(&self) -> Plan;
    /// The MSM of canonical scalars (each below r), with its plan, phase timings and scheduler
    /// statistics.
    fn msm_report(&self, scalars: &[ScalarLimbs]) -> Result<MsmOutput<C>, MsmError>;
    /// Write the prepared points to a prepared file ([`crate::prepared`]).
    fn write_prepared(&self, path: &Path) -> Result<(), MsmError>;
    /// True when MSMs run with the GLV endomorphism ([`crate::pipeline::glv`]).
    fn glv(&self) -> bool {
        false
    }
}

impl<C: InputCurve, B: Persist<C> + 'static> MsmEngine<C> for MsmContext<C, B>
where
    B::Prepared: 'static,
{
    fn backend_name(&self) -> &'static str {
        MsmContext::backend_name(self)
    }
    fn len(&self) -> usize {
        MsmContext::len(self)
    }
    fn set_window(&mut self, c: Option<u32>) {
        MsmContext::set_window(self, c)
    }
    fn plan(&self) -> Plan {
        MsmContext::plan(self)
    }
    fn msm_report(&self, scalars: &[ScalarLimbs]) -> Result<MsmOutput<C>, MsmError> {
        self.msm_bigint_report(scalars)
    }
    fn glv(&self) -> bool {
        MsmContext::glv(self)
    }
    fn write_prepared(&self, path: &Path) -> Result<(), MsmError> {
        let choice = self.choice.expect("contexts behind MsmEngine are built by name");
        MsmContext::write_prepared(self, path, choice)
    }
}

/// Build the context of a checked prepared file with backend `backend`.
pub(crate) fn prepared_context<C: InputCurve, B: Persist<C> + 'static>(
    choice: BackendChoice,
    backend: B,
    header: &Header,
    map: Mapping,
    offset: usize,
) -> Result<Box<dyn MsmEngine<C>>, PreparedRefusal>
where
    MsmContext<C, B>: MsmEngine<C>,
{
    let len = header.points as usize;
    let mismatch = || {
        PreparedRefusal::HeaderCorrupt(HeaderFault::Window {
            copies: header.copies,
            window: header.window,
            max: crate::pipeline::plan::MAX_C,
        })
    };
    let precompute = match (header.copies, header.window) {
        (0, 0) => None,
        (0, _) => return Err(mismatch()),
        (copies, c) if (1..=crate::pipeline::plan::MAX_C).contains(&c) => {
            let pre = Precompute::new(Plan::with_window(c, C::Scalar::NUM_BITS), copies);
            if pre.copies != copies {
                return Err(mismatch());
            }
            Some(pre)
        }
        _ => return Err(mismatch()),
    };
    let prepared = backend.map(header, map, offset)?;
    let window = precompute.map(|p| p.plan.c);
    // with images the records are [P | phi(P)], as the builder prepares them for GLV
    let glv = header.glv_images;
    Ok(Box::new(MsmContext { backend, prepared, len, window, precompute, choice: Some(choice), glv }))
}
