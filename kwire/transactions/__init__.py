"""Transactions and exactly-once (issue 13): the transaction coordinator and its helpers.

* ``state.py``        sans-I/O state machine per ``__transaction_state`` partition
                      (Kafka's states, transitions and error codes; replay)
* ``records.py``      TransactionLogKey / TransactionLogValue (Kafka's formats)
* ``coordinator.py``  the event-loop runtime: topic creation, load/unload on
                      leadership, appends + replication waits, markers, timers
* ``markers.py``      WriteTxnMarkers to partition leaders on other brokers
* ``verification.py`` KIP-890 part 1: produce-time verification against a
                      coordinator on another broker (AddPartitionsToTxn verify_only)

The partition side (open transactions, LSO, markers, ``.txnindex``) is in
``kwire.log`` (``producer_state.py``, ``txn_index.py``, ``partition_log.py``);
transactional offsets in ``kwire.coordinator`` (``offsets.py``, ``runtime.py``).

Transaction version 1 only: kwire does not finalize the ``transaction.version``
feature, so clients (the Java client 4.x included) use AddPartitionsToTxn and
AddOffsetsToTxn and one producer epoch across transactions, as against Kafka
3.x in ZooKeeper mode. Not here: KIP-890 part 2 (implicit partition add on
produce, epoch bump per transaction), two-phase commit (KIP-939).
"""
