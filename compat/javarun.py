"""Find the Kafka Java client jars, compile compat/java/*.java, and build the worker command.

The compat suite carries its own Java sources and this small runner, so it runs
anywhere the jars and a JDK (17+) are, independent of kwire's tests.

Jars are looked for in, first match wins: ``--java-jars DIR``, ``$KWIRE_JAVA_JARS``,
``${KWIRE_CACHE:-~/.cache/kwire}/jars`` (what ``scripts/fetch-java-jars.py`` fills).
The classpath is ``kafka-clients-4.3.0.jar`` plus the newest of each runtime
library it loads (slf4j-api, lz4-java, snappy-java, zstd-jni) found beside it;
other jars are left out (an old ``lz4-*.jar`` would shadow lz4-java's classes).

Classes are compiled once per hash of sources and jar names into
``$TMPDIR/kwire-compat-java-<hash>``, published by an atomic rename.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

KAFKA_CLIENTS_JAR = "kafka-clients-4.3.0.jar"
RUNTIME_DEPS = ("slf4j-api", "lz4-java", "snappy-java", "zstd-jni")
SOURCES = Path(__file__).resolve().parent / "java"
MAIN_CLASS = "Compat"


class JavaUnavailable(Exception):
    """The jars or the JDK are missing: the Java cells are SKIP with this reason."""


def jar_dirs(explicit: str | None = None) -> list[Path]:
    dirs = []
    if explicit:
        dirs.append(Path(explicit).expanduser())
    if os.environ.get("KWIRE_JAVA_JARS"):
        dirs.append(Path(os.environ["KWIRE_JAVA_JARS"]).expanduser())
    cache = os.environ.get("KWIRE_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "kwire")
    dirs.append(Path(cache) / "jars")
    return dirs


def _version_key(path: Path, prefix: str) -> tuple:
    rest = path.name[len(prefix) + 1:-len(".jar")]
    return tuple((0, int(x), "") if x.isdigit() else (1, 0, x) for x in re.split(r"[.\-]", rest))


def classpath(explicit: str | None = None) -> list[Path]:
    for d in jar_dirs(explicit):
        if (d / KAFKA_CLIENTS_JAR).is_file():
            jars = [d / KAFKA_CLIENTS_JAR]
            for prefix in RUNTIME_DEPS:
                found = [p for p in d.glob(f"{prefix}-*.jar")
                         if re.fullmatch(re.escape(prefix) + r"-\d[\w.\-]*\.jar", p.name)]
                if found:
                    jars.append(max(found, key=lambda p: _version_key(p, prefix)))
            return jars
    raise JavaUnavailable(f"{KAFKA_CLIENTS_JAR} not found in {', '.join(map(str, jar_dirs(explicit)))} "
                          "(run scripts/fetch-java-jars.py, or pass --java-jars / set KWIRE_JAVA_JARS)")


def compile_classes(cp: list[Path]) -> Path:
    for tool in ("javac", "java"):
        if shutil.which(tool) is None:
            raise JavaUnavailable(f"{tool} is not on PATH (a JDK 17+ is needed for the Java client)")
    sources = sorted(SOURCES.glob("*.java"))
    h = hashlib.sha256()
    for src in sources:
        h.update(src.name.encode() + b"\0" + src.read_bytes() + b"\0")
    for jar in cp:
        h.update(jar.name.encode() + b"\0")
    out = Path(tempfile.gettempdir()) / f"kwire-compat-java-{h.hexdigest()[:16]}"
    if (out / f"{MAIN_CLASS}.class").is_file():
        return out
    staging = Path(tempfile.mkdtemp(prefix=out.name + "-"))
    argv = ["javac", "-encoding", "UTF-8", "-Xlint:all", "-Xlint:-options", "-cp",
            os.pathsep.join(map(str, cp)), "-d", str(staging)] + [str(s) for s in sources]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        # A compile error is compat's own bug, not a missing prerequisite: fail loudly.
        raise RuntimeError(f"javac failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    try:
        os.rename(staging, out)
    except OSError:  # another run published the same classes first
        shutil.rmtree(staging, ignore_errors=True)
    return out


def java_argv(classes: Path, cp: list[Path], bootstrap: str, run_id: str, scenarios: list[str]) -> list[str]:
    return ["java", "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Djava.net.preferIPv4Stack=true",
            "-cp", os.pathsep.join([str(classes)] + [str(j) for j in cp]), MAIN_CLASS,
            "--bootstrap", bootstrap, "--run-id", run_id, *scenarios]
