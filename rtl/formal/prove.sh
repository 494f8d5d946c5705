#!/usr/bin/env bash
# rtl/formal/prove.sh -- the core scheduler's safety properties (P1-P7 and
# the lemmas in rtl/src/zk_msm_core_props.svh) on the reduced configuration
# of rtl/formal/zk_core_formal.sv (CMAX 3: four banks of two buckets, PD 2,
# BRL 1, stand-in datapath SLAT 2, so HZ = 3 and an operation spends HZ+1 = 4
# cycles from decision to write-back), with Yosys (flatten, memory_map, AIG)
# and ABC:
#   1. bounded model check from reset (abc bmc3) to DEPTH cycles;
#   2. k-induction attempt (abc ind, K frames, uniqueness constraints):
#      reports PROVEN or UNDECIDED (not inductive yet: lemmas missing);
#   3. reachability: bmc3 must find a complete MSM (>= 2 windows, one
#      operation queued behind a busy bucket) within DEPTH cycles;
#   4. mutations: each F_MUT_* define breaks one property; with only that
#      property's assertions kept (F_ONLY), bmc3 must find a counterexample.
#   5. unbounded proof (abc pdr, property directed reachability) of every
#      property and lemma on a smaller configuration (SLAT 1 so HZ = 2,
#      point words of 1 bit, N < 4; CMAX 3, PD 2, BRL 1, W < 4 as above),
#      and pdr must find the F_MUT_HAZARD mutation there (not vacuous);
#   6. the lock-table configuration (LOCK 1: zk_lock_table and the
#      block-RAM pending queue of zk_pending; RQ 1: blocked pending heads
#      requeued): pdr proves every property and lemma on the smaller
#      configuration of step 5 with LOCK 1, RQ 1; on the configuration of
#      steps 1-4 with LOCK 1, RQ 1 each of P1 (no two operations on one
#      bucket in flight), P2 (the lock bits are the buckets in flight), P4
#      (each accepted operation retires once), P5 (queue bounds) and P7 (no
#      deadlock with the queue full) is shown non-vacuous by a mutation
#      that bmc3 finds with only that property kept (F_MUT_UNLOCK:
#      write-backs never unlock, caught by P7).
# Usage: bash rtl/formal/prove.sh [DEPTH [K]]   (defaults 64, 20)
#        bash rtl/formal/prove.sh pdr           (step 5 alone, ~1 min of CPU)
#        bash rtl/formal/prove.sh lock          (step 6 alone)
# Exit status 0 iff no violation in DEPTH cycles, every mutation is caught
# and pdr proves the smaller configuration.
set -u
cd "$(dirname "$0")/.."
ONLY_PDR=0
ONLY_LOCK=0
if [ "${1:-}" = pdr ]; then
  ONLY_PDR=1
  shift
elif [ "${1:-}" = lock ]; then
  ONLY_LOCK=1
  shift
fi
DEPTH=${1:-64}
K=${2:-20}
TMO=${TMO:-900}
B=build/formal
mkdir -p $B
SRCS="src/zk_msm_core.sv src/zk_core_agg.sv src/zk_core_sched.sv src/zk_core_buckets.sv src/zk_core_readout.sv src/zk_core_counters.sv src/zk_fifo.sv src/zk_pending.sv src/zk_lock_table.sv src/zk_bitram.sv src/zk_skid.sv src/zk_inflight.sv src/zk_eq.sv src/zk_or_tree.sv src/zk_mux_tree.sv src/zk_bucket_ram.sv src/zk_dp_int.sv src/zk_delay.sv src/zk_valid_pipe.sv formal/zk_core_formal.sv"

aig() {  # aig NAME DEFINES...: the harness as an AIGER file ($CHP: chparam)
  local name=$1
  shift
  nice -n 19 yosys -q -l $B/$name.yosys.log -p "
read_verilog -defer -formal -sv -Isrc $* $SRCS
${CHP:-}
prep -top zk_core_formal
flatten
memory_map
opt -full
async2sync
chformal -assume -early
dffunmap
setundef -anyseq
opt -keepdc -fast -noff
techmap
opt -fast -noff
dffunmap
abc -g AND -fast
opt_clean
write_aiger -I -B -zinit -symbols -ywmap $B/$name.ywmap $B/$name.aig" >/dev/null 2>&1 || {
    echo "yosys failed: $B/$name.yosys.log"
    exit 2
  }
}

bmc() {  # bmc NAME: prints abc's verdict line
  nice -n 19 timeout $TMO yosys-abc -c "read_aiger $B/$1.aig; fold; strash; bmc3 -F $DEPTH" 2>&1 |
    grep -E "asserted in frame|No output asserted|Reached" | tail -1
}

# 5: pdr on the smaller configuration
SMALL="chparam -set SLAT 1 -set SW 1 -set NW 2 zk_core_formal"
pdr_small() {
  local ta
  ta=$(date +%s)
  CHP=$SMALL aig small
  r=$(nice -n 19 timeout $TMO yosys-abc -c "read_aiger $B/small.aig; fold; strash; orpos; pdr" 2>&1 | grep -E "Property proved|asserted in frame|UNDECIDED|Invariant F" | tail -1)
  echo "pdr, CMAX 3, PD 2, BRL 1, SLAT 1 (HZ 2), SW 1, N < 4, W < 4 (AIG: $(head -1 $B/small.aig)): $r ($(($(date +%s) - ta)) s)"
  case "$r" in *"Property proved"*) ;; *) fail=1 ;; esac
  CHP=$SMALL aig small_mut -DF_MUT_HAZARD -DF_ONLY=1
  r=$(nice -n 19 timeout $TMO yosys-abc -c "read_aiger $B/small_mut.aig; fold; strash; orpos; pdr" 2>&1 | grep -E "Property proved|asserted in frame" | tail -1)
  echo "pdr on F_MUT_HAZARD (P1 only), same configuration: $r"
  case "$r" in *"asserted in frame"*) ;; *) fail=1 ;; esac
}

# 6: the lock-table configuration
LOCKC="chparam -set LOCK 1 -set RQ 1 -set SLAT 1 -set SW 1 -set NW 2 zk_core_formal"
lock_cfg() {
  local ta r
  ta=$(date +%s)
  CHP=$LOCKC aig lock
  r=$(nice -n 19 timeout $TMO yosys-abc -c "read_aiger $B/lock.aig; fold; strash; orpos; pdr" 2>&1 | grep -E "Property proved|asserted in frame|UNDECIDED|Invariant F" | tail -1)
  echo "pdr, LOCK 1, RQ 1 (lock table, block-RAM queue, requeue), CMAX 3, PD 2, BRL 1, SLAT 1 (HZ 2), SW 1, N < 4, W < 4 (AIG: $(head -1 $B/lock.aig)): $r ($(($(date +%s) - ta)) s)"
  case "$r" in *"Property proved"*) ;; *) fail=1 ;; esac
  for m in HAZARD:1 DETECT:2 LOSE:4 FULL:5 UNLOCK:7 STALL:7; do
    mut=${m%%:*}
    p=${m##*:}
    ta=$(date +%s)
    CHP="chparam -set LOCK 1 -set RQ 1 zk_core_formal" aig lock_mut_$mut -DF_MUT_$mut -DF_ONLY=$p
    r=$(bmc lock_mut_$mut)
    case "$r" in
    *"asserted in frame"*) echo "LOCK 1, mutation F_MUT_$mut: P$p fails: $r ($(($(date +%s) - ta)) s)" ;;
    *)
      echo "LOCK 1, mutation F_MUT_$mut: P$p NOT caught: $r"
      fail=1
      ;;
    esac
  done
}

fail=0
t0=$(date +%s)
if [ $ONLY_LOCK = 1 ]; then
  lock_cfg
  echo "total $(($(date +%s) - t0)) s; $(uptime | sed 's/.*load/load/')"
  exit $fail
fi
if [ $ONLY_PDR = 1 ]; then
  pdr_small
  echo "total $(($(date +%s) - t0)) s; $(uptime | sed 's/.*load/load/')"
  exit $fail
fi
aig core
echo "config: CMAX 3, PD 2, BRL 1, SLAT 2 (HZ 3), N < 8, W < 4; AIG header: $(head -1 $B/core.aig)"
r=$(bmc core)
t1=$(date +%s)
echo "bmc3 -F $DEPTH from reset: $r ($((t1 - t0)) s)"
case "$r" in *"No output asserted"*) ;; *) fail=1 ;; esac

r=$(nice -n 19 timeout $TMO yosys-abc -c "read_aiger $B/core.aig; fold; strash; orpos; scorr; ind -F $K -u" 2>&1 | tail -1)
t2=$(date +%s)
echo "k-induction (ind -F $K -u): $r ($((t2 - t1)) s)"

ta=$(date +%s)
aig reach -DF_REACH -DF_ONLY=9
r=$(bmc reach)
echo "reachability: an MSM of >= 2 windows with a queued operation completes: $r ($(($(date +%s) - ta)) s)"
case "$r" in *"asserted in frame"*) ;; *) fail=1 ;; esac

# mutation, property it breaks
for m in HAZARD:1 DETECT:2 LAT:3 LOSE:4 FULL:5 READOUT:6 STALL:7; do
  mut=${m%%:*}
  p=${m##*:}
  ta=$(date +%s)
  aig mut_$mut -DF_MUT_$mut -DF_ONLY=$p
  r=$(bmc mut_$mut)
  tb=$(date +%s)
  case "$r" in
  *"asserted in frame"*) echo "mutation F_MUT_$mut: P$p fails: $r ($((tb - ta)) s)" ;;
  *)
    echo "mutation F_MUT_$mut: P$p NOT caught: $r"
    fail=1
    ;;
  esac
done
pdr_small
lock_cfg
echo "total $(($(date +%s) - t0)) s; $(uptime | sed 's/.*load/load/')"
exit $fail
