"""``BrokerCollector``: the broker's metrics under Prometheus names, computed at scrape time.

A prometheus_client custom collector: nothing is kept up to date between
scrapes except the request counters of ``RequestMetrics``; everything else is
read from the broker's state when ``/metrics`` is asked for, in the scraping
thread (never on the event loop). The state belongs to the event-loop thread:
it is only read here, through snapshots that are atomic under the GIL
(``list(d.values())``, ``dict.copy()``) and attribute reads, so a scrape can
see a partition a moment before or after a change, never raise on a dict that
changed size. A scrape of 10,000 single-partition topics takes about 0.3 s of
this thread; the interpreter switches threads every ``sys.getswitchinterval()``
(5 ms), so the event loop is delayed by a few ms at a time, not blocked for
the scrape (``tests/integration/test_metrics.py`` measures the loop's
worst stall during such a scrape). The one network call: a group
coordinator's consumer lag for partitions another broker leads needs that
leader's high watermark, asked with ListOffsets from this same thread
(``kwire.metrics.end_offsets``: cached, bounded, backed off on failure).

Names follow the Prometheus JMX exporter's rendering of Kafka's MBeans
(``kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=t`` ->
``kafka_server_brokertopicmetrics_messagesin_total{topic="t"}``), so
dashboards written for Kafka read kwire too; consumer lag uses the names of
kafka_exporter (``kafka_consumergroup_lag``). Times are seconds, as
Prometheus wants (Kafka's ``TotalTimeMs`` becomes
``kafka_network_requestmetrics_totaltime_seconds``, a histogram).

Not exported: Kafka's per-second rates (Prometheus computes ``rate()`` from
the counters), request queue/throttle time breakdowns, and a messages-out
count (Kafka has none either: fetched regions are sent without being parsed).
"""

from __future__ import annotations

import logging
import time

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector

from kwire.clock import sleep
from kwire.metrics.end_offsets import RemoteEndOffsets
from kwire.metrics.requests import BUCKETS, RequestMetrics
from kwire.metrics.share import share_group_metrics

log = logging.getLogger("kwire.metrics")

GROUP_METADATA_TOPIC = "__consumer_offsets"

#: At most this many consumer-lag series per scrape (groups x partitions), so a broker
#: with huge numbers of groups cannot make scrapes unbounded.
MAX_LAG_SERIES = 20_000

_LE = [repr(b) for b in BUCKETS] + ["+Inf"]


def _api_names() -> dict[int, str]:
    from kwire.handlers import REGISTRY

    # Kafka's request names: produce -> Produce, list_offsets -> ListOffsets
    return {k: "".join(w.capitalize() for w in e.name.split("_")) for k, e in REGISTRY.items()}


def _snapshot(fn, tries: int = 3):
    """``fn()`` retried if the loop changed a dict under it (RuntimeError) meanwhile."""
    for i in range(tries):
        try:
            return fn()
        except RuntimeError:
            if i == tries - 1:
                raise
            sleep(0)


class BrokerCollector(Collector):
    def __init__(self, server, request_metrics: RequestMetrics) -> None:
        self.server = server
        self.broker = server.broker
        self.rm = request_metrics
        self.api_names = _api_names()
        self.remote_end_offsets = RemoteEndOffsets(self.broker)

    def close(self) -> None:
        self.remote_end_offsets.close()

    def collect(self):
        t0 = time.perf_counter()
        yield from self._requests()
        yield from self._topics()
        yield from self._partitions()
        yield from self._server()
        yield from self._groups()
        yield from share_group_metrics(self.broker, _snapshot)
        g = GaugeMetricFamily("kwire_scrape_collect_seconds",
                              "Time the previous parts of this scrape took to collect.")
        g.add_metric([], time.perf_counter() - t0)
        yield g

    # -- request path counters ---------------------------------------------------------------
    def _requests(self):
        req = CounterMetricFamily("kafka_network_requestmetrics_requests",
                                  "Requests answered, by API (Kafka RequestsPerSec).", labels=["request"])
        err = CounterMetricFamily("kafka_network_requestmetrics_errors",
                                  "Requests whose handler failed (answered with an error response or "
                                  "closed), by API.", labels=["request"])
        hist = HistogramMetricFamily("kafka_network_requestmetrics_totaltime_seconds",
                                     "Time from a request's decoding to its response being queued "
                                     "(Kafka TotalTimeMs), by API.", labels=["request"])
        for key, st in sorted(self.rm.apis.copy().items()):
            name = self.api_names.get(key, str(key))
            req.add_metric([name], st.count)
            err.add_metric([name], st.errors)
            cum, acc = [], 0
            for le, n in zip(_LE, list(st.buckets)):
                acc += n
                cum.append((le, acc))
            hist.add_metric([name], cum, st.sum)
        yield req
        yield err
        yield hist

    def _topics(self):
        names = ("messagesin", "Records appended, by topic (Kafka MessagesInPerSec).", "messages_in"), \
                ("bytesin", "Record batch bytes appended, by topic (Kafka BytesInPerSec).", "bytes_in"), \
                ("bytesout", "Record bytes sent to consumers, by topic (Kafka BytesOutPerSec).", "bytes_out"), \
                ("replicationbytesout", "Record bytes sent to followers, by topic "
                 "(Kafka ReplicationBytesOutPerSec).", "replication_bytes_out"), \
                ("failedproducerequests", "Produce partitions answered with an error, by topic "
                 "(Kafka FailedProduceRequestsPerSec).", "failed_produce")
        fams = [(CounterMetricFamily(f"kafka_server_brokertopicmetrics_{n}", doc, labels=["topic"]), attr)
                for n, doc, attr in names]
        totals = [0] * len(fams)
        known = self.broker.metadata.topics
        for topic, ts in sorted(self.rm.topics.copy().items()):
            if topic not in known:
                self.rm.forget_topic(topic)  # deleted: its series go, as Kafka removes its meters
                continue
            for i, (fam, attr) in enumerate(fams):
                v = getattr(ts, attr)
                totals[i] += v
                fam.add_metric([topic], v)
        for i, (fam, _attr) in enumerate(fams):
            all_ = CounterMetricFamily(fam.name + "_all", fam.documentation + " All topics.")
            all_.add_metric([], totals[i])
            yield fam
            yield all_

    # -- logs and partition state -------------------------------------------------------------
    def _partitions(self):
        broker = self.broker
        size = GaugeMetricFamily("kafka_log_log_size", "Bytes of the partition's log on this broker.",
                                 labels=["topic", "partition"])
        leo = GaugeMetricFamily("kafka_log_log_logendoffset", "Log end offset of the partition.",
                                labels=["topic", "partition"])
        lso = GaugeMetricFamily("kafka_log_log_logstartoffset", "Log start offset of the partition.",
                                labels=["topic", "partition"])
        hw = GaugeMetricFamily("kafka_cluster_partition_highwatermark",
                               "High watermark of the partition (kwire; Kafka has it per Partition).",
                               labels=["topic", "partition"])
        segs = GaugeMetricFamily("kafka_log_log_numlogsegments", "Segments of the partition's log.",
                                 labels=["topic", "partition"])
        offline_dirs = GaugeMetricFamily("kafka_log_logmanager_offlinelogdirectorycount",
                                         "Log dirs that failed (Kafka OfflineLogDirectoryCount).")
        offline_dirs.add_metric([], len(broker.logs.offline_dirs))
        ratio = GaugeMetricFamily("kwire_log_cleanable_ratio",
                                  "Compacted logs: dirty bytes / cleanable bytes (kwire; the cleaner "
                                  "cleans a log once it reaches min.cleanable.dirty.ratio).",
                                  labels=["topic", "partition"])
        max_dirty = GaugeMetricFamily("kafka_log_logcleanermanager_max_dirty_percent",
                                      "Largest cleanable ratio of the compacted logs, in percent "
                                      "(Kafka's LogCleanerManager max-dirty-percent).")
        cleaner = getattr(broker.logs, "cleaner", None)
        worst = 0.0
        logs = list(broker.logs)
        total = 0
        for i, plog in enumerate(logs):
            if i & 255 == 255:
                sleep(0)  # hand the GIL over: the event loop runs between chunks
            if plog.offline or plog.closed:
                continue
            labels = [plog.topic, str(plog.partition)]
            try:
                segments = plog._segments
                nbytes = sum(s.size for s in list(segments))
                size.add_metric(labels, nbytes)
                total += nbytes
                leo.add_metric(labels, plog.log_end_offset)
                lso.add_metric(labels, plog.log_start_offset)
                hw.add_metric(labels, plog.high_watermark)
                segs.add_metric(labels, len(segments))
                if cleaner is not None and plog.config.compact_enabled:
                    r = cleaner.cleanable(plog).ratio
                    ratio.add_metric(labels, r)
                    worst = max(worst, r)
            except (IndexError, AttributeError, OSError):
                continue  # closed or truncated under us: next scrape
        tot = GaugeMetricFamily("kwire_log_size_bytes", "Bytes of all partition logs on this broker.")
        tot.add_metric([], total)
        max_dirty.add_metric([], round(worst * 100))
        yield from (size, leo, lso, hw, segs, tot, offline_dirs, ratio, max_dirty)
        yield from self._replication(len(logs))

    def _replication(self, nlogs: int):
        broker = self.broker
        md = broker.metadata
        node = broker.node_id
        live = {b.node_id for b in md.brokers}
        topics = _snapshot(lambda: list(md.topics.values()))
        leaders = under = under_min = offline = at_min = 0
        for i, t in enumerate(topics):
            if i & 511 == 511:
                sleep(0)
            min_isr = None
            for p in list(t.partitions):
                if p.leader < 0 or p.leader not in live:
                    offline += 1
                    continue
                if p.leader != node:
                    continue
                leaders += 1
                nisr = len(p.isr)
                if nisr < len(p.replicas):
                    under += 1
                if broker.cluster_mode:
                    if min_isr is None:
                        try:
                            min_isr = broker.topic_min_insync_replicas(t)
                        except Exception:
                            min_isr = 1
                    if nisr < min_isr:
                        under_min += 1
                    elif nisr == min_isr:
                        at_min += 1
        fams = [
            ("kafka_server_replicamanager_partitioncount", "Partitions with a replica (log) on this broker.", nlogs),
            ("kafka_server_replicamanager_leadercount", "Partitions this broker leads.", leaders),
            ("kafka_server_replicamanager_underreplicatedpartitions",
             "Partitions led here whose ISR is smaller than their replica set.", under),
            ("kafka_server_replicamanager_underminisrpartitioncount",
             "Partitions led here with fewer in-sync replicas than min.insync.replicas.", under_min),
            ("kafka_server_replicamanager_atminisrpartitioncount",
             "Partitions led here with exactly min.insync.replicas in-sync replicas.", at_min),
            ("kafka_controller_kafkacontroller_offlinepartitionscount",
             "Partitions without a live leader, in this broker's view of the cluster (Kafka reports "
             "it on the active controller only).", offline),
            ("kafka_controller_kafkacontroller_activecontrollercount",
             "1 on the broker that is the active controller.", int(md.controller_id == node)),
            ("kafka_server_kafkaserver_brokers", "Live brokers in the cluster.", len(live)),
        ]
        for name, doc, v in fams:
            g = GaugeMetricFamily(name, doc)
            g.add_metric([], v)
            yield g
        rm = broker.replicas
        for name, attr, doc in (("isrshrinks", "isr_shrinks", "ISR shrinks proposed by this broker as leader."),
                                ("isrexpands", "isr_expands", "ISR expansions proposed by this broker as leader.")):
            c = CounterMetricFamily(f"kafka_server_replicamanager_{name}", doc + " (Kafka IsrShrinksPerSec/"
                                    "IsrExpandsPerSec.)")
            c.add_metric([], getattr(rm, attr, 0) if rm is not None else 0)
            yield c

    # -- sockets, purgatory ---------------------------------------------------------------------
    def _server(self):
        server = self.server
        conns = GaugeMetricFamily("kafka_server_socketservermetrics_connection_count",
                                  "Open client connections (all listeners).")
        conns.add_metric([], len(server.connections))
        yield conns
        pool = GaugeMetricFamily("kafka_network_requestchannel_memorypoolused_bytes",
                                 "Bytes of the request memory pool in use (queued.max.request.bytes).")
        pool.add_metric([], server.pool.used)
        yield pool
        purg = GaugeMetricFamily("kafka_server_delayedoperationpurgatory_purgatorysize",
                                 "Requests waiting in purgatory: Fetch (long-poll fetches, consumers and "
                                 "followers), Produce (acks=all waiting for the ISR), Rebalance (group "
                                 "coordinator responses: JoinGroup/SyncGroup, commits waiting to "
                                 "replicate).", labels=["delayedOperation"])
        # the kind each waiter registered with (kwire.delayed)
        for kind, n in self.broker.purgatory.sizes().items():
            purg.add_metric([kind], n)
        yield purg
        from kwire.records.scan import IMPLEMENTATION

        walker = GaugeMetricFamily("kwire_record_walker_info",
                                   "Which record walker validates produced records: 'c' (the compiled "
                                   "kwire.records._scan) or 'python' (the pure-Python fallback, many "
                                   "times slower).", labels=["implementation"])
        walker.add_metric([IMPLEMENTATION], 1)
        yield walker

    # -- groups ----------------------------------------------------------------------------------
    def _groups(self):  # share groups: kwire.metrics.share
        broker = self.broker
        coord = broker.group_coordinator
        ngroups = GaugeMetricFamily("kafka_coordinator_group_groupmetadatamanager_numgroups",
                                    "Groups this broker coordinates.")
        states = GaugeMetricFamily("kafka_coordinator_group_groupmetadatamanager_numgroups_state",
                                   "Groups this broker coordinates, by state.", labels=["state"])
        members = GaugeMetricFamily("kafka_consumergroup_members", "Members of the group.",
                                    labels=["consumergroup"])
        current = GaugeMetricFamily("kafka_consumergroup_current_offset",
                                    "Committed offset of the group in the partition.",
                                    labels=["consumergroup", "topic", "partition"])
        lag = GaugeMetricFamily("kafka_consumergroup_lag",
                                "High watermark minus the committed offset (kafka_exporter's name). The "
                                "high watermark of a partition led by another broker is asked of its "
                                "leader (ListOffsets, cached for a few seconds).",
                                labels=["consumergroup", "topic", "partition"])
        lag_sum = GaugeMetricFamily("kafka_consumergroup_lag_sum", "Sum of the group's lag.",
                                    labels=["consumergroup"])
        shards = _snapshot(lambda: list(coord.shards.values()))
        total = 0
        by_state: dict[str, int] = {}
        committed: list[tuple[str, str, int, int]] = []  # (group, topic, partition, offset)
        for shard in shards:
            groups = _snapshot(lambda: list(shard.groups.items()))
            total += len(groups)
            for gid, group in groups:
                state = str(getattr(group, "state", "Unknown"))
                by_state[state] = by_state.get(state, 0) + 1
                gm = getattr(group, "members", None)
                members.add_metric([gid], len(gm) if gm is not None else 0)
            for gid, by_topic in _snapshot(lambda: list(shard.offsets.offsets.items())):
                for topic, parts in _snapshot(lambda: list(by_topic.items())):
                    for p, value in _snapshot(lambda: list(parts.items())):
                        if len(committed) < MAX_LAG_SERIES:
                            committed.append((gid, topic, p, value.offset))
        # High watermarks: this broker's log where it leads the partition (or is the only
        # broker); the leader's answer otherwise, asked here in the scrape thread.
        hws: dict[tuple[str, int], int] = {}
        remote: set[tuple[str, int]] = set()
        logs = broker.logs
        for i, (_gid, topic, p, _off) in enumerate(committed):
            if i & 255 == 255:
                sleep(0)
            tp = (topic, p)
            if tp in hws or tp in remote:
                continue
            if broker.replicas is None or broker.is_leader(topic, p):
                plog = logs.get(topic, p)
                if plog is not None:
                    hws[tp] = plog.high_watermark
            else:
                remote.add(tp)
        if remote:
            hws.update(self.remote_end_offsets.high_watermarks(sorted(remote)))
        sums: dict[str, int] = {}
        for gid, topic, p, offset in committed:
            labels = [gid, topic, str(p)]
            current.add_metric(labels, offset)
            hw = hws.get((topic, p))
            sums.setdefault(gid, 0)
            if hw is None:
                continue  # leader unknown or unreachable: no lag series rather than a wrong one
            lg = max(hw - offset, 0)
            sums[gid] += lg
            lag.add_metric(labels, lg)
        for gid, glag in sums.items():
            lag_sum.add_metric([gid], glag)
        ngroups.add_metric([], total)
        for s, n in sorted(by_state.items()):
            states.add_metric([s], n)
        yield from (ngroups, states, members, current, lag, lag_sum)
