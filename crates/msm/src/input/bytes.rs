//! Points and scalars from encoded bytes in memory (the CLI's formats, see
//! [`crate::input::io`]), for the run-time-curve API ([`crate::encoded`]) and
//! the chunks of out-of-core and sharded MSMs: whole inputs and runs of
//! records inside one, every error naming the record and its byte offset
//! ([`InputError`]).

use crate::error::MsmError;
use crate::input::io::{LENGTH_PREFIX_BYTES, SCALAR_BYTES};
use crate::input::load::decode_points;
use crate::input::record::{BadRecord, Input, RecordFault};
use crate::input::scalars::{check_scalars, ScalarEndian};
use crate::input::validate::Validation;
use crate::input::InputCurve;
use crate::pipeline::digits::ScalarLimbs;
use rayon::prelude::*;
use zkmsm_curve::{Affine, PointFormat};

/// Which input an [`InputError`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The points bytes (layout, encoding, curve, subgroup).
    Points,
    /// The scalars bytes (length, a value >= r).
    Scalars,
    /// Points and scalars differ in number.
    LengthMismatch,
    /// A name or option that does not exist or does not apply.
    Unsupported,
}

/// What is wrong with an input, and where. `kind`, `index`, `offset` and
/// `message` are what the C ABI and the Python package report; `record` is
/// the typed bad record behind them, where there is one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct InputError {
    /// Which input.
    pub kind: ErrorKind,
    /// Index of the bad point or scalar, when one record is at fault.
    pub index: Option<usize>,
    /// Byte offset in the input of the bad record (or of where the input
    /// goes wrong), when there is one.
    pub offset: Option<u64>,
    /// One line: `points: byte offset 96: point 2: not on the curve`.
    pub message: String,
    /// The bad record (or input), typed: `None` for a length mismatch, an
    /// unsupported option, or a partial sum (boxed: the error stays small).
    pub record: Option<Box<BadRecord>>,
}

impl From<BadRecord> for InputError {
    /// The error of a bad record: its input, index and offset, and the
    /// message `{input}: byte offset {offset}: {what}`.
    fn from(record: BadRecord) -> Self {
        let message = format!("{}: {record}", record.input.name());
        Self::with_message(record, message)
    }
}

impl InputError {
    /// The error of a bad record, with its own message.
    pub fn with_message(record: BadRecord, message: String) -> Self {
        let kind = match record.input {
            Input::Points => ErrorKind::Points,
            Input::Scalars => ErrorKind::Scalars,
        };
        Self { kind, index: record.index, offset: Some(record.offset), message, record: Some(Box::new(record)) }
    }

    /// An error of no one record: `kind` and a message.
    pub fn plain(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self { kind, index: None, offset: None, message: message.into(), record: None }
    }
}

/// Decode and validate the points encoded back to back in `body` (no
/// prefix), the first being point number `first` at byte offset `base` of its
/// input: errors name the point and its offset in that input. Used for whole
/// inputs and for the chunks of out-of-core and sharded MSMs.
pub fn decode_point_run<C: InputCurve>(
    body: &[u8],
    format: PointFormat,
    validation: Validation,
    first: usize,
    base: u64,
) -> Result<Vec<Affine<C>>, BadRecord> {
    decode_points::<C>(body, format, validation).map_err(|b| b.shifted(first, base))
}

/// Scalars from a run of 32-byte encodings in `endian` order (a whole
/// number of them), the first being scalar number `first` at byte offset
/// `base`; each is checked < r.
pub fn decode_scalar_run<C: InputCurve>(
    body: &[u8],
    first: usize,
    base: u64,
    endian: ScalarEndian,
) -> Result<Vec<ScalarLimbs>, BadRecord> {
    let limbs: Vec<ScalarLimbs> = body.par_chunks_exact(SCALAR_BYTES).map(|b| endian.limbs(b)).collect();
    check_scalars::<C>(&limbs).map_err(|e| {
        let k = match e {
            MsmError::ScalarNotReduced { index } => index,
            _ => 0,
        };
        let offset = base + (k * SCALAR_BYTES) as u64;
        BadRecord::at(Input::Scalars, first + k, offset, RecordFault::ScalarNotReduced { curve: C::NAME })
    })?;
    Ok(limbs)
}

/// Scalars from their 32-byte encodings in `endian` order, each checked < r.
pub fn decode_scalars<C: InputCurve>(bytes: &[u8], endian: ScalarEndian) -> Result<Vec<ScalarLimbs>, InputError> {
    if !bytes.len().is_multiple_of(SCALAR_BYTES) {
        let whole = bytes.len() / SCALAR_BYTES;
        let extra = bytes.len() % SCALAR_BYTES;
        // the words C and Python callers have always had
        let message = format!(
            "scalars: byte offset {}: truncated scalar: {} bytes is {whole} whole 32-byte scalars plus {extra}",
            whole * SCALAR_BYTES,
            bytes.len(),
        );
        let fault = RecordFault::Truncated { extra, size: SCALAR_BYTES };
        return Err(InputError::with_message(
            BadRecord::whole(Input::Scalars, (whole * SCALAR_BYTES) as u64, fault),
            message,
        ));
    }
    decode_scalar_run::<C>(bytes, 0, 0, endian).map_err(InputError::from)
}

/// The scalars' body: a whole number of 32-byte scalars, or the same after
/// the CLI's 8-byte length prefix, whose value must be their count (what the
/// C ABI and the Python package accept in one buffer).
pub fn strip_scalars_prefix(bytes: &[u8]) -> Result<&[u8], InputError> {
    if bytes.len() % SCALAR_BYTES != LENGTH_PREFIX_BYTES {
        return Ok(bytes);
    }
    let (head, body) = bytes.split_at(LENGTH_PREFIX_BYTES);
    let count = body.len() / SCALAR_BYTES;
    let mut prefix = [0u8; LENGTH_PREFIX_BYTES];
    prefix.copy_from_slice(head);
    let declared = u64::from_le_bytes(prefix);
    if declared != count as u64 {
        let fault = RecordFault::LengthPrefix { declared, expected: count as u64 };
        let message = format!(
            "scalars: byte offset 0: {} bytes is {count} whole 32-byte scalars plus 8: a length prefix would say \
             {count}, it says {declared}",
            bytes.len()
        );
        return Err(InputError::with_message(BadRecord::whole(Input::Scalars, 0, fault), message));
    }
    Ok(body)
}
