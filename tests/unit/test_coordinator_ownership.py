"""The group coordinator follows the broker's leadership of ``__consumer_offsets`` partitions.

On a real embedded Broker (no sockets), the leadership listener is called as
the ReplicaManager calls it in a cluster: losing leadership unloads the shard
(waiting responses answer NOT_COORDINATOR, its timers stop), regaining it
loads the groups and offsets again from the log.
"""

from __future__ import annotations

import asyncio

from kwire.broker.broker import Broker
from kwire.config import BrokerConfig
from kwire.coordinator.base import OpContext, Pending
from kwire.coordinator.offsets import Commit
from kwire.coordinator.runtime import GROUP_METADATA_TOPIC
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated.join_group_request import JoinGroupRequest, JoinGroupRequestProtocol


def config(tmp_path, **extra):
    cfg = {"log.dirs": str(tmp_path), "listeners": "PLAINTEXT://127.0.0.1:0",
           "group.initial.rebalance.delay.ms": "60000", "offsets.topic.num.partitions": "3"}
    cfg.update(extra)
    return BrokerConfig.load(None, cfg)


def test_unload_answers_waiting_joins_and_reload_replays_the_log(tmp_path):
    async def main():
        b = Broker(config(tmp_path))
        b.start()
        gc = b.group_coordinator
        try:
            assert gc.run("g", lambda s, now: s.commit_offsets(
                "g", -1, "", None, -1, [Commit("t", 0, 42, -1, "m")], 8, now)) == {("t", 0): E.NONE}
            req = JoinGroupRequest(group_id="j", session_timeout_ms=10_000, rebalance_timeout_ms=60_000,
                                   member_id="", protocol_type="consumer",
                                   protocols=[JoinGroupRequestProtocol(name="range", metadata=b"")])
            p = gc.partition_for("j")
            pending = gc.run("j", lambda s, now: s.join_group(OpContext(3, "c", "/h"), req, now))
            assert isinstance(pending, Pending) and not pending.done  # the initial delay is a minute
            task = asyncio.ensure_future(gc.wait(pending, "shutdown", lambda code: code))
            await asyncio.sleep(0.02)
            assert not task.done() and gc.shards[p].next_deadline() is not None

            gc.on_leadership(GROUP_METADATA_TOPIC, p, False, 0)
            assert await asyncio.wait_for(task, 1) == E.NOT_COORDINATOR  # not the shutdown path
            assert p not in gc.shards  # with its groups and timers

            gc.on_leadership(GROUP_METADATA_TOPIC, p, True, 1)  # loaded again from the log
            for _ in range(200):
                if not gc.loading:
                    break
                await asyncio.sleep(0.01)
            assert "j" not in gc.shards[p].groups  # a rebalance in progress is soft state
            gp = gc.partition_for("g")
            gc.on_leadership(GROUP_METADATA_TOPIC, gp, False, 0)
            gc.on_leadership(GROUP_METADATA_TOPIC, gp, True, 1)
            for _ in range(200):
                if not gc.loading:
                    break
                await asyncio.sleep(0.01)
            rows = gc.run("g", lambda s, now: s.fetch_offsets("g", None))
            assert [(t, [(f.offset, f.metadata) for f in parts]) for t, parts in rows] == [("t", [(42, "m")])]
            gc.on_leadership("other-topic", gp, False, 0)  # other topics are not the coordinator's
            assert gp in gc.shards
        finally:
            b.close()

    asyncio.run(main())
