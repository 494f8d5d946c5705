//! One bad input record, whoever reads it: which input, the record's index
//! and byte offset, and what is wrong ([`BadRecord`]). The byte decoders
//! ([`crate::input::load`], [`crate::input::bytes`]) return it, the file
//! readers ([`crate::input::io`], [`crate::out_of_core`]) put it in
//! [`crate::MsmError::Malformed`] beside the file's name.

use std::fmt;
use std::path::PathBuf;
use zkmsm_curve::{DecodeError, PointFormat};

/// Which input a [`BadRecord`] is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Input {
    /// The points.
    Points,
    /// The scalars.
    Scalars,
}

impl Input {
    /// `"points"` or `"scalars"`.
    pub fn name(self) -> &'static str {
        match self {
            Input::Points => "points",
            Input::Scalars => "scalars",
        }
    }

    /// One record's name: `"point"` or `"scalar"`.
    pub fn record(self) -> &'static str {
        match self {
            Input::Points => "point",
            Input::Scalars => "scalar",
        }
    }

    fn count(self, n: usize) -> String {
        format!("{n} {}{}", self.record(), if n == 1 { "" } else { "s" })
    }
}

/// What is wrong with one point.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PointFault {
    /// The encoding (flags, canonical coordinates, curve equation, square root).
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// Decodes, but the curve equation fails.
    #[error("not on the curve")]
    NotOnCurve,
    /// On the curve but outside the prime-order subgroup.
    #[error("not in the prime-order subgroup")]
    NotInSubgroup,
}

/// What is wrong with a record, or with the input around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordFault {
    /// A point that does not decode or validate.
    Point(PointFault),
    /// A point that is not valid in a layout being tried (`zkmsm prepare`
    /// tells a points file's layout by decoding its first points).
    ProbedPoint {
        /// The encoding tried.
        format: PointFormat,
        /// What is wrong with the point in it.
        fault: PointFault,
    },
    /// A point that does not decode where the layout was told by the count
    /// alone, and the input's length also holds another count of the other
    /// encoding (two files concatenated read as the right count of garbage).
    PointOfOtherCount {
        /// What is wrong with the point.
        fault: PointFault,
        /// The count the points were read as.
        count: usize,
        /// The encoding they were read in.
        format: PointFormat,
        /// The input's length in bytes.
        len: usize,
        /// The other counts of the other encoding that the length holds.
        also: Vec<usize>,
    },
    /// A scalar at or above the group order r.
    ScalarNotReduced {
        /// The curve whose r it is (`bls12-381`).
        curve: &'static str,
    },
    /// The bytes end inside a record; the record's offset is where the
    /// last whole record ends.
    Truncated {
        /// Bytes after the last whole record.
        extra: usize,
        /// Bytes a record takes.
        size: usize,
    },
    /// The arkworks 8-byte length prefix disagrees with the input.
    LengthPrefix {
        /// What the prefix says.
        declared: u64,
        /// The count it should say.
        expected: u64,
    },
    /// The input's size, layout or count is wrong as a whole (no one record is).
    Layout(LayoutFault),
}

impl From<PointFault> for RecordFault {
    fn from(fault: PointFault) -> Self {
        RecordFault::Point(fault)
    }
}

impl From<LayoutFault> for RecordFault {
    fn from(fault: LayoutFault) -> Self {
        RecordFault::Layout(fault)
    }
}

/// One layout of points a length holds: the count, the encoding, and whether
/// after the length prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    /// Number of points.
    pub count: usize,
    /// Their encoding.
    pub format: PointFormat,
    /// After the 8-byte length prefix.
    pub prefixed: bool,
}

/// What is wrong with an input as a whole: its size, its layout, its count
/// against the other input's or against the limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayoutFault {
    /// The file ended before the length it had when opened.
    Shrank,
    /// A stream (its length unknown) goes on past the most records allowed.
    StreamAboveLimit {
        /// The most records allowed.
        limit: usize,
        /// The byte the stream goes on past.
        past: usize,
        /// How to raise the limit (` (--max-points)`), or empty.
        hint: &'static str,
    },
    /// More records than the limit allows.
    AboveLimit {
        /// Number of records.
        count: usize,
        /// The input's length in bytes.
        len: usize,
        /// The most records allowed.
        limit: usize,
        /// How to raise the limit, or empty.
        hint: &'static str,
    },
    /// A scalars stream goes on past the most points the points file can hold.
    StreamOutnumbers {
        /// The most points the points file holds.
        most: usize,
        /// The byte the stream goes on past.
        past: usize,
        /// The points file.
        points: PathBuf,
        /// Its length in bytes.
        points_len: usize,
    },
    /// A points stream longer than its count of points takes in any layout.
    StreamTooLong {
        /// The most bytes the points take.
        most: usize,
        /// Number of points.
        count: usize,
        /// The scalars file that fixes the count, when there is one.
        scalars: Option<PathBuf>,
    },
    /// A points input whose length holds whole points, but not as many as the scalars.
    CountsDiffer {
        /// The layouts its length holds.
        held: Vec<Held>,
        /// Its length in bytes.
        len: usize,
        /// The scalars file.
        scalars: PathBuf,
        /// Number of scalars.
        count: usize,
    },
    /// A points input whose length fits no layout of the count.
    Size {
        /// Its length in bytes.
        len: usize,
        /// Number of points it should hold.
        count: usize,
        /// The encoding asked for (`None`: either).
        format: Option<PointFormat>,
        /// Bytes of a compressed point.
        compressed: usize,
        /// Bytes of an uncompressed point.
        uncompressed: usize,
    },
    /// A points input whose length is not whole points in any layout.
    NotWhole {
        /// Its length in bytes.
        len: usize,
        /// The curve's name.
        curve: &'static str,
        /// The encoding asked for (`None`: either).
        format: Option<PointFormat>,
        /// Bytes of a compressed point.
        compressed: usize,
        /// Bytes of an uncompressed point.
        uncompressed: usize,
    },
    /// The first points are valid both compressed and uncompressed.
    BothLayouts {
        /// The input's length in bytes.
        len: usize,
    },
    /// The first points are valid neither compressed nor uncompressed.
    NeitherLayout {
        /// The input's length in bytes.
        len: usize,
        /// The first bad point in each layout.
        failures: Vec<BadRecord>,
    },
    /// Mapped scalars that are not aligned as limbs.
    Unaligned,
}

/// A bad record (or input): which input, the record's index where one
/// record is at fault, the byte offset, and what is wrong. Displayed as one
/// line: `byte offset 96: point 2: not on the curve`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadRecord {
    /// Which input.
    pub input: Input,
    /// Index of the bad record, when one record is at fault.
    pub index: Option<usize>,
    /// Byte offset in the input of the bad record (or of where the input
    /// goes wrong).
    pub offset: u64,
    /// What is wrong.
    pub fault: RecordFault,
}

impl std::error::Error for BadRecord {}

/// The arkworks format of the other size (EVM points have the uncompressed size).
fn other_format(f: PointFormat) -> PointFormat {
    match f {
        PointFormat::Compressed => PointFormat::Uncompressed,
        PointFormat::Uncompressed | PointFormat::Evm => PointFormat::Compressed,
    }
}

impl BadRecord {
    /// A bad record of `input`: the record `index` at byte `offset`.
    pub fn at(input: Input, index: usize, offset: u64, fault: impl Into<RecordFault>) -> Self {
        Self { input, index: Some(index), offset, fault: fault.into() }
    }

    /// A fault of `input` as a whole, at byte `offset`.
    pub fn whole(input: Input, offset: u64, fault: impl Into<RecordFault>) -> Self {
        Self { input, index: None, offset, fault: fault.into() }
    }

    /// The same record, its index counted from `first` and its offset from `base`.
    pub fn shifted(mut self, first: usize, base: u64) -> Self {
        self.index = self.index.map(|i| i + first);
        self.offset += base;
        self
    }

    /// What is wrong, without the offset: `point 2: not on the curve`.
    pub fn what(&self) -> String {
        let record = match self.index {
            Some(i) => format!("{} {i}", self.input.record()),
            None => self.input.record().to_string(),
        };
        match &self.fault {
            RecordFault::Point(fault) => format!("{record}: {fault}"),
            RecordFault::ProbedPoint { format, fault } => {
                format!("{record} (as {} points): {fault}", format.name())
            }
            RecordFault::PointOfOtherCount { fault, count, format, len, also } => {
                let other = other_format(*format).name();
                let also: Vec<String> = also.iter().map(|m| format!("{m} {other} points")).collect();
                format!(
                    "{record}: {fault} (read as {count} {} points to match the {count} scalars; the {len} bytes also \
                     hold {}, a different count: check the counts, or say the encoding with --point-format)",
                    format.name(),
                    also.join(" or ")
                )
            }
            RecordFault::ScalarNotReduced { curve } => format!("{record} is not below the {curve} group order r"),
            RecordFault::Truncated { extra, size } => match self.input {
                Input::Points => {
                    let truncated = format!("truncated: {extra} bytes after the last whole {size}-byte point");
                    if self.index.is_some() {
                        format!("{record}: {truncated}")
                    } else {
                        truncated
                    }
                }
                Input::Scalars => {
                    let whole = self.offset as usize / (*size).max(1);
                    format!(
                        "truncated scalar: {} bytes is {whole} whole {size}-byte scalars plus {extra} bytes",
                        self.offset as usize + extra
                    )
                }
            },
            RecordFault::LengthPrefix { declared, expected } => match self.input {
                Input::Points => format!("length prefix says {declared} points, expected {expected}"),
                Input::Scalars => format!(
                    "{} bytes is {expected} whole 32-byte scalars plus 8: an arkworks length prefix would say \
                     {expected}, these 8 bytes say {declared} (or the file is truncated)",
                    expected.saturating_mul(32).saturating_add(8)
                ),
            },
            RecordFault::Layout(fault) => self.layout(fault),
        }
    }

    fn layout(&self, fault: &LayoutFault) -> String {
        let input = self.input;
        match fault {
            LayoutFault::Shrank => {
                "the file ended before its length when opened (did it change while being read?)".to_string()
            }
            LayoutFault::StreamAboveLimit { limit, past, hint } => format!(
                "more than {limit} {} (the stream goes on past byte {past}): above the input limit{hint}",
                input.name()
            ),
            LayoutFault::AboveLimit { count, len, limit, hint } => {
                format!("{count} {} ({len} bytes): above the input limit of {limit}{hint}", input.name())
            }
            LayoutFault::StreamOutnumbers { most, past, points, points_len } => format!(
                "more than {} (the stream goes on past byte {past}), but {} ({points_len} bytes) holds at most {}: \
                 the counts differ",
                input.count(*most),
                points.display(),
                Input::Points.count(*most),
            ),
            LayoutFault::StreamTooLong { most, count, scalars: Some(scalars) } => format!(
                "longer than {most} bytes, the most {} take in any layout ({} in {})",
                Input::Points.count(*count),
                Input::Scalars.count(*count),
                scalars.display()
            ),
            LayoutFault::StreamTooLong { most, count, scalars: None } => {
                format!("longer than {most} bytes, the most {count} points take in any layout")
            }
            LayoutFault::CountsDiffer { held, len, scalars, count } => {
                let held: Vec<String> = held
                    .iter()
                    .map(|h| {
                        format!(
                            "{} {} point{}{}",
                            h.count,
                            h.format.name(),
                            if h.count == 1 { "" } else { "s" },
                            if h.prefixed { " after a length prefix" } else { "" }
                        )
                    })
                    .collect();
                format!(
                    "holds {} ({len} bytes) but {} holds {}: the counts differ",
                    held.join(" or "),
                    scalars.display(),
                    Input::Scalars.count(*count)
                )
            }
            LayoutFault::Size { len, count, format, compressed, uncompressed } => {
                let allowed = match format {
                    Some(f) => {
                        let size = if *f == PointFormat::Compressed { compressed } else { uncompressed };
                        format!("{} bytes ({count} x {size}, optionally + 8)", count * size)
                    }
                    None => format!(
                        "{} (compressed) or {} (uncompressed) bytes, optionally + 8",
                        count * compressed,
                        count * uncompressed
                    ),
                };
                format!("file has {len} bytes; {count} points need {allowed}")
            }
            LayoutFault::NotWhole { len, curve, format: Some(f), compressed, uncompressed } => {
                let size = if *f == PointFormat::Compressed { compressed } else { uncompressed };
                format!(
                    "{len} bytes is not a whole number of {} {curve} points ({size} bytes each, optionally after an \
                     8-byte length prefix)",
                    f.name()
                )
            }
            LayoutFault::NotWhole { len, curve, format: None, compressed, uncompressed } => format!(
                "{len} bytes is not a whole number of {curve} points ({compressed} bytes compressed, {uncompressed} \
                 uncompressed, optionally after an 8-byte length prefix)"
            ),
            LayoutFault::BothLayouts { len } => format!(
                "{len} bytes could be compressed or uncompressed points, and the first points are valid as both: say \
                 which with --point-format"
            ),
            LayoutFault::NeitherLayout { len, failures } => {
                let each: Vec<String> = failures.iter().map(BadRecord::to_string).collect();
                format!(
                    "{len} bytes could be compressed or uncompressed points, and the first points are valid as \
                     neither ({}): say which with --point-format",
                    each.join("; ")
                )
            }
            LayoutFault::Unaligned => "scalars not aligned in the mapping".to_string(),
        }
    }
}

impl fmt::Display for BadRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte offset {}: {}", self.offset, self.what())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(r: &BadRecord) -> String {
        let s = r.to_string();
        assert!(!s.contains('\n'), "one line: {s}");
        assert!(s.starts_with(&format!("byte offset {}: ", r.offset)), "names the offset: {s}");
        if let Some(i) = r.index {
            assert!(s.contains(&format!("{} {i}", r.input.record())), "names the record: {s}");
        }
        s
    }

    #[test]
    fn each_fault_is_one_line_naming_index_and_offset() {
        let p = |index, offset, fault| BadRecord::at(Input::Points, index, offset, fault);
        let no_such_x = format!("byte offset 8: point 0: {}", DecodeError::NoSuchX);
        let cases: Vec<(BadRecord, &str)> = vec![
            (p(2, 96, RecordFault::Point(PointFault::NotOnCurve)), "byte offset 96: point 2: not on the curve"),
            (p(3, 144, PointFault::NotInSubgroup.into()), "byte offset 144: point 3: not in the prime-order subgroup"),
            (p(0, 8, RecordFault::Point(PointFault::Decode(DecodeError::NoSuchX))), &no_such_x),
            (
                p(1, 48, RecordFault::ProbedPoint { format: PointFormat::Compressed, fault: PointFault::NotOnCurve }),
                "byte offset 48: point 1 (as compressed points): not on the curve",
            ),
            (
                p(
                    0,
                    0,
                    RecordFault::PointOfOtherCount {
                        fault: PointFault::NotOnCurve,
                        count: 2,
                        format: PointFormat::Uncompressed,
                        len: 192,
                        also: vec![4],
                    },
                ),
                "byte offset 0: point 0: not on the curve (read as 2 uncompressed points to match the 2 scalars; the \
                 192 bytes also hold 4 compressed points, a different count: check the counts, or say the encoding \
                 with --point-format)",
            ),
            (
                BadRecord::at(Input::Scalars, 6, 200, RecordFault::ScalarNotReduced { curve: "bls12-377" }),
                "byte offset 200: scalar 6 is not below the bls12-377 group order r",
            ),
            (
                p(39, 1872, RecordFault::Truncated { extra: 45, size: 48 }),
                "byte offset 1872: point 39: truncated: 45 bytes after the last whole 48-byte point",
            ),
            (
                BadRecord::whole(Input::Scalars, 64, RecordFault::Truncated { extra: 7, size: 32 }),
                "byte offset 64: truncated scalar: 71 bytes is 2 whole 32-byte scalars plus 7 bytes",
            ),
            (
                BadRecord::whole(Input::Points, 0, RecordFault::LengthPrefix { declared: 99, expected: 100 }),
                "byte offset 0: length prefix says 99 points, expected 100",
            ),
            (
                BadRecord::whole(Input::Scalars, 0, RecordFault::LengthPrefix { declared: 17, expected: 16 }),
                "byte offset 0: 520 bytes is 16 whole 32-byte scalars plus 8: an arkworks length prefix would say \
                 16, these 8 bytes say 17 (or the file is truncated)",
            ),
        ];
        for (r, want) in &cases {
            assert_eq!(line(r), *want);
        }
    }

    #[test]
    fn each_layout_fault_is_one_line_naming_the_offset() {
        let w = |input, offset, fault| BadRecord::whole(input, offset, RecordFault::Layout(fault));
        let cases: Vec<(BadRecord, &str)> = vec![
            (
                w(Input::Points, 64, LayoutFault::Shrank),
                "byte offset 64: the file ended before its length when opened (did it change while being read?)",
            ),
            (
                w(Input::Scalars, 40, LayoutFault::StreamAboveLimit { limit: 1, past: 40, hint: "" }),
                "byte offset 40: more than 1 scalars (the stream goes on past byte 40): above the input limit",
            ),
            (
                w(Input::Points, 104, LayoutFault::StreamAboveLimit { limit: 1, past: 104, hint: " (--max-points)" }),
                "byte offset 104: more than 1 points (the stream goes on past byte 104): above the input limit \
                 (--max-points)",
            ),
            (
                w(Input::Scalars, 64, LayoutFault::AboveLimit { count: 3, len: 96, limit: 2, hint: "" }),
                "byte offset 64: 3 scalars (96 bytes): above the input limit of 2",
            ),
            (
                w(
                    Input::Scalars,
                    40,
                    LayoutFault::StreamOutnumbers { most: 1, past: 40, points: "p".into(), points_len: 48 },
                ),
                "byte offset 40: more than 1 scalar (the stream goes on past byte 40), but p (48 bytes) holds at \
                 most 1 point: the counts differ",
            ),
            (
                w(Input::Points, 200, LayoutFault::StreamTooLong { most: 200, count: 2, scalars: Some("s".into()) }),
                "byte offset 200: longer than 200 bytes, the most 2 points take in any layout (2 scalars in s)",
            ),
            (
                w(Input::Points, 104, LayoutFault::StreamTooLong { most: 104, count: 1, scalars: None }),
                "byte offset 104: longer than 104 bytes, the most 1 points take in any layout",
            ),
            (
                w(
                    Input::Points,
                    96,
                    LayoutFault::CountsDiffer {
                        held: vec![
                            Held { count: 2, format: PointFormat::Compressed, prefixed: false },
                            Held { count: 1, format: PointFormat::Uncompressed, prefixed: false },
                        ],
                        len: 96,
                        scalars: "s".into(),
                        count: 3,
                    },
                ),
                "byte offset 96: holds 2 compressed points or 1 uncompressed point (96 bytes) but s holds 3 scalars: \
                 the counts differ",
            ),
            (
                w(
                    Input::Points,
                    50,
                    LayoutFault::Size { len: 50, count: 1, format: None, compressed: 48, uncompressed: 96 },
                ),
                "byte offset 50: file has 50 bytes; 1 points need 48 (compressed) or 96 (uncompressed) bytes, \
                 optionally + 8",
            ),
            (
                w(
                    Input::Points,
                    50,
                    LayoutFault::Size {
                        len: 50,
                        count: 1,
                        format: Some(PointFormat::Uncompressed),
                        compressed: 48,
                        uncompressed: 96,
                    },
                ),
                "byte offset 50: file has 50 bytes; 1 points need 96 bytes (1 x 96, optionally + 8)",
            ),
            (
                w(
                    Input::Points,
                    48,
                    LayoutFault::NotWhole {
                        len: 50,
                        curve: "bls12-381",
                        format: Some(PointFormat::Compressed),
                        compressed: 48,
                        uncompressed: 96,
                    },
                ),
                "byte offset 48: 50 bytes is not a whole number of compressed bls12-381 points (48 bytes each, \
                 optionally after an 8-byte length prefix)",
            ),
            (
                w(
                    Input::Points,
                    50,
                    LayoutFault::NotWhole {
                        len: 50,
                        curve: "bls12-381",
                        format: None,
                        compressed: 48,
                        uncompressed: 96,
                    },
                ),
                "byte offset 50: 50 bytes is not a whole number of bls12-381 points (48 bytes compressed, 96 \
                 uncompressed, optionally after an 8-byte length prefix)",
            ),
            (
                w(Input::Points, 0, LayoutFault::BothLayouts { len: 192 }),
                "byte offset 0: 192 bytes could be compressed or uncompressed points, and the first points are valid \
                 as both: say which with --point-format",
            ),
            (
                w(
                    Input::Points,
                    0,
                    LayoutFault::NeitherLayout {
                        len: 192,
                        failures: vec![BadRecord::at(
                            Input::Points,
                            0,
                            0,
                            RecordFault::ProbedPoint { format: PointFormat::Compressed, fault: PointFault::NotOnCurve },
                        )],
                    },
                ),
                "byte offset 0: 192 bytes could be compressed or uncompressed points, and the first points are valid \
                 as neither (byte offset 0: point 0 (as compressed points): not on the curve): say which with \
                 --point-format",
            ),
            (w(Input::Scalars, 8, LayoutFault::Unaligned), "byte offset 8: scalars not aligned in the mapping"),
        ];
        for (r, want) in &cases {
            assert_eq!(line(r), *want);
        }
    }

    #[test]
    fn shifted_counts_from_the_run() {
        let r = BadRecord::at(Input::Points, 3, 144, PointFault::NotOnCurve).shifted(100, 8);
        assert_eq!((r.index, r.offset), (Some(103), 152));
        assert_eq!(r.to_string(), "byte offset 152: point 103: not on the curve");
        let w = BadRecord::whole(Input::Points, 0, LayoutFault::Shrank).shifted(5, 8);
        assert_eq!((w.index, w.offset), (None, 8));
    }
}
