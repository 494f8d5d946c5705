#!/usr/bin/env bash
# A BN254 input from outside zkmsm: a KZG setup made by gnark-crypto
# (kzg.NewSRS), read by `zkmsm msm` in gnark's own uncompressed
# serialization (G1Affine.RawBytes, the EIP-196/197 layout: --point-format
# evm), its MSM against gnark's commitment to the same polynomial
# (kzg.Commit). Needs go (the module proxy for gnark-crypto) and python3.
# Usage: bash crates/checks/gnark-srs/check.sh [LOG_N]   (from anywhere)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
log_n=${1:-12}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$here" && go build -o "$work/gnark-srs" .)
gnark=$("$work/gnark-srs" --log-n "$log_n" --points "$work/p.bin" --scalars "$work/s.bin")
ours=$("$root/target/release/zkmsm" msm --curve bn254 --points "$work/p.bin" --point-format evm \
  --scalars "$work/s.bin" 2>/dev/null | tail -1)
# gnark's RawBytes (x, y big-endian) as arkworks' compressed encoding, what zkmsm prints
want=$(python3 - "$gnark" <<'PY'
import sys
q = 0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47
raw = bytes.fromhex(sys.argv[1])
x, y = int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
if x == 0 and y == 0:
    out = bytearray(32)
    out[31] = 0x40
else:
    out = bytearray(x.to_bytes(32, "little"))
    if y > (q - 1) // 2:
        out[31] |= 0x80
print(out.hex())
PY
)
if [ "$ours" != "$want" ]; then
  echo "FAILED: gnark-crypto's KZG setup (2^$log_n): zkmsm $ours, gnark's commitment $want" >&2
  exit 1
fi
echo "gnark-crypto KZG setup, 2^$log_n points (RawBytes read as --point-format evm): zkmsm's MSM = gnark's commitment ($want)"
