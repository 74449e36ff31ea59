#!/usr/bin/env bash
# Install everything the tests need (system packages included), then run the suite in parallel.
#
# Usage: bash scripts/test.sh [--quick] [pytest args...]
#
#   (no flag)  the whole suite, CI's run: pytest-xdist workers (KWIRE_TEST_WORKERS, default 5),
#              --dist loadgroup: a test module (or an xdist_group) is one unit of work, so its
#              module-scoped broker or ZooKeeper starts once per worker; units are handed out
#              in collection order, and tests/conftest.py collects the heaviest modules first.
#   --quick    the contributor tier (under 2 minutes): tests/unit plus the tests marked `smoke`
#              (its heaviest fuzz tests with a tenth of their examples: tests/fuzz_budget.py)
#              (one round trip per client: kafka-python, aiokafka, confluent-kafka, kcat, Java);
#              only those modules are collected unless paths are given.
#
# Extra arguments go to pytest in both modes (e.g. -x, -k EXPR, -m EXPR, paths; no --lf:
# the cache provider is disabled). Every run ends with the 20 slowest tests (--durations=20).
# Environment:
#   KWIRE_TEST_WORKERS=N     xdist workers (default 5, 2 with --quick; 0: no xdist, everything in
#                            this process)
#   KWIRE_TEST_HEAVY_STARTS=N  3-broker cluster / ZooKeeper-ensemble starts at a time (default 2;
#                            0: no limit; tests/heavy_starts.py)
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
# The layers (pyproject.toml's [tool.importlinter], ARCHITECTURE.md): an import cycle or an
# import that points up fails the run here, naming the import chain, before any test starts.
lint-imports

# pytest keeps only the last -m: a -m EXPR among the extra arguments is folded into the
# quick tier's own selection, "(unit or smoke) and (EXPR)".
user_m=""
args=()
while [ "$#" -gt 0 ]; do
    case "$1" in
        -m) user_m="$2"; shift 2 ;;
        -m*) user_m="${1#-m}"; shift ;;
        *) args+=("$1"); shift ;;
    esac
done

# The quick tier is CPU-bound unit tests: 2 workers on 2 cores (each worker collects its modules,
# ~15 CPU-s each, so 4 would spend a quarter of the tier collecting); the whole suite waits on
# brokers, clusters and timeouts a lot: on a quiet 2-core machine (2026-11-29, clean clones of
# this stop's code) 4 workers took pytest 13:31, 5 took 12:10 and 6 took 12:03, so 5.
default_workers=5
[ "$quick" = "0" ] || default_workers=2
workers="${KWIRE_TEST_WORKERS:-$default_workers}"
xdist=()
if [ "$workers" != "0" ]; then
    xdist=(-n "$workers" --dist loadgroup --no-loadscope-reorder)
fi
marks=()
paths=()
if [ "$quick" = "1" ]; then
    # the heaviest hypothesis fuzz tests run a tenth of their examples here (tests/fuzz_budget.py)
    export KWIRE_TEST_QUICK=1
    sel="unit or smoke"
    [ -z "$user_m" ] || sel="($sel) and ($user_m)"
    marks=(-m "$sel")
    # Collect only tests/unit and the smoke tests' modules, not all of tests/ (each xdist
    # worker collects what it is given: the integration modules cost tens of seconds), unless
    # paths were given.
    given=0
    for a in ${args[@]+"${args[@]}"}; do
        case "$a" in -*) ;; *) [ -e "${a%%::*}" ] && given=1 ;; esac
    done
    if [ "$given" = "0" ]; then
        while IFS= read -r p; do paths+=("$p"); done < <(python3 - <<'PY'
import sys
sys.path.insert(0, "tests")
from conftest import SMOKE
print("tests/unit")
print("\n".join(sorted({s.split("::")[0] for s in SMOKE})))
PY
)
    fi
elif [ -n "$user_m" ]; then
    marks=(-m "$user_m")
fi
# Compiled bytecode: written to one cache (tests/bytecode_cache.py; PYTHONDONTWRITEBYTECODE would
# otherwise leave every worker and broker to compile from source), and warmed once before the xdist
# workers start, which would otherwise each compile kwire and rewrite every test module themselves
# (a fresh checkout, as CI's: 4 workers collecting cold 63.7 CPU-s, warm-up 21.2 + warm workers
# 24.6, measured 2026-11-29 at load 18-37; nothing to do when already warm: 0.3 CPU-s).
if [ -n "${PYTHONDONTWRITEBYTECODE:-}" ]; then
    PYTHONPYCACHEPREFIX="$(python3 -c 'import sys; sys.path.insert(0, "tests"); import bytecode_cache; print(bytecode_cache.prefix())')"
    export PYTHONPYCACHEPREFIX
    unset PYTHONDONTWRITEBYTECODE
fi
warm=()
for a in ${paths[@]+"${paths[@]}"} ${args[@]+"${args[@]}"}; do
    case "$a" in
        --collect-only|--co) workers=0 ;;  # xdist does not start workers to collect
        -*) ;;
        *) [ ! -e "${a%%::*}" ] || warm+=("${a%%::*}") ;;
    esac
done
[ "$workers" = "0" ] || python3 tests/bytecode_cache.py ${warm[@]+"${warm[@]}"}
exec python3 -m pytest -p no:benchmark -p no:anyio ${marks[@]+"${marks[@]}"} ${xdist[@]+"${xdist[@]}"} -p no:cacheprovider -ra \
    --durations=20 ${paths[@]+"${paths[@]}"} ${args[@]+"${args[@]}"}
