#!/usr/bin/env bash
# Several Ray hosts on one machine: the head in the root network namespace,
# K worker nodes each in its own namespace (ip netns), joined by veth pairs
# on a private bridge (10.77.0.0/24, no route out); then the sharded MSM
# over the cluster (`python -m zkmsm.distributed --address`) against
# `zkmsm msm` on the same files. Needs root (CAP_NET_ADMIN).
#
#   cargo build --release -p zkmsm-cli && bash python/test.sh   # target/pyvenv
#   bash bench/scale/netns_cluster.sh [LOG_N] [K]               # default 16 3
#
# Every node is started with `ray start --block` in its own process group
# and stopped by that group's id on exit (never `ray stop`, which would stop
# every Ray cluster on the machine, others' included).
set -euo pipefail
cd "$(dirname "$0")/../.."
log_n=${1:-16}
k=${2:-3}
py=$PWD/target/pyvenv/bin/python
ray=$PWD/target/pyvenv/bin/ray
zkmsm=$PWD/target/release/zkmsm
net=10.77.0
# The links are private to this machine (a bridge with no route out), so the
# test cluster runs without Ray's token authentication (its documented opt-out).
export RAY_AUTH_MODE=disabled
port=6390
work=$(mktemp -d /tmp/zkscale-netns.XXXXXX)
pgids=()

cleanup() {
  set +e
  for g in "${pgids[@]}"; do kill -TERM -- "-$g" 2>/dev/null; done
  sleep 3
  for g in "${pgids[@]}"; do kill -KILL -- "-$g" 2>/dev/null; done
  for i in $(seq 1 "$k"); do
    ip netns del "zkscale-$i" 2>/dev/null
    ip link del "zkh$i" 2>/dev/null
  done
  ip link del zkbr0 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# The private network: a bridge with the head's address, one namespace a node.
ip link add zkbr0 type bridge
ip addr add "$net.1/24" dev zkbr0
ip link set zkbr0 up
for i in $(seq 1 "$k"); do
  ip netns add "zkscale-$i"
  ip link add "zkh$i" type veth peer name eth0 netns "zkscale-$i"
  ip link set "zkh$i" master zkbr0 up
  ip netns exec "zkscale-$i" ip addr add "$net.$((10 + i))/24" dev eth0
  ip netns exec "zkscale-$i" ip link set eth0 up
  ip netns exec "zkscale-$i" ip link set lo up
done

start_node() {  # start_node LOG_NAME COMMAND...: in its own process group
  local name=$1
  shift
  setsid "$@" >"$work/$name.log" 2>&1 &
  pgids+=("$!")
}
common=(--block --num-cpus 1 --object-store-memory 200000000 --disable-usage-stats --include-log-monitor false)
start_node head "$ray" start --head --node-ip-address "$net.1" --port "$port" --include-dashboard false \
  --temp-dir "$work/ray-head" "${common[@]}"
sleep 8
for i in $(seq 1 "$k"); do
  start_node "node$i" ip netns exec "zkscale-$i" "$ray" start --address "$net.1:$port" \
    --node-ip-address "$net.$((10 + i))" --temp-dir "$work/ray-$i" "${common[@]}"
done
# wait for the K worker nodes to join
for _ in $(seq 1 "${WAIT_TRIES:-20}"); do
  alive=$(timeout 60 "$py" - "$net.1:$port" <<'EOF' 2>>"$work/probe.err" || echo 0
import sys, ray
ray.init(address=sys.argv[1], logging_level="ERROR", log_to_driver=False)
print(sum(1 for n in ray.nodes() if n["Alive"]))
EOF
)
  echo "nodes alive: $alive (head + $k in namespaces)"
  [ "$alive" -ge $((k + 1)) ] && break
  sleep 2
done
if [ "$alive" -lt $((k + 1)) ]; then
  tail -n 8 "$work"/*.log "$work/probe.err" >&2
  exit 1
fi

"$zkmsm" gen --curve bls12-381 --log-n "$log_n" --points "$work/p.bin" --scalars "$work/s.bin" \
  --point-format uncompressed 2>/dev/null
want=$("$zkmsm" msm --curve bls12-381 --points "$work/p.bin" --scalars "$work/s.bin" 2>/dev/null | tail -1)
out=$("$py" -m zkmsm.distributed --curve bls12-381 --points "$work/p.bin" --scalars "$work/s.bin" \
  --workers "$k" --address "$net.1:$port" --repeat 3 --json 2>"$work/driver.err" | tail -1)
echo "$out"
got=$(printf '%s' "$out" | "$py" -c 'import json,sys; print(json.load(sys.stdin)["result"])')
echo "zkmsm msm:        $want"
echo "sharded (netns):  $got"
test "$got" = "$want"
echo "netns cluster: equal"
