#!/usr/bin/env python3
"""Overhead of the Python and C entry points against the CLI's msm_ms, on the
same files (docs/BENCHMARKS.md, "Entry points"). The C ABI is called through
ctypes (target/release/libzkmsm_capi.so), the Python package as installed.
Median of --repeat timed calls after a warm-up, all cores.

    cargo build --release -p zkmsm-cli -p zkmsm-capi
    target/pyvenv/bin/python bench/entry/run.py --log-n 16,20 [--repeat 5]

The arkworks side (zkmsm::ark, VariableBaseMSM::msm):
    cargo bench -p zkmsm --features ark --bench ark_entry -- 16 20
"""

import argparse
import ctypes
import json
import os
import pathlib
import statistics
import subprocess
import tempfile
import time

import zkmsm

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = ROOT / "target" / "release" / "zkmsm"
LIB = ROOT / "target" / "release" / "libzkmsm_capi.so"


def median_ms(f, repeat):
    f()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def capi():
    lib = ctypes.CDLL(str(LIB))
    lib.zkmsm_context_new.argtypes = [ctypes.c_uint32, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32,
                                      ctypes.c_uint32, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p)]
    lib.zkmsm_msm.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
    lib.zkmsm_context_free.argtypes = [ctypes.c_void_p]
    lib.zkmsm_last_error.restype = ctypes.c_char_p
    return lib


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--log-n", default="16,20")
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args()
    lib = capi()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print("| curve | n | CLI msm_ms | Python Context.msm ms | C zkmsm_msm ms | Python / CLI | C / CLI |")
    print("|---|---|---|---|---|---|---|")
    for log_n in map(int, a.log_n.split(",")):
        for curve, cid in (("bls12-377", 0), ("bls12-381", 1)):
            with tempfile.TemporaryDirectory() as d:
                pp, sp = os.path.join(d, "p.bin"), os.path.join(d, "s.bin")
                subprocess.run([CLI, "gen", "--curve", curve, "--log-n", str(log_n), "--points", pp, "--scalars", sp,
                                "--point-format", "uncompressed"], check=True, capture_output=True)
                out = subprocess.run([CLI, "msm", "--curve", curve, "--points", pp, "--scalars", sp, "--json",
                                      "--repeat", str(a.repeat)], check=True, capture_output=True, text=True)
                cli = json.loads(out.stdout.strip().splitlines()[-1])
                points, scalars = open(pp, "rb").read(), open(sp, "rb").read()
            ctx = zkmsm.Context(curve, points, format="uncompressed", validate=False)
            assert ctx.msm(scalars).hex() == cli["result"]
            py_ms = median_ms(lambda: ctx.msm(scalars), a.repeat)
            del ctx
            handle = ctypes.c_void_p()
            rc = lib.zkmsm_context_new(cid, points, len(points), 1, 1, 0, ctypes.byref(handle))
            assert rc == 0, lib.zkmsm_last_error()
            buf = ctypes.create_string_buffer(48)
            assert lib.zkmsm_msm(handle, scalars, len(scalars), buf, 48) == 0
            assert buf.raw.hex() == cli["result"]
            c_ms = median_ms(lambda: lib.zkmsm_msm(handle, scalars, len(scalars), buf, 48), a.repeat)
            lib.zkmsm_context_free(handle)
            m = cli["msm_ms"]
            print(f"| {curve} | 2^{log_n} | {m:.1f} | {py_ms:.1f} | {c_ms:.1f} | {py_ms / m:.3f} | {c_ms / m:.3f} |",
                  flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
