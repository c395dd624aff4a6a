#!/usr/bin/env bash
# Creates .venv beside the project (if missing) and installs the package with both hosts
# and the test tools. Sourced by demo.sh and test.sh; needs only Python 3.10+ and pip.
# The HTML site map's browser tests need Chromium: installed from Debian when missing and
# run as root (CI); otherwise the tests fail saying how to install it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null \
    || echo "setup: could not install chromium; the browser tests will fail" >&2
fi
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
# pip >= 25.1 reads [dependency-groups]; the machine's own pip may be older.
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade "pip>=25.1"
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[mkdocs,pelican]" --group test
export NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true
