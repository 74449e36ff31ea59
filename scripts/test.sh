#!/usr/bin/env bash
# Install everything the tests need (system packages included), then run the suite in parallel.
#
# Usage: bash scripts/test.sh [--quick] [pytest args...]
#
#   (no flag)  the whole suite, CI's run: pytest-xdist workers (KWIRE_TEST_WORKERS, default 4)
#              over tests/, each test module kept whole on one worker (--dist loadfile: its
#              module-scoped broker and ZooKeeper start once), then the tests marked `serial`
#              on their own in a second, one-process invocation (timing-sensitive or heavy).
#   --quick    the contributor tier (about 2 minutes): tests/unit plus the tests marked `smoke`
#              (one round trip per client: kafka-python, aiokafka, confluent-kafka, kcat, Java).
#
# Extra arguments go to every pytest invocation (e.g. -x, -k expr, -m expr, --lf is off:
# the cache provider is disabled). Every run ends with the 20 slowest tests (--durations=20).
# Environment:
#   KWIRE_TEST_WORKERS=N     xdist workers (0: no xdist, everything in this process)
#   KWIRE_TEST_SKIP_SETUP=1  skip scripts/setup-test-env.sh (already run on this machine)
#   KWIRE_TEST_ARTIFACTS     where console screenshots and other artifacts go (./test-artifacts)
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
if [ "${1:-}" = "--quick" ]; then
    quick=1
    shift
fi

if [ "${KWIRE_TEST_SKIP_SETUP:-0}" != "1" ]; then
    bash scripts/setup-test-env.sh
fi
# Screenshots of the console's browser tests (and other artifacts) outlive the run here,
# not in pytest's tmp dirs; git ignores the directory.
export KWIRE_TEST_ARTIFACTS="${KWIRE_TEST_ARTIFACTS:-$PWD/test-artifacts}"
mkdir -p "$KWIRE_TEST_ARTIFACTS"

# A -m EXPR among the extra arguments narrows each invocation's own marker selection
# (pytest keeps only the last -m, so it is folded in here rather than passed on).
user_m=""
args=()
while [ "$#" -gt 0 ]; do
    case "$1" in
        -m) user_m="$2"; shift 2 ;;
        -m*) user_m="${1#-m}"; shift ;;
        *) args+=("$1"); shift ;;
    esac
done
marks() { if [ -n "$user_m" ]; then echo "($1) and ($user_m)"; else echo "$1"; fi; }

workers="${KWIRE_TEST_WORKERS:-4}"
xdist=()
if [ "$workers" != "0" ]; then
    xdist=(-n "$workers" --dist loadfile)
fi
common=(-p no:cacheprovider -ra --durations=20)

if [ "$quick" = "1" ]; then
    exec python3 -m pytest -m "$(marks "unit or smoke")" "${xdist[@]}" "${common[@]}" ${args[@]+"${args[@]}"}
fi

# Both invocations run even when the first fails; the status is the first failure's.
# Exit status 5 (nothing selected) is a failure only when neither invocation ran a test.
rc1=0; rc2=0
python3 -m pytest -m "$(marks "not serial")" "${xdist[@]}" "${common[@]}" ${args[@]+"${args[@]}"} || rc1=$?
python3 -m pytest -m "$(marks "serial")" "${common[@]}" ${args[@]+"${args[@]}"} || rc2=$?
if [ "$rc1" -eq 5 ] && [ "$rc2" -eq 5 ]; then exit 5; fi
for rc in "$rc1" "$rc2"; do
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 5 ]; then exit "$rc"; fi
done
exit 0
