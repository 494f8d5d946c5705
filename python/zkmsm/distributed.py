"""MSMs sharded over a Ray cluster, the points resident in the workers.

MSM is linear: sum_i s_i P_i is the sum over shards of the shards' partial
MSMs. Each shard is a Ray actor that reads its range of the points file by
offset (no process reads the whole file), decodes, validates and prepares it
once (a `zkmsm.Context`), then for every MSM receives only its slice of the
scalars (a numpy array through Ray's object store) and returns one point; the
driver adds the partials.

    from zkmsm.distributed import ShardedMSM
    msm = ShardedMSM("bls12-381", "points.bin", workers=4)      # ray.init() if needed
    result = msm.msm(scalars)                                   # 48 bytes, compressed
    for r in msm.msm_many(batches): ...                          # throughput mode

Faults: an actor that dies (a killed process, a lost node) is restarted by
Ray, which runs its constructor again (the shard is read again) and retries
the MSM task, so the answer is still right. A shard file that is missing,
short or corrupt raises `ShardError` naming the shard, the file and the byte
offset.

Command line, with `zkmsm msm`'s output contract (the last line of stdout is
the result's compressed encoding in lowercase hex):

    python -m zkmsm.distributed --curve C --points P --scalars S --workers K [--address ADDR]
"""

import argparse
import json
import os
import sys
import time
from typing import Iterable, Iterator, List, Optional

import numpy as np

import zkmsm

SCALAR_BYTES = 32
PREFIX_BYTES = 8


class ShardError(zkmsm.ZkmsmError):
    """A shard could not be loaded or run; the message names the shard."""


def _ray():
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("zkmsm.distributed needs Ray: pip install 'ray>=2.9'") from e
    return ray


def points_layout(curve: str, size_bytes: int, n: Optional[int], fmt: Optional[str]):
    """(n, format, header bytes) of a points file of `size_bytes` bytes: as the
    CLI, the format is told from the size given n, and an 8-byte prefix is
    allowed."""
    formats = [fmt] if fmt else ["compressed", "uncompressed"]
    for f in formats:
        size = zkmsm.point_size(curve, f)
        for header in (0, PREFIX_BYTES):
            body = size_bytes - header
            if body >= 0 and body % size == 0 and (n is None or body // size == n):
                return body // size, f, header
    want = f"{n} points" if n is not None else "a whole number of points"
    raise ShardError(f"points file of {size_bytes} bytes does not hold {want} in {' or '.join(formats)} encoding")


class _Shard:
    """One shard: a range of the points, resident as a zkmsm.Context."""

    def __init__(self, index, curve, path, fmt, header, start, count, validate, threads):
        # Rayon sizes its pool on first use: before the first Context.
        os.environ.setdefault("RAYON_NUM_THREADS", str(threads))
        self.index, self.start, self.count = index, start, count
        size = zkmsm.point_size(curve, fmt)
        offset = header + start * size
        where = f"shard {index} (points {start}..{start + count} of {path})"
        t = time.perf_counter()
        try:
            with open(path, "rb") as f:
                f.seek(offset)
                data = f.read(count * size)
        except OSError as e:
            raise ShardError(f"{where}: {e.strerror or e}") from None
        if len(data) != count * size:
            raise ShardError(
                f"{where}: byte offset {offset + len(data)}: the file ends there, "
                f"{count * size} bytes from byte offset {offset} were expected"
            )
        try:
            self.ctx = zkmsm.Context(curve, data, format=fmt, validate=validate)
        except zkmsm.ZkmsmError as e:
            # "points: byte offset X: point k: what" -> offsets and indices in the whole file
            at = f"byte offset {offset + e.offset}: " if e.offset is not None else ""
            if e.index is not None:
                at += f"point {start + e.index}: "
                what = str(e).split(": ", 3)[-1]
            else:
                what = str(e).split(": ", 2)[-1]
            raise ShardError(f"{where}: {at}{what}") from None
        self.load_s = time.perf_counter() - t

    def msm(self, scalars):
        return self.ctx.msm(scalars, encoding="uncompressed")

    def timed_msm(self, scalars):
        """The partial MSM, its seconds, and the pid that ran it (a retried
        task after a killed worker shows the restarted process's pid)."""
        t = time.perf_counter()
        r = self.ctx.msm(scalars, encoding="uncompressed")
        return r, time.perf_counter() - t, os.getpid()

    def info(self):
        rss = 0
        try:
            with open("/proc/self/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        rss = int(line.split()[1]) * 1024
        except OSError:
            pass
        return {"index": self.index, "pid": os.getpid(), "load_s": self.load_s, "count": self.count,
                "peak_rss_bytes": rss, "node_id": _ray().get_runtime_context().get_node_id()}


def as_scalar_array(scalars) -> np.ndarray:
    """Scalars (bytes, buffer or array) as an (n, 32) uint8 array, no copy when possible."""
    if isinstance(scalars, np.ndarray):
        a = np.ascontiguousarray(scalars).view(np.uint8)
    else:
        a = np.frombuffer(memoryview(scalars).cast("B"), dtype=np.uint8)
    if a.size % SCALAR_BYTES:
        raise zkmsm.ScalarError(f"scalars: {a.size} bytes is not a whole number of 32-byte scalars")
    return a.reshape(-1, SCALAR_BYTES)


class ShardedMSM:
    """Points sharded over `workers` Ray actors, loaded once; MSMs on scalars."""

    def __init__(
        self,
        curve: str,
        points_path: str,
        workers: int = 3,
        n: Optional[int] = None,
        format: Optional[str] = None,
        validate: bool = True,
        address: Optional[str] = None,
        threads_per_worker: Optional[int] = None,
        max_restarts: int = 4,
    ):
        ray = _ray()
        if curve not in zkmsm.CURVES:
            raise zkmsm.ZkmsmError(f"unknown curve {curve!r}: expected one of {', '.join(zkmsm.CURVES)}")
        if workers < 1:
            raise ValueError("workers must be at least 1")
        if not ray.is_initialized():
            ray.init(address=address, include_dashboard=False, logging_level="WARNING",
                     log_to_driver=False, configure_logging=True)
        try:
            size_bytes = os.path.getsize(points_path)
        except OSError as e:
            raise ShardError(f"{points_path}: {e.strerror or e}") from None
        self.curve = curve
        self.n, self.format, header = points_layout(curve, size_bytes, n, format)
        k = max(1, min(workers, self.n)) if self.n else 1
        bounds = [self.n * i // k for i in range(k + 1)]
        self.ranges = list(zip(bounds[:-1], bounds[1:]))
        # Each shard pinned to its own node while there are nodes (Ray's
        # SPREAD is only best effort: docs/SCALE.md, several hosts); soft, so
        # a restarted shard may move if its node is gone. Each shard's rayon
        # threads: its node's CPUs over the shards placed there.
        nodes = sorted((n for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get("CPU", 0) > 0),
                       key=lambda n: n["NodeManagerAddress"])
        where = [nodes[i % len(nodes)] if nodes else None for i in range(k)]
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        self.actors = []
        for i, (a, b) in enumerate(self.ranges):
            node = where[i]
            if node is None:
                strategy, cpus, sharing = "SPREAD", os.cpu_count() or 1, k
            else:
                strategy = NodeAffinitySchedulingStrategy(node_id=node["NodeID"], soft=True)
                cpus = int(node["Resources"]["CPU"])
                sharing = sum(1 for w in where if w is node)
            threads = threads_per_worker or max(1, cpus // sharing)
            remote = ray.remote(
                num_cpus=0,  # the shards share their node's cores: rayon threads set above
                max_restarts=max_restarts,
                max_task_retries=max_restarts,
                scheduling_strategy=strategy,
            )(_Shard)
            self.actors.append(
                remote.remote(i, curve, os.path.abspath(points_path), self.format, header, a, b - a, validate, threads))
        self.infos = self._get([a.info.remote() for a in self.actors])
        ips = {n["NodeID"]: n["NodeManagerAddress"] for n in ray.nodes()}
        for i in self.infos:
            i["node_ip"] = ips.get(i["node_id"], "?")

    def _get(self, refs):
        ray = _ray()
        try:
            return ray.get(refs)
        except ray.exceptions.RayTaskError as e:
            cause = e.as_instanceof_cause() if hasattr(e, "as_instanceof_cause") else e
            if isinstance(cause, zkmsm.ZkmsmError):
                raise ShardError(str(cause).strip().splitlines()[-1].split("ShardError: ")[-1]) from None
            raise
        except ray.exceptions.RayActorError as e:
            msg = str(e)
            for line in msg.splitlines():
                if "ShardError: " in line:
                    raise ShardError(line.split("ShardError: ", 1)[1].strip()) from None
            raise

    def __len__(self) -> int:
        return self.n

    def _submit(self, scalars, timed=False):
        ray = _ray()
        a = as_scalar_array(scalars)
        if a.shape[0] != self.n:
            raise zkmsm.LengthError(f"{self.n} points but {a.shape[0]} scalars: the lengths must be equal")
        refs = []
        for actor, (lo, hi) in zip(self.actors, self.ranges):
            part = ray.put(a[lo:hi])  # one copy into the object store, read in place by the worker
            refs.append(actor.timed_msm.remote(part) if timed else actor.msm.remote(part))
        return refs

    def _combine(self, partials) -> bytes:
        return zkmsm.sum_points(self.curve, list(partials))

    def msm(self, scalars) -> bytes:
        """sum_i scalars[i] * P_i, compressed (the bytes `zkmsm msm` prints in hex)."""
        if self.n == 0:
            return zkmsm.Context(self.curve, b"").msm(b"")
        return self._combine(self._get(self._submit(scalars)))

    def timed_msm(self, scalars):
        """The MSM with each shard's own MSM time (seconds)."""
        out = self._get(self._submit(scalars, timed=True))
        return self._combine(r for r, _, _ in out), [t for _, t, _ in out]

    def msm_many(self, batches: Iterable, depth: int = 2) -> Iterator[bytes]:
        """Throughput mode: the MSMs of many scalar vectors over the same
        points, in order, with up to `depth` MSMs in flight, so the next MSM's
        scalars travel to the workers while the current one runs."""
        pending: List = []
        for scalars in batches:
            pending.append(self._submit(scalars))
            if len(pending) >= depth:
                yield self._combine(self._get(pending.pop(0)))
        while pending:
            yield self._combine(self._get(pending.pop(0)))

    def pids(self) -> List[int]:
        """The worker processes' ids (for fault tests)."""
        return [i["pid"] for i in self._get([a.info.remote() for a in self.actors])]

    def shutdown(self):
        ray = _ray()
        for a in self.actors:
            ray.kill(a)
        self.actors = []


def read_scalars_file(path: str) -> np.ndarray:
    """A scalars file (32-byte little-endian integers, optionally after the
    8-byte length prefix) as an (n, 32) uint8 array."""
    raw = np.fromfile(path, dtype=np.uint8)
    if raw.size % SCALAR_BYTES == PREFIX_BYTES:
        n = int.from_bytes(raw[:PREFIX_BYTES].tobytes(), "little")
        raw = raw[PREFIX_BYTES:]
        if n != raw.size // SCALAR_BYTES:
            raise zkmsm.ScalarError(f"{path}: byte offset 0: length prefix says {n} scalars, the file holds "
                                    f"{raw.size // SCALAR_BYTES}")
    elif raw.size % SCALAR_BYTES:
        whole = raw.size // SCALAR_BYTES
        raise zkmsm.ScalarError(f"{path}: byte offset {whole * SCALAR_BYTES}: truncated scalar")
    return raw.reshape(-1, SCALAR_BYTES)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m zkmsm.distributed",
        description="MSM of a points file and a scalars file, sharded over a Ray cluster (zkmsm msm's output).",
    )
    p.add_argument("--curve", required=True, choices=zkmsm.CURVES)
    p.add_argument("--points", required=True)
    p.add_argument("--scalars", required=True)
    p.add_argument("--workers", type=int, default=3, help="shards, one Ray actor each (default 3)")
    p.add_argument("--address", default=None, help="Ray cluster address (default: start Ray on this machine)")
    p.add_argument("--point-format", choices=["compressed", "uncompressed"], default=None)
    p.add_argument("--repeat", type=int, default=1, help="timed MSMs after the first (median reported)")
    p.add_argument("--json", action="store_true", help="a last line of JSON instead of the hex result")
    a = p.parse_args(argv)
    try:
        scalars = read_scalars_file(a.scalars)
        t = time.perf_counter()
        sharded = ShardedMSM(a.curve, a.points, workers=a.workers, n=scalars.shape[0], format=a.point_format,
                             address=a.address)
        init_ms = (time.perf_counter() - t) * 1e3
        times = []
        result = None
        for _ in range(1 + max(0, a.repeat)):
            t = time.perf_counter()
            result = sharded.msm(scalars)
            times.append((time.perf_counter() - t) * 1e3)
        timed = sorted(times[1:]) or times
        msm_ms = timed[len(timed) // 2]
        print(f"sharded msm: {msm_ms:.2f} ms (median of {len(timed)}), {len(sharded.ranges)} shards, "
              f"init {init_ms:.0f} ms", file=sys.stderr)
    except (zkmsm.ZkmsmError, OSError, ValueError) as e:
        print(f"zkmsm.distributed: error: {e}", file=sys.stderr)
        return 1
    if a.json:
        print(json.dumps({"curve": a.curve, "n": sharded.n, "result": result.hex(), "msm_ms": msm_ms,
                          "msm_ms_all": timed, "init_ms": init_ms, "workers": len(sharded.ranges),
                          "node_ips": [i["node_ip"] for i in sharded.infos]}))
    else:
        print(result.hex())
    return 0


if __name__ == "__main__":
    sys.exit(main())
