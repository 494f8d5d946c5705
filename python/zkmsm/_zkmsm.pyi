"""Type stubs for the zkmsm extension module."""

from typing import Optional, Sequence, Tuple, Union

from typing_extensions import Buffer

BytesLike = Union[bytes, bytearray, memoryview, Buffer]

__version__: str
CURVES: Tuple[str, ...]
"""The curves, by the names every function takes (the library's registry)."""
GROUPS: Tuple[str, ...]
"""The groups: "g1" (the default) and "g2"."""

class ZkmsmError(ValueError):
    """A bad input. `index`: the bad point or scalar; `offset`: its byte offset (or None).
    Defined in zkmsm._errors (so that it pickles), re-exported here."""

    index: Optional[int]
    offset: Optional[int]
    def __init__(self, message: str = "", index: Optional[int] = None, offset: Optional[int] = None) -> None: ...

class PointError(ZkmsmError):
    """The points are malformed, off the curve or outside the prime-order subgroup."""

class ScalarError(ZkmsmError):
    """The scalars are malformed or not below the group order r."""

class LengthError(ZkmsmError):
    """Points and scalars differ in number."""

class Context:
    """Points decoded, validated and prepared once; then MSMs on scalars."""

    def __init__(
        self,
        curve: str,
        points: BytesLike,
        format: str = "compressed",
        precompute: int = 1,
        validate: bool = True,
        backend: str = "auto",
        scalar_endian: str = "little",
        group: str = "g1",
    ) -> None:
        """`curve`: "bls12-377", "bls12-381" or "bn254"; `group`: "g1" or "g2"; `format`: "compressed", "evm" or
        "uncompressed"; `precompute` > 1: fixed-base mode with that many
        shifted copies of the points; `validate`: check curve and subgroup
        (as the CLI does; with False the result for points off the curve or
        outside the subgroup is unspecified); `backend`: "auto", "xyzz", "batch-affine",
        "batch-affine-delayed", "twisted-edwards" (BLS12-377); `scalar_endian`:
        "little" (default) or "big" (the EVM's order) for the scalars of `msm`."""

    def msm(self, scalars: BytesLike, encoding: str = "compressed") -> bytes:
        """sum_i scalars[i] * points[i] as the encoded point (compressed: point_size(curve, group=group) bytes)."""

    def __len__(self) -> int: ...
    @property
    def curve(self) -> str: ...
    @property
    def group(self) -> str: ...
    @property
    def format(self) -> str: ...
    @property
    def backend(self) -> str: ...

def msm(
    curve: str,
    points: BytesLike,
    scalars: BytesLike,
    format: Optional[str] = None,
    scalar_endian: str = "little",
    group: str = "g1",
) -> bytes:
    """One-shot MSM as `zkmsm msm` reads two files (format detected from the sizes when None;
    `scalar_endian` "big": 32-byte big-endian scalars, the EVM's order)."""

def sum_points(curve: str, points: Sequence[bytes], group: str = "g1") -> bytes:
    """The sum of encoded points (compressed or uncompressed), compressed."""

def point_size(curve: str, format: str = "compressed", group: str = "g1") -> int:
    """Bytes of one encoded point."""
