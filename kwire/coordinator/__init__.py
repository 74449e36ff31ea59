"""The group coordinator: consumer groups and committed offsets, as replayed state machines.

Layout (pure modules never import asyncio):

* ``records``           — versioned key/value records of ``__consumer_offsets``
* ``base``              — Result, Pending, Timer, Kafka's group partitioning
* ``classic``           — classic group model (states, members, protocol vote)
* ``classic_ops``       — JoinGroup / SyncGroup / Heartbeat / LeaveGroup, timers
* ``offsets``           — OffsetCommit / OffsetFetch / OffsetDelete, expiry
* ``consumer``          — KIP-848 consumer group model (epochs, assignments)
* ``consumer_ops``      — ConsumerGroupHeartbeat / ConsumerGroupDescribe
* ``assignors``         — server-side ``uniform`` and ``range`` assignors
* ``consumer_protocol`` — the embedded consumer protocol's subscription/assignment
* ``shard``             — one ``__consumer_offsets`` partition's groups and offsets
* ``runtime``           — asyncio: topic creation, appends (acks=all in a cluster),
                          loading and unloading with partition leadership, timers

Invariant: a shard's durable state changes only by replaying records, after
they were appended, and loading after a restart is the same replay. Soft
state (rebalances in progress, waiting responses, deadlines) stays in memory,
as in Kafka.
"""
