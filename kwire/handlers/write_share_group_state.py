"""WriteShareGroupState (key 85), v0-1: record a share partition's new start offset and batches.

Appends a ShareUpdate to ``__share_group_state`` (replay merges it over the
snapshot: a newer start offset drops the batches below it, the batches
replace the states of their offsets). A partition never initialized answers
UNKNOWN_TOPIC_OR_PARTITION, a state epoch below the stored one
FENCED_STATE_EPOCH, a leader epoch below the stored one FENCED_LEADER_EPOCH (a
stale share-partition leader). v1's delivery complete count is accepted and not kept. A
share partition this broker holds in memory reloads the state on next use.
See ``kwire.handlers.share_state_common``.
"""

from __future__ import annotations

from kwire.handlers.share_state_common import not_initialized, per_partition
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated.write_share_group_state_response import (
    PartitionResult, WriteShareGroupStateResponse, WriteStateResult,
)

API_KEY = 85
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, req) -> WriteShareGroupStateResponse:
    manager = ctx.broker.share_partitions

    def op(store, gid, tid, p):
        e, error = not_initialized(store, gid, tid, p.partition)
        if error:
            return error
        if p.state_epoch < e.state_epoch:
            return {"error_code": E.FENCED_STATE_EPOCH, "error_message": "The state epoch is stale."}
        commit = store.write(gid, tid, p.partition, p.start_offset,
                             [(b.first_offset, b.last_offset, b.delivery_state, b.delivery_count)
                              for b in p.state_batches], p.leader_epoch)
        manager.forget(gid, tid, p.partition)
        return {}, commit

    return per_partition(ctx, req, op, WriteShareGroupStateResponse, WriteStateResult, PartitionResult)
