"""Prometheus metrics of share groups (KIP-932), collected from ``broker.share_partitions``.

* ``kafka_server_share_group_metrics_record_acknowledgement_total{ack_type}``: records
  acknowledged since start, by type (Accept, Release, Reject, Gap, Renew) — Kafka's
  ``share-group-metrics`` ``record-acknowledgement`` rate, as a counter;
* per share partition (group, topic, partition): ``kafka_sharegroup_start_offset``
  (the share-partition start offset), ``kafka_sharegroup_in_flight_records``
  (records between start and end offset not yet acknowledged or archived),
  ``kafka_sharegroup_acquired_records`` (of those, held under a lock now) and
  ``kafka_sharegroup_lag`` (records below the high watermark not yet done);
* ``kafka_sharegroup_share_sessions``: open share sessions on this broker.

Read from the scrape thread without locks, through the collector's
``_snapshot`` copies (a dict changed by the event loop meanwhile is copied
again). At most ``MAX_SERIES`` share partitions.
"""

from __future__ import annotations

import uuid

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

from kwire.share.partition import ACQUIRED, ACKNOWLEDGED, ARCHIVED

ACK_NAMES = {0: "Gap", 1: "Accept", 2: "Release", 3: "Reject", 4: "Renew"}
MAX_SERIES = 10000


def share_group_metrics(broker, _copy):
    """The metric families; ``_copy(fn)``: the collector's retrying snapshot of a live dict."""
    manager = getattr(broker, "share_partitions", None)
    if manager is None:
        return
    acks = CounterMetricFamily("kafka_server_share_group_metrics_record_acknowledgement",
                               "Records acknowledged by share-group members, by acknowledge type.",
                               labels=["ack_type"])
    for kind, n in sorted(_copy(lambda: dict(manager.acknowledged)).items()):
        acks.add_metric([ACK_NAMES.get(kind, str(kind))], n)
    yield acks
    labels = ["sharegroup", "topic", "partition"]
    start = GaugeMetricFamily("kafka_sharegroup_start_offset", "Share-partition start offset.", labels=labels)
    in_flight = GaugeMetricFamily("kafka_sharegroup_in_flight_records",
                                  "Records in the share partition's window not yet acknowledged or archived.",
                                  labels=labels)
    acquired = GaugeMetricFamily("kafka_sharegroup_acquired_records",
                                 "Records held under an acquisition lock.", labels=labels)
    lag = GaugeMetricFamily("kafka_sharegroup_lag", "Records below the high watermark not yet delivered to "
                                                    "completion.", labels=labels)
    for (gid, tid, p), sp in _copy(lambda: list(manager.partitions.items()))[:MAX_SERIES]:
        t = broker.metadata.topic_by_id(uuid.UUID(bytes=tid))
        if t is None:
            continue
        counts = _copy(sp.counts)
        row = [gid, t.name, str(p)]
        start.add_metric(row, sp.start_offset)
        in_flight.add_metric(row, sum(counts.values()) - counts[ACKNOWLEDGED] - counts[ARCHIVED])
        acquired.add_metric(row, counts[ACQUIRED])
        n = manager.lag(gid, tid, p, sp.start_offset)
        if n >= 0:
            lag.add_metric(row, n)
    yield from (start, in_flight, acquired, lag)
    sessions = GaugeMetricFamily("kafka_sharegroup_share_sessions", "Open share sessions on this broker.")
    sessions.add_metric([], len(manager.sessions.sessions))
    yield sessions
