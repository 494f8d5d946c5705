#!/usr/bin/env python3
"""Side-by-side MSM benchmark: zkmsm vs gnark-crypto, blst, arkworks and
halo2curves on identical inputs (uniform points of the prime-order subgroup,
uniform scalars). blst runs on BLS12-381 only, halo2curves on BN254's G1
only.

    python3 bench/peers/run.py --log-n 12-20
    python3 bench/peers/run.py --group g2 --log-n 12-18

Every implementation reads the same files, times one warm-up plus --repeat
runs of the MSM call alone and prints the median and the result (hex of the
arkworks compressed encoding). The results of all implementations are
compared for every size before any time is reported; a mismatch aborts the
run with exit status 2 and writes nothing.

Writes the table into docs/BENCHMARKS.md (section "Peer comparison", between
the peers markers; G2 between the peers-g2 markers) and the raw numbers into
docs/peers.csv (docs/peers-g2.csv; --no-write to only print).
"""
import argparse
import csv
import datetime
import json
import os
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
RUST_DIR = os.path.join(HERE, "rust")
GO_DIR = os.path.join(HERE, "go")
DATA_DIR = os.path.join(HERE, "data")
CURVES = ["bls12-377", "bls12-381", "bn254"]
IMPLS = ["zkmsm", "gnark-crypto", "blst", "arkworks", "halo2curves"]
# peers that implement only some curves (the others run on every curve)
ONLY_ON = {"blst": {"bls12-381"}, "halo2curves": {"bn254"}}
# peers that implement only some groups
GROUPS_OF = {"halo2curves": {"g1"}}
# bytes of one uncompressed G1 point (arkworks canonical encoding; twice on G2)
POINT_BYTES = {"bls12-377": 96, "bls12-381": 96, "bn254": 64}
ZKMSM_EXTRA = []  # --zkmsm-arg values


def markers(group):
    tag = "peers" if group == "g1" else f"peers-{group}"
    return f"<!-- {tag}:begin (written by bench/peers/run.py) -->", f"<!-- {tag}:end -->"


def log(msg):
    print(f"[peers] {msg}", file=sys.stderr, flush=True)


def sh(cmd, cwd=None, env=None, timeout=None):
    log("$ " + " ".join(shlex.quote(c) for c in cmd))
    r = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=timeout)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-4000:] + r.stderr[-4000:])
        raise SystemExit(f"command failed with status {r.returncode}: {' '.join(cmd)}")
    return r.stdout


def parse_range(s):
    if "-" in s:
        a, b = s.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in s.split(",")]


def rust_target_dir():
    return os.environ.get("CARGO_TARGET_DIR") or os.path.join(RUST_DIR, "target")


def build_peers(skip):
    bins = {
        "ark": os.path.join(rust_target_dir(), "release", "peer-ark"),
        "blst": os.path.join(rust_target_dir(), "release", "peer-blst"),
        "halo2": os.path.join(rust_target_dir(), "release", "peer-halo2"),
        "gnark": os.path.join(GO_DIR, "peer-gnark"),
    }
    if not skip:
        # run from RUST_DIR: cargo reads .cargo/config.toml (the +bmi2,+adx
        # flags arkworks' asm and blst's ADX paths need) from the working
        # directory, not from the manifest's
        sh(["cargo", "build", "--release", "--manifest-path", os.path.join(RUST_DIR, "Cargo.toml"),
            "--bin", "peer-ark", "--bin", "peer-blst", "--bin", "peer-halo2"], cwd=RUST_DIR)
        sh(["go", "build", "-o", "peer-gnark", "."], cwd=GO_DIR)
    for k, p in bins.items():
        if not os.path.exists(p):
            raise SystemExit(f"missing peer runner {p} (run without --no-build)")
    return bins


def find_zkmsm(arg):
    if arg:
        return arg if os.path.exists(arg) else None
    cands = []
    if os.environ.get("CARGO_TARGET_DIR"):
        cands.append(os.path.join(os.environ["CARGO_TARGET_DIR"], "release", "zkmsm"))
    cands.append(os.path.join(ROOT, "target", "release", "zkmsm"))
    for c in cands:
        if os.path.exists(c):
            return c
    return None


def last_json(out, who):
    lines = [l for l in out.strip().splitlines() if l.strip()]
    if not lines:
        raise SystemExit(f"{who}: no output")
    try:
        return json.loads(lines[-1])
    except json.JSONDecodeError:
        raise SystemExit(f"{who}: last stdout line is not JSON: {lines[-1][:200]}")


def inputs(curve, group, log_n, seed, gen, bins, zkmsm):
    """Returns (compressed points, uncompressed points, scalars) paths, generating if needed (the
    compressed file only with --gen ark; no runner reads it)."""
    tag = "" if group == "g1" else f"-{group}"
    d = os.path.join(DATA_DIR, f"{curve}{tag}-2^{log_n}-seed{seed}-{gen}")
    pc, pu, sc = (os.path.join(d, f) for f in ("points.bin", "points.u.bin", "scalars.bin"))
    if all(os.path.exists(p) for p in (pu, sc)):
        return pc, pu, sc
    os.makedirs(d, exist_ok=True)
    t0 = time.time()
    if gen == "zkmsm":
        # the runners read the uncompressed points: written straight by the
        # generator, no square roots (2^24 in minutes, not hours)
        sh([zkmsm, "gen", "--curve", curve, "--group", group, "--log-n", str(log_n), "--points", pu,
            "--scalars", sc, "--seed", str(seed), "--point-format", "uncompressed"])
    else:
        sh([bins["ark"], "gen", "--curve", curve, "--group", group, "--log-n", str(log_n), "--points", pc,
            "--scalars", sc, "--seed", str(seed)])
        sh([bins["ark"], "convert", "--curve", curve, "--group", group, "--in", pc, "--out", pu,
            "--to", "uncompressed"])
    n = 1 << log_n
    point_bytes = POINT_BYTES[curve] * (2 if group == "g2" else 1)
    if os.path.getsize(sc) != 32 * n or os.path.getsize(pu) != point_bytes * n:
        raise SystemExit(f"generated inputs in {d} have unexpected sizes")
    log(f"inputs {curve} 2^{log_n} ready in {time.time() - t0:.1f}s")
    return pc, pu, sc


def run_impl(impl, curve, group, files, repeat, bins, zkmsm, timeout):
    pc, pu, sc = files
    g = ["--group", group]
    if impl == "zkmsm":
        cmd = [zkmsm, "msm", "--curve", curve] + g + ["--points", pu, "--point-format", "uncompressed",
                                                      "--scalars", sc, "--json", "--repeat", str(repeat)] + ZKMSM_EXTRA
    elif impl == "gnark-crypto":
        cmd = [bins["gnark"], "--curve", curve] + g + ["--points", pu, "--scalars", sc, "--repeat", str(repeat)]
    elif impl == "blst":
        cmd = [bins["blst"], "msm", "--curve", curve] + g + ["--points", pu, "--scalars", sc,
                                                             "--repeat", str(repeat)]
    elif impl == "arkworks":
        cmd = [bins["ark"], "msm", "--curve", curve] + g + ["--points", pu, "--point-format", "uncompressed",
                                                            "--scalars", sc, "--repeat", str(repeat)]
    elif impl == "halo2curves":
        cmd = [bins["halo2"], "msm", "--curve", curve, "--points", pu, "--point-format", "uncompressed",
               "--scalars", sc, "--repeat", str(repeat)]
    else:
        raise ValueError(impl)
    j = last_json(sh(cmd, timeout=timeout), impl)
    for k in ("result", "msm_ms"):
        if k not in j:
            raise SystemExit(f"{impl}: JSON lacks '{k}': {j}")
    return {"result": str(j["result"]).lower(), "msm_ms": float(j["msm_ms"]), "threads": j.get("threads"),
            "backend": j.get("backend", "")}


def machine():
    model, flags = "unknown CPU", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and model == "unknown CPU":
                    model = line.split(":", 1)[1].strip()
                if line.startswith("flags") and not flags:
                    flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    feats = [x for x in ("bmi2", "adx", "avx2", "avx512f", "avx512ifma") if x in flags]
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
            mem = f", {kb / 2**20:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return f"{model}, {os.cpu_count()} logical cores{mem}, flags: {' '.join(feats) or 'none of bmi2/adx/avx'}"


def versions():
    v = {}
    try:
        with open(os.path.join(GO_DIR, "go.mod")) as f:
            for line in f:
                if "gnark-crypto" in line and "require" not in line.split()[0:1]:
                    v["gnark-crypto"] = line.split()[-1]
                elif line.startswith("require github.com/consensys/gnark-crypto"):
                    v["gnark-crypto"] = line.split()[-1]
        lock = open(os.path.join(RUST_DIR, "Cargo.lock")).read().split("[[package]]")
        for pkg in lock:
            for name in ("blst", "ark-ec", "halo2curves"):
                if f'name = "{name}"\n' in pkg:
                    v[name] = pkg.split('version = "')[1].split('"')[0]
    except OSError:
        pass
    try:
        v["go"] = subprocess.run(["go", "env", "GOVERSION"], capture_output=True, text=True).stdout.strip()
        v["rustc"] = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.split()[1]
    except (OSError, IndexError):
        pass
    return v


def fmt_ratio(a, b):
    return f"{a / b:.2f}" if a and b else "–"


def render(rows, impls, meta):
    begin, end = markers(meta["group"])
    out = [begin, ""]
    out.append(f"Measured {meta['date']} with `{meta['command']}`.")
    out.append("")
    out.append(f"- Machine: {meta['machine']}; load average before/after: {meta['load']}.")
    out.append(f"- Versions: {meta['versions']}.")
    out.append(f"- Inputs: uniform points of the prime-order subgroup and uniform scalars below r, "
               f"generated by `{meta['gen']}` (seed {meta['seed']}); every implementation reads the same files.")
    out.append(f"- Times: median of {meta['repeat']} timed runs after one warm-up, MSM call only (no I/O, "
               f"no conversion), all cores for every implementation. Ratio = zkmsm time / peer time "
               f"(below 1: zkmsm is faster).")
    out.append("- Every result was checked equal (arkworks compressed encoding) across implementations "
               "before these times were written.")
    if meta["note"]:
        out.append(f"- {meta['note']}")
    if "zkmsm" not in impls:
        out.append("- **zkmsm column missing**: no `zkmsm` binary was available for this run.")
    out.append("")
    for curve in meta["curves"]:
        peers = [i for i in impls if i != "zkmsm" and any(r["impl"] == i and r["curve"] == curve for r in rows)]
        cols = ["zkmsm"] + peers if "zkmsm" in impls else peers
        by_backend = {}
        for r in rows:
            if r["impl"] == "zkmsm" and r["curve"] == curve and r.get("backend"):
                by_backend.setdefault(r["backend"], []).append(f"2^{r['log_n']}")
        n_sizes = len({r["log_n"] for r in rows if r["curve"] == curve})
        backends = [f"{b} ({'every size' if len(v) == n_sizes else ', '.join(v)})" for b, v in by_backend.items()]
        out.append(f"**{curve} {meta['group'].upper()}** (ms)")
        if backends:
            out.append("")
            out.append("zkmsm backend chosen (`auto`): " + ", ".join(backends))
        out.append("")
        head = "| n | " + " | ".join(cols) + (" | " + " | ".join(f"zkmsm/{p}" for p in peers) if "zkmsm" in cols else "")
        out.append(head + " |")
        out.append("|" + "---|" * (head.count("|")))
        for log_n in meta["log_ns"]:
            t = {r["impl"]: r["msm_ms"] for r in rows if r["curve"] == curve and r["log_n"] == log_n}
            if not t:
                continue
            cells = [f"2^{log_n}"] + [f"{t[c]:.2f}" if c in t else "–" for c in cols]
            if "zkmsm" in cols:
                cells += [fmt_ratio(t.get("zkmsm"), t.get(p)) for p in peers]
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    out.append(end)
    return "\n".join(out)


def write_markdown(path, block, group):
    begin, end = markers(group)
    heading = "## Peer comparison" if group == "g1" else f"## Peer comparison: {group.upper()}"
    text = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
    if begin in text and end in text:
        pre = text.split(begin)[0]
        post = text.split(end, 1)[1]
        text = pre + block + post
    elif heading in text:
        head, tail = text.split(heading, 1)
        # insert right after the heading line
        first, _, rest = tail.partition("\n")
        text = head + heading + first + "\n\n" + block + "\n" + rest
    else:
        text = text.rstrip("\n") + f"\n\n{heading}\n\n" + block + "\n"
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--log-n", default="12-20", help="sizes as log2, e.g. 12-20 or 12,16,20")
    ap.add_argument("--curves", default=",".join(CURVES))
    ap.add_argument("--group", choices=["g1", "g2"], default="g1")
    ap.add_argument("--impls", default=",".join(IMPLS), help="subset of " + ",".join(IMPLS))
    ap.add_argument("--repeat", type=int, default=5, help="timed runs after one warm-up (>= 5 for the docs)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gen", choices=["auto", "zkmsm", "ark"], default="auto",
                    help="input generator: `zkmsm gen` or the arkworks runner (auto: zkmsm when present)")
    ap.add_argument("--zkmsm", help="path of the zkmsm binary (default: target/release/zkmsm)")
    ap.add_argument("--no-build", action="store_true", help="do not (re)build the peer runners")
    ap.add_argument("--zkmsm-arg", action="append", default=[],
                    help="extra argument for `zkmsm msm` (repeatable), e.g. --zkmsm-arg=--backend=xyzz")
    ap.add_argument("--note", default="", help="a line added to the report (e.g. which zkmsm commit was measured)")
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per implementation run")
    ap.add_argument("--no-write", action="store_true", help="print only; leave docs/ alone")
    ap.add_argument("--gen-only", action="store_true", help="only generate (cache) the inputs")
    ap.add_argument("--md", default=os.path.join(ROOT, "docs", "BENCHMARKS.md"))
    ap.add_argument("--csv", help="raw numbers (default: docs/peers.csv; docs/peers-g2.csv for G2)")
    a = ap.parse_args()
    if a.csv is None:
        a.csv = os.path.join(ROOT, "docs", "peers.csv" if a.group == "g1" else f"peers-{a.group}.csv")

    ZKMSM_EXTRA.extend(a.zkmsm_arg)
    log_ns = parse_range(a.log_n)
    curves = a.curves.split(",")
    impls = [i for i in a.impls.split(",") if i]
    for i in impls:
        if i not in IMPLS:
            raise SystemExit(f"unknown implementation {i}")
    for c in curves:
        if c not in CURVES:
            raise SystemExit(f"unknown curve {c}")
    zkmsm = find_zkmsm(a.zkmsm)
    if "zkmsm" in impls and not zkmsm:
        log("WARNING: no zkmsm binary (build it with `cargo build --release -p zkmsm-cli`); running the peers only")
        impls.remove("zkmsm")
    gen = a.gen if a.gen != "auto" else ("zkmsm" if zkmsm else "ark")
    if gen == "zkmsm" and not zkmsm:
        raise SystemExit("--gen zkmsm needs the zkmsm binary")
    bins = build_peers(a.no_build)
    load_before = os.getloadavg()

    rows, mismatches = [], []
    for curve in curves:
        for log_n in log_ns:
            files = inputs(curve, a.group, log_n, a.seed, gen, bins, zkmsm)
            if a.gen_only:
                continue
            res = {}
            for impl in impls:
                if impl in ONLY_ON and curve not in ONLY_ON[impl]:
                    continue
                if impl in GROUPS_OF and a.group not in GROUPS_OF[impl]:
                    continue
                r = run_impl(impl, curve, a.group, files, a.repeat, bins, zkmsm, a.timeout)
                res[impl] = r
                rows.append({"curve": curve, "log_n": log_n, "n": 1 << log_n, "impl": impl, **r})
            distinct = {r["result"] for r in res.values()}
            if len(distinct) != 1:
                mismatches.append((curve, log_n, {k: v["result"] for k, v in res.items()}))
                log(f"!!! RESULT MISMATCH on {curve} 2^{log_n}: " +
                    ", ".join(f"{k}={v['result'][:24]}…" for k, v in res.items()))
            else:
                log(f"{curve} 2^{log_n}: all {len(res)} results equal ({next(iter(distinct))[:16]}…)")

    if a.gen_only:
        return
    if mismatches:
        print("\n" + "!" * 72, file=sys.stderr)
        print("RESULT MISMATCH: the implementations disagree; no times are reported.", file=sys.stderr)
        for curve, log_n, r in mismatches:
            print(f"  {curve} 2^{log_n}:", file=sys.stderr)
            for k, v in r.items():
                print(f"    {k:13s} {v}", file=sys.stderr)
        print("!" * 72, file=sys.stderr)
        sys.exit(2)

    argv = [a for a in sys.argv[1:]]
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python3 bench/peers/run.py " + " ".join(shlex.quote(x) for x in argv),
        "machine": machine(),
        "load": f"{load_before[0]:.2f} / {os.getloadavg()[0]:.2f}",
        "versions": ", ".join(f"{k} {v}" for k, v in versions().items()),
        "gen": "zkmsm gen" if gen == "zkmsm" else "peer-ark gen",
        "seed": a.seed,
        "repeat": a.repeat,
        "note": a.note,
        "curves": curves,
        "group": a.group,
        "log_ns": log_ns,
    }
    block = render(rows, impls, meta)
    print(block)
    if not a.no_write:
        write_markdown(a.md, block, a.group)
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["curve", "log_n", "n", "impl", "msm_ms", "threads", "backend", "result"])
            for r in rows:
                w.writerow([r["curve"], r["log_n"], r["n"], r["impl"], f"{r['msm_ms']:.3f}", r["threads"],
                            r.get("backend") or "", r["result"]])
        log(f"wrote {a.md} and {a.csv}")


if __name__ == "__main__":
    main()
