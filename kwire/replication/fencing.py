"""Self-fencing of a leader cut off from ZooKeeper (sans-I/O): when to stop claiming leadership.

What it does
------------
Kafka's ZooKeeper-mode broker keeps answering as leader while its ZooKeeper
session is gone: clients keep sending to it, acks=all requests wait for
followers that have moved to the new leader, and only a heal ends it. KRaft
fences a broker that misses its heartbeats for ``broker.session.timeout.ms``.
kwire's ZooKeeper mode does the broker's half of that itself:

* ``SessionFence`` follows the ZooKeeper connection (``suspended`` /
  ``connected`` / ``lost``, kazoo's states) and says when the session is, as
  far as this broker can tell, gone: kazoo drops the connection after
  2/3 of the negotiated session timeout without an answer, and ZooKeeper
  expires the session one session timeout after it last heard from the client,
  so the broker counts itself expired ``session_timeout / 3`` after the
  connection dropped (at once when kazoo reports the session lost).
* Past that point a led partition is resigned (``should_resign``) unless every
  other member of its ISR has fetched from this broker within
  ``follower_window_ms``: followers still fetching have not seen a new leader
  (they would have moved to it), and while all of them fetch no other ISR member
  can be leading. That keeps a cluster whose *every* broker lost ZooKeeper (ZooKeeper
  isolated, no election possible) serving, and fences a leader whose
  followers went away (isolated from them, or deposed by a controller it
  cannot hear from).

* ``stalled(gap_s)``: the broker itself stood still (SIGSTOP, a paused VM, a
  loop starved) for longer than the session timeout. ZooKeeper heard nothing
  from it meanwhile, so another broker may lead its partitions already; the
  broker resigns them all at once, before answering the requests that waited
  (they would otherwise be answered from a leadership that is gone: librdkafka
  took 1.3 s of such answers after a 10 s SIGSTOP before it moved on). A
  starved loop whose session in fact survived costs a moment of
  NOT_LEADER_OR_FOLLOWER, until ZooKeeper confirms the leadership.

The replica manager acts on the answers: a resigned partition answers
NOT_LEADER_OR_FOLLOWER to Produce and Fetch, acks=all waiters are answered at
once, Metadata shows it without a leader, and the leadership comes back only
after the session is back and ZooKeeper still names this broker leader at the
same epoch (or a new election names it again).

What it deliberately does not do
--------------------------------
No I/O, no clock of its own (every call takes ``now`` in seconds, monotonic),
no ZooKeeper reads (the replica manager does those).
"""

from __future__ import annotations


class SessionFence:
    """The ZooKeeper connection as the fencing rule sees it."""

    def __init__(self, session_timeout_ms: int, follower_window_ms: int) -> None:
        self.session_timeout_s = session_timeout_ms / 1000
        self.follower_window_ms = follower_window_ms
        self.disconnected_at: float | None = None  # when the connection dropped (None: connected)
        self.lost = False  # kazoo said the session expired

    def on_state(self, state: str, now: float) -> None:
        """``suspended`` / ``connected`` / ``lost`` (kwire.cluster.zk_store's names)."""
        if state == "connected":
            self.disconnected_at = None
            self.lost = False
        elif state == "lost":
            self.lost = True
            if self.disconnected_at is None:
                self.disconnected_at = now
        elif self.disconnected_at is None:
            self.disconnected_at = now

    @property
    def connected(self) -> bool:
        return self.disconnected_at is None

    def expires_at(self) -> float | None:
        """When this broker counts its session as expired (None: connected)."""
        if self.disconnected_at is None:
            return None
        if self.lost:
            return self.disconnected_at
        return self.disconnected_at + self.session_timeout_s / 3

    def expired(self, now: float) -> bool:
        at = self.expires_at()
        return at is not None and now >= at

    def stalled(self, gap_s: float) -> bool:
        """This broker stood still for ``gap_s`` seconds: long enough for its session to be gone?"""
        return gap_s > self.session_timeout_s

    def should_resign(self, isr, leader_id: int, last_fetch_ms, now_ms: int) -> bool:
        """Resign a led partition now? ``last_fetch_ms(replica)``: when that follower last fetched
        (0: never in this leadership). Only asked once ``expired``."""
        for r in isr:
            if r == leader_id:
                continue
            if now_ms - last_fetch_ms(r) > self.follower_window_ms:
                return True
        return False
