#!/usr/bin/env bash
# The C ABI from C and from Go: both equal the CLI on the same inputs; the C
# test also runs under valgrind (no leak, no invalid access); the README's C
# snippet is compiled and run. Needs gcc, valgrind, go.
# Usage: bash crates/capi/test.sh   (from anywhere)
set -euo pipefail
cd "$(dirname "$0")/../.."
# each step's wall and CPU seconds (scripts/steps.sh)
ZKMSM_STEP_SCOPE=capi
# shellcheck source=scripts/steps.sh
. scripts/steps.sh
# scripts/test.sh sets ZKMSM_BUILT=1 after building the workspace (the CLI
# and target/release/libzkmsm_capi.a among it): no second build
if [ "${ZKMSM_BUILT:-0}" != 1 ]; then
  cargo build --release -q -p zkmsm-capi -p zkmsm-cli
fi
zkmsm=$PWD/target/release/zkmsm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc=(gcc -std=c11 -O1 -g -Wall -Wextra -Werror -Icrates/capi/include)
libs=(target/release/libzkmsm_capi.a -lm -ldl -lpthread)
step "the C test compiled"
"${cc[@]}" crates/capi/c/test_capi.c "${libs[@]}" -o "$work/test_capi"

step "C ABI against the CLI: three curves, G1 and G2, 2^3 and 2^10 points"
for curve in bls12-377 bls12-381 bn254; do
  for group in g1 g2; do
    for log_n in 3 10; do
      g=(--curve $curve --group $group)
      "$zkmsm" gen "${g[@]}" --log-n $log_n --points "$work/p.bin" --scalars "$work/s.bin" 2>/dev/null
      expected=$("$zkmsm" msm "${g[@]}" --points "$work/p.bin" --scalars "$work/s.bin" 2>/dev/null | tail -1)
      echo "== C ABI, $curve $group, 2^$log_n points"
      "$work/test_capi" "${curve#bls12-}${group#g1}" "$work/p.bin" "$work/s.bin" "$expected"
    done
  done
done

if command -v valgrind >/dev/null; then
  for case in bls12-381:g1 bn254:g1 bls12-381:g2; do
    curve=${case%:*} group=${case#*:}
    step "C ABI under valgrind (memcheck: leaks, invalid reads/writes), $curve $group, 2^6 points"
    g=(--curve $curve --group $group)
    "$zkmsm" gen "${g[@]}" --log-n 6 --points "$work/p.bin" --scalars "$work/s.bin" 2>/dev/null
    expected=$("$zkmsm" msm "${g[@]}" --points "$work/p.bin" --scalars "$work/s.bin" 2>/dev/null | tail -1)
    # Rayon's pool threads live until exit: their memory is "possibly lost" or
    # "still reachable", never definite or indirect leaks, which are errors here.
    valgrind -q --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=definite,indirect \
      --show-leak-kinds=definite,indirect "$work/test_capi" "${curve#bls12-}${group#g1}" "$work/p.bin" "$work/s.bin" \
      "$expected"
  done
else
  echo "error: valgrind is needed for the C ABI memory test (apt-get install valgrind)" >&2
  exit 1
fi

step "README C snippet"
awk '/^```c$/{f=1;next} /^```$/{f=0} f' README.md > "$work/readme.c"
test -s "$work/readme.c"
"${cc[@]}" "$work/readme.c" "${libs[@]}" -o "$work/readme"
(cd "$work" && "$zkmsm" gen --curve bls12-381 --log-n 8 --points p.bin --scalars s.bin 2>/dev/null \
  && test "$(./readme)" = "$("$zkmsm" msm --curve bls12-381 --points p.bin --scalars s.bin 2>/dev/null | tail -1)")

step "Go through cgo (go vet, go test -race)"
# -race: the handle is shared by goroutines (MSM and Close at once)
(cd crates/capi/go && go vet ./... && go test -race -count=1 ./...)
step_end
