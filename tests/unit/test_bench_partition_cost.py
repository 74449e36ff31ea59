"""``python -m kwire.bench.partition_cost --calls``: the function-call count per partition.

A small run (40 partitions, one round) through the same code as the benchmark: the counts
are there for every workload asked, positive, and printed in their own column; the timed
figures stay as they were (one per round).
"""

from __future__ import annotations

from kwire.bench import partition_cost


def test_calls_are_counted_per_partition_and_printed(tmp_path):
    results = partition_cost.run(40, 1, ["produce", "list_offsets", "offset_commit"],
                                 str(tmp_path), calls=True)
    for name in ("produce", "list_offsets", "offset_commit"):
        assert len(results[name]) == 1
        assert results[name + ":calls"] > 5  # a request is dozens of calls per partition
    # Produce costs more calls per partition than ListOffsets (the append path)
    assert results["produce:calls"] > results["list_offsets:calls"]
    text = partition_cost.report(results, 40)
    header, *rows = text.splitlines()[1:]
    assert header.split()[-1] == "calls"
    produce = next(r for r in rows if r.startswith("produce"))
    assert float(produce.split()[-1]) == round(results["produce:calls"], 1)


def test_without_calls_nothing_is_counted(tmp_path):
    results = partition_cost.run(40, 1, ["list_offsets"], str(tmp_path))
    assert set(results) == {"list_offsets"}
    assert "calls" not in partition_cost.report(results, 40)
