//! Everything `zkmsm sim` and `zkmsm-sim` can fail with, each one line
//! (a functional mismatch also carries the report that shows it).

use std::path::{Path, PathBuf};

/// Why `zkmsm sim` failed; the message is one line naming the argument or file.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// `--log-n` above the largest the model takes (the second field).
    #[error("--log-n {0}: at most {1} (the model holds every point's digits)")]
    LogN(u32, u32),
    /// `--window` outside 2..=[`zkmsm::plan::MAX_C`].
    #[error("--window {0}: must be in 2..={max}", max = zkmsm::plan::MAX_C)]
    Window(u32),
    /// An argument outside what the model runs.
    #[error("{name} {value}: {rule}")]
    Arg {
        /// The option, e.g. `--adders`.
        name: &'static str,
        /// The value given.
        value: String,
        /// What it must be.
        rule: String,
    },
    /// `--groups` not a power of two.
    #[error("--groups {0}: must be a power of two")]
    Groups(usize),
    /// Several cores need fan-out FIFOs.
    #[error("--cores above 1 needs --fanout-depth of at least 1")]
    CoreFanout,
    /// The core needs a pending FIFO.
    #[error("--fifo-depth must be at least 1 for the core")]
    CoreFifoDepth,
    #[error("--window {c} is larger than the core's bucket memory (--cmax {cmax})")]
    /// `--window` beyond the core's bucket memory.
    CoreWindow {
        /// The window asked for.
        c: u32,
        /// The core's largest window.
        cmax: u32,
    },
    #[error("--c-min {c_min} --c-max {c_max}: need 2 <= c-min <= c-max <= {max}", max = zkmsm::plan::MAX_C)]
    /// The sweep's window range is empty or out of bounds.
    SweepWindows {
        /// `--c-min`.
        c_min: u32,
        /// `--c-max`.
        c_max: u32,
    },
    /// The toy curve in statistics mode.
    #[error("the toy curve runs in functional mode only (--mode functional)")]
    ToyNeedsFunctional,
    /// Functional mode above 2^20 points.
    #[error("functional mode is meant for N <= 2^20 (N = {0})")]
    FunctionalTooLarge(usize),
    /// The reference MSM refused the inputs (it should not: the model made them).
    #[error("the reference MSM: {0}")]
    Reference(#[from] zkmsm::MsmError),
    /// The model's functional MSM differs from the reference: a scheduler or
    /// datapath bug. `report` is the run's report, printed before the error.
    #[error("functional check: the model's MSM differs from {against}")]
    Mismatch {
        /// The run's report.
        report: String,
        /// What the model's MSM was checked against.
        against: &'static str,
    },
    #[error("thesis: the thesis architecture computed {thesis} at k = {k}, the bucket architecture {bucket}")]
    /// The thesis architecture and the bucket architecture disagree.
    ThesisMismatch {
        /// Number of multipliers.
        k: usize,
        /// The thesis architecture's result.
        thesis: String,
        /// The bucket architecture's result.
        bucket: String,
    },
    #[error("{}: {source}", path.display())]
    /// Reading or writing a file failed.
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// Writing standard output failed.
    #[error("writing standard output: {0}")]
    Write(std::io::Error),
}

impl SimError {
    /// `name value` refused: it must be `rule`.
    pub fn arg(name: &'static str, value: impl ToString, rule: impl Into<String>) -> Self {
        SimError::Arg { name, value: value.to_string(), rule: rule.into() }
    }

    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        SimError::Io { path: path.to_path_buf(), source }
    }

    /// A write to a closed pipe: the command ends quietly, as Unix tools do.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, SimError::Write(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}
