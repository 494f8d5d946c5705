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

ray = pytest.importorskip("ray")
from zkmsm.distributed import ShardedMSM, ShardError  # noqa: E402

WORKERS = 3


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


@pytest.mark.parametrize("curve", ["bls12-377", "bls12-381"])
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


def test_killed_worker_is_restarted_and_the_answer_is_right(cluster, inputs):
    points, scalars, expected, ppath, _ = inputs("bls12-377", "uncompressed", log_n=16)
    sharded = ShardedMSM("bls12-377", str(ppath), workers=WORKERS, n=len(scalars) // 32)
    try:
        before = sharded.pids()
        refs = sharded._submit(scalars)
        time.sleep(0.05)  # the shards are in their MSMs (hundreds of ms each)
        os.kill(before[1], signal.SIGKILL)
        assert sharded._combine(sharded._get(refs)).hex() == expected
        after = sharded.pids()
        assert after[1] != before[1] and after[0] == before[0] and after[2] == before[2]
        assert sharded.msm(scalars).hex() == expected
    finally:
        sharded.shutdown()


def test_missing_and_corrupt_shards_are_named(cluster, inputs, tmp_path):
    points, scalars, _, _, _ = inputs("bls12-381", "uncompressed", log_n=10)
    n = len(scalars) // 32
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
    with pytest.raises(ShardError):
        ShardedMSM("bls12-381", str(path), workers=WORKERS, n=n + 5, format="uncompressed")
