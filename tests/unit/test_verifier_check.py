"""The failover verifier's checker (``tests/verifier.py``), on ledgers and reads made up here.

What it decides matters: a copy of an acknowledged value written again under the same
producer id and epoch is a retry the broker missed (``duplicated``, a failure); under a
higher epoch of the same producer id it is the client's own re-send (``resent``, reported),
which no broker, Kafka's included, can tell from a new record."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import verifier as V  # noqa: E402

ACKS = [V.Ack(0, 0, b"ck.0.1", 1.0), V.Ack(0, 2, b"ck.0.2", 2.0)]
READ = {0: [(0, b"ck.0.1"), (1, b"ck.0.2"), (2, b"ck.0.2")]}  # ck.0.2 at 1 and (acknowledged) at 2
SENT = {b"ck.0.1", b"ck.0.2"}


def test_without_batch_ids_a_second_copy_is_a_duplicate():
    r = V.check(ACKS, READ, SENT)
    assert (r.read, r.duplicated, r.resent, r.misplaced, r.lost) == (2, 1, 0, 1, 0)


def test_a_copy_under_the_same_producer_epoch_is_a_duplicate():
    ids = {0: (7, 0, 0), 1: (7, 0, 1), 2: (7, 0, 1)}  # the retry of sequence 1, stored twice
    r = V.check(ACKS, READ, SENT, lambda p, o: ids[o])
    assert (r.duplicated, r.resent, r.misplaced) == (1, 0, 1)
    assert "(7, 0, 1)" in r.examples[0]


def test_a_copy_under_a_higher_epoch_of_the_same_producer_is_a_resend():
    ids = {0: (7, 0, 0), 1: (7, 0, 1), 2: (7, 1, 0)}  # re-numbered after an epoch bump
    r = V.check(ACKS, READ, SENT, lambda p, o: ids[o])
    assert (r.duplicated, r.resent, r.misplaced, r.lost) == (0, 1, 0, 0)
    assert r.examples[0].startswith("resent under a new producer epoch: p0 b'ck.0.2' at offsets [1, 2]")


def test_other_producers_or_falling_epochs_or_unknown_batches_stay_duplicates():
    for ids in ({0: (7, 0, 0), 1: (7, 0, 1), 2: (8, 0, 0)},   # another producer id
                {0: (7, 1, 0), 1: (7, 1, 1), 2: (7, 0, 5)},   # a lower epoch later
                {0: (7, 0, 0), 1: (7, 0, 1)}):                # offset 2 not found in any file
        r = V.check(ACKS, READ, SENT, lambda p, o, ids=ids: ids.get(o))
        assert (r.duplicated, r.resent) == (1, 0), ids


def test_a_resend_acknowledged_at_neither_copy_is_still_misplaced():
    ids = {0: (7, 0, 0), 1: (7, 0, 1), 2: (7, 1, 0)}
    acks = [ACKS[0], V.Ack(0, 5, b"ck.0.2", 2.0)]
    r = V.check(acks, READ, SENT, lambda p, o: ids[o])
    assert (r.resent, r.misplaced) == (1, 1)
