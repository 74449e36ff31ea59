#!/usr/bin/env bash
# Install everything the tests need (system packages included), then run the whole suite.
# Usage: bash scripts/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-test-env.sh
exec python3 -m pytest tests -p no:cacheprovider -ra "$@"
