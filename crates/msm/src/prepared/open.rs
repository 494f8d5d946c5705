//! Opening a prepared file: map it, check everything the format promises
//! ([`crate::prepared`]), and build the context its header names.

use super::format::{records_checksum, Header, HEADER_BYTES};
use super::refusal::{HeaderFault, PreparedRefusal};
use crate::backend::choice::BackendChoice;
use crate::builder::EngineCurve;
use crate::engine::MsmEngine;
use crate::error::MsmError;
use crate::pipeline::glv::GlvMode;
use crate::store::Mapping;
use std::fs::File;
use std::path::Path;

fn refuse(path: &Path) -> impl Fn(PreparedRefusal) -> MsmError + '_ {
    move |reason| MsmError::Prepared { path: path.to_path_buf(), reason }
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
    let refuse = refuse(path);
    let mut header = Header::decode(&map).map_err(&refuse)?;
    if header.curve != C::LABEL {
        return Err(refuse(PreparedRefusal::OtherCurve { file: header.curve.clone(), here: C::LABEL }));
    }
    let choice = BackendChoice::from_name(&header.backend)
        .filter(|b| *b != BackendChoice::Auto)
        .ok_or_else(|| refuse(PreparedRefusal::UnknownBackend { name: header.backend.clone() }))?;
    let expected = header.records.checked_mul(header.record_bytes as u64);
    if expected != Some(header.data_bytes) {
        return Err(refuse(PreparedRefusal::HeaderCorrupt(HeaderFault::DataLength)));
    }
    let have = map.len() as u64 - HEADER_BYTES as u64;
    if have != header.data_bytes {
        let promised = header.data_bytes;
        return Err(refuse(if have < promised {
            PreparedRefusal::Truncated { promised, have }
        } else {
            PreparedRefusal::TrailingBytes { promised, have }
        }));
    }
    let copies = if header.copies == 0 { 1 } else { header.copies as u64 };
    if header.glv_images && header.copies != 0 {
        return Err(refuse(PreparedRefusal::HeaderCorrupt(HeaderFault::GlvWithPrecompute)));
    }
    let per_point = if header.glv_images { 2 } else { copies };
    if header.records != header.points.saturating_mul(per_point) {
        return Err(refuse(PreparedRefusal::HeaderCorrupt(HeaderFault::RecordCount { glv_images: header.glv_images })));
    }
    let glv_refusal = if header.glv_images && C::glv().is_none() {
        Some(PreparedRefusal::NoGlvHere { curve: C::LABEL })
    } else {
        match glv {
            GlvMode::On if !header.glv_images => Some(PreparedRefusal::NoGlvImages),
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
        return Err(refuse(PreparedRefusal::Checksum));
    }
    opened.map_err(refuse)
}
