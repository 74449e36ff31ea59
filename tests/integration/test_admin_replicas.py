"""Replica admin APIs over TCP on a single broker: ElectLeaders (43),
AlterPartitionReassignments (45), ListPartitionReassignments (46),
AlterReplicaLogDirs (34) and ListConfigResources (74).

With kafka-python's KafkaAdminClient and confluent-kafka's AdminClient, plus
kwire's own client for versions and shapes the clients do not send (ElectLeaders
v0 and an unknown election type, ListConfigResources v0, the v1 flag of
AlterPartitionReassignments). Each API's answers on one broker are trivial;
the error cases carry Kafka's codes.
"""

from __future__ import annotations

import pytest
from confluent_kafka import ElectionType as CElectionType
from confluent_kafka import TopicPartition as CTopicPartition
from kafka import TopicPartition, TopicPartitionReplica
from kafka import errors as Errors
from kafka.admin import KafkaAdminClient

from test_admin import TIMEOUT_S, cadmin, kadmin  # noqa: F401 - the admin clients as fixtures

from kwire.client import KafkaClient
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.alter_partition_reassignments_request import (
    AlterPartitionReassignmentsRequest,
    ReassignablePartition,
    ReassignableTopic,
)
from kwire.protocol.generated.elect_leaders_request import ElectLeadersRequest, TopicPartitions
from kwire.protocol.generated.list_config_resources_request import ListConfigResourcesRequest

pytestmark = pytest.mark.timeout(120)

@pytest.fixture
def topic(kadmin, topic_name):
    kadmin.create_topics({topic_name: {"num_partitions": 3}})
    return topic_name


def partition_codes(response) -> dict[tuple[str, int], int]:
    return {(r.topic, p.partition_id): p.error_code
            for r in response.replica_election_results for p in r.partition_result}


# -- ElectLeaders ---------------------------------------------------------------------------------

def test_elect_leaders_not_needed_and_unknown(kadmin, topic):
    resp = kadmin.elect_leaders(0, {topic: [0, 1, 2, 7], "no-such-topic": [0]}, raise_errors=False)
    assert resp.error_code == 0
    assert partition_codes(resp) == {
        (topic, 0): ErrorCode.ELECTION_NOT_NEEDED, (topic, 1): ErrorCode.ELECTION_NOT_NEEDED,
        (topic, 2): ErrorCode.ELECTION_NOT_NEEDED, (topic, 7): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        ("no-such-topic", 0): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    }
    # unclean election: every partition has a leader
    resp = kadmin.elect_leaders(1, {topic: [0]}, raise_errors=False)
    assert partition_codes(resp) == {(topic, 0): ErrorCode.ELECTION_NOT_NEEDED}


def test_elect_leaders_confluent_all_partitions_and_named(cadmin, topic):
    # null partitions = every partition; those not needing an election are left out
    assert cadmin.elect_leaders(CElectionType.PREFERRED, None).result(timeout=TIMEOUT_S) == {}
    res = cadmin.elect_leaders(CElectionType.PREFERRED, [CTopicPartition(topic, 1)]).result(timeout=TIMEOUT_S)
    (err,) = res.values()
    assert err.code() == ErrorCode.ELECTION_NOT_NEEDED


def test_elect_leaders_wire_versions(broker, topic):
    with KafkaClient(broker.bootstrap) as c:
        req = ElectLeadersRequest(topic_partitions=[TopicPartitions(topic=topic, partitions=[0])])
        v0 = c.request(43, req, version=0)
        assert partition_codes(v0) == {(topic, 0): ErrorCode.ELECTION_NOT_NEEDED}
        whole = c.request(43, ElectLeadersRequest(election_type=0, topic_partitions=None), version=2)
        assert whole.error_code == 0
        assert topic in {r.topic for r in whole.replica_election_results}
        assert partition_codes(whole) == {}
        bad = c.request(43, ElectLeadersRequest(election_type=5, topic_partitions=[
            TopicPartitions(topic=topic, partitions=[0])]), version=2)
        assert bad.error_code == ErrorCode.INVALID_REQUEST
        assert partition_codes(bad) == {(topic, 0): ErrorCode.INVALID_REQUEST}


# -- Alter/ListPartitionReassignments -------------------------------------------------------------

def test_alter_partition_reassignments(kadmin, topic):
    tp = TopicPartition(topic, 0)
    assert kadmin.alter_partition_reassignments({tp: [0]}) == {tp: None}
    res = kadmin.alter_partition_reassignments({
        TopicPartition(topic, 1): [5],
        TopicPartition(topic, 2): [0, 0],
    })
    assert res == {TopicPartition(topic, 1): Errors.InvalidReplicationAssignmentError,
                   TopicPartition(topic, 2): Errors.InvalidReplicationAssignmentError}
    # cancelling when nothing is in progress
    assert kadmin.alter_partition_reassignments({tp: None}) == {tp: Errors.NoReassignmentInProgressError}
    unknown = {TopicPartition(topic, 9): [0], TopicPartition("no-such-topic", 0): [0]}
    assert kadmin.alter_partition_reassignments(unknown) == {
        k: Errors.UnknownTopicOrPartitionError for k in unknown}


def test_alter_partition_reassignments_wire(broker, topic):
    def req(replicas, allow):
        return AlterPartitionReassignmentsRequest(allow_replication_factor_change=allow, topics=[
            ReassignableTopic(name=topic, partitions=[ReassignablePartition(partition_index=0, replicas=replicas)])])

    with KafkaClient(broker.bootstrap) as c:
        resp = c.request(45, req([0], False), version=1)
        assert resp.error_code == 0 and resp.allow_replication_factor_change is False
        (p,) = resp.responses[0].partitions
        assert (p.error_code, p.error_message) == (0, None)
        resp = c.request(45, req([], True), version=0)
        (p,) = resp.responses[0].partitions
        assert p.error_code == ErrorCode.INVALID_REPLICA_ASSIGNMENT
        assert p.error_message == "The manual partition assignment includes an empty replica list."
        resp = c.request(45, req([7], True), version=1)
        assert resp.responses[0].partitions[0].error_message == (
            "The manual partition assignment includes broker 7, but no such broker is registered.")


def test_list_partition_reassignments(kadmin, topic):
    assert kadmin.alter_partition_reassignments({TopicPartition(topic, 0): [0]})
    assert kadmin.list_partition_reassignments() == {}
    assert kadmin.list_partition_reassignments([TopicPartition(topic, 0)]) == {}
    # unknown topics and partitions are left out, not answered with an error
    assert kadmin.list_partition_reassignments({topic: [0, 9], "no-such-topic": [0]}) == {}


# -- AlterReplicaLogDirs --------------------------------------------------------------------------

def test_alter_replica_log_dirs_same_dir_and_errors(broker, kadmin, topic):
    (per_broker,) = kadmin.describe_log_dirs()
    log_dir = per_broker["log_dirs"][0]["log_dir"]
    same = TopicPartitionReplica(topic, 0, 0)
    bad_dir = TopicPartitionReplica(topic, 1, 0)
    unknown = TopicPartitionReplica(topic, 9, 0)
    res = kadmin.alter_replica_log_dirs({same: log_dir, bad_dir: log_dir + "-elsewhere",
                                         unknown: log_dir})
    assert res == {same: Errors.NoError, bad_dir: Errors.LogDirNotFoundError,
                   unknown: Errors.ReplicaNotAvailableError}


def test_alter_replica_log_dirs_move_is_refused(make_broker, tmp_path, topic_name):
    d1, d2 = str(tmp_path / "dir-a"), str(tmp_path / "dir-b")
    b = make_broker(data_dir=tmp_path / "dir-a", overrides={"log.dirs": f"{d1},{d2}"})
    admin = KafkaAdminClient(bootstrap_servers=b.bootstrap, request_timeout_ms=10_000)
    try:
        admin.create_topics({topic_name: {"num_partitions": 2}})
        (per_broker,) = admin.describe_log_dirs()
        where = {p["partition_index"]: d["log_dir"] for d in per_broker["log_dirs"]
                 for t in d["topics"] if t["name"] == topic_name for p in t["partitions"]}
        assert set(where.values()) == {d1, d2}
        tpr = TopicPartitionReplica(topic_name, 0, 0)
        other = d2 if where[0] == d1 else d1
        assert admin.alter_replica_log_dirs({tpr: other}) == {tpr: Errors.KafkaStorageError}
        assert admin.alter_replica_log_dirs({tpr: where[0]}) == {tpr: Errors.NoError}
        (per_broker,) = admin.describe_log_dirs()
        after = {p["partition_index"]: d["log_dir"] for d in per_broker["log_dirs"]
                 for t in d["topics"] if t["name"] == topic_name for p in t["partitions"]}
        assert after == where
    finally:
        admin.close()


# -- ListConfigResources --------------------------------------------------------------------------

def test_list_config_resources(kadmin, topic):
    res = kadmin.list_config_resources()
    assert res["broker"] == ["0"] and res["broker_logger"] == ["0"]
    assert topic in res["topic"]
    assert "group" not in res and "client_metrics" not in res
    only = kadmin.list_config_resources(["TOPIC"])
    assert set(only) == {"topic"} and topic in only["topic"]
    assert kadmin.list_config_resources(["GROUP", "CLIENT_METRICS"]) == {}
    with pytest.raises(Errors.UnsupportedVersionError):
        kadmin.list_config_resources(["UNKNOWN"])


def test_list_config_resources_v0_lists_client_metrics_only(broker, topic):
    with KafkaClient(broker.bootstrap) as c:
        resp = c.request(74, ListConfigResourcesRequest(), version=0)
        assert resp.error_code == 0 and resp.config_resources == []
