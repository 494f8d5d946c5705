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
//! A file with images runs GLV under [`GlvMode::Auto`] and [`GlvMode::On`]
//! ([`open_prepared_with`]); under [`GlvMode::Off`] only the first n records
//! are mapped. `On` on a file without images is refused.
//!
//! Everything is checked before the records are used: magic, version,
//! header checksum and reserved zeros, curve, backend and layout (and that
//! this CPU runs the layout), record size and alignment as this build lays
//! them out, the counts and lengths against each other and against the
//! file's length (before anything is sized from them), the precomputation
//! against its window, the records' checksum, and that every record is a
//! valid value of its type: coordinates canonical (below q, in the layout's
//! radix), infinity exactly as written. Each refusal is one line naming the file and what is wrong.
//! The checksums catch corruption (a bad disk, a truncated copy), not a file
//! crafted to pass them: a prepared file is trusted the way a build artifact
//! is, so prepare it from validated points on a machine you control.

use crate::context::MsmContext;
use crate::engine::{BackendChoice, EngineCurve, MsmEngine};
use crate::fixed_base::Precompute;
use crate::store::{Mapping, Record, Store};
use crate::{Backend, GlvMode, MsmError, Plan};
use std::fs::File;
use std::io::Write;
use std::path::Path;
use zkmsm_curve::MsmCurve;
use zkmsm_field::PrimeField;

/// The format version this build writes (it reads this,
/// [`FORMAT_VERSION_2`] and [`FORMAT_VERSION_1`]).
pub const FORMAT_VERSION: u32 = 3;
/// The format before the records' checksum by blocks: still read.
pub const FORMAT_VERSION_2: u32 = 2;
/// The first format version, without GLV images: still read.
pub const FORMAT_VERSION_1: u32 = 1;
/// The records' checksum (version 3) hashes blocks of this many bytes, in
/// parallel, then the blocks' hashes.
pub const CHECKSUM_BLOCK: usize = 1 << 20;
const MAGIC: [u8; 8] = *b"ZKMSMPRE";
/// Header size, and where the records start (a page boundary).
const HEADER_BYTES: usize = 4096;
/// The checksummed part of the header (versions 2 and 3; version 1: [`HEADER_USED_V1`]).
const HEADER_USED: usize = 152;
/// The checksummed part of a version-1 header.
const HEADER_USED_V1: usize = 144;

/// A backend whose prepared points can be written to a prepared file and
/// mapped back.
pub trait Persist<C: MsmCurve>: Backend<C> + Sized {
    /// The form of these prepared points.
    fn layout(prepared: &Self::Prepared) -> Layout;
    /// Their records' bytes, in order, to `sink`.
    fn write_records(
        prepared: &Self::Prepared,
        sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
    ) -> std::io::Result<()>;
    /// Prepared points over the records of a checked file (at byte `offset`
    /// of `map`, as `header` describes them); an error (a phrase) when this
    /// backend or this CPU does not run the header's layout, or a record is
    /// not a valid value ([`mapped_records`] does the checks).
    fn map(&self, header: &Header, map: Mapping, offset: usize) -> Result<Self::Prepared, String>;
}

/// The form of prepared points: a name (what the header says) and the record type's shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The layout's name, e.g. `affine-mont64`.
    pub name: String,
    /// Bytes per record in this build.
    pub record_bytes: usize,
    /// Alignment of a record in this build.
    pub record_align: usize,
    /// Number of records.
    pub records: usize,
}

impl Layout {
    /// The layout `name` of the records in `store`.
    pub fn of<T: Record>(name: impl Into<String>, store: &Store<T>) -> Self {
        Self {
            name: name.into(),
            record_bytes: core::mem::size_of::<T>(),
            record_align: core::mem::align_of::<T>(),
            records: store.len(),
        }
    }
}

/// The records of a checked file as a [`Store`] of `T`: refused unless the
/// header's record size and alignment are `T`'s in this build and every
/// record is a valid `T`.
pub fn mapped_records<T: Record>(header: &Header, map: Mapping, offset: usize) -> Result<Store<T>, String> {
    let (bytes, align) = (core::mem::size_of::<T>(), core::mem::align_of::<T>());
    if (header.record_bytes as usize, header.record_align as usize) != (bytes, align) {
        return Err(format!(
            "layout {} has {bytes}-byte records aligned to {align} in this build; the file has {}-byte records aligned to {}",
            header.layout, header.record_bytes, header.record_align
        ));
    }
    let records = usize::try_from(header.records)
        .map_err(|_| format!("{} records: more than this machine addresses", header.records))?;
    Store::mapped(map, offset, records).ok_or_else(|| format!("a record is not a valid {} value", header.layout))
}

/// What a prepared file's header says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Format version.
    pub version: u32,
    /// Curve name, e.g. `bls12-381`.
    pub curve: String,
    /// Backend name, as `BackendChoice::name` writes it.
    pub backend: String,
    /// Layout name of the records.
    pub layout: String,
    /// Bytes per record.
    pub record_bytes: u32,
    /// Alignment of a record.
    pub record_align: u32,
    /// Number of points.
    pub points: u64,
    /// Fixed-base copies (0: no precomputation).
    pub copies: u32,
    /// Window c of the precomputation (0 without one).
    pub window: u32,
    /// Number of records: points, points x copies, or 2 x points with GLV images.
    pub records: u64,
    /// Bytes of records after the header.
    pub data_bytes: u64,
    /// Their checksum ([`records_checksum`] of the version).
    pub data_checksum: u64,
    /// Records n..2n are the GLV images phi(P_i) of records 0..n (version 2).
    pub glv_images: bool,
}

fn put_name(h: &mut [u8], at: usize, width: usize, name: &str) {
    let b = name.as_bytes();
    assert!(b.len() < width, "name {name} too long for the header");
    h[at..at + b.len()].copy_from_slice(b);
}

fn get_name(h: &[u8], at: usize, width: usize) -> String {
    let field = &h[at..at + width];
    let end = field.iter().position(|&b| b == 0).unwrap_or(width);
    String::from_utf8_lossy(&field[..end]).escape_default().to_string()
}

fn u32_at(h: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(h[at..at + 4].try_into().unwrap())
}

fn u64_at(h: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(h[at..at + 8].try_into().unwrap())
}

impl Header {
    fn encode(&self) -> Vec<u8> {
        let mut h = vec![0u8; HEADER_BYTES];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..12].copy_from_slice(&self.version.to_le_bytes());
        h[12..16].copy_from_slice(&(HEADER_BYTES as u32).to_le_bytes());
        put_name(&mut h, 16, 16, &self.curve);
        put_name(&mut h, 32, 32, &self.backend);
        put_name(&mut h, 64, 32, &self.layout);
        h[96..100].copy_from_slice(&self.record_bytes.to_le_bytes());
        h[100..104].copy_from_slice(&self.record_align.to_le_bytes());
        h[104..112].copy_from_slice(&self.points.to_le_bytes());
        h[112..116].copy_from_slice(&self.copies.to_le_bytes());
        h[116..120].copy_from_slice(&self.window.to_le_bytes());
        h[120..128].copy_from_slice(&self.records.to_le_bytes());
        h[128..136].copy_from_slice(&self.data_bytes.to_le_bytes());
        h[136..144].copy_from_slice(&self.data_checksum.to_le_bytes());
        h[144..148].copy_from_slice(&(self.glv_images as u32).to_le_bytes());
        let sum = xxhash_rust::xxh3::xxh3_64(&h[..HEADER_USED]);
        h[HEADER_USED..HEADER_USED + 8].copy_from_slice(&sum.to_le_bytes());
        h
    }

    /// The header of `bytes` (a file's first bytes), checked for magic,
    /// version and its own checksum.
    pub fn decode(bytes: &[u8]) -> Result<Self, String> {
        if bytes.len() < 8 && MAGIC.starts_with(bytes) {
            return Err(format!("truncated: {} bytes, shorter than the {HEADER_BYTES}-byte header", bytes.len()));
        }
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err("not a zkmsm prepared file (no ZKMSMPRE magic)".into());
        }
        if bytes.len() < HEADER_BYTES {
            return Err(format!("truncated: {} bytes, shorter than the {HEADER_BYTES}-byte header", bytes.len()));
        }
        let version = u32_at(bytes, 8);
        let used = match version {
            FORMAT_VERSION | FORMAT_VERSION_2 => HEADER_USED,
            FORMAT_VERSION_1 => HEADER_USED_V1,
            _ => {
                return Err(format!(
                    "format version {version}; this zkmsm reads versions {FORMAT_VERSION_1} to {FORMAT_VERSION}: prepare the points again"
                ))
            }
        };
        let sum = xxhash_rust::xxh3::xxh3_64(&bytes[..used]);
        if sum != u64_at(bytes, used) || u32_at(bytes, 12) as usize != HEADER_BYTES {
            return Err("header checksum mismatch: the file is corrupt".into());
        }
        // the rest of the header is reserved: zeros
        if let Some(at) = bytes[used + 8..HEADER_BYTES].iter().position(|&b| b != 0) {
            return Err(format!("header corrupt: reserved byte {} is not zero", used + 8 + at));
        }
        let glv_images = match (version, u32_at(bytes, 144), u32_at(bytes, 148)) {
            (FORMAT_VERSION_1, ..) => false,
            (_, flag @ (0 | 1), 0) => flag == 1,
            (_, flag, pad) => {
                return Err(format!("header corrupt: GLV images field {flag} (0 or 1), then {pad} (0)"));
            }
        };
        Ok(Self {
            version,
            curve: get_name(bytes, 16, 16),
            backend: get_name(bytes, 32, 32),
            layout: get_name(bytes, 64, 32),
            record_bytes: u32_at(bytes, 96),
            record_align: u32_at(bytes, 100),
            points: u64_at(bytes, 104),
            copies: u32_at(bytes, 112),
            window: u32_at(bytes, 116),
            records: u64_at(bytes, 120),
            data_bytes: u64_at(bytes, 128),
            data_checksum: u64_at(bytes, 136),
            glv_images,
        })
    }
}

/// The records' checksum of a file of format `version`: from version 3 the
/// XXH3-64 of the XXH3-64s of its [`CHECKSUM_BLOCK`]-byte blocks (each as 8
/// little-endian bytes, in order; the blocks hashed in parallel), before
/// it the XXH3-64 of all the records at once.
pub fn records_checksum(version: u32, records: &[u8]) -> u64 {
    use rayon::prelude::*;
    if version < FORMAT_VERSION {
        return xxhash_rust::xxh3::xxh3_64(records);
    }
    let sums: Vec<u64> = records.par_chunks(CHECKSUM_BLOCK).map(xxhash_rust::xxh3::xxh3_64).collect();
    let bytes: Vec<u8> = sums.iter().flat_map(|s| s.to_le_bytes()).collect();
    xxhash_rust::xxh3::xxh3_64(&bytes)
}

/// [`records_checksum`] of this build's version over bytes that come a
/// piece at a time (as the writer writes them).
#[derive(Default)]
struct BlockHasher {
    block: xxhash_rust::xxh3::Xxh3,
    in_block: usize,
    sums: Vec<u8>,
}

impl BlockHasher {
    fn update(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let take = bytes.len().min(CHECKSUM_BLOCK - self.in_block);
            self.block.update(&bytes[..take]);
            self.in_block += take;
            bytes = &bytes[take..];
            if self.in_block == CHECKSUM_BLOCK {
                self.end_block();
            }
        }
    }

    fn end_block(&mut self) {
        self.sums.extend_from_slice(&self.block.digest().to_le_bytes());
        self.block = xxhash_rust::xxh3::Xxh3::new();
        self.in_block = 0;
    }

    fn finish(mut self) -> u64 {
        if self.in_block > 0 {
            self.end_block();
        }
        xxhash_rust::xxh3::xxh3_64(&self.sums)
    }
}

fn refuse(path: &Path, what: impl Into<String>) -> MsmError {
    MsmError::Prepared { path: path.to_path_buf(), what: what.into() }
}

impl<C: MsmCurve, B: Persist<C>> MsmContext<C, B> {
    /// Write the prepared points to `path` (see the module documentation),
    /// under the backend name `backend` (what [`open_prepared`] will build).
    pub fn write_prepared(&self, path: &Path, backend: BackendChoice) -> Result<(), MsmError> {
        use std::io::{Seek, SeekFrom};
        let layout = B::layout(&self.prepared);
        let io = |source| MsmError::Io { path: path.to_path_buf(), source };
        let mut file = File::create(path).map_err(io)?;
        // the header last, once the records' checksum is known
        file.write_all(&[0u8; HEADER_BYTES]).map_err(io)?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, &mut file);
        let mut hash = BlockHasher::default();
        let mut written = 0u64;
        B::write_records(&self.prepared, &mut |bytes| {
            hash.update(bytes);
            written += bytes.len() as u64;
            w.write_all(bytes)
        })
        .map_err(io)?;
        w.flush().map_err(io)?;
        drop(w);
        let header = Header {
            version: FORMAT_VERSION,
            curve: C::NAME.into(),
            backend: backend.name().into(),
            layout: layout.name,
            record_bytes: layout.record_bytes as u32,
            record_align: layout.record_align as u32,
            points: self.len as u64,
            copies: self.precompute.map_or(0, |p| p.copies),
            window: self.precompute.map_or(0, |p| p.plan.c),
            records: layout.records as u64,
            data_bytes: written,
            data_checksum: hash.finish(),
            glv_images: self.glv,
        };
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.write_all(&header.encode()).map_err(io)?;
        file.sync_all().map_err(io)
    }
}

/// Map a prepared file for curve C and build its context (the backend the
/// header names), after checking everything the module documentation lists;
/// GLV as [`GlvMode::Auto`] takes it: with the file's images where it has them.
pub fn open_prepared<C: EngineCurve>(path: &Path) -> Result<Box<dyn MsmEngine<C>>, MsmError> {
    open_prepared_with(path, GlvMode::Auto)
}

/// As [`open_prepared`], with GLV as `glv` says: `Auto` and `On` run the
/// file's GLV images (`On` refuses a file without them), `Off` maps only the
/// first n records (the points; the checksum still covers the whole file).
pub fn open_prepared_with<C: EngineCurve>(path: &Path, glv: GlvMode) -> Result<Box<dyn MsmEngine<C>>, MsmError> {
    let file = File::open(path).map_err(|source| MsmError::Io { path: path.to_path_buf(), source })?;
    // SAFETY: the mapping is read-only; a file changed under it while in use
    // would change the points, as with any memory-mapped input (documented).
    let map =
        unsafe { memmap2::Mmap::map(&file) }.map_err(|source| MsmError::Io { path: path.to_path_buf(), source })?;
    let mut header = Header::decode(&map).map_err(|w| refuse(path, w))?;
    if header.curve != C::NAME {
        return Err(refuse(path, format!("prepared for {}, not {}", header.curve, C::NAME)));
    }
    let choice = BackendChoice::from_name(&header.backend)
        .filter(|b| *b != BackendChoice::Auto)
        .ok_or_else(|| refuse(path, format!("unknown backend \"{}\"", header.backend)))?;
    let expected = header.records.checked_mul(header.record_bytes as u64);
    if expected != Some(header.data_bytes) {
        return Err(refuse(path, "header corrupt: records x record bytes is not the data length"));
    }
    let have = map.len() as u64 - HEADER_BYTES as u64;
    if have != header.data_bytes {
        return Err(refuse(
            path,
            format!(
                "{}: the header promises {} bytes of points after the header, the file has {have}",
                if have < header.data_bytes { "truncated" } else { "trailing bytes" },
                header.data_bytes
            ),
        ));
    }
    let copies = if header.copies == 0 { 1 } else { header.copies as u64 };
    if header.glv_images && header.copies != 0 {
        return Err(refuse(path, "header corrupt: GLV images with fixed-base precomputation"));
    }
    let per_point = if header.glv_images { 2 } else { copies };
    if header.records != header.points.saturating_mul(per_point) {
        return Err(refuse(
            path,
            if header.glv_images {
                "header corrupt: the record count is not 2 x points (points and GLV images)"
            } else {
                "header corrupt: the record count is not points x copies"
            },
        ));
    }
    let glv_refusal = if header.glv_images && C::glv().is_none() {
        Some(format!("holds GLV images, and {} has no GLV here", C::NAME))
    } else {
        match glv {
            GlvMode::On if !header.glv_images => Some(
                "GLV on: the file has no GLV images (version 1, or prepared with GLV off): prepare it with GLV on"
                    .to_string(),
            ),
            GlvMode::Off if header.glv_images => {
                // the first n records are the points: map those only
                header.glv_images = false;
                header.records = header.points;
                header.data_bytes = header.points * header.record_bytes as u64;
                None
            }
            _ => None,
        }
    };
    let version = header.version;
    let map: Mapping = std::sync::Arc::new(map);
    // The records' checksum and the backend's own checks (every record a
    // valid value) each read every record: side by side on the cores. A
    // checksum refusal comes first, whatever the other found.
    let (sum, opened) = rayon::join(
        || records_checksum(version, &map[HEADER_BYTES..]),
        || match glv_refusal {
            None => C::open_prepared(choice, &header, map.clone(), HEADER_BYTES),
            Some(why) => Err(why),
        },
    );
    if sum != header.data_checksum {
        return Err(refuse(path, "checksum mismatch: the points are corrupt"));
    }
    opened.map_err(|w| refuse(path, w))
}

/// Build the context of a checked prepared file with backend `backend`.
pub(crate) fn context<C: MsmCurve, B: Persist<C> + 'static>(
    choice: BackendChoice,
    backend: B,
    header: &Header,
    map: Mapping,
    offset: usize,
) -> Result<Box<dyn MsmEngine<C>>, String>
where
    MsmContext<C, B>: MsmEngine<C>,
{
    let len = header.points as usize;
    let mismatch = || {
        format!(
            "header corrupt: precomputation of {} copies does not fit window c = {} (1..={} with copies, 0 without)",
            header.copies,
            header.window,
            crate::plan::MAX_C
        )
    };
    let precompute = match (header.copies, header.window) {
        (0, 0) => None,
        (0, _) => return Err(mismatch()),
        (copies, c) if (1..=crate::plan::MAX_C).contains(&c) => {
            let pre = Precompute::new(Plan::with_window(c, C::Scalar::NUM_BITS), copies);
            if pre.copies != copies {
                return Err(mismatch());
            }
            Some(pre)
        }
        _ => return Err(mismatch()),
    };
    let prepared = backend.map(header, map, offset)?;
    let window = precompute.map(|p| p.plan.c);
    // with images the records are [P | phi(P)], as the builder prepares them for GLV
    let glv = header.glv_images;
    Ok(Box::new(MsmContext { backend, prepared, len, window, precompute, choice: Some(choice), glv }))
}
