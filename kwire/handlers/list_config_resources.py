"""ListConfigResources (key 74), v0-1: the config resources the cluster has (KIP-1142).

v0 was ListClientMetricsResources (KIP-714) and lists only CLIENT_METRICS
resources: the client metrics subscriptions, by name.

v1 lists the resources of the requested ``resource_types`` (empty means all
the types Kafka supports here), as Kafka's ``KafkaApis``:

* TOPIC (2): every topic, internal ones included;
* BROKER (4) and BROKER_LOGGER (8): each broker, by id;
* GROUP (32): groups that have dynamic group configs (set by
  (Incremental)AlterConfigs; DescribeConfigs reports any group's values);
* CLIENT_METRICS (16): every client metrics subscription.

A type outside these fails the whole request with UNSUPPORTED_VERSION and an
empty list. Authorization (Kafka's KafkaApis, every version): DESCRIBE_CONFIGS
on the cluster, else CLUSTER_AUTHORIZATION_FAILED and an empty list (no
per-resource filtering). Resource names come from the metadata (topics, brokers); v0 and
v1 are flexible.
"""

from __future__ import annotations

from kwire.handlers.describe_configs import BROKER, BROKER_LOGGER, CLIENT_METRICS, GROUP, TOPIC
from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.list_config_resources_response import (
    ConfigResource,
    ListConfigResourcesResponse,
)

API_KEY = 74
MIN_VERSION = 0
MAX_VERSION = 1

SUPPORTED_TYPES = (TOPIC, BROKER, BROKER_LOGGER, GROUP, CLIENT_METRICS)


def _names(metadata, rtype: int) -> list[str]:
    if rtype == TOPIC:
        return sorted(metadata.topics)
    if rtype in (BROKER, BROKER_LOGGER):
        return [str(b.node_id) for b in sorted(metadata.brokers, key=lambda b: b.node_id)]
    if rtype == GROUP:
        return sorted(metadata.group_configs)
    return sorted(metadata.client_metrics)  # CLIENT_METRICS


def handle(ctx, req) -> ListConfigResourcesResponse:
    if not authorize(ctx, acl.DESCRIBE_CONFIGS, acl.CLUSTER, acl.CLUSTER_NAME):  # kwire.security
        return ListConfigResourcesResponse(error_code=acl.CLUSTER_AUTHORIZATION_FAILED, config_resources=[])
    if ctx.api_version == 0:
        return ListConfigResourcesResponse(error_code=ErrorCode.NONE, config_resources=[
            ConfigResource(resource_name=name, resource_type=CLIENT_METRICS)
            for name in _names(ctx.broker.metadata, CLIENT_METRICS)])
    types = list(dict.fromkeys(req.resource_types)) or list(SUPPORTED_TYPES)
    if any(t not in SUPPORTED_TYPES for t in types):
        return ListConfigResourcesResponse(error_code=ErrorCode.UNSUPPORTED_VERSION, config_resources=[])
    metadata = ctx.broker.metadata
    resources = [ConfigResource(resource_name=name, resource_type=t)
                 for t in types for name in _names(metadata, t)]
    return ListConfigResourcesResponse(error_code=ErrorCode.NONE, config_resources=resources)
