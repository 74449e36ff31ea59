"""The follower's side of one partition: what to fetch next and what to do with the answer.

A sans-I/O state machine over the follower's ``PartitionLog`` (Kafka's
``AbstractFetcherThread`` / ``ReplicaFetcherThread`` decisions for one
partition). It validates its log against a new leader in one of Kafka's two
ways (``truncate_on_fetch``, chosen by the driver from
``inter.broker.protocol.version`` and the leader's Fetch versions):

* truncation on fetch (Kafka >= 2.7, IBP >= 2.7-IV1; KIP-595/KIP-320): a new
  leader epoch starts FETCHING at once with ``last_fetched_epoch``; the leader
  answers a ``diverging_epoch`` when our log is not a prefix of its own;
* OffsetForLeaderEpoch first (KIP-101/KIP-279, IBP below 2.7-IV1 or a leader
  without Fetch v12): a new leader epoch starts TRUNCATING; ``epoch_lookup``
  says what to ask (our latest epoch, with the current leader epoch for
  fencing), ``on_epoch_end_offset`` truncates to the answer; when the leader's
  epoch was unknown to us the truncation is partial and the lookup repeats with
  our new latest epoch, else the partition goes FETCHING (``last_fetched_epoch``
  is then not sent: -1).

The driver
(``kwire.replication.fetcher``, one task per leader) asks ``fetch_partition(now_ms)``
what to put in its Fetch request for this partition, sends the request to
the leader, and hands the partition's answer to ``on_fetch_response``; when
that says ``LOOKUP_OFFSETS`` it asks the leader for its log start and end
offsets (ListOffsets -2 / -1 with this broker's replica id) and hands them to
``on_leader_offsets``. Nothing here touches the network or the clock.

Per Fetch answer (Kafka's ``processFetchRequest``):

* a ``diverging_epoch`` (no error): the log is truncated (``getOffsetTruncationState``)
  to min(our end of that epoch, the leader's end of it, our LEO) when we know
  the epoch; when we do not, to our end of the largest epoch below it (and the
  next fetch, with our new last epoch, asks again); the answer's records, HW
  and log start are not applied (``AbstractFetcherThread.processFetchRequest``: they
  would describe a log that is not ours yet); the next fetch starts at the new
  LEO with the log's latest epoch as ``last_fetched_epoch``.
* no error otherwise: the records are appended with the leader's offsets and epochs
  (``append_as_follower``, dropping batches of an epoch above ours); when the
  leader's first batch starts below our end and our log is empty (the
  leader's log start lies inside a batch), the log restarts at the batch's
  base and the append is retried (``Partition.appendRecordsToFollowerOrFutureReplica``).
  The HW becomes min(leader HW, our LEO) and the log start follows the
  leader's.
* UNKNOWN_LEADER_EPOCH or NOT_LEADER_OR_FOLLOWER from the broker the image
  names leader (it has not seen its election yet): retry after
  ``LEADERSHIP_RETRY_MS`` (at most ``replica.fetch.backoff.ms``), not the
  full backoff, since acks=all waits for this follower.
* CORRUPT_MESSAGE-like append failures, unknown topic or partition, any
  other error: back off ``replica.fetch.backoff.ms`` and fetch again.
* FENCED_LEADER_EPOCH: if the request carried our current epoch, we are
  behind the leader: the partition fails until new leadership arrives
  (``become_follower``); otherwise back off.
* OFFSET_OUT_OF_RANGE: look up the leader's offsets. Leader end below our
  LEO (an unclean election): truncate to it. Leader log start above our LEO:
  ``truncate_fully_and_start_at`` the leader's log start. Else fetch from our
  LEO again (``fetchOffsetAndTruncate``).
* a storage error or any unexpected failure while appending or truncating:
  the partition fails (``markPartitionFailed``) until ``become_follower``.

A TRUNCATING partition whose log has no epochs yet asks for nothing: it
truncates to the fetch offset, as Kafka's ``truncateToHighWatermark`` does.
``on_epoch_end_offset`` applies the same truncation rule as a diverging epoch
(``getOffsetTruncationState``). Its errors: FENCED_LEADER_EPOCH as for Fetch;
UNKNOWN_LEADER_EPOCH / NOT_LEADER_OR_FOLLOWER retry soon; others back off.

Not here: fetch sessions, quotas, throttling, the request building itself.
"""

from __future__ import annotations

import enum
import logging
from typing import NamedTuple

from kwire.log.partition_log import UnexpectedAppendOffset
from kwire.protocol.errors import ErrorCode, KafkaError, code_of

log = logging.getLogger("kwire.replication")

E = ErrorCode


#: Backoff after UNKNOWN_LEADER_EPOCH / NOT_LEADER_OR_FOLLOWER from the broker we think leads
#: (capped by ``replica.fetch.backoff.ms``): that broker is about to learn it leads.
LEADERSHIP_RETRY_MS = 50


class State(enum.Enum):
    FETCHING = "fetching"
    TRUNCATING = "truncating"  # no epochs in the log: truncate before fetching
    LOOKUP_OFFSETS = "lookup_offsets"  # after OFFSET_OUT_OF_RANGE: needs the leader's offsets
    FAILED = "failed"  # until become_follower


class Outcome(enum.Enum):
    APPENDED = "appended"
    NOTHING = "nothing"  # no records (caught up), or a stale answer ignored
    TRUNCATED = "truncated"
    LOOKUP_OFFSETS = "lookup_offsets"
    BACKOFF = "backoff"
    FAILED = "failed"


class FetchPartitionData(NamedTuple):
    """What this partition contributes to a Fetch request (v12+ fields)."""

    fetch_offset: int
    last_fetched_epoch: int
    current_leader_epoch: int
    log_start_offset: int


class TruncationState(NamedTuple):
    offset: int
    complete: bool


class EpochLookup(NamedTuple):
    """What this partition asks OffsetForLeaderEpoch (API 23)."""

    current_leader_epoch: int  # fencing: the leader epoch we follow
    leader_epoch: int  # our latest epoch: where does it end in the leader's log?


class PartitionFetcher:
    def __init__(self, plog, leader_id: int, leader_epoch: int, now_ms: int, *,
                 fetch_backoff_ms: int = 1000, truncate_on_fetch: bool = True) -> None:
        self.log = plog
        self.fetch_backoff_ms = fetch_backoff_ms
        self.truncate_on_fetch = truncate_on_fetch
        self.become_follower(leader_id, leader_epoch, now_ms)

    # -- leadership -------------------------------------------------------------
    def become_follower(self, leader_id: int, leader_epoch: int, now_ms: int) -> None:
        """A (new) leader and epoch: fetch from our LEO, truncating on the leader's word.

        The same epoch again keeps the current state (Kafka's ``partitionFetchState``).
        """
        if getattr(self, "leader_epoch", None) == leader_epoch and self.state is not State.FAILED \
                and self.leader_id == leader_id:
            return
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.fetch_offset = self.log.log_end_offset
        self.last_fetched_epoch = self.log.latest_epoch
        self.state = State.FETCHING if self.truncate_on_fetch and self.last_fetched_epoch >= 0 \
            else State.TRUNCATING
        # the log is known to be a prefix of this leader's (a fetch that carried our last epoch
        # was answered without divergence, or an OffsetForLeaderEpoch truncation completed)
        self.epoch_checked = False
        self.delay_until_ms = now_ms
        self.failure: str | None = None

    def set_truncate_on_fetch(self, enabled: bool) -> None:
        """The driver's choice for the leader's connection (IBP, the leader's Fetch versions).

        Turned off before this leader epoch was checked: the log is validated with
        OffsetForLeaderEpoch before the next fetch. Turned on while waiting for that lookup:
        the next fetch, carrying our last epoch, does the check.
        """
        if enabled == self.truncate_on_fetch:
            return
        self.truncate_on_fetch = enabled
        if not enabled and self.state is State.FETCHING and not self.epoch_checked:
            self.state = State.TRUNCATING
        elif enabled and self.state is State.TRUNCATING and self.log.latest_epoch >= 0:
            self._fetch_from_log_end()

    # -- requests ---------------------------------------------------------------
    def ready(self, now_ms: int) -> bool:
        return self.state is State.FETCHING and now_ms >= self.delay_until_ms

    def fetch_partition(self, now_ms: int) -> FetchPartitionData | None:
        """This partition's part of the next Fetch, or None (backing off, failed, truncating)."""
        if self.state is State.TRUNCATING and self.log.latest_epoch < 0:
            # no epochs to ask about: Kafka's truncateToHighWatermark (to the HW-like start)
            if self._truncate(TruncationState(self.fetch_offset, True)):
                self.epoch_checked = True
        if not self.ready(now_ms):
            return None
        return FetchPartitionData(self.fetch_offset,
                                  self.last_fetched_epoch if self.truncate_on_fetch else -1,
                                  self.leader_epoch, self.log.log_start_offset)

    def epoch_lookup(self, now_ms: int) -> EpochLookup | None:
        """TRUNCATING with epochs and not backing off: what to ask OffsetForLeaderEpoch."""
        if self.state is not State.TRUNCATING or now_ms < self.delay_until_ms:
            return None
        latest = self.log.latest_epoch
        if latest < 0:
            return None  # fetch_partition truncates it without asking
        return EpochLookup(self.leader_epoch, latest)

    # -- answers ----------------------------------------------------------------
    def on_fetch_response(self, requested: FetchPartitionData, error_code: int, *,
                          records=None, high_watermark: int = -1, log_start_offset: int = -1,
                          diverging_epoch: tuple[int, int] | None = None,
                          now_ms: int) -> Outcome:
        """Apply the leader's answer for this partition to a Fetch sent as ``requested``."""
        if self.state is not State.FETCHING or requested.fetch_offset != self.fetch_offset:
            return Outcome.NOTHING  # the partition moved on (truncated, re-led) meanwhile
        code = code_of(error_code)
        if code is E.NONE:
            if self.truncate_on_fetch:
                self.epoch_checked = True  # the leader compared our last fetched epoch with its log
            if self.truncate_on_fetch and diverging_epoch is not None and diverging_epoch[0] >= 0 \
                    and diverging_epoch[1] >= 0:
                # truncate first; the answer's HW and log start are not applied (they would
                # describe a log that is not ours yet): the next fetch brings them
                self.epoch_checked = False  # the next fetch, with our new last epoch, checks again
                state = self.offset_truncation_state(*diverging_epoch)
                log.info("%s-%d: leader %d says our log diverges at epoch %d end %d: truncating "
                         "to %d", self.log.topic, self.log.partition, self.leader_id,
                         diverging_epoch[0], diverging_epoch[1], state.offset)
                return Outcome.TRUNCATED if self._truncate(state) else Outcome.FAILED
            if records is not None and len(records):
                return self._append(records, high_watermark, log_start_offset, now_ms)
            if self._follow_leader_offsets(high_watermark, log_start_offset) is Outcome.FAILED:
                return Outcome.FAILED
            return Outcome.NOTHING
        if code is E.OFFSET_OUT_OF_RANGE:
            self.state = State.LOOKUP_OFFSETS
            return Outcome.LOOKUP_OFFSETS
        if code is E.FENCED_LEADER_EPOCH:
            return self._fenced(requested.current_leader_epoch, now_ms)
        if code is E.KAFKA_STORAGE_ERROR:
            log.warning("%s-%d: the leader's log dir is offline; retrying", self.log.topic,
                        self.log.partition)
        if code is E.UNKNOWN_LEADER_EPOCH or code is E.NOT_LEADER_OR_FOLLOWER:
            # the new leader has not seen its own election yet (its watch fires a moment after
            # ours): it will within milliseconds, and acks=all waits for us, so retry soon
            return self._backoff(now_ms, f"fetch error {code.name}",
                                 min(self.fetch_backoff_ms, LEADERSHIP_RETRY_MS))
        return self._backoff(now_ms, f"fetch error {code.name}")

    def on_leader_offsets(self, leader_log_start_offset: int, leader_log_end_offset: int,
                          now_ms: int) -> Outcome:
        """The leader's log start and end (after OFFSET_OUT_OF_RANGE): ``fetchOffsetAndTruncate``."""
        if self.state is not State.LOOKUP_OFFSETS:
            return Outcome.NOTHING
        self.state = State.FETCHING
        leo = self.log.log_end_offset
        try:
            if leader_log_end_offset < leo:  # an unclean election left the leader behind us
                log.warning("%s-%d: resetting from %d to the leader's end offset %d",
                            self.log.topic, self.log.partition, leo, leader_log_end_offset)
                if not self._truncate(TruncationState(leader_log_end_offset, True)):
                    return Outcome.FAILED
                return Outcome.TRUNCATED
            if leader_log_start_offset > leo:
                log.warning("%s-%d: our end %d is below the leader's log start %d: starting over",
                            self.log.topic, self.log.partition, leo, leader_log_start_offset)
                self.log.truncate_fully_and_start_at(leader_log_start_offset)
                self._fetch_from_log_end()
                return Outcome.TRUNCATED
        except KafkaError as e:
            return self._fail(f"restarting the log: {e}")
        self._fetch_from_log_end()
        return Outcome.NOTHING

    def on_leader_offsets_error(self, error_code: int, requested_epoch: int,
                                now_ms: int) -> Outcome:
        """The offset lookup failed: fenced with our epoch fails, anything else backs off."""
        if self.state is not State.LOOKUP_OFFSETS:
            return Outcome.NOTHING
        self.state = State.FETCHING
        code = code_of(error_code)
        if code is E.FENCED_LEADER_EPOCH:
            return self._fenced(requested_epoch, now_ms)
        return self._backoff(now_ms, f"offset lookup error {code.name}")

    def on_epoch_end_offset(self, error_code: int, leader_epoch: int, end_offset: int,
                            requested_epoch: int, now_ms: int) -> Outcome:
        """The OffsetForLeaderEpoch answer to ``epoch_lookup`` (Kafka's
        ``maybeTruncateToEpochEndOffsets``): truncate, then fetch -- or, when the leader's
        epoch was unknown to us, truncate to the end of our epoch below it and ask again."""
        if self.state is not State.TRUNCATING:
            return Outcome.NOTHING  # re-led or failed meanwhile
        code = code_of(error_code)
        if code is E.FENCED_LEADER_EPOCH:
            return self._fenced(requested_epoch, now_ms)
        if code is E.UNKNOWN_LEADER_EPOCH or code is E.NOT_LEADER_OR_FOLLOWER:
            # the leader has not seen its own election yet: it will within milliseconds
            return self._backoff(now_ms, f"OffsetForLeaderEpoch error {code.name}",
                                 min(self.fetch_backoff_ms, LEADERSHIP_RETRY_MS))
        if code is not E.NONE:
            return self._backoff(now_ms, f"OffsetForLeaderEpoch error {code.name}")
        asked = self.log.latest_epoch
        state = self.offset_truncation_state(leader_epoch, end_offset)
        log.info("%s-%d: OffsetForLeaderEpoch: leader %d ends epoch %d (we asked for %d) at %d: "
                 "truncating to %d%s", self.log.topic, self.log.partition, self.leader_id, leader_epoch,
                 asked, end_offset, state.offset, "" if state.complete else ", then asking again")
        if not self._truncate(state):
            return Outcome.FAILED
        if state.complete or self.truncate_on_fetch:
            self.epoch_checked = state.complete
        else:
            self.state = State.TRUNCATING  # our new latest epoch is asked about next
        return Outcome.TRUNCATED

    # -- truncation rule ----------------------------------------------------------
    def offset_truncation_state(self, leader_epoch: int, end_offset: int) -> TruncationState:
        """Kafka's ``getOffsetTruncationState`` for the leader's (epoch, end offset)."""
        leo = self.log.log_end_offset
        if end_offset < 0:
            return TruncationState(self.fetch_offset, True)
        if leader_epoch < 0:
            return TruncationState(min(end_offset, leo), True)
        epoch, our_end = self.log.end_offset_for_epoch(leader_epoch)
        if our_end < 0:  # we track no epoch that old: the leader's offset it is
            return TruncationState(min(end_offset, leo), True)
        if epoch != leader_epoch:  # we never had the leader's epoch: cut to the end of ours
            return TruncationState(min(our_end, leo), False)
        return TruncationState(min(our_end, end_offset, leo), True)

    # -- internals --------------------------------------------------------------
    def _append(self, records, high_watermark: int, log_start_offset: int,
                now_ms: int) -> Outcome:
        plog = self.log
        if self.fetch_offset != plog.log_end_offset:
            return self._fail(f"offset mismatch: fetched at {self.fetch_offset}, the log ends "
                              f"at {plog.log_end_offset}")
        try:
            try:
                got = plog.append_as_follower(records, now_ms, leader_epoch=self.leader_epoch)
            except UnexpectedAppendOffset as e:
                leo = plog.log_end_offset
                if not (leo == plog.log_start_offset and e.first_offset < leo <= e.last_offset):
                    raise
                log.info("%s-%d: the leader's first batch starts at %d, below our empty log's "
                         "start %d: starting the log there", plog.topic, plog.partition,
                         e.first_offset, leo)
                plog.truncate_fully_and_start_at(e.first_offset)
                got = plog.append_as_follower(records, now_ms, leader_epoch=self.leader_epoch)
        except KafkaError as e:
            if e.code in (E.CORRUPT_MESSAGE, E.INVALID_RECORD):
                return self._backoff(now_ms, f"invalid records at {self.fetch_offset}: {e}")
            return self._fail(f"append at {self.fetch_offset}: {e}")
        if self._follow_leader_offsets(high_watermark, log_start_offset) is Outcome.FAILED:
            return Outcome.FAILED
        if got.valid_bytes <= 0:
            return Outcome.NOTHING
        self.fetch_offset = got.last_offset + 1
        self.last_fetched_epoch = got.last_leader_epoch
        return Outcome.APPENDED

    def _follow_leader_offsets(self, high_watermark: int, log_start_offset: int) -> Outcome:
        """After every answer without error: HW = min(leader HW, our LEO) (it may go down),
        and the log start follows the leader's (Kafka's ``processPartitionData``)."""
        plog = self.log
        if high_watermark >= 0:
            plog.update_high_watermark(high_watermark)
        if plog.log_start_offset < log_start_offset <= plog.high_watermark:
            try:
                plog.delete_records_before(log_start_offset)
            except KafkaError as e:
                return self._fail(f"moving the log start to the leader's {log_start_offset}: {e}")
        return Outcome.NOTHING

    def _truncate(self, state: TruncationState) -> bool:
        try:
            if state.offset < self.log.high_watermark:
                log.warning("%s-%d: truncating to %d, below the high watermark %d",
                            self.log.topic, self.log.partition, state.offset,
                            self.log.high_watermark)
            self.log.truncate_to(state.offset)
        except KafkaError as e:
            self._fail(f"truncation to {state.offset}: {e}")
            return False
        self._fetch_from_log_end()
        return True

    def _fetch_from_log_end(self) -> None:
        self.fetch_offset = self.log.log_end_offset
        self.last_fetched_epoch = self.log.latest_epoch
        self.state = State.FETCHING

    def _fenced(self, requested_epoch: int, now_ms: int) -> Outcome:
        if requested_epoch == self.leader_epoch:
            # normal while leadership moves (the new state reaches us through the image):
            # not an error, as Kafka's fetcher only logs it
            return self._fail(f"fenced: the leader has an epoch newer than our {self.leader_epoch}",
                              level=logging.INFO)
        return self._backoff(now_ms, "fenced with an older epoch; ours is newer")

    def _backoff(self, now_ms: int, why: str, backoff_ms: int | None = None) -> Outcome:
        backoff_ms = self.fetch_backoff_ms if backoff_ms is None else backoff_ms
        log.debug("%s-%d: backing off %d ms: %s", self.log.topic, self.log.partition, backoff_ms, why)
        self.delay_until_ms = now_ms + backoff_ms
        return Outcome.BACKOFF

    def fail(self, why: str) -> None:
        """Stop fetching this partition until ``become_follower`` (the driver's unexpected
        failures: Kafka's ``markPartitionFailed``)."""
        self._fail(why)

    def _fail(self, why: str, level: int = logging.ERROR) -> Outcome:
        log.log(level, "%s-%d: replication stopped until the next leadership change: %s",
                self.log.topic, self.log.partition, why)
        self.state = State.FAILED
        self.failure = why
        return Outcome.FAILED
