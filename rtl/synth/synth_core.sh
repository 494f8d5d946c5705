#!/usr/bin/env bash
# Whole-core resources: Yosys `synth_xilinx -family xcup -uram` (UltraScale+)
# of zk_msm_top (the core as the `rtl` backend simulates it: CSRs, point
# reader, scheduler, pending queue, hazard detector, four bucket banks of
# 2^(CMAX-1) x (4*384+1) bits, read-out) with the twisted Edwards adder
# `zk_te_madd` left as a black box: its figures come from rtl/synth/synth.sh
# (docs/RTL.md, "Resources and depth"), and docs/RTL.md adds the two.
# Everything else is synthesized at full width. ZK_XILINX_LUTRAM builds the
# lock table of RAM256X1D primitives (rtl/src/zk_bitram.sv). Logic depth: `ltp` on the
# flattened netlist with the flip-flops, RAM and DSP primitives deleted
# (longest chain of LUT/MUXF/CARRY cells between registers or memories).
#
#   CMAX=12 bash rtl/synth/synth_core.sh    # writes rtl/build/synth_core_c12/*
#   NCORES=4 FD=4 CMAX=15 bash rtl/synth/synth_core.sh   # K cores behind
#       zk_fanout, every adder a black box (rtl/build/synth_core_c15_k4/*)
#   CORE=aff CMAX=16 bash rtl/synth/synth_core.sh   # the batched-affine core
#       on BLS12-381 (ZK_CORE_AFF: lock table, block-RAM pending queue of
#       1,024, requeue), zk_dp_aff a black box (its figures:
#       rtl/synth/synth_aff.sh) (rtl/build/synth_core_aff_c16/*)
#   CORE=aff CMAX=16 PD=8192 SHARE=4 bash rtl/synth/synth_core.sh
#       the same with a pending queue of PD entries, its latency counters
#       sized for the adder with ZK_AFF_SHARE = 4
#       (rtl/build/synth_core_aff_c16_pd8192_s4/*)
#   WIDELUT=0 ...   synth_xilinx -nowidelut: no LUT7-9 built of LUT6 halves and
#       MUXF7-9 (the figures docs/RTL.md uses for the batched-affine core;
#       "Counting LUTs for the U250" says why) (rtl/build/..._nowide*/*)
#
# Not part of rtl/test.sh (minutes of CPU per size).
set -eu
cd "$(dirname "$0")/.."
RTL=$PWD
CMAX=${CMAX:-12}
NCORES=${NCORES:-1}
FD=${FD:-4}
CORE=${CORE:-te}
case "$CORE" in
  # (the device aggregation's conversion, zk_te_agg_in, stays in, its two
  # multipliers black boxes as well: counted from zk_fq_mul's own row)
  te) ADDER=zk_te_madd DEFS="" OUT=$RTL/build/synth_core_c$CMAX BB="zk_fq_mul" ;;
  aff) ADDER=zk_dp_aff DEFS="-DZK_CORE_AFF -DZK_CORE_BLS12_381" OUT=$RTL/build/synth_core_aff_c$CMAX ;;
  *) echo "synth_core.sh: CORE is te or aff" >&2; exit 2 ;;
esac
CHP="chparam -set CMAX $CMAX zk_msm_top"
if [ "$NCORES" != 1 ]; then
  OUT=${OUT}_k$NCORES
  CHP="chparam -set CMAX $CMAX -set NCORES $NCORES -set FD $FD zk_msm_top"
fi
# AGG=0: a build without device aggregation (zk_msm_top's AGG)
if [ -n "${AGG:-}" ]; then
  OUT=${OUT}_agg$AGG
  CHP="$CHP
chparam -set AGG $AGG zk_msm_top"
fi
if [ -n "${PD:-}" ]; then
  OUT=${OUT}_pd$PD
  CHP="$CHP
chparam -set PD $PD zk_msm_top"
fi
XOPT=""
if [ "${WIDELUT:-1}" = 0 ]; then
  OUT=${OUT}_nowide
  XOPT="-nowidelut"
fi
if [ "${SHARE:-1}" != 1 ]; then
  OUT=${OUT}_s$SHARE
  DEFS="$DEFS -DZK_AFF_SHARE=$SHARE"
fi
mkdir -p "$OUT"
SRCS=$(ls "$RTL"/src/*.sv | grep -v zk_tb_top | tr '\n' ' ')

echo "== synth_xilinx -family xcup -uram -top zk_msm_top ($CORE), CMAX = $CMAX, NCORES = $NCORES, $ADDER a black box ($(date -u +%H:%M:%S))"
cat >"$OUT/synth.ys" <<YS
read_verilog -sv -DZK_XILINX_LUTRAM $DEFS -I$RTL/src $SRCS
blackbox $ADDER ${BB:-}
# the Xilinx primitives the RTL instantiates (zk_bitram's RAM256X1D)
read_verilog -lib -specify +/xilinx/cells_sim.v
$CHP
hierarchy -check -top zk_msm_top
# hierarchy names the parameterised top \$paramod...: give it its name back
rename -top zk_msm_top
synth_xilinx -family xcup -uram -top zk_msm_top -flatten $XOPT
tee -o $OUT/stat.txt stat
write_rtlil $OUT/synth.il
delete t:FDRE t:FDSE t:FDCE t:FDPE t:SRL16E t:SRLC32E t:URAM288 t:RAMB36E2 t:RAMB18E2 t:RAM*M t:RAM*M8 t:RAM*M16 t:RAM256X1D t:DSP48E2 t:$ADDER ${BB:+t:$BB}
tee -o $OUT/ltp.txt ltp -noff
YS
/usr/bin/time -f "synthesis: %e s wall, %U s user, %M KB max RSS" \
  yosys -q -l "$OUT/synth.log" "$OUT/synth.ys" >/dev/null

echo "== zk_msm_top ($CORE), CMAX = $CMAX, NCORES = $NCORES ($ADDER excluded)"
grep -E "Number of cells|DSP48E2|LUT[1-6]|CARRY|FD[CPRS]E|RAMB|URAM|RAM[0-9]|SRL|MUXF|$ADDER${BB:+|$BB}" "$OUT/stat.txt" || true
grep -H "^Longest" "$OUT/ltp.txt" || true
