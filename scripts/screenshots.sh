#!/usr/bin/env bash
# Screenshots of the HTML site map in headless Chromium, written to screenshots/ (the browser
# tests save them while checking every link; chromium comes from Debian: apt-get install chromium).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
.venv/bin/python -m pytest tests/test_html_map.py -q -k "browser or theme"
ls -l screenshots/*.png
