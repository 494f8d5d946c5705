//! `zkmsm gen`: random subgroup points and uniform scalars, written to files,
//! and with `--expected` the MSM's expected result, computed from the
//! points' discrete logs in the scalar field (sum s_i g_i mod r, then one
//! scalar multiplication of G): a check independent of any MSM code.
//!
//! The inputs are generated and written a block at a time
//! (zkmsm::gen::stream_inputs: memory is the fixed-base table and two
//! blocks, whatever n). Every output is checked, and its staging file
//! created, before anything is generated; every output is written whole to
//! its staging file (beside a file; in the temporary directory for a stream)
//! and synced before any appears. Then a stream (at most one: two could not
//! both appear whole or neither) gets its bytes, the old scalars and
//! expected files are removed, and the points, the scalars and the expected
//! result are renamed in, in that order: interrupted, `gen` leaves the old
//! pair, the new pair, or points without their scalars, which `msm` refuses.

use super::report::ms;
use crate::args::GenArgs;
use crate::console::{errln, require_stdout, shown};
use crate::error::CliError;
use crate::output::Output;
use crate::progress;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::Instant;
use zkmsm::io::{result_hex, SCALAR_BYTES};
use zkmsm_curve::PointFormat;

/// Bytes as a short figure with its unit (GiB, MiB, KiB), one decimal.
pub(crate) fn human_bytes(b: u64) -> String {
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
fn check_memory(bytes: usize, what: &str) -> Result<(), CliError> {
    let mut probe: Vec<u8> = Vec::new();
    crate::alloc::fallible(|| probe.try_reserve_exact(bytes))
        .map_err(|_| CliError::OutOfMemory(format!("{what} need up to {}", human_bytes(bytes as u64))))
}

/// Free bytes on the filesystem holding `path` (for a file not yet
/// created, its directory), `None` where it cannot be told.
fn free_bytes(path: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    let mut st: libc::statvfs = unsafe { core::mem::zeroed() };
    // SAFETY: a NUL-terminated path and a statvfs to fill.
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return None;
    }
    Some(st.f_bavail as u64 * st.f_frsize as u64)
}

/// Refuse at once outputs the disk cannot hold: each staging file's bytes
/// summed by the filesystem it is on (a staging file lies beside its file,
/// a stream's in the temporary directory).
fn check_space(outputs: &mut [(&mut Output, u64)]) -> Result<(), CliError> {
    let mut need: Vec<(u64, std::path::PathBuf, u64)> = Vec::new();
    for (out, bytes) in outputs.iter_mut() {
        let staging = out.staging_path()?;
        #[cfg(unix)]
        let dev = {
            use std::os::unix::fs::MetadataExt;
            std::fs::metadata(&staging).map(|m| m.dev()).unwrap_or(0)
        };
        match need.iter_mut().find(|(d, ..)| *d == dev) {
            Some(entry) => entry.2 += *bytes,
            None => need.push((dev, staging, *bytes)),
        }
    }
    for (_, staging, bytes) in need {
        if let Some(free) = free_bytes(&staging) {
            if free < bytes {
                return Err(CliError::Output {
                    path: staging.parent().unwrap_or(Path::new(".")).to_path_buf(),
                    what: format!(
                        "gen needs {} there and the filesystem has {} free",
                        human_bytes(bytes),
                        human_bytes(free)
                    ),
                });
            }
        }
    }
    Ok(())
}

/// A staging file opened for writing from its start.
fn staging_writer(out: &mut Output) -> Result<(std::fs::File, std::path::PathBuf), CliError> {
    let tmp = out.staging_path()?;
    let name = out.name().to_path_buf();
    let f = std::fs::File::options()
        .write(true)
        .truncate(true)
        .open(&tmp)
        .map_err(|e| CliError::Output { path: name, what: e.to_string() })?;
    Ok((f, out.name().to_path_buf()))
}

fn write_err(path: &Path) -> impl Fn(std::io::Error) -> CliError + '_ {
    move |e| CliError::Output { path: path.to_path_buf(), what: e.to_string() }
}

pub fn gen<C: zkmsm::InputCurve>(a: &GenArgs) -> Result<(), CliError> {
    let format: PointFormat = a.point_format.into();
    let mut points_out = Output::open(&a.points)?;
    let mut scalars_out = Output::open(&a.scalars)?;
    if points_out.identity() == scalars_out.identity() {
        return Err(CliError::SameOutput(a.points.clone()));
    }
    let mut expected_out = a.expected.as_deref().map(Output::open).transpose()?;
    if let Some(e) = &expected_out {
        if e.identity() == points_out.identity() || e.identity() == scalars_out.identity() {
            return Err(CliError::Output {
                path: e.name().to_path_buf(),
                what: "--expected names the points or the scalars file: one would overwrite the other".into(),
            });
        }
    }
    if points_out.writes_stdout() || scalars_out.writes_stdout() {
        require_stdout()?;
        if std::io::stdout().is_terminal() {
            return Err(CliError::BinaryToTerminal);
        }
    }
    let streams: Vec<&Path> = [Some(&points_out), Some(&scalars_out), expected_out.as_ref()]
        .into_iter()
        .flatten()
        .filter(|o| !o.is_file())
        .map(|o| o.name())
        .collect();
    if streams.len() > 1 {
        return Err(CliError::Output {
            path: streams[1].to_path_buf(),
            what: format!(
                "gen writes at most one output to a stream (standard output, a pipe or a device), and {} is one \
                 too: two streams could not both appear whole or neither; name a file for one of them",
                shown(streams[0])
            ),
        });
    }
    let n = 1usize << a.log_n;
    let what = format!("generating 2^{} {} points and scalars", a.log_n, C::LABEL);
    check_memory(zkmsm::gen::stream_memory::<C>(n, format), &what)?;
    let (point_bytes, scalar_bytes) = ((n * format.size::<C>()) as u64, (n * SCALAR_BYTES) as u64);
    check_space(&mut [(&mut points_out, point_bytes), (&mut scalars_out, scalar_bytes)])?;
    let t = Instant::now();
    let (mut pf, pname) = staging_writer(&mut points_out)?;
    let (mut sf, sname) = staging_writer(&mut scalars_out)?;
    let pb = progress::bar("generating points and scalars", "points");
    pb.set_length(n as u64);
    let (mut pw, mut sw) =
        (std::io::BufWriter::with_capacity(1 << 22, &mut pf), std::io::BufWriter::with_capacity(1 << 22, &mut sf));
    let expected = zkmsm::gen::stream_inputs::<C, CliError>(
        n,
        a.seed,
        format,
        a.scalar_endian.into(),
        &mut |b| {
            pw.write_all(b.points).map_err(write_err(&pname))?;
            sw.write_all(b.scalars).map_err(write_err(&sname))
        },
        &|done| pb.set_position(done as u64),
    )?;
    pw.flush().map_err(write_err(&pname))?;
    sw.flush().map_err(write_err(&sname))?;
    drop((pw, sw));
    pb.set_message("syncing to disk");
    pf.sync_all().map_err(write_err(&pname))?;
    sf.sync_all().map_err(write_err(&sname))?;
    drop((pf, sf));
    let hex = result_hex(&expected);
    if let Some(out) = expected_out.as_mut() {
        let (mut f, name) = staging_writer(out)?;
        writeln!(f, "{hex}").and_then(|()| f.sync_all()).map_err(write_err(&name))?;
    }
    pb.finish_and_clear();
    commit(points_out, scalars_out, expected_out)?;
    errln!(
        "wrote {n} {} points ({:?}) to {} and {n} scalars to {} in {:.0} ms",
        C::NAME,
        a.point_format,
        shown(&a.points),
        shown(&a.scalars),
        ms(t.elapsed())
    )?;
    errln!("expected MSM result (sum s_i g_i mod r, times G): {hex}")
}

/// Every output is whole in its staging file: the stream first (if any:
/// it cannot be taken back), then the old scalars and expected files
/// removed, and the files renamed in: points, scalars, expected.
fn commit(points: Output, scalars: Output, expected: Option<Output>) -> Result<(), CliError> {
    let mut outs: Vec<(bool, Output)> =
        [Some((true, points)), Some((false, scalars)), expected.map(|e| (false, e))].into_iter().flatten().collect();
    if let Some(k) = outs.iter().position(|(_, o)| !o.is_file()) {
        outs.remove(k).1.commit()?;
    }
    for (is_points, o) in &outs {
        if !is_points {
            o.remove_old()?;
        }
    }
    for (_, o) in outs {
        o.commit()?;
    }
    Ok(())
}
