//! The prepared file's format (the table in [`crate::prepared`]): the
//! header, the records' checksum, and the backend's side of persistence
//! ([`Persist`]), which names its records' layout and maps them back.

use super::refusal::{HeaderFault, PreparedRefusal};
use crate::backend::Backend;
use crate::input::InputCurve;
use crate::store::{Mapping, Record, Store};

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
pub(crate) const HEADER_BYTES: usize = 4096;
/// The checksummed part of the header (versions 2 and 3; version 1: [`HEADER_USED_V1`]).
const HEADER_USED: usize = 152;
/// The checksummed part of a version-1 header.
const HEADER_USED_V1: usize = 144;

/// A backend whose prepared points can be written to a prepared file and
/// mapped back.
pub trait Persist<C: InputCurve>: Backend<C> + Sized {
    /// The form of these prepared points.
    fn layout(prepared: &Self::Prepared) -> Layout;
    /// Their records' bytes, in order, to `sink`.
    fn write_records(
        prepared: &Self::Prepared,
        sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
    ) -> std::io::Result<()>;
    /// Prepared points over the records of a checked file (at byte `offset`
    /// of `map`, as `header` describes them); refused when this backend or
    /// this CPU does not run the header's layout, or a record is not a valid
    /// value ([`mapped_records`] does the checks).
    fn map(&self, header: &Header, map: Mapping, offset: usize) -> Result<Self::Prepared, PreparedRefusal>;
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
pub fn mapped_records<T: Record>(header: &Header, map: Mapping, offset: usize) -> Result<Store<T>, PreparedRefusal> {
    let (bytes, align) = (core::mem::size_of::<T>(), core::mem::align_of::<T>());
    if (header.record_bytes as usize, header.record_align as usize) != (bytes, align) {
        return Err(PreparedRefusal::RecordShape {
            layout: header.layout.clone(),
            bytes,
            align,
            file_bytes: header.record_bytes,
            file_align: header.record_align,
        });
    }
    let records =
        usize::try_from(header.records).map_err(|_| PreparedRefusal::TooManyRecords { records: header.records })?;
    Store::mapped(map, offset, records).ok_or_else(|| PreparedRefusal::InvalidRecord { layout: header.layout.clone() })
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
    pub(crate) fn encode(&self) -> Vec<u8> {
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
    pub fn decode(bytes: &[u8]) -> Result<Self, PreparedRefusal> {
        let truncated = PreparedRefusal::TruncatedHeader { len: bytes.len(), header: HEADER_BYTES };
        if bytes.len() < 8 && MAGIC.starts_with(bytes) {
            return Err(truncated);
        }
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(PreparedRefusal::NotPrepared);
        }
        if bytes.len() < HEADER_BYTES {
            return Err(truncated);
        }
        let version = u32_at(bytes, 8);
        let used = match version {
            FORMAT_VERSION | FORMAT_VERSION_2 => HEADER_USED,
            FORMAT_VERSION_1 => HEADER_USED_V1,
            _ => return Err(PreparedRefusal::Version { version, oldest: FORMAT_VERSION_1, newest: FORMAT_VERSION }),
        };
        let sum = xxhash_rust::xxh3::xxh3_64(&bytes[..used]);
        if sum != u64_at(bytes, used) || u32_at(bytes, 12) as usize != HEADER_BYTES {
            return Err(PreparedRefusal::HeaderChecksum);
        }
        // the rest of the header is reserved: zeros
        if let Some(at) = bytes[used + 8..HEADER_BYTES].iter().position(|&b| b != 0) {
            return Err(PreparedRefusal::HeaderCorrupt(HeaderFault::ReservedByte { at: used + 8 + at }));
        }
        let glv_images = match (version, u32_at(bytes, 144), u32_at(bytes, 148)) {
            (FORMAT_VERSION_1, ..) => false,
            (_, flag @ (0 | 1), 0) => flag == 1,
            (_, flag, pad) => return Err(PreparedRefusal::HeaderCorrupt(HeaderFault::GlvField { flag, pad })),
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
pub(crate) struct BlockHasher {
    block: xxhash_rust::xxh3::Xxh3,
    in_block: usize,
    sums: Vec<u8>,
}

impl BlockHasher {
    pub(crate) fn update(&mut self, mut bytes: &[u8]) {
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

    pub(crate) fn finish(mut self) -> u64 {
        if self.in_block > 0 {
            self.end_block();
        }
        xxhash_rust::xxh3::xxh3_64(&self.sums)
    }
}
