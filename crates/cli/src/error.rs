//! Everything the `zkmsm` command can fail with, each printed as one line.

use crate::escape::shown;
use std::path::PathBuf;
use zkmsm::MsmError;

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad input, or a library failure (unsupported backend, ...).
    #[error("{}", msm_message(.0))]
    Msm(#[from] MsmError),
    #[error(transparent)]
    Sim(#[from] zkmsm_sim::cli::SimError),
    /// Writing standard output or standard error failed (a full disk, a
    /// closed terminal). A broken pipe is not reported: see `main`.
    #[error("writing {stream}: {source}")]
    Write { stream: &'static str, source: std::io::Error },
    #[error("standard output is closed: the result would be lost")]
    StdoutClosed,
    #[error("--points and --scalars are the same file ({}): one would overwrite the other", shown(.0))]
    SameOutput(PathBuf),
    #[error("{}: {points} prepared points, but {} holds {scalars} scalars: the counts must be equal", shown(.prepared), shown(.scalars_file))]
    PreparedCount { prepared: PathBuf, points: usize, scalars_file: PathBuf, scalars: usize },
    #[error("--points and --scalars cannot both read standard input")]
    BothStdin,
    #[error("{option} {} and --scalars {} are one input (the same file or stream): name one for each", shown(.points), shown(.scalars))]
    SameInput { option: &'static str, points: PathBuf, scalars: PathBuf },
    #[error("--prepared -: a prepared file is mapped, not read from standard input: name the file")]
    PreparedFromStdin,
    #[error("--memory-budget reads the files by offset, a chunk at a time: name files, not standard input (-)")]
    BudgetNeedsFiles,
    #[error("standard output is a terminal: not writing binary points or scalars to it (redirect it, or name a file)")]
    BinaryToTerminal,
    #[error("the MSM result {got} differs from the reference {expected}")]
    WrongResult { got: String, expected: String },
    #[error("backend {backend} disagrees with backend {first} at n = 2^{log_n}")]
    BackendsDisagree { backend: &'static str, first: &'static str, log_n: u32 },
    #[error("--out {} is the points file {}: it would overwrite its own input", shown(.output), shown(.input))]
    OutputIsInput { output: PathBuf, input: PathBuf },
    #[error("{}: {n} points: above the input limit of {max} (--max-points)", shown(.path))]
    AboveMaxPoints { path: PathBuf, n: usize, max: usize },
    /// Out of core the scalars file's length gives the count.
    #[error("{}: {n} scalars, so {n} points: above the input limit of {max} (--max-points)", shown(.path))]
    AboveMaxScalars { path: PathBuf, n: usize, max: usize },
    /// A size whose memory cannot be had (checked before the work).
    #[error("out of memory: {0}")]
    OutOfMemory(String),
    /// An output that cannot be written (checked before the work that fills it).
    #[error("{}: {what}", shown(.path))]
    Output { path: PathBuf, what: String },
    #[error("{}: drawing the plot: {what}", shown(.path))]
    Plot { path: PathBuf, what: String },
}

impl CliError {
    /// A write to a closed pipe: ends the command quietly, as Unix tools do.
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            CliError::Write { source, .. } => source.kind() == std::io::ErrorKind::BrokenPipe,
            CliError::Sim(e) => e.is_broken_pipe(),
            _ => false,
        }
    }
}

/// The library's message, with file names escaped so that it stays one line.
fn msm_message(e: &MsmError) -> String {
    match e {
        MsmError::Io { path, source } => format!("{}: {source}", shown(path)),
        MsmError::Malformed { path, record } => format!("{}: {record}", shown(path)),
        MsmError::Prepared { path, reason } => format!("{}: prepared file refused: {reason}", shown(path)),
        other => other.to_string(),
    }
}
