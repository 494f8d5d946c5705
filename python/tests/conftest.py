"""Shared fixtures: the zkmsm CLI (the reference every entry point must equal)
and input files it generates."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    """Run the zkmsm command; returns the last line of stdout."""
    binary = os.environ.get("ZKMSM_CLI", str(ROOT / "target" / "release" / "zkmsm"))
    if not os.path.exists(binary):
        pytest.fail(f"{binary} not found: cargo build --release -p zkmsm-cli (or set ZKMSM_CLI)")

    def run(*args):
        out = subprocess.run([binary, *map(str, args)], check=True, capture_output=True, text=True)
        lines = out.stdout.strip().splitlines()
        return lines[-1] if lines else ""

    run.binary = binary
    return run


@pytest.fixture(scope="session")
def inputs(cli, tmp_path_factory):
    """(curve, format, log_n, seed, group) -> (points bytes, scalars bytes, CLI result hex)."""
    cache = {}

    def get(curve, fmt="compressed", log_n=10, seed=1, group="g1"):
        key = (curve, fmt, log_n, seed, group)
        if key not in cache:
            d = tmp_path_factory.mktemp("in")
            p, s = d / "p.bin", d / "s.bin"
            cli("gen", "--curve", curve, "--group", group, "--log-n", log_n, "--points", p, "--scalars", s,
                "--point-format", fmt, "--seed", seed)
            expected = cli("msm", "--curve", curve, "--group", group, "--points", p, "--scalars", s,
                           "--point-format", fmt)
            cache[key] = (p.read_bytes(), s.read_bytes(), expected, p, s)
        return cache[key]

    return get
