//! A prepared file written from a points file larger than memory: each
//! chunk read (the next one read ahead), decoded, validated and set up on
//! the backend, its records appended to the file, the records' checksum
//! kept as they go, the header written last. The file is what `zkmsm
//! prepare` writes for the same points and backend (plain records: no GLV
//! images, no fixed-base copies, which need every point's copies at once).

use super::budget::{ChunkCost, BYTES_PER_POINT};
use super::reader::{pipelined, Input};
use super::{chunks_of, OutOfCoreOptions};
use crate::backend::choice::BackendChoice;
use crate::builder::{EngineCurve, MsmBuilder};
use crate::error::MsmError;
use crate::input::bytes::decode_point_run;
use crate::input::io::{PointsLayout, LENGTH_PREFIX_BYTES};
use crate::input::validate::Validation;
use crate::pipeline::glv::GlvMode;
use crate::prepared::{Header, CHECKSUM_BLOCK, FORMAT_VERSION};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use zkmsm_curve::Affine;
use zkmsm_field::PrimeField;

/// Where a prepared file's records start (its header's size).
const HEADER_BYTES: usize = 4096;

/// The records' checksum of format version 3 over bytes that come a piece
/// at a time: the XXH3-64 of each 1 MiB block, then of their sums.
#[derive(Default)]
struct Blocks {
    block: xxhash_rust::xxh3::Xxh3,
    in_block: usize,
    sums: Vec<u8>,
}

impl Blocks {
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

/// What [`prepare_file`] wrote.
#[derive(Debug, Clone)]
pub struct PreparedWrite {
    /// Points.
    pub n: usize,
    /// Chunks they were prepared in.
    pub chunks: usize,
    /// Points a chunk.
    pub chunk_points: usize,
    /// The backend the file names.
    pub backend: &'static str,
    /// Its records' layout.
    pub layout: String,
}

/// Write to `out` the prepared file of the `n` points of `points_path` (in
/// `layout`, as the caller told it from the file) for `opts.backend`
/// (`auto`: what it means for n points), holding at most two chunks of
/// encoded points and one chunk's decoded and prepared points under
/// `opts.budget`; `progress(done, n)` after each chunk. Only plain records:
/// `opts.glv` `On` is refused (the images of every point would be needed
/// after all the points).
pub fn prepare_file<C: EngineCurve>(
    points_path: &Path,
    n: usize,
    layout: PointsLayout,
    out: &Path,
    opts: &OutOfCoreOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<PreparedWrite, MsmError> {
    if opts.glv == GlvMode::On {
        return Err(MsmError::Unsupported(
            "a prepared file written a chunk at a time holds plain records: GLV images follow all n points, \
             so prepare with --glv on in memory"
                .into(),
        ));
    }
    let cost = ChunkCost {
        per_point: BYTES_PER_POINT,
        window: None,
        scalar_bits: C::Scalar::NUM_BITS,
        msm_points_per_point: 1,
        threads: rayon::current_num_threads(),
    };
    let plan = cost.plan(opts.budget, " for prepare")?;
    let chunk = plan.points.min(n.max(1));
    let choice = match opts.backend {
        BackendChoice::Auto => C::auto_backend(n),
        b => b,
    };
    let points = Input::open(points_path)?;
    let size = layout.format.size::<C>();
    let p_header = if layout.prefixed { LENGTH_PREFIX_BYTES } else { 0 };
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| MsmError::Io { path: path.clone(), source }
    };
    let mut file = std::fs::File::create(out).map_err(io(out))?;
    file.write_all(&[0u8; HEADER_BYTES]).map_err(io(out))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 22, &mut file);
    let chunk_file = out.with_file_name(format!(
        ".{}.chunk-{}.tmp",
        out.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
        std::process::id()
    ));
    let mut hash = Blocks::default();
    let (mut written, mut done, mut chunks) = (0u64, 0usize, 0usize);
    let mut shape: Option<(String, u32, u32)> = None;
    let read = |first: usize, len: usize, reuse: Option<(usize, Vec<u8>)>| {
        let (_, mut pb) = reuse.unwrap_or_default();
        pb.resize(len * size, 0);
        points.read_at(&mut pb, p_header + first * size)?;
        let bytes = pb.len() as u64;
        Ok(((first, pb), bytes))
    };
    let result = pipelined(&chunks_of(n, chunk), read, |(first, pb)| {
        let p = decode_point_run::<C>(&pb, layout.format, opts.validation, first, (p_header + first * size) as u64)
            .map_err(|record| MsmError::malformed(points_path, record))?;
        let len = p.len();
        let ctx =
            MsmBuilder::new().backend(choice).validation(Validation::AlreadyValidated).glv(GlvMode::Off).build(p)?;
        // the chunk's prepared file, its records appended to the whole
        ctx.write_prepared(&chunk_file)?;
        drop(ctx);
        let mut f = std::fs::File::open(&chunk_file).map_err(io(&chunk_file))?;
        let mut head = vec![0u8; HEADER_BYTES];
        f.read_exact(&mut head).map_err(io(&chunk_file))?;
        let h = Header::decode(&head).map_err(|reason| MsmError::Prepared { path: chunk_file.clone(), reason })?;
        let this = (h.layout.clone(), h.record_bytes, h.record_align);
        if *shape.get_or_insert_with(|| this.clone()) != this || h.records != len as u64 {
            return Err(MsmError::Unsupported(format!(
                "chunk {chunks}'s records ({} of {} bytes, layout {}) differ from the first chunk's",
                h.records, h.record_bytes, h.layout
            )));
        }
        let mut buf = vec![0u8; 1 << 22];
        loop {
            let k = f.read(&mut buf).map_err(io(&chunk_file))?;
            if k == 0 {
                break;
            }
            hash.update(&buf[..k]);
            w.write_all(&buf[..k]).map_err(io(out))?;
            written += k as u64;
        }
        chunks += 1;
        done += len;
        progress(done, n);
        Ok(Some((first, pb)))
    });
    let _ = std::fs::remove_file(&chunk_file);
    result?;
    w.flush().map_err(io(out))?;
    drop(w);
    let (layout_name, record_bytes, record_align) = match shape {
        Some(s) => s,
        None => {
            // no points: the layout of an empty context of this backend
            let ctx = MsmBuilder::new().backend(choice).glv(GlvMode::Off).build(Vec::<Affine<C>>::new())?;
            ctx.write_prepared(&chunk_file)?;
            let mut head = vec![0u8; HEADER_BYTES];
            let read = std::fs::File::open(&chunk_file).and_then(|mut f| f.read_exact(&mut head));
            let _ = std::fs::remove_file(&chunk_file);
            read.map_err(io(&chunk_file))?;
            let h = Header::decode(&head).map_err(|reason| MsmError::Prepared { path: chunk_file.clone(), reason })?;
            (h.layout, h.record_bytes, h.record_align)
        }
    };
    let header = Header {
        version: FORMAT_VERSION,
        curve: C::LABEL.into(),
        backend: choice.name().into(),
        layout: layout_name.clone(),
        record_bytes,
        record_align,
        points: n as u64,
        copies: 0,
        window: 0,
        records: n as u64,
        data_bytes: written,
        data_checksum: hash.finish(),
        glv_images: false,
    };
    file.seek(SeekFrom::Start(0)).map_err(io(out))?;
    file.write_all(&header.encode()).map_err(io(out))?;
    file.sync_all().map_err(io(out))?;
    Ok(PreparedWrite { n, chunks, chunk_points: chunk, backend: choice.name(), layout: layout_name })
}
