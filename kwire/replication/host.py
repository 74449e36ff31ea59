"""``ReplicaHost``: what the replica manager needs of the broker that hosts it.

The ``ReplicaManager`` sits below the broker facade (``kwire.broker``): the
broker creates it and calls it, never the other way round through imports.
It is handed an object satisfying this protocol -- ``kwire.broker.Broker`` in
a running broker, a small stand-in in unit tests -- and uses nothing else of
it. Keep the protocol narrow: a new need of the replica manager is a new,
documented member here, not a reach into the broker's private state.

Not here: the broker's own logic (topic creation, the Produce and Fetch
paths); this module only declares the calls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Protocol

if TYPE_CHECKING:
    from kwire.cluster.metadata import TopicState
    from kwire.cluster.zookeeper import ZkMetadata
    from kwire.config import BrokerConfig
    from kwire.delayed import Purgatory
    from kwire.log import LogConfig, LogManager
    from kwire.protocol.errors import KafkaError
    from kwire.security.inter_broker import InterBrokerSecurity


class ReplicaHost(Protocol):
    """The broker as the replica manager sees it (its state, and seven calls)."""

    node_id: int
    config: BrokerConfig
    metadata: ZkMetadata  # the image the replicas follow; ISR writes go through it
    logs: LogManager  # this broker's partition logs (the replica manager creates and removes them)
    purgatory: Purgatory  # woken on HW moves, appends and leadership changes
    inter_broker: InterBrokerSecurity | None  # read through ``kwire.security.inter_broker.of``

    def topic_log_config(self, topic: TopicState) -> LogConfig:
        """The log settings of ``topic`` (its overrides over the broker's defaults)."""

    def topic_min_insync_replicas(self, topic: TopicState) -> int:
        """``min.insync.replicas`` of ``topic``."""

    def forget_topic_config(self, name: str) -> None:
        """Drop the cached resolved config of topic ``name`` (its overrides changed)."""

    def apply_dynamic_configs(self) -> None:
        """Take the dynamic broker configs now stored with the cluster metadata."""

    def remove_logs(self, topic: str, partitions: Iterable[int]) -> None:
        """Delete these partitions' logs here and wake their waiters."""

    def notify_leadership(self, topic: str, partition: int, is_leader: bool, epoch: int) -> None:
        """Tell the broker's leadership listeners (the coordinators) of a role change."""

    def not_leader_error(self, topic: str, partition: int) -> KafkaError:
        """The error a request for a partition this broker does not lead answers."""
