"""Real PySpark against the broker: what it needs, and why it may not be here.

Spark's Kafka source and sink are not part of the ``pyspark`` package: they are
the ``spark-sql-kafka-0-10_2.13`` connector and its dependencies
(``spark-token-provider-kafka-0-10_2.13``, ``kafka-clients``,
``commons-pool2``), which users pull from Maven Central with
``--packages org.apache.spark:spark-sql-kafka-0-10_2.13:<spark version>``.
No PyPI package ships them, and a machine that cannot reach Maven cannot
fetch them. So the PySpark scenarios take the jars from ``KWIRE_SPARK_KAFKA_JARS``
(paths separated by ``os.pathsep``; a directory stands for every ``*.jar`` in
it, e.g. the ``~/.ivy2*/jars`` cache a ``--packages`` run leaves behind) and,
when that is unset, are SKIPPED with this explanation. Nothing is faked.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

ENV = "KWIRE_SPARK_KAFKA_JARS"
CONNECTOR = "spark-sql-kafka-0-10"


def connector_jars(value: str) -> list[str]:
    jars: list[str] = []
    for item in (p for p in value.split(os.pathsep) if p.strip()):
        path = Path(item).expanduser()
        if path.is_dir():
            jars += sorted(str(p) for p in path.glob("*.jar"))
        elif path.is_file():
            jars.append(str(path))
    return jars


def prerequisites() -> tuple[list[str], str | None]:
    """(jars, None) when the PySpark scenarios can run, else ([], why not)."""
    missing = []
    value = os.environ.get(ENV, "")
    jars = connector_jars(value) if value else []
    if not value:
        missing.append(f"{ENV} is not set: the {CONNECTOR}_2.13 connector jars come from Maven "
                       "(spark.jars.packages / --packages), which this machine cannot reach, and no "
                       "PyPI package ships them; set it to the jar paths (or a directory of jars)")
    elif not any(CONNECTOR in Path(j).name for j in jars):
        missing.append(f"{ENV}={value} holds no {CONNECTOR}*.jar")
    if importlib.util.find_spec("pyspark") is None:
        missing.append("pyspark is not installed (pip install pyspark; about 450 MB, JDK 17+)")
    if shutil.which("java") is None:
        missing.append("java (JDK 17+) is not on PATH")
    return (jars, None) if not missing else ([], "; ".join(missing))
