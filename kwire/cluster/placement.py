"""Replica placement: Kafka's ``AdminUtils.assignReplicasToBrokers``, as a pure function.

Rack-unaware (no broker has a rack): partition p's first replica is broker
``(p + start_index) % n`` of the id-sorted broker list, and its other replicas
follow at a distance ``1 + (shift + j) % (n - 1)``, where ``shift`` starts at
a random value and grows by one each time p wraps around the brokers. Leaders
(first replicas) are thus spread evenly, and the followers of one broker's
partitions are spread over the others rather than all on its neighbour.

Rack-aware (every broker has a rack): the same walk over a broker list that
alternates racks (``rack_alternated_brokers``), skipping a broker whose rack
already holds a replica while some rack holds none, and a broker that already
holds one while some broker holds none, so each partition spans
``min(rf, racks)`` racks.

Mixed (some brokers with a rack, some without) is refused, as Kafka does
without ``--disable-rack-aware``. Too few brokers for the replication factor
is INVALID_REPLICATION_FACTOR; fewer than one partition INVALID_PARTITIONS.
Randomness comes from ``rng`` (``random.Random``-like) so tests can fix it, or
from ``fixed_start_index`` exactly as in Kafka's tests.

Not here: which brokers are live (the caller passes them), explicit
assignments (validated by ``LocalMetadata.validate_replica_assignment``).
"""

from __future__ import annotations

import random
from typing import Iterable

from kwire.protocol.errors import ErrorCode, KafkaError


def _replica_index(first: int, second_shift: int, j: int, n: int) -> int:
    shift = 1 + (second_shift + j) % (n - 1)
    return (first + shift) % n


def rack_alternated_brokers(racks: dict[int, str]) -> list[int]:
    """Brokers ordered rack by rack in turn (racks sorted, brokers by id within a rack).

    Kafka's example: {0: rack1, 1: rack3, 2: rack3, 3: rack2, 4: rack2, 5: rack1}
    gives [0, 3, 1, 5, 4, 2].
    """
    by_rack: dict[str, list[int]] = {}
    for b, r in racks.items():
        by_rack.setdefault(r, []).append(b)
    iters = {r: iter(sorted(bs)) for r, bs in by_rack.items()}
    order = sorted(by_rack)
    result: list[int] = []
    i = 0
    while len(result) < len(racks):
        b = next(iters[order[i]], None)
        if b is not None:
            result.append(b)
        i = (i + 1) % len(order)
    return result


def assign_replicas(brokers: Iterable[tuple[int, str | None]], num_partitions: int, replication_factor: int,
                    *, fixed_start_index: int = -1, start_partition_id: int = -1,
                    rng: random.Random | None = None) -> dict[int, list[int]]:
    """Replica lists by partition id for ``num_partitions`` partitions.

    ``brokers``: (broker id, rack or None) of the live brokers. New partitions
    of an existing topic pass ``start_partition_id`` (their first id) and, as
    Kafka's AddPartitions does, the first replica of the existing partition 0
    as ``fixed_start_index``'s broker position.
    """
    brokers = sorted(brokers)
    if num_partitions <= 0:
        raise KafkaError(ErrorCode.INVALID_PARTITIONS, "Number of partitions must be larger than 0.")
    if replication_factor <= 0:
        raise KafkaError(ErrorCode.INVALID_REPLICATION_FACTOR, "Replication factor must be larger than 0.")
    if replication_factor > len(brokers):
        raise KafkaError(ErrorCode.INVALID_REPLICATION_FACTOR,
                         f"Replication factor: {replication_factor} larger than available brokers: {len(brokers)}.")
    rng = rng or random.Random()
    if all(r is None for _, r in brokers):
        return _rack_unaware([b for b, _ in brokers], num_partitions, replication_factor,
                             fixed_start_index, start_partition_id, rng)
    if any(r is None for _, r in brokers):
        # Kafka's AdminOperationException, which its CreateTopics answers as UNKNOWN_SERVER_ERROR
        raise KafkaError(ErrorCode.UNKNOWN_SERVER_ERROR,
                         "Not all brokers have rack information for replica rack aware assignment.")
    return _rack_aware(dict(brokers), num_partitions, replication_factor, fixed_start_index,
                       start_partition_id, rng)


def _walk(n: int, num_partitions: int, fixed_start_index: int, start_partition_id: int,
          rng: random.Random) -> list[tuple[int, int, int]]:
    """(partition id, position of its first replica, shift) for each new partition over ``n``
    brokers: the walk both of Kafka's assignments share (the start index and the first shift
    random unless fixed; the shift grows by one each time the partition id wraps round)."""
    start_index = fixed_start_index if fixed_start_index >= 0 else rng.randrange(n)
    shift = fixed_start_index if fixed_start_index >= 0 else rng.randrange(n)
    out = []
    first_id = max(0, start_partition_id)
    for p in range(first_id, first_id + num_partitions):
        if p > 0 and p % n == 0:
            shift += 1
        out.append((p, (p + start_index) % n, shift))
    return out


def _rack_unaware(ids: list[int], num_partitions: int, rf: int, fixed_start_index: int,
                  start_partition_id: int, rng: random.Random) -> dict[int, list[int]]:
    n = len(ids)
    return {p: [ids[first]] + [ids[_replica_index(first, shift, j, n)] for j in range(rf - 1)]
            for p, first, shift in _walk(n, num_partitions, fixed_start_index, start_partition_id, rng)}


def _rack_aware(racks: dict[int, str], num_partitions: int, rf: int, fixed_start_index: int,
                start_partition_id: int, rng: random.Random) -> dict[int, list[int]]:
    num_racks = len(set(racks.values()))
    arranged = rack_alternated_brokers(racks)
    n = len(arranged)
    out: dict[int, list[int]] = {}
    for p, first, shift in _walk(n, num_partitions, fixed_start_index, start_partition_id, rng):
        leader = arranged[first]
        replicas = [leader]
        racks_used = {racks[leader]}
        brokers_used = {leader}
        k = 0
        for _ in range(rf - 1):
            while True:
                b = arranged[_replica_index(first, shift * num_racks, k, n)]
                k += 1
                rack = racks[b]
                if ((rack not in racks_used or len(racks_used) == num_racks)
                        and (b not in brokers_used or len(brokers_used) == n)):
                    replicas.append(b)
                    racks_used.add(rack)
                    brokers_used.add(b)
                    break
        out[p] = replicas
    return out
