"""``python -m kwire.bench.follower``: a follower copies a real kwire leader's partitions.

A small run (2 MB, two runs) through the benchmark's own code: each run copies every
record (the run line names the MB copied and a CPU figure), and the median line is printed.
"""

from __future__ import annotations

import re

from kwire.bench import follower


def test_each_run_copies_everything_and_reports_cpu(capsys):
    assert follower.main(["--mb", "2", "--runs", "2", "--batch-kib", "16"]) == 0
    out = capsys.readouterr().out
    runs = re.findall(r"\[run (\d)\] ([\d.]+) MB copied in [\d.]+ s: follower CPU ([\d.]+) s", out)
    assert [r[0] for r in runs] == ["1", "2"]
    assert all(1.5 <= float(mb) <= 2.5 for _, mb, _ in runs)  # the leader's .log bytes
    assert all(float(cpu) >= 0 for _, _, cpu in runs)
    assert "median follower CPU" in out
