"""Cluster-mode errors that code outside ZooKeeper's client must name without importing kazoo.

``kwire serve`` catches ``ZooKeeperConnectError`` around every start; defined here, a
single-broker start never imports kazoo (``kwire.cluster.zk_store`` re-exports it).
"""


class ZooKeeperConnectError(Exception):
    """ZooKeeper could not be reached within ``zookeeper.connection.timeout.ms`` (start-up)."""
