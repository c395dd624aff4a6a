#!/usr/bin/env bash
# Creates .venv beside the project (if missing) and installs the package with its hosts;
# sourced by the other scripts, it needs only Python 3.10+ and pip and says what it does.
# SETUP_FOR=demo (scripts/demo.sh) installs what the sample sites use; otherwise the test
# tools too and, for the HTML site map's browser tests, Chromium (from Debian when missing and
# run as root, as in CI; elsewhere those tests fail saying how to install it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
group=${SETUP_FOR:-test}
if [ "$group" = test ] && ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] \
    && command -v apt-get >/dev/null 2>&1; then
  echo "setup: installing Chromium for the browser tests (apt-get; minutes on a fresh machine)"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null \
    || echo "setup: could not install chromium; the browser tests will fail" >&2
fi
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv/"
  "$PYTHON" -m venv .venv
fi
echo "setup: installing sitemap-plugins with MkDocs, Pelican and Sphinx, and the $group tools, into .venv/ (pip)"
# pip >= 25.1 reads [dependency-groups]; the machine's own pip may be older.
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade "pip>=25.1"
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[mkdocs,pelican,sphinx]" \
  --group "$group"
export NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true
