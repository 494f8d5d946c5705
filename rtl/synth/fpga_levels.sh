#!/usr/bin/env bash
# Logic levels of a module's longest stage in the Xilinx mapping and the
# clock estimate they give: Yosys `synth_xilinx -family xcup -flatten`
# (UltraScale+), then rtl/synth/fpga_levels.py on the netlist (longest
# register-to-register path weighted per primitive, assumed delays).
#
#   bash rtl/synth/fpga_levels.sh MODULE
#   STA_PARAMS="NB=96 LEVELS=1" STA_STUBS="zk_fq_mul" bash rtl/synth/fpga_levels.sh MODULE
#   FPGA_WEIGHTS="0.45 0.05 0.10 1.60 0.25" ...   # ns: LUT+net, CARRY4, MUXF, DSP, FF
#
# STA_PARAMS and STA_STUBS as for rtl/synth/sta.sh. Writes
# rtl/build/fpga/MODULE_PARAMS/{synth.log,netlist.json,levels.txt}; the last
# line is `MODULE: <n> logic levels + <k> CARRY4, estimate <ns> ns = <MHz> MHz`.
# An estimate before placement and routing: no open tool here places,
# routes or closes timing on a Xilinx part (that is Vivado's).
set -eu
[ $# -eq 1 ] || { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
MOD=$1
HERE=$(cd "$(dirname "$0")" && pwd)
RTL=$(cd "$HERE/.." && pwd)
PARAMS=${STA_PARAMS:-}
STUBS=${STA_STUBS:-}
grep -lq "^module $MOD\b" "$RTL"/src/*.sv 2>/dev/null ||
  { echo "fpga_levels.sh: no module '$MOD' in $RTL/src" >&2; exit 1; }
for m in $STUBS; do
  [ -r "$HERE/sta_stub_$m.sv" ] && [ -r "$RTL/src/$m.sv" ] ||
    { echo "fpga_levels.sh: no stand-in for '$m' (rtl/synth/sta_stub_$m.sv)" >&2; exit 1; }
done
# folder suffix from the configuration: file-name characters only, long
# values (a 512-bit constant) shortened to a checksum
SFX=$(for w in $PARAMS $STUBS; do
  [ ${#w} -le 24 ] || w="${w%%=*}-$(printf %s "$w" | cksum | cut -d' ' -f1)"
  printf '%s_' "$w"
done | tr -c 'A-Za-z0-9_.\n-' '-' | tr '=' '-' | sed 's/_*$//')
OUT=$RTL/build/fpga/${MOD}${SFX:+_$SFX}
mkdir -p "$OUT"
SRCS=""
for f in "$RTL"/src/*.sv; do
  m=$(basename "$f" .sv)
  [ "$m" = zk_tb_top ] && continue
  case " $STUBS " in *" $m "*) f=$HERE/sta_stub_$m.sv ;; esac
  [ -r "$f" ] || { echo "fpga_levels.sh: no stub $f" >&2; exit 1; }
  SRCS="$SRCS $f"
done
CHP=""
for kv in $PARAMS; do CHP="$CHP -set ${kv%%=*} ${kv#*=}"; done
[ -n "$CHP" ] && CHP="chparam$CHP $MOD"
cat >"$OUT/synth.ys" <<YS
read_verilog -sv -I$RTL/src $SRCS
$CHP
hierarchy -check -top $MOD
rename -top $MOD
setattr -mod -unset keep_hierarchy
synth_xilinx -family xcup -top $MOD -flatten
tee -o $OUT/stat.txt stat
write_json $OUT/netlist.json
YS
echo "== $MOD ${PARAMS:-(default parameters)}${STUBS:+, stubs: $STUBS}: synth_xilinx ($(date -u +%H:%M:%S))" >&2
/usr/bin/time -f "synthesis: %e s wall, %M KB max RSS" \
  yosys -q -l "$OUT/synth.log" "$OUT/synth.ys" >/dev/null
# shellcheck disable=SC2086
python3 "$HERE/fpga_levels.py" "$OUT/netlist.json" "$MOD" ${FPGA_WEIGHTS:-} | tee "$OUT/levels.txt"
