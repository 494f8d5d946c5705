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

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --release -- -D warnings
echo "== cargo test (release)"
cargo test --workspace --release
if [ -f rtl/test.sh ]; then
  echo "== RTL co-simulation (Verilator, Yosys)"
  bash rtl/test.sh
fi
echo "== all tests passed"
