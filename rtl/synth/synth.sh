#!/usr/bin/env bash
# Resource and depth report: Yosys synth_xilinx -family xcup (UltraScale+,
# DSP48E2) on zk_fq_mul and on zk_te_madd (default parameters). The
# hierarchy is kept, so the seven identical multipliers of the adder are
# synthesized once and counted seven times by `stat -top`.
# Writes rtl/build/synth/{*.log,*.stat.txt,*.ltp.txt} and prints a summary;
# scripts/table: see docs/RTL.md.
#   bash rtl/synth/synth.sh            # both
#   bash rtl/synth/synth.sh mul        # multiplier only
set -eu
cd "$(dirname "$0")/.."
RTL=$PWD
OUT=$RTL/build/synth
mkdir -p "$OUT"
SRCS=$(ls "$RTL"/src/*.sv | grep -v zk_tb_top)
WHAT=${1:-all}

synth() {
  local top=$1
  cat >"$OUT/$top.ys" <<YS
read_verilog -sv -I$RTL/src $SRCS
hierarchy -check -top $top
synth_xilinx -family xcup -top $top
tee -o $OUT/$top.stat.txt stat -top $top
flatten
opt_clean -purge
tee -o $OUT/$top.ltp.txt ltp -noff
YS
  echo "== yosys synth_xilinx -family xcup -top $top"
  /usr/bin/time -f "%e s wall, %M KB max RSS" yosys -q -l "$OUT/$top.log" "$OUT/$top.ys" >/dev/null
}

if [ "$WHAT" = all ] || [ "$WHAT" = mul ]; then synth zk_fq_mul; fi
if [ "$WHAT" = all ] || [ "$WHAT" = padd ]; then synth zk_te_madd; fi

for f in "$OUT"/*.stat.txt; do
  echo "== $f"
  # the design-hierarchy total is the last block of `stat -top`
  awk '/design hierarchy/{p=1} p' "$f" | grep -E "Number of cells|DSP48E2|LUT[1-6]|CARRY8|FD[CPRS]E|RAMB|SRL" || true
done
for f in "$OUT"/*.ltp.txt; do
  echo "== $f"
  grep -i "longest" "$f" || true
done
