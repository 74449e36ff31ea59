"""Prometheus metrics of a broker: what is counted on the request path, what is read at scrape.

* ``kwire.metrics.requests``: ``RequestMetrics``, plain counters the connection
  bumps on the event loop (per-API request counts and latency histograms,
  per-topic messages and bytes in, bytes out). No locks, no prometheus_client
  objects on the request path.
* ``kwire.metrics.collector``: ``BrokerCollector``, a prometheus_client custom
  collector that turns those counters and the broker's live state (logs,
  metadata image, purgatory, connections, group coordinator, replica manager)
  into metric families at scrape time, in the scraping thread.
* ``kwire.metrics.server``: ``MetricsServer``, the HTTP endpoint (``/metrics``,
  ``/health``; anything else is 404) on its own thread.

Off unless ``metrics.port`` or ``metrics.listeners`` is set; then
``KafkaServer`` makes a ``RequestMetrics`` and starts the endpoint.
"""

from kwire.metrics.requests import RequestMetrics

__all__ = ["RequestMetrics"]
