#!/usr/bin/env bash
# Resources of the batched-affine adder: Yosys `synth_xilinx -family xcup`
# (UltraScale+, DSP48E2) on zk_dp_aff with its inverters, BLS12-381 by
# default (CURVE=377: BLS12-377; CURVE=bn254: BN254 at NB = RW = 256). The hierarchy is kept, so the multiplier
# and the inverter are synthesized once each; `stat -top` counts them once
# per instance. Logic depth (`ltp`, cells between flip-flops) of one
# inverter step: one of the stages that limit its clock.
#
#   bash rtl/synth/synth_aff.sh              # writes rtl/build/synth_aff381/*, prints a summary
#   CURVE=377 bash rtl/synth/synth_aff.sh
#   CURVE=bn254 bash rtl/synth/synth_aff.sh   # rtl/build/synth_affbn254/*
#   REPORT_ONLY=1 bash rtl/synth/synth_aff.sh  # only pass 2, on the saved synth.il
#   MUL=bb bash rtl/synth/synth_aff.sh       # the multipliers as black boxes (no DSP, minutes
#                                            # less): everything else, to add to 7 x zk_fq_mul
#   SHARE=3 MUL=bb bash rtl/synth/synth_aff.sh   # with ZK_AFF_SHARE = 3 (rtl/build/synth_aff381_mulbb_s3/*)
#   WIDELUT=0 SHARE=4 MUL=bb bash rtl/synth/synth_aff.sh   # synth_xilinx -nowidelut
#                                            # (docs/RTL.md, "Counting LUTs for the U250")
#
# `-uram`: the operation data is UltraRAM (ZK_AFF_OP_URAM, zk_params.svh).
#
# Several minutes of CPU; not part of rtl/test.sh.
set -eu
cd "$(dirname "$0")/.."
RTL=$PWD
CURVE=${CURVE:-381}
MUL=${MUL:-}
SHARE=${SHARE:-1}
OUT=$RTL/build/synth_aff$CURVE${MUL:+_mul$MUL}
DEFS=""
XOPT=""
if [ "${WIDELUT:-1}" = 0 ]; then
  OUT=${OUT}_nowide
  XOPT="-nowidelut"
fi
if [ "$SHARE" != 1 ]; then
  OUT=${OUT}_s$SHARE
  DEFS="-DZK_AFF_SHARE=$SHARE"
fi
mkdir -p "$OUT"
SRCS=$(ls "$RTL"/src/*.sv | grep -v -e zk_tb_top -e zk_dp_aff_tb | tr '\n' ' ')
if [ "$MUL" = bb ]; then
  SRCS="$(echo "$SRCS" | tr ' ' '\n' | grep -v '/zk_fq_mul.sv$' | tr '\n' ' ') $OUT/zk_fq_mul_bb.sv"
  cat >"$OUT/zk_fq_mul_bb.sv" <<SV
(* blackbox *)
module zk_fq_mul #(
    parameter integer NB = 384, parameter integer QBITS = 377, parameter logic [511:0] Q = 0,
    parameter integer LEVELS = 3, parameter integer TA = 26, parameter integer TB = 17,
    parameter integer RW = 384, parameter integer WIN = 4, parameter integer FANIN = 4,
    parameter integer SPLIT = 1, parameter integer KARA = 1, parameter integer QCONST = 1
) (
    input logic clk, input logic rst, input logic in_valid,
    input logic [NB-1:0] a, input logic [NB-1:0] b,
    output logic out_valid, output logic [NB-1:0] c
);
endmodule
SV
fi
case $CURVE in
  381) QP='`ZK_Q_BLS12_381'; QB='`ZK_QBITS_BLS12_381'; NBV=384; RWV='`ZK_RW'; NAME=BLS12-381 ;;
  377) QP='`ZK_Q'; QB='`ZK_QBITS'; NBV=384; RWV='`ZK_RW'; NAME=BLS12-377 ;;
  bn254) QP='`ZK_Q_BN254'; QB='`ZK_QBITS_BN254'; NBV=256; RWV=256; NAME=BN254 ;;
  *) echo "CURVE: 381, 377 or bn254" >&2; exit 2 ;;
esac
# the top: zk_dp_aff on the chosen field (a define, not chparam: a 512-bit constant)
cat >"$OUT/zk_dp_aff_top.sv" <<SV
\`include "zk_params.svh"
module zk_dp_aff_top (
    input  logic         clk, rst, in_valid, in_sub,
    input  logic [15:0]  in_tag,
    input  logic [$((2 * NBV)):0] bucket,
    input  logic [$((2 * NBV - 1)):0] point,
    output logic         out_valid,
    output logic [15:0]  out_tag,
    output logic [$((2 * NBV)):0] out_value
);
  zk_dp_aff #(.NB($NBV), .RW($RWV), .Q($QP), .QBITS($QB), .TAGW(16)) u_aff (.*);
endmodule
SV

if [ "${REPORT_ONLY:-0}" != 1 ]; then
  echo "== pass 1: synth_xilinx -family xcup, zk_dp_aff on $NAME ($(date -u +%H:%M:%S))"
  cat >"$OUT/synth.ys" <<YS
read_verilog -sv $DEFS -I$RTL/src $SRCS $OUT/zk_dp_aff_top.sv
hierarchy -check -top zk_dp_aff_top
synth_xilinx -family xcup -uram -top zk_dp_aff_top $XOPT
write_rtlil $OUT/synth.il
YS
  /usr/bin/time -f "pass 1: %e s wall, %U s user, %M KB max RSS" \
    yosys -q -l "$OUT/synth.log" "$OUT/synth.ys" >/dev/null
fi

FFS="t:FDRE t:FDSE t:FDCE t:FDPE t:SRL16E t:SRLC32E"
INV=$(grep -o '^module .*zk_dp_aff_inv' "$OUT/synth.il" | head -1 | sed 's/^module //')
MULM=$(grep -o '^module .*zk_fq_mul' "$OUT/synth.il" | head -1 | sed 's/^module //')
cat >"$OUT/report.ys" <<YS
read_rtlil $OUT/synth.il
tee -o $OUT/zk_dp_aff.stat.txt stat -top zk_dp_aff_top
tee -o $OUT/zk_dp_aff_inv.stat.txt stat -top $INV
${MUL:+#}tee -o $OUT/zk_fq_mul.stat.txt stat -top $MULM
hierarchy -top $INV
flatten
delete $FFS
tee -o $OUT/zk_dp_aff_inv.ltp.txt ltp
YS
/usr/bin/time -f "pass 2: %e s wall, %U s user" yosys -q -l "$OUT/report.log" "$OUT/report.ys" >/dev/null
for t in zk_dp_aff zk_dp_aff_inv zk_fq_mul; do
  [ -f "$OUT/$t.stat.txt" ] || continue
  echo "== $t (design hierarchy totals)"
  awk '/design hierarchy/{p=1} p' "$OUT/$t.stat.txt" |
    grep -E "Number of cells|DSP48E2|LUT[1-6]|CARRY8|FD[CPRS]E|RAMB|URAM|RAM[0-9]|SRL|MUXF" || true
done
echo "== logic depth of one inverter step"
grep -H "^Longest" "$OUT/zk_dp_aff_inv.ltp.txt" || true
