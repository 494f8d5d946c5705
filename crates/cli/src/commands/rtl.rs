//! `--backend rtl` (msm, demo): the MSM on the RTL core as Verilator
//! simulates it (crates/rtl, `zkmsm_rtl::backend::RtlEngine`), BLS12-377
//! only. Built with `--features rtl`; without it the backend says in one
//! line how to get it.

use crate::args::BackendName;
use crate::console::errln;
use crate::error::CliError;
use zkmsm::{Affine, Bls12_377, Bls12_381, EngineCurve, MsmEngine, MsmError};

/// What the last MSM on the core measured.
pub struct RtlCycles {
    /// Accumulation cycles of the simulated core (START to the last bucket
    /// write-back).
    pub rtl: u64,
    /// The cycle model's (crates/sim, scheduler `core`) for the same digits.
    pub model: u64,
    /// Non-zero digits: bucket additions.
    pub additions: u64,
    /// Cores the MSM ran on (`--rtl-cores`).
    pub cores: u32,
}

/// Reads the core's counters after an MSM.
pub struct RtlHandle {
    #[cfg(feature = "rtl")]
    backend: zkmsm_rtl::backend::RtlBackend,
}

impl RtlHandle {
    pub fn cycles(&self) -> Option<RtlCycles> {
        #[cfg(feature = "rtl")]
        return self.backend.last_report().map(|r| RtlCycles {
            rtl: r.stats.acc_cycles,
            model: r.model_cycles,
            additions: r.additions,
            cores: r.cores,
        });
        #[cfg(not(feature = "rtl"))]
        None
    }
}

/// Curves the commands run on, with or without an RTL core.
pub trait CliCurve: EngineCurve {
    /// Whether this build has a core for this curve: the one-line error
    /// `--backend rtl` gives before any input is read or generated.
    fn rtl_available() -> Result<(), CliError>;

    /// An engine on the simulated core for already validated points.
    fn rtl_engine(
        points: Vec<Affine<Self>>,
        window: Option<u32>,
        cores: u32,
    ) -> Result<(Box<dyn MsmEngine<Self>>, RtlHandle), CliError>;
}

impl CliCurve for Bls12_381 {
    fn rtl_available() -> Result<(), CliError> {
        Err(MsmError::Unsupported("the rtl backend is BLS12-377 only (the core's twisted Edwards adder)".into()).into())
    }

    fn rtl_engine(
        _: Vec<Affine<Self>>,
        _: Option<u32>,
        _: u32,
    ) -> Result<(Box<dyn MsmEngine<Self>>, RtlHandle), CliError> {
        Err(Self::rtl_available().unwrap_err())
    }
}

impl CliCurve for Bls12_377 {
    #[cfg(feature = "rtl")]
    fn rtl_available() -> Result<(), CliError> {
        Ok(())
    }

    #[cfg(not(feature = "rtl"))]
    fn rtl_available() -> Result<(), CliError> {
        Err(MsmError::Unsupported(
            "--backend rtl needs the Verilated core: install Verilator 5 (apt-get install verilator) and build with `cargo run --release -p zkmsm-cli --features rtl -- ...`".into(),
        )
        .into())
    }

    #[cfg(feature = "rtl")]
    fn rtl_engine(
        points: Vec<Affine<Self>>,
        window: Option<u32>,
        cores: u32,
    ) -> Result<(Box<dyn MsmEngine<Self>>, RtlHandle), CliError> {
        use zkmsm_rtl::backend::{Device, RtlEngine};
        let device = Device::shared().map_err(MsmError::Unsupported)?;
        let mut engine = RtlEngine::new(points, zkmsm::Validation::AlreadyValidated, device)?;
        engine.set_window(window);
        engine.set_cores(cores)?;
        let handle = RtlHandle { backend: engine.backend().clone() };
        Ok((Box::new(engine), handle))
    }

    #[cfg(not(feature = "rtl"))]
    fn rtl_engine(
        _: Vec<Affine<Self>>,
        _: Option<u32>,
        _: u32,
    ) -> Result<(Box<dyn MsmEngine<Self>>, RtlHandle), CliError> {
        Err(Self::rtl_available().unwrap_err())
    }
}

/// `--backend rtl` with what this build, curve or option cannot do: the
/// one-line error, before the points are read or generated.
pub fn refuse_early<C: CliCurve>(backend: BackendName, precompute: Option<u32>, cores: u32) -> Result<(), CliError> {
    if backend != BackendName::Rtl {
        if cores != 1 {
            return Err(MsmError::Unsupported("--rtl-cores applies to --backend rtl only".into()).into());
        }
        return Ok(());
    }
    C::rtl_available()?;
    no_precompute(precompute)
}

/// The core has no fixed-base mode.
pub fn no_precompute(precompute: Option<u32>) -> Result<(), CliError> {
    match precompute {
        Some(_) => Err(MsmError::Unsupported("--precompute: the RTL core has no fixed-base mode".into()).into()),
        None => Ok(()),
    }
}

/// The cycles of the last MSM on the core, printed to standard error.
pub fn report(handle: Option<&RtlHandle>) -> Result<Option<RtlCycles>, CliError> {
    let Some(c) = handle.and_then(RtlHandle::cycles) else { return Ok(None) };
    errln!(
        "  rtl: {} additions in {} accumulation cycles on {} core{} ({:.4} additions/cycle); cycle model {} cycles",
        c.additions,
        c.rtl,
        c.cores,
        if c.cores == 1 { "" } else { "s" },
        c.additions as f64 / c.rtl.max(1) as f64,
        c.model
    )?;
    Ok(Some(c))
}

/// `--json`: the core's and the model's accumulation cycles.
pub fn add_json(j: &mut serde_json::Value, cycles: Option<&RtlCycles>) {
    if let (Some(c), Some(m)) = (cycles, j.as_object_mut()) {
        m.insert("rtl_cycles".into(), c.rtl.into());
        m.insert("model_cycles".into(), c.model.into());
        m.insert("rtl_additions".into(), c.additions.into());
        m.insert("rtl_cores".into(), c.cores.into());
    }
}
