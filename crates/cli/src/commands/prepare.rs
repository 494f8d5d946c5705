//! `zkmsm prepare`: MSM_INIT once, persisted (validated, converted points in
//! the backend's own layout, see `zkmsm::prepared`); and `zkmsm msm
//! --prepared`, which maps such a file and starts at once.

use super::ms;
use crate::args::{MsmArgs, PrepareArgs};
use crate::console::errln;
use crate::error::CliError;
use crate::progress;
use std::path::Path;
use std::time::{Duration, Instant};
use zkmsm::io::{read_points_from, ReadOptions, Source};
use zkmsm::{EngineCurve, MsmBuilder, MsmError, Validation};
use zkmsm_curve::PointFormat;

/// The number of points and their format, from the file's length (and its
/// arkworks length prefix, if any). Where the length fits more than one
/// layout (2n compressed points are as long as n uncompressed), the first
/// few points are decoded and validated in each: the layout whose points
/// are valid is taken, and the file is refused when not exactly one is.
fn count_points<C: EngineCurve>(path: &Path, format: Option<PointFormat>) -> Result<(usize, PointFormat), MsmError> {
    use std::io::Read;
    const PROBE: usize = 4;
    let io = |source| MsmError::Io { path: path.to_path_buf(), source };
    let len = std::fs::metadata(path).map_err(io)?.len() as usize;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take((8 + PROBE * PointFormat::Uncompressed.size::<C>()) as u64)
        .read_to_end(&mut head)
        .map_err(io)?;
    let prefix_value = (len >= 8).then(|| u64::from_le_bytes(head[..8].try_into().unwrap()));
    let formats = match format {
        Some(f) => vec![f],
        None => vec![PointFormat::Compressed, PointFormat::Uncompressed],
    };
    // (points, format, byte offset of the first point)
    let mut fits = Vec::new();
    for f in formats {
        let size = f.size::<C>();
        if len.is_multiple_of(size) {
            fits.push((len / size, f, 0));
        }
        if len >= 8 && (len - 8).is_multiple_of(size) && prefix_value == Some(((len - 8) / size) as u64) {
            fits.push(((len - 8) / size, f, 8));
        }
    }
    if fits.len() > 1 {
        let valid: Vec<_> = fits
            .iter()
            .copied()
            .filter(|&(n, f, at)| {
                let probe = &head[at..(at + n.min(PROBE) * f.size::<C>()).min(head.len())];
                zkmsm::decode_points::<C>(probe, f, Validation::Full).is_ok()
            })
            .collect();
        if valid.len() != 1 {
            return Err(MsmError::Malformed {
                path: path.to_path_buf(),
                offset: 0,
                what: format!(
                    "{len} bytes could be compressed or uncompressed points, and the first points are valid as {}: say which with --point-format",
                    if valid.is_empty() { "neither" } else { "both" }
                ),
            });
        }
        fits = valid;
    }
    match fits[..] {
        [(n, f, _)] => Ok((n, f)),
        _ => Err(MsmError::Malformed {
            path: path.to_path_buf(),
            offset: len as u64,
            what: format!(
                "{len} bytes is not a whole number of {} points ({} bytes compressed, {} uncompressed, optionally after an 8-byte length prefix)",
                C::NAME,
                PointFormat::Compressed.size::<C>(),
                PointFormat::Uncompressed.size::<C>()
            ),
        }),
    }
}

pub fn prepare<C: EngineCurve>(a: &PrepareArgs) -> Result<(), CliError> {
    let backend = a.backend.choice().ok_or_else(|| {
        MsmError::Unsupported("prepare writes the library's backends' layouts, not --backend rtl".into())
    })?;
    let t = Instant::now();
    let (n, format) = count_points::<C>(&a.points, a.point_format.map(Into::into))?;
    let mut src = Source::open(&a.points)?;
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
    ctx.write_prepared(&a.out)?;
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
