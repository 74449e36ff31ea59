"""GetTelemetrySubscriptions (key 71), v0: client metrics (KIP-714) — none wanted.

Clients since Kafka 3.7 ask this right after ApiVersions. kwire collects no
client telemetry, so it answers without error, with an empty metric list and
a zero subscription: KIP-714 says a client with no requested metrics sends no
PushTelemetry, and the long push interval keeps it from asking again soon.
A client that sent the zero uuid gets a fresh client instance id, as the KIP
asks of the broker. PushTelemetry is not implemented (and not advertised).
Client metrics subscriptions set with (Incremental)AlterConfigs on
CLIENT_METRICS resources are stored, described and listed, but not handed to
clients here: without PushTelemetry a matching client would push to an API
kwire does not serve.
"""

from __future__ import annotations

import uuid

from kwire.protocol.generated.get_telemetry_subscriptions_response import GetTelemetrySubscriptionsResponse

API_KEY = 71
MIN_VERSION = 0
MAX_VERSION = 0

_ZERO = uuid.UUID(int=0)
PUSH_INTERVAL_MS = 300_000


def handle(ctx, request) -> GetTelemetrySubscriptionsResponse:
    instance = request.client_instance_id
    if instance == _ZERO:
        instance = uuid.uuid4()
    return GetTelemetrySubscriptionsResponse(
        error_code=0,
        client_instance_id=instance,
        subscription_id=0,
        accepted_compression_types=[],
        push_interval_ms=PUSH_INTERVAL_MS,
        telemetry_max_bytes=1024 * 1024,
        delta_temporality=True,
        requested_metrics=[],
    )
