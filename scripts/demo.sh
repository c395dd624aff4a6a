#!/usr/bin/env bash
# The main job on the sample sites: build each with its real host (or the command line),
# print the sitemap it got, and check it against the protocol. Installs only what the sample
# sites use (no test tools, no browser): scripts/test.sh installs the rest.
set -euo pipefail
SETUP_FOR=demo source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
bin=.venv/bin

echo "== Trap site (command line) =="
rm -rf sample_sites/traps/out
$bin/python sample_sites/traps/make_site.py --out sample_sites/traps/out >/dev/null
$bin/sitemap-plugins build sample_sites/traps/out --base-url https://example.org/ --html-sitemap sitemap/
$bin/sitemap-plugins check sample_sites/traps/out --base-url https://example.org/

if [ -f sample_sites/mkdocs/source/mkdocs.yml ] && $bin/python -c "import sitemap_plugins.mkdocs" 2>/dev/null; then
  echo; echo "== MkDocs sample site (mkdocs build) =="
  rm -rf sample_sites/mkdocs/out
  $bin/mkdocs build --strict -f sample_sites/mkdocs/source/mkdocs.yml -d ../out
  cat sample_sites/mkdocs/out/sitemap.xml
  $bin/sitemap-plugins check sample_sites/mkdocs/out --base-url https://example.org/project/
fi

if [ -f sample_sites/pelican/source/pelicanconf.py ] && $bin/python -c "import sitemap_plugins.pelican" 2>/dev/null; then
  echo; echo "== Pelican sample site (pelican) =="
  rm -rf sample_sites/pelican/out
  (cd sample_sites/pelican/source && ../../../$bin/pelican content -s pelicanconf.py -o ../out --fatal warnings -q)
  cat sample_sites/pelican/out/sitemap.xml
  $bin/sitemap-plugins check sample_sites/pelican/out --base-url https://blog.example.org/
fi

if [ -f sample_sites/sphinx/source/conf.py ] && $bin/python -c "import sitemap_plugins.sphinx" 2>/dev/null; then
  echo; echo "== Sphinx sample site (sphinx-build, html and dirhtml) =="
  rm -rf sample_sites/sphinx/out
  $bin/sphinx-build -q -W -b html sample_sites/sphinx/source sample_sites/sphinx/out/html
  cat sample_sites/sphinx/out/html/sitemap.xml
  $bin/sitemap-plugins check sample_sites/sphinx/out/html --base-url https://docs.example.org/sample/
  $bin/sphinx-build -q -W -j auto -b dirhtml sample_sites/sphinx/source sample_sites/sphinx/out/dirhtml
  cat sample_sites/sphinx/out/dirhtml/sitemap.txt
  $bin/sitemap-plugins check sample_sites/sphinx/out/dirhtml --base-url https://docs.example.org/sample/
fi

if $bin/python -c "import material, sitemap_plugins.mkdocs" 2>/dev/null; then
  echo; echo "== This project's documentation site (mkdocs build --strict, our own plugin) =="
  rm -rf build/docs-site
  NO_MKDOCS_2_WARNING=1 $bin/mkdocs build --strict -f mkdocs.yml
  $bin/sitemap-plugins check build/docs-site --base-url https://sitemap-plugins.example.org/
fi

echo; echo "== One index over the builds below a root (merge) =="
# Builds made apart, as parallel CI jobs would: the trap site as the root's own pages, then the
# MkDocs sample (built above for https://example.org/project/) copied into its folder.
demo=$(mktemp -d)
root="$demo/public"
$bin/python sample_sites/traps/make_site.py --out "$root" >/dev/null
$bin/sitemap-plugins -q build "$root" --base-url https://example.org/ --cache-dir "$demo/cache" 2>/dev/null
if [ -d sample_sites/mkdocs/out ]; then cp -r sample_sites/mkdocs/out "$root/project"; fi
$bin/sitemap-plugins merge "$root" --base-url https://example.org/
cat "$root/sitemap.xml"
$bin/sitemap-plugins check "$root" --base-url https://example.org/
rm -rf "$demo"
