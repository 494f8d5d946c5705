//! With the `verilated` feature: Verilate the accelerator (rtl/src,
//! zk_msm_top) in six configurations and link the models with the C++
//! driver (rtl/tb/zk_driver.cpp):
//!
//! * `Vzk_te`: the twisted Edwards core as synthesized (CMAX 16, PD 16,
//!   BRL 2, device aggregation through its conversion: AGG 1), the
//!   multiplier compiled once as a hierarchical block;
//! * `Vzk_int`: the integer stand-in datapath, for fast control tests
//!   (CMAX 10, PD 16, BRL 2, stand-in latency 24, 32-bit values);
//! * `Vzk_lk`: the stand-in with the bucket lock table and a block-RAM
//!   pending queue (LOCK 1), blocked pending heads requeued (RQ 1), at
//!   latency 2,000 (CMAX 8, PD 1024, BRL 2);
//! * `Vzk_aff381`, `Vzk_aff377`: the batched-affine core as synthesized
//!   (DP 2, the lock table, PD 1024, RQ 1, CMAX 16, BRL 2) on BLS12-381 and
//!   on BLS12-377, the multiplier compiled once as a hierarchical block;
//! * `Vzk_affbn254`: the same core on BN254, at its own width (NB 256).
//!
//! All with two cores on one point stream (NCORES 2, fan-out FIFOs of 4):
//! a run uses one or both (the CORES register), so one build serves the
//! one-core and the two-core tests.
//!
//! `ZKMSM_RTL_MODELS` (a comma-separated subset of te, int, lk, aff381,
//! aff377, affbn254; default all) builds fewer: each model is minutes of C++, and
//! `bash scripts/test.sh` leaves out aff377 (its adder has its own bench in
//! rtl/test.sh; `RTL_FULL=1` builds it). A model left out is refused at run
//! time in one line (`Kind::built`).
//!
//! `ZKMSM_RTL_AFF_DEFINES` (space-separated Verilator `-D` options) builds
//! the batched-affine models in another configuration than the default
//! one (`SHARE = 1`, PD 1,024), e.g. `-DZK_AFF_SHARE=4 -DZK_AFF_PD=8192`;
//! the host reads the latency and the queue depth from the core's
//! registers, so the same tests run on it.
//!
//! Verilator comes from PATH (or $VERILATOR); it runs its own make for the
//! generated C++ (-j from cargo's NUM_JOBS), the cc crate compiles the driver
//! and the Verilator runtime. Without the feature, or under `cargo clippy`,
//! this script builds nothing.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC_WORKSPACE_WRAPPER");
    // `cargo clippy` type-checks and links nothing, so it needs no model;
    // and cargo gives its build-script run an OUT_DIR of its own, so
    // building the models here would build them a second time (minutes).
    let clippy = std::env::var("RUSTC_WORKSPACE_WRAPPER").is_ok_and(|w| w.contains("clippy-driver"));
    #[cfg(feature = "verilated")]
    {
        let models = verilated::wanted();
        // the Rust side refuses the kinds that were not built (sim::Kind::built)
        println!("cargo:rustc-env=ZKMSM_RTL_BUILT={}", models.join(","));
        // (the tests of the default configuration's registers skip a build
        // made in another one)
        println!(
            "cargo:rustc-env=ZKMSM_RTL_AFF_DEFINES={}",
            std::env::var("ZKMSM_RTL_AFF_DEFINES").unwrap_or_default()
        );
        if !clippy {
            verilated::build(&models);
        }
    }
    let _ = clippy;
}

#[cfg(feature = "verilated")]
mod verilated {
    use std::path::{Path, PathBuf};
    use std::process::Command;

    const TE_PARAMS: &[&str] = &["-DZK_NCORES=2"];
    const INT_PARAMS: &[&str] = &["-GDP=0", "-GCMAX=10", "-GPD=16", "-GBRL=2", "-GSLAT=24", "-GSW=32", "-DZK_NCORES=2"];
    const LOCK_PARAMS: &[&str] = &[
        "-GDP=0",
        "-GLOCK=1",
        "-GRQ=1",
        "-GCMAX=8",
        "-GPD=1024",
        "-GBRL=2",
        "-GSLAT=2000",
        "-GSW=32",
        "-DZK_NCORES=2",
    ];

    // (each build names its multiplier apart: zk_params.svh, ZK_FQ_MUL)
    const AFF381_PARAMS: &[&str] =
        &["-DZK_CORE_AFF", "-DZK_CORE_BLS12_381", "-DZK_NCORES=2", "-DZK_FQ_MUL=zk_fq_mul_aff381"];
    const AFF377_PARAMS: &[&str] = &["-DZK_CORE_AFF", "-DZK_NCORES=2", "-DZK_FQ_MUL=zk_fq_mul_aff377"];
    const AFFBN254_PARAMS: &[&str] =
        &["-DZK_CORE_AFF", "-DZK_CORE_BN254", "-DZK_NCORES=2", "-DZK_FQ_MUL=zk_fq_mul_affbn254"];

    const MODELS: [&str; 6] = ["te", "int", "lk", "aff381", "aff377", "affbn254"];

    /// The models to build: `ZKMSM_RTL_MODELS`, or all.
    pub fn wanted() -> Vec<&'static str> {
        println!("cargo:rerun-if-env-changed=ZKMSM_RTL_MODELS");
        match std::env::var("ZKMSM_RTL_MODELS") {
            Ok(v) if !v.trim().is_empty() => {
                let named: Vec<&str> = v.split(',').map(str::trim).collect();
                for m in &named {
                    assert!(MODELS.contains(m), "ZKMSM_RTL_MODELS: unknown model `{m}` (known: {})", MODELS.join(", "));
                }
                MODELS.into_iter().filter(|m| named.contains(m)).collect()
            }
            _ => MODELS.to_vec(),
        }
    }

    pub fn build(wanted: &[&str]) {
        let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../..");
        let rtl = root.join("rtl");
        let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
        println!("cargo:rerun-if-changed={}", rtl.join("src").display());
        println!("cargo:rerun-if-changed={}", rtl.join("tb/zk_driver.cpp").display());
        println!("cargo:rerun-if-changed={}", rtl.join("tb/zk_driver.h").display());
        println!("cargo:rerun-if-env-changed=VERILATOR");

        let verilator = std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".into());
        let root_dir = match Command::new(&verilator).arg("--getenv").arg("VERILATOR_ROOT").output() {
        Ok(o) if o.status.success() => PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()),
        _ => panic!(
            "the `verilated` feature (zkmsm --features rtl) needs Verilator 5 on PATH (Debian: apt-get install verilator): `{verilator}` not found"
        ),
    };
        let include = root_dir.join("include");

        let mut sources: Vec<PathBuf> = std::fs::read_dir(rtl.join("src"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "sv") && !p.ends_with("zk_tb_top.sv"))
            .collect();
        sources.sort();

        let jobs = std::env::var("NUM_JOBS").unwrap_or_else(|_| "2".into());
        // (name, prefix, parameters, hierarchical, the driver's define)
        let models: [(&str, &str, &[&str], bool, &str); 6] = [
            ("te", "Vzk_te", TE_PARAMS, true, "ZK_WITH_TE"),
            ("int", "Vzk_int", INT_PARAMS, false, "ZK_WITH_INT"),
            ("lk", "Vzk_lk", LOCK_PARAMS, false, "ZK_WITH_INT_LOCK"),
            ("aff381", "Vzk_aff381", AFF381_PARAMS, true, "ZK_WITH_AFF381"),
            ("aff377", "Vzk_aff377", AFF377_PARAMS, true, "ZK_WITH_AFF377"),
            ("affbn254", "Vzk_affbn254", AFFBN254_PARAMS, true, "ZK_WITH_AFFBN254"),
        ];
        let mut driver = cc::Build::new();
        driver.cpp(true).std("c++17").opt_level(2).include(&include).include(include.join("vltstd"));
        let mut dirs = Vec::new();
        println!("cargo:rerun-if-env-changed=ZKMSM_RTL_AFF_DEFINES");
        let aff_defines = std::env::var("ZKMSM_RTL_AFF_DEFINES").unwrap_or_default();
        for (name, prefix, params, hier, define) in models.into_iter().filter(|m| wanted.contains(&m.0)) {
            let mut params: Vec<&str> = params.to_vec();
            if name.starts_with("aff") {
                params.extend(aff_defines.split_whitespace());
            }
            let dir = verilate(&verilator, &rtl, &sources, &out.join(name), prefix, &params, hier, &jobs);
            driver.include(&dir).define(define, None);
            dirs.push(dir);
        }
        driver.define("VM_TRACE", "0").file(rtl.join("tb/zk_driver.cpp")).warnings(false).compile("zk_driver");
        // the models' archives after the driver that uses them, the runtime last
        // (copied to lib<name>.a, the name rustc links by)
        println!("cargo:rustc-link-search=native={}", out.display());
        for (k, dir) in dirs.iter().enumerate() {
            for (j, lib) in archives(dir).into_iter().enumerate() {
                let name = format!("zk_model_{k}_{j}");
                std::fs::copy(&lib, out.join(format!("lib{name}.a"))).unwrap();
                println!("cargo:rustc-link-lib=static={name}");
            }
        }
        let mut rt = cc::Build::new();
        rt.cpp(true).std("c++17").opt_level(2).include(&include).include(include.join("vltstd")).warnings(false);
        rt.file(include.join("verilated.cpp"));
        if include.join("verilated_threads.cpp").exists() {
            rt.file(include.join("verilated_threads.cpp"));
        }
        rt.compile("zk_verilated");
        println!("cargo:rustc-link-lib=pthread");
    }

    /// Verilate `zk_msm_top` into `dir` with Verilator's own make; the archives
    /// it leaves there are linked by the caller.
    #[allow(clippy::too_many_arguments)]
    fn verilate(
        verilator: &str,
        rtl: &Path,
        sources: &[PathBuf],
        dir: &Path,
        prefix: &str,
        params: &[&str],
        hierarchical: bool,
        jobs: &str,
    ) -> PathBuf {
        std::fs::create_dir_all(dir).unwrap();
        let mut cmd = Command::new(verilator);
        cmd.args(["--cc", "--build", "-j", jobs, "-O3", "--x-assign", "fast", "--x-initial", "fast"])
            .args(["-Wno-fatal", "-Wno-lint", "-Wno-style", "--top-module", "zk_msm_top"])
            .arg(format!("-I{}", rtl.join("src").display()))
            .args(["--prefix", prefix, "--Mdir"])
            .arg(dir)
            // the evaluation code at -O1; the __Slow files (initialization and
            // settle code, as large as the evaluation code, run once) at -O0
            .args(["-CFLAGS", "-std=c++17 -fPIC", "-MAKEFLAGS", "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1"])
            .args(params)
            .args(sources);
        if hierarchical {
            cmd.arg("--hierarchical");
        }
        let log = dir.join("verilator.log");
        let out = cmd.output().unwrap_or_else(|e| panic!("running {verilator}: {e}"));
        std::fs::write(&log, [&out.stdout[..], &out.stderr[..]].concat()).unwrap();
        if !out.status.success() {
            panic!("Verilator failed for {prefix} (log: {})", log.display());
        }
        dir.to_path_buf()
    }

    /// The static archives Verilator's build left in `dir`, the top model first.
    fn archives(dir: &Path) -> Vec<PathBuf> {
        let mut found = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "a") {
                    found.push(p);
                }
            }
        }
        found.sort_by_key(|p| (p.parent() != Some(dir), p.clone()));
        found
    }
}
