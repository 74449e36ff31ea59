"""AlterReplicaLogDirs (key 34), v1-2: move partitions' replicas between log dirs (KIP-113).

Per partition, in the order of Kafka's ``ReplicaManager.alterReplicaLogDirs``:

* a topic name too long for the future log's directory name
  (``<topic>-<partition>.<32 hex>-future`` over 255 characters):
  INVALID_TOPIC_EXCEPTION;
* a path that is not one of ``log.dirs`` (as an absolute path, compared
  exactly): LOG_DIR_NOT_FOUND;
* a partition this broker does not host: REPLICA_NOT_AVAILABLE (Kafka keeps
  this code here instead of NOT_LEADER_OR_FOLLOWER, for compatibility);
* the partition is already in that dir: NONE, nothing changes.

Not implemented: moving a partition to *another* configured log dir. Kafka
copies it into a ``-future`` log with a replica fetcher thread and swaps the
logs when it has caught up; kwire's log manager has no future logs, and a
partition's ``PartitionLog`` is shared by fetch sessions, delayed operations
and the group coordinator, so closing and renaming it under them is not safe.
Such a move answers KAFKA_STORAGE_ERROR, Kafka's own answer when it cannot
create the future log (while a log dir is offline), and the partition stays
where it is.

A partition named under several dirs takes the last one (Kafka builds a map).
v1 is the oldest version Kafka 4 serves; v2 is the first flexible version.
"""

from __future__ import annotations

from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.alter_replica_log_dirs_response import (
    AlterReplicaLogDirPartitionResult,
    AlterReplicaLogDirsResponse,
    AlterReplicaLogDirTopicResult,
)

API_KEY = 34
MIN_VERSION = 1
MAX_VERSION = 2

# len(".") + 32 hex digits of a UUID + len("-future"), after "<topic>-<partition>"
FUTURE_DIR_SUFFIX_LEN = 40
MAX_DIR_NAME = 255


def alter_log_dir(broker, topic: str, partition: int, path: str) -> ErrorCode:
    if len(f"{topic}-{partition}") + FUTURE_DIR_SUFFIX_LEN > MAX_DIR_NAME:
        return ErrorCode.INVALID_TOPIC_EXCEPTION
    if path not in broker.logs.log_dirs:
        return ErrorCode.LOG_DIR_NOT_FOUND
    current = broker.logs.log_dir_of(topic, partition)
    if current is None or broker.metadata.partition(topic, partition) is None:
        return ErrorCode.REPLICA_NOT_AVAILABLE
    if current == path:
        return ErrorCode.NONE
    return ErrorCode.KAFKA_STORAGE_ERROR


def handle(ctx, req) -> AlterReplicaLogDirsResponse:
    targets: dict[tuple[str, int], str] = {}
    for d in req.dirs:
        for t in d.topics:
            for p in t.partitions:
                targets.pop((t.name, p), None)   # the last dir naming it wins
                targets[(t.name, p)] = d.path
    by_topic: dict[str, list[AlterReplicaLogDirPartitionResult]] = {}
    for (topic, p), path in targets.items():
        by_topic.setdefault(topic, []).append(AlterReplicaLogDirPartitionResult(
            partition_index=p, error_code=alter_log_dir(ctx.broker, topic, p, path)))
    return AlterReplicaLogDirsResponse(results=[
        AlterReplicaLogDirTopicResult(topic_name=t, partitions=ps) for t, ps in by_topic.items()])
