"""Group administration with kafka-python's KafkaAdminClient and confluent-kafka's AdminClient.

ListGroups (with state and type filters), DescribeGroups, OffsetFetch for all
partitions, OffsetCommit by an admin (alter offsets: generation -1, no member),
OffsetDelete (refused for a subscribed topic while the group is active), and
DeleteGroups (NON_EMPTY_GROUP while members are present, GROUP_ID_NOT_FOUND
for unknown groups).
"""

from __future__ import annotations

import uuid

import pytest
from test_groups_support import LIVE, Member, create_topic, produce, wait_until


@pytest.fixture(autouse=True)
def stop_leftover_members():
    yield
    for m in list(LIVE):
        m.stop()


def _names(tag):
    u = uuid.uuid4().hex[:8]
    return f"t-{tag}-{u}", f"g-{tag}-{u}"


def test_kafka_python_admin(broker):
    from kafka import KafkaAdminClient, TopicPartition
    from kafka.errors import GroupIdNotFoundError, NonEmptyGroupError

    topic, group = _names("kpadmin")
    bs = broker.bootstrap
    create_topic(bs, topic, 3)
    produce(bs, topic, 30, 3)
    m = Member("kafka-python", bs, topic, group)
    wait_until(lambda: len(m.records) >= 30, what="records")
    m.call("commit", {0: (5, "five"), 1: (6, None), 2: (7, "seven")})
    admin = KafkaAdminClient(bootstrap_servers=bs)
    try:
        listed = {g["group_id"]: g for g in admin.list_groups()}
        assert listed[group]["group_state"] == "Stable" and listed[group]["protocol_type"] == "consumer"
        assert listed[group]["group_type"] == "classic"
        assert group not in {g["group_id"] for g in admin.list_groups(states_filter=["Empty"])}
        assert group in {g["group_id"] for g in admin.list_groups(types_filter=["classic"])}
        assert group not in {g["group_id"] for g in admin.list_groups(types_filter=["consumer"])}

        desc = admin.describe_groups([group, "no-such-group"])
        d = desc[group]
        assert d["group_state"] == "Stable" and d["protocol_data"] == "range"
        (member,) = d["members"]
        assert member["client_id"] == "kafka-python-member" and member["client_host"] == "/127.0.0.1"
        assert member["member_metadata"]["topics"] == [topic]
        assert member["member_assignment"]["assigned_partitions"][0]["partitions"] == [0, 1, 2]
        assert "GroupIdNotFound" in str(desc["no-such-group"]["error"])

        offsets = admin.list_group_offsets({group: None})[group]
        assert {tp.partition: (o.offset, o.metadata) for tp, o in offsets.items()} == \
               {0: (5, "five"), 1: (6, ""), 2: (7, "seven")}

        # an active group may not lose offsets of a topic it subscribes to, nor be deleted
        res = admin.delete_group_offsets(group, [TopicPartition(topic, 0)])
        assert "GroupSubscribedToTopic" in str(res[TopicPartition(topic, 0)])
        assert admin.delete_groups([group])[group] == NonEmptyGroupError.__name__

        m.stop()
        assert group in {g["group_id"] for g in admin.list_groups(states_filter=["empty"])}
        res = admin.delete_group_offsets(group, [TopicPartition(topic, 0)])
        assert res[TopicPartition(topic, 0)].__name__ == "NoError"
        offsets = admin.list_group_offsets({group: None})[group]
        assert sorted(tp.partition for tp in offsets) == [1, 2]

        assert admin.delete_groups([group, "no-such-group"]) == {
            group: "OK", "no-such-group": GroupIdNotFoundError.__name__}
        assert group not in {g["group_id"] for g in admin.list_groups()}
        assert admin.list_group_offsets({group: None})[group] == {}
    finally:
        admin.close()


def test_confluent_admin(broker):
    from confluent_kafka import ConsumerGroupTopicPartitions, TopicPartition
    from confluent_kafka.admin import AdminClient

    topic, group = _names("cfadmin")
    bs = broker.bootstrap
    create_topic(bs, topic, 3)
    produce(bs, topic, 30, 3)
    m = Member("confluent", bs, topic, group)
    wait_until(lambda: len(m.records) >= 30, what="records")
    m.call("commit", {0: (10, "ten"), 1: (10, None), 2: (10, None)})
    admin = AdminClient({"bootstrap.servers": bs})

    listing = admin.list_consumer_groups(request_timeout=10).result()
    mine = [g for g in listing.valid if g.group_id == group]
    assert len(mine) == 1 and mine[0].state.name == "STABLE" and not mine[0].is_simple_consumer_group

    desc = admin.describe_consumer_groups([group], request_timeout=10)[group].result()
    assert desc.state.name == "STABLE" and desc.partition_assignor == "range"
    (member,) = desc.members
    assert member.host == "/127.0.0.1"
    assert sorted(tp.partition for tp in member.assignment.topic_partitions) == [0, 1, 2]

    got = admin.list_consumer_group_offsets([ConsumerGroupTopicPartitions(group)])[group].result()
    # librdkafka shows an empty metadata string as None
    assert {tp.partition: (tp.offset, tp.metadata or "") for tp in got.topic_partitions} == \
           {0: (10, "ten"), 1: (10, ""), 2: (10, "")}

    err = admin.delete_consumer_groups([group], request_timeout=10)[group].exception()
    assert err is not None and err.args[0].name() == "NON_EMPTY_GROUP"
    m.stop()

    # an admin commit (generation -1, no member id) is accepted for an Empty group
    admin.alter_consumer_group_offsets(
        [ConsumerGroupTopicPartitions(group, [TopicPartition(topic, 0, 3)])])[group].result()
    got = admin.list_consumer_group_offsets([ConsumerGroupTopicPartitions(group)])[group].result()
    assert {tp.partition: tp.offset for tp in got.topic_partitions} == {0: 3, 1: 10, 2: 10}

    res = admin.delete_consumer_groups([group, "no-such-group"], request_timeout=10)
    assert res[group].result() is None
    assert res["no-such-group"].exception().args[0].name() == "GROUP_ID_NOT_FOUND"
    listing = admin.list_consumer_groups(request_timeout=10).result()
    assert group not in {g.group_id for g in listing.valid}


def test_simple_consumer_commit_creates_simple_group(broker):
    """Commits without group membership (assign + commit) make an Empty group with no protocol."""
    from kafka import KafkaAdminClient, KafkaConsumer, TopicPartition
    from kafka.structs import OffsetAndMetadata

    topic, group = _names("simple")
    bs = broker.bootstrap
    create_topic(bs, topic, 2)
    c = KafkaConsumer(bootstrap_servers=bs, group_id=group, enable_auto_commit=False)
    try:
        c.assign([TopicPartition(topic, 0), TopicPartition(topic, 1)])
        c.commit({TopicPartition(topic, 1): OffsetAndMetadata(42, "simple", -1)})
        assert c.committed(TopicPartition(topic, 1)) == 42
        assert c.committed(TopicPartition(topic, 0)) is None
    finally:
        c.close()
    admin = KafkaAdminClient(bootstrap_servers=bs)
    try:
        g = {x["group_id"]: x for x in admin.list_groups()}[group]
        assert (g["group_state"], g["protocol_type"]) == ("Empty", "")
    finally:
        admin.close()
