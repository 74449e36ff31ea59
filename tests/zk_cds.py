"""A class-data-sharing archive for the test ZooKeeper JVMs, made once per machine.

Most of a ZooKeeper start's CPU is the JVM loading and verifying ZooKeeper's, Netty's and the
JDK's classes. A dynamic CDS archive of the classes a test server loads (JDK 13+:
``-XX:ArchiveClassesAtExit`` on one run, ``-XX:SharedArchiveFile`` on the others) maps them
instead: 0.78 -> 0.60 CPU-s per start to the first session and back down (4 alternating pairs,
load ~31, 2026-11-28). The suite starts ZooKeeper a few hundred times (module servers, the
servers a test restarts, three per ensemble).

What it does: ``zk_archive_flags(java, jar)`` returns the JVM flags that map the archive, making it
first if it is missing: a server in a temporary directory started with ``ArchiveClassesAtExit``,
one kazoo session that creates, reads and watches znodes as a broker does, a SIGTERM (the
JVM writes the archive as it exits), then an atomic rename into
``${KWIRE_CACHE:-~/.cache/kwire}/cds``. A file lock makes one xdist worker make it while the
others wait (~3 s). The archive's name hashes the JDK and every jar on the class path (size and
mtime, as CDS checks them), so a changed package gets a new archive.

What it does not do: change a server's behaviour (a stale or unreadable archive only makes the
JVM load classes the slow way, ``-Xshare:auto``); make the archive in the quick tier (its one
or two servers would not repay it); serve a server run as another uid (the nemesis's ensemble
members: the cache under root's home is not theirs to read). ``KWIRE_TEST_ZK_CDS=0`` turns it
off; when the archive cannot be made, servers start without it and a warning says why.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
import warnings
import zipfile
from pathlib import Path

_flags: dict[str, tuple[str, ...]] = {}


def _cache_dir() -> Path:
    return Path(os.environ.get("KWIRE_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "kwire")) / "cds"


def _class_path(jar: str) -> list[str]:
    """The jar and the jars its manifest's Class-Path names (the Debian package's layout)."""
    jars = [jar]
    try:
        with zipfile.ZipFile(jar) as z:
            manifest = z.read("META-INF/MANIFEST.MF").decode(errors="replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return jars
    text = manifest.replace("\r\n", "\n").replace("\n ", "")  # manifest lines continue after a space
    for line in text.splitlines():
        if line.startswith("Class-Path:"):
            base = os.path.dirname(jar)
            jars += [os.path.join(base, p) for p in line.split(":", 1)[1].split()]
    return jars


def _key(java: str, jar: str) -> str:
    real = os.path.realpath(shutil.which(java) or java)
    h = hashlib.sha256(f"{real}\0{os.stat(real).st_mtime_ns}".encode())
    for p in _class_path(jar):
        try:
            st = os.stat(p)
        except OSError:
            continue
        h.update(f"\0{p}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    return h.hexdigest()[:16]


def zk_archive_flags(java: str, jar: str, argv_before_main: list[str], main: str) -> tuple[str, ...]:
    """JVM flags mapping the ZooKeeper archive (made first when missing), or () without one.

    ``argv_before_main``: the server's JVM flags and ``-cp`` (the archive is made with the same)."""
    if os.environ.get("KWIRE_TEST_ZK_CDS", "1") == "0":
        return ()
    key = _key(java, jar)
    if key in _flags:
        return _flags[key]
    d = _cache_dir()
    archive = d / f"zookeeper-{key}.jsa"
    flags: tuple[str, ...] = ()
    try:
        d.mkdir(parents=True, exist_ok=True)
        if os.environ.get("KWIRE_TEST_QUICK") == "1" and not archive.is_file():
            _flags[key] = ()
            return ()
        with open(d / ".zookeeper-lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be making it: wait, then use it
            if not archive.is_file():
                _make(java, argv_before_main, main, archive)
        flags = (f"-XX:SharedArchiveFile={archive}",)
    except (OSError, subprocess.SubprocessError, RuntimeError) as e:
        warnings.warn(f"no ZooKeeper class-data archive, servers start without it: {e}")
    _flags[key] = flags
    return flags


def _make(java: str, argv_before_main: list[str], main: str, archive: Path) -> None:
    from cluster_fixtures import ZooKeeperServer  # the same server the tests start

    with tempfile.TemporaryDirectory(prefix="kwire-zkcds-") as tmp:
        staging = Path(tmp) / "zookeeper.jsa"
        server = ZooKeeperServer(tmp)
        with open(server.log_path, "ab") as log:
            proc = subprocess.Popen([java, *argv_before_main, f"-XX:ArchiveClassesAtExit={staging}", main,
                                     server.cfg], stdout=log, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
            server.proc = proc
            try:
                server._wait_ready(120)
                _exercise(server.connect)
            finally:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGTERM)  # the JVM writes the archive on its way out
                try:
                    proc.wait(60)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(10)
        if not staging.is_file():
            raise RuntimeError(f"the JVM wrote no archive (exit {proc.returncode}): {server.tail()[-500:]}")
        for old in archive.parent.glob("zookeeper-*.jsa"):  # of other packages, unused a week
            if time.time() - old.stat().st_atime > 7 * 86400:
                old.unlink(missing_ok=True)
        shutil.move(str(staging), archive)


def _exercise(connect: str) -> None:
    """What a broker asks of ZooKeeper: paths, an ephemeral node, a multi, reads and watches."""
    from kazoo.client import KazooClient

    client = KazooClient(connect, timeout=30)
    client.start(timeout=30)
    try:
        client.ensure_path("/cds/brokers/ids")
        client.create("/cds/brokers/ids/1", b"{}", ephemeral=True)
        tx = client.transaction()
        tx.create("/cds/a", b"1")
        tx.set_data("/cds/brokers", b"2")
        tx.commit()
        client.get_children("/cds/brokers/ids", watch=lambda event: None)
        client.get("/cds/a", watch=lambda event: None)
        client.set("/cds/a", b"3")
        client.delete("/cds", recursive=True)
    finally:
        client.stop()
        client.close()
