#!/usr/bin/env bash
# Static timing of one RTL module on a standard-cell library: Yosys maps it
# (synth -flatten -noabc: Yosys's Brent-Kung adders reach abc unchanged;
# dfflibmap; abc: delay mapping, buffering and sizing), OpenSTA
# (`sta`, Debian package opensta) times the netlist. Pre-layout: ideal clock,
# no wires, no placement.
#
#   bash rtl/synth/sta.sh MODULE [LIBRARY]
#
# LIBRARY: a Liberty file (.lib or .lib.gz), several joined by ':', or a
# folder of them (ASAP7 comes as five files: pass the folder). Default:
# $STA_PDK/sky130hd/sky130_fd_sc_hd__tt_025C_1v80.lib.gz, STA_PDK defaulting
# to ../shared/pdk beside the repository root (from a git worktree: beside
# the main checkout); the libraries are not copied into the repository.
#
# Environment:
#   STA_PARAMS="NB=96 REDUCE=0"  parameter overrides of MODULE (chparam); the
#                     configuration is printed with the result
#   STA_STUBS="zk_bucket_ram"    modules replaced by rtl/synth/sta_stub_<m>.sv
#                     (memory macros: registered ports, no array)
#   STA_PERIOD=10000  clock period in ps for OpenSTA (the critical path is
#                     reported whatever the period)
#   STA_ABC_D=1       abc's delay target in ps: 1 (unreachable) makes abc map,
#                     buffer and size for the least delay; a reachable target
#                     lets it trade delay for area
#   STA_OUT=dir       work folder (default rtl/build/sta/MODULE_PARAMS_LIB)
#   STA_REUSE=1       time the netlist of an earlier run again (no synthesis)
#
# Constraints: clock `clk` ideal; inputs arrive at the clock edge driven by
# the library's smallest D flip-flop (a register in the neighbouring stage),
# outputs are required at the clock edge and load four FO4 inverters' input
# capacitance. Critical path = period - worst setup slack (clock-to-Q + logic
# + setup). FO4 = the library's smallest inverter driving four copies of
# itself, timed by the same OpenSTA on a generated chain (12 stages minus 4
# stages, divided by 8: the ends cancel).
#
# Last line: MODULE: critical path <ps> ps = <n> FO4, area <um2> um2, <regs> registers
set -eu
usage() { sed -n '2,/^# Last line/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
case "$1" in -h|--help) usage ;; esac
MOD=$1
HERE=$(cd "$(dirname "$0")" && pwd)
RTL=$(cd "$HERE/.." && pwd)
REPO=$(cd "$RTL/.." && pwd)
if [ -z "${STA_PDK:-}" ]; then
  # ../shared/pdk beside the repository; from a linked git worktree, beside
  # the main checkout (git's common folder is <main>/.git)
  STA_PDK=$REPO/../shared/pdk
  COMMON=$(git -C "$REPO" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
  [ -d "$STA_PDK" ] || [ -z "$COMMON" ] || STA_PDK=$(dirname "$COMMON")/../shared/pdk
fi
LIB=${2:-$STA_PDK/sky130hd/sky130_fd_sc_hd__tt_025C_1v80.lib.gz}
PARAMS=${STA_PARAMS:-}
STUBS=${STA_STUBS:-}
PERIOD=${STA_PERIOD:-10000}
ABC_D=${STA_ABC_D:-1}
for t in yosys sta python3; do
  command -v $t >/dev/null || { echo "sta.sh: '$t' not found (sta: apt-get install opensta)" >&2; exit 1; }
done
grep -lq "^module $MOD\b" "$RTL"/src/*.sv 2>/dev/null ||
  { echo "sta.sh: no module '$MOD' in $RTL/src" >&2; exit 1; }

# ---- the library files (unzipped into the work folder)
LIBS=()
if [ -d "$LIB" ]; then
  for f in "$LIB"/*.lib "$LIB"/*.lib.gz; do [ -e "$f" ] && LIBS+=("$f"); done
else
  IFS=: read -r -a LIBS <<<"$LIB"
fi
[ ${#LIBS[@]} -gt 0 ] || { echo "sta.sh: no .lib or .lib.gz in '$LIB'" >&2; exit 1; }
for f in "${LIBS[@]}"; do
  [ -r "$f" ] || { echo "sta.sh: library '$f' not readable (set STA_PDK or pass LIBRARY)" >&2; exit 1; }
done
LNAME=$(basename "${LIBS[0]}" | sed 's/\.gz$//; s/\.lib$//')
[ -d "$LIB" ] && LNAME=$(basename "$LIB")
for m in $STUBS; do
  [ -r "$HERE/sta_stub_$m.sv" ] && [ -r "$RTL/src/$m.sv" ] ||
    { echo "sta.sh: no stand-in for '$m' (rtl/synth/sta_stub_$m.sv)" >&2; exit 1; }
done
# folder suffix from the configuration: file-name characters only, long
# values (a 512-bit constant) shortened to a checksum
SFX=$(for w in $PARAMS $STUBS; do
  [ ${#w} -le 24 ] || w="${w%%=*}-$(printf %s "$w" | cksum | cut -d' ' -f1)"
  printf '%s_' "$w"
done | tr -c 'A-Za-z0-9_.\n-' '-' | tr '=' '-' | sed 's/_*$//')
OUT=${STA_OUT:-$RTL/build/sta/${MOD}${SFX:+_$SFX}_$LNAME}
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PLAIN=()
for f in "${LIBS[@]}"; do
  p=$TMP/$(basename "$f" .gz)
  case "$f" in
    *.gz) gzip -dc "$f" >"$p" || { echo "sta.sh: cannot unzip '$f'" >&2; exit 1; } ;;
    *) cp "$f" "$p" ;;
  esac
  PLAIN+=("$p")
done
if [ ${#PLAIN[@]} -gt 1 ]; then
  python3 "$HERE/sta_lib.py" merge "$TMP/merged.lib" "${PLAIN[@]}"
  YLIB=$TMP/merged.lib
else
  YLIB=${PLAIN[0]}
fi
eval "$(python3 "$HERE/sta_lib.py" info "${PLAIN[@]}")"
# library units: TSCALE ps per unit (sky130: ns, ASAP7: ps)
LPER=$(python3 -c "print($PERIOD / $TSCALE)")

# ---- synthesis
SRCS=""
for f in "$RTL"/src/*.sv; do
  m=$(basename "$f" .sv)
  [ "$m" = zk_tb_top ] && continue
  case " $STUBS " in *" $m "*) f=$HERE/sta_stub_$m.sv ;; esac
  [ -r "$f" ] || { echo "sta.sh: no stub $f" >&2; exit 1; }
  SRCS="$SRCS $f"
done
CHP=""
for kv in $PARAMS; do CHP="$CHP -set ${kv%%=*} ${kv#*=}"; done
[ -n "$CHP" ] && CHP="chparam$CHP $MOD"
# abc: primary inputs (module inputs and flip-flop outputs) driven by the
# smallest inverter, outputs loaded by four of them; delay mapping (map -D)
# on structural choices (dch), then buffering of high fan-out nets and gate
# sizing (`topo` first: without it abc's `buffer` stops at "node has no
# fanout" on some netlists, zk_core_agg's among them; `sweep` there
# crashes abc). Yosys's default abc script (dc2, &nf) turns the Brent-Kung adders
# into near-ripple chains: a 130-bit add-and-compare measured 18.2 ns in
# sky130 with it, 3.8 ns with this one (abc's own estimate, before buffering).
printf 'set_driving_cell %s\nset_load %s\n' "$INV" "$(python3 -c "print(4 * $INV_CAP)")" >"$OUT/abc.constr"
printf '%s\n' "read_constr -v $OUT/abc.constr" strash dch "map -D $ABC_D" topo "buffer -p" \
  "upsize -D $ABC_D" "dnsize -D $ABC_D" "stime -p" >"$OUT/abc.script"
cat >"$OUT/synth.ys" <<YS
read_verilog -sv -I$RTL/src $SRCS
$CHP
hierarchy -check -top $MOD
rename -top $MOD
setattr -mod -unset keep_hierarchy
synth -top $MOD -flatten -noabc
dfflibmap -liberty $YLIB
abc -liberty $YLIB -script $OUT/abc.script
setundef -zero
hilomap -singleton -hicell $TIEHI $TIEHI_PIN -locell $TIELO $TIELO_PIN
splitnets -ports
opt_clean -purge
insbuf -buf $BUF $BUF_IN $BUF_OUT
tee -o $OUT/area.txt stat -liberty $YLIB
write_verilog -noattr -noexpr -nohex -nodec $OUT/netlist.v
YS
echo "== $MOD ${PARAMS:-(default parameters)}${STUBS:+, stubs: $STUBS} on $LNAME: synthesis ($(date -u +%H:%M:%S))" >&2
if [ "${STA_REUSE:-0}" = 1 ] && [ -s "$OUT/netlist.v" ] && [ -s "$OUT/area.txt" ]; then
  echo "   (STA_REUSE=1: the netlist of an earlier run, $OUT/netlist.v)" >&2
else
  /usr/bin/time -f "synthesis: %e s wall, %M KB max RSS" \
    yosys -q -l "$OUT/synth.log" "$OUT/synth.ys" >/dev/null
fi
AREA=$(awk '/Chip area/{a=$NF} END{printf "%.1f", a}' "$OUT/area.txt")
REGS=$(python3 "$HERE/sta_lib.py" regs "$OUT/netlist.v" "${PLAIN[@]}")

# ---- FO4 of the library (cached beside the libraries' name)
READLIB=""
for p in "${PLAIN[@]}"; do READLIB="$READLIB
read_liberty $p"; done
FO4F=$RTL/build/sta/fo4_$LNAME.txt
if [ ! -s "$FO4F" ]; then
  for n in 4 12; do
    python3 "$HERE/sta_lib.py" fo4 "$INV" "$INV_IN" "$INV_OUT" $n >"$TMP/fo4_$n.v"
    cat >"$TMP/fo4_$n.tcl" <<TCL
$READLIB
read_verilog $TMP/fo4_$n.v
link_design fo4_chain
create_clock -name v -period $LPER
set_input_delay 0 -clock v [get_ports a]
set_input_transition 0 [get_ports a]
set_output_delay 0 -clock v [get_ports y]
report_checks -path_delay max -digits 4
exit
TCL
    sta -no_splash -exit "$TMP/fo4_$n.tcl" >"$TMP/fo4_$n.rpt" 2>&1 || true
    awk '/data arrival time/{print $1; exit}' "$TMP/fo4_$n.rpt" >"$TMP/fo4_$n.at"
  done
  python3 -c "
a, b = (float(open('$TMP/fo4_%d.at' % n).read()) for n in (4, 12))
print('%.2f' % ((b - a) / 8 * $TSCALE))" >"$FO4F"
  cp "$TMP/fo4_12.rpt" "$RTL/build/sta/fo4_${LNAME}_chain12.rpt"
fi
FO4=$(cat "$FO4F")

# ---- timing of the module
cat >"$OUT/sta.tcl" <<TCL
$READLIB
read_verilog $OUT/netlist.v
link_design $MOD
if {[llength [get_ports -quiet clk]]} {
  create_clock -name clk -period $LPER [get_ports clk]
} else {
  create_clock -name clk -period $LPER
}
set ins {}
foreach p [all_inputs] { if {[get_full_name \$p] ne "clk"} { lappend ins \$p } }
set_input_delay 0 -clock clk \$ins
set_driving_cell -lib_cell $DFF -pin $DFF_Q \$ins
set_output_delay 0 -clock clk [all_outputs]
set_load [expr 4 * $INV_CAP] [all_outputs]
report_checks -path_delay max -fields {fanout cap slew nets} -digits 4
exit
TCL
echo "== static timing ($(date -u +%H:%M:%S))" >&2
sta -no_splash -exit "$OUT/sta.tcl" >"$OUT/sta.rpt" 2>&1 || true
SLACK=$(awk '/slack \(/{print $1; exit}' "$OUT/sta.rpt")
[ -n "$SLACK" ] || { echo "sta.sh: no timed path in $OUT/sta.rpt:" >&2; tail -20 "$OUT/sta.rpt" >&2; exit 1; }
CRIT=$(python3 -c "print('%.1f' % ($PERIOD - $SLACK * $TSCALE))")
N=$(python3 -c "print('%.1f' % ($CRIT / $FO4))")
echo "   configuration: ${PARAMS:-default parameters}${STUBS:+; stubbed: $STUBS}; library ${LIBS[*]}"
echo "   FO4 of $LNAME: $FO4 ps ($INV driving four); report: $OUT/sta.rpt"
grep -E "^Startpoint|^Endpoint" "$OUT/sta.rpt" | sed 's/^/   /'
# the register names: the first and last named nets of the path
awk '/\(net\)/{n[++k]=$(NF-1)} END{if (k) print "   from net " n[1] " ... to net " n[k]}' "$OUT/sta.rpt"
echo "$MOD: critical path $CRIT ps = $N FO4, area $AREA um2, $REGS registers"
