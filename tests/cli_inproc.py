"""``kwire.cli.main`` run in the test process, for tests about what a tool prints and exits with.

``in_process(argv, stdin)`` answers like ``subprocess.run([python, -m, kwire, *argv])`` with
stdout as bytes and stderr as text, without the interpreter start and imports (~0.4 CPU-s a
call) that dominated the CLI test modules' CPU. What it does not cover, and the modules keep
real subprocesses for: signals, stdin left open, the ``python -m kwire`` entry point itself,
and anything a tool does to the process beyond its SIGTERM handler (which is put back).
"""

from __future__ import annotations

import signal
import subprocess
import sys


class _Stdin:
    """What ``kwire produce`` needs of ``sys.stdin``: a file descriptor to read lines from."""

    def __init__(self, fd: int):
        self._fd = fd

    def fileno(self) -> int:
        return self._fd


def in_process(argv: list[str], stdin: bytes) -> subprocess.CompletedProcess:
    """``kwire.cli.main(argv)`` with stdin from a file holding ``stdin``, the output captured,
    and the SIGTERM handler the tools install (``stop_on_sigterm``) put back afterwards."""
    import io
    import tempfile
    from contextlib import redirect_stderr, redirect_stdout

    from kwire import cli

    out, err = io.BytesIO(), io.StringIO()
    text_out = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    saved_stdin, saved_term = sys.stdin, signal.getsignal(signal.SIGTERM)
    with tempfile.TemporaryFile() as f:
        f.write(stdin)
        f.seek(0)
        sys.stdin = _Stdin(f.fileno())
        try:
            with redirect_stdout(text_out), redirect_stderr(err):
                rc = cli.main(argv)
        finally:
            sys.stdin = saved_stdin
            signal.signal(signal.SIGTERM, saved_term)
    text_out.flush()
    return subprocess.CompletedProcess(["kwire", *argv], rc, out.getvalue(), err.getvalue())
