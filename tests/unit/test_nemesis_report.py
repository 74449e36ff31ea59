"""kwire.nemesis.report on hand-made long-run reports: one row per run, anomalies summed, failures found."""

from __future__ import annotations

import json

from kwire.nemesis.report import failed, main, read_dir, rows, table


def _report(seed: int, lost: int = 0, txn_g1c: int = 0) -> dict:
    faults = [{"kind": "bridge", "recovery_s": 1.5}, {"kind": "pause-during-partition", "recovery_s": 4.2}]
    return {"seed": seed, "figures": {"acknowledged": 100, "indeterminate": 3, "lost": lost, "unseen": 0,
                                      "faults": faults,
                                      "txn": {"acknowledged": 40, "indeterminate": 0, "g1c": txn_g1c}}}


def _write(tmp_path, name: str, report: dict | None, rc: int | None, loads=(12.0, 30.4)) -> None:
    if report is not None:
        (tmp_path / f"{name}.json").write_text(json.dumps(report))
    (tmp_path / f"{name}.figures.jsonl").write_text(
        "".join(json.dumps({"kind": "bridge", "recovery_s": 9.0, "load": x}) + "\n" for x in loads))
    if rc is not None:
        (tmp_path / f"{name}.rc").write_text(f"{rc}\n")


def test_a_clean_run_is_one_row_with_both_workloads_summed(tmp_path):
    _write(tmp_path, "run-1", _report(7), 0)
    [row] = rows(read_dir(str(tmp_path)))
    assert (row["seed"], row["faults"], row["acknowledged"], row["indeterminate"]) == (7, 2, 140, 3)
    assert row["recovery_s"] == 4.2 and row["load"] == "12-30" and not any(row["anomalies"].values())
    assert not failed([row])
    assert "| run-1 | 7 | 2 | 140 | 3 |" in table([row])


def test_an_anomaly_in_either_workload_fails_the_table(tmp_path):
    _write(tmp_path, "run-1", _report(7), 0)
    _write(tmp_path, "run-2", _report(8, txn_g1c=1), 1)
    found = rows(read_dir(str(tmp_path)))
    assert [r["anomalies"]["g1c"] for r in found] == [0, 1]
    assert failed(found) and main([str(tmp_path)]) == 1


def test_a_run_that_stopped_before_its_checks_fails_with_what_its_faults_say(tmp_path):
    _write(tmp_path, "run-1", {"seed": 9, "schedule": ["bridge"]}, 1)
    [row] = rows(read_dir(str(tmp_path)))
    assert row["anomalies"] is None and row["faults"] == 2 and row["recovery_s"] == 9.0
    assert failed([row])


def test_a_failing_exit_code_alone_fails(tmp_path):
    _write(tmp_path, "run-1", _report(7), 1)
    assert main([str(tmp_path)]) == 1


def test_runs_are_ordered_by_number_and_an_empty_dir_is_an_error(tmp_path):
    assert main([str(tmp_path)]) == 2
    for n in (10, 2, 1):
        _write(tmp_path, f"run-{n}", _report(n), 0)
    assert [r["run"] for r in rows(read_dir(str(tmp_path)))] == ["run-1", "run-2", "run-10"]
    assert main([str(tmp_path)]) == 0
