"""``entry_hook`` (products/build/hook.py): a user's function per entry, in every front-end."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from sitemap_plugins.cli import main
from sitemap_plugins.products.build import pipeline
from tests.test_adapter_mkdocs import make_site, run_host
from tests.test_adapter_pelican import copy_site, pelican
from tests.test_adapter_sphinx import sample, sphinx_build

if TYPE_CHECKING:
    from pathlib import Path

BASE = "https://example.org/"
HOOKS = '''\
import dataclasses

IMAGE = "https://example.org/cover.png"


def entry(entry):
    """Priority by path, no drafts, one more image."""
    if "/drafts/" in entry.loc or entry.rel_path.startswith("drafts/"):
        return None
    priority = 1.0 if entry.rel_path == "index.html" else 0.3
    return dataclasses.replace(entry, priority=priority, images=(*entry.images, IMAGE))


def raises(entry):
    raise KeyError("no " + entry.rel_path)


def text(entry):
    return entry.loc


def off_site(entry):
    return dataclasses.replace(entry, loc="https://example.com/x")


def too_high(entry):
    return dataclasses.replace(entry, priority=2)


not_callable = 3
'''
PAGES = ("index.html", "guide.html", "drafts/plan.html", "drafts/ideas.html", "blog/one.html")


def _site(tmp_path: Path) -> Path:
    (tmp_path / "hooks.py").write_text(HOOKS, "utf-8")
    site = tmp_path / "site"
    for rel in PAGES:
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(f"<html><head><title>{rel}</title></head><body><main><p>{rel}"
                                "</p></main></body></html>", "utf-8")
    return site


def _urls(sitemap: str) -> list[tuple[str, str, list[str]]]:
    """(loc, priority, images) of each <url>."""
    return [(loc, priority, re.findall(r"<image:loc>(.*?)</image:loc>", rest)) for loc, priority,
            rest in re.findall(r"<loc>(.*?)</loc>\s*<priority>(.*?)</priority>(.*?)</url>",
                               sitemap, re.DOTALL)]


WANTED = [(BASE, "1.0", [f"{BASE}cover.png"]), (f"{BASE}guide.html", "0.3", [f"{BASE}cover.png"]),
          (f"{BASE}blog/one.html", "0.3", [f"{BASE}cover.png"])]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_hook_drops_changes_and_adds_in_worker_processes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: str) -> None:
    """The CLI imports the hook from the current folder, in each worker process too: drafts
    left out, priority by path, an image added; the same output with one or two workers."""
    site = _site(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(pipeline, "PARALLEL_THRESHOLD", 2)  # the pool reads these pages
    assert main(["-q", "build", str(site), "--base-url", BASE, "--workers", workers,
                 "--entry-hook", "hooks:entry", "--cache-dir", str(tmp_path / "cache")]) == 0
    text = (site / "sitemap.xml").read_text("utf-8")
    assert _urls(text) == WANTED
    assert "drafts" not in (site / "sitemap.txt").read_text("utf-8")


@pytest.mark.parametrize(("hook", "line"), [
    ("raises", "error: entry_hook hooks:raises: index.html: raised KeyError: 'no index.html'"),
    ("text", ("error: entry_hook hooks:text: index.html: expected the entry, a copy "
             "(dataclasses.replace) or None but received: 'https://example.org/' "
             "(str)")),
    ("off_site", ("error: entry_hook hooks:off_site: index.html: returned a bad entry: loc is "
                 "not a URL under https://example.org/: 'https://example.com/x' (str)")),
    ("too_high", ("error: entry_hook hooks:too_high: index.html: returned a bad entry: "
                 "priority: Expected a number from 0.0 to 1.0 but received: 2 (int)")),
    ("not_callable", ("error: --entry-hook: Expected a function 'not_callable' in {hooks} but "
                     "received: 3 (int)")),
    ("missing:entry", ("error: --entry-hook: Cannot import 'missing' (from {folder} or "
                      "sys.path): No module named 'missing'")),
], ids=["raises", "returns-text", "off-site", "priority-2", "not-callable", "no-module"])
def test_a_failing_hook_stops_the_run_and_writes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        hook: str, line: str) -> None:
    """One line naming the hook and the page (or the import problem); the old sitemap set
    stays byte for byte."""
    site = _site(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["-q", "build", str(site), "--base-url", BASE]) == 0
    before = {p.name: p.read_bytes() for p in site.iterdir() if p.is_file()}
    capsys.readouterr()
    spec = hook if ":" in hook else f"hooks:{hook}"
    code = main(["-q", "build", str(site), "--base-url", BASE, "--entry-hook", spec])
    err = capsys.readouterr().err
    assert code == (2 if "--entry-hook" in line else 1)
    assert err == line.format(hooks=tmp_path / "hooks.py", folder=tmp_path) + "\n"
    assert {p.name: p.read_bytes() for p in site.iterdir() if p.is_file()} == before


@pytest.mark.integration
def test_mkdocs_imports_the_hook_beside_mkdocs_yml(tmp_path: Path) -> None:
    """A real MkDocs build runs from another folder: the hook is found beside mkdocs.yml."""
    project = make_site(tmp_path / "project", (
        f"site_name: H\nsite_url: {BASE}\ntheme: mkdocs\n"
        "plugins:\n  - sitemap:\n      entry_hook: hooks:entry\n"),
        {"index.md": "# Home\n", "guide.md": "# Guide\n", "drafts/plan.md": "# Plan\n",
         "blog/one.md": "# One\n"})
    (project / "hooks.py").write_text(HOOKS, "utf-8")
    build = run_host(project, "--strict")
    assert build.returncode == 0, build.log
    assert _urls((build.site / "sitemap.xml").read_text("utf-8")) == [
        (BASE, "1.0", [f"{BASE}cover.png"]), (f"{BASE}blog/one/", "0.3", [f"{BASE}cover.png"]),
        (f"{BASE}guide/", "0.3", [f"{BASE}cover.png"])]
    (project / "mkdocs.yml").write_text((project / "mkdocs.yml").read_text("utf-8").replace(
        "hooks:entry", "hooks:raises"), "utf-8")
    failed = run_host(project)
    assert failed.returncode != 0
    assert "entry_hook hooks:raises: index.html: raised KeyError: 'no index.html'" in failed.log
    assert "Traceback" not in failed.log


@pytest.mark.integration
def test_pelican_and_sphinx_import_the_hook_beside_their_settings(tmp_path: Path) -> None:
    """pelicanconf.py's folder and conf.py's folder hold the hook; a bad spec has the same
    words as on the command line."""
    source = copy_site(tmp_path / "pelican")
    (source / "hooks.py").write_text(HOOKS, "utf-8")
    out = tmp_path / "pelican-out"
    build = pelican(source, out, 'SITEMAP_PLUGINS={"entry_hook": "hooks:entry"}')
    assert build.returncode == 0, build.log
    listed = _urls((out / "sitemap.xml").read_text("utf-8"))
    assert listed[0] == ("https://blog.example.org/", "1.0", ["https://example.org/cover.png"])
    assert {priority for _, priority, _ in listed[1:]} == {"0.3"}
    conf = sample(tmp_path / "sphinx", "sitemap_plugins['entry_hook'] = 'hooks:too_high'")
    (conf / "hooks.py").write_text(HOOKS, "utf-8")
    failed = sphinx_build(conf, tmp_path / "sphinx-out")
    assert failed.returncode != 0
    assert (": returned a bad entry: priority: Expected a number from 0.0 to 1.0 but received: 2 "
            "(int)") in failed.log, failed.log
    bad = sphinx_build(sample(tmp_path / "sphinx-bad", "sitemap_plugins['entry_hook'] = 'x'"),
                       tmp_path / "sphinx-bad-out")
    assert ("ERROR: sitemap_plugins['entry_hook']: Expected MODULE:FUNCTION such as "
            "'hooks:sitemap_entry' but received: 'x' (str)") in bad.log, bad.log
    # A module that is not there: the same words, and exit 1.
    gone = sample(tmp_path / "sphinx-gone", "sitemap_plugins['entry_hook'] = 'nohook:f'")
    missing = sphinx_build(gone, tmp_path / "sphinx-gone-out")
    assert (f"ERROR: sitemap_plugins['entry_hook']: Cannot import 'nohook' (from {gone} or "
            "sys.path): No module named 'nohook'") in missing.log, missing.log
