#!/usr/bin/env python3
"""Overhead of every entry point against the CLI's msm_ms and against arkworks'
VariableBaseMSM::msm, side by side in one run on the same files
(docs/BENCHMARKS.md, "Entry points"): the Rust arkworks API (zkmsm::ark, via
`cargo bench --bench ark_entry -- --files`), the Python package as installed
(Context.msm and the one-shot zkmsm.msm), the C ABI through ctypes
(target/release/libzkmsm_capi.so). Every result is checked equal to the CLI's
first. Median of --repeat timed calls after a warm-up, all cores.

    cargo build --release -p zkmsm-cli -p zkmsm-capi
    target/pyvenv/bin/python bench/entry/run.py --log-n 12,14,16,18,20 [--repeat 5]
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
    p.add_argument("--curves", default="bls12-377,bls12-381")
    p.add_argument("--oneshot-repeat", type=int, default=1,
                   help="timed runs of the Python one-shot (it decodes and validates the points each time)")
    a = p.parse_args()
    lib = capi()
    print(f"load average before: {os.getloadavg()}", flush=True)
    rows = []
    for log_n in map(int, a.log_n.split(",")):
        for curve, cid in (("bls12-377", 0), ("bls12-381", 1)):
            if curve not in a.curves.split(","):
                continue
            with tempfile.TemporaryDirectory() as d:
                pp, sp = os.path.join(d, "p.bin"), os.path.join(d, "s.bin")
                subprocess.run([CLI, "gen", "--curve", curve, "--log-n", str(log_n), "--points", pp, "--scalars", sp,
                                "--point-format", "uncompressed"], check=True, capture_output=True)
                out = subprocess.run([CLI, "msm", "--curve", curve, "--points", pp, "--scalars", sp, "--json",
                                      "--repeat", str(a.repeat)], check=True, capture_output=True, text=True)
                cli = json.loads(out.stdout.strip().splitlines()[-1])
                points, scalars = open(pp, "rb").read(), open(sp, "rb").read()
                ark = ark_entry(curve, pp, sp, a.repeat)
                assert ark["result"] == cli["result"]
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
            # the one-shot decodes and validates the points as the CLI's load and init do
            fmt = "uncompressed"
            assert zkmsm.msm(curve, points, scalars, format=fmt).hex() == cli["result"]
            py_once_ms = median_ms(lambda: zkmsm.msm(curve, points, scalars, format=fmt), a.oneshot_repeat)
            rows.append((curve, log_n, cli, py_ms, py_once_ms, c_ms, ark))
            print(f"{curve} 2^{log_n}: CLI {cli['msm_ms']:.1f} ms, Python {py_ms:.1f}, C {c_ms:.1f}, {ark}", flush=True)
    print(f"load average after: {os.getloadavg()}")
    print()
    print("| curve | n | backend | CLI msm_ms | zkmsm::ark::msm one-shot ms | ArkMsm.msm ms | Python Context.msm ms "
          "| C zkmsm_msm ms | ark one-shot / CLI | ArkMsm / CLI | Python / CLI | C / CLI |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for curve, log_n, cli, py_ms, _, c_ms, ark in rows:
        m = cli["msm_ms"]
        o, x = ark["ark_oneshot_ms"], ark["ark_context_ms"]
        print(f"| {curve} | 2^{log_n} | {cli['backend']} | {m:.1f} | {o:.1f} | {x:.1f} | {py_ms:.1f} | {c_ms:.1f} "
              f"| {o / m:.3f} | {x / m:.3f} | {py_ms / m:.3f} | {c_ms / m:.3f} |")
    print()
    print("| curve | n | arkworks VariableBaseMSM::msm ms | zkmsm::ark::msm one-shot ms | one-shot / arkworks "
          "| CLI load+init+msm ms | Python zkmsm.msm one-shot ms | Python one-shot / CLI load+init+msm |")
    print("|---|---|---|---|---|---|---|---|")
    for curve, log_n, cli, _, py_once_ms, _, ark in rows:
        w, o = ark["arkworks_ms"], ark["ark_oneshot_ms"]
        whole = cli["load_ms"] + cli["init_ms"] + cli["msm_ms"]
        print(f"| {curve} | 2^{log_n} | {w:.1f} | {o:.1f} | {o / w:.3f} | {whole:.1f} | {py_once_ms:.1f} "
              f"| {py_once_ms / whole:.3f} |")


def ark_entry(curve, points, scalars, repeat):
    """The Rust arkworks API and VariableBaseMSM::msm on the same files (crates/msm/benches/ark_entry.rs)."""
    out = subprocess.run(["cargo", "bench", "-q", "-p", "zkmsm", "--features", "ark", "--bench", "ark_entry", "--",
                          "--files", curve, points, scalars, str(repeat)],
                         cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
