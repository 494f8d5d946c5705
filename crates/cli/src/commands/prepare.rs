//! `zkmsm prepare`: MSM_INIT once, persisted (validated, converted points in
//! the backend's own layout, see `zkmsm::prepared`); and `zkmsm msm
//! --prepared`, which maps such a file and starts at once.

use super::ms;
use super::points_layout::{count_points, PointsInput};
use crate::args::{MsmArgs, PrepareArgs};
use crate::console::errln;
use crate::console::require_stdout;
use crate::error::CliError;
use crate::output::{input_identity, Identity, Output};
use crate::progress;
use std::io::IsTerminal;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::time::{Duration, Instant};
use zkmsm::io::{read_points_from, ReadOptions, Source};
use zkmsm::{EngineCurve, MsmBuilder, MsmError, Validation};

/// An error about the staging file, told about the output the user named.
fn renamed(e: MsmError, staging: &Path, out: &Path) -> MsmError {
    match e {
        MsmError::Io { path, source } if path == staging => MsmError::Io { path: out.to_path_buf(), source },
        other => other,
    }
}

pub fn prepare<C: EngineCurve>(a: &PrepareArgs) -> Result<(), CliError> {
    let backend = a.backend.choice().ok_or_else(|| {
        MsmError::Unsupported("prepare writes the library's backends' layouts, not --backend rtl".into())
    })?;
    super::msm::backend_for_curve::<C>(a.backend)?;
    let mut out = Output::open(&a.out)?;
    if out.writes_stdout() {
        require_stdout()?;
        if std::io::stdout().is_terminal() {
            return Err(CliError::BinaryToTerminal);
        }
    }
    if let Some((dev, ino)) = input_identity(&a.points) {
        if out.identity() == Identity::Inode(dev, ino) {
            return Err(CliError::OutputIsInput { output: a.out.clone(), input: a.points.clone() });
        }
    }
    let t = Instant::now();
    let input = PointsInput::read::<C>(&a.points, a.max_points)?;
    let (n, format) = count_points::<C>(&input, a.point_format.map(Into::into))?;
    if n > a.max_points {
        return Err(CliError::AboveMaxPoints { path: input.name.clone(), n, max: a.max_points });
    }
    let mut src = match input.bytes {
        Some(bytes) => Source::from_bytes(input.name.clone(), bytes),
        None => Source::open(&a.points)?,
    };
    let pb = progress::bar("reading and validating points", "points");
    let (points, _) = read_points_from::<C>(
        &mut src,
        n,
        &ReadOptions {
            format: Some(format),
            validation: Validation::Full,
            max_points: a.max_points,
            progress: &|done, total| {
                pb.set_length(total as u64);
                pb.set_position(done as u64);
            },
        },
    )?;
    pb.finish_and_clear();
    let load = t.elapsed();
    let t = Instant::now();
    let pb = progress::spinner(super::demo::init_message(a.precompute));
    let ctx = MsmBuilder::new()
        .validation(Validation::AlreadyValidated)
        .backend(backend)
        .precompute(a.precompute)
        .window(a.window)
        .glv(a.glv.mode()) // with GLV the file holds the n points and their images
        .build(points)?;
    let init = t.elapsed();
    pb.set_message("writing the prepared file");
    let t = Instant::now();
    // written beside the target and renamed over it: a reader that has the
    // old file mapped keeps the old inode, whole
    let staging = out.staging_path()?;
    ctx.write_prepared(&staging).map_err(|e| renamed(e, &staging, &a.out))?;
    out.commit()?;
    pb.finish_and_clear();
    errln!(
        "prepared {n} {} points ({format:?}) for {}{}{}: loaded and validated in {:.0} ms, converted in {:.0} ms, written in {:.0} ms",
        C::NAME,
        ctx.backend_name(),
        a.precompute.map(|m| format!(", fixed-base x{m}")).unwrap_or_default(),
        if ctx.glv() { ", with GLV images" } else { "" },
        ms(load),
        ms(init),
        ms(t.elapsed())
    )?;
    Ok(())
}

pub fn msm_prepared<C: EngineCurve>(a: &MsmArgs, file: &Path) -> Result<(), CliError> {
    let t = Instant::now();
    check_prepared_file(file, a.max_points)?;
    crate::mapped::guard_truncation(&[file, &a.scalars]);
    // the file first: a file of another curve is named as that, not as scalars out of range
    let mut ctx = zkmsm::open_prepared_with::<C>(file, a.glv.mode())?;
    // mapped, used in place: nothing copied
    let scalars = zkmsm::io::map_scalars::<C>(&a.scalars)?;
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
        return Err(MsmError::Prepared {
            path: file.to_path_buf(),
            what: format!(
                "precomputed for window c = {}, not --window {c}: prepare it again with --window {c}",
                ctx.plan().c
            ),
        }
        .into());
    }
    let load = t.elapsed();
    errln!(
        "mapped {} prepared points ({}{}) and read the scalars in {:.1} ms (checked, not converted)",
        ctx.len(),
        ctx.backend_name(),
        if ctx.glv() { ", with GLV images" } else { "" },
        ms(load)
    )?;
    super::msm::run_and_report(a, ctx.as_ref(), &scalars, &[], load, Duration::ZERO, None)
}

/// A prepared file is mapped: it must be a regular file (a FIFO would block,
/// a directory or a device cannot be mapped), checked without blocking; and
/// its point count, when its header reads, within `--max-points`.
fn check_prepared_file(file: &Path, max_points: usize) -> Result<(), CliError> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let io = |source| MsmError::Io { path: file.to_path_buf(), source };
    let f = std::fs::File::options().read(true).custom_flags(libc::O_NONBLOCK).open(file).map_err(io)?;
    let kind = f.metadata().map_err(io)?.file_type();
    if !kind.is_file() {
        let what = if kind.is_dir() {
            "a directory"
        } else if kind.is_fifo() {
            "a FIFO"
        } else if kind.is_char_device() || kind.is_block_device() {
            "a device"
        } else {
            "not a regular file"
        };
        return Err(MsmError::Prepared {
            path: file.to_path_buf(),
            what: format!("{what}: a prepared file is mapped, so it must be a regular file written by zkmsm prepare"),
        }
        .into());
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
