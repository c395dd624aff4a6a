"""Versioned docs for real: ``mike deploy`` of two versions built by the MkDocs plugin, merged."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import validate_sitemap_file
from lxml import etree

from sitemap_plugins.cli import main

pytestmark = pytest.mark.integration

BASE = "https://example.org/"
GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.org",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.org",
}
SITEMAP_PLUGIN = """  - sitemap:
      cache_dir: ../cache
      git_dates: false
"""
MIKE_PLUGIN = """  - mike:
      canonical_version: {canonical}
"""
CONFIG = """site_name: Versioned
site_url: {site_url}
theme:
  name: material
plugins:
"""


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    env.update(GIT_ENV)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["NO_MKDOCS_2_WARNING"] = "1"
    env["DISABLE_MKDOCS_2_WARNING"] = "true"
    env["GIT_CEILING_DIRECTORIES"] = str(tmp)
    return env


def _run(cwd: Path, *args: str) -> str:
    done = subprocess.run(list(args), cwd=cwd, env=_env(cwd.parent), capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def _deploy(tmp_path: Path, *, site_url: str, canonical: str, mike_first: bool = False) -> Path:
    """Two versions deployed by mike (1.0; then 2.0 with a new page, alias latest)."""
    project = tmp_path / "project"
    (project / "docs").mkdir(parents=True)
    plugins = [SITEMAP_PLUGIN, MIKE_PLUGIN.format(canonical=canonical)]
    (project / "mkdocs.yml").write_text(
        CONFIG.format(site_url=site_url) + "".join(plugins[::-1] if mike_first else plugins))
    (project / "docs" / "index.md").write_text("# Home\n\nWelcome.\n")
    (project / "docs" / "guide.md").write_text("# Guide\n\nHow to.\n")
    _run(project, "git", "init", "-q", "-b", "main")
    _run(project, "git", "add", ".")
    _run(project, "git", "commit", "-qm", "1.0")
    _run(project, str(Path(sys.executable).parent / "mike"), "deploy", "1.0")
    (project / "docs" / "new.md").write_text("# New\n\nOnly in 2.0.\n")
    _run(project, "git", "add", ".")
    _run(project, "git", "commit", "-qm", "2.0")
    _run(project, str(Path(sys.executable).parent / "mike"), "deploy", "2.0", "latest",
         "--update-aliases")
    root = tmp_path / "gh-pages"
    _run(project, "git", "worktree", "add", "-q", str(root), "gh-pages")
    return root


def _canonical(page: Path) -> str:
    document = etree.parse(str(page), etree.HTMLParser())
    return str(document.xpath("//link[@rel='canonical']/@href")[0])


@pytest.fixture(scope="module")
def deployed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """mike with canonical_version: latest, the shape most versioned sites use."""
    return _deploy(tmp_path_factory.mktemp("mike"), site_url=BASE, canonical="latest")


def test_each_version_lists_its_own_pages(deployed: Path, xsd) -> None:
    """canonical_version points canonicals at latest/, yet each version lists its own URLs."""
    assert _canonical(deployed / "1.0" / "guide" / "index.html") == f"{BASE}latest/guide/"
    assert validate_sitemap_file(deployed / "1.0" / "sitemap.xml", xsd) == (
        "urlset", [f"{BASE}1.0/", f"{BASE}1.0/guide/"])
    assert validate_sitemap_file(deployed / "2.0" / "sitemap.xml", xsd) == (
        "urlset", [f"{BASE}2.0/", f"{BASE}2.0/guide/", f"{BASE}2.0/new/"])
    assert (deployed / "latest").is_symlink()


def test_merge_offers_latest_only(deployed: Path, xsd, capsys) -> None:
    """The root index names 2.0 (what latest points to); 1.0 keeps its own sitemap."""
    assert main(["merge", str(deployed), "--base-url", BASE]) == 0
    out = capsys.readouterr().out
    assert validate_sitemap_file(deployed / "sitemap.xml", xsd) == (
        "sitemapindex", [f"{BASE}2.0/sitemap.xml"])
    assert "Not offered to crawlers (other versions, own sitemaps kept): 1.0" in out
    assert main(["check", str(deployed), "--base-url", BASE]) == 0


def test_project_pages_below_the_host_root(tmp_path: Path, xsd, capsys) -> None:
    """site_url with a path and no canonical_version: versions under it, a fragment at ROOT."""
    base = f"{BASE}project/"
    root = _deploy(tmp_path, site_url=base, canonical="null")
    assert _canonical(root / "1.0" / "index.html") == f"{base}1.0/"
    assert validate_sitemap_file(root / "1.0" / "sitemap.xml", xsd)[1][0] == f"{base}1.0/"
    assert main(["merge", str(root), "--base-url", base, "--versions", "*"]) == 0
    capsys.readouterr()
    assert validate_sitemap_file(root / "sitemap.xml", xsd) == (
        "sitemapindex", [f"{base}1.0/sitemap.xml", f"{base}2.0/sitemap.xml"])
    assert (root / "robots-sitemap.txt").read_text("ascii").endswith(
        f"Sitemap: {base}sitemap.xml\n")


def test_plugin_order_does_not_matter(tmp_path: Path, xsd) -> None:
    """mike listed before the sitemap plugin (it changes site_url first): the same sitemaps."""
    root = _deploy(tmp_path, site_url=BASE, canonical="latest", mike_first=True)
    assert validate_sitemap_file(root / "1.0" / "sitemap.xml", xsd) == (
        "urlset", [f"{BASE}1.0/", f"{BASE}1.0/guide/"])
