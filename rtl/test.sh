#!/usr/bin/env bash
# zkmsm RTL tests: lints the RTL, runs the Verilator test benches on the RTL
# and on the Yosys-elaborated netlist (prep -flatten; write_verilog) of the
# same sources, and checks every output against the Rust library. Prints
# "N passed, 0 failed" at the end and exits non-zero on any failure.
#
# The MSM core (zk_msm_top) runs on its integer stand-in datapath in two
# configurations, one core and three cores on one point stream
# (rtl/tb/zk_core_tb.cpp: random MSMs checked exactly), the lock-table
# core (LOCK = 1) in the first configuration (cycles equal to LOCK = 0) and
# at datapath latency 2000 on one and two cores; then
# Verilated as synthesized behind the `rtl` backend, built once by one cargo
# command: crates/rtl's tests (stand-in vs the cycle model, BLS12-377 MSMs
# end to end vs the CPU engine) and the CLI's `--backend rtl` tests.
#
# Two sizes (docs/RTL.md, "Verification"):
#   bash rtl/test.sh             CI: every module of the default build
#                                (RW = 384) on Verilator at reduced op
#                                counts (RW = 48 is linted only), one
#                                netlist (default parameters) of the
#                                datapath, the whole core's netlist on the
#                                stand-in datapath
#   RTL_FULL=1 bash rtl/test.sh  long runs: 100k multiplications, 20k adds
#                                and point additions, every multiplier variant
#                                as RTL and as netlist, 3000 MSMs per stand-in,
#                                the BLS12-377 core's netlist on whole MSMs,
#                                the BLS12-377 core's RTL on three cores
# Knobs (environment, override either size): MUL_OPS, PADD_OPS, ADDSUB_OPS,
# CORE_CASES, CORE_LK_CASES and CORE_LK_EQ (the lock-table core at a large
# latency: random MSMs, all scalars equal), CORE_LK_SLAT (2000), CORE_LK_PD
# (1024), CORE_TE_NET (1: the BLS12-377 core's netlist end to end;
# RTL_FULL only by default: ~6 min of CPU), CORE_TE3 (1: the BLS12-377 core's
# RTL on three cores, whole MSMs; RTL_FULL only by default: ~2 min of CPU), NET_OPS (the netlist models run the first NET_OPS vectors of
# each file, edge cases first; 0: all), VARIANTS (RTL models: "default" in CI, RTL_FULL "default
# rw48 kara0 qport"), NET_VARIANTS (netlist models), JOBS (2), SEED (1),
# CARGO_TARGET_DIR (honoured).
# AFF_INV: inversions per curve of the inverter unit's own bench (200; 2000
# in RTL_FULL). The batched-affine adder (zk_dp_aff, on AFF_CURVES: "381" in CI, "381 377"
# in RTL_FULL; docs/RTL.md, "Batched-affine adder"): AFF_OPS independent
# operations per curve, AFF_ACC_OPS
# bucket accumulations with the results fed back, the netlist (AFF_NET_CURVES:
# "381 377" in RTL_FULL, none in CI; AFF_NET_CURVES=381 adds it) on the
# first AFF_NET_OPS operations; AFF_RW48=1 (RTL_FULL): BLS12-381 on the
# RW = 48 multiplier too (stream); AFF_SHARE3=1 (RTL_FULL): BLS12-381 with
# three chains per inverter unit (SHARE = 3; the builds use 1).
set -u
cd "$(dirname "$0")"
RTL=$PWD
ROOT=$(cd .. && pwd)
B=$RTL/build
mkdir -p "$B/vec"
RTL_FULL=${RTL_FULL:-0}
if [ "$RTL_FULL" = 1 ]; then
  MUL_OPS=${MUL_OPS:-100000}
  PADD_OPS=${PADD_OPS:-20000}
  ADDSUB_OPS=${ADDSUB_OPS:-20000}
  CORE_CASES=${CORE_CASES:-3000}
  CORE_LK_CASES=${CORE_LK_CASES:-400}
  CORE_LK_EQ=${CORE_LK_EQ:-20}
  NET_OPS=${NET_OPS:-0}
  CORE_TE_NET=${CORE_TE_NET:-1}
  CORE_TE3=${CORE_TE3:-1}
  NET_VARIANTS=${NET_VARIANTS:-default rw48 kara0 qport}
  VARIANTS=${VARIANTS:-default rw48 kara0 qport}
  AFF_OPS=${AFF_OPS:-20000}
  AFF_INV=${AFF_INV:-2000}
  AFF_ACC_OPS=${AFF_ACC_OPS:-20000}
  AFF_NET_OPS=${AFF_NET_OPS:-3000}
  AFF_NET_CURVES=${AFF_NET_CURVES:-381 377}
  AFF_RW48=${AFF_RW48:-1}
  AFF_SHARE3=${AFF_SHARE3:-1}
  AFF_CURVES=${AFF_CURVES:-381 377}
else
  MUL_OPS=${MUL_OPS:-10000}
  PADD_OPS=${PADD_OPS:-2000}
  ADDSUB_OPS=${ADDSUB_OPS:-5000}
  CORE_CASES=${CORE_CASES:-1000}
  CORE_LK_CASES=${CORE_LK_CASES:-60}
  CORE_LK_EQ=${CORE_LK_EQ:-4}
  NET_OPS=${NET_OPS:-2500}
  CORE_TE_NET=${CORE_TE_NET:-0}
  CORE_TE3=${CORE_TE3:-0}
  NET_VARIANTS=${NET_VARIANTS:-default}
  VARIANTS=${VARIANTS:-default}
  AFF_OPS=${AFF_OPS:-3000}
  AFF_INV=${AFF_INV:-200}
  AFF_ACC_OPS=${AFF_ACC_OPS:-3000}
  AFF_NET_OPS=${AFF_NET_OPS:-400}
  # the adder's netlist: RTL_FULL only by default (Yosys prep -flatten of its
  # inverters and 7 multipliers took 307 s of CPU, 2.4 GB, with 37 units)
  AFF_NET_CURVES=${AFF_NET_CURVES:-}
  AFF_RW48=${AFF_RW48:-0}
  AFF_SHARE3=${AFF_SHARE3:-0}
  # the adder's own bench on BLS12-381 (BLS12-377's adder runs whole MSMs
  # inside its core in crates/rtl's tests; its bench, with the 2-torsion
  # cases, in RTL_FULL)
  AFF_CURVES=${AFF_CURVES:-381}
fi
CORE_LK_SLAT=${CORE_LK_SLAT:-2000}
CORE_LK_PD=${CORE_LK_PD:-1024}
JOBS=${JOBS:-2}
SEED=${SEED:-1}
PASS=0
FAIL=0
T0=$(date +%s)
SRCS=$(ls src/*.sv)

ok() { PASS=$((PASS + 1)); echo "PASS: $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }
# each step's wall and CPU seconds (scripts/steps.sh)
ZKMSM_STEP_SCOPE=rtl
# shellcheck source=scripts/steps.sh
. "$ROOT/scripts/steps.sh"
summary() {
  step_end
  echo "total time $(($(date +%s) - T0)) s"
  echo "$PASS passed, $FAIL failed"
  [ "$FAIL" -eq 0 ] && [ "$PASS" -gt 0 ]
  exit $?
}

step "versions"
verilator --version || { bad "verilator missing"; summary; }
yosys -V || { bad "yosys missing"; summary; }

step "verilator lint (JOBS at a time)"
# label|arguments; each lint elaborates a whole design (15-30 s of CPU)
LINTS=(
  "zk_tb_top|--top-module zk_tb_top"
  "zk_msm_top|--top-module zk_msm_top"
  "zk_dp_aff_tb|--top-module zk_dp_aff_tb"
  "zk_msm_top, NCORES = 2|--top-module zk_msm_top -GNCORES=2"
  "zk_msm_top, lock table, NCORES = 2|--top-module zk_msm_top -GDP=0 -GLOCK=1 -GRQ=1 -GPD=1024 -GSLAT=2000 -GNCORES=2"
  # the batched-affine core as crates/rtl/build.rs Verilates it (by define)
  "zk_msm_top, the batched-affine core on BLS12-381, NCORES = 2|--top-module zk_msm_top -DZK_CORE_AFF -DZK_CORE_BLS12_381 -DZK_NCORES=2"
  "zk_msm_top, the batched-affine core on BN254 (NB = 256), NCORES = 2|--top-module zk_msm_top -DZK_CORE_AFF -DZK_CORE_BN254 -DZK_NCORES=2"
  "zk_dp_aff_tb, BLS12-381|-DZK_AFF_TB_381 --top-module zk_dp_aff_tb"
  "zk_dp_aff_tb, BLS12-381, RW = 48|-DZK_AFF_TB_381 -DZK_AFF_TB_RW=48 --top-module zk_dp_aff_tb"
  "zk_tb_top, RW = 48|-DZK_TB_RW=48 --top-module zk_tb_top"
  "zk_tb_top, RW = 384, KARA = 0, QCONST = 0|-DZK_TB_RW=384 -DZK_TB_KARA=0 -DZK_TB_QCONST=0 --top-module zk_tb_top"
)
for k in "${!LINTS[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
  # shellcheck disable=SC2086
  (verilator --lint-only -Wall -Isrc $SRCS ${LINTS[$k]#*|} >"$B/lint_$k.log" 2>&1; echo $? >"$B/lint_$k.rc") &
done
wait
for k in "${!LINTS[@]}"; do
  if [ "$(cat "$B/lint_$k.rc")" = 0 ]; then
    ok "verilator --lint-only -Wall (${LINTS[$k]%%|*})"
  else
    cat "$B/lint_$k.log"
    bad "verilator --lint-only -Wall (${LINTS[$k]%%|*})"
  fi
done

# The multiplier variants: the default (zk_params.svh's RW = NB = 384:
# one-word reduction, m*q on DSPs; zk_mont_lo, zk_tri_tree and zk_kmul's
# chained rows exist only there) and RW = 48 (word-serial shift-add
# reduction: zk_redc_step and zk_sum_tree exist only there). In CI the
# RW = 48 model (VARIANTS="default rw48") holds the multiplier alone (the
# adder around it is the default one's, checked there); RTL_FULL=1 builds
# and runs all three DUTs of every variant.
defs_of() {
  case $1 in
    default) echo "" ;;
    rw48) if [ "$RTL_FULL" = 1 ]; then echo "-DZK_TB_RW=48"; else echo "-DZK_TB_RW=48 -DZK_TB_WITH_PA=0"; fi ;;
    # RW = 384 with zk_kmul's subtractive Karatsuba (KARA = 0), and with q
    # through the m*q product's port instead of a constant (QCONST = 0)
    kara0) echo "-DZK_TB_RW=384 -DZK_TB_KARA=0" ;;
    qport) echo "-DZK_TB_RW=384 -DZK_TB_QCONST=0" ;;
  esac
}
runs_of() { if [ "$1" = rw48 ] && [ "$RTL_FULL" != 1 ]; then echo mul; else echo "mul addsub padd"; fi; }
net_of() { case $1 in default) echo net ;; *) echo "net_$1" ;; esac; }
rtl_of() { case $1 in default) echo rtl ;; *) echo "rtl_$1" ;; esac; }

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

# The whole core's netlist on the stand-in datapath (configuration a
# below): zk_msm_top flattened by the same Yosys flow, run by the same
# random-MSM test bench (zk_core_tb) as the RTL (no multiplier inside:
# DP = 0, so cheap to build). The BLS12-377 core's netlist: RTL_FULL.
core_netlist() {
  cat >"$B/core_net.ys" <<YS
read_verilog -sv -I$RTL/src $(echo $SRCS | sed "s#src/#$RTL/src/#g")
chparam $CORE_A_CHPARAM zk_msm_top
hierarchy -check -top zk_msm_top
prep -flatten
rename -top zk_msm_top
write_verilog -noattr $B/core_net.v
YS
  yosys -q -l "$B/core_net.yosys.log" "$B/core_net.ys" >/dev/null
}
CORE_A=(-GDP=0 -GCMAX=6 -GPD=4 -GSLAT=6 -GBRL=2 -GSW=16)
chparam_of() { printf '%s\n' "$@" | sed -E 's/^-G([A-Z]+)=(.*)/-set \1 \2/' | tr '\n' ' '; }
CORE_A_CHPARAM=$(chparam_of "${CORE_A[@]}")

# The lock-table core with requeue (the batched-affine core's control: the
# lock table, the block-RAM pending queue, two cores on one stream) on the
# stand-in datapath at a latency of thousands (configuration lk below), as
# a netlist by the same flow; its cycles must equal the RTL's.
CORE_LK=(-GDP=0 -GLOCK=1 -GRQ=1 -GCMAX=8 -GPD=$CORE_LK_PD -GSLAT=$CORE_LK_SLAT -GBRL=2 -GSW=16 -GNCORES=2 -GFD=4)
core_lk_netlist() {
  cat >"$B/core_lk_net.ys" <<YS
read_verilog -sv -I$RTL/src $(echo $SRCS | sed "s#src/#$RTL/src/#g")
chparam $(chparam_of "${CORE_LK[@]}") zk_msm_top
hierarchy -check -top zk_msm_top
prep -flatten
rename -top zk_msm_top
write_verilog -noattr $B/core_lk_net.v
YS
  yosys -q -l "$B/core_lk_net.yosys.log" "$B/core_lk_net.ys" >/dev/null
}

# The BLS12-377 core's netlist: zk_msm_top with the twisted Edwards adder
# (DP = 1) at a small bucket memory (CMAX $CORE_TE_CMAX, one core), by the
# same Yosys flow, the multiplier kept as one hierarchical block (as in
# netlist()); run on a few small MSMs by zk_msm_file_tb, whose cases and
# checks come from zkmsm-vectors msm-cases / msm-check (results against
# the CPU engine, accumulation cycles against the model).
CORE_TE_CMAX=5
core_te_netlist() {
  cat >"$B/core_te_net.ys" <<YS
read_verilog -sv -I$RTL/src $(echo $SRCS | sed "s#src/#$RTL/src/#g")
chparam -set DP 1 -set CMAX $CORE_TE_CMAX zk_msm_top
hierarchy -check -top zk_msm_top
prep -flatten
rename -top zk_msm_top
write_verilog -noattr $B/core_te_net_raw.v
YS
  yosys -q -l "$B/core_te_net.yosys.log" "$B/core_te_net.ys" >/dev/null &&
    sed -E -e 's/\\\$paramod\$[0-9a-f]+\\zk_fq_mul /zk_fq_mul_net /g' \
      -e '/^module zk_fq_mul_net *\(/a /*verilator hier_block*/' "$B/core_te_net_raw.v" >"$B/core_te_net.v" &&
    grep -q "verilator hier_block" "$B/core_te_net.v"
}
core_te_model() {
  rm -rf "$B/obj_core_te_net"
  verilator --cc --exe --build --hierarchical -j "$JOBS" -O3 --x-assign fast --x-initial fast \
    -Wno-fatal -Wno-lint -Wno-style --top-module zk_msm_top --prefix Vzk_te \
    --Mdir "$B/obj_core_te_net" -o zk_msm_file_tb "$B/core_te_net.v" "$RTL/tb/zk_driver.cpp" "$RTL/tb/zk_msm_file_tb.cpp" \
    -CFLAGS "-std=c++17 -DZK_WITH_TE" -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1" >"$B/core_te_net.build.log" 2>&1 &&
    [ -x "$B/obj_core_te_net/zk_msm_file_tb" ]
}

# The BLS12-377 core on three cores (the RTL, not its netlist): zk_msm_top
# with the TE adder, NCORES 3 (fan-out FIFOs of 4), CMAX $CORE_TE_CMAX, the
# same MSM cases run by zk_msm_file_tb on all three cores (window w on core
# w mod 3, one shared point stream); msm-check models the three cores.
core_te3_model() {
  rm -rf "$B/obj_core_te3"
  verilator --cc --exe --build --hierarchical -j "$JOBS" -O3 --x-assign fast --x-initial fast \
    -Wno-fatal -Wno-lint -Wno-style -Isrc -DZK_NCORES=3 -DZK_CMAX=$CORE_TE_CMAX --top-module zk_msm_top --prefix Vzk_te \
    --Mdir "$B/obj_core_te3" -o zk_msm_file_tb $SRCS "$RTL/tb/zk_driver.cpp" "$RTL/tb/zk_msm_file_tb.cpp" \
    -CFLAGS "-std=c++17 -DZK_WITH_TE" -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1" >"$B/core_te3.build.log" 2>&1 &&
    [ -x "$B/obj_core_te3/zk_msm_file_tb" ]
}
core_te3() {
  step "verilator: the BLS12-377 core on three cores (RTL, CMAX $CORE_TE_CMAX), whole MSMs against the CPU engine and the model"
  if core_te3_model; then
    if "$VECTORS" msm-cases "$CORE_TE_CMAX" "$SEED" "$B/vec/msm_cases.txt" &&
      "$B/obj_core_te3/zk_msm_file_tb" "$B/vec/msm_cases.txt" "$B/core_te3.buckets" 3 &&
      "$VECTORS" msm-check "$CORE_TE_CMAX" "$SEED" "$B/core_te3.buckets"; then
      ok "core_te3: BLS12-377 MSMs on three cores of the RTL"
    else
      bad "core_te3: BLS12-377 MSMs on three cores of the RTL"
    fi
  else
    bad "build core_te3 (see $B/core_te3.build.log)"
  fi
}

# The batched-affine adder's netlist (zk_dp_aff_tb on curve $1: 381 or 377),
# the multiplier kept as one hierarchical block as in netlist().
aff_def() { if [ "$1" = 381 ]; then echo "-DZK_AFF_TB_381"; fi; }
aff_netlist() {
  cat >"$B/aff_net$1.ys" <<YS
read_verilog -sv $(aff_def "$1") -I$RTL/src $(echo $SRCS | sed "s#src/#$RTL/src/#g")
hierarchy -check -top zk_dp_aff_tb
prep -flatten
write_verilog -noattr $B/aff_net$1_raw.v
YS
  yosys -q -l "$B/aff_net$1.yosys.log" "$B/aff_net$1.ys" >/dev/null &&
    sed -E -e 's/\\\$paramod\$[0-9a-f]+\\zk_fq_mul /zk_fq_mul_net /g' \
      -e '/^module zk_fq_mul_net *\(/a /*verilator hier_block*/' "$B/aff_net$1_raw.v" >"$B/aff_net$1.v" &&
    grep -q "verilator hier_block" "$B/aff_net$1.v"
}
# Verilated zk_dp_aff_tb: NAME DEFINES FILES
aff_model() {
  local name=$1 defs=$2 files=$3
  rm -rf "$B/obj_$name"
  verilator --cc --exe --build --hierarchical -j "$JOBS" -O3 --x-assign fast --x-initial fast \
    -Wno-fatal -Wno-lint -Wno-style -Isrc $defs --top-module zk_dp_aff_tb \
    --Mdir "$B/obj_$name" -o zk_aff_tb $files "$RTL/tb/zk_aff_tb.cpp" \
    -CFLAGS "-std=c++17" -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1" >"$B/$name.build.log" 2>&1 &&
    [ -x "$B/obj_$name/zk_aff_tb" ]
}
aff_run() {
  local name=$1 mode=$2 vec=$3
  if "$B/obj_$name/zk_aff_tb" "$mode" "$vec"; then ok "$name $mode ($(wc -l <"$vec") lines)"; else bad "$name $mode"; fi
}

step "yosys prep -flatten ($NET_VARIANTS; the core on the stand-in; zk_dp_aff on $AFF_NET_CURVES; in the background)"
(
  for v in $NET_VARIANTS; do netlist "$(net_of "$v")" "$(defs_of "$v")" || exit 1; done
  core_netlist || exit 1
  core_lk_netlist || exit 1
  for c in $AFF_NET_CURVES; do aff_netlist "$c" || exit 1; done
  if [ "$CORE_TE_NET" = 1 ]; then core_te_netlist || exit 1; fi
) >"$B/net.out" 2>&1 &
YPID=$!

# One cargo command builds everything Rust: the Verilated core (crates/rtl,
# feature `verilated`: built once, for both test binaries), the vector
# exporter, crates/rtl's Verilated tests and the CLI with `--backend rtl`.
# --workspace resolves the dependencies' features as `cargo test
# --workspace` does (scripts/test.sh runs that first), so nothing below the
# two crates is rebuilt; --test picks the two test binaries.
# Under scripts/test.sh (ZKMSM_CARGO_CONFIG set) it is the same build, with
# the same profile file, so it finds everything built; scripts/test.sh has
# then also run clippy and these two test binaries with these features
# (ZKMSM_RTL_CARGO_DONE=1), so they are not run twice here.
CARGO_TEST=(cargo test --release --workspace --features zkmsm-rtl/verilated,zkmsm-cli/rtl)
if [ -n "${ZKMSM_CARGO_CONFIG:-}" ]; then CARGO_TEST+=(--config "$ZKMSM_CARGO_CONFIG"); fi
CARGO_DONE=${ZKMSM_RTL_CARGO_DONE:-0}
step "${CARGO_TEST[*]} --test verilated --test cli --no-run"
if ! (cd "$ROOT" && nice -n 5 "${CARGO_TEST[@]}" --test verilated --test cli --no-run -q); then
  bad "cargo build (the Verilated core, the CLI with --features rtl)"
  summary
fi
# clippy on the code behind the features (the workspace's clippy in
# scripts/test.sh sees the default build only): check mode, so only the two
# crates are checked again
step "cargo clippy --features zkmsm-rtl/verilated,zkmsm-cli/rtl (-D warnings)"
if [ "$CARGO_DONE" = 1 ]; then
  echo "(run by scripts/test.sh with these features)"
elif (cd "$ROOT" && nice -n 5 cargo clippy --release --workspace --all-targets \
  --features zkmsm-rtl/verilated,zkmsm-cli/rtl -q -- -D warnings); then
  ok "cargo clippy with the Verilated core (zkmsm-rtl/verilated, zkmsm-cli/rtl)"
else
  bad "cargo clippy with the Verilated core (zkmsm-rtl/verilated, zkmsm-cli/rtl)"
fi
TDIR=${CARGO_TARGET_DIR:-$ROOT/target}
case "$TDIR" in /*) ;; *) TDIR=$ROOT/$TDIR ;; esac  # cargo resolves it from the root
VECTORS=$TDIR/release/zkmsm-vectors

step "reference vectors ($MUL_OPS mul, $ADDSUB_OPS addsub, $PADD_OPS padd, plus edge cases)"
"$VECTORS" mul "$MUL_OPS" "$SEED" "$B/vec/mul.txt" &&
  "$VECTORS" addsub "$ADDSUB_OPS" "$((SEED + 1))" "$B/vec/addsub.txt" &&
  "$VECTORS" padd "$PADD_OPS" "$((SEED + 2))" "$B/vec/padd.txt" || {
  bad "vector export"
  summary
}

# verilator model: NAME FILES [DEFINES]. The __Slow files (initialization
# and settle code, as large as the evaluation code) compile at -O0: they
# run once; the evaluation code at -O1.
model_build() {
  local name=$1 files=$2 defs=$3 jobs=$4
  rm -rf "$B/obj_$name"
  verilator --cc --exe --build --hierarchical -j "$jobs" -O3 --x-assign fast --x-initial fast \
    -Wno-fatal -Wno-lint -Wno-style -Isrc $defs --top-module zk_tb_top \
    --Mdir "$B/obj_$name" -o Vtb $files "$RTL/tb/tb_main.cpp" \
    -CFLAGS "-std=c++17" -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1" >>"$B/$name.build.log" 2>&1 &&
    [ -x "$B/obj_$name/Vtb" ]
}
# Verilator 5.006's hierarchical build under make -j has compiled a
# hierarchical block's wrapper (Vzk_fq_mul_b.cpp) while it was still being
# written (an empty object, undefined references at the link; seen once in
# CI): on a failed build, one more try on one job, from scratch. An error
# in the RTL fails both.
model() {
  local name=$1 files=$2 defs=${3:-}
  : >"$B/$name.build.log"
  model_build "$name" "$files" "$defs" "$JOBS" && return 0
  [ "$JOBS" = 1 ] && return 1
  echo "(build $name failed with -j $JOBS; once more with -j 1, from scratch)"
  echo "== retry with -j 1" >>"$B/$name.build.log"
  model_build "$name" "$files" "$defs" 1
}

run() {
  local model=$1 mode=$2 vec=$3
  if "$B/obj_$model/Vtb" "$mode" "$vec"; then ok "$model $mode"; else bad "$model $mode"; fi
}

runall() {
  local name=$1 modes=$2
  for m in $modes; do run "$name" "$m" "$B/vec/$m.txt"; done
}

# the netlist models simulate 5-10x slower than the RTL models: the first
# NET_OPS vectors of each file (the edge cases lead every file)
netall() {
  local name=$1 modes=$2
  for m in $modes; do
    if [ "$NET_OPS" -gt 0 ]; then head -n "$NET_OPS" "$B/vec/$m.txt" >"$B/vec/net_$m.txt"; else cp "$B/vec/$m.txt" "$B/vec/net_$m.txt"; fi
    run "$name" "$m" "$B/vec/net_$m.txt"
  done
}

for v in $VARIANTS; do
  step "verilator: RTL model ($v: $(runs_of "$v"))"
  if model "$(rtl_of "$v")" "$SRCS" "$(defs_of "$v")"; then runall "$(rtl_of "$v")" "$(runs_of "$v")"; else
    bad "build $(rtl_of "$v") (see $B/$(rtl_of "$v").build.log)"
  fi
done

step "the inverter's almost-inverse step in Python integers against pow(a, -1, q)"
if python3 tb/zk_dp_aff_inv_model.py >"$B/aff_inv_model.out" 2>&1; then ok "$(tail -1 "$B/aff_inv_model.out")"; else bad "zk_dp_aff_inv_model.py (see $B/aff_inv_model.out)"; fi

step "verilator: the inverter unit against its specification ($AFF_INV inversions per curve, BLS12-381 and BLS12-377)"
rm -rf "$B/obj_aff_inv"
if verilator --binary -O3 -Wno-fatal -Wno-lint -Wno-style -Isrc --top-module zk_dp_aff_inv_tb \
  --Mdir "$B/obj_aff_inv" -o zk_dp_aff_inv_tb tb/zk_dp_aff_inv_tb.sv src/zk_dp_aff_inv.sv >"$B/aff_inv.build.log" 2>&1; then
  if "$B/obj_aff_inv/zk_dp_aff_inv_tb" "+n=$AFF_INV" >"$B/aff_inv.out" 2>&1; then ok "$(head -1 "$B/aff_inv.out")"; else bad "zk_dp_aff_inv_tb (see $B/aff_inv.out)"; fi
else
  bad "build zk_dp_aff_inv_tb (see $B/aff_inv.build.log)"
fi

for c in $AFF_CURVES; do
  step "verilator: the batched-affine adder on BLS12-$c ($AFF_OPS operations, $AFF_ACC_OPS accumulated)"
  if "$VECTORS" "aff$c" "$AFF_OPS" "$((SEED + 3))" "$B/vec/aff$c.txt" &&
    "$VECTORS" "aff$c-acc" "$AFF_ACC_OPS" "$((SEED + 4))" "$B/vec/aff$c-acc.txt"; then
    if aff_model "aff$c" "$(aff_def "$c")" "$SRCS"; then
      aff_run "aff$c" stream "$B/vec/aff$c.txt"
      aff_run "aff$c" acc "$B/vec/aff$c-acc.txt"
    else
      bad "build aff$c (see $B/aff$c.build.log)"
    fi
  else
    bad "vector export (aff$c)"
  fi
done
if [ "$AFF_SHARE3" = 1 ]; then
  step "verilator: the batched-affine adder on BLS12-381 with three chains per inverter unit (SHARE = 3)"
  if aff_model aff381s3 "-DZK_AFF_TB_381 -DZK_AFF_SHARE=3" "$SRCS"; then
    aff_run aff381s3 stream "$B/vec/aff381.txt"
    aff_run aff381s3 acc "$B/vec/aff381-acc.txt"
  else
    bad "build aff381s3 (see $B/aff381s3.build.log)"
  fi
fi
if [ "$AFF_RW48" = 1 ]; then
  step "verilator: the batched-affine adder on BLS12-381 with the RW = 48 multiplier"
  if aff_model aff381rw48 "-DZK_AFF_TB_381 -DZK_AFF_TB_RW=48" "$SRCS"; then
    aff_run aff381rw48 stream "$B/vec/aff381.txt"
  else
    bad "build aff381rw48 (see $B/aff381rw48.build.log)"
  fi
fi

# the core on its integer stand-in datapath: NAME PARAMS... (sources:
# $CORE_SRCS, the RTL unless set)
core_model() {
  local name=$1
  shift
  rm -rf "$B/obj_$name"
  verilator --cc --exe --build -j "$JOBS" -O3 --x-assign fast --x-initial fast \
    -Wno-fatal -Wno-lint -Wno-style -Isrc --top-module zk_msm_top --prefix Vzk_int "$@" \
    --Mdir "$B/obj_$name" -o zk_core_tb ${CORE_SRCS:-$SRCS} "$RTL/tb/zk_driver.cpp" "$RTL/tb/zk_core_tb.cpp" \
    -CFLAGS "-O1 -std=c++17 -DZK_WITH_INT" -MAKEFLAGS "OPT_FAST=-O1" >"$B/$name.build.log" 2>&1 &&
    [ -x "$B/obj_$name/zk_core_tb" ]
}

core_run() {
  local name=$1
  if "$B/obj_$name/zk_core_tb" "$CORE_CASES" "$SEED"; then ok "$name: $CORE_CASES random MSMs"; else bad "$name"; fi
}

step "verilator: the MSM core, stand-in datapath (CMAX 6, PD 4, latency 6, BRL 2)"
if core_model core_a "${CORE_A[@]}"; then core_run core_a; else bad "build core_a (see $B/core_a.build.log)"; fi
step "verilator: three MSM cores on one point stream, stand-in datapath (CMAX 4, PD 2, latency 1, BRL 1, fan-out FIFOs of 2)"
if core_model core_b -GDP=0 -GCMAX=4 -GPD=2 -GSLAT=1 -GBRL=1 -GSW=12 -GNCORES=3 -GFD=2; then core_run core_b; else bad "build core_b (see $B/core_b.build.log)"; fi

# The lock-table core (LOCK = 1: zk_lock_table, block-RAM pending queue):
# in configuration a it must take exactly the cycles of the hazard
# detector's core (the two decide alike in every cycle), compared on the
# same random MSMs; at a large datapath latency (thousands of cycles in
# flight) on one and two cores, random MSMs and all scalars equal (every
# addition of a window into one bucket: the queue fills, the input waits).
acc_line() { grep -E "^[0-9]+ cases, 0 failed; [0-9]+ additions in [0-9]+ accumulation cycles$" "$1"; }
step "verilator: the lock-table core in configuration a (LOCK 1), cycles equal to the hazard detector's"
if core_model core_a_lock "${CORE_A[@]}" -GLOCK=1; then
  "$B/obj_core_a/zk_core_tb" "$CORE_CASES" "$SEED" >"$B/core_a.acc" 2>&1
  "$B/obj_core_a_lock/zk_core_tb" "$CORE_CASES" "$SEED" >"$B/core_a_lock.acc" 2>&1
  a=$(acc_line "$B/core_a.acc")
  l=$(acc_line "$B/core_a_lock.acc")
  if [ -n "$a" ] && [ "$a" = "$l" ]; then ok "core_a_lock: $l (= LOCK 0)"; else bad "core_a_lock: '$l' vs LOCK 0 '$a'"; fi
else
  bad "build core_a_lock (see $B/core_a_lock.build.log)"
fi
step "verilator: the lock-table core with requeue at datapath latency $CORE_LK_SLAT (PD $CORE_LK_PD, CMAX 8, one or two cores)"
# (the outputs kept: the netlist's cycles are compared with them below)
if core_model core_lk "${CORE_LK[@]}"; then
  if "$B/obj_core_lk/zk_core_tb" "$CORE_LK_CASES" "$SEED" >"$B/core_lk.acc" 2>&1; then ok "core_lk: $(acc_line "$B/core_lk.acc")"; else bad "core_lk (see $B/core_lk.acc)"; fi
  if ZK_TB_EQUAL=1 "$B/obj_core_lk/zk_core_tb" "$CORE_LK_EQ" "$SEED" >"$B/core_lk_eq.acc" 2>&1; then ok "core_lk: all scalars equal, $(acc_line "$B/core_lk_eq.acc")"; else bad "core_lk: all scalars equal (see $B/core_lk_eq.acc)"; fi
else
  bad "build core_lk (see $B/core_lk.build.log)"
fi

step "zkmsm-rtl's tests on the Verilated cores (stand-in vs model; BLS12-377 and BLS12-381 end to end)"
if [ "$CARGO_DONE" = 1 ]; then
  echo "(run by scripts/test.sh's cargo test: tests/verilated)"
elif (cd "$ROOT" && nice -n 5 "${CARGO_TEST[@]}" --test verilated -q -- --test-threads 1); then
  ok "zkmsm-rtl tests with the Verilated core"
else
  bad "zkmsm-rtl tests with the Verilated core"
fi
step "the CLI with --backend rtl (zkmsm msm/demo, equal to the CPU engine)"
if [ "$CARGO_DONE" = 1 ]; then
  echo "(run by scripts/test.sh's cargo test: crates/cli/tests/cli/rtl_backend.rs)"
elif (cd "$ROOT" && nice -n 5 "${CARGO_TEST[@]}" --test cli -q rtl_backend::); then
  ok "zkmsm --backend rtl (crates/cli/tests/cli/rtl_backend.rs)"
else
  bad "zkmsm --backend rtl (crates/cli/tests/cli/rtl_backend.rs)"
fi

if [ "$CORE_TE3" = 1 ]; then core_te3; fi

step "waiting for yosys"
if wait $YPID; then
  for v in $NET_VARIANTS; do
    step "verilator: Yosys netlist model ($v: $(runs_of "$v"))"
    n=$(net_of "$v")
    if model "$n" "$B/$n.v" "$(defs_of "$v")"; then netall "$n" "$(runs_of "$v")"; else bad "build $n (see $B/$n.build.log)"; fi
  done
  for c in $AFF_NET_CURVES; do
    step "verilator: Yosys netlist of the batched-affine adder on BLS12-$c (first $AFF_NET_OPS operations)"
    if aff_model "aff_net$c" "" "$B/aff_net$c.v"; then
      head -n "$AFF_NET_OPS" "$B/vec/aff$c.txt" >"$B/vec/net_aff$c.txt"
      aff_run "aff_net$c" stream "$B/vec/net_aff$c.txt"
    else
      bad "build aff_net$c (see $B/aff_net$c.build.log)"
    fi
  done
  step "verilator: Yosys netlist of the whole core, stand-in datapath (configuration a)"
  if CORE_SRCS=$B/core_net.v core_model core_net; then core_run core_net; else bad "build core_net (see $B/core_net.build.log)"; fi
  step "verilator: Yosys netlist of the lock-table core with requeue (configuration lk), cycles equal to its RTL"
  if CORE_SRCS=$B/core_lk_net.v core_model core_lk_net; then
    for k in core_lk core_lk_eq; do
      if [ "$k" = core_lk ]; then n=$CORE_LK_CASES eq=0; else n=$CORE_LK_EQ eq=1; fi
      ZK_TB_EQUAL=$eq "$B/obj_core_lk_net/zk_core_tb" "$n" "$SEED" >"$B/${k}_net.acc" 2>&1
      r=$(acc_line "$B/$k.acc")
      l=$(acc_line "$B/${k}_net.acc")
      if [ -n "$l" ] && [ "$l" = "$r" ]; then ok "${k}_net: $l (= its RTL)"; else bad "${k}_net: '$l' vs RTL '$r'"; fi
    done
  else
    bad "build core_lk_net (see $B/core_lk_net.build.log)"
  fi
  if [ "$CORE_TE_NET" = 1 ]; then
    step "verilator: Yosys netlist of the BLS12-377 core (CMAX $CORE_TE_CMAX), whole MSMs against the CPU engine and the model"
    if core_te_model; then
      if "$VECTORS" msm-cases "$CORE_TE_CMAX" "$SEED" "$B/vec/msm_cases.txt" &&
        "$B/obj_core_te_net/zk_msm_file_tb" "$B/vec/msm_cases.txt" "$B/core_te_net.buckets" &&
        "$VECTORS" msm-check "$CORE_TE_CMAX" "$SEED" "$B/core_te_net.buckets"; then
        ok "core_te_net: BLS12-377 MSMs on the core's netlist"
      else
        bad "core_te_net: BLS12-377 MSMs on the core's netlist"
      fi
    else
      bad "build core_te_net (see $B/core_te_net.build.log)"
    fi
  fi
else
  bad "yosys netlist (see $B/net.out and $B/net*.yosys.log)"
fi

summary
