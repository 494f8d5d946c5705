//! Every way an MSM input can be wrong, each naming where.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum MsmError {
    #[error("{points} points but {scalars} scalars: the lengths must be equal")]
    LengthMismatch { points: usize, scalars: usize },
    #[error("point {index} is not on the curve")]
    PointNotOnCurve { index: usize },
    #[error("point {index} is not in the prime-order subgroup")]
    PointNotInSubgroup { index: usize },
    #[error("scalar {index} is not reduced: it is >= the group order r (scalars are rejected, not reduced)")]
    ScalarNotReduced { index: usize },
    #[error("unsupported: {0}")]
    Unsupported(String),
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: byte offset {offset}: {what}", path.display())]
    Malformed { path: PathBuf, offset: u64, what: String },
}
