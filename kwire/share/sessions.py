"""Share sessions (KIP-932): the partitions a member fetches from this broker, and the epochs.

A share session is keyed by (group id, member id). A ShareFetch with epoch 0
opens it (replacing any earlier one of that member) with the request's
partitions; later requests must carry the session's next epoch, add
partitions by naming them and drop them in ``forgotten_topics_data``; each
good request moves the epoch on (after 2^31-1 it wraps to 1). Epoch -1 closes
the session (the request's acknowledgements are still applied). Errors as
Kafka answers them: SHARE_SESSION_NOT_FOUND (no session for a non-zero
epoch), INVALID_SHARE_SESSION_EPOCH (a stale or future epoch; also a
ShareAcknowledge with epoch 0), SHARE_SESSION_LIMIT_REACHED (more than
``group.share.max.share.sessions`` open sessions).

Eviction, as Kafka 4.3's ShareSessionCache: a session remembers the client
connection that opened it, and when that connection closes the session is
removed (``disconnected``), as it is when its member is fenced by the group
coordinator (``close``); there is no LRU eviction, a full cache refuses new
sessions. ``has_group`` tells whether a group still has a session here (when
its last one goes, the manager forgets the group's share partitions, as Kafka's
ShareGroupListener.onGroupEmpty does).

Pure bookkeeping, no I/O; releasing a closed session's records is the
manager's job (``kwire.share.manager``).
"""

from __future__ import annotations

from kwire.protocol.errors import ErrorCode as E

INITIAL_EPOCH, FINAL_EPOCH = 0, -1


class ShareSession:
    __slots__ = ("group_id", "member_id", "epoch", "partitions", "connection")

    def __init__(self, group_id: str, member_id: str, connection=None) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.connection = connection  # the client connection (host, port) that opened it
        self.epoch = 1  # the epoch the next request must carry
        self.partitions: dict[tuple[bytes, int], None] = {}  # insertion-ordered set

    def bump(self) -> None:
        self.epoch = 1 if self.epoch >= 2**31 - 1 else self.epoch + 1


class ShareSessionCache:
    def __init__(self, max_sessions: int = 2000) -> None:
        self.max_sessions = max_sessions
        self.sessions: dict[tuple[str, str], ShareSession] = {}
        self.by_connection: dict[object, set[tuple[str, str]]] = {}
        self.per_group: dict[str, int] = {}  # group id -> open sessions

    def get(self, group_id: str, member_id: str) -> ShareSession | None:
        return self.sessions.get((group_id, member_id))

    def open(self, group_id: str, member_id: str, partitions, connection=None) -> tuple[E, ShareSession | None]:
        key = (group_id, member_id)
        if key not in self.sessions and len(self.sessions) >= self.max_sessions:
            return E.SHARE_SESSION_LIMIT_REACHED, None
        self.close(group_id, member_id)
        s = self.sessions[key] = ShareSession(group_id, member_id, connection)
        self.per_group[group_id] = self.per_group.get(group_id, 0) + 1
        s.partitions = dict.fromkeys(partitions)
        if connection is not None:
            self.by_connection.setdefault(connection, set()).add(key)
        return E.NONE, s

    def check(self, group_id: str, member_id: str, epoch: int) -> tuple[E, ShareSession | None]:
        """The session a request with a non-zero ``epoch`` continues (or closes)."""
        s = self.sessions.get((group_id, member_id))
        if s is None:
            return E.SHARE_SESSION_NOT_FOUND, None
        if epoch != FINAL_EPOCH and epoch != s.epoch:
            return E.INVALID_SHARE_SESSION_EPOCH, None
        return E.NONE, s

    def close(self, group_id: str, member_id: str) -> ShareSession | None:
        s = self.sessions.pop((group_id, member_id), None)
        if s is not None:
            self._gone(group_id)
        if s is not None and s.connection is not None:
            keys = self.by_connection.get(s.connection)
            if keys is not None:
                keys.discard((group_id, member_id))
                if not keys:
                    del self.by_connection[s.connection]
        return s

    def disconnected(self, connection) -> list[ShareSession]:
        """The client connection closed: remove and return the sessions it opened."""
        out = [s for g, m in self.by_connection.pop(connection, ())
               if (s := self.sessions.pop((g, m), None)) is not None]
        for s in out:
            self._gone(s.group_id)
        return out

    def _gone(self, group_id: str) -> None:
        n = self.per_group.get(group_id, 0) - 1
        if n > 0:
            self.per_group[group_id] = n
        else:
            self.per_group.pop(group_id, None)

    def has_group(self, group_id: str) -> bool:
        """Whether a member of the group has a session open here."""
        return group_id in self.per_group
