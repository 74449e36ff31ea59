"""Share groups (KIP-932, "Queues for Kafka"): the broker side of share partitions.

Layout (``partition`` and ``sessions`` are pure; only ``manager`` touches the
event loop, for its lock timer, and the broker's logs, through the broker):

* ``partition`` — one share partition's in-flight records, states, locks,
                  delivery counts (sans-I/O)
* ``sessions``  — share sessions of ShareFetch / ShareAcknowledge (epochs)
* ``manager``   — the share partitions this broker leads: creation with
                  ``share.auto.offset.reset``, log reads, acquisition,
                  acknowledgement, lock expiry, waking long polls
* ``state``     — the share coordinator's store in ``__share_group_state``
                  (in a cluster: of the state partitions this broker leads)
* ``persister`` — cluster mode: a share partition's state read from and
                  written to its share coordinator, here or on another broker

Membership and assignment live in the group coordinator
(``kwire.coordinator.share_ops``); handlers: ``share_group_heartbeat``,
``share_group_describe``, ``share_fetch``, ``share_acknowledge``.
"""
