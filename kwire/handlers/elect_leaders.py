"""ElectLeaders (key 43), v0-2: elect partitions' preferred (or unclean) leaders (KIP-460).

The election itself is the metadata's (``elect_leader``); this module only
shapes the answer. Per partition, as Kafka's controller
(``ReplicationControlManager.electLeaders``):

* an unknown topic or partition: UNKNOWN_TOPIC_OR_PARTITION ("No such topic
  as ..." / "No such partition as ...");
* PREFERRED (0) when the leader is already the first replica, or UNCLEAN (1)
  when the partition has a leader: ELECTION_NOT_NEEDED (84). On kwire's single
  broker that is every existing partition: it is the only replica and leads
  them all.

``topic_partitions`` null means every partition of every topic; then, as
Kafka does, partitions answering ELECTION_NOT_NEEDED are left out (each topic
is listed, with only the partitions that were elected or failed). A named
partition is always answered, ELECTION_NOT_NEEDED included. A partition named
twice is answered once.

An election type other than 0 or 1 answers INVALID_REQUEST (top level from v1,
and for every named partition). ``timeout_ms`` is not needed: nothing is
waited for on one node.

Version notes: v1 adds ``election_type`` (v0 is always PREFERRED) and the
top-level ``error_code``; v2 is the first flexible version.
"""

from __future__ import annotations

from kwire.cluster.metadata import PREFERRED_ELECTION, UNCLEAN_ELECTION
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.protocol.generated.elect_leaders_response import (
    ElectLeadersResponse,
    PartitionResult,
    ReplicaElectionResult,
)

API_KEY = 43
MIN_VERSION = 0
MAX_VERSION = 2


def _elect(metadata, topic: str, partition: int, election_type: int) -> PartitionResult:
    try:
        metadata.elect_leader(topic, partition, election_type)
        code, message = ErrorCode.NONE, None
    except KafkaError as e:
        code, message = e.code, e.message
    return PartitionResult(partition_id=partition, error_code=code, error_message=message)


def handle(ctx, req) -> ElectLeadersResponse:
    metadata = ctx.broker.metadata
    election_type = req.election_type if ctx.api_version >= 1 else PREFERRED_ELECTION
    if election_type not in (PREFERRED_ELECTION, UNCLEAN_ELECTION):
        message = f"Unknown election type {election_type}"
        results = [ReplicaElectionResult(topic=t.topic, partition_result=[
            PartitionResult(partition_id=p, error_code=ErrorCode.INVALID_REQUEST, error_message=message)
            for p in dict.fromkeys(t.partitions)]) for t in (req.topic_partitions or [])]
        return ElectLeadersResponse(error_code=ErrorCode.INVALID_REQUEST, replica_election_results=results)

    results = []
    if req.topic_partitions is None:
        for name in sorted(metadata.topics):
            parts = [_elect(metadata, name, p.partition, election_type)
                     for p in metadata.topic(name).partitions]
            results.append(ReplicaElectionResult(topic=name, partition_result=[
                r for r in parts if r.error_code != ErrorCode.ELECTION_NOT_NEEDED]))
    else:
        for t in req.topic_partitions:
            results.append(ReplicaElectionResult(topic=t.topic, partition_result=[
                _elect(metadata, t.topic, p, election_type) for p in dict.fromkeys(t.partitions)]))
    return ElectLeadersResponse(error_code=ErrorCode.NONE, replica_election_results=results)
