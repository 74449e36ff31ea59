"""iptables rules for the nemesis, in a chain of kwire's own that is always removed.

Layout (filter table)::

    INPUT  -i lo -j KWIRE-NEMESIS-<pid>        (one jump each, inserted first)
    OUTPUT -o lo -j KWIRE-NEMESIS-<pid>
    KWIRE-NEMESIS-<pid>:  -s A -d B -j DROP, -s B -d A -j DROP, ...
                          (``lossy``: the same with ``-m statistic --probability P``)
    OUTPUT -o lo -j KWIRE-NEMESIS-<pid>-OWNER  (only once ``cut_owner`` is first used)
    KWIRE-NEMESIS-<pid>-OWNER:  -d B -m owner --uid-owner U -j DROP, ...

The owner chain is for processes that cannot bind their outgoing sockets to an
address of their own (ZooKeeper's quorum and election connections leave from
127.0.0.1): run each as a uid of its own and drop what that uid sends to an
address. The owner match exists only on the OUTPUT hook, hence a second chain.

Only loopback traffic is sent to the chain, and the chain holds only kwire's
DROP rules, so nothing else on the machine is affected. The chain name carries
the pid of the process that made it: several runs (pytest-xdist workers) each
have their own, and a chain whose process is gone is a leftover of a killed run,
removed (with a message) by the next ``Firewall.install``.

Removal is guaranteed by ``close`` (also a context manager), an ``atexit`` hook
and a ``weakref.finalize`` finaliser; a SIGKILLed process leaves its chain,
which the next start removes. ``heal`` empties the chain (every link back);
``restore`` takes back the cuts of some pairs only.

Errors are ``NemesisError`` with what to do: iptables missing (the Debian
package), not root, iptables failing (its message).
"""

from __future__ import annotations

import atexit
import logging
import os
import re
import shutil
import subprocess
import weakref

from kwire.devcluster import pid_alive
from kwire.nemesis.faults import NemesisError

log = logging.getLogger("kwire.nemesis")

PREFIX = "KWIRE-NEMESIS-"
OWNER_SUFFIX = "-OWNER"
_HOOKS = (("INPUT", "-i"), ("OUTPUT", "-o"))


def check() -> str:
    """The iptables binary, or ``NemesisError`` saying why the nemesis cannot run here."""
    path = shutil.which("iptables")
    if path is None:
        raise NemesisError("iptables is not installed: apt-get install iptables "
                           "(scripts/setup-test-env.sh installs it)")
    if os.geteuid() != 0:
        raise NemesisError("the nemesis needs root to change iptables rules (running as uid "
                           f"{os.geteuid()})")
    return path


def _run(binary: str, *args: str, check_rc: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run([binary, "-w", "5", *args], capture_output=True, text=True, timeout=30)
    if check_rc and proc.returncode != 0:
        raise NemesisError(f"iptables {' '.join(args)} failed: {proc.stderr.strip() or proc.returncode}")
    return proc


def _remove_chain(binary: str, chain: str) -> None:
    for hook, flag in _HOOKS:
        # delete every jump to it (there is one, unless a crash happened mid-install)
        while _run(binary, "-D", hook, flag, "lo", "-j", chain, check_rc=False).returncode == 0:
            pass
    _run(binary, "-F", chain, check_rc=False)
    _run(binary, "-X", chain, check_rc=False)


def leftover_chains(binary: str) -> list[str]:
    """Chains of kwire's nemesis whose process is gone."""
    out = _run(binary, "-S").stdout
    chains = re.findall(rf"^-N ({re.escape(PREFIX)}(\d+)(?:{OWNER_SUFFIX})?)$", out, re.M)
    return [name for name, pid in chains if not pid_alive(int(pid))]


def cleanup_leftovers(binary: str | None = None) -> list[str]:
    """Remove chains left by killed runs; returns their names (each also logged)."""
    binary = binary or check()
    gone = leftover_chains(binary)
    for chain in gone:
        log.warning("removing iptables chain %s left by a nemesis run that was killed", chain)
        _remove_chain(binary, chain)
    return gone


def _finalise(binary: str, chain: str, state: dict) -> None:
    if state.get("installed"):
        state["installed"] = False
        _remove_chain(binary, chain)
    if state.get("owner"):
        state["owner"] = False
        _remove_chain(binary, chain + OWNER_SUFFIX)


class Firewall:
    """This process's chain: ``install``, ``cut`` pairs of addresses, ``heal``, ``close``."""

    def __init__(self) -> None:
        self.binary = check()
        self.chain = f"{PREFIX}{os.getpid()}"
        self.owner_chain = self.chain + OWNER_SUFFIX
        self.cut_pairs: set[tuple[str, str]] = set()
        self.cut_owners: set[tuple[int, str]] = set()
        self.removed_leftovers: list[str] = []
        self._state = {"installed": False, "owner": False}
        self._finalizer = weakref.finalize(self, _finalise, self.binary, self.chain, self._state)
        atexit.register(self._finalizer)

    def install(self) -> "Firewall":
        self.removed_leftovers = cleanup_leftovers(self.binary)
        _remove_chain(self.binary, self.chain)  # an earlier Firewall of this same process
        _remove_chain(self.binary, self.owner_chain)
        _run(self.binary, "-N", self.chain)
        self._state["installed"] = True
        for hook, flag in _HOOKS:
            _run(self.binary, "-I", hook, "1", flag, "lo", "-j", self.chain)
        return self

    def cut(self, pairs) -> None:
        """Drop packets both ways between each (address, address) pair (not already cut)."""
        if not self._state["installed"]:
            raise NemesisError("the nemesis firewall is not installed (or was closed)")
        for a, b in sorted(set(pairs)):
            if (a, b) in self.cut_pairs or (b, a) in self.cut_pairs:
                continue
            for src, dst in ((a, b), (b, a)):
                _run(self.binary, "-A", self.chain, "-s", src, "-d", dst, "-j", "DROP")
            self.cut_pairs.add((a, b))

    def restore(self, pairs) -> None:
        """Undo ``cut`` for each (address, address) pair alone (the other cuts stay)."""
        for a, b in sorted(set(pairs)):
            key = (a, b) if (a, b) in self.cut_pairs else (b, a)
            if key not in self.cut_pairs:
                continue
            for src, dst in (key, key[::-1]):
                _run(self.binary, "-D", self.chain, "-s", src, "-d", dst, "-j", "DROP")
            self.cut_pairs.discard(key)

    def lossy(self, pairs, probability: float) -> None:
        """Drop each packet between each (address, address) pair, both ways, with ``probability``
        (the ``statistic`` match: random loss without ``tc netem``)."""
        if not self._state["installed"]:
            raise NemesisError("the nemesis firewall is not installed (or was closed)")
        if not 0 < probability < 1:
            raise NemesisError(f"a loss probability is between 0 and 1, not {probability}")
        for a, b in sorted(set(pairs)):
            for src, dst in ((a, b), (b, a)):
                _run(self.binary, "-A", self.chain, "-s", src, "-d", dst, "-m", "statistic", "--mode", "random",
                     "--probability", str(probability), "-j", "DROP")

    def cut_owner(self, uid: int, addresses) -> None:
        """Drop what the processes of ``uid`` send to each of ``addresses`` (OUTPUT only: a
        connection either way needs packets both ways, so this cuts both directions too)."""
        if not self._state["installed"]:
            raise NemesisError("the nemesis firewall is not installed (or was closed)")
        if not self._state["owner"]:
            _run(self.binary, "-N", self.owner_chain)
            self._state["owner"] = True
            _run(self.binary, "-I", "OUTPUT", "1", "-o", "lo", "-j", self.owner_chain)
        for addr in sorted(set(addresses)):
            if (uid, addr) not in self.cut_owners:
                _run(self.binary, "-A", self.owner_chain, "-d", addr, "-m", "owner", "--uid-owner", str(uid),
                     "-j", "DROP")
                self.cut_owners.add((uid, addr))

    def heal(self) -> None:
        """Every link back (the chains stay, empty)."""
        if self._state["installed"]:
            _run(self.binary, "-F", self.chain)
        if self._state["owner"]:
            _run(self.binary, "-F", self.owner_chain)
        self.cut_pairs.clear()
        self.cut_owners.clear()

    def rules(self) -> list[str]:
        """The chains' rules as ``iptables -S`` prints them."""
        out = _run(self.binary, "-S", self.chain, check_rc=False).stdout
        if self._state["owner"]:
            out += _run(self.binary, "-S", self.owner_chain, check_rc=False).stdout
        return [line for line in out.splitlines() if line.startswith("-A ")]

    def close(self) -> None:
        self.cut_pairs.clear()
        self.cut_owners.clear()
        self._finalizer()

    def __enter__(self) -> "Firewall":
        return self.install()

    def __exit__(self, *exc) -> None:
        self.close()
