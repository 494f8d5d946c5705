#!/usr/bin/env bash
# The project's whole test suite: formatting, lints, Rust tests (release mode:
# they do real curve arithmetic), and the RTL co-simulation under Verilator.
# Usage: bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

need_rtl_tools() { ! command -v verilator >/dev/null || ! command -v yosys >/dev/null; }
if need_rtl_tools; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "== installing verilator and yosys (Debian packages)"
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
    echo "== installing gcc, valgrind, go, python3-venv (Debian packages)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc valgrind golang-go python3 python3-venv >/dev/null
  else
    echo "error: the entry-point tests need gcc, valgrind, go and python3 with venv" >&2
    exit 1
  fi
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --release -- -D warnings
echo "== cargo doc (every public item documented, links resolve; release: reuses clippy's dependencies)"
RUSTDOCFLAGS="-D warnings" cargo doc --release --no-deps --workspace --features zkmsm/ark
echo "== generated assembly agrees with its generator (bench/field/gen_asm.py)"
python3 bench/field/gen_asm.py --check crates/field/src/asm.rs
echo "== aarch64 build (the FMA lanes on NEON; no AVX code leaks out of x86-64)"
if rustup target list --installed 2>/dev/null | grep -qx aarch64-unknown-linux-gnu; then
  cargo check -p zkmsm --lib --release --target aarch64-unknown-linux-gnu
else
  echo "(skipped: run 'rustup target add aarch64-unknown-linux-gnu' to include it; CI does)"
fi
echo "== cargo test (release)"
cargo test --workspace --release
echo "== C ABI from C (and under valgrind) and Go"
bash crates/capi/test.sh
echo "== Python package (pip install ./python; pytest: CLI, ckzg, local Ray cluster; README snippet)"
bash python/test.sh
if [ -f rtl/test.sh ]; then
  echo "== RTL co-simulation (Verilator, Yosys)"
  bash rtl/test.sh
fi
echo "== all tests passed"
