"""ApiVersions (key 18), v0-4: which APIs and versions this broker serves.

The answer is built from the handler registry, so an API is advertised only
when a handler module for it exists, with that module's version range.
A request with a version above what we support is answered in v0 with
UNSUPPORTED_VERSION and the supported ranges (Kafka's rule, KIP-511), so the
client can retry with a version it shares with us. v3+ carries the client's
software name and version (KIP-511), which we accept and ignore.
Not implemented: supported/finalized features (KRaft metadata.version),
which no client needs from a ZooKeeper-style or single-node broker.
"""

from __future__ import annotations

from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.api_versions_response import ApiVersion, ApiVersionsResponse

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


def handle(ctx, request) -> ApiVersionsResponse:
    return ApiVersionsResponse(error_code=0, api_keys=_api_keys())
