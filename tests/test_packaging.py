"""The wheel ships the templates and works without MkDocs or Pelican installed."""

from __future__ import annotations

import re
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_core_import_leaves_hosts_out() -> None:
    """Importing the core and the CLI (and every command's module) imports no host: not
    mkdocs, pelican or sphinx."""
    code = ("import sys, sitemap_plugins, sitemap_plugins.cli, sitemap_plugins.products.merge.merger, "
            "sitemap_plugins.products.check.checker, sitemap_plugins.products.submit; print(sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('mkdocs', 'pelican', 'sphinx', 'docutils')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_build_does_not_load_the_network_stack() -> None:
    """Only ``submit`` talks to the network: a build (every MkDocs and Pelican build imports
    the core) does not pay for loading http.client and ssl, about 9 ms a process."""
    code = ("import sys, sitemap_plugins, sitemap_plugins.cli, sitemap_plugins.products.build.pipeline; "
            "print(sorted(m for m in ('ssl', 'http.client', 'urllib.request') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.integration
def test_wheel_installs_and_runs(tmp_path: Path) -> None:
    """A wheel built from the tree, in a fresh venv without hosts, builds the trap site."""
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist),
                    str(ROOT)], check=True)
    wheel = next(dist.glob("sitemap_plugins-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "sitemap_plugins/templates/urlset.xml" in names
    assert "sitemap_plugins/templates/sitemapindex.xml" in names
    assert "sitemap_plugins/py.typed" in names
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    str(wheel)], check=True)
    site = tmp_path / "site"
    subprocess.run([sys.executable, str(ROOT / "sample_sites" / "traps" / "make_site.py"),
                    "--out", str(site)], check=True, capture_output=True)
    # Run from an empty folder so that the source tree cannot be imported by accident.
    done = subprocess.run(
        [str(env_dir / "bin" / "sitemap-plugins"), "build", str(site), "--base-url",
         "https://example.org/"], capture_output=True, text=True, check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Listed 36 URLs" in done.stdout
    expected = (ROOT / "sample_sites" / "traps" / "expected" / "sitemap.xml").read_bytes()
    assert (site / "sitemap.xml").read_bytes() == expected
    check = subprocess.run(
        [str(python), "-c", ("import sys, sitemap_plugins; "
                             "assert not {'mkdocs', 'pelican', 'sphinx'} & set(sys.modules); "
                             "import importlib.util as u; "
                             "print(u.find_spec('mkdocs'), u.find_spec('pelican'), "
                             "u.find_spec('sphinx'))")],
        capture_output=True, text=True, check=True, cwd=tmp_path)
    assert check.stdout.strip() == "None None None"


def test_options_page_documents_every_option() -> None:
    """docs/options.md's table is the one the option table makes: no option missing or stale;
    the README links it (and stays a page: at most 120 lines)."""
    from sitemap_plugins.vocab.options import options_markdown  # noqa: PLC0415

    page = (ROOT / "docs" / "options.md").read_text("utf-8")
    start = page.index("-->\n", page.index("<!-- options:")) + 4
    end = page.index("<!-- options: end -->")
    assert page[start:end] == options_markdown()
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "[docs/options.md](docs/options.md)" in readme
    assert len(readme.splitlines()) <= 120  # the README is a page


def test_the_demo_installs_no_browser_and_says_what_setup_does() -> None:
    """``bash scripts/demo.sh`` sets up only what the sample sites use (the ``demo`` group, no
    Chromium: a silent apt-get took most of a first run's 344 s); the test command's set-up
    installs Chromium, and every step of the set-up says what it does."""
    setup = (ROOT / "scripts" / "setup.sh").read_text("utf-8")
    demo = (ROOT / "scripts" / "demo.sh").read_text("utf-8")
    assert re.search(r'^SETUP_FOR=demo source "\$\(dirname .*/setup.sh"$', demo, re.MULTILINE)
    assert 'source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"' in (
        ROOT / "scripts" / "test.sh").read_text("utf-8")
    browser = setup[setup.index("if [ "):setup.index("\nfi\n")]
    assert browser.startswith('if [ "$group" = test ]')
    assert 'echo "setup: installing Chromium' in browser
    assert setup.count('echo "setup: ') == 4  # Chromium (or why not), the venv, the packages
    assert '--group "$group"' in setup
