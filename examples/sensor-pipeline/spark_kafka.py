"""Which Kafka connector jars go with the installed PySpark, and whether a checkpoint fits the broker.

Spark's Kafka source and sink are not in the ``pyspark`` package: they are the
``spark-sql-kafka-0-10_<scala>`` connector of **exactly the same Spark version**
plus three jars it needs. A connector of another version fails at run time
with ``NoSuchMethodError`` (the query dies with STREAM_FAILED), so:

* ``packages_coordinate()`` derives ``org.apache.spark:spark-sql-kafka-0-10_2.13:<pyspark's
  version>`` (Scala version from pyspark's own ``spark-core_*.jar``) for
  ``spark.jars.packages``, which fetches the four jars from Maven Central;
* ``resolve_jars()`` takes jars given by ``--jars`` or ``$KWIRE_SPARK_KAFKA_JARS``
  (one format for both: paths separated by commas or ``os.pathsep``; a
  directory stands for every ``*.jar`` in it) and ``check_jars()`` stops with
  a message naming both versions when the connector does not match pyspark,
  or names the jars that are missing. Offline you need these four::

      spark-sql-kafka-0-10_2.13-<spark version>.jar
      spark-token-provider-kafka-0-10_2.13-<spark version>.jar
      kafka-clients-<version the connector's POM names>.jar
      commons-pool2-<version the connector's POM names>.jar

  (a ``--packages`` run on a machine with Maven access leaves exactly these in
  ``~/.ivy2*/jars/``).
* ``fetch_problem()``, when Spark would fetch the connector (no jars given),
  looks for it in the local caches Spark's resolver reads first and else asks
  the repositories it would use (Maven Central, or those named by
  ``spark.jars.repositories`` / ``--repositories`` / ``spark.jars.ivySettings``
  in ``$PYSPARK_SUBMIT_ARGS``) for the connector's POM: offline, the example
  then stops with one clear message instead of Ivy's resolution log and a
  Java stack trace;
* with ``avro=True`` (``aggregate.py --avro``) the same for ``spark-avro_<scala>``,
  the jar that holds ``from_avro``, also exactly pyspark's version: fetched next
  to the connector, or taken from the given jars, and a clear message when it
  is missing from them or cannot be fetched;
* ``checkpoint_problem()`` compares the offsets a checkpoint recorded with the
  topics' end offsets on the broker now: a checkpoint written against another
  broker or data directory (offsets past the end, fewer partitions) would make
  Spark fail with "Some data may have been lost"; this explains it instead.

Imports neither pyspark nor a Kafka client at module level (usable in tests and
in ``scripts/setup-test-env.sh``: ``python spark_kafka.py connector-version JARS``
prints the connector's Spark version).
"""

from __future__ import annotations

import glob
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ENV = "KWIRE_SPARK_KAFKA_JARS"
CONNECTOR = "spark-sql-kafka-0-10"
TOKEN_PROVIDER = "spark-token-provider-kafka-0-10"
REQUIRED = (CONNECTOR, TOKEN_PROVIDER, "kafka-clients", "commons-pool2")
AVRO = "spark-avro"  # pyspark.sql.avro.functions.from_avro / to_avro live in this jar

# name[_scala]-version.jar, e.g. spark-sql-kafka-0-10_2.13-4.0.0.jar, kafka-clients-3.9.0.jar
_JAR = re.compile(r"^(?P<name>.+)-(?P<version>\d[^-]*(?:-[A-Za-z][\w.]*)?)\.jar$")
_SCALA = re.compile(r"^(?P<artifact>.+)_(?P<scala>\d+\.\d+)$")


class SparkSetupError(Exception):
    """The jars or the checkpoint do not fit: the message says what to do."""


@dataclass(frozen=True)
class JarInfo:
    path: str
    artifact: str
    scala: str | None
    version: str


def jar_info(path: str) -> JarInfo | None:
    m = _JAR.match(os.path.basename(path))
    if not m:
        return None
    s = _SCALA.match(m.group("name"))
    artifact, scala = (s.group("artifact"), s.group("scala")) if s else (m.group("name"), None)
    group, sep, rest = artifact.partition("_")
    if sep and "." in group and rest:  # the ~/.ivy2/jars naming: <group>_<artifact>-<version>.jar
        artifact = rest
    return JarInfo(path, artifact, scala, m.group("version"))


def split_jars(value: str) -> list[str]:
    """``a.jar,b.jar`` or ``a.jar:dir`` -> jar paths (a directory: its ``*.jar``, sorted)."""
    jars: list[str] = []
    for item in re.split(r"[,%s]" % re.escape(os.pathsep), value):
        item = item.strip()
        if not item:
            continue
        path = Path(item).expanduser()
        if path.is_dir():
            found = sorted(str(p) for p in path.glob("*.jar"))
            if not found:
                raise SparkSetupError(f"{item}: a directory without *.jar files")
            jars += found
        elif path.is_file():
            jars.append(str(path))
        else:
            raise SparkSetupError(f"{item}: no such jar file or directory")
    return jars


def resolve_jars(cli_value: str | None, environ: dict[str, str] | None = None) -> list[str]:
    """``--jars`` if given, else ``$KWIRE_SPARK_KAFKA_JARS``, else [] (then use --packages)."""
    env = os.environ if environ is None else environ
    value = cli_value if cli_value else env.get(ENV, "")
    return split_jars(value) if value.strip() else []


def installed_pyspark() -> tuple[str, str]:
    """(pyspark's version, its Scala binary version) without starting a JVM."""
    try:
        import pyspark
    except ImportError:
        raise SparkSetupError("pyspark is not installed: pip install pyspark (and a JDK 17+)") from None
    version = pyspark.__version__
    scala = None
    for jar in glob.glob(os.path.join(os.path.dirname(pyspark.__file__), "jars", "spark-core_*.jar")):
        info = jar_info(jar)
        if info and info.scala:
            scala = info.scala
            break
    if scala is None:  # Spark 4 is built for Scala 2.13 only; Spark 3's PyPI package for 2.12
        scala = "2.13" if int(version.split(".")[0]) >= 4 else "2.12"
    return version, scala


def packages_coordinate(spark_version: str, scala: str = "2.13", artifact: str = CONNECTOR) -> str:
    """The Maven coordinate of the connector (or ``artifact``, e.g. AVRO) that matches this Spark."""
    return f"org.apache.spark:{artifact}_{scala}:{spark_version}"


def check_avro_jar(jars: list[str], spark_version: str, scala: str = "2.13") -> None:
    """Raise ``SparkSetupError`` unless ``jars`` hold ``spark-avro_<scala>-<spark_version>.jar``."""
    wanted = f"{AVRO}_{scala}-{spark_version}.jar"
    found = [i for i in map(jar_info, jars) if i is not None and i.artifact == AVRO]
    if not found:
        raise SparkSetupError(
            f"no {AVRO}_{scala}-*.jar among the given jars: --avro decodes with from_avro, which is in "
            f"{wanted} (Maven: {packages_coordinate(spark_version, scala, AVRO)}); add it to --jars / ${ENV}, "
            "or run without jars to have Spark fetch it with the connector")
    info = found[0]
    if info.version != spark_version or (info.scala and info.scala != scala):
        raise SparkSetupError(
            f"{os.path.basename(info.path)} does not match the installed pyspark {spark_version} "
            f"(Scala {scala}): --avro needs {wanted}")


def check_jars(jars: list[str], spark_version: str, scala: str = "2.13") -> None:
    """Raise ``SparkSetupError`` unless ``jars`` hold the four jars, connector = ``spark_version``."""
    infos = [i for i in map(jar_info, jars) if i is not None]
    by_artifact = {i.artifact: i for i in infos}
    missing = [a for a in REQUIRED if a not in by_artifact]
    if CONNECTOR in missing:
        raise SparkSetupError(
            f"no {CONNECTOR}_{scala}-*.jar among the given jars ({', '.join(map(os.path.basename, jars))}): "
            f"the Kafka connector for pyspark {spark_version} is {CONNECTOR}_{scala}-{spark_version}.jar "
            f"(or run without jars: spark.jars.packages={packages_coordinate(spark_version, scala)})")
    for artifact in (CONNECTOR, TOKEN_PROVIDER):
        info = by_artifact.get(artifact)
        if info is None:
            continue
        if info.version != spark_version:
            raise SparkSetupError(
                f"{os.path.basename(info.path)} is for Spark {info.version} but the installed pyspark is "
                f"{spark_version}: the connector's version must equal pyspark's (otherwise the query fails "
                f"with NoSuchMethodError / STREAM_FAILED). Use the {spark_version} jars "
                f"({packages_coordinate(spark_version, scala)} and its dependencies) or "
                f"pip install pyspark=={info.version}")
        if info.scala and info.scala != scala:
            raise SparkSetupError(
                f"{os.path.basename(info.path)} is built for Scala {info.scala} but pyspark {spark_version} "
                f"runs Scala {scala}: use {artifact}_{scala}-{spark_version}.jar")
    if missing:
        raise SparkSetupError(
            f"missing {', '.join(a + '-*.jar' for a in missing)}: the Kafka connector needs four jars, "
            f"{CONNECTOR}_{scala}-{spark_version}.jar, {TOKEN_PROVIDER}_{scala}-{spark_version}.jar, "
            "kafka-clients-*.jar and commons-pool2-*.jar (the versions its POM names; a --packages run "
            "leaves all four in ~/.ivy2*/jars/)")


def connector_version(jars: list[str]) -> str:
    for info in filter(None, map(jar_info, jars)):
        if info.artifact == CONNECTOR:
            return info.version
    raise SparkSetupError(f"no {CONNECTOR}_*.jar among {', '.join(jars) or '(none)'}")


def spark_configs(jars: list[str], spark_version: str, scala: str, avro: bool = False) -> dict[str, str]:
    """``spark.jars`` (checked) when jars are given, else ``spark.jars.packages`` (+ spark-avro)."""
    if jars:
        check_jars(jars, spark_version, scala)
        if avro:
            check_avro_jar(jars, spark_version, scala)
        return {"spark.jars": ",".join(jars)}
    artifacts = (CONNECTOR, AVRO) if avro else (CONNECTOR,)
    return {"spark.jars.packages": ",".join(packages_coordinate(spark_version, scala, a) for a in artifacts)}


# -- can Spark fetch the connector? -------------------------------------------------------------

MAVEN_CENTRAL = "https://repo1.maven.org/maven2/"


def _submit_confs(submit_args: str) -> dict[str, str]:
    """``--conf k=v`` / ``--repositories r`` pairs of a spark-submit command line."""
    import shlex

    words = shlex.split(submit_args or "")
    confs: dict[str, str] = {}
    for flag, value in zip(words, words[1:]):
        if flag == "--conf" and "=" in value:
            k, v = value.split("=", 1)
            confs[k.strip()] = v.strip()
        elif flag == "--repositories":
            confs["spark.jars.repositories"] = value
    return confs


def _repositories(confs: dict[str, str]) -> list[str]:
    """The remote roots Spark's resolver would ask for the connector."""
    settings = confs.get("spark.jars.ivySettings")
    if settings:  # a custom Ivy settings file replaces Spark's resolver chain
        try:
            text = Path(settings).read_text()
        except OSError:
            return []  # Spark reports the unreadable file itself
        return re.findall(r'\broot\s*=\s*"([^"]+)"', text)
    extra = [r.strip() for r in confs.get("spark.jars.repositories", "").split(",") if r.strip()]
    return extra + [MAVEN_CENTRAL]


def _cached(confs: dict[str, str], spark_version: str, scala: str, artifact: str = CONNECTOR) -> bool:
    """Is the connector (``artifact``) in the Ivy or Maven cache Spark resolves from before the network?"""
    name = f"{artifact}_{scala}"
    ivy_dirs = [confs["spark.jars.ivy"]] if "spark.jars.ivy" in confs else \
        sorted(glob.glob(os.path.expanduser("~/.ivy2*")))
    for d in ivy_dirs:
        if glob.glob(os.path.join(d, "jars", f"*{name}-{spark_version}.jar")):
            return True
    m2 = Path.home() / ".m2" / "repository" / "org" / "apache" / "spark" / name / spark_version
    return (m2 / f"{name}-{spark_version}.jar").is_file()


def fetch_problem(spark_version: str, scala: str, submit_args: str | None = None,
                  timeout: float = 5.0, avro: bool = False) -> str | None:
    """Why Spark could not fetch the connector for ``spark.jars.packages`` (None: it can, or it is cached).

    Asks each repository for the connector's POM (a few hundred bytes): the first
    that has it settles it. Offline every repository fails to connect and the
    message names the four jars to give instead. With ``avro`` the spark-avro
    jar is looked for the same way, after the connector.
    """
    confs = _submit_confs(os.environ.get("PYSPARK_SUBMIT_ARGS", "") if submit_args is None else submit_args)
    failures = _unreachable(confs, spark_version, scala, CONNECTOR, timeout)
    name = f"{CONNECTOR}_{scala}"
    if failures is not None:
        return (f"cannot fetch the Kafka connector {packages_coordinate(spark_version, scala)} "
                f"({failures}). Offline, give its four jars with "
                f"--jars or ${ENV}: {name}-{spark_version}.jar, {TOKEN_PROVIDER}_{scala}-{spark_version}.jar, "
                "kafka-clients-*.jar and commons-pool2-*.jar (examples/sensor-pipeline/README.md)")
    failures = _unreachable(confs, spark_version, scala, AVRO, timeout) if avro else None
    if failures is not None:
        return (f"cannot fetch {packages_coordinate(spark_version, scala, AVRO)}, which --avro needs for "
                f"from_avro ({failures}). Offline, add {AVRO}_{scala}-{spark_version}.jar to the connector's "
                f"jars in --jars or ${ENV} (examples/sensor-pipeline/README.md)")
    return None


def _unreachable(confs: dict[str, str], spark_version: str, scala: str, artifact: str,
                 timeout: float) -> str | None:
    """None when ``artifact``'s jar is cached or a repository has its POM, else why not."""
    import urllib.error
    import urllib.request

    if _cached(confs, spark_version, scala, artifact):
        return None
    name = f"{artifact}_{scala}"
    path = f"org/apache/spark/{name}/{spark_version}/{name}-{spark_version}.pom"
    failures = []
    for root in _repositories(confs):
        url = root.rstrip("/") + "/" + path
        try:
            with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=timeout):
                return None
        except urllib.error.HTTPError as e:
            failures.append(f"{root}: HTTP {e.code}")
        except (urllib.error.URLError, OSError) as e:
            failures.append(f"{root}: {getattr(e, 'reason', e)}")
    return "; ".join(failures) or "no repository configured"


# -- checkpoints -------------------------------------------------------------------------------

def checkpoint_offsets(checkpoint: str) -> dict[str, dict[int, int]] | None:
    """The source offsets of the checkpoint's latest batch: topic -> partition -> offset (None: none).

    Spark writes ``<checkpoint>/offsets/<batch id>``: a version line, a metadata
    JSON line, then one JSON line per source (``{"topic": {"0": 42}}`` for Kafka).
    """
    d = os.path.join(checkpoint, "offsets")
    try:
        batches = sorted((int(n) for n in os.listdir(d) if n.isdigit()), reverse=True)
    except FileNotFoundError:
        return None
    for batch in batches:
        try:
            with open(os.path.join(d, str(batch))) as f:
                lines = f.read().splitlines()
        except OSError:
            continue
        out: dict[str, dict[int, int]] = {}
        for line in lines[2:]:
            try:
                src = json.loads(line)
            except ValueError:
                continue
            if isinstance(src, dict):
                for topic, parts in src.items():
                    if isinstance(parts, dict):
                        out[topic] = {int(p): int(o) for p, o in parts.items()}
        return out
    return None


def checkpoint_problem(checkpoint: str, end_offsets: dict[str, dict[int, int]]) -> str | None:
    """Why ``checkpoint`` cannot belong to the broker whose topics end at ``end_offsets`` (None: fits)."""
    recorded = checkpoint_offsets(checkpoint)
    if not recorded:
        return None
    for topic, parts in sorted(recorded.items()):
        ends = end_offsets.get(topic)
        if ends is None:
            continue  # a topic not read in this run: Spark decides
        for p, off in sorted(parts.items()):
            if p not in ends:
                why = f"{topic} partition {p} is in the checkpoint but the topic has {len(ends)} partitions"
            elif off > ends[p]:
                why = f"{topic}-{p} was read up to offset {off} but the topic now ends at offset {ends[p]}"
            else:
                continue
            return (f"the checkpoint {checkpoint} was written against another broker or data directory "
                    f"({why}): Spark would stop with 'Some data may have been lost'. Delete the "
                    f"checkpoint directory to start over, or pass --checkpoint with a new directory "
                    f"for this broker")
    return None


def _main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "connector-version":
        try:
            print(connector_version(split_jars(argv[1])))
        except SparkSetupError as e:
            print(f"spark_kafka.py: {e}", file=sys.stderr)
            return 1
        return 0
    print("usage: spark_kafka.py connector-version JARS", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
