"""`zkmsm msm --memory-budget`: 2^18 points under a 16 MiB budget give the
in-memory result, and the command's peak RSS stays within the budget plus
the stated constant (docs/SCALE.md): the RSS of the same command on 16
points."""

import json
import subprocess
import sys

import zkmsm

BUDGET = 16 << 20
# The stated constant of docs/SCALE.md: what the process holds besides the
# chunks (code, thread stacks, allocator, buffers below the budget's model).
CONSTANT = 16 << 20

PEAK = ("import resource, subprocess, sys\n"
        "r = subprocess.run(sys.argv[1:], capture_output=True, text=True, check=True)\n"
        "print((r.stdout.strip().splitlines() or [\"\"])[-1])\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)\n")


def peak_rss(*cmd, env=None):
    """(last stdout line, peak RSS in bytes) of a command run alone in a fresh process."""
    out = subprocess.run([sys.executable, "-c", PEAK, *map(str, cmd)], check=True, capture_output=True, text=True,
                         env=env)
    line, rss = out.stdout.rstrip("\n").split("\n")[-2:]
    return line, int(rss)


def test_memory_budget_2_18_points_in_16_mib(cli, tmp_path):
    binary = cli.binary
    p, s = tmp_path / "p.bin", tmp_path / "s.bin"
    cli("gen", "--curve", "bls12-381", "--log-n", 18, "--points", p, "--scalars", s, "--point-format", "uncompressed")
    expected = zkmsm.Context("bls12-381", p.read_bytes(), format="uncompressed", validate=False).msm(s.read_bytes())
    result, peak = peak_rss(binary, "msm", "--curve", "bls12-381", "--points", p, "--scalars", s,
                            "--memory-budget", "16M")
    assert result == expected.hex()
    small_p, small_s = tmp_path / "sp.bin", tmp_path / "ss.bin"
    cli("gen", "--curve", "bls12-381", "--log-n", 4, "--points", small_p, "--scalars", small_s)
    _, baseline = peak_rss(binary, "msm", "--curve", "bls12-381", "--points", small_p, "--scalars", small_s,
                           "--memory-budget", "16M")
    print(f"peak RSS {peak / 2**20:.1f} MiB, baseline {baseline / 2**20:.1f} MiB, budget 16 MiB")
    assert baseline <= CONSTANT, f"the constant grew: {baseline / 2**20:.1f} MiB"
    assert peak <= BUDGET + CONSTANT, f"peak RSS {peak / 2**20:.1f} MiB > 16 MiB budget + 16 MiB constant"


def test_a_prepared_file_under_a_budget(cli, tmp_path):
    """`zkmsm prepare --memory-budget` writes the file `prepare` writes in
    memory, and `msm --prepared --memory-budget` streams it in chunks to the
    in-memory result within the budget plus the constant."""
    binary = cli.binary
    p, s = tmp_path / "p.bin", tmp_path / "s.bin"
    cli("gen", "--curve", "bls12-381", "--log-n", 17, "--points", p, "--scalars", s)
    expected = cli("msm", "--curve", "bls12-381", "--points", p, "--scalars", s)
    whole, streamed = tmp_path / "whole.prep", tmp_path / "streamed.prep"
    cli("prepare", "--curve", "bls12-381", "--points", p, "--out", whole, "--glv", "off")
    cli("prepare", "--curve", "bls12-381", "--points", p, "--out", streamed, "--memory-budget", "16M")
    assert streamed.read_bytes() == whole.read_bytes()
    line, peak = peak_rss(binary, "msm", "--curve", "bls12-381", "--prepared", streamed, "--scalars", s,
                          "--memory-budget", "16M", "--json")
    report = json.loads(line)
    assert report["result"] == expected and report["chunks"] > 1
    assert report["read_bytes"] == streamed.stat().st_size - 4096 + s.stat().st_size
    assert peak <= BUDGET + CONSTANT, f"peak RSS {peak / 2**20:.1f} MiB"
