# Generated from protocol_specs by kwire.codegen -- do not edit.
"""Index of the generated message modules (no message module is imported here).

APIS: api key -> (name, request module, request class, response module,
      response class, min version, max version, flexible min version or None,
      listeners, latest version unstable).
REQUEST_FLEXIBLE_MIN: api key -> first flexible request version, for every
      request in the specs (broker or not), to pick request header versions.
DATA: schema name -> module of the non-API (data) schemas.
"""

APIS = {
    0: ('Produce', 'produce_request', 'ProduceRequest', 'produce_response', 'ProduceResponse', 3, 13, 9, ('broker',), False),
    1: ('Fetch', 'fetch_request', 'FetchRequest', 'fetch_response', 'FetchResponse', 4, 18, 12, ('broker', 'controller'), False),
    2: ('ListOffsets', 'list_offsets_request', 'ListOffsetsRequest', 'list_offsets_response', 'ListOffsetsResponse', 1, 11, 6, ('broker',), False),
    3: ('Metadata', 'metadata_request', 'MetadataRequest', 'metadata_response', 'MetadataResponse', 0, 13, 9, ('broker',), False),
    8: ('OffsetCommit', 'offset_commit_request', 'OffsetCommitRequest', 'offset_commit_response', 'OffsetCommitResponse', 2, 10, 8, ('broker',), False),
    9: ('OffsetFetch', 'offset_fetch_request', 'OffsetFetchRequest', 'offset_fetch_response', 'OffsetFetchResponse', 1, 10, 6, ('broker',), False),
    10: ('FindCoordinator', 'find_coordinator_request', 'FindCoordinatorRequest', 'find_coordinator_response', 'FindCoordinatorResponse', 0, 6, 3, ('broker',), False),
    11: ('JoinGroup', 'join_group_request', 'JoinGroupRequest', 'join_group_response', 'JoinGroupResponse', 0, 9, 6, ('broker',), False),
    12: ('Heartbeat', 'heartbeat_request', 'HeartbeatRequest', 'heartbeat_response', 'HeartbeatResponse', 0, 4, 4, ('broker',), False),
    13: ('LeaveGroup', 'leave_group_request', 'LeaveGroupRequest', 'leave_group_response', 'LeaveGroupResponse', 0, 5, 4, ('broker',), False),
    14: ('SyncGroup', 'sync_group_request', 'SyncGroupRequest', 'sync_group_response', 'SyncGroupResponse', 0, 5, 4, ('broker',), False),
    15: ('DescribeGroups', 'describe_groups_request', 'DescribeGroupsRequest', 'describe_groups_response', 'DescribeGroupsResponse', 0, 6, 5, ('broker',), False),
    16: ('ListGroups', 'list_groups_request', 'ListGroupsRequest', 'list_groups_response', 'ListGroupsResponse', 0, 5, 3, ('broker',), False),
    17: ('SaslHandshake', 'sasl_handshake_request', 'SaslHandshakeRequest', 'sasl_handshake_response', 'SaslHandshakeResponse', 0, 1, None, ('broker', 'controller'), False),
    18: ('ApiVersions', 'api_versions_request', 'ApiVersionsRequest', 'api_versions_response', 'ApiVersionsResponse', 0, 4, 3, ('broker', 'controller'), False),
    19: ('CreateTopics', 'create_topics_request', 'CreateTopicsRequest', 'create_topics_response', 'CreateTopicsResponse', 2, 7, 5, ('broker', 'controller'), False),
    20: ('DeleteTopics', 'delete_topics_request', 'DeleteTopicsRequest', 'delete_topics_response', 'DeleteTopicsResponse', 1, 6, 4, ('broker', 'controller'), False),
    21: ('DeleteRecords', 'delete_records_request', 'DeleteRecordsRequest', 'delete_records_response', 'DeleteRecordsResponse', 0, 2, 2, ('broker',), False),
    22: ('InitProducerId', 'init_producer_id_request', 'InitProducerIdRequest', 'init_producer_id_response', 'InitProducerIdResponse', 0, 6, 2, ('broker',), True),
    23: ('OffsetForLeaderEpoch', 'offset_for_leader_epoch_request', 'OffsetForLeaderEpochRequest', 'offset_for_leader_epoch_response', 'OffsetForLeaderEpochResponse', 2, 4, 4, ('broker',), False),
    24: ('AddPartitionsToTxn', 'add_partitions_to_txn_request', 'AddPartitionsToTxnRequest', 'add_partitions_to_txn_response', 'AddPartitionsToTxnResponse', 0, 5, 3, ('broker',), False),
    25: ('AddOffsetsToTxn', 'add_offsets_to_txn_request', 'AddOffsetsToTxnRequest', 'add_offsets_to_txn_response', 'AddOffsetsToTxnResponse', 0, 4, 3, ('broker',), False),
    26: ('EndTxn', 'end_txn_request', 'EndTxnRequest', 'end_txn_response', 'EndTxnResponse', 0, 5, 3, ('broker',), False),
    27: ('WriteTxnMarkers', 'write_txn_markers_request', 'WriteTxnMarkersRequest', 'write_txn_markers_response', 'WriteTxnMarkersResponse', 1, 2, 1, ('broker',), False),
    28: ('TxnOffsetCommit', 'txn_offset_commit_request', 'TxnOffsetCommitRequest', 'txn_offset_commit_response', 'TxnOffsetCommitResponse', 0, 5, 3, ('broker',), False),
    29: ('DescribeAcls', 'describe_acls_request', 'DescribeAclsRequest', 'describe_acls_response', 'DescribeAclsResponse', 1, 3, 2, ('broker', 'controller'), False),
    30: ('CreateAcls', 'create_acls_request', 'CreateAclsRequest', 'create_acls_response', 'CreateAclsResponse', 1, 3, 2, ('broker', 'controller'), False),
    31: ('DeleteAcls', 'delete_acls_request', 'DeleteAclsRequest', 'delete_acls_response', 'DeleteAclsResponse', 1, 3, 2, ('broker', 'controller'), False),
    32: ('DescribeConfigs', 'describe_configs_request', 'DescribeConfigsRequest', 'describe_configs_response', 'DescribeConfigsResponse', 1, 4, 4, ('broker', 'controller'), False),
    33: ('AlterConfigs', 'alter_configs_request', 'AlterConfigsRequest', 'alter_configs_response', 'AlterConfigsResponse', 0, 2, 2, ('broker', 'controller'), False),
    34: ('AlterReplicaLogDirs', 'alter_replica_log_dirs_request', 'AlterReplicaLogDirsRequest', 'alter_replica_log_dirs_response', 'AlterReplicaLogDirsResponse', 1, 2, 2, ('broker',), False),
    35: ('DescribeLogDirs', 'describe_log_dirs_request', 'DescribeLogDirsRequest', 'describe_log_dirs_response', 'DescribeLogDirsResponse', 1, 5, 2, ('broker',), False),
    36: ('SaslAuthenticate', 'sasl_authenticate_request', 'SaslAuthenticateRequest', 'sasl_authenticate_response', 'SaslAuthenticateResponse', 0, 2, 2, ('broker', 'controller'), False),
    37: ('CreatePartitions', 'create_partitions_request', 'CreatePartitionsRequest', 'create_partitions_response', 'CreatePartitionsResponse', 0, 3, 2, ('broker', 'controller'), False),
    38: ('CreateDelegationToken', 'create_delegation_token_request', 'CreateDelegationTokenRequest', 'create_delegation_token_response', 'CreateDelegationTokenResponse', 1, 3, 2, ('broker', 'controller'), False),
    39: ('RenewDelegationToken', 'renew_delegation_token_request', 'RenewDelegationTokenRequest', 'renew_delegation_token_response', 'RenewDelegationTokenResponse', 1, 2, 2, ('broker', 'controller'), False),
    40: ('ExpireDelegationToken', 'expire_delegation_token_request', 'ExpireDelegationTokenRequest', 'expire_delegation_token_response', 'ExpireDelegationTokenResponse', 1, 2, 2, ('broker', 'controller'), False),
    41: ('DescribeDelegationToken', 'describe_delegation_token_request', 'DescribeDelegationTokenRequest', 'describe_delegation_token_response', 'DescribeDelegationTokenResponse', 1, 3, 2, ('broker', 'controller'), False),
    42: ('DeleteGroups', 'delete_groups_request', 'DeleteGroupsRequest', 'delete_groups_response', 'DeleteGroupsResponse', 0, 2, 2, ('broker',), False),
    43: ('ElectLeaders', 'elect_leaders_request', 'ElectLeadersRequest', 'elect_leaders_response', 'ElectLeadersResponse', 0, 2, 2, ('broker', 'controller'), False),
    44: ('IncrementalAlterConfigs', 'incremental_alter_configs_request', 'IncrementalAlterConfigsRequest', 'incremental_alter_configs_response', 'IncrementalAlterConfigsResponse', 0, 1, 1, ('broker', 'controller'), False),
    45: ('AlterPartitionReassignments', 'alter_partition_reassignments_request', 'AlterPartitionReassignmentsRequest', 'alter_partition_reassignments_response', 'AlterPartitionReassignmentsResponse', 0, 1, 0, ('broker', 'controller'), False),
    46: ('ListPartitionReassignments', 'list_partition_reassignments_request', 'ListPartitionReassignmentsRequest', 'list_partition_reassignments_response', 'ListPartitionReassignmentsResponse', 0, 0, 0, ('broker', 'controller'), False),
    47: ('OffsetDelete', 'offset_delete_request', 'OffsetDeleteRequest', 'offset_delete_response', 'OffsetDeleteResponse', 0, 0, None, ('broker',), False),
    48: ('DescribeClientQuotas', 'describe_client_quotas_request', 'DescribeClientQuotasRequest', 'describe_client_quotas_response', 'DescribeClientQuotasResponse', 0, 1, 1, ('broker',), False),
    49: ('AlterClientQuotas', 'alter_client_quotas_request', 'AlterClientQuotasRequest', 'alter_client_quotas_response', 'AlterClientQuotasResponse', 0, 1, 1, ('broker', 'controller'), False),
    50: ('DescribeUserScramCredentials', 'describe_user_scram_credentials_request', 'DescribeUserScramCredentialsRequest', 'describe_user_scram_credentials_response', 'DescribeUserScramCredentialsResponse', 0, 0, 0, ('broker', 'controller'), False),
    51: ('AlterUserScramCredentials', 'alter_user_scram_credentials_request', 'AlterUserScramCredentialsRequest', 'alter_user_scram_credentials_response', 'AlterUserScramCredentialsResponse', 0, 0, 0, ('broker', 'controller'), False),
    55: ('DescribeQuorum', 'describe_quorum_request', 'DescribeQuorumRequest', 'describe_quorum_response', 'DescribeQuorumResponse', 0, 2, 0, ('broker', 'controller'), False),
    57: ('UpdateFeatures', 'update_features_request', 'UpdateFeaturesRequest', 'update_features_response', 'UpdateFeaturesResponse', 0, 2, 0, ('broker', 'controller'), False),
    60: ('DescribeCluster', 'describe_cluster_request', 'DescribeClusterRequest', 'describe_cluster_response', 'DescribeClusterResponse', 0, 2, 0, ('broker', 'controller'), False),
    61: ('DescribeProducers', 'describe_producers_request', 'DescribeProducersRequest', 'describe_producers_response', 'DescribeProducersResponse', 0, 0, 0, ('broker',), False),
    64: ('UnregisterBroker', 'unregister_broker_request', 'UnregisterBrokerRequest', 'unregister_broker_response', 'UnregisterBrokerResponse', 0, 0, 0, ('broker', 'controller'), False),
    65: ('DescribeTransactions', 'describe_transactions_request', 'DescribeTransactionsRequest', 'describe_transactions_response', 'DescribeTransactionsResponse', 0, 0, 0, ('broker',), False),
    66: ('ListTransactions', 'list_transactions_request', 'ListTransactionsRequest', 'list_transactions_response', 'ListTransactionsResponse', 0, 2, 0, ('broker',), False),
    68: ('ConsumerGroupHeartbeat', 'consumer_group_heartbeat_request', 'ConsumerGroupHeartbeatRequest', 'consumer_group_heartbeat_response', 'ConsumerGroupHeartbeatResponse', 0, 1, 0, ('broker',), False),
    69: ('ConsumerGroupDescribe', 'consumer_group_describe_request', 'ConsumerGroupDescribeRequest', 'consumer_group_describe_response', 'ConsumerGroupDescribeResponse', 0, 1, 0, ('broker',), False),
    71: ('GetTelemetrySubscriptions', 'get_telemetry_subscriptions_request', 'GetTelemetrySubscriptionsRequest', 'get_telemetry_subscriptions_response', 'GetTelemetrySubscriptionsResponse', 0, 0, 0, ('broker',), False),
    72: ('PushTelemetry', 'push_telemetry_request', 'PushTelemetryRequest', 'push_telemetry_response', 'PushTelemetryResponse', 0, 0, 0, ('broker',), False),
    74: ('ListConfigResources', 'list_config_resources_request', 'ListConfigResourcesRequest', 'list_config_resources_response', 'ListConfigResourcesResponse', 0, 1, 0, ('broker',), False),
    75: ('DescribeTopicPartitions', 'describe_topic_partitions_request', 'DescribeTopicPartitionsRequest', 'describe_topic_partitions_response', 'DescribeTopicPartitionsResponse', 0, 0, 0, ('broker',), False),
    76: ('ShareGroupHeartbeat', 'share_group_heartbeat_request', 'ShareGroupHeartbeatRequest', 'share_group_heartbeat_response', 'ShareGroupHeartbeatResponse', 1, 1, 1, ('broker',), False),
    77: ('ShareGroupDescribe', 'share_group_describe_request', 'ShareGroupDescribeRequest', 'share_group_describe_response', 'ShareGroupDescribeResponse', 1, 1, 1, ('broker',), False),
    78: ('ShareFetch', 'share_fetch_request', 'ShareFetchRequest', 'share_fetch_response', 'ShareFetchResponse', 1, 2, 1, ('broker',), False),
    79: ('ShareAcknowledge', 'share_acknowledge_request', 'ShareAcknowledgeRequest', 'share_acknowledge_response', 'ShareAcknowledgeResponse', 1, 2, 1, ('broker',), False),
    80: ('AddRaftVoter', 'add_raft_voter_request', 'AddRaftVoterRequest', 'add_raft_voter_response', 'AddRaftVoterResponse', 0, 1, 0, ('controller', 'broker'), False),
    81: ('RemoveRaftVoter', 'remove_raft_voter_request', 'RemoveRaftVoterRequest', 'remove_raft_voter_response', 'RemoveRaftVoterResponse', 0, 0, 0, ('controller', 'broker'), False),
    83: ('InitializeShareGroupState', 'initialize_share_group_state_request', 'InitializeShareGroupStateRequest', 'initialize_share_group_state_response', 'InitializeShareGroupStateResponse', 0, 0, 0, ('broker',), False),
    84: ('ReadShareGroupState', 'read_share_group_state_request', 'ReadShareGroupStateRequest', 'read_share_group_state_response', 'ReadShareGroupStateResponse', 0, 0, 0, ('broker',), False),
    85: ('WriteShareGroupState', 'write_share_group_state_request', 'WriteShareGroupStateRequest', 'write_share_group_state_response', 'WriteShareGroupStateResponse', 0, 1, 0, ('broker',), False),
    86: ('DeleteShareGroupState', 'delete_share_group_state_request', 'DeleteShareGroupStateRequest', 'delete_share_group_state_response', 'DeleteShareGroupStateResponse', 0, 0, 0, ('broker',), False),
    87: ('ReadShareGroupStateSummary', 'read_share_group_state_summary_request', 'ReadShareGroupStateSummaryRequest', 'read_share_group_state_summary_response', 'ReadShareGroupStateSummaryResponse', 0, 1, 0, ('broker',), False),
    88: ('StreamsGroupHeartbeat', 'streams_group_heartbeat_request', 'StreamsGroupHeartbeatRequest', 'streams_group_heartbeat_response', 'StreamsGroupHeartbeatResponse', 0, 0, 0, ('broker',), False),
    89: ('StreamsGroupDescribe', 'streams_group_describe_request', 'StreamsGroupDescribeRequest', 'streams_group_describe_response', 'StreamsGroupDescribeResponse', 0, 0, 0, ('broker',), False),
    90: ('DescribeShareGroupOffsets', 'describe_share_group_offsets_request', 'DescribeShareGroupOffsetsRequest', 'describe_share_group_offsets_response', 'DescribeShareGroupOffsetsResponse', 0, 1, 0, ('broker',), False),
    91: ('AlterShareGroupOffsets', 'alter_share_group_offsets_request', 'AlterShareGroupOffsetsRequest', 'alter_share_group_offsets_response', 'AlterShareGroupOffsetsResponse', 0, 0, 0, ('broker',), False),
    92: ('DeleteShareGroupOffsets', 'delete_share_group_offsets_request', 'DeleteShareGroupOffsetsRequest', 'delete_share_group_offsets_response', 'DeleteShareGroupOffsetsResponse', 0, 0, 0, ('broker',), False),
}

REQUEST_FLEXIBLE_MIN = {
    0: 9,  # ProduceRequest
    1: 12,  # FetchRequest
    2: 6,  # ListOffsetsRequest
    3: 9,  # MetadataRequest
    4: None,  # LeaderAndIsrRequest
    5: None,  # StopReplicaRequest
    6: None,  # UpdateMetadataRequest
    7: None,  # ControlledShutdownRequest
    8: 8,  # OffsetCommitRequest
    9: 6,  # OffsetFetchRequest
    10: 3,  # FindCoordinatorRequest
    11: 6,  # JoinGroupRequest
    12: 4,  # HeartbeatRequest
    13: 4,  # LeaveGroupRequest
    14: 4,  # SyncGroupRequest
    15: 5,  # DescribeGroupsRequest
    16: 3,  # ListGroupsRequest
    17: None,  # SaslHandshakeRequest
    18: 3,  # ApiVersionsRequest
    19: 5,  # CreateTopicsRequest
    20: 4,  # DeleteTopicsRequest
    21: 2,  # DeleteRecordsRequest
    22: 2,  # InitProducerIdRequest
    23: 4,  # OffsetForLeaderEpochRequest
    24: 3,  # AddPartitionsToTxnRequest
    25: 3,  # AddOffsetsToTxnRequest
    26: 3,  # EndTxnRequest
    27: 1,  # WriteTxnMarkersRequest
    28: 3,  # TxnOffsetCommitRequest
    29: 2,  # DescribeAclsRequest
    30: 2,  # CreateAclsRequest
    31: 2,  # DeleteAclsRequest
    32: 4,  # DescribeConfigsRequest
    33: 2,  # AlterConfigsRequest
    34: 2,  # AlterReplicaLogDirsRequest
    35: 2,  # DescribeLogDirsRequest
    36: 2,  # SaslAuthenticateRequest
    37: 2,  # CreatePartitionsRequest
    38: 2,  # CreateDelegationTokenRequest
    39: 2,  # RenewDelegationTokenRequest
    40: 2,  # ExpireDelegationTokenRequest
    41: 2,  # DescribeDelegationTokenRequest
    42: 2,  # DeleteGroupsRequest
    43: 2,  # ElectLeadersRequest
    44: 1,  # IncrementalAlterConfigsRequest
    45: 0,  # AlterPartitionReassignmentsRequest
    46: 0,  # ListPartitionReassignmentsRequest
    47: None,  # OffsetDeleteRequest
    48: 1,  # DescribeClientQuotasRequest
    49: 1,  # AlterClientQuotasRequest
    50: 0,  # DescribeUserScramCredentialsRequest
    51: 0,  # AlterUserScramCredentialsRequest
    52: 0,  # VoteRequest
    53: 1,  # BeginQuorumEpochRequest
    54: 1,  # EndQuorumEpochRequest
    55: 0,  # DescribeQuorumRequest
    56: 2,  # AlterPartitionRequest
    57: 0,  # UpdateFeaturesRequest
    58: 0,  # EnvelopeRequest
    59: 0,  # FetchSnapshotRequest
    60: 0,  # DescribeClusterRequest
    61: 0,  # DescribeProducersRequest
    62: 0,  # BrokerRegistrationRequest
    63: 0,  # BrokerHeartbeatRequest
    64: 0,  # UnregisterBrokerRequest
    65: 0,  # DescribeTransactionsRequest
    66: 0,  # ListTransactionsRequest
    67: 0,  # AllocateProducerIdsRequest
    68: 0,  # ConsumerGroupHeartbeatRequest
    69: 0,  # ConsumerGroupDescribeRequest
    70: 0,  # ControllerRegistrationRequest
    71: 0,  # GetTelemetrySubscriptionsRequest
    72: 0,  # PushTelemetryRequest
    73: 0,  # AssignReplicasToDirsRequest
    74: 0,  # ListConfigResourcesRequest
    75: 0,  # DescribeTopicPartitionsRequest
    76: 1,  # ShareGroupHeartbeatRequest
    77: 1,  # ShareGroupDescribeRequest
    78: 1,  # ShareFetchRequest
    79: 1,  # ShareAcknowledgeRequest
    80: 0,  # AddRaftVoterRequest
    81: 0,  # RemoveRaftVoterRequest
    82: 0,  # UpdateRaftVoterRequest
    83: 0,  # InitializeShareGroupStateRequest
    84: 0,  # ReadShareGroupStateRequest
    85: 0,  # WriteShareGroupStateRequest
    86: 0,  # DeleteShareGroupStateRequest
    87: 0,  # ReadShareGroupStateSummaryRequest
    88: 0,  # StreamsGroupHeartbeatRequest
    89: 0,  # StreamsGroupDescribeRequest
    90: 0,  # DescribeShareGroupOffsetsRequest
    91: 0,  # AlterShareGroupOffsetsRequest
    92: 0,  # DeleteShareGroupOffsetsRequest
}

DATA = {
    'ConsumerProtocolAssignment': 'consumer_protocol_assignment',
    'ConsumerProtocolSubscription': 'consumer_protocol_subscription',
    'ControlRecordTypeSchema': 'control_record_type_schema',
    'DefaultPrincipalData': 'default_principal_data',
    'EndTxnMarker': 'end_txn_marker',
    'KRaftVersionRecord': 'k_raft_version_record',
    'LeaderChangeMessage': 'leader_change_message',
    'SnapshotFooterRecord': 'snapshot_footer_record',
    'SnapshotHeaderRecord': 'snapshot_header_record',
    'VotersRecord': 'voters_record',
}
