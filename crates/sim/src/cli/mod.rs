//! Command-line front end: `zkmsm sim ...` (through the `zkmsm` CLI crate)
//! and the stand-alone `zkmsm-sim` binary share [`SimArgs`] and [`run`].
//! Built with the `cli` feature (on by default); the model itself needs
//! neither clap nor serde.
//!
//! * [`args`]: the arguments; [`config`]: arguments to a `ModelConfig`;
//! * [`report`]: the report table and its JSON; [`functional`]: functional
//!   mode; [`sweep`], [`thesis`]: the subcommands; [`error`]: what can fail.

pub mod args;
pub mod config;
pub mod error;
pub mod functional;
pub mod report;
pub mod sweep;
pub mod thesis;

pub use args::{CurveArg, Mode, ScalarsArg, SimArgs, SimCommand, SweepArgs, ThesisArgs};
pub use error::SimError;
pub use report::{format_report, report_json, KeyFigures};

use crate::curves;
use crate::model::ScalarField;
use std::io::Write as _;
use std::path::Path;
use std::time::Instant;
use zkmsm_curve::{Bls12_377, Bls12_381};

/// Run the `sim` command.
pub fn run(args: SimArgs) -> Result<(), SimError> {
    match &args.command {
        Some(SimCommand::Sweep(s)) => return sweep::sweep(s),
        Some(SimCommand::Thesis(t)) => return thesis::thesis_cmd(t),
        Some(SimCommand::Timeline) => return say(&crate::timeline::table::report()),
        None => {}
    }
    let cfg = args.config()?;
    let out = match args.mode {
        Mode::Stats => {
            if args.curve == Some(CurveArg::Toy) {
                return Err(SimError::ToyNeedsFunctional);
            }
            let t0 = Instant::now();
            let set = functional::scalar_set(args.scalars);
            let rep = if args.scalars == ScalarsArg::Uniform {
                cfg.run_stats()
            } else if cfg.field == ScalarField::Bls12_377 {
                cfg.run_stats_on(&curves::scalars::<Bls12_377>(cfg.n, set, cfg.seed))
            } else {
                cfg.run_stats_on(&curves::scalars::<Bls12_381>(cfg.n, set, cfg.seed))
            };
            let mut out = format_report(&rep, t0.elapsed().as_secs_f64());
            if args.json {
                out.push_str(&report_json(&rep));
                out.push('\n');
            }
            out
        }
        Mode::Functional => match functional::run_functional(&args, &cfg) {
            Ok(out) => out,
            Err(SimError::Mismatch { report, against }) => {
                // the report shows what differs; the error says that it does
                say(&report)?;
                return Err(SimError::Mismatch { report, against });
            }
            Err(e) => return Err(e),
        },
    };
    say(&out)
}

/// Text to standard output; a failed write is an error, not a panic.
pub(crate) fn say(text: &str) -> Result<(), SimError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(SimError::Write)
}

/// Write `text` to `path` whole or not at all: to a temporary file beside
/// it, synced, then renamed over it (an interrupted run leaves the old file).
/// A symbolic link is written through: the file it leads to is replaced (or
/// created), the link stays.
pub(crate) fn write_file(given: &Path, text: &str) -> Result<(), SimError> {
    let (alias, path) = follow_links(given).map_err(|e| SimError::io(given, e))?;
    // a pipe, a FIFO, a device, a descriptor's alias (/dev/stdout): nothing
    // to rename over, written in place
    let stream = std::fs::metadata(&path).is_ok_and(|m| !m.is_file());
    if stream || alias {
        return std::fs::write(given, text).map_err(|e| SimError::io(given, e));
    }
    let path = path.as_path();
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.zkmsm-{}.tmp", std::process::id()));
    let written = std::fs::File::options()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map_err(|e| SimError::io(given, e))
}

/// Where the symbolic links of `path` lead (its last component, link after
/// link), and whether one of them is the kernel's alias of a descriptor
/// (/proc, /dev/fd, /dev/stdout): those are written in place.
fn follow_links(path: &Path) -> std::io::Result<(bool, std::path::PathBuf)> {
    let is_alias = |p: &Path| {
        p.starts_with("/proc")
            || p.starts_with("/dev/fd")
            || ["/dev/stdin", "/dev/stdout", "/dev/stderr"].iter().any(|a| p == Path::new(a))
    };
    let mut p = path.to_path_buf();
    let mut alias = is_alias(&p);
    // as many links as the kernel follows
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
                alias |= is_alias(&p);
            }
            Ok(_) => return Ok((alias, p)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((alias, p)),
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AggKind, SchedKind};
    use clap::Parser;

    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        sim: SimArgs,
    }

    fn parse(args: &[&str]) -> SimArgs {
        Wrap::try_parse_from(std::iter::once("zkmsm-sim").chain(args.iter().copied())).unwrap().sim
    }

    #[test]
    fn presets_and_overrides() {
        let c = parse(&["--scheduler", "hardcaml"]).config().unwrap();
        assert_eq!((c.c, c.machine.depth, c.freq_mhz, c.stall_fifo), (13, 238, 278.0, 4));
        let c = parse(&["--scheduler", "prior", "--window", "16", "--groups", "8", "--log-n", "10"]).config().unwrap();
        assert_eq!((c.c, c.groups, c.n, c.machine.banks), (16, 8, 1024, 8));
        let c = parse(&["--scheduler", "zprize", "--depth", "100", "--batch", "0"]).config().unwrap();
        assert_eq!((c.machine.depth, c.machine.batch, c.cus), (100, 0, 3));
        assert!(parse(&["--groups", "3"]).config().is_err());
        assert!(parse(&["--window", "1"]).config().is_err());
        assert!(Wrap::try_parse_from(["zkmsm-sim", "--scheduler", "nope"]).is_err());
        // Subcommands parse with their own options.
        let a = parse(&["sweep", "--out", "/tmp/x", "--schedulers", "delayed,prior", "--depths", "10,20"]);
        match a.command {
            Some(SimCommand::Sweep(s)) => {
                assert_eq!(s.schedulers, vec![SchedKind::Delayed, SchedKind::Prior]);
                assert_eq!(s.depths, vec![10, 20]);
            }
            _ => panic!("expected sweep"),
        }
    }

    #[test]
    fn report_and_functional_run() {
        let a = parse(&["--scheduler", "greedy", "--log-n", "10", "--window", "8", "--depth", "20"]);
        let r = a.config().unwrap().run_stats();
        let text = format_report(&r, 0.0);
        for key in ["cycles per addition", "pipeline utilization", "queue high-water", "aggregation share", "latency @"]
        {
            assert!(text.contains(key), "missing {key}");
        }
        let a =
            parse(&["--scheduler", "prior", "--log-n", "8", "--window", "6", "--mode", "functional", "--curve", "toy"]);
        let out = functional::run_functional(&a, &a.config().unwrap()).unwrap();
        assert!(out.contains("functional check     OK"));
        let a = parse(&["--scheduler", "hardcaml", "--log-n", "7", "--window", "7", "--mode", "functional"]);
        let out = functional::run_functional(&a, &a.config().unwrap()).unwrap();
        assert!(out.contains("equals the zkmsm CPU engine"));
    }

    #[test]
    fn model_names_on_the_command_line() {
        for k in SchedKind::ALL {
            assert_eq!(parse(&["--scheduler", k.name()]).scheduler, k);
        }
        for k in AggKind::ALL {
            assert_eq!(parse(&["--agg", k.name()]).agg, Some(k));
        }
        assert_eq!(AggKind::SerialOverlap.name(), "serial-overlap");
    }

    #[test]
    fn json_key_figures() {
        let a = parse(&["--scheduler", "delayed", "--log-n", "8", "--window", "6"]);
        let r = a.config().unwrap().run_stats();
        let line = report_json(&r);
        assert!(!line.contains('\n'));
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["scheduler"], "delayed");
        assert_eq!(v["n"], 256);
        assert_eq!(v["c"], 6);
        assert_eq!(v["acc_cycles"], r.acc.cycles);
        assert_eq!(v["device_cycles"], r.device_cycles);
        assert!(v["latency_ms"].as_f64().unwrap() > 0.0);
    }

    #[test]
    fn nonsense_parameters_are_refused_not_adjusted() {
        for (args, message) in [
            (&["--adders", "0"][..], "--adders 0: must be at least 1"),
            (&["--banks", "0"][..], "--banks 0: must be at least 1"),
            (&["--ports", "0"][..], "--ports 0: must be at least 1"),
            (&["--depth", "0"][..], "--depth 0: must be at least 1"),
            (&["--freq-mhz", "0"][..], "--freq-mhz 0: must be a positive number of MHz"),
            (&["--freq-mhz", "NaN"][..], "--freq-mhz NaN: must be a positive number of MHz"),
            (&["--scheduler", "core", "--cores", "100000"][..], "--cores 100000: must be in 1..=64"),
            (&["--scheduler", "core", "--cmax", "2"][..], "--cmax 2: must be in 3..=20"),
            (&["--n", "2000000000"][..], "--n 2000000000: at most 2^30"),
        ] {
            assert_eq!(parse(args).config().unwrap_err().to_string(), message, "{args:?}");
        }
        assert!(matches!(parse(&["--log-n", "31"]).config(), Err(SimError::LogN(31, _))));
        let c = parse(&["--adders", "2", "--banks", "4", "--freq-mhz", "250.5"]).config().unwrap();
        assert_eq!((c.machine.adders, c.machine.banks, c.freq_mhz), (2, 4, 250.5));
    }

    #[test]
    fn every_parameter_is_bounded() {
        use config::*;
        let past = |v: u64| (v + 1).to_string();
        let cases: Vec<(&str, String, String)> = vec![
            ("--depth", past(MAX_DEPTH.into()), format!("must be in 1..={MAX_DEPTH}")),
            ("--depth", u32::MAX.to_string(), format!("must be in 1..={MAX_DEPTH}")),
            ("--adders", u32::MAX.to_string(), format!("must be in 1..={MAX_UNITS}")),
            ("--banks", u32::MAX.to_string(), format!("must be in 1..={MAX_UNITS}")),
            ("--ports", past(MAX_UNITS.into()), format!("must be in 1..={MAX_UNITS}")),
            ("--cus", u64::MAX.to_string(), format!("must be in 1..={MAX_UNITS}")),
            ("--read-latency", u32::MAX.to_string(), format!("must be in 1..={MAX_READ_LATENCY}")),
            ("--input-latency", u32::MAX.to_string(), format!("must be in 0..={MAX_INPUT_LATENCY}")),
            ("--input-latency", "1000000000".into(), format!("must be in 0..={MAX_INPUT_LATENCY}")),
            ("--batch", u32::MAX.to_string(), format!("must be in 0..={MAX_BATCH}")),
            ("--stall-fifo", u64::MAX.to_string(), format!("must be in 1..={MAX_STALL_FIFO}")),
            ("--fifo-depth", u64::MAX.to_string(), format!("must be in 0..={MAX_QUEUE}")),
            ("--pending-cap", u64::MAX.to_string(), format!("must be in 0..={MAX_QUEUE}")),
            ("--fanout-depth", u32::MAX.to_string(), format!("must be in 0..={MAX_QUEUE}")),
            ("--mul-latency", u32::MAX.to_string(), format!("must be in 0..={MAX_DEPTH}")),
            ("--groups", (1u64 << 63).to_string(), format!("must be in 1..={MAX_GROUPS}")),
            ("--freq-mhz", "1e-310".into(), "must be in 0.001..=100000 MHz (1 kHz to 100 GHz)".into()),
            ("--freq-mhz", "1e300".into(), "must be in 0.001..=100000 MHz (1 kHz to 100 GHz)".into()),
        ];
        for (name, value, rule) in cases {
            let e = parse(&["--scheduler", "core", name, &value]).config().unwrap_err().to_string();
            assert!(e.starts_with(name) && e.ends_with(&rule), "{name} {value}: {e}");
        }
        // the bounds themselves run
        let c = parse(&["--depth", "65536", "--read-latency", "1024", "--input-latency", "1048576"]).config().unwrap();
        assert_eq!((c.machine.depth, c.core.read_latency, c.core.input_latency), (MAX_DEPTH, 1024, 1 << 20));
        let a = parse(&["thesis", "--depth", "65537"]);
        assert_eq!(run(a).unwrap_err().to_string(), format!("--depth 65537: must be in 1..={MAX_DEPTH}"));
        let a = parse(&["sweep", "--out", "/dev/null/x", "--depths", "10,4294967295"]);
        assert_eq!(
            run(a).unwrap_err().to_string(),
            format!("--depths 4294967295: each depth must be in 1..={MAX_DEPTH}")
        );
    }

    #[test]
    fn thesis_arguments_are_checked_before_the_run() {
        for (args, message) in [
            (&["thesis", "--window", "0"][..], "--window 0: must be in 2..=20"),
            (&["thesis", "--window", "21"][..], "--window 21: must be in 2..=20"),
            (&["thesis", "--n", "10000000000"][..], "--n 10000000000: must be in 1..=1048576"),
            (&["thesis", "--depth", "0"][..], "--depth 0: must be at least 1"),
        ] {
            assert_eq!(run(parse(args)).unwrap_err().to_string(), message, "{args:?}");
        }
    }

    #[test]
    fn errors_are_typed_and_name_the_argument() {
        assert!(matches!(parse(&["--log-n", "41"]).config(), Err(SimError::LogN(41, _))));
        assert!(matches!(parse(&["--window", "31"]).config(), Err(SimError::Window(31))));
        let e = parse(&["--groups", "3"]).config().unwrap_err();
        assert_eq!(e.to_string(), "--groups 3: must be a power of two");
        let a = parse(&["--curve", "toy"]);
        assert!(matches!(run(a), Err(SimError::ToyNeedsFunctional)));
        let a = parse(&["sweep", "--out", "/dev/null/x", "--c-min", "9", "--c-max", "8"]);
        assert!(matches!(run(a), Err(SimError::SweepWindows { c_min: 9, c_max: 8 })));
    }
}
