"""``python -m kwire.bench.copy_floor``: the three copies really are made, byte for byte."""

from __future__ import annotations

import hashlib

from kwire.bench import copy_floor


def test_three_copies_of_every_byte(tmp_path):
    total = 3 * copy_floor.CHUNK + 12345  # a last chunk shorter than the others
    r = copy_floor.run_once(total, str(tmp_path))
    digests = {hashlib.sha256((tmp_path / n).read_bytes()).hexdigest() for n in ("leader", "f0", "f1")}
    assert len(digests) == 1 and (tmp_path / "f1").stat().st_size == total
    assert r["wall_s"] > 0
    assert r["brokers_cpu_s"] >= r["leader_cpu_s"] >= 0 and r["client_cpu_s"] >= 0


def test_main_prints_a_median(capsys):
    assert copy_floor.main(["--mb", "2", "--runs", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("run ") == 2 and "median of 2: wall" in out and "CPUs, load" in out
