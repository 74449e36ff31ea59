"""DescribeLogDirs (key 35), v1-5: per data directory, its partitions and sizes (KIP-113).

One result per configured log dir (``log.dirs``), by absolute path. Each lists
every replica this broker holds there -- in a cluster, followers' replicas as
well as the partitions it leads -- grouped by topic: the replica's size on
disk (all its segments), ``offset_lag`` and ``is_future_key`` false (there
are no AlterReplicaLogDirs moves). ``offset_lag`` is Kafka's
``ReplicaManager.getLogEndOffsetLag`` for a current replica, max(local HW -
local LEO, 0): 0 on leaders and followers alike, since a log's HW never
passes its LEO (a follower clamps the leader's HW to its own LEO); it is not
the follower's distance from the leader (Kafka only measures that for a
future replica against the current one). Each broker answers for itself: an
admin client asks every broker to see every replica.

``topics`` null means every partition; otherwise only the listed partitions
(topics absent from a dir are left out rather than listed empty).

Version notes: v2 is the first flexible version; v3 adds the top-level
``error_code``; v4 (KIP-827) adds each dir's ``total_bytes`` and
``usable_bytes`` of the volume (``LogManager.describe_log_dirs``: statvfs
blocks and blocks available to unprivileged users, what the JVM's FileStore
reports; -1 when unknown); v5 (KIP-1066) adds ``is_cordoned``, always false:
kwire has no cordoned dirs. The sizes, paths and per-dir errors come from
the log manager; the handler only filters and shapes them.
"""

from __future__ import annotations

from kwire.protocol.generated.describe_log_dirs_response import (
    DescribeLogDirsPartition,
    DescribeLogDirsResponse,
    DescribeLogDirsResult,
    DescribeLogDirsTopic,
)

API_KEY = 35
MIN_VERSION = 1
MAX_VERSION = 5


def _wanted(req):
    """None for every partition, else {topic: set(partitions)}."""
    if req.topics is None:
        return None
    out: dict[str, set[int]] = {}
    for t in req.topics:
        out.setdefault(t.topic, set()).update(t.partitions)
    return out


def handle(ctx, req) -> DescribeLogDirsResponse:
    wanted = _wanted(req)
    results = []
    for d in ctx.broker.logs.describe_log_dirs():
        if d["error"]:
            results.append(DescribeLogDirsResult(error_code=d["error"], log_dir=d["path"]))
            continue
        by_topic: dict[str, list[DescribeLogDirsPartition]] = {}
        for p in d["partitions"]:
            if wanted is not None and p["partition"] not in wanted.get(p["topic"], ()):
                continue
            by_topic.setdefault(p["topic"], []).append(DescribeLogDirsPartition(
                partition_index=p["partition"], partition_size=p["size"],
                offset_lag=p["offset_lag"], is_future_key=p["is_future"]))
        topics = [DescribeLogDirsTopic(name=name, partitions=sorted(parts, key=lambda x: x.partition_index))
                  for name, parts in sorted(by_topic.items())]
        results.append(DescribeLogDirsResult(error_code=0, log_dir=d["path"], topics=topics,
                                             total_bytes=d["total_bytes"], usable_bytes=d["usable_bytes"],
                                             is_cordoned=False))
    return DescribeLogDirsResponse(error_code=0, results=results)
