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
the MSM task, so the answer is still right. Each shard records a checksum of
its byte range when it loads, and every partial carries it: a restarted
shard that read different bytes (the file was changed since the first load)
is refused with `ShardError`, never added. A shard file that is missing,
short or corrupt raises `ShardError` naming the shard, the file and the byte
offset; a bad scalar raises `zkmsm.ScalarError` with its index and byte
offset in the whole scalar vector. After `shutdown()` every MSM is refused.

Command line, with `zkmsm msm`'s output contract (the last line of stdout is
the result's compressed encoding in lowercase hex):

    python -m zkmsm.distributed --curve C [--group g1|g2] --points P --scalars S --workers K [--address ADDR]

The options of `zkmsm msm` that apply across shards are taken the same:
`--group`, `--point-format compressed|uncompressed|evm` (evm only where the
curve has Ethereum's layout, and never detected), `--scalar-endian
little|big`.
"""

import argparse
import hashlib
import json
import os
import re
import socket
import sys
import time
from typing import Iterable, Iterator, List, NamedTuple, Optional

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


def points_layout(curve: str, size_bytes: int, n: Optional[int], fmt: Optional[str], group: str = "g1"):
    """(n, format, header bytes) of a points file of `size_bytes` bytes: as the
    CLI, the format is told from the size given n (compressed or
    uncompressed; "evm" only when asked for), and an 8-byte prefix is
    allowed."""
    formats = [fmt] if fmt else ["compressed", "uncompressed"]
    for f in formats:
        size = zkmsm.point_size(curve, f, group=group)
        for header in (0, PREFIX_BYTES):
            body = size_bytes - header
            if body >= 0 and body % size == 0 and (n is None or body // size == n):
                return body // size, f, header
    want = f"{n} points" if n is not None else "a whole number of points"
    raise ShardError(f"points file of {size_bytes} bytes does not hold {want} in {' or '.join(formats)} encoding")


def _checksum(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class _Partial(NamedTuple):
    """A shard's answer with the checksum of the points it was computed on."""

    shard: int
    checksum: str
    value: object


class _Shard:
    """One shard: a range of the points, resident as a zkmsm.Context."""

    def __init__(self, index, curve, path, fmt, header, start, count, validate, threads, total=None, group="g1"):
        # Rayon sizes its pool on first use: before the first Context.
        os.environ.setdefault("RAYON_NUM_THREADS", str(threads))
        self.index, self.start, self.count = index, start, count
        size = zkmsm.point_size(curve, fmt, group=group)
        offset = header + start * size
        where = f"shard {index} (points {start}..{start + count} of {path})"
        t = time.perf_counter()
        try:
            with open(path, "rb") as f:
                if header and total is not None:
                    declared = int.from_bytes(f.read(header), "little")
                    if declared != total:
                        raise ShardError(f"{where}: byte offset 0: length prefix says {declared} points, "
                                         f"the file holds {total}")
                f.seek(offset)
                data = f.read(count * size)
        except OSError as e:
            raise ShardError(f"{where}: {e.strerror or e}") from None
        if len(data) != count * size:
            raise ShardError(
                f"{where}: byte offset {offset + len(data)}: the file ends there, "
                f"{count * size} bytes from byte offset {offset} were expected"
            )
        self.checksum = _checksum(data)
        try:
            self.ctx = zkmsm.Context(curve, data, format=fmt, validate=validate, group=group)
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

    def _msm(self, scalars):
        try:
            return self.ctx.msm(scalars, encoding="uncompressed")
        except zkmsm.ScalarError as e:
            raise _global_scalar_error(e, self.start) from None

    def msm(self, scalars):
        return _Partial(self.index, self.checksum, self._msm(scalars))

    def timed_msm(self, scalars):
        """The partial MSM, its seconds, and the pid that ran it (a retried
        task after a killed worker shows the restarted process's pid)."""
        t = time.perf_counter()
        r = self._msm(scalars)
        return _Partial(self.index, self.checksum, (r, time.perf_counter() - t, os.getpid()))

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
                "peak_rss_bytes": rss, "checksum": self.checksum,
                "node_id": _ray().get_runtime_context().get_node_id()}


def _global_scalar_error(e: "zkmsm.ScalarError", start: int) -> "zkmsm.ScalarError":
    """A shard's ScalarError (index and offset within its slice) as the same
    error about the whole scalar vector."""
    if e.index is None:
        return e
    index, offset = start + e.index, start * SCALAR_BYTES + (e.offset or 0)
    message = re.sub(r"byte offset \d+", f"byte offset {offset}", str(e), count=1)
    message = re.sub(r"scalar \d+", f"scalar {index}", message, count=1)
    return type(e)(message, index, offset)


_LITTLE = sys.byteorder == "little"


def _scalar_dtype_ok(dtype: np.dtype) -> bool:
    """uint8, or uint64 in little-endian order (four limbs a scalar)."""
    if dtype == np.uint8:
        return True
    return dtype.kind == "u" and dtype.itemsize == 8 and (dtype.byteorder == "<" or
                                                          (dtype.byteorder in "=|" and _LITTLE))


def as_scalar_array(scalars, endian: str = "little") -> np.ndarray:
    """Scalars (bytes, a buffer of bytes, or a uint8 or little-endian uint64
    array) as an (n, 32) uint8 array of little-endian scalars, no copy when
    possible; any other element type is a TypeError. `endian` "big": 32-byte
    big-endian scalars (bytes or uint8 only), each reversed."""
    if endian not in ("little", "big"):
        raise zkmsm.ZkmsmError(f"unknown scalar_endian {endian!r}: expected \"little\" or \"big\"")
    if endian == "big":
        dtype = scalars.dtype if isinstance(scalars, np.ndarray) else None
        if dtype is not None and dtype != np.uint8:
            raise TypeError(f"big-endian scalars must be bytes or an array of uint8, not an array of dtype {dtype}")
        return np.ascontiguousarray(as_scalar_array(scalars)[:, ::-1])
    what = "scalars must be bytes or an array of uint8 or little-endian uint64"
    if isinstance(scalars, np.ndarray):
        if not _scalar_dtype_ok(scalars.dtype):
            raise TypeError(f"{what}, not an array of dtype {scalars.dtype.str} ({scalars.dtype})")
        a = np.ascontiguousarray(scalars).view(np.uint8).reshape(-1)
    else:
        try:
            view = memoryview(scalars)
        except TypeError:
            raise TypeError(f"{what}, not {type(scalars).__name__}") from None
        fmt = view.format.lstrip("@=<")
        if fmt == "B" or (fmt in ("Q", "L") and view.itemsize == 8 and (view.format.startswith("<") or _LITTLE)):
            a = np.frombuffer(view.tobytes() if not view.c_contiguous else view.cast("B"), dtype=np.uint8)
        else:
            raise TypeError(f"{what}, not a buffer of format {view.format!r}")
    if a.size % SCALAR_BYTES:
        whole = a.size // SCALAR_BYTES
        raise zkmsm.ScalarError(f"scalars: byte offset {whole * SCALAR_BYTES}: {a.size} bytes is not a whole "
                                f"number of 32-byte scalars", None, whole * SCALAR_BYTES)
    return a.reshape(-1, SCALAR_BYTES)


def _int_arg(name: str, value, minimum: int, optional: bool = False):
    """An int parameter (not a bool or a string), at least `minimum`."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {value}")
    return int(value)


def _check_reachable(address: str, timeout_s: float = 10.0):
    """A cluster address HOST:PORT (or ray://HOST:PORT) must accept a TCP
    connection within `timeout_s`: otherwise Ray would wait minutes silently."""
    m = re.fullmatch(r"(?:ray://)?\[?([^\]]+?)\]?:(\d+)", address)
    if not m:
        return  # "auto", "local", ... : Ray's own lookup
    try:
        socket.create_connection((m.group(1), int(m.group(2))), timeout=timeout_s).close()
    except OSError as e:
        raise ConnectionError(f"cannot reach the Ray cluster at {address}: {e.strerror or e}") from None


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
        group: str = "g1",
        scalar_endian: str = "little",
    ):
        ray = _ray()
        self.actors = []
        self._closed = "it was never started"
        if curve not in zkmsm.CURVES:
            raise zkmsm.ZkmsmError(f"unknown curve {curve!r}: expected one of {', '.join(zkmsm.CURVES)}")
        if group not in zkmsm.GROUPS:
            raise zkmsm.ZkmsmError(f"unknown group {group!r}: expected one of {', '.join(zkmsm.GROUPS)}")
        if scalar_endian not in ("little", "big"):
            raise zkmsm.ZkmsmError(f"unknown scalar_endian {scalar_endian!r}: expected \"little\" or \"big\"")
        if format is not None:
            zkmsm.point_size(curve, format, group=group)  # an unknown format, or evm where there is none
        workers = _int_arg("workers", workers, 1)
        n = _int_arg("n", n, 0, optional=True)
        threads_per_worker = _int_arg("threads_per_worker", threads_per_worker, 1, optional=True)
        max_restarts = _int_arg("max_restarts", max_restarts, 0)
        if not ray.is_initialized():
            if address:
                _check_reachable(address)
            ray.init(address=address, include_dashboard=False, logging_level="WARNING",
                     log_to_driver=False, configure_logging=True)
        try:
            size_bytes = os.path.getsize(points_path)
        except OSError as e:
            raise ShardError(f"{points_path}: {e.strerror or e}") from None
        self.curve, self.group, self.scalar_endian = curve, group, scalar_endian
        self.n, self.format, header = points_layout(curve, size_bytes, n, format, group)
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
                remote.remote(i, curve, os.path.abspath(points_path), self.format, header, a, b - a, validate, threads,
                              self.n, group))
        self.path = os.path.abspath(points_path)
        self._closed = None
        try:
            self.infos = self._get([a.info.remote() for a in self.actors])
        except BaseException:
            self.shutdown()
            raise
        # the bytes each shard loaded first: a restarted shard must load the same
        self.checksums = [i["checksum"] for i in self.infos]
        ips = {n["NodeID"]: n["NodeManagerAddress"] for n in ray.nodes()}
        for i in self.infos:
            i["node_ip"] = ips.get(i["node_id"], "?")

    def _get(self, refs):
        """ray.get, with a shard's errors as zkmsm's: a bad scalar as the
        ScalarError the shard raised (global index), a shard that could not
        load as ShardError; each partial checked against the checksum of the
        points its shard first loaded."""
        ray = _ray()
        try:
            out = ray.get(refs)
        except ray.exceptions.RayTaskError as e:
            cause = getattr(e, "cause", None)
            if isinstance(cause, zkmsm.ZkmsmError):
                raise cause from None
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
        return [self._checked(x) for x in out] if isinstance(out, list) else self._checked(out)

    def _checked(self, result):
        if not isinstance(result, _Partial):
            return result
        want = self.checksums[result.shard]
        if result.checksum != want:
            lo, hi = self.ranges[result.shard]
            raise ShardError(
                f"shard {result.shard} (points {lo}..{hi} of {self.path}): the shard was restarted and read "
                f"different points (checksum {result.checksum}, first loaded {want}): the file changed since "
                f"the ShardedMSM was made; make a new one")
        return result.value

    def __len__(self) -> int:
        return self.n

    def _check_open(self):
        if self._closed is not None:
            raise RuntimeError(f"this ShardedMSM cannot run MSMs: {self._closed}")

    def _submit(self, scalars, timed=False):
        ray = _ray()
        self._check_open()
        a = as_scalar_array(scalars, self.scalar_endian)
        if a.shape[0] != self.n:
            raise zkmsm.LengthError(f"{self.n} points but {a.shape[0]} scalars: the lengths must be equal")
        refs = []
        for actor, (lo, hi) in zip(self.actors, self.ranges):
            part = ray.put(a[lo:hi])  # one copy into the object store, read in place by the worker
            refs.append(actor.timed_msm.remote(part) if timed else actor.msm.remote(part))
        return refs

    def _combine(self, partials) -> bytes:
        return zkmsm.sum_points(self.curve, list(partials), group=self.group)

    def _identity(self, scalars) -> bytes:
        """The MSM over no points: the scalars are checked all the same."""
        self._check_open()
        a = as_scalar_array(scalars, self.scalar_endian)
        if a.shape[0]:
            raise zkmsm.LengthError(f"0 points but {a.shape[0]} scalars: the lengths must be equal")
        return self._empty()

    def _empty(self) -> bytes:
        """The identity of the group, compressed."""
        return zkmsm.Context(self.curve, b"", group=self.group).msm(b"")

    def msm(self, scalars) -> bytes:
        """sum_i scalars[i] * P_i, compressed (the bytes `zkmsm msm` prints in hex)."""
        if self.n == 0:
            return self._identity(scalars)
        return self._combine(self._get(self._submit(scalars)))

    def timed_msm(self, scalars):
        """The MSM with each shard's own MSM time (seconds)."""
        if self.n == 0:
            return self._identity(scalars), []
        out = self._get(self._submit(scalars, timed=True))
        return self._combine(r for r, _, _ in out), [t for _, t, _ in out]

    def msm_many(self, batches: Iterable, depth: int = 2) -> Iterator[bytes]:
        """Throughput mode: the MSMs of many scalar vectors over the same
        points, in order, with up to `depth` MSMs in flight, so the next MSM's
        scalars travel to the workers while the current one runs. A bad batch
        raises its error, naming the batch, after the results of the batches
        before it."""
        depth = _int_arg("depth", depth, 1)
        pending: List = []

        def named(k, e):
            if isinstance(e, zkmsm.ZkmsmError):
                return type(e)(f"batch {k}: {e}", e.index, e.offset)
            return type(e)(f"batch {k}: {e}")

        def result(k, refs):
            try:
                return self._get(refs) if refs is not None else None
            except (zkmsm.ZkmsmError, TypeError) as e:
                raise named(k, e) from None

        for k, scalars in enumerate(batches):
            try:
                refs = self._submit(scalars) if self.n else None
                if refs is None:
                    self._identity(scalars)
            except (zkmsm.ZkmsmError, TypeError) as e:
                while pending:
                    j, r = pending.pop(0)
                    yield self._finish(result(j, r))
                raise named(k, e) from None
            pending.append((k, refs))
            if len(pending) >= depth:
                yield self._finish(result(*pending.pop(0)))
        while pending:
            yield self._finish(result(*pending.pop(0)))

    def _finish(self, partials) -> bytes:
        return self._combine(partials) if partials is not None else self._empty()

    def pids(self) -> List[int]:
        """The worker processes' ids (for fault tests)."""
        self._check_open()
        return [i["pid"] for i in self._get([a.info.remote() for a in self.actors])]

    def shutdown(self):
        """Stop the shard actors; every later MSM is refused."""
        ray = _ray()
        for a in self.actors:
            ray.kill(a)
        self.actors = []
        self._closed = "it was shut down"


def read_scalars_file(path: str) -> np.ndarray:
    """A scalars file (32-byte little-endian integers, optionally after the
    8-byte length prefix) as an (n, 32) uint8 array."""
    raw = np.fromfile(path, dtype=np.uint8)
    if raw.size % SCALAR_BYTES == PREFIX_BYTES:
        n = int.from_bytes(raw[:PREFIX_BYTES].tobytes(), "little")
        raw = raw[PREFIX_BYTES:]
        if n != raw.size // SCALAR_BYTES:
            raise zkmsm.ScalarError(f"{path}: byte offset 0: length prefix says {n} scalars, the file holds "
                                    f"{raw.size // SCALAR_BYTES}", None, 0)
    elif raw.size % SCALAR_BYTES:
        whole = raw.size // SCALAR_BYTES
        raise zkmsm.ScalarError(f"{path}: byte offset {whole * SCALAR_BYTES}: truncated scalar", None,
                                whole * SCALAR_BYTES)
    return raw.reshape(-1, SCALAR_BYTES)


def _one_line(e: BaseException, scalars_path: str, scalars_header: int) -> str:
    """The command's error line: a bad scalar named in the scalars file (its
    byte offset there), anything else by its first line."""
    if isinstance(e, zkmsm.ScalarError) and e.index is not None and e.offset is not None:
        what = re.sub(r"^scalars: byte offset \d+: ", "", str(e))
        return f"{scalars_path}: byte offset {e.offset + scalars_header}: {what}"
    if isinstance(e, (zkmsm.ZkmsmError, OSError, ValueError, TypeError, RuntimeError)):
        text = str(e)
    else:  # Ray's own errors: their class and first line
        text = f"{type(e).__name__}: {str(e).strip()}"
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[0] if lines else type(e).__name__


def _stop_ray():
    """Shut this process's Ray driver down if it was started, quietly."""
    if "ray" not in sys.modules:
        return
    try:
        ray = sys.modules["ray"]
        if ray.is_initialized():
            ray.shutdown()
    except Exception:  # the error being reported matters, not this one
        pass
    sys.stderr.flush()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m zkmsm.distributed",
        description="MSM of a points file and a scalars file, sharded over a Ray cluster (zkmsm msm's output).",
    )
    p.add_argument("--curve", required=True, choices=zkmsm.CURVES)
    p.add_argument("--group", choices=zkmsm.GROUPS, default="g1")
    p.add_argument("--points", required=True)
    p.add_argument("--scalars", required=True)
    p.add_argument("--workers", type=int, default=3, help="shards, one Ray actor each (default 3)")
    p.add_argument("--address", default=None, help="Ray cluster address (default: start Ray on this machine)")
    p.add_argument("--point-format", choices=["compressed", "uncompressed", "evm"], default=None,
                   help="the points' encoding (default: told from the size; evm only when given)")
    p.add_argument("--scalar-endian", choices=["little", "big"], default="little",
                   help="byte order of the 32-byte scalars (big: the EVM's)")
    p.add_argument("--repeat", type=int, default=1, help="timed MSMs after the first (median reported)")
    p.add_argument("--json", action="store_true", help="a last line of JSON instead of the hex result")
    a = p.parse_args(argv)
    header = 0
    try:
        header = PREFIX_BYTES if os.path.getsize(a.scalars) % SCALAR_BYTES == PREFIX_BYTES else 0
        scalars = read_scalars_file(a.scalars)
        t = time.perf_counter()
        sharded = ShardedMSM(a.curve, a.points, workers=a.workers, n=scalars.shape[0], format=a.point_format,
                             address=a.address, group=a.group, scalar_endian=a.scalar_endian)
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
    except Exception as e:  # one line, whatever went wrong (Ray's errors span many)
        line = f"zkmsm.distributed: error: {_one_line(e, a.scalars, header)}"
        # Ray's driver logs (a failed task it could not report, workers it
        # saw die) reach stderr until it is shut down: stop it first, so the
        # error is the last line whatever Ray printed before it.
        _stop_ray()
        print(line, file=sys.stderr, flush=True)
        return 1
    if a.json:
        print(json.dumps({"curve": a.curve, "group": a.group, "n": sharded.n, "result": result.hex(), "msm_ms": msm_ms,
                          "msm_ms_all": timed, "init_ms": init_ms, "workers": len(sharded.ranges),
                          "node_ips": [i["node_ip"] for i in sharded.infos]}))
    else:
        print(result.hex())
    return 0


if __name__ == "__main__":
    sys.exit(main())
