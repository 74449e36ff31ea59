#!/usr/bin/env bash
# N long mixed-fault nemesis runs, PARALLEL at a time, then one table; exit 1 on any anomaly or failed run.
#
# Usage: sudo bash scripts/nemesis-long-runs.sh N [PARALLEL]     (root: the nemesis changes iptables)
#
# Each run is tests/integration/test_nemesis_faults.py::test_mixed_faults_long_run in a pytest
# process of its own, with its own seed, its own loopback /24 (KWIRE_NEMESIS_BLOCK: ZooKeeper and
# the brokers listen there, every port bound on those addresses), its own iptables chain (named
# after its pid) and its own tmp dirs, so runs at the same time do not cut each other's links.
# Environment:
#   KWIRE_NEMESIS_LONG_S=S     seconds of faults per run (default 300)
#   KWIRE_NEMESIS_SEEDS="a b"  the runs' seeds, in order (default: random; a run's seed replays it)
#   KWIRE_NEMESIS_OUT=DIR      where run-K.json (report), run-K.md, run-K.figures.jsonl (a line per
#                              fault, with the load), run-K.log and run-K.rc go
#                              (default /tmp/nemesis-long-runs-<UTC time>)
# The table (python -m kwire.nemesis.report DIR) has per run: seed, faults, acknowledged and
# indeterminate operations (both workloads), each anomaly, the worst recovery, the load's range
# over its faults and pytest's exit code. Ctrl-C stops every run it started (their chains and
# processes are removed by the tests' own clean-up).
set -euo pipefail

N=${1:?usage: nemesis-long-runs.sh N [PARALLEL]}
PARALLEL=${2:-1}
[[ "$N" =~ ^[1-9][0-9]*$ && "$PARALLEL" =~ ^[1-9][0-9]*$ ]] || { echo "N and PARALLEL are positive integers" >&2; exit 2; }
(( N <= 150 )) || { echo "at most 150 runs per call (one loopback /24 each)" >&2; exit 2; }
[[ $(id -u) == 0 ]] || { echo "the nemesis needs root (iptables): run with sudo" >&2; exit 2; }

cd "$(dirname "$0")/.."
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
OUT=${KWIRE_NEMESIS_OUT:-/tmp/nemesis-long-runs-$(date -u +%Y%m%dT%H%M%S)}
mkdir -p "$OUT"
read -r -a SEEDS <<< "${KWIRE_NEMESIS_SEEDS:-}"
SALT=$(( $$ % 200 + 20 ))  # the third octet: two calls of this script at once differ here too
LONG_S=${KWIRE_NEMESIS_LONG_S:-300}

declare -a PIDS=()
stop_all() {
    for pid in "${PIDS[@]}"; do kill -INT "$pid" 2>/dev/null || true; done
    wait || true
    exit 130
}
trap stop_all INT TERM

run_one() {  # K: one long run, its files in $OUT
    local k=$1 seed=${SEEDS[$(( $1 - 1 ))]:-$(( (RANDOM << 16 | RANDOM) & 0x7fffffff ))}
    local block="127.$(( 100 + k )).$SALT"
    echo "run $k: seed $seed, addresses $block.0/24, started $(date -u +%H:%M:%S) (load $(cut -d' ' -f1 /proc/loadavg))"
    local rc=0
    KWIRE_NEMESIS_LONG_S=$LONG_S KWIRE_NEMESIS_SEED=$seed KWIRE_NEMESIS_BLOCK=$block \
        KWIRE_NEMESIS_REPORT="$OUT/run-$k.json" KWIRE_NEMESIS_FIGURES="$OUT/run-$k.figures.jsonl" \
        python -m pytest tests/integration/test_nemesis_faults.py::test_mixed_faults_long_run \
        -m nemesis_long -p no:xdist -p no:cacheprovider -q -s > "$OUT/run-$k.log" 2>&1 || rc=$?
    echo "$rc" > "$OUT/run-$k.rc"
    echo "run $k: exit $rc at $(date -u +%H:%M:%S) (log $OUT/run-$k.log)"
}

for k in $(seq 1 "$N"); do
    while (( $(jobs -rp | wc -l) >= PARALLEL )); do wait -n || true; done
    run_one "$k" &
    PIDS+=("$!")
done
wait
echo
echo "$N runs of $LONG_S s of faults, $PARALLEL at a time, in $OUT"
python -m kwire.nemesis.report "$OUT"
