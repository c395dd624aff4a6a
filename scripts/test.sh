#!/usr/bin/env bash
# The test command: lint, type-check and the full default test suite (slow runs excluded).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -m slow`.
# The fast part, while developing (no real host, browser, other process or large input):
#   bash scripts/test.sh -m "not integration and not slow"
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
.venv/bin/ruff check sitemap_plugins tests benchmarks
.venv/bin/mypy
set +e
.venv/bin/python -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests; that is a failure here" >&2
  exit 1
fi
exit "$status"
