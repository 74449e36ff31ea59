#!/usr/bin/env python3
"""What the machine charges for writing into the page cache: system CPU per MB of plain ``os.write``.

Writes ``--rounds`` files of ``--mb`` MiB each (1 MiB writes, a fresh file per
round, in ``--dir``) and prints the system CPU milliseconds per MB (10^6 bytes)
of each round. With ``--unlink`` each file is deleted after its round, so the
next round's page cache can reuse the pages just freed; without it the files
stay, as a broker's log segments do, and every round needs pages the page
cache has not used before.

Why: a broker's system time per MB (``scripts/measure-cluster-cpu.py``) is
mostly this copy into the page cache, once per replica. On the shared 2-core
test VM (2026-11-28) the first ~200 MB cost 0.25-0.3 ms per MB and the pages
after that 1-3 ms per MB, while reusing freed pages stayed at 0.25: first use
of memory the guest has not touched lately is what costs, not the copy. Run
this beside a cluster measurement to tell the machine's share from kwire's.

    python scripts/measure-page-cache-write.py [--rounds 3] [--mb 200] [--unlink] [--dir /tmp]

Not here: fsync, direct I/O, reads; the broker itself.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import tempfile


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--mb", type=int, default=200, help="MiB written per round")
    ap.add_argument("--unlink", action="store_true", help="delete each round's file after it")
    ap.add_argument("--dir", default=None, help="where to write (default: the temp dir)")
    args = ap.parse_args(argv)
    workdir = tempfile.mkdtemp(prefix="kwire-page-cache-", dir=args.dir)
    chunk = os.urandom(1 << 20)
    mb = args.mb * (1 << 20) / 1e6
    try:
        for r in range(args.rounds):
            path = os.path.join(workdir, f"round-{r}")
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            before = resource.getrusage(resource.RUSAGE_SELF)
            try:
                for _ in range(args.mb):
                    os.write(fd, chunk)
            finally:
                after = resource.getrusage(resource.RUSAGE_SELF)
                os.close(fd)
            if args.unlink:
                os.unlink(path)
            sys_ms = (after.ru_stime - before.ru_stime) / mb * 1000
            print(json.dumps({"round": r + 1, "sys_ms_per_MB": round(sys_ms, 3),
                              "unlink": args.unlink, "load_1min": round(os.getloadavg()[0], 1)}), flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
