"""DeleteShareGroupState (key 86), v0: forget a share partition's stored state.

Tombstones for its ShareSnapshot and ShareUpdate keys in
``__share_group_state`` (compaction removes them); deleting a partition that
has no state succeeds. See ``kwire.handlers.share_state_common``.
"""

from __future__ import annotations

from kwire.handlers.share_state_common import per_partition
from kwire.protocol.generated.delete_share_group_state_response import (
    DeleteShareGroupStateResponse, DeleteStateResult, PartitionResult,
)

API_KEY = 86
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, req) -> DeleteShareGroupStateResponse:
    manager = ctx.broker.share_partitions

    def op(store, gid, tid, p):
        commit = store.delete(gid, tid, p.partition)
        manager.forget(gid, tid, p.partition)
        return {}, commit

    return per_partition(ctx, req, op, DeleteShareGroupStateResponse, DeleteStateResult, PartitionResult)
