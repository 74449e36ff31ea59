"""kwire.nemesis.firewall for real: its own chain, cuts by address, always removed, leftovers cleaned.

Needs root and iptables (CI is root; scripts/setup-test-env.sh installs iptables):
skipped with the reason otherwise. Every address is in a /24 of the loopback range
picked at random, so parallel runs never cut each other's links.
"""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import sys
import textwrap

import pytest

from kwire.nemesis import NemesisError
from kwire.nemesis import firewall as F

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def binary():
    try:
        return F.check()
    except NemesisError as e:
        pytest.skip(f"the partition nemesis cannot run here: {e}")


def _block() -> str:
    return f"127.{random.randint(100, 250)}.{random.randint(0, 255)}"


def _rules(binary: str) -> list[str]:
    """The iptables rules, less those of another live process's nemesis chain (other pytest-xdist
    workers run nemesis tests at the same time; a dead process's leftover chain is kept)."""
    lines = subprocess.run([binary, "-w", "5", "-S"], capture_output=True, text=True, check=True).stdout.splitlines()
    return [line for line in lines if not _foreign_live_chain(line)]


def _foreign_live_chain(line: str) -> bool:
    m = re.search(r"KWIRE-NEMESIS-(\d+)", line)
    if m is None or int(m.group(1)) == os.getpid():
        return False
    try:
        os.kill(int(m.group(1)), 0)
    except OSError:
        return False
    return True


def _listening(address: str) -> tuple[socket.socket, int]:
    srv = socket.socket()
    srv.bind((address, 0))
    srv.listen(16)
    return srv, srv.getsockname()[1]


def _connects(src: str, dst: str, port: int) -> bool:
    try:
        socket.create_connection((dst, port), timeout=0.5, source_address=(src, 0)).close()
        return True
    except OSError:
        return False


def test_cut_heal_close_and_nothing_else_touched(binary):
    block = _block()
    before = _rules(binary)
    srv, port = _listening(f"{block}.2")
    try:
        with F.Firewall() as fw:
            assert any(fw.chain in r for r in _rules(binary))
            fw.cut([(f"{block}.1", f"{block}.2")])
            assert len(fw.rules()) == 2  # both directions
            assert not _connects(f"{block}.1", f"{block}.2", port)
            assert _connects(f"{block}.3", f"{block}.2", port)  # other addresses untouched
            fw.cut([(f"{block}.3", f"{block}.2")])
            fw.restore([(f"{block}.2", f"{block}.1")])  # one pair back (either order), the other stays cut
            assert len(fw.rules()) == 2
            assert _connects(f"{block}.1", f"{block}.2", port)
            assert not _connects(f"{block}.3", f"{block}.2", port)
            fw.heal()
            assert fw.rules() == []
            assert _connects(f"{block}.1", f"{block}.2", port)
        assert _rules(binary) == before  # the chain and its jumps are gone, nothing else changed
        with pytest.raises(NemesisError, match="not installed"):
            fw.cut([(f"{block}.1", f"{block}.2")])
    finally:
        srv.close()


def test_owner_cuts_and_random_loss_heal_and_close_cleanly(binary):
    """``cut_owner``: what a uid sends to an address is dropped (root's connections are not), in
    an OUTPUT-only chain made on first use; ``lossy``: statistic rules in the main chain; heal
    empties both, close removes both and their jumps."""
    block = _block()
    before = _rules(binary)
    srv, port = _listening(f"{block}.2")

    def connects_as(uid: int) -> bool:  # bash's /dev/tcp: root's Python is not the uid's to run
        return subprocess.run(["timeout", "2", "bash", "-c", f"exec 3<>/dev/tcp/{block}.2/{port}"], user=uid,
                              group=uid, capture_output=True, timeout=60).returncode == 0

    try:
        with F.Firewall() as fw:
            assert connects_as(61009)
            fw.cut_owner(61009, [f"{block}.2"])
            assert any(fw.owner_chain in r and r.startswith("-A OUTPUT") for r in _rules(binary))
            assert not any(fw.owner_chain in r and r.startswith("-A INPUT") for r in _rules(binary))
            assert not connects_as(61009)
            assert _connects(f"{block}.1", f"{block}.2", port)  # root, another uid: untouched
            fw.lossy([(f"{block}.1", f"{block}.2")], 0.25)
            assert sum("statistic" in r for r in fw.rules()) == 2  # both directions
            with pytest.raises(NemesisError, match="between 0 and 1"):
                fw.lossy([(f"{block}.1", f"{block}.2")], 1.5)
            fw.heal()
            assert fw.rules() == []
            assert connects_as(61009)
        assert _rules(binary) == before  # both chains and their jumps gone
    finally:
        srv.close()


_CHILD = textwrap.dedent("""
    import sys, time
    from kwire.nemesis.firewall import Firewall
    fw = Firewall().install()
    fw.cut([(sys.argv[1], sys.argv[2])])
    print(fw.chain, flush=True)
    if sys.argv[3] == "wait":
        time.sleep(600)
""")


def test_chain_removed_at_exit_and_a_killed_runs_chain_cleaned_at_next_start(binary, caplog):
    block = _block()
    before = _rules(binary)
    # a normal exit without close(): the atexit hook removes the chain
    out = subprocess.run([sys.executable, "-c", _CHILD, f"{block}.1", f"{block}.2", "exit"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert _rules(binary) == before
    # kill -9: the chain stays ...
    child = subprocess.Popen([sys.executable, "-c", _CHILD, f"{block}.1", f"{block}.2", "wait"],
                             stdout=subprocess.PIPE, text=True)
    try:
        chain = child.stdout.readline().strip()
        assert chain.startswith(F.PREFIX)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(30)
    assert any(chain in r for r in _rules(binary))
    # ... until the next start removes it, saying so
    with caplog.at_level("WARNING", logger="kwire.nemesis"):
        fw = F.Firewall().install()
    try:
        assert chain in fw.removed_leftovers
        assert any(chain in m and "killed" in m for m in caplog.messages)
        assert not any(chain in r for r in _rules(binary))
    finally:
        fw.close()
    assert _rules(binary) == before


def _check_in(env: dict, prefix=()) -> subprocess.CompletedProcess:
    import os

    code = ("from kwire.nemesis.firewall import check\n"
            "from kwire.nemesis import NemesisError\n"
            "try:\n    check()\nexcept NemesisError as e:\n    print(e)\n")
    return subprocess.run([*prefix, sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **env})


def test_no_iptables_is_a_clear_error():
    out = _check_in({"PATH": "/nonexistent"})
    assert "iptables is not installed: apt-get install iptables" in out.stdout, out.stderr


def test_not_root_is_a_clear_error(binary):
    import os
    import shutil

    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("setpriv (util-linux) is missing: cannot run a check as another user")
    out = _check_in({}, (setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"))
    assert "needs root" in out.stdout, (out.stdout, out.stderr)
    assert os.geteuid() == 0
