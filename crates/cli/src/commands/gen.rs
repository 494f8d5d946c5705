//! `zkmsm gen`: random subgroup points and uniform scalars, written to files.
//!
//! Both outputs are checked, and their temporary files created, before
//! anything is generated. The pair is replaced so that an interrupted `gen`
//! never leaves new points beside old scalars of the same count: the old
//! scalars file is removed, then the new points and the new scalars are
//! renamed in, in that order (interrupted, it leaves the old pair, the new
//! pair, or a points file without its scalars, which `msm` refuses).

use super::report::ms;
use crate::args::GenArgs;
use crate::console::{errln, require_stdout, shown};
use crate::error::CliError;
use crate::output::Output;
use crate::progress;
use std::io::IsTerminal;
use std::time::Instant;
use zkmsm::io::{encode_points, encode_scalars_in, SCALAR_BYTES};
use zkmsm::Affine;
use zkmsm_curve::PointFormat;

/// Above this, `gen` says how much memory it will take.
const WARN_BYTES: usize = 1 << 30;

/// The most memory generating `n` points and scalars holds at once (the
/// points, their discrete logs, the scalars as field elements and as limbs,
/// and both files' bytes), an upper bound.
pub(crate) fn memory_bound<C: zkmsm::InputCurve>(n: usize, format: PointFormat) -> usize {
    n.saturating_mul(core::mem::size_of::<Affine<C>>() + 4 * SCALAR_BYTES + format.size::<C>())
}

/// Bytes as a short figure with its unit (GiB, MiB, KiB), one decimal.
pub(crate) fn human_bytes(b: usize) -> String {
    let b = b as f64;
    for (unit, size) in [("GiB", (1u64 << 30) as f64), ("MiB", (1u64 << 20) as f64), ("KiB", 1024.0)] {
        if b >= size {
            return format!("{:.1} {unit}", b / size);
        }
    }
    format!("{b} bytes")
}

/// Refuse at once what cannot be allocated (an address-space limit, more
/// than the machine has), instead of aborting midway: the bound is reserved
/// and released (no page is touched).
pub(crate) fn check_memory(bytes: usize, what: &str) -> Result<(), CliError> {
    let mut probe: Vec<u8> = Vec::new();
    crate::alloc::fallible(|| probe.try_reserve_exact(bytes))
        .map_err(|_| CliError::OutOfMemory(format!("{what} need up to {}", human_bytes(bytes))))
}

pub fn gen<C: zkmsm::InputCurve>(a: &GenArgs) -> Result<(), CliError> {
    let format: PointFormat = a.point_format.into();
    let points_out = Output::open(&a.points)?;
    let scalars_out = Output::open(&a.scalars)?;
    if points_out.identity() == scalars_out.identity() {
        return Err(CliError::SameOutput(a.points.clone()));
    }
    if points_out.writes_stdout() || scalars_out.writes_stdout() {
        require_stdout()?;
        if std::io::stdout().is_terminal() {
            return Err(CliError::BinaryToTerminal);
        }
    }
    let n = 1usize << a.log_n;
    let bound = memory_bound::<C>(n, format);
    let what = format!("2^{} {} points and scalars", a.log_n, C::NAME);
    check_memory(bound, &what)?;
    if bound > WARN_BYTES {
        errln!("gen: {what} take up to {} of memory while generating", human_bytes(bound))?;
    }
    let t = Instant::now();
    let pb = progress::spinner(format!("generating {n} {} points and scalars", C::NAME));
    let points = encode_points(&zkmsm::gen::random_points::<C>(n, a.seed).points, format, false);
    let scalars =
        encode_scalars_in(&zkmsm::gen::random_scalars::<C>(n, a.seed.wrapping_add(1)), a.scalar_endian.into());
    pb.set_message(format!("writing {} and {}", shown(&a.points), shown(&a.scalars)));
    if points_out.is_file() && scalars_out.is_file() {
        write_pair(points_out, &points, scalars_out, &scalars)?;
    } else {
        points_out.write_whole(&points)?;
        scalars_out.write_whole(&scalars)?;
    }
    pb.finish_and_clear();
    errln!(
        "wrote {n} {} points ({:?}) to {} and {n} scalars to {} in {:.0} ms",
        C::NAME,
        a.point_format,
        shown(&a.points),
        shown(&a.scalars),
        ms(t.elapsed())
    )
}

/// Both files written to their temporary files and synced first; then the
/// old scalars removed, and the points and the scalars renamed in.
fn write_pair(mut points_out: Output, points: &[u8], mut scalars_out: Output, scalars: &[u8]) -> Result<(), CliError> {
    use std::io::Write;
    for (out, bytes) in [(&mut points_out, points), (&mut scalars_out, scalars)] {
        let tmp = out.staging_path()?;
        let name = out.name().to_path_buf();
        let err = |e: std::io::Error| CliError::Output { path: name.clone(), what: e.to_string() };
        let mut f = std::fs::File::options().write(true).truncate(true).open(&tmp).map_err(err)?;
        f.write_all(bytes).and_then(|()| f.sync_all()).map_err(err)?;
    }
    scalars_out.remove_old()?;
    points_out.commit()?;
    scalars_out.commit()
}
