"""Drivers for the host tests: the same pages, built by real MkDocs or real Pelican.

Each driver writes :class:`Page` values in its host's source format (MkDocs front matter,
Pelican metadata) at the same URLs (``/``, ``/about/``...), runs the real host in a
subprocess with a given ``SOURCE_DATE_EPOCH``, and hands back what the build wrote. Used by
``test_host_scenarios.py`` and ``test_byte_identity.py``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import pytest
from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = {host: ROOT / "sample_sites" / host / "source" for host in ("mkdocs", "pelican")}
BASE = "https://example.org/"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
SOURCE_TIME = 1_600_000_000  # what the sources' mtimes are set to by a touch


# -- The pages and the edits ---------------------------------------------------------------------

@dataclass(frozen=True)
class Page:
    """One page, as both hosts write it: at ``/`` for ``home``, else at ``/<name>/``."""

    name: str
    title: str
    text: str
    date: str = ""
    """When it was published, the host's own date (MkDocs ``date:``, Pelican ``Date:``);
    a later change the manifest saw overrules it."""
    lastmod: str = ""
    """The author's word on its last change (MkDocs ``sitemap: lastmod:``, Pelican
    ``Modified:``); nothing overrules it."""


HOME = Page("home", "Home", "Welcome.")
ABOUT = Page("about", "About", "Who we are.")
NEWS = Page("news", "News", "A dated page.", date="2024-05-06")
TUNING = Page("tuning", "Tuning", "How to tune it.", lastmod="2023-12-24")
FAQ = Page("faq", "FAQ", "Asked often.")
PAGES = (HOME, ABOUT, NEWS, TUNING)


@dataclass(frozen=True)
class Edit:
    """What happens to the sources before a build; each field is one kind of edit."""

    write: tuple[Page, ...] = ()
    """Pages written (new, or replacing the page of the same name)."""
    remove: tuple[str, ...] = ()
    touch: bool = False
    """Give every source file a new mtime, so nothing can lean on file times."""
    drop_cache: bool = False
    """Delete the cache folder (the manifest with it)."""


# -- The drivers -------------------------------------------------------------------------------

@dataclass
class Build:
    """What one host run left behind: exit code, log, sitemap files and changes report."""

    returncode: int
    log: str
    files: dict[str, bytes]
    changes: dict[str, object]

    def lastmods(self) -> dict[str, str | None]:
        """URL -> lastmod text (None when there is none), for every URL of sitemap.xml."""
        root = etree.fromstring(self.files["sitemap.xml"])
        return {url.findtext("s:loc", namespaces=NS) or "": url.findtext("s:lastmod",
                                                                         namespaces=NS)
                for url in root.iterfind("s:url", NS)}


class Driver(Protocol):
    """A host: writes the pages in its source format, builds, and says how it dates."""

    name: str
    project: Path
    """The folder the build runs in (the cache folder is beside it by default)."""
    output: Path

    def write(self, page: Page) -> None: ...
    def remove(self, name: str) -> None: ...
    def build(self, epoch: int) -> subprocess.CompletedProcess[str]: ...
    def own_date(self, page: Page) -> str: ...


def _env(epoch: int, project: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    env.update(
        SOURCE_DATE_EPOCH=str(epoch), COLUMNS="1000",  # one log record a line
        NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true",
        # No git dates: the copy is outside any repository, whatever surrounds tmp.
        GIT_CEILING_DIRECTORIES=str(project.parent),
        PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    return env


@dataclass
class MkDocs:
    """``mkdocs build --strict`` of a project in MkDocs' own theme."""

    project: Path
    source: Path | None = None
    """A project to copy and build (``SAMPLE["mkdocs"]``: Material, i18n, redirects), with
    ``changes_file: changes.json`` added to its sitemap plugin; else one is made here."""
    name: str = "mkdocs"
    output: Path = field(init=False)

    def __post_init__(self) -> None:
        pytest.importorskip("mkdocs")
        self.output = self.project / "site"
        if self.source is not None:
            if self.source == SAMPLE["mkdocs"]:
                for plugin in ("material", "mkdocs_static_i18n", "mkdocs_redirects"):
                    pytest.importorskip(plugin)
            shutil.copytree(self.source, self.project,
                            ignore=shutil.ignore_patterns("site", ".sitemap-cache"))
            config = self.project / "mkdocs.yml"
            text = config.read_text("utf-8")
            if "changes_file" not in text:
                assert "  - sitemap\n" in text
                config.write_text(text.replace(
                    "  - sitemap\n", "  - sitemap:\n      changes_file: changes.json\n"), "utf-8")
            return
        (self.project / "docs").mkdir(parents=True)
        (self.project / "mkdocs.yml").write_text(
            f"site_name: Scenario\nsite_url: {BASE}\ntheme:\n  name: mkdocs\n"
            "plugins:\n  - sitemap:\n      changes_file: changes.json\n", "utf-8")

    def _source(self, name: str) -> Path:
        return self.project / "docs" / ("index.md" if name == "home" else f"{name}.md")

    def write(self, page: Page) -> None:
        front = []
        if page.date:
            front.append(f"date: {page.date}")
        if page.lastmod:
            front.append(f"sitemap:\n  lastmod: {page.lastmod}")
        head = "---\n" + "\n".join(front) + "\n---\n\n" if front else ""
        self._source(page.name).write_text(f"{head}# {page.title}\n\n{page.text}\n", "utf-8")

    def remove(self, name: str) -> None:
        self._source(name).unlink()

    def build(self, epoch: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", "mkdocs.yml"],
            cwd=self.project, env=_env(epoch, self.project), capture_output=True, text=True,
            timeout=180, check=False)

    def own_date(self, page: Page) -> str:
        return page.lastmod or page.date  # a YAML date: the day alone


@dataclass
class Pelican:
    """``pelican --fatal warnings`` of pages only (no articles, so no listings), at the URLs
    the MkDocs driver's pages have."""

    project: Path
    source: Path | None = None
    """A site to copy and build (``SAMPLE["pelican"]``: articles, listings, translations),
    with ``changes_file`` set; else one of pages only is made here."""
    name: str = "pelican"
    output: Path = field(init=False)

    def __post_init__(self) -> None:
        pytest.importorskip("pelican")
        self.output = self.project / "output"
        if self.source is not None:
            shutil.copytree(self.source, self.project, ignore=shutil.ignore_patterns(
                "output", "__pycache__", ".sitemap-cache", "cache"))
            with (self.project / "pelicanconf.py").open("a", encoding="utf-8") as config:
                config.write('\nSITEMAP_PLUGINS = {"changes_file": "changes.json"}\n')
            return
        (self.project / "content" / "pages").mkdir(parents=True)
        (self.project / "pelicanconf.py").write_text(
            f'SITENAME = "Scenario"\nSITEURL = "{BASE.rstrip("/")}"\nPATH = "content"\n'
            'TIMEZONE = "UTC"\nDEFAULT_LANG = "en"\nRELATIVE_URLS = False\n'
            'PAGE_URL = "{slug}/"\nPAGE_SAVE_AS = "{slug}/index.html"\nDIRECT_TEMPLATES = []\n'
            "FEED_ALL_ATOM = CATEGORY_FEED_ATOM = AUTHOR_FEED_ATOM = AUTHOR_FEED_RSS = None\n"
            "TRANSLATION_FEED_ATOM = None\n"
            'PLUGINS = ["sitemap_plugins.pelican"]\n'
            'SITEMAP_PLUGINS = {"changes_file": "changes.json"}\n', "utf-8")

    def _source(self, name: str) -> Path:
        return self.project / "content" / "pages" / f"{name}.md"

    def write(self, page: Page) -> None:
        meta = [f"Title: {page.title}", f"Slug: {page.name}"]
        if page.name == "home":
            meta += ["Save_as: index.html", "URL: "]
        if page.date:
            meta.append(f"Date: {page.date}")
        if page.lastmod:
            meta.append(f"Modified: {page.lastmod}")
        self._source(page.name).write_text("\n".join(meta) + f"\n\n{page.text}\n", "utf-8")

    def remove(self, name: str) -> None:
        self._source(name).unlink()

    def build(self, epoch: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pelican", "content", "-s", "pelicanconf.py", "-o", "output",
             "--fatal", "warnings", "--verbose", "-e", "DELETE_OUTPUT_DIRECTORY=true"],
            cwd=self.project, env=_env(epoch, self.project), capture_output=True, text=True,
            timeout=180, check=False)

    def own_date(self, page: Page) -> str:
        return f"{page.lastmod or page.date}T00:00:00Z"  # a Pelican date is a time, in UTC


DRIVERS: dict[str, type[MkDocs | Pelican]] = {"mkdocs": MkDocs, "pelican": Pelican}


def run_step(driver: Driver, edit: Edit, epoch: int) -> Build:
    """Make one edit to the sources, then build and keep what the build wrote."""
    for page in edit.write:
        driver.write(page)
    for name in edit.remove:
        driver.remove(name)
    if edit.touch:
        touch(driver.project)
    if edit.drop_cache:
        shutil.rmtree(driver.project / ".sitemap-cache")
    done = driver.build(epoch)
    changes_file = driver.project / "changes.json"
    changes = json.loads(changes_file.read_text("utf-8")) if changes_file.exists() else {}
    changes_file.unlink(missing_ok=True)  # each build's report stands alone
    files = {path.name: path.read_bytes() for path in sorted(driver.output.iterdir())
             if path.is_file() and (path.name == "robots.txt" or (
                 path.name.startswith("sitemap") and path.name.endswith((".xml", ".gz", ".txt"))))}
    return Build(done.returncode, done.stdout + done.stderr, files, changes)


def url_of(name: str) -> str:
    """Where both drivers publish a page."""
    return BASE if name == "home" else f"{BASE}{name}/"




def touch(folder: Path) -> None:
    """Give every file below ``folder`` a new mtime, so nothing can lean on file times."""
    for path in folder.rglob("*"):
        if path.is_file():
            os.utime(path, (SOURCE_TIME, SOURCE_TIME))
