"""Another installed distribution registering a MkDocs plugin named ``sitemap``.

No published MkDocs plugin uses the name today (docs/mkdocs.md, "Another plugin named
sitemap"), but nothing stops one. MkDocs keeps one entry point a name: the one found last
along sys.path, without a word. These tests pin what a user with both installed sees, with a
made-up distribution, ``other-sitemap``, in a folder put before or after the environment's
site-packages.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration
pytest.importorskip("mkdocs")

OURS = "sitemap_plugins.mkdocs:SitemapPlugin"
THEIRS = "other_sitemap:OtherSitemapPlugin"


@pytest.fixture
def other(tmp_path: Path) -> Path:
    """A folder holding the other distribution: its metadata and its plugin module."""
    folder = tmp_path / "other"
    info = folder / "other_sitemap-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: other-sitemap\nVersion: 1.0\n", "utf-8")
    (info / "entry_points.txt").write_text(f"[mkdocs.plugins]\nsitemap = {THEIRS}\n", "utf-8")
    (folder / "other_sitemap.py").write_text(
        "from pathlib import Path\nfrom mkdocs.plugins import BasePlugin\n\n\n"
        "class OtherSitemapPlugin(BasePlugin):\n"
        "    def on_post_build(self, *, config):\n"
        "        Path(config['site_dir'], 'other-sitemap-ran.txt').write_text('yes')\n", "utf-8")
    return folder


def _python(other: Path, where: str, code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``code`` with the other distribution's folder first or last on sys.path."""
    place = f"sys.path.insert(0, {str(other)!r})" if where == "first" else (
        f"sys.path.append({str(other)!r})")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true",
           "GIT_CEILING_DIRECTORIES": str(cwd)}
    return subprocess.run([sys.executable, "-c", f"import sys\n{place}\n{code}"], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize(("where", "winner"), [("first", OURS), ("last", THEIRS)],
                         ids=["other-first-on-path", "other-last-on-path"])
def test_mkdocs_keeps_the_entry_point_found_last(other: Path, tmp_path: Path, where: str,
                                                 winner: str) -> None:
    """With two ``sitemap`` entry points, MkDocs' plugin table holds the one found last on
    sys.path; the other is dropped."""
    done = _python(other, where, "from mkdocs.plugins import get_plugins\n"
                                 "print(get_plugins()['sitemap'].value)", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == winner


def test_a_build_with_the_other_plugin_winning_says_nothing(other: Path, tmp_path: Path) -> None:
    """When the other plugin wins, ``plugins: [sitemap]`` builds without an error or a warning:
    its plugin runs, ours does not, and MkDocs writes its own sitemap (no sitemap.txt, no line
    from sitemap_plugins), which is how a user can tell."""
    project = tmp_path / "project"
    (project / "docs").mkdir(parents=True)
    (project / "mkdocs.yml").write_text(
        "site_name: Clash\nsite_url: https://example.org/\nplugins: [sitemap]\n", "utf-8")
    (project / "docs" / "index.md").write_text("# Home\n", "utf-8")
    done = _python(other, "last", "from mkdocs.__main__ import cli\n"
                                  "cli(['build', '--strict'])", project)
    log = done.stdout + done.stderr
    assert done.returncode == 0, log
    assert "WARNING" not in log
    assert "sitemap_plugins" not in log
    site = project / "site"
    assert (site / "other-sitemap-ran.txt").is_file()
    assert not (site / "sitemap.txt").exists()
    assert b"<lastmod>" in (site / "sitemap.xml").read_bytes()  # MkDocs' build-date sitemap
