//! With the `verilated` feature: Verilate the accelerator (rtl/src,
//! zk_msm_top) twice and link both models with the C++ driver
//! (rtl/tb/zk_driver.cpp):
//!
//! * `Vzk_te`: the twisted Edwards core as synthesized (CMAX 16, PD 16,
//!   BRL 2), the multiplier compiled once as a hierarchical block;
//! * `Vzk_int`: the integer stand-in datapath, for fast control tests
//!   (CMAX 10, PD 16, BRL 2, stand-in latency 24, 32-bit values);
//! * `Vzk_lk`: the stand-in with the bucket lock table and a block-RAM
//!   pending queue (LOCK 1), blocked pending heads requeued (RQ 1), at
//!   latency 2,000 (CMAX 8, PD 1024, BRL 2);
//! * `Vzk_aff381`, `Vzk_aff377`: the batched-affine core as synthesized
//!   (DP 2, the lock table, PD 1024, RQ 1, CMAX 16, BRL 2) on BLS12-381 and
//!   on BLS12-377, the multiplier compiled once as a hierarchical block.
//!
//! All with two cores on one point stream (NCORES 2, fan-out FIFOs of 4):
//! a run uses one or both (the CORES register), so one build serves the
//! one-core and the two-core tests.
//!
//! Verilator comes from PATH (or $VERILATOR); it runs its own make for the
//! generated C++ (-j from cargo's NUM_JOBS), the cc crate compiles the driver
//! and the Verilator runtime. Without the feature this script does nothing.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(feature = "verilated")]
    verilated::build();
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

    pub fn build() {
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
        let te = verilate(&verilator, &rtl, &sources, &out.join("te"), "Vzk_te", TE_PARAMS, true, &jobs);
        let int = verilate(&verilator, &rtl, &sources, &out.join("int"), "Vzk_int", INT_PARAMS, false, &jobs);
        let lk = verilate(&verilator, &rtl, &sources, &out.join("lk"), "Vzk_lk", LOCK_PARAMS, false, &jobs);
        let a381 = verilate(&verilator, &rtl, &sources, &out.join("aff381"), "Vzk_aff381", AFF381_PARAMS, true, &jobs);
        let a377 = verilate(&verilator, &rtl, &sources, &out.join("aff377"), "Vzk_aff377", AFF377_PARAMS, true, &jobs);

        cc::Build::new()
            .cpp(true)
            .std("c++17")
            .opt_level(2)
            .include(&include)
            .include(include.join("vltstd"))
            .include(&te)
            .include(&int)
            .include(&lk)
            .include(&a381)
            .include(&a377)
            .define("ZK_WITH_TE", None)
            .define("ZK_WITH_INT", None)
            .define("ZK_WITH_INT_LOCK", None)
            .define("ZK_WITH_AFF", None)
            .define("VM_TRACE", "0")
            .file(rtl.join("tb/zk_driver.cpp"))
            .warnings(false)
            .compile("zk_driver");
        // the models' archives after the driver that uses them, the runtime last
        // (copied to lib<name>.a, the name rustc links by)
        println!("cargo:rustc-link-search=native={}", out.display());
        for (k, dir) in [&te, &int, &lk, &a381, &a377].into_iter().enumerate() {
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
