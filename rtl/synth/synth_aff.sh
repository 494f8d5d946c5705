#!/usr/bin/env bash
# Resources of the batched-affine adder: Yosys `synth_xilinx -family xcup`
# (UltraScale+, DSP48E2) on zk_dp_aff with its inverters, BLS12-381 by
# default (CURVE=377: BLS12-377). The hierarchy is kept, so the multiplier
# and the inverter are synthesized once each; `stat -top` counts them once
# per instance. Logic depth (`ltp`, cells between flip-flops) of one
# inverter step: what limits its clock.
#
#   bash rtl/synth/synth_aff.sh              # writes rtl/build/synth_aff381/*, prints a summary
#   CURVE=377 bash rtl/synth/synth_aff.sh
#   REPORT_ONLY=1 bash rtl/synth/synth_aff.sh  # only pass 2, on the saved synth.il
#
# Several minutes of CPU; not part of rtl/test.sh.
set -eu
cd "$(dirname "$0")/.."
RTL=$PWD
CURVE=${CURVE:-381}
OUT=$RTL/build/synth_aff$CURVE
mkdir -p "$OUT"
SRCS=$(ls "$RTL"/src/*.sv | grep -v -e zk_tb_top -e zk_dp_aff_tb | tr '\n' ' ')
if [ "$CURVE" = 381 ]; then QP='`ZK_Q_BLS12_381'; QB='`ZK_QBITS_BLS12_381'; else QP='`ZK_Q'; QB='`ZK_QBITS'; fi
# the top: zk_dp_aff on the chosen field (a define, not chparam: a 512-bit constant)
cat >"$OUT/zk_dp_aff_top.sv" <<SV
\`include "zk_params.svh"
module zk_dp_aff_top (
    input  logic         clk, rst, in_valid, in_sub,
    input  logic [15:0]  in_tag,
    input  logic [768:0] bucket,
    input  logic [767:0] point,
    output logic         out_valid,
    output logic [15:0]  out_tag,
    output logic [768:0] out_value
);
  zk_dp_aff #(.Q($QP), .QBITS($QB), .TAGW(16)) u_aff (.*);
endmodule
SV

if [ "${REPORT_ONLY:-0}" != 1 ]; then
  echo "== pass 1: synth_xilinx -family xcup, zk_dp_aff on BLS12-$CURVE ($(date -u +%H:%M:%S))"
  cat >"$OUT/synth.ys" <<YS
read_verilog -sv -I$RTL/src $SRCS $OUT/zk_dp_aff_top.sv
hierarchy -check -top zk_dp_aff_top
synth_xilinx -family xcup -top zk_dp_aff_top
write_rtlil $OUT/synth.il
YS
  /usr/bin/time -f "pass 1: %e s wall, %U s user, %M KB max RSS" \
    yosys -q -l "$OUT/synth.log" "$OUT/synth.ys" >/dev/null
fi

FFS="t:FDRE t:FDSE t:FDCE t:FDPE t:SRL16E t:SRLC32E"
INV=$(grep -o '^module .*zk_dp_aff_inv' "$OUT/synth.il" | head -1 | sed 's/^module //')
MUL=$(grep -o '^module .*zk_fq_mul' "$OUT/synth.il" | head -1 | sed 's/^module //')
cat >"$OUT/report.ys" <<YS
read_rtlil $OUT/synth.il
tee -o $OUT/zk_dp_aff.stat.txt stat -top zk_dp_aff_top
tee -o $OUT/zk_dp_aff_inv.stat.txt stat -top $INV
tee -o $OUT/zk_fq_mul.stat.txt stat -top $MUL
hierarchy -top $INV
flatten
delete $FFS
tee -o $OUT/zk_dp_aff_inv.ltp.txt ltp
YS
/usr/bin/time -f "pass 2: %e s wall, %U s user" yosys -q -l "$OUT/report.log" "$OUT/report.ys" >/dev/null
for t in zk_dp_aff zk_dp_aff_inv zk_fq_mul; do
  echo "== $t (design hierarchy totals)"
  awk '/design hierarchy/{p=1} p' "$OUT/$t.stat.txt" |
    grep -E "Number of cells|DSP48E2|LUT[1-6]|CARRY8|FD[CPRS]E|RAMB|URAM|RAM[0-9]|SRL|MUXF" || true
done
echo "== logic depth of one inverter step"
grep -H "^Longest" "$OUT/zk_dp_aff_inv.ltp.txt" || true
