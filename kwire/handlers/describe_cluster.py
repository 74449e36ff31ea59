"""DescribeCluster (key 60), v0-2: brokers, cluster id, controller (KIP-700).

The Java Admin client uses this instead of Metadata for ``describeCluster()``
(and Spark's driver calls it before every offset lookup). The answer lists the
brokers from the metadata interface, the cluster id and the controller id; the
controller id is -1 when it is not one of the listed brokers, as Kafka does.

Version notes:
* v1 (KIP-919) adds ``endpoint_type``: 1 (brokers) is the only endpoint kwire
  serves. A request for controllers (2) answers MISMATCHED_ENDPOINT_TYPE, any
  other value UNSUPPORTED_ENDPOINT_TYPE; in v0 both are INVALID_REQUEST
  (Kafka's rule; v0 requests always carry the default 1 anyway).
* v2 (KIP-1073) adds ``include_fenced_brokers`` and ``is_fenced``. kwire never
  fences a broker it lists, so every broker is reported unfenced either way.

Cluster authorized operations are reported when asked; there are no ACLs yet,
so that is every operation Kafka defines for the cluster resource.
Not implemented: controller endpoints (there is no separate KRaft quorum).
"""

from __future__ import annotations

from kwire.handlers.common import AUTHORIZED_OPERATIONS_OMITTED, authorized_operations
from kwire.protocol.errors import ErrorCode
from kwire.security.manager import listener_brokers
from kwire.protocol.generated.describe_cluster_response import (
    DescribeClusterBroker,
    DescribeClusterResponse,
)

API_KEY = 60
MIN_VERSION = 0
MAX_VERSION = 2

BROKER_ENDPOINT = 1
CONTROLLER_ENDPOINT = 2
_ENDPOINT_NAMES = {BROKER_ENDPOINT: "BROKER", CONTROLLER_ENDPOINT: "CONTROLLER"}


def handle(ctx, req) -> DescribeClusterResponse:
    v0 = ctx.api_version == 0
    wanted = req.endpoint_type
    if wanted not in _ENDPOINT_NAMES:
        return DescribeClusterResponse(
            error_code=ErrorCode.INVALID_REQUEST if v0 else ErrorCode.UNSUPPORTED_ENDPOINT_TYPE,
            error_message=f"Unsupported endpoint type {wanted}",
        )
    if wanted != BROKER_ENDPOINT:
        return DescribeClusterResponse(
            error_code=ErrorCode.INVALID_REQUEST if v0 else ErrorCode.MISMATCHED_ENDPOINT_TYPE,
            error_message=(f"The request was sent to an endpoint of type BROKER, "
                           f"but we wanted an endpoint of type {_ENDPOINT_NAMES[wanted]}"),
        )
    md = ctx.broker.metadata
    brokers = [
        DescribeClusterBroker(broker_id=b.node_id, host=b.host, port=b.port, rack=b.rack,
                              is_fenced=False)
        for b in listener_brokers(ctx, md.brokers)  # kwire.security: per listener
    ]
    controller_id = md.controller_id
    if all(b.broker_id != controller_id for b in brokers):
        controller_id = -1
    return DescribeClusterResponse(
        error_code=0,
        error_message=None,
        endpoint_type=BROKER_ENDPOINT,
        cluster_id=md.cluster_id,
        controller_id=controller_id,
        brokers=brokers,
        cluster_authorized_operations=(
            authorized_operations("cluster", ctx) if req.include_cluster_authorized_operations
            else AUTHORIZED_OPERATIONS_OMITTED
        ),
    )
