"""Cross-check against c-kzg-4844 (PyPI `ckzg`) on Ethereum's mainnet KZG
trusted setup: blob_to_kzg_commitment(blob) is the MSM of the setup's
Lagrange-basis G1 points, in bit-reversed order, with the blob's field
elements (32-byte big-endian) as scalars.

The setup file is not in ckzg's wheel; it is in its source distribution
(src/trusted_setup.txt), fetched with pip unless ZKMSM_TRUSTED_SETUP names a
copy."""

import os
import pathlib
import random
import subprocess
import sys
import tarfile

import pytest

import zkmsm

ckzg = pytest.importorskip("ckzg") if not os.environ.get("ZKMSM_REQUIRE_CKZG") else __import__("ckzg")

N = 4096
R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001


@pytest.fixture(scope="module")
def setup_path(tmp_path_factory):
    given = os.environ.get("ZKMSM_TRUSTED_SETUP")
    if given:
        return pathlib.Path(given)
    d = tmp_path_factory.mktemp("ckzg")
    version = getattr(ckzg, "__version__", None)
    if version is None:
        from importlib.metadata import version as v
        version = v("ckzg")
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                    f"ckzg=={version}", "-d", str(d)], check=True)
    (sdist,) = d.glob("ckzg-*.tar.gz")
    with tarfile.open(sdist) as t:
        member = next(m for m in t.getmembers() if m.name.endswith("src/trusted_setup.txt"))
        out = d / "trusted_setup.txt"
        out.write_bytes(t.extractfile(member).read())
    return out


def lagrange_points(path):
    """The setup's G1 Lagrange points (compressed, Zcash = arkworks encoding):
    line 1 is the number of G1 points, line 2 of G2 points, then the G1
    Lagrange points, the G2 points and the G1 monomial points, one hex each."""
    lines = path.read_text().split()
    n_g1, n_g2 = int(lines[0]), int(lines[1])
    assert n_g1 == N and n_g2 == 65
    return [bytes.fromhex(h) for h in lines[2:2 + n_g1]]


def bit_reverse(i, bits=12):
    return int(format(i, f"0{bits}b")[::-1], 2)


def test_blob_commitment_equals_ckzg(setup_path, cli, tmp_path):
    setup = ckzg.load_trusted_setup(str(setup_path), 0)
    lagrange = lagrange_points(setup_path)
    points = b"".join(lagrange[bit_reverse(i)] for i in range(N))
    ctx = zkmsm.Context("bls12-381", points, format="compressed")
    rng = random.Random(4844)
    blobs = [
        [rng.randrange(R) for _ in range(N)],
        [0] * N,
        [R - 1] * N,
        [rng.choice([0, 1, R - 1]) for _ in range(N)],
    ]
    for values in blobs:
        blob = b"".join(v.to_bytes(32, "big") for v in values)
        expected = ckzg.blob_to_kzg_commitment(blob, setup)
        scalars = zkmsm.scalars_from_ints(values)  # the same integers, little-endian
        assert ctx.msm(scalars) == expected
    # the CLI agrees on the last blob (the setup written as a points file)
    p, s = tmp_path / "p.bin", tmp_path / "s.bin"
    p.write_bytes(points)
    s.write_bytes(scalars)
    assert cli("msm", "--curve", "bls12-381", "--points", p, "--scalars", s) == expected.hex()
