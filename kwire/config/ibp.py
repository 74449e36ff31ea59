"""``inter.broker.protocol.version``: Kafka's ZooKeeper-mode IBP, parsed, compared, and what it selects.

What it does
------------
* ``parse_ibp("2.6")`` / ``parse_ibp("2.7-IV1")`` / ``parse_ibp("0.10.2-IV0")``:
  a comparable ``(major, minor, patch, iv)``. A release without ``-IVn`` means
  its latest IV, as in Kafka's ``MetadataVersion.fromVersionString`` ("2.7" is
  2.7-IV2), so ``iv`` is then ``LATEST_IV``. ``validate_ibp`` is the config
  validator: a well-formed version between 0.8.0 and 3.9-IV0 (the last ZooKeeper
  release), else Kafka's "Invalid value" ConfigError.
* What the version selects in the replica fetcher, by Kafka's rules
  (``MetadataVersion`` of Kafka 3.x):
  ``truncation_on_fetch(ibp)`` -- IBP >= 2.7-IV1 (``isTruncationOnFetchSupported``):
  followers truncate from Fetch's diverging epoch (KIP-595/KIP-320); below it
  they validate their log with OffsetForLeaderEpoch (KIP-101/KIP-279) before
  fetching. ``fetch_version_cap(ibp)`` -- the Fetch version Kafka's fetcher
  sends below 2.7-IV1 (``fetchRequestVersion``: 11 from 2.3-IV1, ...), None
  from 2.7-IV1 (kwire then negotiates, as its fetcher always did).
  ``offset_for_leader_epoch_version_cap(ibp)`` -- ``offsetForLeaderEpochRequestVersion``.

What it does not do
-------------------
No record-format choice (kwire writes only v2 batches, whatever the IBP) and
no other IBP-gated feature (AlterPartition, topic ids, ...): kwire's ISR
changes are always the ZooKeeper writes of Kafka before AlterPartition.
Versions below what kwire's codec speaks (Fetch v4, OffsetForLeaderEpoch v2)
are raised to that minimum by the caller.
"""

from __future__ import annotations

import re

from .types import _invalid

LATEST_IV = 1 << 16  # "2.7" = the latest IV of 2.7
DEFAULT = "3.9-IV0"  # Kafka 3.9's default: the newest ZooKeeper-mode version

_IBP_RE = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?(?:-IV(\d+))?$")
_MIN = (0, 8, 0)  # releases (major, minor, patch) Kafka 3.9 knows
_MAX = (3, 9, 0)

Ibp = tuple[int, int, int, int]


def parse_ibp(text: str) -> Ibp:
    """(major, minor, patch, iv); ValueError when it is not a version string."""
    m = _IBP_RE.match(text.strip())
    if m is None:
        raise ValueError(f"{text!r} is not a version like 2.6, 2.7-IV1 or 3.9-IV0")
    major, minor, patch, iv = m.groups()
    return int(major), int(minor), int(patch or 0), LATEST_IV if iv is None else int(iv)


def validate_ibp(name: str, value: str | None) -> None:
    if value is None:
        return
    try:
        v = parse_ibp(value)
    except ValueError as e:
        raise _invalid(name, value, str(e)) from None
    if not _MIN <= v[:3] <= _MAX:
        raise _invalid(name, value, "Version must be between 0.8.0 and 3.9-IV0 (ZooKeeper mode)")


def _at_least(ibp: Ibp, text: str) -> bool:
    return ibp >= parse_ibp(text)


def truncation_on_fetch(ibp: Ibp) -> bool:
    """Kafka's ``isTruncationOnFetchSupported``: IBP >= 2.7-IV1."""
    return _at_least(ibp, "2.7-IV1")


def fetch_version_cap(ibp: Ibp) -> int | None:
    """The replica Fetch version Kafka sends below 2.7-IV1; None from 2.7-IV1 (negotiate)."""
    for version_text, fetch in (("2.7-IV1", None), ("2.3-IV1", 11), ("2.1-IV2", 10), ("2.0-IV1", 8),
                                ("1.1-IV0", 7), ("0.11.0-IV1", 5), ("0.11.0-IV0", 4)):
        if _at_least(ibp, version_text):
            return fetch
    return 3


def offset_for_leader_epoch_version_cap(ibp: Ibp) -> int:
    """Kafka's ``offsetForLeaderEpochRequestVersion`` for this IBP."""
    for version_text, v in (("2.8-IV0", 4), ("2.3-IV1", 3), ("2.1-IV1", 2), ("2.0-IV0", 1)):
        if _at_least(ibp, version_text):
            return v
    return 0
