"""The embedded consumer protocol (protocol type "consumer"): subscriptions and assignments.

Classic consumers put a ``ConsumerProtocolSubscription`` in their JoinGroup
metadata and the leader returns ``ConsumerProtocolAssignment`` bytes in
SyncGroup; both start with an int16 version. The coordinator only needs the
subscribed topic names (for OffsetDelete's GROUP_SUBSCRIBED_TO_TOPIC and for
offset expiry), which every version carries first, so subscriptions are read
with the v0 layout after the version, as Kafka does. The assignment helpers
serve tests and tools.
"""

from __future__ import annotations

import struct

from kwire.protocol.generated import consumer_protocol_assignment as _asg
from kwire.protocol.generated import consumer_protocol_subscription as _sub
from kwire.protocol.primitives import ProtocolError

_H = struct.Struct(">h")


def subscription_topics(metadata: bytes) -> list[str]:
    """Topic names of a consumer subscription; ValueError if it is not one."""
    if len(metadata) < 2:
        raise ValueError("consumer subscription shorter than its version")
    try:
        sub, _ = _sub.DECODERS[0](memoryview(bytes(metadata)), 2)
    except (ProtocolError, IndexError, struct.error) as e:
        raise ValueError(f"not a consumer subscription: {e}") from None
    return list(sub.topics)


def encode_subscription(topics: list[str], version: int = 0, user_data: bytes | None = None) -> bytes:
    out = bytearray(_H.pack(version))
    parts: list = []
    _sub.ENCODERS[version](_sub.ConsumerProtocolSubscription(topics=list(topics), user_data=user_data),
                           out, parts)
    return bytes(out)


def encode_assignment(partitions: dict[str, list[int]], version: int = 0) -> bytes:
    out = bytearray(_H.pack(version))
    tps = [_asg.TopicPartition(topic=t, partitions=sorted(ps)) for t, ps in sorted(partitions.items())]
    _asg.ENCODERS[version](_asg.ConsumerProtocolAssignment(assigned_partitions=tps), out, [])
    return bytes(out)
