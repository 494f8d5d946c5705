//! Everything `zkmsm sim` and `zkmsm-sim` can fail with, each one line
//! (a functional mismatch also carries the report that shows it).

use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("--log-n {0}: at most 40")]
    LogN(u32),
    #[error("--window {0}: must be in 2..=30")]
    Window(u32),
    #[error("--groups {0}: must be a power of two")]
    Groups(usize),
    #[error("--fifo-depth must be at least 1 for the core")]
    CoreFifoDepth,
    #[error("--window {c} is larger than the core's bucket memory (--cmax {cmax})")]
    CoreWindow { c: u32, cmax: u32 },
    #[error("--c-min {c_min} --c-max {c_max}: need 2 <= c-min <= c-max <= 24")]
    SweepWindows { c_min: u32, c_max: u32 },
    #[error("the toy curve runs in functional mode only (--mode functional)")]
    ToyNeedsFunctional,
    #[error("functional mode is meant for N <= 2^20 (N = {0})")]
    FunctionalTooLarge(usize),
    /// The reference MSM refused the inputs (it should not: the model made them).
    #[error("the reference MSM: {0}")]
    Reference(#[from] zkmsm::MsmError),
    /// The model's functional MSM differs from the reference: a scheduler or
    /// datapath bug. `report` is the run's report, printed before the error.
    #[error("functional check: the model's MSM differs from {against}")]
    Mismatch { report: String, against: &'static str },
    #[error("thesis: the thesis architecture computed {thesis} at k = {k}, the bucket architecture {bucket}")]
    ThesisMismatch { k: usize, thesis: String, bucket: String },
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("writing standard output: {0}")]
    Write(std::io::Error),
}

impl SimError {
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        SimError::Io { path: path.to_path_buf(), source }
    }

    /// A write to a closed pipe: the command ends quietly, as Unix tools do.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, SimError::Write(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}
