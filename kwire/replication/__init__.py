"""Replication: leader-side replica state and the follower's fetch decisions.

``leader_state`` tracks, for a partition this broker leads, where each
follower is, the high watermark and the ISR changes to propose;
``follower`` decides, for a partition this broker follows, what to do with
each Fetch response (append, truncate on a diverging epoch, restart after
OFFSET_OUT_OF_RANGE, back off). Both are sans-I/O state machines: the server
sends the requests, ZooKeeper writes go through ``kwire.cluster``. The broker
package keeps the partition registry.

``manager`` (``ReplicaManager``, cluster mode) ties them to the image: the
replica logs and each partition's role (a ``LeaderState``, or handed to the
follower fetchers of ``fetcher``), the HW moves and ISR writes, acks=all
waits. It is given the broker as a ``host.ReplicaHost`` (the few calls it
needs) and never imports ``kwire.broker``, which sits above it.
"""
