"""The wheel ships the templates and works without MkDocs or Pelican installed."""

from __future__ import annotations

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


def test_readme_documents_every_option() -> None:
    """The README's options table is the one the option table makes: no option missing or stale."""
    from sitemap_plugins.vocab.options import options_markdown  # noqa: PLC0415

    readme = (ROOT / "README.md").read_text("utf-8")
    start = readme.index("-->\n", readme.index("<!-- options:")) + 4
    end = readme.index("<!-- options: end -->")
    assert readme[start:end] == options_markdown()
