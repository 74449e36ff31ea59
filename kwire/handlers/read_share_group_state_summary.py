"""ReadShareGroupStateSummary (key 87), v0-1: a share partition's state epoch and start offset.

From ``__share_group_state``; leader epoch -1 (not kept); v1's delivery
complete count: the offsets at or above the start offset that are acknowledged
or archived (the admin's lag subtracts them). A partition never initialized answers
UNKNOWN_TOPIC_OR_PARTITION. See ``kwire.handlers.share_state_common``.
"""

from __future__ import annotations

from kwire.handlers.share_state_common import not_initialized, per_partition
from kwire.protocol.generated.read_share_group_state_summary_response import (
    PartitionResult, ReadShareGroupStateSummaryResponse, ReadStateSummaryResult,
)

API_KEY = 87
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, req) -> ReadShareGroupStateSummaryResponse:
    def op(store, gid, tid, p):
        e, error = not_initialized(store, gid, tid, p.partition)
        if error:
            return error
        return {"state_epoch": e.state_epoch, "leader_epoch": -1, "start_offset": e.start,
                "delivery_complete_count": e.complete_count()}

    return per_partition(ctx, req, op, ReadShareGroupStateSummaryResponse, ReadStateSummaryResult,
                         PartitionResult)
