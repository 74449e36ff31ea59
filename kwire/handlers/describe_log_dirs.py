"""DescribeLogDirs (key 35), v1-5: per data directory, its partitions and sizes (KIP-113).

One result per configured log dir (``log.dirs``), by absolute path. Each lists
the partitions it holds, grouped by topic: the partition's size on disk (all
its segments), ``offset_lag`` (how far the log end offset trails the high
watermark; 0 on a leader, and every kwire partition is a leader) and
``is_future_key`` false (there are no AlterReplicaLogDirs moves).

``topics`` null means every partition; otherwise only the listed partitions
(topics absent from a dir are left out rather than listed empty).

Version notes: v2 is the first flexible version; v3 adds the top-level
``error_code``; v4 (KIP-827) adds each dir's ``total_bytes`` and
``usable_bytes``, from ``os.statvfs`` of the dir (what the JVM's FileStore
reports); v5 (KIP-1066) adds ``is_cordoned``, always false: kwire has no
cordoned dirs. A dir that cannot be examined answers KAFKA_STORAGE_ERROR.
"""

from __future__ import annotations

import os

from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.describe_log_dirs_response import (
    DescribeLogDirsPartition,
    DescribeLogDirsResponse,
    DescribeLogDirsResult,
    DescribeLogDirsTopic,
)

API_KEY = 35
MIN_VERSION = 1
MAX_VERSION = 5

LONG_MAX = 2**63 - 1


def _space(path: str) -> tuple[int, int]:
    st = os.statvfs(path)
    total = st.f_blocks * st.f_frsize
    usable = st.f_bavail * st.f_frsize
    return min(total, LONG_MAX), min(usable, LONG_MAX)


def _wanted(req):
    """None for every partition, else {topic: set(partitions)}."""
    if req.topics is None:
        return None
    out: dict[str, set[int]] = {}
    for t in req.topics:
        out.setdefault(t.topic, set()).update(t.partitions)
    return out


def handle(ctx, req) -> DescribeLogDirsResponse:
    broker = ctx.broker
    wanted = _wanted(req)
    by_dir: dict[str, dict[str, list[DescribeLogDirsPartition]]] = {}
    for (topic, partition), plog in broker.logs.items():
        if wanted is not None and partition not in wanted.get(topic, ()):
            continue
        lag = max(plog.high_watermark - plog.log_end_offset, 0)
        by_dir.setdefault(os.path.abspath(plog.parent_dir), {}).setdefault(topic, []).append(
            DescribeLogDirsPartition(partition_index=partition, partition_size=plog.size_bytes,
                                     offset_lag=lag, is_future_key=False))
    results = []
    for d in dict.fromkeys(os.path.abspath(p) for p in broker.config.log_dirs):
        try:
            total, usable = _space(d)
        except OSError:
            results.append(DescribeLogDirsResult(error_code=ErrorCode.KAFKA_STORAGE_ERROR, log_dir=d))
            continue
        topics = [
            DescribeLogDirsTopic(name=name, partitions=sorted(parts, key=lambda p: p.partition_index))
            for name, parts in sorted(by_dir.get(d, {}).items())
        ]
        results.append(DescribeLogDirsResult(error_code=0, log_dir=d, topics=topics,
                                             total_bytes=total, usable_bytes=usable, is_cordoned=False))
    return DescribeLogDirsResponse(error_code=0, results=results)
