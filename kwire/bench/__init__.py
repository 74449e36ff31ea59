"""``kwire bench``: throughput, latency and footprint of kwire, optionally against a peer broker.

Modules: ``command`` (the command line and the A/B run order), ``brokers``
(start, probe and measure broker processes), ``tansu`` (find or fetch the
Tansu peer binary), ``workloads`` (produce, consume and end-to-end latency
with librdkafka through confluent-kafka), ``stats`` (medians, ranges, pair
ratios) and ``report`` (Markdown and JSON).

A benchmark, not a test: nothing here asserts a speed. confluent-kafka is a
bench/test dependency, imported only when a run starts.
"""
