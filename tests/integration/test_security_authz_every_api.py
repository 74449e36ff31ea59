"""Every API kwire advertises, sent by a principal with no ACL at all, answered as Kafka answers it.

One SASL_PLAINTEXT broker with Kafka's ACL authorizer (``User:admin`` a super
user, ``allow.everyone.if.no.acl.found`` off): ``User:alice`` logs in and
sends one request of every API key the broker advertises to her in
ApiVersions. Each answer is compared with what Kafka 4.x's ``KafkaApis`` /
``AuthHelper`` answer there (the table below names the check Kafka makes):
per-resource refusals (TOPIC_AUTHORIZATION_FAILED, GROUP_AUTHORIZATION_FAILED,
TRANSACTIONAL_ID_AUTHORIZATION_FAILED) where Kafka checks a resource,
CLUSTER_AUTHORIZATION_FAILED where it checks the cluster, listings filtered to
nothing (ListGroups, ListTransactions, Metadata of all topics) where Kafka
filters, and no check at all where Kafka makes none. DescribeAcls without
DESCRIBE on the cluster is CLUSTER_AUTHORIZATION_FAILED, not an empty list
(librdkafka drops that top-level error and shows [], so the wire is checked
here). A key advertised without a row in the table fails the test, so a new
API cannot skip authorization unnoticed. The super user's answers to the
filtered listings show the filters have something to hide.
"""

from __future__ import annotations

import uuid

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from test_security import ADMIN_PLAIN, sasl_listener
from test_security_authz_more import _login

from kwire.protocol.generated import (
    add_offsets_to_txn_request as aot, add_partitions_to_txn_request as apt, alter_client_quotas_request as acq,
    alter_configs_request as ac, alter_partition_reassignments_request as apr, alter_replica_log_dirs_request as arl,
    alter_user_scram_credentials_request as aus, api_versions_request as av, consumer_group_describe_request as cgd,
    consumer_group_heartbeat_request as cgh, create_acls_request as cra, create_partitions_request as cp,
    create_topics_request as ct, delete_acls_request as dla, delete_groups_request as dg,
    delete_records_request as dr, delete_topics_request as dt, describe_acls_request as da,
    describe_client_quotas_request as dcq, describe_cluster_request as dc, describe_configs_request as dcf,
    describe_groups_request as dgr, describe_log_dirs_request as dld, describe_producers_request as dp,
    describe_topic_partitions_request as dtp, describe_transactions_request as dtx,
    describe_user_scram_credentials_request as dus, elect_leaders_request as el, end_txn_request as et,
    fetch_request as fr, find_coordinator_request as fc, get_telemetry_subscriptions_request as gts,
    heartbeat_request as hb, incremental_alter_configs_request as iac, init_producer_id_request as ipi,
    join_group_request as jg, leave_group_request as lg, list_config_resources_request as lcr,
    list_groups_request as lgr, list_offsets_request as lo, list_partition_reassignments_request as lpr,
    list_transactions_request as ltx, metadata_request as md, offset_commit_request as oc,
    offset_delete_request as od, offset_fetch_request as of, offset_for_leader_epoch_request as ofl,
    produce_request as pr, sync_group_request as sg, txn_offset_commit_request as toc,
    write_txn_markers_request as wtm)
from kwire.protocol.generated import (  # share groups (KIP-932)
    alter_share_group_offsets_request as asgo, delete_share_group_offsets_request as dsgo,
    delete_share_group_state_request as dsgs, describe_share_group_offsets_request as dsgoff,
    initialize_share_group_state_request as isgs, read_share_group_state_request as rsgs,
    read_share_group_state_summary_request as rsgss, share_acknowledge_request as sack,
    share_fetch_request as sf, share_group_describe_request as sgd, share_group_heartbeat_request as sgh,
    write_share_group_state_request as wsgs)
from kwire.records.builder import build_batch

AUTHORIZER = "kafka.security.authorizer.AclAuthorizer"
T, G, TX = "az-t", "az-g", "az-tx"  # a topic, a group and a transactional id that exist (the admin's)
TOPIC_DENIED, GROUP_DENIED, TXN_DENIED, CLUSTER_DENIED = 29, 30, 53, 31
TOPIC_RESOURCE, BROKER_RESOURCE, BROKER_LOGGER, GROUP_RESOURCE = 2, 4, 8, 32
SOME_ID = uuid.UUID("5c3f1c2e-0d6b-4a3e-9a51-8f0e2b7d6a41")  # a topic id (the check comes first)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """The broker, with the admin's topic (one record), committed group and open transaction."""
    from conftest import InProcessBroker

    d = tmp_path_factory.mktemp("kwire-authz-every")
    cfg = {"log.dirs": str(d), "group.initial.rebalance.delay.ms": "0", "authorizer.class.name": AUTHORIZER,
           "super.users": "User:admin", **sasl_listener()}
    b = InProcessBroker(d, cfg)
    conf = {"bootstrap.servers": b.bootstrap, **ADMIN_PLAIN}
    admin = AdminClient(conf)
    for fut in admin.create_topics([NewTopic(T, 1, 1)]).values():
        fut.result(30)
    p = Producer({**conf, "transactional.id": TX})
    p.init_transactions(30)
    p.begin_transaction()
    p.produce(T, b"r")
    assert p.flush(30) == 0
    c = Consumer({**conf, "group.id": G, "auto.offset.reset": "earliest", "enable.auto.commit": False})
    c.commit(offsets=[TopicPartition(T, 0, 0)], asynchronous=False)
    c.close()
    try:
        yield b
    finally:
        try:
            p.abort_transaction(30)
        finally:
            b.stop()


def _parts(resp_topics, partitions_attr="partitions", code="error_code"):
    return sorted({getattr(p, code) for t in resp_topics for p in getattr(t, partitions_attr)})


def _table(broker_id: int):
    """(API key, version, request, what of the answer, Kafka's answer, the check Kafka makes)."""
    batch = build_batch([(None, b"v")])
    return [
        (0, 12, pr.ProduceRequest(acks=-1, timeout_ms=5000, topic_data=[pr.TopicProduceData(
            name=T, partition_data=[pr.PartitionProduceData(index=0, records=batch)])]),
         lambda r: _parts(r.responses, "partition_responses"), [TOPIC_DENIED], "WRITE topic"),
        (0, 12, pr.ProduceRequest(transactional_id=TX, acks=-1, timeout_ms=5000, topic_data=[pr.TopicProduceData(
            name=T, partition_data=[pr.PartitionProduceData(index=0, records=batch)])]),
         lambda r: _parts(r.responses, "partition_responses"), [TXN_DENIED], "WRITE transactional id"),
        (1, 12, fr.FetchRequest(replica_id=1, max_wait_ms=0, min_bytes=1, max_bytes=1 << 20, session_epoch=-1,
                                topics=[fr.FetchTopic(topic=T, partitions=[fr.FetchPartition(
                                    partition=0, fetch_offset=0, partition_max_bytes=1 << 20)])],
                                forgotten_topics_data=[]),
         lambda r: _parts(r.responses), [TOPIC_DENIED], "a follower's fetch: CLUSTER_ACTION"),
        (1, 12, fr.FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=1 << 20, session_epoch=-1,
                                topics=[fr.FetchTopic(topic=T, partitions=[fr.FetchPartition(
                                    partition=0, fetch_offset=0, partition_max_bytes=1 << 20)])],
                                forgotten_topics_data=[]),
         lambda r: _parts(r.responses), [TOPIC_DENIED], "READ topic"),
        (2, 9, lo.ListOffsetsRequest(replica_id=-1, topics=[lo.ListOffsetsTopic(
            name=T, partitions=[lo.ListOffsetsPartition(partition_index=0, timestamp=-1)])]),
         lambda r: _parts(r.topics), [TOPIC_DENIED], "DESCRIBE topic"),
        (3, 10, md.MetadataRequest(topics=[md.MetadataRequestTopic(name=T)], allow_auto_topic_creation=False,
                                   include_cluster_authorized_operations=True),
         lambda r: ([(t.name, t.error_code) for t in r.topics], r.cluster_authorized_operations),
         ([(T, TOPIC_DENIED)], 0), "DESCRIBE topic"),
        (3, 12, md.MetadataRequest(topics=[md.MetadataRequestTopic(name="az-auto")], allow_auto_topic_creation=True),
         lambda r: [(t.name, t.error_code) for t in r.topics], [("az-auto", TOPIC_DENIED)],
         "DESCRIBE topic (and CREATE to auto-create)"),
        (8, 9, oc.OffsetCommitRequest(group_id=G, generation_id_or_member_epoch=-1, topics=[oc.OffsetCommitRequestTopic(
            name=T, partitions=[oc.OffsetCommitRequestPartition(partition_index=0, committed_offset=1)])]),
         lambda r: _parts(r.topics), [GROUP_DENIED], "READ group"),
        (9, 9, of.OffsetFetchRequest(groups=[of.OffsetFetchRequestGroup(group_id=G, topics=None)]),
         lambda r: [g.error_code for g in r.groups], [GROUP_DENIED], "DESCRIBE group"),
        (9, 7, of.OffsetFetchRequest(group_id=G, topics=None),
         lambda r: r.error_code, GROUP_DENIED, "DESCRIBE group"),
        (10, 4, fc.FindCoordinatorRequest(key_type=0, coordinator_keys=[G]),
         lambda r: [c.error_code for c in r.coordinators], [GROUP_DENIED], "DESCRIBE group"),
        (10, 4, fc.FindCoordinatorRequest(key_type=1, coordinator_keys=[TX]),
         lambda r: [c.error_code for c in r.coordinators], [TXN_DENIED], "DESCRIBE transactional id"),
        (11, 9, jg.JoinGroupRequest(group_id=G, session_timeout_ms=10000, rebalance_timeout_ms=10000,
                                    protocol_type="consumer", protocols=[jg.JoinGroupRequestProtocol(
                                        name="range", metadata=b"")]),
         lambda r: r.error_code, GROUP_DENIED, "READ group"),
        (12, 4, hb.HeartbeatRequest(group_id=G, generation_id=1, member_id="m"),
         lambda r: r.error_code, GROUP_DENIED, "READ group"),
        (13, 5, lg.LeaveGroupRequest(group_id=G, members=[lg.MemberIdentity(member_id="m")]),
         lambda r: r.error_code, GROUP_DENIED, "READ group"),
        (14, 5, sg.SyncGroupRequest(group_id=G, generation_id=1, member_id="m", protocol_type="consumer",
                                    protocol_name="range", assignments=[]),
         lambda r: r.error_code, GROUP_DENIED, "READ group"),
        (15, 5, dgr.DescribeGroupsRequest(groups=[G]),
         lambda r: [g.error_code for g in r.groups], [GROUP_DENIED], "DESCRIBE group"),
        (16, 5, lgr.ListGroupsRequest(states_filter=[], types_filter=[]),
         lambda r: (r.error_code, [g.group_id for g in r.groups]), (0, []),
         "DESCRIBE cluster, else filtered by DESCRIBE group"),
        (18, 4, av.ApiVersionsRequest(client_software_name="t", client_software_version="1"),
         lambda r: r.error_code, 0, "none"),
        (19, 7, ct.CreateTopicsRequest(topics=[ct.CreatableTopic(name=n, num_partitions=1, replication_factor=1,
                                                                 assignments=[], configs=[]) for n in ("az-new", T)],
                                       timeout_ms=5000),
         lambda r: [t.error_code for t in r.topics], [TOPIC_DENIED, TOPIC_DENIED],
         "CREATE cluster or topic (before existence)"),
        (20, 6, dt.DeleteTopicsRequest(topics=[dt.DeleteTopicState(name=T)], timeout_ms=5000),
         lambda r: [t.error_code for t in r.responses], [TOPIC_DENIED], "DESCRIBE + DELETE topic"),
        (21, 2, dr.DeleteRecordsRequest(topics=[dr.DeleteRecordsTopic(name=T, partitions=[
            dr.DeleteRecordsPartition(partition_index=0, offset=0)])], timeout_ms=5000),
         lambda r: _parts(r.topics), [TOPIC_DENIED], "DELETE topic"),
        (22, 5, ipi.InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=-1, producer_id=-1,
                                          producer_epoch=-1),
         lambda r: r.error_code, CLUSTER_DENIED, "IDEMPOTENT_WRITE cluster or WRITE on some topic"),
        (22, 5, ipi.InitProducerIdRequest(transactional_id=TX, transaction_timeout_ms=60000, producer_id=-1,
                                          producer_epoch=-1),
         lambda r: r.error_code, TXN_DENIED, "WRITE transactional id"),
        (23, 4, ofl.OffsetForLeaderEpochRequest(replica_id=-1, topics=[ofl.OffsetForLeaderTopic(
            topic=T, partitions=[ofl.OffsetForLeaderPartition(partition=0, leader_epoch=0)])]),
         lambda r: _parts(r.topics), [TOPIC_DENIED], "CLUSTER_ACTION or DESCRIBE topic"),
        (24, 3, apt.AddPartitionsToTxnRequest(v3_and_below_transactional_id=TX, v3_and_below_producer_id=1,
                                              v3_and_below_producer_epoch=0, v3_and_below_topics=[
                                                  apt.AddPartitionsToTxnTopic(name=T, partitions=[0])]),
         lambda r: _parts(r.results_by_topic_v3_and_below, "results_by_partition", "partition_error_code"),
         [TXN_DENIED], "WRITE transactional id"),
        (24, 5, apt.AddPartitionsToTxnRequest(transactions=[apt.AddPartitionsToTxnTransaction(
            transactional_id=TX, producer_id=1, producer_epoch=0, verify_only=True,
            topics=[apt.AddPartitionsToTxnTopic(name=T, partitions=[0])])]),
         lambda r: (r.error_code, r.results_by_transaction), (CLUSTER_DENIED, []), "CLUSTER_ACTION (v4+)"),
        (25, 4, aot.AddOffsetsToTxnRequest(transactional_id=TX, producer_id=1, producer_epoch=0, group_id=G),
         lambda r: r.error_code, TXN_DENIED, "WRITE transactional id"),
        (26, 5, et.EndTxnRequest(transactional_id=TX, producer_id=1, producer_epoch=0, committed=True),
         lambda r: r.error_code, TXN_DENIED, "WRITE transactional id"),
        (27, 1, wtm.WriteTxnMarkersRequest(markers=[wtm.WritableTxnMarker(
            producer_id=1, producer_epoch=0, transaction_result=False, coordinator_epoch=0,
            topics=[wtm.WritableTxnMarkerTopic(name=T, partition_indexes=[0])])]),
         lambda r: sorted({p.error_code for m in r.markers for t in m.topics for p in t.partitions}),
         [CLUSTER_DENIED], "ALTER or CLUSTER_ACTION cluster"),
        (28, 3, toc.TxnOffsetCommitRequest(transactional_id=TX, group_id=G, producer_id=1, producer_epoch=0,
                                           generation_id=-1, member_id="", topics=[toc.TxnOffsetCommitRequestTopic(
                                               name=T, partitions=[toc.TxnOffsetCommitRequestPartition(
                                                   partition_index=0, committed_offset=1)])]),
         lambda r: _parts(r.topics), [TXN_DENIED], "WRITE transactional id, READ group"),
        (29, 3, da.DescribeAclsRequest(resource_type_filter=1, resource_name_filter=None, pattern_type_filter=1,
                                       principal_filter=None, host_filter=None, operation=1, permission_type=1),
         lambda r: (r.error_code, r.resources), (CLUSTER_DENIED, []), "DESCRIBE cluster"),
        (30, 3, cra.CreateAclsRequest(creations=[cra.AclCreation(
            resource_type=2, resource_name=T, resource_pattern_type=3, principal="User:alice", host="*",
            operation=3, permission_type=3)]),
         lambda r: [c.error_code for c in r.results], [CLUSTER_DENIED], "ALTER cluster"),
        (31, 3, dla.DeleteAclsRequest(filters=[dla.DeleteAclsFilter(
            resource_type_filter=1, resource_name_filter=None, pattern_type_filter=1, principal_filter=None,
            host_filter=None, operation=1, permission_type=1)]),
         lambda r: [f.error_code for f in r.filter_results], [CLUSTER_DENIED], "ALTER cluster"),
        (32, 4, dcf.DescribeConfigsRequest(resources=[
            dcf.DescribeConfigsResource(resource_type=TOPIC_RESOURCE, resource_name=T, configuration_keys=None),
            dcf.DescribeConfigsResource(resource_type=BROKER_RESOURCE, resource_name=str(broker_id),
                                        configuration_keys=None),
            dcf.DescribeConfigsResource(resource_type=BROKER_LOGGER, resource_name=str(broker_id),
                                        configuration_keys=None),
            dcf.DescribeConfigsResource(resource_type=GROUP_RESOURCE, resource_name=G, configuration_keys=None)]),
         lambda r: [x.error_code for x in r.results], [TOPIC_DENIED, CLUSTER_DENIED, CLUSTER_DENIED, GROUP_DENIED],
         "DESCRIBE_CONFIGS topic / cluster / cluster / group"),
        (33, 2, ac.AlterConfigsRequest(resources=[
            ac.AlterConfigsResource(resource_type=TOPIC_RESOURCE, resource_name=T, configs=[
                ac.AlterableConfig(name="retention.ms", value="1000")]),
            ac.AlterConfigsResource(resource_type=BROKER_RESOURCE, resource_name=str(broker_id), configs=[])],
            validate_only=True),
         lambda r: [x.error_code for x in r.responses], [TOPIC_DENIED, CLUSTER_DENIED],
         "ALTER_CONFIGS topic / cluster"),
        (34, 2, arl.AlterReplicaLogDirsRequest(dirs=[arl.AlterReplicaLogDir(path="/nowhere", topics=[
            arl.AlterReplicaLogDirTopic(name=T, partitions=[0])])]),
         lambda r: sorted({p.error_code for t in r.results for p in t.partitions}), [CLUSTER_DENIED],
         "ALTER cluster"),
        (35, 4, dld.DescribeLogDirsRequest(topics=None),
         lambda r: (r.error_code, r.results), (CLUSTER_DENIED, []), "DESCRIBE cluster"),
        (37, 3, cp.CreatePartitionsRequest(topics=[cp.CreatePartitionsTopic(name=T, count=2, assignments=None)],
                                           timeout_ms=5000, validate_only=True),
         lambda r: [x.error_code for x in r.results], [TOPIC_DENIED], "ALTER topic"),
        (42, 2, dg.DeleteGroupsRequest(groups_names=[G]),
         lambda r: [x.error_code for x in r.results], [GROUP_DENIED], "DELETE group"),
        (43, 2, el.ElectLeadersRequest(election_type=0, topic_partitions=[el.TopicPartitions(topic=T, partitions=[0])],
                                       timeout_ms=5000),
         lambda r: (r.error_code, sorted({p.error_code for x in r.replica_election_results
                                          for p in x.partition_result})), (CLUSTER_DENIED, [CLUSTER_DENIED]),
         "ALTER cluster"),
        (44, 1, iac.IncrementalAlterConfigsRequest(resources=[
            iac.AlterConfigsResource(resource_type=TOPIC_RESOURCE, resource_name=T, configs=[
                iac.AlterableConfig(name="retention.ms", config_operation=0, value="1000")]),
            iac.AlterConfigsResource(resource_type=BROKER_RESOURCE, resource_name=str(broker_id), configs=[])],
            validate_only=True),
         lambda r: [x.error_code for x in r.responses], [TOPIC_DENIED, CLUSTER_DENIED],
         "ALTER_CONFIGS topic / cluster"),
        (45, 0, apr.AlterPartitionReassignmentsRequest(timeout_ms=5000, topics=[apr.ReassignableTopic(
            name=T, partitions=[apr.ReassignablePartition(partition_index=0, replicas=None)])]),
         lambda r: r.error_code, CLUSTER_DENIED, "ALTER cluster"),
        (46, 0, lpr.ListPartitionReassignmentsRequest(timeout_ms=5000, topics=None),
         lambda r: r.error_code, CLUSTER_DENIED, "DESCRIBE cluster"),
        (47, 0, od.OffsetDeleteRequest(group_id=G, topics=[od.OffsetDeleteRequestTopic(
            name=T, partitions=[od.OffsetDeleteRequestPartition(partition_index=0)])]),
         lambda r: r.error_code, GROUP_DENIED, "DELETE group"),
        (48, 1, dcq.DescribeClientQuotasRequest(components=[], strict=False),
         lambda r: r.error_code, CLUSTER_DENIED, "DESCRIBE_CONFIGS cluster"),
        (49, 1, acq.AlterClientQuotasRequest(entries=[acq.EntryData(
            entity=[acq.EntityData(entity_type="user", entity_name="alice")],
            ops=[acq.OpData(key="producer_byte_rate", value=1024.0, remove=False)])], validate_only=True),
         lambda r: [e.error_code for e in r.entries], [CLUSTER_DENIED], "ALTER_CONFIGS cluster"),
        (50, 0, dus.DescribeUserScramCredentialsRequest(users=None),
         lambda r: r.error_code, CLUSTER_DENIED, "DESCRIBE cluster"),
        (51, 0, aus.AlterUserScramCredentialsRequest(deletions=[aus.ScramCredentialDeletion(
            name="bob", mechanism=1)], upsertions=[]),
         lambda r: [x.error_code for x in r.results], [CLUSTER_DENIED], "ALTER cluster"),
        (60, 2, dc.DescribeClusterRequest(include_cluster_authorized_operations=True, endpoint_type=1),
         lambda r: (r.error_code, r.cluster_authorized_operations), (0, 0), "none (authorized operations: none)"),
        (61, 0, dp.DescribeProducersRequest(topics=[dp.TopicRequest(name=T, partition_indexes=[0])]),
         lambda r: _parts(r.topics), [TOPIC_DENIED], "READ topic"),
        (65, 0, dtx.DescribeTransactionsRequest(transactional_ids=[TX]),
         lambda r: [s.error_code for s in r.transaction_states], [TXN_DENIED], "DESCRIBE transactional id"),
        (66, 1, ltx.ListTransactionsRequest(state_filters=[], producer_id_filters=[]),
         lambda r: (r.error_code, [s.transactional_id for s in r.transaction_states]), (0, []),
         "filtered by DESCRIBE transactional id"),
        (68, 1, cgh.ConsumerGroupHeartbeatRequest(group_id="az-g848", member_id="m-1", member_epoch=0,
                                                  rebalance_timeout_ms=10000, subscribed_topic_names=[T],
                                                  topic_partitions=[]),
         lambda r: r.error_code, GROUP_DENIED, "READ group"),
        (69, 1, cgd.ConsumerGroupDescribeRequest(group_ids=[G]),
         lambda r: [g.error_code for g in r.groups], [GROUP_DENIED], "DESCRIBE group"),
        (71, 0, gts.GetTelemetrySubscriptionsRequest(),
         lambda r: r.error_code, 0, "none"),
        (74, 1, lcr.ListConfigResourcesRequest(resource_types=[]),
         lambda r: (r.error_code, r.config_resources), (CLUSTER_DENIED, []), "DESCRIBE_CONFIGS cluster"),
        (75, 0, dtp.DescribeTopicPartitionsRequest(topics=[dtp.TopicRequest(name=T)], response_partition_limit=100),
         lambda r: [(t.name, t.error_code) for t in r.topics], [(T, TOPIC_DENIED)], "DESCRIBE topic"),
        (76, 1, sgh.ShareGroupHeartbeatRequest(group_id="az-share", member_id="m-share-1", member_epoch=0,
                                               rack_id=None, subscribed_topic_names=[T]),
         lambda r: r.error_code, GROUP_DENIED, "READ group"),
        (77, 1, sgd.ShareGroupDescribeRequest(group_ids=["az-share"], include_authorized_operations=False),
         lambda r: [g.error_code for g in r.groups], [GROUP_DENIED], "DESCRIBE group"),
        (78, 1, sf.ShareFetchRequest(group_id="az-share", member_id="m-share-1", share_session_epoch=0,
                                     max_wait_ms=0, min_bytes=1, max_bytes=1 << 20, max_records=500, batch_size=500,
                                     topics=[sf.FetchTopic(topic_id=SOME_ID, partitions=[sf.FetchPartition(
                                         partition_index=0, acknowledgement_batches=[])])], forgotten_topics_data=[]),
         lambda r: r.error_code, GROUP_DENIED, "READ group"),
        (79, 1, sack.ShareAcknowledgeRequest(group_id="az-share", member_id="m-share-1", share_session_epoch=1,
                                             topics=[]),
         lambda r: r.error_code, GROUP_DENIED, "READ group"),
        (83, 0, isgs.InitializeShareGroupStateRequest(group_id="az-share", topics=[isgs.InitializeStateData(
            topic_id=SOME_ID, partitions=[isgs.PartitionData(partition=0, state_epoch=1, start_offset=0)])]),
         lambda r: _parts(r.results), [CLUSTER_DENIED], "CLUSTER_ACTION cluster"),
        (84, 0, rsgs.ReadShareGroupStateRequest(group_id="az-share", topics=[rsgs.ReadStateData(
            topic_id=SOME_ID, partitions=[rsgs.PartitionData(partition=0, leader_epoch=0)])]),
         lambda r: _parts(r.results), [CLUSTER_DENIED], "CLUSTER_ACTION cluster"),
        (85, 0, wsgs.WriteShareGroupStateRequest(group_id="az-share", topics=[wsgs.WriteStateData(
            topic_id=SOME_ID, partitions=[wsgs.PartitionData(partition=0, state_epoch=1, leader_epoch=0,
                                                              start_offset=0, state_batches=[])])]),
         lambda r: _parts(r.results), [CLUSTER_DENIED], "CLUSTER_ACTION cluster"),
        (86, 0, dsgs.DeleteShareGroupStateRequest(group_id="az-share", topics=[dsgs.DeleteStateData(
            topic_id=SOME_ID, partitions=[dsgs.PartitionData(partition=0)])]),
         lambda r: _parts(r.results), [CLUSTER_DENIED], "CLUSTER_ACTION cluster"),
        (87, 0, rsgss.ReadShareGroupStateSummaryRequest(group_id="az-share", topics=[rsgss.ReadStateSummaryData(
            topic_id=SOME_ID, partitions=[rsgss.PartitionData(partition=0, leader_epoch=0)])]),
         lambda r: _parts(r.results), [CLUSTER_DENIED], "CLUSTER_ACTION cluster"),
        (90, 0, dsgoff.DescribeShareGroupOffsetsRequest(groups=[dsgoff.DescribeShareGroupOffsetsRequestGroup(
            group_id="az-share", topics=None)]),
         lambda r: [g.error_code for g in r.groups], [GROUP_DENIED], "DESCRIBE group"),
        (91, 0, asgo.AlterShareGroupOffsetsRequest(group_id="az-share", topics=[asgo.AlterShareGroupOffsetsRequestTopic(
            topic_name=T, partitions=[asgo.AlterShareGroupOffsetsRequestPartition(partition_index=0, start_offset=0)])]),
         lambda r: r.error_code, GROUP_DENIED, "READ group"),
        (92, 0, dsgo.DeleteShareGroupOffsetsRequest(group_id="az-share", topics=[
            dsgo.DeleteShareGroupOffsetsRequestTopic(topic_name=T)]),
         lambda r: r.error_code, GROUP_DENIED, "DELETE group"),
    ]


# Answered before authentication completes / carrying it: no authorization in Kafka either.
UNCHECKED = {17, 36}  # SaslHandshake, SaslAuthenticate (the login above is their test)


def test_every_advertised_api_as_an_unprivileged_principal(world):
    alice = _login(world, "alice")
    admin = _login(world, "admin")
    try:
        advertised = {k.api_key: k for k in alice(18, 3, av.ApiVersionsRequest(
            client_software_name="t", client_software_version="1")).api_keys}
        broker_id = admin(3, 12, md.MetadataRequest(topics=[])).brokers[0].node_id
        table = _table(broker_id)
        assert set(advertised) - UNCHECKED == {row[0] for row in table}, "an advertised API without a row"
        mismatches = []
        for key, version, request, what, expected, check in table:
            assert advertised[key].min_version <= version <= advertised[key].max_version, (key, version)
            got = what(alice(key, version, request))
            if got != expected:
                mismatches.append(f"API {key} v{version} ({check}): got {got!r}, Kafka answers {expected!r}")
        assert not mismatches, "\n".join(mismatches)
        # the filtered listings had something to hide: the super user sees the group and the transaction
        assert G in [g.group_id for g in admin(16, 5, lgr.ListGroupsRequest(states_filter=[],
                                                                            types_filter=[])).groups]
        assert TX in [s.transactional_id for s in admin(66, 1, ltx.ListTransactionsRequest(
            state_filters=[], producer_id_filters=[])).transaction_states]
        assert [t.name for t in alice(3, 12, md.MetadataRequest(topics=None)).topics] == []
        every = [t.name for t in admin(3, 12, md.MetadataRequest(topics=None)).topics]
        assert T in every and "az-auto" not in every and "az-new" not in every  # refused: nothing created
        # and DescribeAcls answers the super user (no error, the list itself)
        r = admin(29, 3, da.DescribeAclsRequest(resource_type_filter=1, resource_name_filter=None,
                                                pattern_type_filter=1, principal_filter=None, host_filter=None,
                                                operation=1, permission_type=1))
        assert r.error_code == 0
    finally:
        alice.close()
        admin.close()
