"""The sharded MSM (zkmsm.distributed) on a local Ray cluster with 3 worker
processes: equal to the single-process MSM and the CLI on both curves at
2^16, the `python -m zkmsm.distributed` command with the CLI's contract, a
worker SIGKILLed in the middle of an MSM, missing and corrupt shard files,
and throughput mode."""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import zkmsm

# Ray is installed by python/test.sh: a missing Ray fails here rather than
# skipping the tests silently (ZKMSM_SKIP_RAY=1 skips them on purpose).
ray = pytest.importorskip("ray") if os.environ.get("ZKMSM_SKIP_RAY") else __import__("ray")
from zkmsm.distributed import ShardedMSM, ShardError  # noqa: E402

WORKERS = 3


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


@pytest.mark.parametrize("curve", ["bls12-377", "bls12-381", "bn254"])
def test_sharded_equals_single_process_and_cli(cluster, inputs, curve):
    points, scalars, expected, ppath, _ = inputs(curve, "uncompressed", log_n=16)
    sharded = ShardedMSM(curve, str(ppath), workers=WORKERS, n=len(scalars) // 32)
    try:
        assert len(sharded.ranges) == WORKERS and len(set(sharded.pids())) == WORKERS
        single = zkmsm.Context(curve, points, format="uncompressed", validate=False).msm(scalars)
        assert single.hex() == expected
        assert sharded.msm(scalars).hex() == expected
        assert sharded.msm(np.frombuffer(scalars, dtype=np.uint8).reshape(-1, 32)).hex() == expected
        # throughput mode: the same answers, in order
        rng = np.random.default_rng(7)
        batches = [np.frombuffer(scalars, dtype=np.uint8).reshape(-1, 32).copy() for _ in range(3)]
        for b in batches[1:]:
            b[:, 31] = 0  # keep below r
            b[:, :31] = rng.integers(0, 256, size=(b.shape[0], 31), dtype=np.uint8)
        want = [sharded.msm(b) for b in batches]
        assert list(sharded.msm_many(batches)) == want
        assert want[1] == zkmsm.Context(curve, points, format="uncompressed", validate=False).msm(batches[1])
    finally:
        sharded.shutdown()


def test_command_has_the_cli_contract(cluster, inputs):
    points, scalars, expected, ppath, spath = inputs("bls12-381", "uncompressed", log_n=16)
    out = subprocess.run(
        [sys.executable, "-m", "zkmsm.distributed", "--curve", "bls12-381", "--points", str(ppath),
         "--scalars", str(spath), "--workers", str(WORKERS), "--address", cluster],
        check=True, capture_output=True, text=True)
    assert out.stdout.strip().splitlines()[-1] == expected


@pytest.mark.parametrize("curve,group,fmt,endian", [
    ("bls12-381", "g2", "compressed", "little"),
    ("bn254", "g2", "evm", "big"),
    ("bn254", "g1", "evm", "big"),
    ("bls12-381", "g1", "evm", "little"),
])
def test_command_takes_the_cli_options_across_shards(cluster, cli, tmp_path, curve, group, fmt, endian):
    """--group, --point-format evm and --scalar-endian as `zkmsm msm` takes them."""
    p, s = tmp_path / "p.bin", tmp_path / "s.bin"
    opts = ["--curve", curve, "--group", group]
    cli("gen", *opts, "--log-n", 9, "--points", p, "--scalars", s, "--point-format", fmt, "--scalar-endian", endian)
    expected = cli("msm", *opts, "--points", p, "--scalars", s, "--point-format", fmt, "--scalar-endian", endian)
    out = subprocess.run(
        [sys.executable, "-m", "zkmsm.distributed", *opts, "--points", str(p), "--scalars", str(s),
         "--point-format", fmt, "--scalar-endian", endian, "--workers", str(WORKERS), "--address", cluster],
        capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == expected
    # the other byte order reads other integers: refused or another result, never this one by chance
    flipped = "little" if endian == "big" else "big"
    sharded = ShardedMSM(curve, str(p), workers=WORKERS, format=fmt, group=group, scalar_endian=flipped)
    try:
        try:
            assert sharded.msm(s.read_bytes()).hex() != expected
        except zkmsm.ScalarError:
            pass
    finally:
        sharded.shutdown()


def test_evm_is_refused_where_ethereum_has_no_layout(cluster, inputs):
    _, _, _, ppath, _ = inputs("bls12-377", "uncompressed", log_n=4)
    with pytest.raises(zkmsm.ZkmsmError, match="no EVM point layout"):
        ShardedMSM("bls12-377", str(ppath), workers=WORKERS, format="evm")
    with pytest.raises(zkmsm.ZkmsmError, match="unknown group"):
        ShardedMSM("bls12-377", str(ppath), workers=WORKERS, group="g3")


def cpu_ticks(pid):
    """User + system CPU time of a process, in clock ticks (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def test_killed_worker_is_restarted_and_the_answer_is_right(cluster, inputs):
    points, scalars, expected, ppath, _ = inputs("bls12-377", "uncompressed", log_n=16)
    sharded = ShardedMSM("bls12-377", str(ppath), workers=WORKERS, n=len(scalars) // 32, threads_per_worker=1)
    try:
        before = sharded.pids()
        victim = before[1]
        start = cpu_ticks(victim)
        refs = sharded._submit(scalars, timed=True)
        # Kill shard 1 once its MSM is running: its process has spent 30 ms
        # of CPU on it (the shard's MSM takes hundreds of ms of CPU).
        while cpu_ticks(victim) < start + 3:
            time.sleep(0.002)
        os.kill(victim, signal.SIGKILL)
        out = sharded._get(refs)
        assert sharded._combine(r for r, _, _ in out).hex() == expected
        ran_in = [pid for _, _, pid in out]
        # Shard 1's MSM was cut off and ran again in the restarted process;
        # the other two ran once, in their first processes.
        assert ran_in[1] != victim and ran_in[0] == before[0] and ran_in[2] == before[2]
        assert sharded.pids() == ran_in
        assert sharded.msm(scalars).hex() == expected
    finally:
        sharded.shutdown()


def test_missing_and_corrupt_shards_are_named(cluster, inputs, tmp_path, monkeypatch):
    points, scalars, _, _, _ = inputs("bls12-381", "uncompressed", log_n=10)
    n = len(scalars) // 32
    # The driver itself finds no file.
    with pytest.raises(ShardError, match="no-such-file"):
        ShardedMSM("bls12-381", str(tmp_path / "no-such-file.bin"), workers=WORKERS, n=n)
    bad = bytearray(points)
    # a byte of point 900, which is in shard 2 (points 682..1024)
    bad[900 * 96 + 40] ^= 0x77
    path = tmp_path / "corrupt.bin"
    path.write_bytes(bytes(bad))
    with pytest.raises(ShardError, match=r"shard 2 .*byte offset 86400: point 900: "):
        ShardedMSM("bls12-381", str(path), workers=WORKERS, n=n, max_restarts=0)
    # a points file that holds fewer points than there are scalars
    with pytest.raises(ShardError, match=r"does not hold 1029 points"):
        ShardedMSM("bls12-381", str(path), workers=WORKERS, n=n + 5, format="uncompressed")
    # The workers' own view (on a cluster each node reads its own copy of the
    # file): the driver sees a whole file, the workers a missing one and one
    # that ends inside shard 2.
    monkeypatch.setattr("zkmsm.distributed.os.path.getsize", lambda _: n * 96)
    with pytest.raises(ShardError, match=r"shard \d \(points \d+\.\.\d+ of .*gone\.bin\): No such file"):
        ShardedMSM("bls12-381", str(tmp_path / "gone.bin"), workers=WORKERS, n=n, max_restarts=0)
    short = tmp_path / "short.bin"
    short.write_bytes(points[: 1000 * 96])
    with pytest.raises(ShardError, match=r"shard 2 \(points 682\.\.1024 of .*short\.bin\): byte offset 96000: "
                       r"the file ends there, 32832 bytes from byte offset 65472 were expected"):
        ShardedMSM("bls12-381", str(short), workers=WORKERS, n=n, max_restarts=0)


def test_refusals_errors_and_a_changed_file(cluster, inputs, cli, tmp_path):
    """One ShardedMSM over 2^10 points: a bad scalar in shard 2 is the
    ScalarError with its index in the whole vector; wrong element types and
    a bad batch in throughput mode are named; a points file changed under it
    and a restarted shard give ShardError, not a sum; after shutdown every
    MSM is refused."""
    points, scalars, expected, ppath, _ = inputs("bls12-381", "uncompressed", log_n=10)
    path = tmp_path / "p.bin"
    path.write_bytes(points)
    sharded = ShardedMSM("bls12-381", str(path), workers=WORKERS, n=1024, max_restarts=1)
    try:
        assert sharded.ranges[2] == (682, 1024)
        bad = bytearray(scalars)
        bad[700 * 32:701 * 32] = b"\xff" * 32
        with pytest.raises(zkmsm.ScalarError) as e:
            sharded.msm(bytes(bad))
        assert (e.value.index, e.value.offset) == (700, 22400) and "scalar 700" in str(e.value)
        with pytest.raises(TypeError, match="scalars must be"):
            sharded.msm(np.frombuffer(scalars, dtype=np.float64))
        with pytest.raises(TypeError, match="scalars must be"):
            sharded.msm(np.frombuffer(scalars, dtype=">u8"))
        got = []
        with pytest.raises(zkmsm.LengthError, match="batch 1: 1024 points but 1023 scalars"):
            for r in sharded.msm_many([scalars, scalars[:-32], scalars]):
                got.append(r)
        assert [r.hex() for r in got] == [expected]
        assert sharded.msm(scalars).hex() == expected
        # another valid file of the same size over the points, then a restart
        cli("gen", "--curve", "bls12-381", "--log-n", 10, "--points", tmp_path / "other.bin", "--scalars",
            tmp_path / "other-s.bin", "--point-format", "uncompressed", "--seed", 99)
        (tmp_path / "other.bin").replace(path)
        os.kill(sharded.pids()[1], signal.SIGKILL)
        with pytest.raises(ShardError, match=r"shard 1 \(points 341\.\.682 of .*p\.bin\): the shard was restarted "
                           r"and read different points"):
            sharded.msm(scalars)
    finally:
        sharded.shutdown()
    for run in (lambda: sharded.msm(scalars), lambda: sharded.timed_msm(scalars),
                lambda: list(sharded.msm_many([scalars])), sharded.pids):
        with pytest.raises(RuntimeError, match="shut down"):
            run()


def test_empty_file_and_length_prefix(cluster, inputs, tmp_path):
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    sharded = ShardedMSM("bls12-381", str(empty), workers=WORKERS)
    try:
        assert sharded.msm(b"") == zkmsm.Context("bls12-381", b"").msm(b"")
        with pytest.raises(zkmsm.ScalarError, match="not a whole number"):
            sharded.msm(b"x")
        with pytest.raises(zkmsm.LengthError, match="0 points but 1 scalars"):
            sharded.msm(bytes(32))
    finally:
        sharded.shutdown()
    with pytest.raises(RuntimeError, match="shut down"):
        sharded.msm(b"")
    points, _, _, _, _ = inputs("bls12-381", "compressed", log_n=8)
    prefixed = tmp_path / "prefixed.bin"
    prefixed.write_bytes((1000).to_bytes(8, "little") + points)
    with pytest.raises(ShardError, match=r"byte offset 0: length prefix says 1000 points, the file holds 256"):
        ShardedMSM("bls12-381", str(prefixed), workers=WORKERS, max_restarts=0)


def test_command_errors_are_one_line(cluster, inputs, tmp_path):
    _, scalars, _, ppath, _ = inputs("bls12-381", "uncompressed", log_n=10)
    bad = bytearray(scalars)
    bad[700 * 32:701 * 32] = b"\xff" * 32
    spath = tmp_path / "bad-scalars.bin"
    spath.write_bytes(bytes(bad))
    base = [sys.executable, "-m", "zkmsm.distributed", "--curve", "bls12-381", "--points", str(ppath),
            "--workers", str(WORKERS)]
    out = subprocess.run(base + ["--scalars", str(spath), "--address", cluster], capture_output=True, text=True)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.strip().splitlines()[-1] == (
        f"zkmsm.distributed: error: {spath}: byte offset 22400: scalar 700 is not below the bls12-381 group order r")
    # nothing listens on port 1: refused at once, in one line
    out = subprocess.run(base + ["--scalars", str(spath), "--address", "127.0.0.1:1"], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 1 and out.stderr.strip() == (
        "zkmsm.distributed: error: cannot reach the Ray cluster at 127.0.0.1:1: Connection refused")
