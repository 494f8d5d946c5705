"""The Python package against the CLI on the same inputs, its errors, and the
GIL being released during the MSM."""

import threading

import numpy as np
import pytest

import zkmsm

CURVES = ["bls12-377", "bls12-381", "bn254"]


@pytest.mark.parametrize("curve", CURVES)
@pytest.mark.parametrize("fmt", ["compressed", "uncompressed"])
def test_context_and_one_shot_equal_cli(inputs, curve, fmt):
    points, scalars, expected, _, _ = inputs(curve, fmt)
    ctx = zkmsm.Context(curve, points, format=fmt)
    assert len(ctx) == 1024 and ctx.curve == curve and ctx.format == fmt
    assert ctx.msm(scalars).hex() == expected
    assert ctx.msm(scalars).hex() == expected  # the context is reused
    assert zkmsm.msm(curve, points, scalars).hex() == expected
    assert zkmsm.msm(curve, points, scalars, format=fmt).hex() == expected
    # numpy inputs: points as uint8, scalars as (n, 32) uint8 and (n, 4) uint64
    p = np.frombuffer(points, dtype=np.uint8)
    s8 = np.frombuffer(scalars, dtype=np.uint8).reshape(-1, 32)
    s64 = s8.view(np.uint64)
    assert zkmsm.Context(curve, p, format=fmt).msm(s8).hex() == expected
    assert ctx.msm(s64).hex() == expected
    assert ctx.msm(bytearray(scalars)).hex() == expected
    assert ctx.msm(memoryview(scalars)).hex() == expected


def test_the_registry_names_the_curves():
    assert zkmsm.CURVES == tuple(CURVES) and zkmsm.GROUPS == ("g1", "g2")
    for curve in CURVES:
        for fmt in ["compressed", "uncompressed"]:
            assert zkmsm.point_size(curve, fmt, group="g2") == 2 * zkmsm.point_size(curve, fmt)


@pytest.mark.parametrize("curve", CURVES)
@pytest.mark.parametrize("fmt", ["compressed", "uncompressed"])
def test_g2_equals_cli(inputs, curve, fmt):
    points, scalars, expected, _, _ = inputs(curve, fmt, log_n=8, group="g2")
    ctx = zkmsm.Context(curve, points, format=fmt, group="g2")
    assert len(ctx) == 256 and (ctx.curve, ctx.group) == (curve, "g2")
    assert len(ctx.msm(scalars)) == zkmsm.point_size(curve, group="g2")
    assert ctx.msm(scalars).hex() == expected
    assert zkmsm.msm(curve, points, scalars, group="g2").hex() == expected
    # G2 points are not G1 points: the bytes do not pass for G1's
    with pytest.raises(zkmsm.ZkmsmError):
        zkmsm.msm(curve, points, scalars)
    # partial sums over shards combine in G2
    half = len(scalars) // 2
    zeros = bytes(half)
    a = zkmsm.msm(curve, points, scalars[:half] + zeros, group="g2")
    b = zkmsm.msm(curve, points, zeros + scalars[half:], group="g2")
    assert zkmsm.sum_points(curve, [a, b], group="g2").hex() == expected


def test_unknown_group_is_refused():
    with pytest.raises(zkmsm.ZkmsmError, match="unknown group"):
        zkmsm.point_size("bn254", group="g3")
    with pytest.raises(zkmsm.ZkmsmError, match="unknown curve"):
        zkmsm.point_size("bn255", group="g2")


@pytest.mark.parametrize("curve", CURVES)
def test_precompute_backends_and_prefix_equal_cli(inputs, curve):
    points, scalars, expected, _, _ = inputs(curve)
    for m in (1, 2, 4):
        assert zkmsm.Context(curve, points, precompute=m).msm(scalars).hex() == expected
    backends = ["xyzz", "batch-affine", "batch-affine-delayed"]
    if curve == "bls12-377":
        backends.append("twisted-edwards")
    for b in backends:
        ctx = zkmsm.Context(curve, points, backend=b, validate=False)
        assert ctx.msm(scalars).hex() == expected, b
    n = len(scalars) // 32
    prefixed = n.to_bytes(8, "little") + points
    assert zkmsm.Context(curve, prefixed).msm(scalars).hex() == expected
    assert zkmsm.msm(curve, prefixed, scalars).hex() == expected


@pytest.mark.parametrize("curve", CURVES)
def test_edge_inputs(inputs, curve):
    points, scalars, _, _, _ = inputs(curve, log_n=4)
    size = zkmsm.point_size(curve)
    identity = zkmsm.Context(curve, b"").msm(b"")
    assert len(identity) == size
    # zero scalars give the identity; r - 1 times P plus 1 times P too
    assert zkmsm.Context(curve, points).msm(bytes(32 * 16)) == identity
    r = {"bls12-377": 0x12AB655E9A2CA55660B44D1E5C37B00159AA76FED00000010A11800000000001,
         "bls12-381": 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001,
         "bn254": 0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001}[curve]
    p0 = points[:size]
    assert zkmsm.msm(curve, p0 + p0, zkmsm.scalars_from_ints([r - 1, 1])) == identity
    # the shard sum of the halves is the whole
    ctx = zkmsm.Context(curve, points)
    a = zkmsm.Context(curve, points[: 8 * size]).msm(scalars[: 8 * 32], encoding="uncompressed")
    b = zkmsm.Context(curve, points[8 * size:]).msm(scalars[8 * 32:])
    assert zkmsm.sum_points(curve, [a, b]) == ctx.msm(scalars)


def test_errors_carry_index_and_offset(inputs):
    curve = "bls12-381"
    points, scalars, _, _, _ = inputs(curve, log_n=4)
    ctx = zkmsm.Context(curve, points)
    bad = bytearray(scalars)
    bad[5 * 32: 6 * 32] = b"\xff" * 32
    with pytest.raises(zkmsm.ScalarError) as e:
        ctx.msm(bytes(bad))
    assert (e.value.index, e.value.offset) == (5, 160) and "scalar 5" in str(e.value)
    assert isinstance(e.value, ValueError) and isinstance(e.value, zkmsm.ZkmsmError)
    with pytest.raises(zkmsm.ScalarError) as e:
        ctx.msm(scalars[:-1])
    assert e.value.offset == 15 * 32
    with pytest.raises(zkmsm.LengthError):
        ctx.msm(scalars[:-32])
    with pytest.raises(zkmsm.LengthError):
        zkmsm.msm(curve, points, scalars[:-32])

    bad = bytearray(points)
    bad[3 * 48 + 10] ^= 0x55
    with pytest.raises(zkmsm.PointError) as e:
        zkmsm.Context(curve, bytes(bad))
    assert (e.value.index, e.value.offset) == (3, 144) and "point 3" in str(e.value)
    with pytest.raises(zkmsm.PointError) as e:
        zkmsm.Context(curve, points[:-7])
    assert e.value.index is None and e.value.offset == 15 * 48

    with pytest.raises(zkmsm.ZkmsmError, match="unknown curve"):
        zkmsm.Context("bls12-383", points)
    with pytest.raises(zkmsm.ZkmsmError, match="unknown format"):
        zkmsm.Context(curve, points, format="hex")
    with pytest.raises(zkmsm.ZkmsmError, match="twisted Edwards"):
        zkmsm.Context(curve, points, backend="twisted-edwards")
    with pytest.raises(zkmsm.ZkmsmError, match="precompute"):
        zkmsm.Context(curve, points, precompute=0)
    with pytest.raises(TypeError, match="C-contiguous"):
        ctx.msm(np.frombuffer(scalars * 2, dtype=np.uint8).reshape(-1, 32)[::2])
    with pytest.raises(TypeError, match="bytes or a buffer"):
        ctx.msm([1, 2, 3])


def test_gil_is_released_during_msm(cli, tmp_path):
    """While one thread runs an MSM (2^16 points, hundreds of ms), another
    thread runs Python code: with the GIL held it could only run after."""
    curve = "bls12-377"
    p, s = tmp_path / "p.bin", tmp_path / "s.bin"
    cli("gen", "--curve", curve, "--log-n", 16, "--points", p, "--scalars", s, "--point-format", "uncompressed")
    points, scalars = p.read_bytes(), s.read_bytes()
    ctx = zkmsm.Context(curve, points, format="uncompressed", validate=False)
    started = threading.Event()
    result = {}

    def work():
        started.set()
        result["point"] = ctx.msm(scalars)

    t = threading.Thread(target=work)
    t.start()
    started.wait()
    total = sum(range(10_000))  # Python bytecode: needs the GIL
    alive = t.is_alive()
    t.join()
    assert total == 49_995_000
    assert alive, "the main thread ran Python only after the MSM finished: the GIL was held"
    assert result["point"] == ctx.msm(scalars)


def test_bn254_evm_layout(inputs):
    """Points in the EIP-196/197 layout (big-endian x, y) give the CLI's
    result; a result in that layout is the compressed one's point."""
    points, scalars, expected, _, _ = inputs("bn254", "evm")
    assert len(points) == 1024 * 64
    ctx = zkmsm.Context("bn254", points, format="evm")
    assert ctx.format == "evm" and ctx.msm(scalars).hex() == expected
    assert zkmsm.msm("bn254", points, scalars, format="evm").hex() == expected
    raw = ctx.msm(scalars, encoding="evm")
    assert len(raw) == 64
    assert zkmsm.Context("bn254", raw, format="evm").msm((1).to_bytes(32, "little")).hex() == expected
    # the identity is (0, 0); its compressed encoding carries arkworks' infinity flag
    assert ctx.msm(bytes(32 * 1024), encoding="evm") == bytes(64)
    with pytest.raises(zkmsm.PointError) as e:
        zkmsm.Context("bn254", points[:64] + b"\xff" * 64, format="evm")
    assert (e.value.index, e.value.offset) == (1, 64)
    # the EVM's scalars: big-endian 32-byte words
    be = b"".join(scalars[i : i + 32][::-1] for i in range(0, len(scalars), 32))
    assert zkmsm.Context("bn254", points, format="evm", scalar_endian="big").msm(be).hex() == expected
    assert zkmsm.msm("bn254", points, be, format="evm", scalar_endian="big").hex() == expected
    with pytest.raises(zkmsm.ScalarError) as e:
        zkmsm.msm("bn254", points, be[:32] + b"\xff" + be[33:], format="evm", scalar_endian="big")
    assert (e.value.index, e.value.offset) == (1, 32)
    with pytest.raises(zkmsm.ZkmsmError, match="unknown scalar_endian"):
        zkmsm.msm("bn254", points, be, format="evm", scalar_endian="middle")
