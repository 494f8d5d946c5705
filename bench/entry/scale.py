#!/usr/bin/env python3
"""Measurements for docs/SCALE.md: the sharded MSM (zkmsm.distributed, Ray,
one machine) against the single-process MSM on the same points; per-shard
MSM time, Ray's overhead per MSM, memory per worker, the time lost to a
killed worker, and throughput mode against a plain loop.

    cargo build --release -p zkmsm-cli
    target/pyvenv/bin/python bench/entry/scale.py --log-n 20,22 --workers 3

Points are generated uncompressed by `zkmsm gen` and loaded without the
subgroup check (validate=False) on both sides, so what is timed is the MSM.
"""

import argparse
import json
import os
import pathlib
import signal
import statistics
import subprocess
import tempfile
import time

import numpy as np
import ray

import zkmsm
from zkmsm.distributed import ShardedMSM

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = ROOT / "target" / "release" / "zkmsm"


def timed(f):
    t = time.perf_counter()
    r = f()
    return r, (time.perf_counter() - t) * 1e3


def cpu_s(pid):
    """User + system CPU seconds of a process so far (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def median(xs):
    return statistics.median(xs)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--log-n", default="20,22")
    p.add_argument("--workers", type=int, default=3)
    p.add_argument("--curve", default="bls12-381")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--batches", type=int, default=6)
    p.add_argument("--no-faults", action="store_true", help="skip throughput mode and the killed worker")
    a = p.parse_args()
    ray.init(include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    rows = []
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    for log_n in map(int, a.log_n.split(",")):
        load_before = os.getloadavg()[0]
        with tempfile.TemporaryDirectory() as d:
            pp, sp = os.path.join(d, "p.bin"), os.path.join(d, "s.bin")
            subprocess.run([CLI, "gen", "--curve", a.curve, "--log-n", str(log_n), "--points", pp, "--scalars", sp,
                            "--point-format", "uncompressed"], check=True, capture_output=True)
            scalars = np.fromfile(sp, dtype=np.uint8).reshape(-1, 32)
            n = scalars.shape[0]
            ctx, single_init = timed(lambda: zkmsm.Context(a.curve, open(pp, "rb").read(), format="uncompressed",
                                                           validate=False))
            expected = ctx.msm(scalars)
            c0 = time.process_time()
            single = median([timed(lambda: ctx.msm(scalars))[1] for _ in range(a.repeat)])
            single_cpu = (time.process_time() - c0) / a.repeat
            # throughput, single process: a plain loop
            rng = np.random.default_rng(1)
            batches = []
            for _ in range(a.batches):
                b = scalars.copy()
                b[:, :31] = rng.integers(0, 256, size=(n, 31), dtype=np.uint8)
                b[:, 31] = 0
                batches.append(b)
            _, loop_single = timed(lambda: [ctx.msm(b) for b in batches])
            del ctx

            sharded, init_ms = timed(lambda: ShardedMSM(a.curve, pp, workers=a.workers, n=n, format="uncompressed",
                                                        validate=False))
            assert sharded.msm(scalars) == expected
            pids = sharded.pids()
            c0 = time.process_time() + sum(cpu_s(p) for p in pids)
            runs = [timed(lambda: sharded.timed_msm(scalars)) for _ in range(a.repeat)]
            sharded_cpu = (time.process_time() + sum(cpu_s(p) for p in pids) - c0) / a.repeat
            total = median([t for _, t in runs])
            shard_max = median([max(r[1]) * 1e3 for r, _ in runs])
            shard_each = [round(median([r[1][i] * 1e3 for r, _ in runs]), 1) for i in range(a.workers)]
            # peak RSS of each worker process (VmHWM) after its MSMs
            rss = [i["peak_rss_bytes"] for i in sharded._get([x.info.remote() for x in sharded.actors])]
            load_s = [i["load_s"] for i in sharded.infos]
            loop_ms = pipe_ms = killed_ms = reload_s = float("nan")
            ok = None
            if not a.no_faults:
                # throughput mode vs a plain loop of single calls, same batches
                want, loop_ms = timed(lambda: [sharded.msm(b) for b in batches])
                got, pipe_ms = timed(lambda: list(sharded.msm_many(batches, depth=2)))
                assert got == want
                # a worker SIGKILLed in the middle of its MSM (half way through)
                pids = sharded.pids()
                t0 = time.perf_counter()
                refs = sharded._submit(scalars)
                time.sleep(shard_max / 2e3)
                os.kill(pids[1], signal.SIGKILL)
                ok = sharded._combine(sharded._get(refs)) == expected
                killed_ms = (time.perf_counter() - t0) * 1e3
                reload_s = sharded._get(sharded.actors[1].info.remote())["load_s"]
            sharded.shutdown()
            row = {
                "curve": a.curve, "log_n": log_n, "workers": a.workers, "single_ms": round(single, 1),
                "single_init_ms": round(single_init, 1),
                "single_cpu_s": round(single_cpu, 2), "sharded_cpu_s": round(sharded_cpu, 2), "sharded_ms": round(total, 1),
                "sharded_over_single": round(total / single, 3), "shard_msm_ms": shard_each,
                "ray_overhead_ms": round(total - shard_max, 1), "sharded_init_ms": round(init_ms, 1),
                "shard_points": [hi - lo for lo, hi in sharded.ranges],
                "worker_peak_rss_mib": [round(r / 2**20, 1) for r in rss],
                "shard_load_s": [round(x, 2) for x in load_s],
                "killed_worker_msm_ms": round(killed_ms, 1), "killed_answer_right": ok,
                "recovery_ms": round(killed_ms - total, 1), "restarted_shard_reload_s": round(reload_s, 2),
                "msms_per_s_single_loop": round(a.batches / loop_single * 1e3, 3),
                "msms_per_s_sharded_loop": round(a.batches / loop_ms * 1e3, 3),
                "msms_per_s_sharded_pipelined": round(a.batches / pipe_ms * 1e3, 3),
                "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2),
            }
            print(json.dumps(row), flush=True)
            rows.append(row)
    print(f"load average after: {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
