#!/usr/bin/env bash
# The Python package: built and installed with pip (maturin) into a virtual
# environment, then pytest (against the CLI, against ckzg on Ethereum's KZG
# setup, the sharded MSM on a local Ray cluster) and the README's snippet.
# Usage: bash python/test.sh   (from anywhere; needs python3 with venv, Rust)
set -euo pipefail
cd "$(dirname "$0")/.."
# each step's wall and CPU seconds (scripts/steps.sh)
ZKMSM_STEP_SCOPE=python
# shellcheck source=scripts/steps.sh
. scripts/steps.sh
# the CLI (the tests compare against it): scripts/test.sh has built it
# already when it sets ZKMSM_BUILT=1
if [ "${ZKMSM_BUILT:-0}" != 1 ]; then
  cargo build --release -q -p zkmsm-cli
fi
step "virtual environment and the tests' packages (pip)"
venv=target/pyvenv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
py="$venv/bin/python"
# What the tests need, installed once per environment.
"$py" -m pip install -q --disable-pip-version-check maturin numpy pytest ckzg 'ray>=2.9'
step "pip install ./python (maturin: the extension built)"
"$py" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps ./python
step "pytest python/tests"
ZKMSM_REQUIRE_CKZG=1 "$py" -m pytest -q -p no:cacheprovider python/tests

step "README Python snippet"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk '/^```python$/{f=1;next} /^```$/{f=0} f' README.md > "$work/readme.py"
test -s "$work/readme.py"
zkmsm=$PWD/target/release/zkmsm
py=$PWD/$py
(cd "$work" && "$zkmsm" gen --curve bls12-381 --log-n 8 --points p.bin --scalars s.bin 2>/dev/null \
  && test "$("$py" readme.py)" = "$("$zkmsm" msm --curve bls12-381 --points p.bin --scalars s.bin 2>/dev/null | tail -1)")
step_end
echo "python: all passed"
