"""Slow links for the nemesis: ``tc netem`` delay and loss on loopback for chosen addresses.

Layout (``tc``, device ``lo``)::

    root 1: htb default 99          unclassified traffic: straight through, unshaped
      class 1:10 htb rate 10gbit    the slow class
        qdisc 10: netem delay D [J] loss L%
    filters (u32, parent 1:): ip src ADDR -> 1:10, ip dst ADDR -> 1:10   (per address)

so every packet to or from a slowed address (a broker's own loopback address)
is delayed and dropped by netem, in both directions, and nothing else is
touched. ``SlowLinks.install`` refuses when ``lo`` already has a root qdisc
other than the default (another run's, or the machine's own): loopback has one
root, shared by every process. ``close`` (also at interpreter exit, by a
finaliser, and as a context manager) deletes the root qdisc again.

Errors are ``NemesisError`` with the reason: ``tc`` missing (the Debian
``iproute2`` package), not root, the kernel without ``sch_netem`` (or
``sch_htb``) -- tests skip with that message.

Not here: rate limits, reordering, corruption; other devices than loopback.
"""

from __future__ import annotations

import atexit
import ipaddress
import os
import shutil
import subprocess
import weakref

from kwire.nemesis.faults import NemesisError

DEV = "lo"
_DEFAULT_ROOTS = ("noqueue", "pfifo_fast", "fq_codel", "mq")  # what a device has before anyone shapes it


def _tc(binary: str, *args: str, check_rc: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run([binary, *args], capture_output=True, text=True, timeout=30)
    if check_rc and proc.returncode != 0:
        raise NemesisError(f"tc {' '.join(args)} failed: {proc.stderr.strip() or proc.returncode}")
    return proc


def check() -> str:
    """The tc binary, or ``NemesisError`` saying why slow links cannot be made here."""
    path = shutil.which("tc")
    if path is None:
        raise NemesisError("tc is not installed: apt-get install iproute2")
    if os.geteuid() != 0:
        raise NemesisError(f"slow links need root to change qdiscs (running as uid {os.geteuid()})")
    return path


def root_qdisc(binary: str) -> str:
    """The kind of ``lo``'s root qdisc (``noqueue`` when nobody shaped it)."""
    for line in _tc(binary, "qdisc", "show", "dev", DEV).stdout.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0] == "qdisc" and "root" in parts:
            return parts[1]
    return "noqueue"


def _finalise(binary: str, state: dict) -> None:
    if state.get("installed"):
        state["installed"] = False
        _tc(binary, "qdisc", "del", "dev", DEV, "root", check_rc=False)


class SlowLinks:
    """``install(delay_ms, jitter_ms, loss_pct)``, ``slow(address)``, ``close``."""

    def __init__(self) -> None:
        self.binary = check()
        self.addresses: list[str] = []
        self._state = {"installed": False}
        self._finalizer = weakref.finalize(self, _finalise, self.binary, self._state)
        atexit.register(self._finalizer)

    def install(self, delay_ms: int = 50, jitter_ms: int = 10, loss_pct: float = 5.0) -> "SlowLinks":
        kind = root_qdisc(self.binary)
        if kind not in _DEFAULT_ROOTS:
            raise NemesisError(f"{DEV} already has a root qdisc ({kind}): another nemesis run's, or the "
                               f"machine's own; not touching it")
        try:
            _tc(self.binary, "qdisc", "add", "dev", DEV, "root", "handle", "1:", "htb", "default", "99")
        except NemesisError as e:
            raise NemesisError(f"the kernel cannot shape {DEV} with htb (sch_htb): {e}") from None
        self._state["installed"] = True
        try:
            _tc(self.binary, "class", "add", "dev", DEV, "parent", "1:", "classid", "1:10", "htb", "rate", "10gbit")
            _tc(self.binary, "qdisc", "add", "dev", DEV, "parent", "1:10", "handle", "10:", "netem",
                "delay", f"{delay_ms}ms", f"{jitter_ms}ms", "loss", f"{loss_pct}%")
        except NemesisError as e:
            self.close()
            raise NemesisError(f"the kernel has no tc netem (sch_netem; modprobe sch_netem): {e}") from None
        return self

    def slow(self, address: str) -> None:
        """Every packet from or to ``address`` goes through netem."""
        ipaddress.ip_address(address)
        if not self._state["installed"]:
            raise NemesisError("the slow links are not installed (or were closed)")
        for direction in ("src", "dst"):
            _tc(self.binary, "filter", "add", "dev", DEV, "parent", "1:", "protocol", "ip", "prio", "1", "u32",
                "match", "ip", direction, f"{address}/32", "flowid", "1:10")
        self.addresses.append(address)

    def close(self) -> None:
        self.addresses.clear()
        self._finalizer()

    def __enter__(self) -> "SlowLinks":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
