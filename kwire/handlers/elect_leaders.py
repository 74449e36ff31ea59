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

Cluster mode (``broker.cluster_mode``, ZooKeeper): the elections are the
controller's rules (``ZkMetadata.elect_leaders``, Kafka's ZooKeeper-mode
strategies): PREFERRED needs the first replica live and in the ISR, else
PREFERRED_LEADER_NOT_AVAILABLE; UNCLEAN answers ELECTION_NOT_NEEDED while the
leader is live and otherwise elects a live ISR member, else any live replica,
else ELIGIBLE_LEADERS_NOT_AVAILABLE. Each change bumps the leader epoch,
conditional on the state znode's version; the answer waits (at most
``timeout_ms``) until this broker's image shows the new leaders.

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
    if getattr(ctx.broker, "cluster_mode", False):
        return _handle_cluster(metadata, req, election_type)

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


async def _handle_cluster(md, req, election_type: int) -> ElectLeadersResponse:
    every = req.topic_partitions is None
    if every:
        asked = [(t.name, p.partition) for t in md.topics.values() for p in t.partitions]
    else:
        asked = [(t.topic, p) for t in req.topic_partitions for p in dict.fromkeys(t.partitions)]
    outcome: dict = {}
    known = []
    for name, p in asked:
        t = md.topic(name)
        if t is None:
            outcome[(name, p)] = KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"No such topic as {name}")
        elif not 0 <= p < len(t.partitions):
            outcome[(name, p)] = KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                                            f"No such partition as {name}-{p}")
        else:
            known.append((name, p))
    if known:
        try:
            outcome.update(await md.elect_leaders(known, election_type))
        except KafkaError as e:
            outcome.update({k: e for k in known})
    elected = {k: epoch for k, epoch in outcome.items() if not isinstance(epoch, KafkaError)}

    def shown() -> bool:
        for (name, p), epoch in elected.items():
            t = md.topic(name)
            if t is not None and p < len(t.partitions) and t.partitions[p].leader_epoch < epoch:
                return False
        return True

    if elected:
        await md.until(shown, max(req.timeout_ms, 0) / 1000)
    by_topic: dict[str, list[PartitionResult]] = {}
    for name, p in asked:
        got = outcome[(name, p)]
        if isinstance(got, KafkaError):
            if every and got.code == ErrorCode.ELECTION_NOT_NEEDED:
                by_topic.setdefault(name, [])
                continue
            r = PartitionResult(partition_id=p, error_code=got.code, error_message=got.message)
        else:
            r = PartitionResult(partition_id=p, error_code=ErrorCode.NONE, error_message=None)
        by_topic.setdefault(name, []).append(r)
    return ElectLeadersResponse(error_code=ErrorCode.NONE, replica_election_results=[
        ReplicaElectionResult(topic=n, partition_result=rs) for n, rs in by_topic.items()])
