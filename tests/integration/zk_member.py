"""A ZkMetadata in a process of its own, for tests that kill -9 or SIGSTOP a broker.

    python zk_member.py <zookeeper.connect> <broker id> <session timeout ms>

Prints "ready <broker id>" once started (registered, watching, run for
controller), then answers commands on stdin, one per line, until stdin closes:

    write <path> <data>   a controller write (fenced by this member's controller
                          epoch) setting <path>: prints "ok", "fenced <error code>"
                          or "unavailable" (no ZooKeeper connection right now)
    state                 prints "active=<bool> epoch=<n>"
"""

import logging
import sys

from kwire.cluster.controller import ControllerMovedError
from kwire.cluster.zookeeper import ZkMetadata, ZooKeeperUnavailable


def main() -> None:
    connect, node_id, session_ms = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format=f"member {node_id} %(asctime)s %(name)s %(message)s")
    md = ZkMetadata(connect, node_id, "127.0.0.1", 9000 + node_id, session_timeout_ms=session_ms,
                    connection_timeout_ms=10000)
    md.start()
    print(f"ready {node_id}", flush=True)
    try:
        for line in sys.stdin:
            cmd = line.split()
            if not cmd:
                continue
            if cmd[0] == "write":
                try:
                    md.controller.fenced([("set", cmd[1], cmd[2].encode(), -1)])
                    print("ok", flush=True)
                except ControllerMovedError as e:
                    print(f"fenced {e.code.name}", flush=True)
                except ZooKeeperUnavailable:
                    print("unavailable", flush=True)
            elif cmd[0] == "state":
                print(f"active={md.controller.active} epoch={md.controller.epoch}", flush=True)
    finally:
        md.close()


if __name__ == "__main__":
    main()
