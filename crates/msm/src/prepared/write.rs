//! Writing a prepared file: the records as the backend lays them out, then
//! the header with their checksum.

use super::format::{BlockHasher, Header, Persist, FORMAT_VERSION, HEADER_BYTES};
use crate::backend::choice::BackendChoice;
use crate::context::MsmContext;
use crate::error::MsmError;
use crate::input::InputCurve;
use std::fs::File;
use std::io::Write;
use std::path::Path;

impl<C: InputCurve, B: Persist<C>> MsmContext<C, B> {
    /// Write the prepared points to `path` (see the module documentation),
    /// under the backend name `backend` (what [`crate::open_prepared`] will build).
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
            curve: C::LABEL.into(),
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
