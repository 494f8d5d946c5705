#!/usr/bin/env python3
"""DSP48E2 count of zkmsm's multiplier structures, by calculation.

Counts 26 x 17 tiles (one DSP48E2 each) the way rtl/src/zk_kmul.sv and
zk_mul_tiled.sv build them: LEVELS of additive Karatsuba (halves H = (W+1)/2,
middle product on H+1 bits), base multipliers of ceil(W/26) x ceil(W/17)
tiles, and, for a constant b, no tile where b's 17-bit slice is zero. Then
searches the "short product" alternative for the reduction's m*q: since the
low 384 bits of m*q are known (2^384 - t_lo), any non-negative part S of m*q
with S < 2^384 may be dropped (the carry out of the dropped part is then
one comparison of the computed low half with the known one); quadrants are
split at 1/4, 1/2 or 3/4 of either side, each either dropped, tiled, or
Karatsuba'd. Not a synthesis: for m*q Yosys built 152 DSPs where this
counts 156 (the 4 not investigated).

    python3 rtl/synth/dsp_floor.py
"""
import functools

Q = 0x01AE3A4617C510EAC63B05C06CA1493B1A22D9F300F5138F1EF3622FBA094800170B5D44300000008508C00000000001
TA, TB = 26, 17


def cdiv(a, b):
    return -(-a // b)


def slices(bv, w):
    """Non-zero TB-bit slices of a w-bit constant (all of them: None)."""
    n = cdiv(w, TB)
    return n if bv is None else sum(1 for j in range(n) if (bv >> (j * TB)) & ((1 << TB) - 1))


def kmul(w, levels, bv=None):
    """Tiles of zk_kmul (W = w, LEVELS = levels; bv: the constant b or None)."""
    if levels == 0:
        return cdiv(w, TA) * slices(bv, w)
    h = (w + 1) // 2
    lo = None if bv is None else bv & ((1 << h) - 1)
    hi = None if bv is None else bv >> h
    mid = None if bv is None else lo + hi
    return kmul(h, levels - 1, lo) + kmul(w - h, levels - 1, hi) + kmul(h + 1, levels - 1, mid)


@functools.lru_cache(None)
def short(alo, wa, blo, wb, lim, depth=0):
    """(tiles, dropped blocks): the least tiles for the part of
    m[alo:alo+wa] * q[blo:blo+wb] that must be computed when blocks below
    2^lim may be dropped."""
    if wa <= 0 or wb <= 0:
        return (0, 0)
    if alo + wa + blo + wb <= lim:
        return (0, 1)
    bv = (Q >> blo) & ((1 << wb) - 1)
    if bv == 0:
        return (0, 0)
    best = (cdiv(wa, TA) * slices(bv, wb), 0)
    w = max(wa, wb)
    for lev in (1, 2, 3):
        if w >> lev >= 20:
            best = min(best, (kmul(w, lev, bv), 0))
    if depth < 5 and w >= 40:
        for fa in (1, 2, 3):
            for fb in (1, 2, 3):
                ha, hb = wa * fa // 4, wb * fb // 4
                quads = ((alo, ha, blo, hb), (alo + ha, wa - ha, blo, hb), (alo, ha, blo + hb, wb - hb),
                         (alo + ha, wa - ha, blo + hb, wb - hb))
                parts = [short(*b, lim, depth + 1) for b in quads]
                best = min(best, (sum(p[0] for p in parts), sum(p[1] for p in parts)))
    return best


def main():
    ab = kmul(384, 3)
    mq = kmul(384, 3, Q)
    print(f"a*b, 384 bits, 3 levels: {ab} tiles (2 levels {kmul(384, 2)}, 4 levels {kmul(384, 4)})")
    print(f"m*q, q constant, 3 levels: {mq} tiles (synthesized: 152)")
    # dropped blocks each below 2^378: S < 2^384 if at most 64 are dropped
    tiles, drops = short(0, 384, 0, 384, 378)
    assert drops <= 64, drops
    print(f"m*q as a short product (dropped part < 2^384): {tiles} tiles ({drops} blocks dropped)")
    # five cores at <= 80% of the U250 (docs/RTL.md "U250 budget": the
    # four-core top without adders 111,821 LUT incl. LUTRAM/SRL, 42,522 FF)
    dsp = 0.8 * 12288 / 5
    lut = (0.8 * 1728000 - 111821 * 5 / 4) / 5
    print(f"five cores at <= 80%: adder <= {dsp:.0f} DSP48E2 (<= {dsp / 7:.1f} per product), "
          f"LUT + SRL <= {lut:,.0f}")
    print(f"this structure's floor: 7 x ({ab} + {mq}) = {7 * (ab + mq)} DSP48E2 per adder")


if __name__ == "__main__":
    main()
