#!/usr/bin/env python3
"""ns per field multiplication: zkmsm portable, zkmsm dispatched (MULX/ADX
assembly on a BMI2+ADX CPU), arkworks 0.5 (`asm` feature) and gnark-crypto;
and ns per field inversion: zkmsm's divstep inversion (`PrimeField::inverse`),
zkmsm's Fermat inversion, arkworks and gnark-crypto.

    python3 bench/field/run.py            # prints and writes docs/BENCHMARKS.md
    python3 bench/field/run.py --no-write

Every figure is the minimum over --rounds rounds of --iters dependent
multiplications x <- x*y (squarings x <- x^2): on a shared machine the
minimum is the round that ran undisturbed. The Rust side is
bench/peers/rust/src/bin/fieldmul.rs (plus bench/field/rust/src/bin/fieldsqr.rs:
the dedicated 6-limb squaring against the multiplication used as x*x), the Go
side bench/peers/go/fieldmul_test.go (`go test -bench` with -benchtime Nx
-count rounds, minimum taken here).
Inversions: bench/field/rust/src/bin/fieldinv.rs and bench/field/go/fieldinv_test.go,
--inv-iters inversions per round, minimum over --inv-rounds rounds, in two
shapes: a dependent chain x <- 1/x + 1, and 1024 independent random elements.
"""
import argparse
import datetime
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "peers"))
import run as peers  # noqa: E402  (machine description, markdown writer)

BEGIN = "<!-- fieldmul:begin (written by bench/field/run.py) -->"
END = "<!-- fieldmul:end -->"
GO_NAMES = {
    "Fq377Mul": ("bls12-377 Fq", "mul"), "Fq377Square": ("bls12-377 Fq", "square"),
    "Fq381Mul": ("bls12-381 Fq", "mul"), "Fq381Square": ("bls12-381 Fq", "square"),
    "Fr377Mul": ("bls12-377 Fr", "mul"), "Fr381Mul": ("bls12-381 Fr", "mul"),
}
INV_RUST_DIR = os.path.join(HERE, "rust")
INV_GO_DIR = os.path.join(HERE, "go")
GO_INV = {f"{k}{n}Inverse{s}": (f"bls12-{n} {'Fq' if k == 'Fq' else 'Fr'}", op)
          for k in ("Fq", "Fr") for n in ("377", "381") for s, op in (("", "inverse"), ("Indep", "inverse-indep"))}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iters", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--inv-iters", type=int, default=2000)
    ap.add_argument("--inv-rounds", type=int, default=50)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--md", default=os.path.join(ROOT, "docs", "BENCHMARKS.md"))
    a = ap.parse_args()

    target = peers.rust_target_dir()
    inv_target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(INV_RUST_DIR, "target")
    if not a.no_build:
        # cwd = the runner's directory: cargo reads .cargo/config.toml (the
        # -C target-feature=+bmi2,+adx that arkworks' `asm` needs) from the
        # working directory, not from the manifest's.
        peers.sh(["cargo", "build", "--release", "--manifest-path", os.path.join(peers.RUST_DIR, "Cargo.toml"),
                  "--bin", "fieldmul"], cwd=peers.RUST_DIR)
        peers.sh(["cargo", "build", "--release", "--manifest-path", os.path.join(INV_RUST_DIR, "Cargo.toml"),
                  "--bin", "fieldinv", "--bin", "fieldsqr"], cwd=INV_RUST_DIR)
    load0 = os.getloadavg()[0]
    out = peers.sh([os.path.join(target, "release", "fieldmul"), "--iters", str(a.iters), "--rounds", str(a.rounds)])
    t = {}  # (field, op) -> {impl: ns}
    for line in out.strip().splitlines()[1:]:
        field, impl, op, ns = line.split(",")
        impl = re.sub(r"\(asm=(true|false)\)", lambda m: " (asm)" if m.group(1) == "true" else " (no asm)", impl)
        t.setdefault((field, op), {})[impl] = float(ns)
    sout = peers.sh([os.path.join(inv_target, "release", "fieldsqr"), "--iters", str(a.iters), "--rounds", str(a.rounds)])
    sq_ratio = {}  # field -> median over paired rounds of (dedicated square) / (x*x)
    for line in sout.strip().splitlines()[1:]:
        field, impl, op, ns = line.split(",")
        if impl.startswith("zkmsm-asm / x*x"):
            sq_ratio[field] = float(ns)
        else:
            t.setdefault((field, op), {})[impl] = float(ns)
    gout = peers.sh(["go", "test", "-run", "NONE", "-bench", ".", "-benchtime", f"{a.iters}x", "-count",
                     str(a.rounds)], cwd=peers.GO_DIR)
    for line in gout.splitlines():
        m = re.match(r"Benchmark(\w+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op", line)
        if m and m.group(1) in GO_NAMES:
            k = GO_NAMES[m.group(1)]
            d = t.setdefault(k, {})
            d["gnark-crypto"] = min(d.get("gnark-crypto", float("inf")), float(m.group(3)))
    inv = {}  # (field, op) -> {impl: ns}
    iout = peers.sh([os.path.join(inv_target, "release", "fieldinv"), "--iters", str(a.inv_iters), "--rounds",
                     str(a.inv_rounds)])
    for line in iout.strip().splitlines()[1:]:
        field, impl, op, ns = line.split(",")
        inv.setdefault((field, op), {})[impl] = float(ns)
    gout = peers.sh(["go", "test", "-run", "NONE", "-bench", "Inverse", "-benchtime", f"{a.inv_iters}x", "-count",
                     str(a.inv_rounds)], cwd=INV_GO_DIR)
    for line in gout.splitlines():
        m = re.match(r"Benchmark(\w+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op", line)
        if m and m.group(1) in GO_INV:
            d = inv.setdefault(GO_INV[m.group(1)], {})
            d["gnark-crypto"] = min(d.get("gnark-crypto", float("inf")), float(m.group(3)))
    load1 = os.getloadavg()[0]

    impls = ["zkmsm-portable", "zkmsm-asm", "zkmsm-asm x*x", "zkmsm-dispatch (asm)", "zkmsm-dispatch (no asm)", "arkworks-asm",
             "gnark-crypto"]
    for d in t.values():
        for k in d:
            if k not in impls:
                impls.append(k)
    impls = [i for i in impls if any(i in d for d in t.values())]
    cmd = "python3 bench/field/run.py " + " ".join(shlex.quote(x) for x in sys.argv[1:])
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [BEGIN, "", f"Measured {date} with `{cmd}`.", "",
             f"- Machine: {peers.machine()}; load average before/after: {load0:.2f} / {load1:.2f} "
             f"(a shared machine: the minimum over {a.rounds} rounds of {a.iters} operations is reported).",
             f"- Versions: {', '.join(f'{k} {v}' for k, v in peers.versions().items())}.",
             "- ns per operation in a dependent chain (latency, one thread). `zkmsm-dispatch` is the `*` "
             "operator as the library runs it (run-time CPU detection; the assembly when BMI2+ADX are present); "
             "`zkmsm-portable` is the Rust CIOS code, `zkmsm-asm` the MULX/ADX code called directly "
             "(`Fp::mul_asm`; the 4-limb fields do not dispatch to it; for squaring, the dedicated 6-limb "
             "squaring `Fp::square_asm`, which `square()` dispatches to), `zkmsm-asm x*x` the MULX/ADX "
             "multiplication used as a squaring (bench/field/rust/src/bin/fieldsqr.rs). The Rust runner is compiled with "
             "`-C target-feature=+bmi2,+adx` (needed by arkworks' `asm` feature).",
             "",
             "| field | op | " + " | ".join(impls) + " |",
             "|" + "---|" * (len(impls) + 2)]
    for (field, op), d in t.items():
        lines.append(f"| {field} | {op} | " + " | ".join(f"{d[i]:.1f}" if i in d else "–" for i in impls) + " |")
    if sq_ratio:
        lines += ["", "Dedicated 6-limb squaring vs the multiplication as x*x, timed in alternating rounds (so both "
                  "see the same machine load), median over the rounds of the per-round ratio: "
                  + ", ".join(f"{f} {r:.3f}" for f, r in sq_ratio.items()) + "."]
    inv_impls = ["zkmsm-divsteps", "zkmsm-fermat", "arkworks-asm", "gnark-crypto"]
    lines += ["",
              f"Inversion, ns per inversion on one thread, minimum over {a.inv_rounds} rounds of {a.inv_iters}: "
              "`inverse` is a dependent chain x <- 1/x + 1 (latency), `inverse-indep` inverts 1024 fixed "
              "random elements in turn (independent inputs; the variable-time algorithms are averaged over "
              "them). `zkmsm-divsteps` is `PrimeField::inverse` (Bernstein-Yang divsteps, variable time, "
              "crates/field/src/inverse.rs), `zkmsm-fermat` is `Fp::inverse_fermat` (a^(q-2), dispatched "
              "multiplications), `arkworks-asm` is `Field::inverse`, `gnark-crypto` is `Element.Inverse` "
              "(bench/field/rust/src/bin/fieldinv.rs, bench/field/go/fieldinv_test.go).",
              "",
              "| field | op | " + " | ".join(inv_impls) + " | Fermat / divsteps |",
              "|" + "---|" * (len(inv_impls) + 3)]
    for (field, op), d in sorted(inv.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        ratio = peers.fmt_ratio(d.get("zkmsm-fermat"), d.get("zkmsm-divsteps"))
        lines.append(f"| {field} | {op} | " + " | ".join(f"{d[i]:.0f}" if i in d else "–" for i in inv_impls)
                     + f" | {ratio} |")
    lines += ["", END]
    block = "\n".join(lines)
    print(block)
    if not a.no_write:
        write(a.md, block)


def write(path, block):
    text = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
    if BEGIN in text and END in text:
        text = text.split(BEGIN)[0] + block + text.split(END, 1)[1]
    elif "## Field multiplication" in text:
        head, tail = text.split("## Field multiplication", 1)
        first, _, rest = tail.partition("\n")
        text = head + "## Field multiplication" + first + "\n\n" + block + "\n" + rest
    else:
        text = text.rstrip("\n") + "\n\n## Field multiplication\n\n" + block + "\n"
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
