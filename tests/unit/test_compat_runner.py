"""compat/runner.py's Job.split: a client's scenarios dealt over workers that run at once."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from compat.matrix import SCENARIO_BY_ID, SCENARIOS  # noqa: E402
from compat.runner import Job  # noqa: E402


def _job(ids: list[str]) -> Job:
    return Job("kcat", ids, lambda ss: ["worker", *ss])


def test_split_runs_every_scenario_once_on_numbered_workers():
    ids = [s.id for s in SCENARIOS]
    shards = _job(ids).split(3)
    assert len(shards) == 3
    dealt = [sid for j in shards for sid in j.scenarios]
    assert sorted(dealt) == sorted(ids)  # each exactly once
    assert [j.shard for j in shards] == [1, 2, 3]  # their stderr files differ (kcat.wN.*)
    assert all(j.client == "kcat" and j.argv(j.scenarios)[1:] == j.scenarios for j in shards)
    assert max(len(j.scenarios) for j in shards) - min(len(j.scenarios) for j in shards) <= 1
    longest = max(ids, key=lambda s: SCENARIO_BY_ID[s].timeout)
    assert shards[0].scenarios[0] == longest  # longest limits first: not all on one worker


def test_split_shares_the_hello_info_and_keeps_a_small_job_whole():
    job = _job(["roundtrip", "metadata"])
    shards = job.split(3)
    assert len(shards) == 2
    shards[1].info["version"] = "kcat 1.7.1"
    assert job.info == {"version": "kcat 1.7.1"}  # the report reads the client's info from the job
    one = _job(["roundtrip"])
    assert one.split(3) == [one] and one.split(3)[0].shard == 0
    assert _job(["roundtrip", "metadata"]).split(1)[0].shard == 0
