"""ReadShareGroupState (key 84), v0: a share partition's stored state.

State epoch, start offset and the in-flight state batches (first, last,
delivery state 0/2/4, delivery count) from ``__share_group_state``; a partition
never initialized answers UNKNOWN_TOPIC_OR_PARTITION. A leader epoch above the
stored one is recorded first (writes of older leaders are then fenced). See
``kwire.handlers.share_state_common``.
"""

from __future__ import annotations

from kwire.handlers.share_state_common import not_initialized, per_partition
from kwire.protocol.generated.read_share_group_state_response import (
    PartitionResult, ReadShareGroupStateResponse, ReadStateResult, StateBatch,
)

API_KEY = 84
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, req) -> ReadShareGroupStateResponse:
    def op(store, gid, tid, p):
        e, error = not_initialized(store, gid, tid, p.partition)
        if error:
            return error
        e, commit = store.read(gid, tid, p.partition, p.leader_epoch)
        start, batches = e.state()
        return {"state_epoch": e.state_epoch, "start_offset": start, "state_batches": [
            StateBatch(first_offset=a, last_offset=b, delivery_state=s, delivery_count=n)
            for a, b, s, n in batches]}, commit

    return per_partition(ctx, req, op, ReadShareGroupStateResponse, ReadStateResult, PartitionResult)
