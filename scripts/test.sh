#!/usr/bin/env bash
# The test command: lint, type-check and the full default test suite (slow runs excluded).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -m slow`.
# The fast part, while developing (no real host, browser, other process or large input):
#   bash scripts/test.sh -m "not integration and not slow"
# Test files run in TEST_WORKERS processes (default 3; 0 runs them in this process), each file
# in one worker so that its shared builds are made once; temporary folders go to a folder of
# this run's own (other pytest runs on the machine prune the shared one as they start).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
.venv/bin/ruff check sitemap_plugins tests benchmarks
.venv/bin/mypy
base=$(mktemp -d)
trap 'rm -rf "$base"' EXIT
workers=${TEST_WORKERS:-3}
parallel=()
if [ "$workers" != 0 ]; then parallel=(-n "$workers" --dist loadfile); fi
set +e
.venv/bin/python -m pytest -p no:cacheprovider --basetemp "$base/t" "${parallel[@]}" "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests; that is a failure here" >&2
  exit 1
fi
exit "$status"
