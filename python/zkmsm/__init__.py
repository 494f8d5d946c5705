"""zkmsm: multi-scalar multiplication sum_i s_i * P_i on G1 and G2 of BLS12-377, BLS12-381 and BN254.

Points are the CLI's format: concatenated arkworks-canonical affine
encodings ("compressed" 48 bytes or "uncompressed" 96 bytes a point on the
BLS12 curves' G1, 32 and 64 on BN254's, twice that on G2: group="g2") or
the EVM's ("evm"); an 8-byte
little-endian length prefix is accepted. Scalars are 32-byte little-endian
integers below the group order r (big-endian with scalar_endian="big"). Both
may be given as bytes or as any C-contiguous buffer (a numpy array of shape
(n, 32) uint8, or (n, 4) uint64 for little-endian scalars, ...). Results are
the compressed encoding of the point as bytes: the bytes `zkmsm msm` prints
in hex.

    import zkmsm
    ctx = zkmsm.Context("bls12-381", points)    # decode, validate, prepare once
    result = ctx.msm(scalars)                   # 48 bytes (32 on BN254); the GIL is released meanwhile
    zkmsm.msm("bls12-381", points, scalars)     # one-shot
    zkmsm.Context("bls12-381", g2_points, group="g2")  # G2: 96-byte results

Errors are exceptions deriving from ZkmsmError (a ValueError) with `index`
and `offset` attributes naming the bad point or scalar and its byte offset;
they pickle (to other processes, through Ray) with their class and
attributes. Inputs of another element type (float, object, big-endian
arrays) are a TypeError; memory the inputs would need and the process cannot
get is a MemoryError. With `validate=False` the points are trusted: for
points off the curve or outside the subgroup the result is unspecified (it
may differ between backends and precompute settings).
"""

import operator
from typing import Iterable

from ._errors import LengthError, PointError, ScalarError, ZkmsmError
from ._zkmsm import (
    CURVES,
    GROUPS,
    Context,
    __version__,
    msm,
    point_size,
    sum_points,
)

__all__ = [
    "Context",
    "LengthError",
    "PointError",
    "ScalarError",
    "ZkmsmError",
    "__version__",
    "msm",
    "point_size",
    "scalars_from_ints",
    "sum_points",
    "SCALAR_BYTES",
    "CURVES",
    "GROUPS",
]

SCALAR_BYTES = 32
"""Bytes of one scalar."""



def scalars_from_ints(values: Iterable[int]) -> bytes:
    """Python integers (each in [0, r)) as the 32-byte little-endian scalars.
    Only integers are taken (int, numpy integers; not bool, float or str:
    TypeError naming the index); one outside [0, 2^256) is a ScalarError
    naming its index (values in [r, 2^256) are refused by the MSM)."""
    out = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise TypeError(f"scalar {i}: {v!r} is a {type(v).__name__}, not an int")
        v = operator.index(v)
        if not 0 <= v < 1 << (8 * SCALAR_BYTES):
            raise ScalarError(f"scalar {i}: {v} is outside [0, 2^256)", i, i * SCALAR_BYTES)
        out.append(v.to_bytes(SCALAR_BYTES, "little"))
    return b"".join(out)
