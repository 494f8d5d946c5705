#!/usr/bin/env bash
# Resource and depth report: Yosys `synth_xilinx -family xcup` (UltraScale+,
# DSP48E2) on zk_te_madd with default parameters. The hierarchy is kept, so
# the multiplier (keep_hierarchy) is synthesized once; `stat -top` counts it
# once for zk_fq_mul and seven times for zk_te_madd. Logic depth: `ltp -noff`
# (longest path in cells between flip-flops, CARRY8/LUT/DSP each count 1) on
# the flattened multiplier and on the adder's own logic.
#
#   bash rtl/synth/synth.sh                 # writes rtl/build/synth/*, prints a summary
#   REPORT_ONLY=1 bash rtl/synth/synth.sh   # only pass 2, on the saved synth.il
#   TOP=zk_fq_mul PARAMS="RW=384" bash rtl/synth/synth.sh   # one module alone
#   TOP=zk_kmul PARAMS="W=96 LEVELS=1" bash rtl/synth/synth.sh  # (minutes)
#   TOP=zk_fq_mul WIDELUT=0 bash rtl/synth/synth.sh  # synth_xilinx -nowidelut
#
# Takes tens of minutes on a loaded 2-core machine; not part of rtl/test.sh.
set -eu
cd "$(dirname "$0")/.."
RTL=$PWD
# TOP: the module synthesized (zk_te_madd; any other: stat and ltp of it alone)
# PARAMS="FANIN=2 WIN=5": parameter overrides of TOP (out dir suffixed)
TOP=${TOP:-zk_te_madd}
PARAMS=${PARAMS:-}
SFX=$(echo "$PARAMS" | tr ' =' '_-' | sed 's/^./_&/')
XOPT=""
if [ "${WIDELUT:-1}" = 0 ]; then  # no LUT7-9 over MUXF7-9 (docs/RTL.md, "Counting LUTs for the U250")
  SFX=${SFX}_nowide
  XOPT="-nowidelut"
fi
if [ "$TOP" = zk_te_madd ]; then OUT=$RTL/build/synth$SFX; else OUT=$RTL/build/synth_$TOP$SFX; fi
CHP=""
for kv in $PARAMS; do CHP="$CHP
chparam -set ${kv%%=*} ${kv#*=} $TOP"; done
mkdir -p "$OUT"
SRCS=$(ls "$RTL"/src/*.sv | grep -v zk_tb_top | tr '\n' ' ')

if [ "${REPORT_ONLY:-0}" != 1 ]; then
echo "== pass 1: synth_xilinx -family xcup -top $TOP $PARAMS ($(date -u +%H:%M:%S))"
cat >"$OUT/synth.ys" <<YS
read_verilog -sv -I$RTL/src $SRCS$CHP
hierarchy -check -top $TOP
synth_xilinx -family xcup -top $TOP $XOPT
write_rtlil $OUT/synth.il
YS
/usr/bin/time -f "pass 1: %e s wall, %U s user, %M KB max RSS" \
  yosys -q -l "$OUT/synth.log" "$OUT/synth.ys" >/dev/null
fi

FFS="t:FDRE t:FDSE t:FDCE t:FDPE t:SRL16E t:SRLC32E"
if [ "$TOP" != zk_te_madd ]; then
  T=$(grep -o "^module .*$TOP[^ ]*" "$OUT/synth.il" | tail -1 | sed 's/^module //')
  cat >"$OUT/report.ys" <<YS
read_rtlil $OUT/synth.il
tee -o $OUT/$TOP.stat.txt stat -top $T
hierarchy -top $T
flatten
delete $FFS
tee -o $OUT/$TOP.ltp.txt ltp
YS
  /usr/bin/time -f "pass 2: %e s wall, %U s user" yosys -q -l "$OUT/report.log" "$OUT/report.ys" >/dev/null
  echo "== $TOP ($T, design hierarchy totals)"
  awk '/design hierarchy/{p=1} p' "$OUT/$TOP.stat.txt" |
    grep -E "Number of cells|DSP48E2|LUT[1-6]|CARRY[48]|FD[CPRS]E|RAMB|SRL|MUXF" || true
  grep -H "^Longest" "$OUT/$TOP.ltp.txt" || true
  exit 0
fi
MUL=$(grep -o '^module .*zk_fq_mul' "$OUT/synth.il" | head -1 | sed 's/^module //')
echo "== pass 2: stat and ltp (multiplier module: $MUL) ($(date -u +%H:%M:%S))"
cat >"$OUT/report.ys" <<YS
read_rtlil $OUT/synth.il
tee -o $OUT/zk_te_madd.stat.txt stat -top zk_te_madd
tee -o $OUT/zk_fq_mul.stat.txt stat -top $MUL
# depth = longest path in cells between registers: delete the registers
# (ltp -noff does not know the Xilinx FF primitives) and measure what is left
hierarchy -top zk_te_madd
flatten
delete zk_te_madd/t:*zk_fq_mul $FFS
tee -o $OUT/zk_te_madd.ltp.txt ltp zk_te_madd
design -reset
read_rtlil $OUT/synth.il
hierarchy -top $MUL
flatten
delete $FFS
tee -o $OUT/zk_fq_mul.ltp.txt ltp
YS
/usr/bin/time -f "pass 2: %e s wall, %U s user" yosys -q -l "$OUT/report.log" "$OUT/report.ys" >/dev/null

for t in zk_fq_mul zk_te_madd; do
  echo "== $t (design hierarchy totals)"
  awk '/design hierarchy/{p=1} p' "$OUT/$t.stat.txt" |
    grep -E "Number of cells|DSP48E2|LUT[1-6]|CARRY8|FD[CPRS]E|RAMB|SRL|MUXF" || true
done
echo "== logic depth"
grep -H "^Longest" "$OUT"/zk_fq_mul.ltp.txt "$OUT"/zk_te_madd.ltp.txt || true
