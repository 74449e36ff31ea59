"""InitializeShareGroupState (key 83), v0: start a share partition's state at a state epoch.

Writes a ShareSnapshot (start offset, nothing in flight, the given state
epoch) to ``__share_group_state``; a state epoch below the stored one answers
FENCED_STATE_EPOCH. A share partition this broker holds in memory reloads the
new state on next use. See ``kwire.handlers.share_state_common``.
"""

from __future__ import annotations

from kwire.handlers.share_state_common import per_partition
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated.initialize_share_group_state_response import (
    InitializeShareGroupStateResponse, InitializeStateResult, PartitionResult,
)

API_KEY = 83
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, req) -> InitializeShareGroupStateResponse:
    manager = ctx.broker.share_partitions

    def op(store, gid, tid, p):
        e = store.entry(gid, tid, p.partition)
        if e is not None and p.state_epoch < e.state_epoch:
            return {"error_code": E.FENCED_STATE_EPOCH, "error_message": "The state epoch is stale."}
        commit = store.initialize(gid, tid, p.partition, p.state_epoch, p.start_offset)
        manager.forget(gid, tid, p.partition)
        return {}, commit

    return per_partition(ctx, req, op, InitializeShareGroupStateResponse, InitializeStateResult, PartitionResult)
