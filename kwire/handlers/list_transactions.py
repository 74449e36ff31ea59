"""ListTransactions (key 66), v0-2: the transactional ids this broker coordinates.

The admin client sends it to every broker; each answers for the
``__transaction_state`` partitions it leads. Filters (all optional, combined):
states (Kafka's names; unknown ones are echoed in ``unknown_state_filters``),
producer ids, v1 ``duration_filter`` (KIP-994: running longer than that many
ms), v2 ``transactional_id_pattern`` (KIP-1152: a regular expression the whole
id must match; an invalid one answers INVALID_REGULAR_EXPRESSION).
COORDINATOR_LOAD_IN_PROGRESS while a partition loads.
"""

from __future__ import annotations

import re

from kwire.clock import now_ms
from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.list_transactions_response import ListTransactionsResponse, TransactionState
from kwire.transactions.state import STATE_NAMES

API_KEY = 66
MIN_VERSION = 0
MAX_VERSION = 2


def handle(ctx, req):
    tc = ctx.broker.txn_coordinator
    v = ctx.api_version
    known = set(STATE_NAMES.values())
    states = set(req.state_filters or ())
    unknown = sorted(states - known)
    pids = set(req.producer_id_filters or ())
    duration = req.duration_filter if v >= 1 else -1
    pattern = None
    if v >= 2 and req.transactional_id_pattern:
        try:
            pattern = re.compile(req.transactional_id_pattern)
        except re.error as e:
            return ListTransactionsResponse(throttle_time_ms=0, error_code=ErrorCode.INVALID_REGULAR_EXPRESSION,
                                            unknown_state_filters=[], transaction_states=[])
    if tc.loading:
        return ListTransactionsResponse(throttle_time_ms=0, error_code=ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
                                        unknown_state_filters=unknown, transaction_states=[])
    now = now_ms()
    out = []
    for shard in list(tc.shards.values()):
        for md in shard.txns.values():
            name = STATE_NAMES[md.state]
            if states and name not in states:
                continue
            if pids and md.producer_id not in pids:
                continue
            if duration >= 0 and (md.start_ms < 0 or now - md.start_ms < duration):
                continue
            if pattern is not None and not pattern.fullmatch(md.transactional_id):
                continue
            out.append(TransactionState(transactional_id=md.transactional_id, producer_id=md.producer_id,
                                        transaction_state=name))
    out = [t for t in out if authorize(ctx, acl.DESCRIBE, acl.TRANSACTIONAL_ID, t.transactional_id)]  # kwire.security
    return ListTransactionsResponse(throttle_time_ms=0, error_code=0, unknown_state_filters=unknown,
                                    transaction_states=out)
