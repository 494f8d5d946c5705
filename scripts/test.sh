#!/usr/bin/env bash
# The project's whole test suite: formatting, lints, Rust tests (release mode:
# they do real curve arithmetic), and the RTL co-simulation under Verilator.
# Usage: bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step prints its wall and CPU seconds when it ends, the steps of
# rtl/test.sh, crates/capi/test.sh and python/test.sh too, and a table of
# them all closes the log (scripts/steps.sh).
ZKMSM_STEP_SCOPE=""
ZKMSM_STEPS=$(mktemp)
export ZKMSM_STEPS
# shellcheck source=scripts/steps.sh
. scripts/steps.sh
# the table also when a step fails: where the time went up to there
steps_done() {
  step_end
  steps_table
  echo "total: ${SECONDS} s wall; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  rm -f "$ZKMSM_STEPS"
}
trap steps_done EXIT

need_rtl_tools() { ! command -v verilator >/dev/null || ! command -v yosys >/dev/null; }
if need_rtl_tools; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    step "installing verilator and yosys (Debian packages)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq verilator yosys >/dev/null
  else
    echo "error: the RTL tests need verilator and yosys: sudo apt-get install verilator yosys" >&2
    exit 1
  fi
fi

# The entry points' tests (crates/capi/test.sh, python/test.sh) need a C
# compiler, valgrind, Go and Python's venv.
# (Debian's python3 has the venv module but not ensurepip, which a venv needs
# for pip: that is python3-venv.)
need_entry_tools() { ! command -v valgrind >/dev/null || ! command -v go >/dev/null || ! command -v gcc >/dev/null || ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; }
if need_entry_tools; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    step "installing gcc, valgrind, go, python3-venv (Debian packages)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc valgrind golang-go python3 python3-venv >/dev/null
  else
    echo "error: the entry-point tests need gcc, valgrind, go and python3 with venv" >&2
    exit 1
  fi
fi

# Every cargo build below (and the ones in crates/capi/test.sh, python/test.sh
# and rtl/test.sh, which inherit this environment) uses the release profile's
# opt-level 3 without its link-time optimisation, single codegen unit and
# debug info: the same code to test, built several times faster (the LTO
# links of a dozen test binaries were most of CI's time). Benchmarks and
# `cargo run --release` keep the manifest's profile.
export CARGO_PROFILE_RELEASE_LTO=false
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
export CARGO_PROFILE_RELEASE_DEBUG=false
# The crates around the library (the cycle model, the RTL driver, the
# differential checker) at opt-level 1: half their compile time, and their
# tests run in seconds either way; the library and its tests stay at 3
# (scripts/test-profile.toml; rtl/test.sh's cargo lines use it too).
export ZKMSM_CARGO_CONFIG=$PWD/scripts/test-profile.toml
CFG=(--config "$ZKMSM_CARGO_CONFIG")
# Every step builds and tests with the Verilated core and the CLI's
# `--backend rtl` (Verilator is installed above): one build of every crate
# with one set of features, instead of a second build of the CLI and the
# RTL crate in rtl/test.sh.
FEAT=(--features zkmsm-rtl/verilated,zkmsm-cli/rtl)
# Five of the six Verilated models: the BLS12-377 batched-affine core is
# minutes of C++ more and its adder has its own bench in rtl/test.sh; its
# tests check that it is refused in one line instead. RTL_FULL=1 builds all.
if [ "${RTL_FULL:-0}" != 1 ]; then
  export ZKMSM_RTL_MODELS=${ZKMSM_RTL_MODELS:-te,int,lk,aff381,affbn254}
fi

step "cargo fmt --check"
cargo fmt --all -- --check
step "no import cycles between the modules of any crate; crates/msm's layers point down"
python3 scripts/module_cycles.py
step "commit messages since the check began: subjects of at most 72 characters, a blank second line"
python3 scripts/check_commits.py
step "cargo clippy"
cargo clippy "${CFG[@]}" --workspace --all-targets --release "${FEAT[@]}" -- -D warnings
step "cargo doc (every public item documented, links resolve; release: reuses clippy's dependencies)"
RUSTDOCFLAGS="-D warnings" cargo doc --release --no-deps --workspace --features zkmsm/groth16
step "generated assembly agrees with its generator (bench/field/gen_asm.py)"
python3 bench/field/gen_asm.py --check crates/field/src/asm.rs
step "aarch64 build (the FMA lanes on NEON; no AVX code leaks out of x86-64)"
if rustup target list --installed 2>/dev/null | grep -qx aarch64-unknown-linux-gnu; then
  cargo check -p zkmsm --lib --release --target aarch64-unknown-linux-gnu
else
  echo "(skipped: run 'rustup target add aarch64-unknown-linux-gnu' to include it; CI does)"
fi
# One build of every library, binary, test and example, with the features
# `cargo test` resolves (the dev-dependencies' included). The C ABI and
# Python scripts then use this build's CLI and C library (ZKMSM_BUILT=1)
# instead of building them again: a plain `cargo build` resolves other
# features, so it would compile zkmsm and half its dependencies a second time.
step "cargo build (release: libraries, binaries, tests, examples)"
cargo build "${CFG[@]}" --workspace --release --lib --bins --tests --examples "${FEAT[@]}"
step "cargo test (release)"
cargo test "${CFG[@]}" --workspace --release "${FEAT[@]}"
export ZKMSM_BUILT=1 ZKMSM_RTL_CARGO_DONE=1
step "C ABI from C (and under valgrind) and Go"
bash crates/capi/test.sh
step "BN254 from outside: a gnark-crypto KZG setup read in gnark's serialization, its MSM against gnark's commitment"
bash crates/checks/gnark-srs/check.sh 12
# The Python package's tests wait on a local Ray cluster much of their time,
# so they run beside the RTL co-simulation; their log is printed after it.
echo "== Python package (pip install ./python; pytest: CLI, ckzg, local Ray cluster; README snippet), in the background"
PYLOG=$(mktemp)
PYSTEPS=$(mktemp)
(ZKMSM_STEPS=$PYSTEPS step_run "Python package (beside the RTL co-simulation)" bash python/test.sh) >"$PYLOG" 2>&1 &
PYPID=$!
RTL_RC=0
if [ -f rtl/test.sh ]; then
  step "RTL co-simulation (Verilator, Yosys)"
  bash rtl/test.sh || RTL_RC=$?
fi
step "waiting for the Python package (its CPU is charged here again)"
PY_RC=0
wait "$PYPID" || PY_RC=$?
step_end
cat "$PYSTEPS" >>"$ZKMSM_STEPS"
echo "== Python package: its log"
cat "$PYLOG"
rm -f "$PYLOG" "$PYSTEPS"
if [ "$RTL_RC" != 0 ] || [ "$PY_RC" != 0 ]; then
  echo "FAILED: RTL co-simulation exit $RTL_RC, Python package exit $PY_RC" >&2
  exit 1
fi
echo "== all tests passed"
