"""`zkmsm gen` streams its inputs (memory bounded whatever n), writes the
expected MSM result computed from the discrete logs (`--expected`), and
every output appears whole or not at all: a stream is written only once
everything else is whole, and two streams are refused."""

import subprocess
import sys

import pytest

from test_out_of_core import peak_rss


def gen(cli, *args):
    return subprocess.run([cli.binary, "gen", *map(str, args)], capture_output=True, text=True)


@pytest.mark.parametrize("curve,fmt,endian", [("bls12-381", "compressed", "little"),
                                              ("bls12-377", "uncompressed", "little"),
                                              ("bn254", "evm", "big")])
def test_expected_is_the_msm(cli, tmp_path, curve, fmt, endian):
    p, s, e = tmp_path / "p.bin", tmp_path / "s.bin", tmp_path / "e.hex"
    out = gen(cli, "--curve", curve, "--log-n", 12, "--points", p, "--scalars", s, "--expected", e,
              "--point-format", fmt, "--scalar-endian", endian, "--seed", 5)
    assert out.returncode == 0, out.stderr
    want = cli("msm", "--curve", curve, "--points", p, "--scalars", s, "--point-format", fmt,
               "--scalar-endian", endian)
    assert e.read_text() == want + "\n"
    assert out.stderr.strip().splitlines()[-1].endswith(want)


def test_memory_does_not_grow_with_n(cli, tmp_path):
    # 2^20 BLS12-381 points and scalars are 128 MiB of output; held in memory
    # (as gen did) with their decoded forms they took 370 MB
    _, peak = peak_rss(cli.binary, "gen", "--curve", "bls12-381", "--log-n", 20, "--points", tmp_path / "p",
                       "--scalars", tmp_path / "s", "--point-format", "uncompressed")
    # streamed: the fixed-base table (at most 104 MiB) and two blocks of 2^18
    # points (measured here: 227 MiB); the bound does not grow past a block
    assert peak < 256 << 20, f"gen 2^20 peaked at {peak / 2**20:.0f} MiB"


def test_a_failed_stream_or_file_leaves_no_half_pair(cli, tmp_path):
    p = tmp_path / "p.bin"
    p.write_bytes(b"old points")
    # the scalars go to a device that refuses every write: the points file is not replaced
    out = gen(cli, "--curve", "bls12-377", "--log-n", 8, "--points", p, "--scalars", "/dev/full")
    assert out.returncode == 1 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "/dev/full" in out.stderr and p.read_bytes() == b"old points"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["p.bin"], "a staging file was left"
    # the points to a pipe: nothing reaches it unless the scalars are whole
    run = subprocess.run(f'"{cli.binary}" gen --curve bls12-377 --log-n 8 --points - --scalars /dev/full | wc -c',
                         shell=True, capture_output=True, text=True)
    assert run.stdout.strip() == "0", run.stderr


def test_two_streams_are_refused(cli, tmp_path):
    out = subprocess.run(f'"{cli.binary}" gen --curve bls12-377 --log-n 4 --points - --scalars /dev/null | cat',
                         shell=True, capture_output=True, text=True)
    err = out.stderr.strip().splitlines()
    assert len(err) == 1 and "at most one output to a stream" in err[0], out.stderr
    assert out.stdout == ""


def test_a_stream_gets_its_bytes_once_the_file_is_whole(cli, tmp_path):
    s = tmp_path / "s.bin"
    run = subprocess.run([cli.binary, "gen", "--curve", "bls12-381", "--log-n", "10", "--points", "-", "--scalars",
                          str(s)], capture_output=True)
    assert run.returncode == 0 and len(run.stdout) == 1024 * 48 and s.stat().st_size == 1024 * 32
    p = tmp_path / "p.bin"
    p.write_bytes(run.stdout)
    assert cli("msm", "--curve", "bls12-381", "--points", p, "--scalars", s)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
