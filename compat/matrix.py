"""The compatibility matrix: which clients, which scenarios, and one result per cell.

Nothing here talks to a broker. ``CLIENTS`` and ``SCENARIOS`` are the rows and
columns; ``applicable(client, scenario)`` says which cells exist at all (a cell
that does not is ``N/A``, with the reason, rather than a silent gap). A
``Result`` is one cell: status, reason, seconds.

Statuses:

* ``PASS`` - the scenario ran and every check held;
* ``FAIL`` - it ran and a check failed, the client raised, or it ran out of time;
  the reason says which;
* ``SKIP`` - it could not be run here (a missing jar, JDK, binary or package); the
  reason names what is missing. Never counted as passing;
* ``N/A``  - the client has no such feature (kcat has no admin API).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

PASS, FAIL, SKIP, NA = "PASS", "FAIL", "SKIP", "N/A"
STATUSES = (PASS, FAIL, SKIP, NA)

# Column order of the table.
CLIENTS = ("kafka-python", "aiokafka", "confluent-kafka", "kcat", "java", "pyspark")

# Clients driven by compat/worker.py through a facade in compat/clients/.
PYTHON_DRIVEN = ("kafka-python", "aiokafka", "confluent-kafka", "kcat")

CODECS = ("gzip", "snappy", "lz4", "zstd")


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    clients: tuple[str, ...]          # the clients this scenario exists for
    timeout: float = 60.0              # seconds, before --timeout scaling


_GENERIC = ("kafka-python", "aiokafka", "confluent-kafka", "kcat", "java")

SCENARIOS: tuple[Scenario, ...] = (
    Scenario("metadata", "create a 3-partition topic; Metadata shows it with leaders", _GENERIC),
    Scenario("roundtrip", "keys, values, headers, timestamps produced and fetched back", _GENERIC),
    *(Scenario(f"compression-{c}", f"produce with {c}, fetch back intact", _GENERIC) for c in CODECS),
    Scenario("acks-0", "acks=0 produce; every record arrives", _GENERIC),
    Scenario("acks-1", "acks=1 produce; offsets as reported", _GENERIC),
    Scenario("acks-all", "acks=all produce; offsets as reported", _GENERIC),
    Scenario("offsets-earliest-latest", "ListOffsets earliest / latest, before and after produce",
             _GENERIC),
    Scenario("offsets-by-timestamp", "ListOffsets by timestamp: inside a batch, exact, past the end",
             _GENERIC),
    Scenario("offsets-max-timestamp", "ListOffsets max timestamp (-3, KIP-734): the record with the "
             "largest timestamp, not the last one", _GENERIC),
    Scenario("seek-mid-batch", "seek to an offset in the middle of a batch; fetch starts there",
             _GENERIC),
    Scenario("seek-to-latest", "assign + seek to the end: the position is the log end; only records "
             "produced after that are read", _GENERIC),
    Scenario("seek-to-timestamp", "offsets_for_times + seek: reading starts at the first record with "
             "timestamp >= target", _GENERIC),
    Scenario("group-commit-resume", "subscribe in a group, commit, a new member resumes there",
             _GENERIC, timeout=90.0),
    Scenario("admin-describe-configs", "DescribeConfigs: topic override and defaults with sources",
             _GENERIC),
    Scenario("admin-delete-records", "DeleteRecords moves the log start offset", _GENERIC),
    Scenario("admin-create-partitions", "CreatePartitions 1 -> 3; the new partition takes records",
             _GENERIC),
    Scenario("message-too-large", "a record over max.message.bytes: MESSAGE_TOO_LARGE, then a small one works",
             _GENERIC),
    Scenario("idempotent-producer", "enable.idempotence=true, acks=all, several batches: consecutive "
             "offsets, no duplicates, a producer id where the client shows it", _GENERIC),
    Scenario("large-records", "900 KiB records fetched back with default and with small "
             "max.partition.fetch.bytes (KIP-74)", _GENERIC),
    Scenario("group-rebalance", "two members of a group on 4 partitions: 4/0, 2/2, one leaves, 4; "
             "every record consumed once", _GENERIC, timeout=120.0),
    Scenario("admin-alter-configs", "IncrementalAlterConfigs SET then DELETE retention.ms; "
             "DescribeConfigs sources", _GENERIC),
    Scenario("admin-delete-topics", "DeleteTopics: gone from Metadata; re-created empty", _GENERIC),
    Scenario("error-unknown-topic", "Metadata / produce for a missing topic: UNKNOWN_TOPIC_OR_PARTITION, "
             "not created", _GENERIC),
    Scenario("error-invalid-replication-factor", "CreateTopics with replication factor > brokers: "
             "INVALID_REPLICATION_FACTOR", _GENERIC),
    # Spark's Kafka connector, done by hand with the Java client (see compat/java/SparkPath.java).
    Scenario("spark-admin-offsets", "Spark driver: Admin listOffsets earliest/latest/forTimestamp, "
             "describeTopics, describeCluster", ("java",)),
    Scenario("spark-consumer-read-uncommitted", "Spark executor: assign+seek+poll, no group, read_uncommitted",
             ("java",)),
    Scenario("spark-consumer-read-committed", "Spark executor: assign+seek+poll, no group, read_committed",
             ("java",)),
    Scenario("spark-idempotent-producer", "Spark sink: idempotent producer, keys, values, headers",
             ("java",)),
    # Real PySpark with the spark-sql-kafka-0-10 connector (compat/spark/pyspark_job.py).
    Scenario("pyspark-batch-read", 'spark.read.format("kafka")', ("pyspark",), timeout=240.0),
    Scenario("pyspark-batch-write", 'df.write.format("kafka")', ("pyspark",), timeout=240.0),
    Scenario("pyspark-streaming-restart", "Structured Streaming kafka->kafka with a checkpoint, "
             "restarted: only new records", ("pyspark",), timeout=300.0),
)

SCENARIO_BY_ID = {s.id: s for s in SCENARIOS}

# Cells that do not exist, and why. Anything not listed here and not in a
# scenario's ``clients`` is N/A because the scenario is specific to another client.
NOT_APPLICABLE = {
    ("aiokafka", "offsets-max-timestamp"): "aiokafka has no call for ListOffsets max timestamp",
    ("kcat", "offsets-max-timestamp"): "kcat -Q looks up timestamps only",
    ("kcat", "admin-describe-configs"): "kcat has no admin API",
    ("kcat", "admin-delete-records"): "kcat has no admin API",
    ("kcat", "admin-create-partitions"): "kcat has no admin API",
    ("kcat", "admin-alter-configs"): "kcat has no admin API",
    ("kcat", "admin-delete-topics"): "kcat has no admin API",
    ("kcat", "error-invalid-replication-factor"): "kcat has no admin API (CreateTopics)",
}


def applicable(client: str, scenario: Scenario | str) -> str | None:
    """``None`` when the cell exists, else the reason it is N/A."""
    s = SCENARIO_BY_ID[scenario] if isinstance(scenario, str) else scenario
    if client not in s.clients:
        return f"{s.id} is specific to {', '.join(s.clients)}"
    return NOT_APPLICABLE.get((client, s.id))


@dataclass
class Result:
    client: str
    scenario: str
    status: str
    reason: str = ""
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return asdict(self)
