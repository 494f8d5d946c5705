#!/usr/bin/env bash
# zkmsm RTL tests: builds the reference-vector exporter (Rust), lints the RTL,
# runs the Verilator test benches on the RTL and on the Yosys-elaborated
# netlist (prep -flatten; write_verilog) of the same sources, and checks every
# output against the Rust library. Prints "N passed, 0 failed" at the end and
# exits non-zero on any failure.
#
# Knobs (environment): MUL_OPS (100000), PADD_OPS (20000), ADDSUB_OPS (20000),
# JOBS (2), SEED (1), CARGO_TARGET_DIR (honoured).
set -u
cd "$(dirname "$0")"
RTL=$PWD
ROOT=$(cd .. && pwd)
B=$RTL/build
mkdir -p "$B/vec"
MUL_OPS=${MUL_OPS:-100000}
PADD_OPS=${PADD_OPS:-20000}
ADDSUB_OPS=${ADDSUB_OPS:-20000}
JOBS=${JOBS:-2}
SEED=${SEED:-1}
PASS=0
FAIL=0
T0=$(date +%s)
SRCS=$(ls src/*.sv)

ok() { PASS=$((PASS + 1)); echo "PASS: $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }
step() { echo "== $* ($(($(date +%s) - T0)) s)"; }
summary() {
  echo "total time $(($(date +%s) - T0)) s"
  echo "$PASS passed, $FAIL failed"
  [ "$FAIL" -eq 0 ] && [ "$PASS" -gt 0 ]
  exit $?
}

step "versions"
verilator --version || { bad "verilator missing"; summary; }
yosys -V || { bad "yosys missing"; summary; }

step "cargo build --release -p zkmsm-rtl"
if ! (cd "$ROOT" && cargo build --release -p zkmsm-rtl -q); then
  bad "cargo build"
  summary
fi
VECTORS=${CARGO_TARGET_DIR:-$ROOT/target}/release/zkmsm-vectors

step "reference vectors"
"$VECTORS" mul "$MUL_OPS" "$SEED" "$B/vec/mul.txt" &&
  "$VECTORS" addsub "$ADDSUB_OPS" "$((SEED + 1))" "$B/vec/addsub.txt" &&
  "$VECTORS" padd "$PADD_OPS" "$((SEED + 2))" "$B/vec/padd.txt" || {
  bad "vector export"
  summary
}

step "verilator lint"
if verilator --lint-only -Wall -Isrc $SRCS --top-module zk_tb_top; then
  ok "verilator --lint-only -Wall"
else
  bad "verilator --lint-only -Wall"
fi

# yosys netlists: NAME PARAM
netlist() {
  local name=$1 chparam=$2
  cat >"$B/$name.ys" <<YS
read_verilog -sv -I$RTL/src $(echo $SRCS | sed "s#src/#$RTL/src/#g")
chparam $chparam zk_tb_top
hierarchy -check -top zk_tb_top
prep -flatten
write_verilog -noattr $B/$name.v
YS
  yosys -q -l "$B/$name.yosys.log" "$B/$name.ys" >/dev/null
}

# verilator model: NAME TOPFILES EXTRA_ARGS
model() {
  local name=$1 files=$2 extra=$3
  rm -rf "$B/obj_$name"
  verilator --cc --exe --build -j "$JOBS" -O3 --x-assign fast --x-initial fast \
    -Wno-fatal -Wno-lint -Wno-style -Isrc --top-module zk_tb_top \
    --Mdir "$B/obj_$name" -o Vtb $extra $files "$RTL/tb/tb_main.cpp" \
    -CFLAGS "-O1 -std=c++17" -MAKEFLAGS "OPT_FAST=-O1" >"$B/$name.build.log" 2>&1
}

run() {
  local model=$1 mode=$2 vec=$3
  if "$B/obj_$model/Vtb" "$mode" "$vec"; then ok "$model $mode"; else bad "$model $mode"; fi
}

step "yosys prep -flatten (netlists, in the background)"
(netlist net_fq "-set WITH_PA 0" && netlist net_pa "-set WITH_FQ 0") &
YPID=$!

step "verilator: RTL models"
model rtl_fq "$SRCS" "-GWITH_PA=0" || bad "build rtl_fq (see $B/rtl_fq.build.log)"
[ -x "$B/obj_rtl_fq/Vtb" ] && run rtl_fq mul "$B/vec/mul.txt" && run rtl_fq addsub "$B/vec/addsub.txt"
model rtl_pa "$SRCS" "-GWITH_FQ=0" || bad "build rtl_pa (see $B/rtl_pa.build.log)"
[ -x "$B/obj_rtl_pa/Vtb" ] && run rtl_pa padd "$B/vec/padd.txt"

step "waiting for yosys"
if wait $YPID; then
  step "verilator: Yosys netlist models"
  model net_fq "$B/net_fq.v" "" || bad "build net_fq (see $B/net_fq.build.log)"
  [ -x "$B/obj_net_fq/Vtb" ] && run net_fq mul "$B/vec/mul.txt" && run net_fq addsub "$B/vec/addsub.txt"
  model net_pa "$B/net_pa.v" "" || bad "build net_pa (see $B/net_pa.build.log)"
  [ -x "$B/obj_net_pa/Vtb" ] && run net_pa padd "$B/vec/padd.txt"
else
  bad "yosys netlists (see $B/net_*.yosys.log)"
fi

summary
