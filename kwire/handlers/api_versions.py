"""ApiVersions (key 18), v0-4: which APIs and versions this broker serves.

The answer is built from the handler registry, so an API is advertised only
when a handler module for it exists, with that module's version range.
A request with a version above what we support is answered in v0 with
UNSUPPORTED_VERSION and the supported ranges (Kafka's rule, KIP-511), so the
client can retry with a version it shares with us. v3+ carries the client's
software name and version (KIP-511), which we accept and ignore.
v3+ also carries features (KIP-584): kwire announces ``transaction.version``
supported 0-2 and finalized at the broker config ``transaction.version``
(kwire-specific, default 2; Kafka finalizes it with kafka-features.sh), with
finalized features epoch 1 (>= 0, else the Java client ignores the features).
The Java client 4.x uses transactions v2 (KIP-890 part 2: Produce v12+,
TxnOffsetCommit v5, EndTxn v5, no AddPartitionsToTxn/AddOffsetsToTxn) when
the finalized level is 2 or more. A level of 0 is not listed as finalized,
as Kafka does. ``share.version`` is supported 0-1 and finalized at 1, as
for a new Kafka 4.3 cluster (share groups on; kwire/share). Not announced: KRaft's metadata.version / kraft.version and
group.version (no client reads them).
"""

from __future__ import annotations

from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.api_versions_response import (
    ApiVersion,
    ApiVersionsResponse,
    FinalizedFeatureKey,
    SupportedFeatureKey,
)

API_KEY = 18
MIN_VERSION = 0
MAX_VERSION = 4

_cached: list | None = None


def _api_keys() -> list[ApiVersion]:
    global _cached
    if _cached is None:
        from kwire.handlers import REGISTRY

        _cached = [ApiVersion(api_key=k, min_version=e.advertised_min_version, max_version=e.max_version)
                   for k, e in sorted(REGISTRY.items())]
    return _cached


def unsupported_version_response() -> ApiVersionsResponse:
    return ApiVersionsResponse(error_code=ErrorCode.UNSUPPORTED_VERSION, api_keys=_api_keys())


FEATURES_EPOCH = 1
TRANSACTION_VERSION_MAX = 2
SHARE_VERSION = 1  # KIP-932 share groups, on for a new Kafka 4.2+ cluster


def handle(ctx, request) -> ApiVersionsResponse:
    resp = ApiVersionsResponse(error_code=0, api_keys=_api_keys())
    if ctx.api_version >= 3:
        level = ctx.broker.config.get("transaction.version", TRANSACTION_VERSION_MAX)
        resp.supported_features = [
            SupportedFeatureKey(name="share.version", min_version=0, max_version=SHARE_VERSION),
            SupportedFeatureKey(name="transaction.version", min_version=0, max_version=TRANSACTION_VERSION_MAX)]
        resp.finalized_features_epoch = FEATURES_EPOCH
        resp.finalized_features = [FinalizedFeatureKey(name="share.version", max_version_level=SHARE_VERSION,
                                                       min_version_level=SHARE_VERSION)]
        if level > 0:
            resp.finalized_features.append(FinalizedFeatureKey(name="transaction.version",
                                                               max_version_level=level,
                                                               min_version_level=level))
    return resp
