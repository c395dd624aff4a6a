#!/usr/bin/env bash
# The oldest supported releases, installed exactly: a second virtual environment (.venv-min)
# with scripts/minimum-versions.txt as constraints, then the host adapter tests and the core
# tests of what calls MkDocs, Pelican, Jinja2 and selectolax (reader, rules, writers, media,
# config, command line, the sample sites against the schemas). The writers' three 50,000-URL
# and 50 MiB splitting tests are left to the main run: they count and cut whatever the
# versions, at several seconds each. CI runs it (.ci/run); extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-python3}
venv=.venv-min
if [ ! -x $venv/bin/python ]; then
  "$PYTHON" -m venv $venv
fi
pip=($venv/bin/python -m pip install --quiet --disable-pip-version-check)
"${pip[@]}" --upgrade "pip>=25.1"
"${pip[@]}" -e ".[mkdocs,pelican]" --group test -c scripts/minimum-versions.txt
# Exactly the pinned releases, not merely compatible ones.
$venv/bin/python - scripts/minimum-versions.txt <<'PY'
import importlib.metadata, sys
pins = [line.split("==") for line in open(sys.argv[1], encoding="utf-8")
        if line.strip() and not line.startswith("#")]
wrong = [f"{name} {importlib.metadata.version(name)} (wanted {want.strip()})"
         for name, want in pins if importlib.metadata.version(name) != want.strip()]
if wrong:
    sys.exit("min_versions: not the minimum: " + ", ".join(wrong))
print("min_versions: " + ", ".join(f"{name} {want.strip()}" for name, want in pins))
PY
export NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true
base=$(mktemp -d)  # a folder of its own: other pytest runs prune the shared one as they start
trap 'rm -rf "$base"' EXIT
$venv/bin/python -m pytest -q -p no:cacheprovider --basetemp "$base/t" -n "${TEST_WORKERS:-3}" --dist loadfile \
  tests/test_adapter_mkdocs.py tests/test_adapter_pelican.py tests/test_host_urls.py \
  tests/test_reader.py tests/test_render.py tests/test_rules.py tests/test_media.py \
  tests/test_options.py tests/test_cli.py tests/test_smoke_schema.py tests/test_page_values.py \
  tests/test_host_values.py \
  -k "not 50000_urls and not 50001_urls and not past_50_mib" "$@"
