"""Hostile use of the Python entry points (no Ray): exceptions that pickle
with their class and attributes, inputs of the wrong element type, memory
that cannot be had, strict integer and parameter checks, the scalars' length
prefix (one rule for every entry point), the EVM format (BN254 and BLS12-381), and
sum_points releasing the GIL."""

import concurrent.futures
import multiprocessing
import pickle
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import zkmsm
from zkmsm.distributed import as_scalar_array

CURVE = "bls12-381"
R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001


def bad_scalars(scalars, index):
    bad = bytearray(scalars)
    bad[index * 32:(index + 1) * 32] = b"\xff" * 32
    return bytes(bad)


def test_exceptions_pickle_with_class_and_attributes(inputs):
    points, scalars, _, _, _ = inputs(CURVE, log_n=4)
    with pytest.raises(zkmsm.ScalarError) as raised:
        zkmsm.Context(CURVE, points).msm(bad_scalars(scalars, 5))
    for e in (raised.value, zkmsm.PointError("points: x", 3, 144), zkmsm.LengthError("n"), zkmsm.ZkmsmError("z")):
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is type(e) and str(back) == str(e)
        assert (back.index, back.offset) == (e.index, e.offset)
    assert (raised.value.index, raised.value.offset) == (5, 160)
    assert zkmsm.ScalarError.__module__.startswith("zkmsm")
    assert zkmsm._zkmsm.ScalarError is zkmsm.ScalarError


def test_errors_cross_process_pools(inputs):
    points, scalars, _, _, _ = inputs(CURVE, log_n=4)
    # spawn: a forked child of a process whose rayon pool runs has no pool threads
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        future = pool.submit(zkmsm.msm, CURVE, points, bad_scalars(scalars, 7))
        with pytest.raises(zkmsm.ScalarError) as e:
            future.result()
    assert (e.value.index, e.value.offset) == (7, 224) and "scalar 7" in str(e.value)


WRONG_DTYPES = [
    np.zeros((16, 4), dtype=object),
    np.zeros((16, 4), dtype=np.float64),
    np.zeros((16, 2), dtype=np.complex128),
    np.zeros((16, 4), dtype=">u8"),
    np.zeros((16, 4), dtype=np.int64),
    np.zeros((16, 32), dtype=np.int8),
    np.zeros((16, 32), dtype=np.bool_),
    np.zeros((16, 8), dtype=np.uint32),
]


@pytest.mark.parametrize("array", WRONG_DTYPES, ids=lambda a: a.dtype.str)
def test_only_documented_element_types(inputs, array):
    points, _, _, _, _ = inputs(CURVE, log_n=4)
    ctx = zkmsm.Context(CURVE, points)
    with pytest.raises(TypeError, match="scalars must be"):
        ctx.msm(array)
    with pytest.raises(TypeError, match="scalars must be"):
        zkmsm.msm(CURVE, points, array)
    with pytest.raises(TypeError, match="scalars must be"):
        as_scalar_array(array)
    with pytest.raises(TypeError, match="points must be"):
        zkmsm.Context(CURVE, np.zeros(16 * 48 // array.itemsize, dtype=array.dtype))


def test_documented_element_types_are_accepted(inputs):
    points, scalars, expected, _, _ = inputs(CURVE, log_n=4)
    ctx = zkmsm.Context(CURVE, np.frombuffer(points, dtype=np.uint8))
    s8 = np.frombuffer(scalars, dtype=np.uint8).reshape(-1, 32)
    for s in (s8, s8.view("<u8"), s8.view(np.uint64), memoryview(scalars), bytearray(scalars)):
        assert ctx.msm(s).hex() == expected
        assert as_scalar_array(s).tobytes() == scalars
    # uint64 points are not documented: only bytes
    with pytest.raises(TypeError, match="points must be"):
        zkmsm.Context(CURVE, np.frombuffer(points, dtype=np.uint64))


def test_uint64_scalars_are_little_endian_only(inputs):
    """uint64 limbs are little-endian words: with scalar_endian="big" they
    are refused, not read as big-endian bytes (other integers)."""
    points, scalars, expected, _, _ = inputs(CURVE, log_n=4)
    big = b"".join(scalars[i:i + 32][::-1] for i in range(0, len(scalars), 32))
    ctx = zkmsm.Context(CURVE, points, scalar_endian="big")
    assert ctx.msm(big).hex() == expected
    assert ctx.msm(np.frombuffer(big, dtype=np.uint8).reshape(-1, 32)).hex() == expected
    limbs = np.frombuffer(big, dtype=np.uint8).reshape(-1, 32).view(np.uint64)
    with pytest.raises(TypeError, match="scalars must be .*big-endian scalars"):
        ctx.msm(limbs)
    with pytest.raises(TypeError, match="scalars must be .*big-endian scalars"):
        zkmsm.msm(CURVE, points, limbs, scalar_endian="big")
    assert zkmsm.msm(CURVE, points, big, scalar_endian="big").hex() == expected


def test_precompute_beyond_the_windows_is_as_many_copies(inputs):
    """More copies than the plan has windows buy nothing and are taken as
    that many: built (not refused for the memory 2^31 copies would take),
    with the same result."""
    points, scalars, expected, _, _ = inputs(CURVE, log_n=4)
    for m in (255, 2**31, 2**32 - 1):
        assert zkmsm.Context(CURVE, points, precompute=m).msm(scalars).hex() == expected


def test_out_of_memory_is_memory_error():
    """Under an address-space limit of 3 GB: 2^25 points (1.5 GiB of zeros)
    and 2^19 points with as many precomputed copies as their plan has windows
    (2^31 asked; 4.5 GB of work) raise MemoryError, no abort."""
    script = textwrap.dedent("""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (3_000_000_000, 3_000_000_000))
        import numpy as np
        import zkmsm
        for make in (lambda: zkmsm.Context("bls12-381", np.zeros((2**25, 48), np.uint8)),
                     lambda: zkmsm.Context("bls12-381", bytes(2**25 * 48)),
                     lambda: zkmsm.Context("bls12-381", bytes(2**19 * 48), precompute=2**31)):
            try:
                make()
                print("no error")
            except MemoryError as e:
                print("MemoryError:", e)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 3 and all(line.startswith("MemoryError: points: ") for line in lines), out.stdout


def test_scalars_from_ints_is_strict():
    assert zkmsm.scalars_from_ints([0, 1, R - 1, np.uint64(5)]) == b"".join(
        v.to_bytes(32, "little") for v in (0, 1, R - 1, 5))
    for value, error, index in ((-1, zkmsm.ScalarError, 1), (2**256, zkmsm.ScalarError, 1)):
        with pytest.raises(error) as e:
            zkmsm.scalars_from_ints([3, value])
        assert e.value.index == index and "scalar 1" in str(e.value)
    for value in (1.9, "5", True, None):
        with pytest.raises(TypeError, match="scalar 1"):
            zkmsm.scalars_from_ints([3, value])


def test_parameters_are_named(inputs):
    points, _, _, _, _ = inputs(CURVE, log_n=4)
    for bad in (-1, 0, 2**32, 2**70):
        with pytest.raises(zkmsm.ZkmsmError, match="precompute must be between 1 and"):
            zkmsm.Context(CURVE, points, precompute=bad)
    for bad in ("2", 2.0, True):
        with pytest.raises(TypeError, match="precompute must be an int"):
            zkmsm.Context(CURVE, points, precompute=bad)
    from zkmsm.distributed import ShardedMSM
    for bad in ("2", 2.5, None):
        with pytest.raises(TypeError, match="workers must be an int"):
            ShardedMSM(CURVE, "unused.bin", workers=bad)


def test_one_shot_takes_the_scalars_length_prefix(inputs):
    points, scalars, expected, _, _ = inputs(CURVE, log_n=4)
    n = len(scalars) // 32
    assert zkmsm.msm(CURVE, points, n.to_bytes(8, "little") + scalars).hex() == expected
    with pytest.raises(zkmsm.ScalarError, match="length prefix would say 16, it says 17") as e:
        zkmsm.msm(CURVE, points, (n + 1).to_bytes(8, "little") + scalars)
    assert e.value.offset == 0


def test_context_msm_takes_the_scalars_length_prefix(inputs):
    # one rule for every entry point: Context.msm blamed "truncated scalar"
    # at the end of the input
    points, scalars, expected, _, _ = inputs(CURVE, log_n=4)
    n = len(scalars) // 32
    ctx = zkmsm.Context(CURVE, points)
    assert ctx.msm(n.to_bytes(8, "little") + scalars).hex() == expected
    with pytest.raises(zkmsm.ScalarError, match="length prefix would say 16, it says 17") as e:
        ctx.msm((n + 1).to_bytes(8, "little") + scalars)
    assert e.value.offset == 0


def test_evm_format_where_ethereum_has_one(inputs):
    # EIP-196/197 on BN254, EIP-2537 on BLS12-381; BLS12-377 has none
    points, scalars, expected, _, _ = inputs("bls12-377", log_n=4)
    for call in [
        lambda: zkmsm.Context("bls12-377", points, format="evm"),
        lambda: zkmsm.msm("bls12-377", points, scalars, format="evm"),
        lambda: zkmsm.point_size("bls12-377", "evm"),
        lambda: zkmsm.Context("bls12-377", points).msm(scalars, encoding="evm"),
    ]:
        with pytest.raises(zkmsm.ZkmsmError, match="bls12-377 has no EVM point layout"):
            call()
    assert zkmsm.point_size("bn254", "evm") == 64
    assert zkmsm.point_size("bls12-381", "evm") == 128


def test_sum_points_releases_the_gil(inputs):
    points, _, _, _, _ = inputs(CURVE, log_n=4)
    partials = [points[:48]] * 20_000  # each decoded and subgroup-checked: about a second in all
    started = threading.Event()
    result = {}

    def work():
        started.set()
        result["sum"] = zkmsm.sum_points(CURVE, partials)

    t = threading.Thread(target=work)
    t.start()
    started.wait()
    total = sum(range(10_000))  # Python bytecode: needs the GIL
    alive = t.is_alive()
    t.join()
    assert total == 49_995_000
    assert alive, "the main thread ran Python only after sum_points finished: the GIL was held"
    assert result["sum"] == zkmsm.msm(CURVE, points[:48], (20_000).to_bytes(32, "little"))
