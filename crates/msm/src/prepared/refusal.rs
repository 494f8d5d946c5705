//! Why a prepared file is refused ([`PreparedRefusal`]), and whether that is
//! a file this machine or build cannot use or a damaged one ([`RefusalKind`]).

use std::fmt;

/// What a file that is not a regular file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A directory.
    Directory,
    /// A FIFO (named pipe).
    Fifo,
    /// A character or block device.
    Device,
    /// Anything else that is not a regular file (a socket, ...).
    Other,
}

impl FileKind {
    /// What a file of this type is, or None for a regular file.
    pub fn of(t: std::fs::FileType) -> Option<Self> {
        use std::os::unix::fs::FileTypeExt;
        if t.is_file() {
            None
        } else if t.is_dir() {
            Some(FileKind::Directory)
        } else if t.is_fifo() {
            Some(FileKind::Fifo)
        } else if t.is_char_device() || t.is_block_device() {
            Some(FileKind::Device)
        } else {
            Some(FileKind::Other)
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Directory => "a directory",
            FileKind::Fifo => "a FIFO",
            FileKind::Device => "a device",
            FileKind::Other => "not a regular file",
        })
    }
}

/// A header whose checksum holds but whose fields do not agree.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderFault {
    /// A reserved byte that is not zero.
    #[error("reserved byte {at} is not zero")]
    ReservedByte {
        /// Its offset in the header.
        at: usize,
    },
    /// The GLV images field is neither 0 nor 1, or its padding not zero.
    #[error("GLV images field {flag} (0 or 1), then {pad} (0)")]
    GlvField {
        /// The flag.
        flag: u32,
        /// The padding after it.
        pad: u32,
    },
    /// Records times record bytes is not the data length.
    #[error("records x record bytes is not the data length")]
    DataLength,
    /// GLV images together with fixed-base precomputation.
    #[error("GLV images with fixed-base precomputation")]
    GlvWithPrecompute,
    /// The record count is not the points times the copies (or 2 x points with GLV images).
    #[error("{}", record_count(.glv_images))]
    RecordCount {
        /// The header says the file has GLV images.
        glv_images: bool,
    },
    /// The precomputation's copies do not fit its window, or the window is out of range.
    #[error("precomputation of {copies} copies does not fit window c = {window} (1..={max} with copies, 0 without)")]
    Window {
        /// Copies the header says.
        copies: u32,
        /// Window the header says.
        window: u32,
        /// The largest window.
        max: u32,
    },
}

fn record_count(glv_images: &bool) -> &'static str {
    if *glv_images {
        "the record count is not 2 x points (points and GLV images)"
    } else {
        "the record count is not points x copies"
    }
}

/// Why a prepared file is refused; displayed as one line (the part after
/// `{path}: prepared file refused: `).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PreparedRefusal {
    /// No `ZKMSMPRE` magic: not a prepared file.
    #[error("not a zkmsm prepared file (no ZKMSMPRE magic)")]
    NotPrepared,
    /// Not a regular file (a prepared file is mapped).
    #[error("{kind}: a prepared file is mapped, so it must be a regular file written by zkmsm prepare")]
    NotRegularFile {
        /// What it is.
        kind: FileKind,
    },
    /// Shorter than the header.
    #[error("truncated: {len} bytes, shorter than the {header}-byte header")]
    TruncatedHeader {
        /// The file's length.
        len: usize,
        /// The header's length.
        header: usize,
    },
    /// A format version this build does not read.
    #[error("format version {version}; this zkmsm reads versions {oldest} to {newest}: prepare the points again")]
    Version {
        /// The file's version.
        version: u32,
        /// The oldest version this build reads.
        oldest: u32,
        /// The version this build writes.
        newest: u32,
    },
    /// The header's own checksum fails.
    #[error("header checksum mismatch: the file is corrupt")]
    HeaderChecksum,
    /// Header fields that disagree.
    #[error("header corrupt: {0}")]
    HeaderCorrupt(HeaderFault),
    /// Prepared for another curve.
    #[error("prepared for {file}, not {here}")]
    OtherCurve {
        /// The file's curve.
        file: String,
        /// The curve asked for.
        here: &'static str,
    },
    /// A backend name this build does not know.
    #[error("unknown backend \"{name}\"")]
    UnknownBackend {
        /// The name in the header.
        name: String,
    },
    /// A twisted Edwards file of a curve without that form.
    #[error("{curve} has no twisted Edwards form")]
    NoTwistedEdwards {
        /// The curve.
        curve: &'static str,
    },
    /// Fewer bytes of records than the header promises.
    #[error("truncated: the header promises {promised} bytes of points after the header, the file has {have}")]
    Truncated {
        /// Bytes the header promises.
        promised: u64,
        /// Bytes the file has after its header.
        have: u64,
    },
    /// More bytes than the header promises.
    #[error("trailing bytes: the header promises {promised} bytes of points after the header, the file has {have}")]
    TrailingBytes {
        /// Bytes the header promises.
        promised: u64,
        /// Bytes the file has after its header.
        have: u64,
    },
    /// The records' checksum fails.
    #[error("checksum mismatch: the points are corrupt")]
    Checksum,
    /// A layout the backend named in the header does not run (another build's).
    #[error("layout {layout} is not one the {backend} backend runs")]
    LayoutNotRun {
        /// The file's layout.
        layout: String,
        /// The backend.
        backend: &'static str,
    },
    /// A layout for CPU features (arithmetic) this CPU lacks.
    #[error("layout {layout} needs {feature}, which this CPU lacks")]
    CpuLacks {
        /// The file's layout.
        layout: String,
        /// What it needs (`AVX-512 IFMA`).
        feature: &'static str,
    },
    /// Records of another size or alignment than this build lays the layout out with.
    #[error(
        "layout {layout} has {bytes}-byte records aligned to {align} in this build; the file has \
         {file_bytes}-byte records aligned to {file_align}"
    )]
    RecordShape {
        /// The file's layout.
        layout: String,
        /// Bytes of a record in this build.
        bytes: usize,
        /// Alignment of a record in this build.
        align: usize,
        /// Bytes of a record in the file.
        file_bytes: u32,
        /// Alignment of a record in the file.
        file_align: u32,
    },
    /// More records than this machine addresses.
    #[error("{records} records: more than this machine addresses")]
    TooManyRecords {
        /// The header's record count.
        records: u64,
    },
    /// A record that is not a valid value of its type.
    #[error("a record is not a valid {layout} value")]
    InvalidRecord {
        /// The file's layout.
        layout: String,
    },
    /// A record of a lane layout that is not canonical in its radix.
    #[error(
        "layout {layout}: a coordinate that is not a canonical value (at or above q, or a limb beyond its radix), \
         or a dirty point at infinity"
    )]
    NotCanonical {
        /// The file's layout.
        layout: String,
    },
    /// GLV images of a curve that has no GLV in this build.
    #[error("holds GLV images, and {curve} has no GLV here")]
    NoGlvHere {
        /// The curve.
        curve: &'static str,
    },
    /// GLV asked for, and the file has no images.
    #[error("GLV on: the file has no GLV images (version 1, or prepared with GLV off): prepare it with GLV on")]
    NoGlvImages,
    /// A fixed-base file asked to run another window than its copies are shifted for.
    #[error("precomputed for window c = {prepared}, not --window {asked}: prepare it again with --window {asked}")]
    OtherWindow {
        /// The file's window.
        prepared: u32,
        /// The window asked for.
        asked: u32,
    },
}

/// The two kinds of refusal a caller acts on differently (and a file that
/// is not a prepared file at all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalKind {
    /// The file may well be intact, but this machine, build or request
    /// cannot use it (another curve, format version, CPU arithmetic or
    /// record layout, GLV or window): prepare the points again here.
    Incompatible,
    /// The file is damaged (corrupt or truncated): prepare it again, or
    /// restore a good copy.
    Damaged,
    /// Not a prepared file (no magic, or not a regular file).
    NotPrepared,
}

impl PreparedRefusal {
    /// Whether this machine or build cannot use the file, the file is
    /// damaged, or it is not a prepared file.
    pub fn kind(&self) -> RefusalKind {
        use PreparedRefusal::*;
        match self {
            NotPrepared | NotRegularFile { .. } => RefusalKind::NotPrepared,
            TruncatedHeader { .. }
            | HeaderChecksum
            | HeaderCorrupt(_)
            | Truncated { .. }
            | TrailingBytes { .. }
            | Checksum
            | InvalidRecord { .. }
            | NotCanonical { .. } => RefusalKind::Damaged,
            Version { .. }
            | OtherCurve { .. }
            | UnknownBackend { .. }
            | NoTwistedEdwards { .. }
            | LayoutNotRun { .. }
            | CpuLacks { .. }
            | RecordShape { .. }
            | TooManyRecords { .. }
            | NoGlvHere { .. }
            | NoGlvImages
            | OtherWindow { .. } => RefusalKind::Incompatible,
        }
    }

    /// This machine, build or request cannot use the file: prepare it again here.
    pub fn is_incompatible(&self) -> bool {
        self.kind() == RefusalKind::Incompatible
    }

    /// The file is damaged.
    pub fn is_damaged(&self) -> bool {
        self.kind() == RefusalKind::Damaged
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_is_one_line_of_its_kind() {
        use PreparedRefusal::*;
        let s = |x: &str| x.to_string();
        let cases: Vec<(PreparedRefusal, &str, RefusalKind)> = vec![
            (NotPrepared, "not a zkmsm prepared file (no ZKMSMPRE magic)", RefusalKind::NotPrepared),
            (
                NotRegularFile { kind: FileKind::Fifo },
                "a FIFO: a prepared file is mapped, so it must be a regular file written by zkmsm prepare",
                RefusalKind::NotPrepared,
            ),
            (
                TruncatedHeader { len: 100, header: 4096 },
                "truncated: 100 bytes, shorter than the 4096-byte header",
                RefusalKind::Damaged,
            ),
            (
                Version { version: 4, oldest: 1, newest: 3 },
                "format version 4; this zkmsm reads versions 1 to 3: prepare the points again",
                RefusalKind::Incompatible,
            ),
            (HeaderChecksum, "header checksum mismatch: the file is corrupt", RefusalKind::Damaged),
            (
                HeaderCorrupt(HeaderFault::Window { copies: 0, window: 5, max: 20 }),
                "header corrupt: precomputation of 0 copies does not fit window c = 5 (1..=20 with copies, 0 without)",
                RefusalKind::Damaged,
            ),
            (
                HeaderCorrupt(HeaderFault::RecordCount { glv_images: true }),
                "header corrupt: the record count is not 2 x points (points and GLV images)",
                RefusalKind::Damaged,
            ),
            (
                OtherCurve { file: s("bls12-381"), here: "bls12-377" },
                "prepared for bls12-381, not bls12-377",
                RefusalKind::Incompatible,
            ),
            (
                Truncated { promised: 4800, have: 4799 },
                "truncated: the header promises 4800 bytes of points after the header, the file has 4799",
                RefusalKind::Damaged,
            ),
            (
                TrailingBytes { promised: 4800, have: 4801 },
                "trailing bytes: the header promises 4800 bytes of points after the header, the file has 4801",
                RefusalKind::Damaged,
            ),
            (Checksum, "checksum mismatch: the points are corrupt", RefusalKind::Damaged),
            (
                CpuLacks { layout: s("ifma52-point52"), feature: "AVX-512 IFMA" },
                "layout ifma52-point52 needs AVX-512 IFMA, which this CPU lacks",
                RefusalKind::Incompatible,
            ),
            (
                RecordShape { layout: s("affine-mont64"), bytes: 104, align: 8, file_bytes: 112, file_align: 8 },
                "layout affine-mont64 has 104-byte records aligned to 8 in this build; the file has 112-byte records \
                 aligned to 8",
                RefusalKind::Incompatible,
            ),
            (
                OtherWindow { prepared: 8, asked: 9 },
                "precomputed for window c = 8, not --window 9: prepare it again with --window 9",
                RefusalKind::Incompatible,
            ),
        ];
        for (r, want, kind) in cases {
            let line = r.to_string();
            assert!(!line.contains('\n'), "{line}");
            assert_eq!(line, want);
            assert_eq!(r.kind(), kind, "{line}");
            assert_eq!(r.is_incompatible(), kind == RefusalKind::Incompatible);
            assert_eq!(r.is_damaged(), kind == RefusalKind::Damaged);
        }
    }
}
