#!/usr/bin/env bash
# Regression figures for CI: a short `kwire bench --peer kwire@<previous commit>` and the
# micro-benchmarks of benchmarks/, both printed as tables and written as JSON under
# benchmarks/results/ (<UTC time>-<commit>-bench.json / -micro.json) so the history is in git.
#
#   scripts/bench-ci.sh [PREVIOUS_REV]     (default: HEAD~1)
#   BENCH_RUNS=3 BENCH_MESSAGES=20000 ...  (defaults below: about two minutes on 2 cores)
#   BENCH_WORKLOADS=produce_1KiB_acks1,... (default: all of kwire bench's)
#
# It never fails on a ratio (machines are noisy): the exit code is 0 whatever the figures,
# and a peer that cannot be had or fails to start is left out with a message (kwire bench's
# own handling) while every other figure is still reported. Exit 2 only when run outside a
# kwire checkout.
set -u
cd "$(dirname "$0")/.." || exit 2
[ -f kwire/__main__.py ] || { echo "bench-ci: not a kwire checkout" >&2; exit 2; }
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
PY=${PYTHON:-python}
prev=${1:-HEAD~1}
head=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=benchmarks/results
mkdir -p "$out"
echo "bench-ci: $head against kwire@$prev; load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"

"$PY" -m kwire bench --peer "kwire@$prev" --runs "${BENCH_RUNS:-3}" \
    --messages "${BENCH_MESSAGES:-20000}" --small-messages "${BENCH_SMALL_MESSAGES:-100000}" \
    --latency-seconds "${BENCH_LATENCY_SECONDS:-5}" ${BENCH_WORKLOADS:+--workloads "$BENCH_WORKLOADS"} \
    --json "$out/$stamp-$head-bench.json" --markdown "$out/$stamp-$head-bench.md"
rc=$?
[ $rc -eq 0 ] || echo "bench-ci: kwire bench exited $rc (its figures above, if any, stand)"

# (started from a pytest-xdist worker, as its smoke test is, the inherited PYTEST_XDIST_* variables
# would make pytest-benchmark disable itself)
env -u PYTEST_XDIST_WORKER -u PYTEST_XDIST_WORKER_COUNT -u PYTEST_XDIST_TESTRUNUID "$PY" -m pytest -p no:xdist benchmarks -p no:cacheprovider -q --benchmark-json "$out/$stamp-$head-micro.json" \
    --benchmark-min-rounds=20 --benchmark-max-time="${BENCH_MICRO_MAX_TIME:-0.5}" \
    --benchmark-disable-gc --benchmark-columns=median,ops >/dev/null
rc=$?
if [ -f "$out/$stamp-$head-micro.json" ]; then
    "$PY" -m kwire.bench.micro "$out/$stamp-$head-micro.json"
else
    echo "bench-ci: the micro-benchmarks wrote no results (pytest exited $rc)"
fi
echo "bench-ci: load average after $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null); results in $out/"
exit 0
