#!/usr/bin/env bash
# Install everything the tests need (system packages included), then run the whole suite.
# Usage: bash scripts/test.sh [pytest args...]
# Artifacts (console screenshots) go to $KWIRE_TEST_ARTIFACTS, by default ./test-artifacts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-test-env.sh
# Screenshots of the console's browser tests (and other artifacts) outlive the run here,
# not in pytest's tmp dirs; git ignores the directory.
export KWIRE_TEST_ARTIFACTS="${KWIRE_TEST_ARTIFACTS:-$PWD/test-artifacts}"
mkdir -p "$KWIRE_TEST_ARTIFACTS"
# The layers (pyproject.toml's [tool.importlinter], ARCHITECTURE.md): an import cycle or an
# import that points up fails the run here, naming the import chain, before any test starts.
lint-imports
exec python3 -m pytest tests -p no:cacheprovider -ra "$@"
