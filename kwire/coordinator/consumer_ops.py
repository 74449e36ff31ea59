"""KIP-848 consumer groups (placeholder while the classic protocol is finished)."""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError
from kwire.protocol.errors import ErrorCode as E


class ConsumerOps:
    def __init__(self, shard) -> None:
        self.shard = shard

    def heartbeat(self, ctx, req, now):
        raise CoordinatorError(E.UNSUPPORTED_VERSION)

    def describe(self, group_id):
        return None

    def tombstones(self, group):
        return []

    def replay(self, key, value):
        pass
