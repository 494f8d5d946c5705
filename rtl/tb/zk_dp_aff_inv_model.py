#!/usr/bin/env python3
"""The almost-inverse step of rtl/src/zk_dp_aff_inv.sv, step for step, in
Python integers, against pow(a, -1, q).

Checks, for every odd prime q < 2^(NB-2) at NB = 3..11 and every operand
0 < a < 2q, a != q, and for BLS12-381, BLS12-377 (NB 384) and BN254
(NB 256) on edge and random operands:
  - after 2 NB + 1 steps x2 = 2^(2 NB) / a mod q, canonical;
  - the gcd phase ends within 2 QBITS + 1 steps;
  - x1, x2 <= q while it runs (no reduction needed).
Usage: python3 rtl/tb/zk_dp_aff_inv_model.py [RANDOM_PER_CURVE] (default 3000).
Exit status 1 on the first failure."""

import random
import sys


def invert(a, q, nb):
    """(result, gcd steps, largest x) of the unit's 2 NB + 1 steps."""
    u, v, x1, x2, gcd, steps, big = q, a, 0, 1, True, 0, 0
    for _ in range(2 * nb + 1):
        if not gcd:
            d = 2 * x2 - q
            x2 = 2 * x2 if d < 0 else d
            continue
        steps += 1
        if u % 2 == 0:
            u, x2 = u // 2, 2 * x2
        elif v % 2 == 0:
            v, x1 = v // 2, 2 * x1
        elif u == v:
            gcd = False
        elif u > v:
            u, x1, x2 = (u - v) // 2, x1 + x2, 2 * x2
        else:
            v, x2, x1 = (v - u) // 2, x1 + x2, 2 * x1
        big = max(big, x1, x2)
    if gcd:
        raise AssertionError(f"q = {q:#x}, a = {a:#x}: gcd phase not done in {2 * nb + 1} steps")
    return x2, steps, big


def check(a, q, nb):
    r, steps, big = invert(a, q, nb)
    want = pow(2, 2 * nb, q) * pow(a, -1, q) % q
    if r != want or steps > 2 * q.bit_length() + 1 or big > q:
        raise AssertionError(f"q = {q:#x}, a = {a:#x}: result {r:#x} (want {want:#x}), {steps} gcd steps, largest x {big:#x}")
    return steps


def primes(below):
    sieve = bytearray([1]) * below
    sieve[:2] = b"\0\0"
    for i in range(2, int(below**0.5) + 1):
        if sieve[i]:
            sieve[i * i :: i] = bytearray(len(sieve[i * i :: i]))
    return [p for p in range(3, below) if sieve[p]]


CURVES = {
    "BLS12-381": (0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB, 384),
    "BLS12-377": (0x01AE3A4617C510EAC63B05C06CA1493B1A22D9F300F5138F1EF3622FBA094800170B5D44300000008508C00000000001, 384),
    "BN254": (0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47, 256),
}


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    small = 0
    for nb in range(3, 12):
        for q in primes(1 << (nb - 2)):
            for a in range(1, 2 * q):
                if a != q:
                    check(a, q, nb)
                    small += 1
    rng = random.Random(1)
    for name, (q, nb) in CURVES.items():
        edge = [1, 2, 3, q - 1, q + 1, 2 * q - 1, 1 << (q.bit_length() - 1), (1 << q.bit_length()) - 1 - q]
        ops = [a for a in edge if 0 < a < 2 * q and a != q] + [rng.randrange(1, 2 * q) for _ in range(n)]
        most = max(check(a, q, nb) for a in ops if a != q)
        print(f"zk_dp_aff_inv_model: {name}: {len(ops)} operands, at most {most} gcd steps of {2 * q.bit_length() + 1}")
    print(f"zk_dp_aff_inv_model: {small} small-modulus inversions (every prime q < 2^(NB-2), NB 3..11, every a), 0 wrong")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print(f"zk_dp_aff_inv_model: FAIL {e}")
        sys.exit(1)
