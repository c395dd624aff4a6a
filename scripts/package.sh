#!/usr/bin/env bash
# The package as published: build the sdist and the wheel (the wheel from the sdist), check their
# metadata as PyPI renders it (twine check --strict) and their contents (scripts/check_dist.py),
# then install the wheel alone into a new virtual environment and run it there, from a folder
# where the checkout cannot be imported: --version, a MkDocs build with `plugins: [sitemap]`
# (the entry point must resolve), a Pelican build with PLUGINS = ["sitemap_plugins.pelican"],
# and `sitemap-plugins check` on each. CI runs it (.ci/run).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== Build and check the sdist and the wheel =="
.venv/bin/python -m build --outdir "$work/dist" . >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
.venv/bin/twine check --strict "$work"/dist/*
.venv/bin/python scripts/check_dist.py "$work/dist"
wheel=$(ls "$work"/dist/sitemap_plugins-*.whl)

echo "== Install the wheel alone into a new environment =="
"${PYTHON:-python3}" -m venv "$work/venv"
bin=$work/venv/bin
"$bin/python" -m pip install --quiet --disable-pip-version-check "$wheel[mkdocs,pelican]"
cd "$work"  # nothing here is importable: the installed wheel is what runs
unset PYTHONPATH
"$bin/python" - "$work/venv" <<'EOF'
import importlib.metadata, pathlib, sys
import sitemap_plugins
where = pathlib.Path(sitemap_plugins.__file__).resolve()
assert where.is_relative_to(pathlib.Path(sys.argv[1]).resolve()), f"imported from {where}"
assert importlib.metadata.version("sitemap-plugins") == sitemap_plugins.__version__
print(f"sitemap_plugins {sitemap_plugins.__version__} imported from {where.parent}")
EOF
version=$("$bin/sitemap-plugins" --version)
echo "$version"
[ "$version" = "sitemap-plugins $("$bin/python" -c 'import importlib.metadata as m; print(m.version("sitemap-plugins"))')" ]

echo "== MkDocs: plugins: [sitemap] =="
mkdir -p mk/docs/guide
printf 'site_name: Wheel check\nsite_url: https://example.org/docs/\nplugins: [sitemap]\n' >mk/mkdocs.yml
printf '# Home\n\nThe [guide](guide/index.md).\n' >mk/docs/index.md
printf '# Guide\n\nBack [home](../index.md).\n' >mk/docs/guide/index.md
NO_MKDOCS_2_WARNING=1 "$bin/mkdocs" build --strict --quiet -f mk/mkdocs.yml
grep -q '<loc>https://example.org/docs/guide/</loc>' mk/site/sitemap.xml
"$bin/sitemap-plugins" check mk/site --base-url https://example.org/docs/

echo "== Pelican: PLUGINS = [\"sitemap_plugins.pelican\"] =="
mkdir -p pel/content/pages
cat >pel/pelicanconf.py <<'EOF'
SITENAME = "Wheel check"
SITEURL = "https://blog.example.org"
PATH = "content"
TIMEZONE = "UTC"
FEED_ALL_ATOM = None
CATEGORY_FEED_ATOM = None
PLUGINS = ["sitemap_plugins.pelican"]
EOF
printf 'Title: First post\nDate: 2024-05-01\nCategory: news\n\nHello.\n' >pel/content/first.md
printf 'Title: About\n\nAbout this blog.\n' >pel/content/pages/about.md
(cd pel && "$bin/pelican" content -s pelicanconf.py -o output --fatal warnings -q)
grep -q '<loc>https://blog.example.org/first-post.html</loc>' pel/output/sitemap.xml
"$bin/sitemap-plugins" check pel/output --base-url https://blog.example.org/
cd "$root"
echo "== The wheel installs and runs: $(basename "$wheel") =="
