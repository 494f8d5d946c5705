#!/usr/bin/env bash
# Every run behind docs/MODEL.md, one after another, single-threaded.
# Usage: bash crates/sim/scripts/model-claims.sh OUTDIR   (about 15-30 minutes)
# Each run's output goes to OUTDIR/NAME.txt, headed by its command line.
set -u
OUT=${1:?usage: model-claims.sh OUTDIR}
BIN=${ZKMSM_SIM:-target/release/zkmsm-sim}
mkdir -p "$OUT"
run() {
  local name=$1; shift
  echo "\$ zkmsm-sim $*" > "$OUT/$name.txt"
  /usr/bin/time -f "elapsed %e s, max RSS %M KB" "$BIN" "$@" >> "$OUT/$name.txt" 2>&1
}
run thesis thesis
run prior-rate-c16 --scheduler prior --log-n 16 --window 16
run cyclone-equal-16 --scheduler greedy --log-n 16 --scalars equal
run cyclone-nodrain-20 --scheduler delayed --log-n 20 --no-pass-drain
run cyclone-delayed-26 --scheduler delayed --log-n 26
run cyclone-greedy-26 --scheduler greedy --log-n 26
for k in 22 23 24 25 26; do run cyclone-t3-$k --scheduler delayed --log-n $k --depth 96; done
for k in 22 23 24 25 26; do run cyclone-t3o-$k --scheduler delayed --log-n $k --depth 96 --agg serial-overlap; done
run zprize-24-full --scheduler zprize --log-n 24 --full-width-windows
run zprize-24 --scheduler zprize --log-n 24 --pending-cap 64
run zprize-24-full-nobatch --scheduler zprize --log-n 24 --full-width-windows --batch 0 --depth 3500
for k in 16 17 18 19 20 21 22 23 24 25 26; do run prior-$k --scheduler prior --log-n $k; done
for k in 18 20; do run prior-strict-$k --scheduler prior --log-n $k --prior-strict-u3; done
run hardcaml-26-full --scheduler hardcaml --log-n 26 --full-width-windows
run hardcaml-26 --scheduler hardcaml --log-n 26
run cyclone-delayed-t115-26 --scheduler delayed --log-n 26 --depth 115
