//! Every way an MSM input can be wrong, each naming where.

use crate::input::record::BadRecord;
use crate::prepared::PreparedRefusal;
use std::path::PathBuf;

/// Why an MSM (or reading its inputs) failed; the message is one line that
/// names the index, the file and the byte offset where they are known.
#[derive(Debug, thiserror::Error)]
pub enum MsmError {
    #[error("{points} points but {scalars} scalars: the lengths must be equal")]
    /// Points and scalars differ in number.
    LengthMismatch {
        /// Number of points.
        points: usize,
        /// Number of scalars.
        scalars: usize,
    },
    #[error("point {index} is not on the curve")]
    /// A point does not satisfy the curve equation.
    PointNotOnCurve {
        /// The point's index.
        index: usize,
    },
    #[error("point {index} is not in the prime-order subgroup")]
    /// A point is on the curve but outside the prime-order subgroup.
    PointNotInSubgroup {
        /// The point's index.
        index: usize,
    },
    #[error("scalar {index} is not reduced: it is >= the group order r (scalars are rejected, not reduced)")]
    /// A scalar is not below the group order r.
    ScalarNotReduced {
        /// The scalar's index.
        index: usize,
    },
    #[error("unsupported: {0}")]
    /// A combination this build or curve does not offer (e.g. twisted
    /// Edwards on BLS12-381), with what was asked.
    Unsupported(String),
    #[error("{}: {source}", path.display())]
    /// Reading or writing a file failed.
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    #[error("{}: {record}", path.display())]
    /// A file's content is wrong at a byte offset: `{path}: byte offset
    /// {offset}: {what}`.
    Malformed {
        /// The file.
        path: PathBuf,
        /// The bad record (or where the file goes wrong), and what is wrong
        /// (boxed: the error stays small for the results that carry it).
        record: Box<BadRecord>,
    },
    /// A prepared file refused (see `zkmsm::prepared`); [`PreparedRefusal::kind`]
    /// tells a file this machine or build cannot use from a damaged one.
    #[error("{}: prepared file refused: {reason}", path.display())]
    Prepared {
        /// The prepared file.
        path: PathBuf,
        /// Why it is refused.
        reason: PreparedRefusal,
    },
}

impl MsmError {
    /// A [`MsmError::Malformed`] of the file `path`.
    pub fn malformed(path: impl Into<PathBuf>, record: BadRecord) -> Self {
        MsmError::Malformed { path: path.into(), record: Box::new(record) }
    }

    /// A [`MsmError::Prepared`] of the file `path`.
    pub fn prepared(path: impl Into<PathBuf>, reason: PreparedRefusal) -> Self {
        MsmError::Prepared { path: path.into(), reason }
    }

    /// The bad record of a [`MsmError::Malformed`].
    pub fn record(&self) -> Option<&BadRecord> {
        match self {
            MsmError::Malformed { record, .. } => Some(record.as_ref()),
            _ => None,
        }
    }

    /// Why a prepared file was refused ([`MsmError::Prepared`]).
    pub fn refusal(&self) -> Option<&PreparedRefusal> {
        match self {
            MsmError::Prepared { reason, .. } => Some(reason),
            _ => None,
        }
    }
}
