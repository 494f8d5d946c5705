//! `zkmsm gen`: random subgroup points and uniform scalars, written to files.

use super::ms;
use crate::args::GenArgs;
use crate::console::{errln, require_stdout, shown};
use crate::error::CliError;
use crate::progress;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;
use zkmsm::io::{write_points, write_scalars};
use zkmsm::MsmCurve;

pub fn gen<C: MsmCurve>(a: &GenArgs) -> Result<(), CliError> {
    if same_file(&a.points, &a.scalars) {
        return Err(CliError::SameOutput(a.points.clone()));
    }
    if a.points.as_os_str() == "-" || a.scalars.as_os_str() == "-" {
        require_stdout()?;
        if std::io::stdout().is_terminal() {
            return Err(CliError::BinaryToTerminal);
        }
    }
    let n = 1usize << a.log_n;
    let t = Instant::now();
    let pb = progress::spinner(format!("generating {n} {} points and scalars", C::NAME));
    let points = zkmsm::gen::random_points::<C>(n, a.seed).points;
    let scalars = zkmsm::gen::random_scalars::<C>(n, a.seed.wrapping_add(1));
    pb.set_message(format!("writing {}", shown(&a.points)));
    write_points(&a.points, &points, a.point_format.into())?;
    pb.set_message(format!("writing {}", shown(&a.scalars)));
    write_scalars(&a.scalars, &scalars)?;
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

/// Do two output paths name the same file (or both standard output)? Two
/// spellings of one file, hard links and symbolic links count as the same.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    #[cfg(unix)]
    if let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        use std::os::unix::fs::MetadataExt;
        return ma.dev() == mb.dev() && ma.ino() == mb.ino();
    }
    // not both existing yet: compare where they would be created
    let resolved = |p: &Path| {
        let parent = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(parent).ok()?.join(p.file_name()?))
    };
    matches!((resolved(a), resolved(b)), (Some(x), Some(y)) if x == y)
}
