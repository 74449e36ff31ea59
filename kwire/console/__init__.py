"""The built-in web console: a page served by the broker process itself.

Off unless ``console.port`` or ``console.listeners`` is set (``console.read.only``
hides and refuses changes). Pages: cluster and brokers; topics with their
partitions (leader, replicas, ISR, offsets, sizes); a record browser (from an
offset, a timestamp or the newest; UTF-8, pretty JSON or hex; headers);
consumer groups with members, assignments, lag per partition and a chart of
lag over the last minutes; create/delete topic and reset offsets behind a
confirmation; live refresh every 3 s.

* ``kwire.console.server``: the HTTP layer (static files + JSON API) on threads
  of its own (``kwire.metrics.http``), never on the broker's event loop;
* ``kwire.console.backend``: what the API answers, read through the broker's
  own Kafka API with ``kwire.client.KafkaClient`` (bounded reads);
* ``kwire/console/static``: the page (plain HTML, CSS and JavaScript shipped as
  package data: no build step, nothing fetched from elsewhere).

Not done: authentication or TLS (bind it to loopback, or put it behind a proxy
that has them), partition reassignment, ACLs, producing records from the page.
"""
