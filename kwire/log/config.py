"""Per-partition log settings, with Kafka's defaults.

``LogConfig`` is the storage layer's own view of a topic's configuration. The
broker resolves topic overrides and broker defaults (``kwire.config``) and maps
them onto this dataclass; ``kwire.log`` never reads ``kwire.config`` itself, so
the storage layer can be tested and reused without the broker.

Field names are Kafka's topic config names in snake_case; defaults are Kafka
4.x's (``message.timestamp.after.max.ms`` became one hour in 4.0, KIP-1030).
``producer_id_expiration_ms`` is a broker config in Kafka
(``producer.id.expiration.ms``); it lives here because the partition log is
what expires idle producers.

Compaction settings (read by the log cleaner, ``cleaner.py``):
``min.compaction.lag.ms``, ``max.compaction.lag.ms``, ``min.cleanable.dirty.ratio``,
``delete.retention.ms``; ``cleanup.policy`` holding "compact" turns cleaning on.

Not here: ``segment.jitter.ms``, ``compression.type``, ``min.insync.replicas``,
``file.delete.delay.ms`` (segments are unlinked at once, see ``region.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

LONG_MAX = (1 << 63) - 1
_BOUND_CAP = 1 << 62  # timestamp bounds of the C produce check stay inside an int64

CREATE_TIME = "CreateTime"
LOG_APPEND_TIME = "LogAppendTime"


@dataclass
class LogConfig:
    segment_bytes: int = 1073741824  # segment.bytes (1 GiB)
    segment_ms: int = 604800000  # segment.ms (7 days)
    retention_ms: int = 604800000  # retention.ms (7 days); negative = no limit
    retention_bytes: int = -1  # retention.bytes; negative = no limit
    flush_messages: int = LONG_MAX  # flush.messages; 1 = fsync every append
    flush_ms: int = LONG_MAX  # flush.ms
    index_interval_bytes: int = 4096  # index.interval.bytes
    segment_index_bytes: int = 10485760  # segment.index.bytes (10 MiB)
    max_message_bytes: int = 1048588  # max.message.bytes (a whole batch, log overhead included)
    message_timestamp_type: str = CREATE_TIME  # message.timestamp.type
    message_timestamp_before_max_ms: int = LONG_MAX  # message.timestamp.before.max.ms
    message_timestamp_after_max_ms: int = 3600000  # message.timestamp.after.max.ms (4.0+)
    cleanup_policy: tuple[str, ...] = ("delete",)  # cleanup.policy
    producer_id_expiration_ms: int = 86400000  # broker: producer.id.expiration.ms (1 day)
    min_compaction_lag_ms: int = 0  # min.compaction.lag.ms
    max_compaction_lag_ms: int = LONG_MAX  # max.compaction.lag.ms
    min_cleanable_dirty_ratio: float = 0.5  # min.cleanable.dirty.ratio
    delete_retention_ms: int = 86400000  # delete.retention.ms (1 day): tombstone lifetime

    def __post_init__(self) -> None:
        policy = self.cleanup_policy
        if isinstance(policy, str):
            policy = [p.strip() for p in policy.split(",") if p.strip()]
        self.cleanup_policy = tuple(policy)
        if self.message_timestamp_type not in (CREATE_TIME, LOG_APPEND_TIME):
            raise ValueError(f"message_timestamp_type must be CreateTime or LogAppendTime, "
                             f"not {self.message_timestamp_type!r}")
        if self.segment_bytes <= 0 or self.index_interval_bytes < 0 or self.segment_index_bytes < 12:
            raise ValueError("segment_bytes > 0, index_interval_bytes >= 0, segment_index_bytes >= 12")

    @cached_property
    def log_append_time(self) -> bool:  # read on every append: computed once (see client_batch_limits)
        return self.message_timestamp_type == LOG_APPEND_TIME

    @cached_property
    def client_batch_limits(self) -> tuple[int, int, int, bool]:
        """(before, after, max size, compacted) for ``kwire.records.scan.check_client_batch``:
        a record timestamp must lie in [now - before, now + after] (both at most 2**62, so the
        bounds fit an int64; no bound at all under LogAppendTime), a payload be at most
        max.message.bytes and segment.bytes. Computed once: nothing assigns these fields after
        construction (``update_config`` installs a new LogConfig)."""
        if self.log_append_time:
            before = after = _BOUND_CAP
        else:
            before = min(self.message_timestamp_before_max_ms, _BOUND_CAP)
            after = min(self.message_timestamp_after_max_ms, _BOUND_CAP)
        return before, after, min(self.max_message_bytes, self.segment_bytes), self.compact_enabled

    @property
    def delete_enabled(self) -> bool:
        """Whether retention.ms / retention.bytes delete segments (cleanup.policy has "delete")."""
        return "delete" in self.cleanup_policy

    @property
    def compact_enabled(self) -> bool:
        """Whether the log cleaner compacts this log (cleanup.policy has "compact")."""
        return "compact" in self.cleanup_policy

    @property
    def max_index_entries(self) -> int:
        """Entries an offset index may hold before the segment must roll (8 bytes each)."""
        return max(1, self.segment_index_bytes // 8)

    @property
    def max_time_index_entries(self) -> int:
        """Entries a time index may hold before the segment must roll (12 bytes each)."""
        return max(1, self.segment_index_bytes // 12)
