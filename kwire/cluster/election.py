"""Leader election rules of Kafka's ZooKeeper-mode controller, as pure functions.

Each function takes a partition's state (``LeaderAndIsr``), its assignment
(replicas in assignment order), the live brokers (registered and not shutting
down, Kafka's ``liveBrokerIds``) and answers the new ``(leader, isr)``, None
when nothing changes, or raises ``KafkaError`` with Kafka's error for an
election that was asked for and cannot happen. The caller writes the result
(bumping ``leader_epoch``, conditional on the state znode's version and fenced
by the controller epoch). The strategies are those of Kafka's
``PartitionLeaderElectionAlgorithms``:

* ``offline_election`` (OfflinePartitionLeaderElectionStrategy): the leader is
  gone: the first replica in assignment order that is live and in the ISR; with
  none, and ``unclean.leader.election.enable``, the first live replica (ISR =
  just it; data the old ISR had may be lost); otherwise leader -1 with the ISR
  kept, so only an ISR member can lead again. A live leader keeps leading and
  dead (or shutting-down) followers leave the ISR. An ISR is never emptied.
* ``shutdown_election`` (ControlledShutdownPartitionLeaderElectionStrategy): the
  first replica in assignment order that is live, in the ISR and not shutting
  down; the shutting-down broker leaves the ISR. With no such replica the
  partition stays as it is (Kafka's behaviour: it keeps its only leader).
* ``preferred_election`` (PreferredReplicaPartitionLeaderElectionStrategy): the
  first replica, if it is live and in the ISR.
* ``reassignment_election`` (ReassignPartitionLeaderElectionStrategy): the first
  replica of the target set that is live and in the ISR.

``imbalanced_partitions`` is the auto-rebalance check (Kafka's
``checkAndTriggerAutoLeaderRebalance``): per preferred broker, the share of
partitions it should lead but does not; above
``leader.imbalance.per.broker.percentage`` those whose preferred replica is
live and in the ISR get a preferred election.

Nothing here reads ZooKeeper or the clock.
"""

from __future__ import annotations

from kwire.cluster import zk_layout as L
from kwire.protocol.errors import ErrorCode, KafkaError

PREFERRED = 0
UNCLEAN = 1


def offline_election(state: L.LeaderAndIsr, replicas: list[int], live: set[int],
                     unclean: bool = False) -> tuple[int, list[int]] | None:
    live_isr = [b for b in state.isr if b in live]
    if state.leader in live:
        if live_isr == state.isr or not live_isr:
            return None
        return state.leader, live_isr
    candidates = [r for r in replicas if r in live_isr]
    if candidates:
        return candidates[0], live_isr
    if unclean:
        live_replicas = [r for r in replicas if r in live]
        if live_replicas:
            return live_replicas[0], [live_replicas[0]]
    if state.leader == L.NO_LEADER:
        return None
    return L.NO_LEADER, list(state.isr)


def shutdown_election(state: L.LeaderAndIsr, replicas: list[int], live: set[int],
                      shutting_down: set[int]) -> tuple[int, list[int]] | None:
    """The move away from shutting-down brokers, or None (nothing led or followed by one,
    or no other ISR member to lead)."""
    isr = [b for b in state.isr if b not in shutting_down]
    if state.leader in shutting_down:
        candidates = [r for r in replicas if r in isr and r in live]
        if not candidates:
            return None
        return candidates[0], isr
    if isr != state.isr and isr:
        return state.leader, isr
    return None


def preferred_election(state: L.LeaderAndIsr, replicas: list[int], live: set[int],
                       name: str = "", partition: int = 0) -> tuple[int, list[int]]:
    preferred = replicas[0] if replicas else L.NO_LEADER
    if state.leader == preferred:
        raise KafkaError(ErrorCode.ELECTION_NOT_NEEDED, "Leader election not needed for topic partition.")
    if preferred not in live or preferred not in state.isr:
        raise KafkaError(ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE,
                         f"Failed to elect leader for partition {name}-{partition} under strategy "
                         f"PreferredReplicaPartitionLeaderElectionStrategy")
    return preferred, list(state.isr)


def unclean_election(state: L.LeaderAndIsr, replicas: list[int], live: set[int],
                     name: str = "", partition: int = 0) -> tuple[int, list[int]]:
    """ElectLeaders type UNCLEAN: ELECTION_NOT_NEEDED while the leader (or, failing that,
    an ISR member) is live; else the first live replica."""
    if state.leader in live:
        raise KafkaError(ErrorCode.ELECTION_NOT_NEEDED, "Leader election not needed for topic partition.")
    got = offline_election(state, replicas, live, unclean=True)
    if got is None or got[0] == L.NO_LEADER:
        raise KafkaError(ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE,
                         f"Failed to elect leader for partition {name}-{partition} under strategy "
                         f"OfflinePartitionLeaderElectionStrategy(true)")
    return got


def reassignment_election(state: L.LeaderAndIsr, target: list[int], live: set[int]) -> tuple[int, list[int]] | None:
    """Leader and ISR once every target replica is in the ISR: ISR = ISR ∩ target; the leader
    stays if it is in the target and live, else the first live target replica in the ISR.
    None when no target replica can lead."""
    isr = [b for b in state.isr if b in target]
    if state.leader in target and state.leader in live:
        return state.leader, isr
    candidates = [r for r in target if r in isr and r in live]
    if not candidates:
        return None
    return candidates[0], isr


def imbalanced_partitions(partitions, live: set[int], percentage: int) -> list:
    """``partitions``: (key, replicas, state) each. The keys to give a preferred election.

    A broker's imbalance ratio is the share of the partitions it prefers (it is
    their first replica) that it does not lead; a broker above ``percentage``
    gets its leadership back where it is live and in the ISR.
    """
    preferred: dict[int, list] = {}
    for key, replicas, state in partitions:
        if replicas and state is not None:
            preferred.setdefault(replicas[0], []).append((key, state))
    out = []
    for broker, owned in preferred.items():
        if broker not in live:
            continue
        not_led = [(k, s) for k, s in owned if s.leader != broker]
        if not not_led or len(not_led) * 100 <= percentage * len(owned):
            continue
        out.extend(k for k, s in not_led if broker in s.isr)
    return out
