//! Prepared files: MSM_INIT persisted. `zkmsm prepare` validates and
//! converts the points once and writes them in the backend's own layout;
//! `zkmsm msm --prepared` (and [`open_prepared`]) maps the file and starts at
//! once: no decoding, no validation, no conversion, no copy.
//!
//! # Format (version 3)
//!
//! A 4096-byte header, then the records (the backend's prepared points, in
//! fixed-base mode all the shifted copies, with GLV the n points followed by
//! their n images phi(P_i)), page-aligned so that they can be used in place.
//! Little-endian:
//!
//! | offset | field |
//! |---|---|
//! | 0 | magic `ZKMSMPRE` |
//! | 8 | format version (u32) |
//! | 12 | header bytes (u32, 4096) |
//! | 16 | curve name (16 bytes, NUL-padded) |
//! | 32 | backend name (32 bytes) |
//! | 64 | layout name (32 bytes): the records' form, e.g. `affine-mont64` |
//! | 96 | record bytes, record alignment (u32, u32) |
//! | 104 | points n (u64) |
//! | 112 | precompute copies (u32, 0 = none), window c (u32, 0 = the cost model's) |
//! | 120 | records (u64): n, n x copies, or 2n with GLV images |
//! | 128 | record bytes in all (u64) |
//! | 136 | checksum of the records: XXH3-64 of the XXH3-64s of their 1 MiB blocks (the last one shorter), each as 8 little-endian bytes, in order |
//! | 144 | GLV images (u32: 1 = records n..2n are phi(P_0..P_{n-1}), 0 = none), then a u32 of zeros |
//! | 152 | XXH3-64 of bytes 0..152 |
//! | 160..4096 | reserved: zeros |
//!
//! Version 2 is still read: the same header, the records' checksum the
//! XXH3-64 of all of them at once (one core hashes it; version 3's blocks
//! are hashed on every core). Version 1 (before GLV images) is still read:
//! the same fields up to 144 and version 2's records checksum, its header
//! checksum (of bytes 0..144) at 144, reserved zeros from 152; it has no
//! images. This build writes version 3.
//!
//! A file with images runs GLV under [`crate::GlvMode::Auto`] and [`crate::GlvMode::On`]
//! ([`open_prepared_with`]); under [`crate::GlvMode::Off`] only the first n records
//! are mapped. `On` on a file without images is refused.
//!
//! Everything is checked before the records are used: magic, version,
//! header checksum and reserved zeros, curve, backend and layout (and that
//! this CPU runs the layout), record size and alignment as this build lays
//! them out, the counts and lengths against each other and against the
//! file's length (before anything is sized from them), the precomputation
//! against its window, the records' checksum, and that every record is a
//! valid value of its type: coordinates canonical (below q, in the layout's
//! radix), infinity exactly as written. Each refusal is one line naming the file and what is wrong
//! ([`PreparedRefusal`]; its [`PreparedRefusal::kind`] tells a file this machine or build cannot use,
//! to be prepared again here, from a damaged one).
//! The checksums catch corruption (a bad disk, a truncated copy), not a file
//! crafted to pass them: a prepared file is trusted the way a build artifact
//! is, so prepare it from validated points on a machine you control.

mod format;
mod open;
mod persist;
mod refusal;
mod write;

pub use format::{
    mapped_records, records_checksum, Header, Layout, Persist, CHECKSUM_BLOCK, FORMAT_VERSION, FORMAT_VERSION_1,
    FORMAT_VERSION_2,
};
pub use open::{open_prepared, open_prepared_with};
pub use refusal::{FileKind, HeaderFault, PreparedRefusal, RefusalKind};
