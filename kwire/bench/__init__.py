"""``kwire bench``: throughput, latency and footprint of kwire, optionally against a peer broker.

Modules: ``command`` (the command line and the A/B run order), ``brokers``
(start, probe and measure broker processes), ``tansu`` (find or fetch the
Tansu peer binary), ``revision`` (a ``kwire@<git-rev>`` peer written out with
``git archive``), ``cluster`` (``--cluster N``: ZooKeeper + N replicated
kwire brokers through ``kwire.devcluster``, compared with the single broker),
``workloads`` (produce, consume and end-to-end latency with
librdkafka through confluent-kafka), ``roundtrip`` (opt-in: closed-loop
produce -> fetch round trips with kwire's wire client, the broker's CPU per
round trip), ``stats`` (medians, ranges, pair
ratios), ``report`` (Markdown and JSON) and ``validation``
(``python -m kwire.bench.validation``: what produce-time record validation
costs per MB, C walker against pure Python).

A benchmark, not a test: nothing here asserts a speed. confluent-kafka is a
bench/test dependency, imported only when a run starts.
"""
