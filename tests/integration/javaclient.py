"""Compile and run the Java client program in ``tests/java`` against a kwire broker.

Jars come from the first of these directories that holds
``kafka-clients-4.3.0.jar``: ``$KWIRE_JAVA_JARS``, ``${KWIRE_CACHE:-~/.cache/kwire}/jars``
(filled by ``scripts/fetch-java-jars.py``), ``/tmp/wheels/jars``. When none
does, ``require_java()`` skips the calling test with a message naming the jar;
that is the only reason a Java test is skipped. A missing JDK or a compile
error fails the test.

The classpath is kafka-clients plus the newest of each runtime dependency it
loads (slf4j-api, lz4-java, snappy-java, zstd-jni) found beside it; other jars
in the directory are ignored (an old ``lz4-*.jar`` would shadow lz4-java's
classes). Sources are compiled with plain ``javac`` once per source+classpath
hash into ``$TMPDIR/kwire-java-<hash>`` (an atomic rename publishes the
classes, so concurrent sessions share them safely).

``run(command, *args)`` runs ``KwireClient <command> <args...>`` and returns its
JSON lines as dicts; a non-zero exit raises ``JavaClientError`` carrying the
program's stdout and stderr.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

KAFKA_CLIENTS_JAR = "kafka-clients-4.3.0.jar"
MAIN_CLASS = "KwireClient"
JAVA_SOURCES = Path(__file__).resolve().parent.parent / "java"
RUNTIME_DEPS = ("slf4j-api", "lz4-java", "snappy-java", "zstd-jni")

_compiled: dict[str, Path] = {}


class JavaClientError(AssertionError):
    def __init__(self, argv: list[str], rc: int | None, stdout: str, stderr: str) -> None:
        self.rc, self.stdout, self.stderr = rc, stdout, stderr
        errors = [line for line in stdout.splitlines() if '"type":"error"' in line]
        super().__init__(
            f"java {' '.join(argv[-6:])} exited {rc}\n{chr(10).join(errors)}\n"
            f"--- stderr (tail) ---\n{stderr[-4000:]}"
        )


def candidate_jar_dirs() -> list[Path]:
    dirs = []
    if os.environ.get("KWIRE_JAVA_JARS"):
        dirs.append(Path(os.environ["KWIRE_JAVA_JARS"]))
    cache = os.environ.get("KWIRE_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "kwire")
    dirs.append(Path(cache) / "jars")
    dirs.append(Path("/tmp/wheels/jars"))
    return dirs


def jar_dir() -> Path | None:
    for d in candidate_jar_dirs():
        if (d / KAFKA_CLIENTS_JAR).is_file():
            return d
    return None


def _version_key(path: Path, prefix: str) -> tuple:
    rest = path.name[len(prefix) + 1 : -len(".jar")]
    return tuple(int(x) if x.isdigit() else x for x in re.split(r"[.\-]", rest))


def classpath(d: Path) -> list[Path]:
    jars = [d / KAFKA_CLIENTS_JAR]
    for prefix in RUNTIME_DEPS:
        found = [p for p in d.glob(f"{prefix}-*.jar")
                 if re.fullmatch(re.escape(prefix) + r"-\d[\w.\-]*\.jar", p.name)]
        if found:
            jars.append(max(found, key=lambda p: _version_key(p, prefix)))
    return jars


def require_java() -> list[Path]:
    """The classpath to run with; skips the test when kafka-clients is nowhere."""
    d = jar_dir()
    if d is None:
        pytest.skip(f"{KAFKA_CLIENTS_JAR} not found in any of: "
                    + ", ".join(str(p) for p in candidate_jar_dirs())
                    + " (run scripts/fetch-java-jars.py or set KWIRE_JAVA_JARS)")
    for tool in ("javac", "java"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} (JDK 17+) is not on PATH but {KAFKA_CLIENTS_JAR} is in {d}")
    return classpath(d)


def compiled_classes(cp: list[Path]) -> Path:
    """Directory with the compiled classes, compiling at most once per source hash."""
    sources = sorted(JAVA_SOURCES.glob("*.java"))
    h = hashlib.sha256()
    for src in sources:
        h.update(src.name.encode() + b"\0" + src.read_bytes() + b"\0")
    for jar in cp:
        h.update(jar.name.encode() + b"\0")
    key = h.hexdigest()[:16]
    if key in _compiled:
        return _compiled[key]
    out = Path(tempfile.gettempdir()) / f"kwire-java-{key}"
    if not (out / f"{MAIN_CLASS}.class").is_file():
        staging = Path(tempfile.mkdtemp(prefix=f"kwire-java-{key}-"))
        argv = ["javac", "-encoding", "UTF-8", "-Xlint:all", "-cp", os.pathsep.join(map(str, cp)),
                "-d", str(staging)] + [str(s) for s in sources]
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=180)
        if proc.returncode != 0:
            shutil.rmtree(staging, ignore_errors=True)
            pytest.fail(f"javac failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
        try:
            os.rename(staging, out)
        except OSError:  # another session published the same classes first
            shutil.rmtree(staging, ignore_errors=True)
    _compiled[key] = out
    return out


def run(command: str, *args: str, timeout: float = 120) -> list[dict]:
    """Run one KwireClient subcommand; return its JSON lines (raise JavaClientError on failure)."""
    cp = require_java()
    classes = compiled_classes(cp)
    argv = ["java", "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Djava.net.preferIPv4Stack=true",
            "-cp", os.pathsep.join([str(classes)] + [str(j) for j in cp]), MAIN_CLASS, command, *args]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise JavaClientError(argv, None, _text(e.stdout), _text(e.stderr) + f"\n(timed out after {timeout}s)")
    if proc.returncode != 0:
        raise JavaClientError(argv, proc.returncode, proc.stdout, proc.stderr)
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def run_class(main_class: str, *args: str, timeout: float = 120, check: bool = False) -> list[dict]:
    """Run another program of tests/java (its ``main``); return its JSON lines.

    ``check``: fail the test, with the program's stderr, unless it exits 0 (without it the
    caller asserts on the lines, which carry the program's own outcome)."""
    cp = require_java()
    classes = compiled_classes(cp)
    argv = ["java", "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Djava.net.preferIPv4Stack=true",
            "-cp", os.pathsep.join([str(classes)] + [str(j) for j in cp]), main_class, *args]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    out = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if check and proc.returncode != 0:
        pytest.fail(f"{main_class} exited {proc.returncode}: {out}\n{proc.stderr[-2000:]}")
    return out


def _text(b) -> str:
    if b is None:
        return ""
    return b.decode("utf-8", "replace") if isinstance(b, bytes) else b


# -- the produce input format (see KwireClient.java) ------------------------------------

def _b64(b: bytes | None) -> str:
    return "-" if b is None else base64.b64encode(b).decode("ascii")


def write_produce_input(path: Path, records) -> Path:
    """Write ``(key, value, headers, timestamp)`` records in the program's input format."""
    lines = []
    for key, value, headers, ts in records:
        hs = ",".join(f"{_b64(name.encode('utf-8'))}:{_b64(hv)}" for name, hv in headers) or "-"
        lines.append(f"{_b64(key)}\t{_b64(value)}\t{int(ts)}\t{hs}")
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    return path


def unb64(s: str | None) -> bytes | None:
    return None if s is None else base64.b64decode(s)
