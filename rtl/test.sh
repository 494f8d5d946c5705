#!/usr/bin/env bash
# zkmsm RTL tests: builds the reference-vector exporter (Rust), lints the RTL,
# runs the Verilator test benches on the RTL and on the Yosys-elaborated
# netlist (prep -flatten; write_verilog) of the same sources, and checks every
# output against the Rust library. Prints "N passed, 0 failed" at the end and
# exits non-zero on any failure.
#
# The MSM core (zk_msm_top) runs on its integer stand-in datapath in two
# configurations (rtl/tb/zk_core_tb.cpp: random MSMs checked exactly); then
# Verilated as synthesized behind the `rtl` backend: crates/rtl's tests
# (stand-in vs the cycle model, BLS12-377 MSMs end to end vs the CPU engine).
#
# Knobs (environment): MUL_OPS (100000), PADD_OPS (20000), ADDSUB_OPS (20000),
# CORE_CASES (3000), JOBS (2), SEED (1), VARIANTS ("default rw384"),
# CARGO_TARGET_DIR (honoured).
set -u
cd "$(dirname "$0")"
RTL=$PWD
ROOT=$(cd .. && pwd)
B=$RTL/build
mkdir -p "$B/vec"
MUL_OPS=${MUL_OPS:-100000}
PADD_OPS=${PADD_OPS:-20000}
ADDSUB_OPS=${ADDSUB_OPS:-20000}
CORE_CASES=${CORE_CASES:-3000}
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
TDIR=${CARGO_TARGET_DIR:-$ROOT/target}
case "$TDIR" in /*) ;; *) TDIR=$ROOT/$TDIR ;; esac  # cargo resolves it from the root
VECTORS=$TDIR/release/zkmsm-vectors

step "reference vectors"
"$VECTORS" mul "$MUL_OPS" "$SEED" "$B/vec/mul.txt" &&
  "$VECTORS" addsub "$ADDSUB_OPS" "$((SEED + 1))" "$B/vec/addsub.txt" &&
  "$VECTORS" padd "$PADD_OPS" "$((SEED + 2))" "$B/vec/padd.txt" || {
  bad "vector export"
  summary
}

step "verilator lint"
for top in zk_tb_top zk_msm_top; do
  if verilator --lint-only -Wall -Isrc $SRCS --top-module $top; then
    ok "verilator --lint-only -Wall ($top)"
  else
    bad "verilator --lint-only -Wall ($top)"
  fi
done
if verilator --lint-only -Wall -Isrc -DZK_TB_RW=384 $SRCS --top-module zk_tb_top; then
  ok "verilator --lint-only -Wall (zk_tb_top, RW = 384)"
else
  bad "verilator --lint-only -Wall (zk_tb_top, RW = 384)"
fi

# Yosys elaboration of the same sources: everything flattened except the
# multiplier (keep_hierarchy in its source: one module, instantiated eight
# times). For Verilator the kept module gets a plain name and is marked as a
# hierarchical block, so it is compiled once, as in the RTL build.
# netlist NAME DEFINES: writes $B/NAME.v
netlist() {
  local name=$1 defs=$2
  cat >"$B/$name.ys" <<YS
read_verilog -sv $defs -I$RTL/src $(echo $SRCS | sed "s#src/#$RTL/src/#g")
hierarchy -check -top zk_tb_top
prep -flatten
write_verilog -noattr $B/${name}_raw.v
YS
  yosys -q -l "$B/$name.yosys.log" "$B/$name.ys" >/dev/null &&
    sed -E -e 's/\\\$paramod\$[0-9a-f]+\\zk_fq_mul /zk_fq_mul_net /g' \
      -e '/^module zk_fq_mul_net *\(/a /*verilator hier_block*/' "$B/${name}_raw.v" >"$B/$name.v" &&
    grep -q "verilator hier_block" "$B/$name.v"
}

# verilator model: NAME FILES [DEFINES]
model() {
  local name=$1 files=$2 defs=${3:-}
  rm -rf "$B/obj_$name"
  verilator --cc --exe --build --hierarchical -j "$JOBS" -O3 --x-assign fast --x-initial fast \
    -Wno-fatal -Wno-lint -Wno-style -Isrc $defs --top-module zk_tb_top \
    --Mdir "$B/obj_$name" -o Vtb $files "$RTL/tb/tb_main.cpp" \
    -CFLAGS "-O1 -std=c++17" -MAKEFLAGS "OPT_FAST=-O1" >"$B/$name.build.log" 2>&1 &&
    [ -x "$B/obj_$name/Vtb" ]
}

run() {
  local model=$1 mode=$2 vec=$3
  if "$B/obj_$model/Vtb" "$mode" "$vec"; then ok "$model $mode"; else bad "$model $mode"; fi
}

runall() {
  local name=$1
  run "$name" mul "$B/vec/mul.txt"
  run "$name" addsub "$B/vec/addsub.txt"
  run "$name" padd "$B/vec/padd.txt"
}

# The multiplier variants: the default (zk_params.svh's RW, word-serial
# reduction) and RW = NB (one-word reduction, m*q on DSPs), each as RTL and
# as Yosys netlist. VARIANTS=default limits the run to the default.
VARIANTS=${VARIANTS:-default rw384}
defs_of() { case $1 in default) echo "" ;; rw384) echo "-DZK_TB_RW=384" ;; esac; }
net_of() { case $1 in default) echo net ;; *) echo "net_$1" ;; esac; }
rtl_of() { case $1 in default) echo rtl ;; *) echo "rtl_$1" ;; esac; }

step "yosys prep -flatten (in the background)"
(
  for v in $VARIANTS; do netlist "$(net_of "$v")" "$(defs_of "$v")" || exit 1; done
) >"$B/net.out" 2>&1 &
YPID=$!

for v in $VARIANTS; do
  step "verilator: RTL model ($v)"
  if model "$(rtl_of "$v")" "$SRCS" "$(defs_of "$v")"; then runall "$(rtl_of "$v")"; else
    bad "build $(rtl_of "$v") (see $B/$(rtl_of "$v").build.log)"
  fi
done

# the core on its integer stand-in datapath: NAME PARAMS...
core_model() {
  local name=$1
  shift
  rm -rf "$B/obj_$name"
  verilator --cc --exe --build -j "$JOBS" -O3 --x-assign fast --x-initial fast \
    -Wno-fatal -Wno-lint -Wno-style -Isrc --top-module zk_msm_top --prefix Vzk_int "$@" \
    --Mdir "$B/obj_$name" -o zk_core_tb $SRCS "$RTL/tb/zk_driver.cpp" "$RTL/tb/zk_core_tb.cpp" \
    -CFLAGS "-O1 -std=c++17 -DZK_WITH_INT" -MAKEFLAGS "OPT_FAST=-O1" >"$B/$name.build.log" 2>&1 &&
    [ -x "$B/obj_$name/zk_core_tb" ]
}

core_run() {
  local name=$1
  if "$B/obj_$name/zk_core_tb" "$CORE_CASES" "$SEED"; then ok "$name: $CORE_CASES random MSMs"; else bad "$name"; fi
}

step "verilator: the MSM core, stand-in datapath (CMAX 6, PD 4, latency 6, BRL 2)"
if core_model core_a -GDP=0 -GCMAX=6 -GPD=4 -GSLAT=6 -GBRL=2 -GSW=16; then core_run core_a; else bad "build core_a (see $B/core_a.build.log)"; fi
step "verilator: the MSM core, stand-in datapath (CMAX 4, PD 2, latency 1, BRL 1)"
if core_model core_b -GDP=0 -GCMAX=4 -GPD=2 -GSLAT=1 -GBRL=1 -GSW=12; then core_run core_b; else bad "build core_b (see $B/core_b.build.log)"; fi

step "cargo test -p zkmsm-rtl --features verilated (Verilates the core twice)"
if (cd "$ROOT" && nice -n 5 cargo test --release -p zkmsm-rtl --features verilated -q -- --test-threads 1); then
  ok "zkmsm-rtl tests with the Verilated core"
else
  bad "zkmsm-rtl tests with the Verilated core"
fi

step "waiting for yosys"
if wait $YPID; then
  for v in $VARIANTS; do
    step "verilator: Yosys netlist model ($v)"
    n=$(net_of "$v")
    if model "$n" "$B/$n.v" "$(defs_of "$v")"; then runall "$n"; else bad "build $n (see $B/$n.build.log)"; fi
  done
else
  bad "yosys netlist (see $B/net.out and $B/net*.yosys.log)"
fi

summary
