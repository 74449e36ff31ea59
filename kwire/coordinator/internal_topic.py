"""Creating a coordinator's internal topic on first use, as Kafka's KafkaApis.createInternalTopic.

``__consumer_offsets`` (group coordinator), ``__transaction_state`` (transaction
coordinator) and ``__share_group_state`` (share coordinator) come into being when
a client first needs their coordinator. Their broker configs share one naming
scheme under a prefix (``offsets.topic``, ``transaction.state.log``,
``share.coordinator.state.topic``): ``<prefix>.num.partitions``,
``<prefix>.replication.factor``, ``<prefix>.segment.bytes`` (through
``internal_segment_config``) and, for the two that have one, ``<prefix>.min.isr``,
which becomes the topic's ``min.insync.replicas`` in a cluster.

``InternalTopic(broker, name, prefix, what, configs, min_isr=..., error=...).ensure()``:

* the topic is in the metadata: True;
* one node: created at once (its logs and metadata record), True;
* a cluster: refused with COORDINATOR_NOT_AVAILABLE while fewer brokers are alive
  than the replication factor (Kafka's message, naming the config); else its
  creation is written to ZooKeeper and ``ensure`` answers False until the topic
  shows up in the image, without writing it again while that write is in flight.

Any other failure to create it is COORDINATOR_NOT_AVAILABLE, raised as ``error``
(``KafkaError`` or the coordinators' ``CoordinatorError``); TOPIC_ALREADY_EXISTS is
no failure. Not here: what a coordinator answers while the topic is not there yet
(its caller decides), and loading the topic's partitions (``kwire.coordinator.replay``).
"""

from __future__ import annotations

import logging

from kwire.coordinator.base import internal_segment_config
from kwire.protocol.errors import ErrorCode as E, KafkaError

log = logging.getLogger("kwire.coordinator")


class InternalTopic:
    def __init__(self, broker, name: str, prefix: str, what: str, configs: dict[str, str], *,
                 min_isr: bool, error=KafkaError) -> None:
        self.broker = broker
        self.name = name
        self.prefix = prefix
        self.what = what  # "offsets", as in Kafka's message: "... for the offsets topic"
        self.configs = configs
        self.min_isr = min_isr
        self.error = error
        self._creating = None  # cluster mode: the future of the creation's ZooKeeper write

    def ensure(self) -> bool:
        """True when the topic exists; False while its creation is in flight (cluster mode)."""
        broker = self.broker
        if broker.metadata.topic(self.name) is not None:
            return True
        cfg = broker.config
        partitions = cfg[f"{self.prefix}.num.partitions"]
        configs = {**self.configs, **internal_segment_config(cfg[f"{self.prefix}.segment.bytes"])}
        cluster = bool(getattr(broker, "cluster_mode", False))
        rf = None
        if cluster:
            creating = self._creating
            if creating is not None and not (creating.done() if hasattr(creating, "done") else True):
                return False  # written soon; the watch brings it into the image
            rf = cfg[f"{self.prefix}.replication.factor"]
            alive = len(broker.metadata.brokers)
            if alive < rf:
                raise self.error(
                    E.COORDINATOR_NOT_AVAILABLE,
                    f"Number of alive brokers '{alive}' does not meet the required replication factor "
                    f"'{rf}' for the {self.what} topic (configured via '{self.prefix}.replication.factor'). "
                    "This error can be ignored if the cluster is starting up and not all brokers are up yet.")
            if self.min_isr:
                configs["min.insync.replicas"] = str(cfg[f"{self.prefix}.min.isr"])
        try:
            if not cluster:
                broker.create_topic(self.name, partitions, configs)
                log.info("created %s with %d partitions", self.name, partitions)
                return True
            self._creating = broker.create_topic(self.name, partitions, configs, replication_factor=rf)
        except KafkaError as e:
            if e.code == E.TOPIC_ALREADY_EXISTS:
                return True
            raise self.error(E.COORDINATOR_NOT_AVAILABLE, str(e)) from None
        log.info("creating %s with %d partitions, replication factor %d", self.name, partitions, rf)
        return False
