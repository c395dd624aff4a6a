"""A walk cut at a path: the part before it and the part from it on make the whole walk.

Two processes share an untouched rebuild's walk this way (see ``untouched.py``), so every
file and every report must fall on exactly one side, in the whole walk's order, whether the
path to cut at exists or not.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_plugins.errors import Diagnostic
from sitemap_plugins.scan import BuiltFile, scan_site

# Names that the walk order treats apart: index pages (two spellings), other pages, files
# that are not pages, hidden entries, and a folder named like a page.
FILE_NAMES = ("index.html", "index.htm", "Index.HTML", "a.html", "b.htm", "B.html", "c.pdf",
              ".hidden.html", "z.txt")
FOLDER_NAMES = ("a", "b", "B", "index.html", ".git", "zz")
QUICK = settings(max_examples=60, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture,
                                        HealthCheck.too_slow])


@st.composite
def trees(draw: st.DrawFn, depth: int = 0) -> dict[str, object]:
    """A folder: file names to None, folder names to folders."""
    tree: dict[str, object] = {}
    for name in draw(st.lists(st.sampled_from(FILE_NAMES), max_size=4, unique=True)):
        tree[name] = None
    if depth < 3:
        for name in draw(st.lists(st.sampled_from(FOLDER_NAMES), max_size=3, unique=True)):
            tree[name] = draw(trees(depth + 1))
    return tree


def _make(folder: Path, tree: dict[str, object]) -> list[str]:
    """Create ``tree`` under ``folder``; return every relative path in it."""
    paths: list[str] = []
    for name, child in tree.items():
        if isinstance(child, dict):
            (folder / name).mkdir()
            paths.append(name)
            paths.extend(f"{name}/{rel}" for rel in _make(folder / name, child))
        else:
            (folder / name).write_bytes(b"<p>x</p>")
            paths.append(name)
    return paths


def _walk(root: Path, **cut: str) -> tuple[list[BuiltFile], list[tuple[str, str, str]]]:
    reports: list[tuple[str, str, str]] = []

    def on_skip(rel: str, reason: str, diagnostic: Diagnostic | None) -> None:
        reports.append((rel, reason, str(diagnostic)))

    files = list(scan_site(str(root), extensions=(".html", ".htm", ".pdf"),
                           sitemap_name="sitemap", directory_urls=True, on_skip=on_skip, **cut))
    return files, reports


def _assert_halves(root: Path, path: str) -> None:
    whole = _walk(root)
    before = _walk(root, before_path=path)
    after = _walk(root, from_path=path)
    assert before[0] + after[0] == whole[0], path
    assert before[1] + after[1] == whole[1], path


@QUICK
@given(tree=trees(), picks=st.lists(st.integers(min_value=0), min_size=1, max_size=4),
       invented=st.lists(st.sampled_from(("a", "b", "index.html", "m", "0", "~")),
                         min_size=1, max_size=4))
def test_the_two_sides_of_a_cut_make_the_whole_walk(
    tree: dict[str, object], picks: list[int], invented: list[str]
) -> None:
    """At paths of the tree, below them, and at paths that do not exist."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        paths = _make(root, tree)
        cuts = ["/".join(invented), "index.html", "zz/zz/zz"]
        for pick in picks:
            if paths:
                chosen = paths[pick % len(paths)]
                cuts += [chosen, f"{chosen}/index.html", f"{chosen}/m.html"]
        for path in cuts:
            _assert_halves(root, path)


def test_a_cut_through_a_link_and_an_unreadable_folder_reports_each_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder on the way to the cut is walked by both sides; only one reports it."""
    root = tmp_path / "site"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.html").write_bytes(b"x")
    for name in ("a", "b", "c"):
        (root / name).mkdir(parents=True)
        (root / name / "index.html").write_bytes(b"x")
    (root / "link").symlink_to(outside)  # leaves the site
    (root / "loop").symlink_to(root)  # back to a parent
    (root / "b" / "locked").mkdir()
    (root / "b" / "locked" / "p.html").write_bytes(b"x")
    real_scandir = os.scandir

    def scandir(path: str) -> object:  # a permission test that holds when run as root too
        if str(path).endswith(os.sep + "locked"):
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    _, whole_reports = _walk(root)
    assert {(rel, reason) for rel, reason, _ in whole_reports} == {
        ("link", "symlink out of the site"), ("loop", "symlink out of the site"),
        ("b/locked", "unreadable")}
    for path in ("link/x.html", "loop/a/index.html", "b/locked/p.html", "b/locked/q/r.html",
                 "b/locked", "c/index.html", "b/index.html"):
        _assert_halves(root, path)
