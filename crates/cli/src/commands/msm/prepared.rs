//! `zkmsm msm --prepared`: map a prepared file (`zkmsm prepare`) and the
//! scalars, and run at once: no decoding, validation or conversion; then the
//! runs and the report ([`crate::commands::report`]).

use crate::args::MsmArgs;
use crate::backend::Engine;
use crate::commands::report::{ms, run_and_report};
use crate::console::errln;
use crate::error::CliError;
use std::path::Path;
use std::time::{Duration, Instant};
use zkmsm::prepared::FileKind;
use zkmsm::{EngineCurve, MsmError, PreparedRefusal};

pub fn msm<C: EngineCurve>(a: &MsmArgs, file: &Path) -> Result<(), CliError> {
    let t = Instant::now();
    check_prepared_file(file, a.max_points)?;
    crate::mapped::guard_truncation(&[file, &a.scalars]);
    // the file first: a file of another curve is named as that, not as scalars out of range
    let mut ctx = zkmsm::open_prepared_with::<C>(file, a.glv.mode())?;
    // mapped, used in place: nothing copied
    let scalars = zkmsm::io::map_scalars_in::<C>(&a.scalars, a.scalar_endian.into())?;
    if scalars.len() != ctx.len() {
        return Err(CliError::PreparedCount {
            prepared: file.to_path_buf(),
            points: ctx.len(),
            scalars_file: a.scalars.clone(),
            scalars: scalars.len(),
        });
    }
    ctx.set_window(a.window);
    if let Some(c) = a.window.filter(|&c| c != ctx.plan().c) {
        // a fixed-base file's copies are shifted for its window: no other runs
        let reason = PreparedRefusal::OtherWindow { prepared: ctx.plan().c, asked: c };
        return Err(MsmError::Prepared { path: file.to_path_buf(), reason }.into());
    }
    let load = t.elapsed();
    errln!(
        "mapped {} prepared points ({}{}) and read the scalars in {:.1} ms (checked, not converted)",
        ctx.len(),
        ctx.backend_name(),
        if ctx.glv() { ", with GLV images" } else { "" },
        ms(load)
    )?;
    run_and_report(a, &Engine { ctx, rtl: None }, &scalars, &[], load, Duration::ZERO)
}

/// A prepared file is mapped: it must be a regular file (a FIFO would block,
/// a directory or a device cannot be mapped), checked without blocking; and
/// its point count, when its header reads, within `--max-points`.
fn check_prepared_file(file: &Path, max_points: usize) -> Result<(), CliError> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let io = |source| MsmError::Io { path: file.to_path_buf(), source };
    let f = std::fs::File::options().read(true).custom_flags(libc::O_NONBLOCK).open(file).map_err(io)?;
    if let Some(kind) = FileKind::of(f.metadata().map_err(io)?.file_type()) {
        let reason = PreparedRefusal::NotRegularFile { kind };
        return Err(MsmError::Prepared { path: file.to_path_buf(), reason }.into());
    }
    let mut head = Vec::new();
    f.take(4096).read_to_end(&mut head).map_err(io)?;
    if let Ok(h) = zkmsm::prepared::Header::decode(&head) {
        if h.points > max_points as u64 {
            return Err(CliError::AboveMaxPoints { path: file.to_path_buf(), n: h.points as usize, max: max_points });
        }
    }
    Ok(())
}
