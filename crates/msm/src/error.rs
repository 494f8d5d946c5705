//! Every way an MSM input can be wrong, each naming where.

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
    #[error("{}: byte offset {offset}: {what}", path.display())]
    /// A file's content is wrong at a byte offset.
    Malformed {
        /// The file.
        path: PathBuf,
        /// Byte offset of the bad record (or of where the file ends too early).
        offset: u64,
        /// What is wrong there.
        what: String,
    },
    /// A prepared file refused (see `zkmsm::prepared`).
    #[error("{}: prepared file refused: {what}", path.display())]
    Prepared {
        /// The prepared file.
        path: PathBuf,
        /// What is wrong with it.
        what: String,
    },
}
