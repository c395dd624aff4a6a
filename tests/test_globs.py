"""Glob semantics for include, exclude and rules."""

from __future__ import annotations

import pytest

from sitemap_plugins.vocab.globs import GlobSet


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("blog/**", "blog/a/b.html", True),
        ("blog/**", "blogs/a.html", False),
        ("blog/*.html", "blog/a.html", True),
        ("blog/*.html", "blog/x/a.html", False),
        ("**/404.html", "404.html", True),
        ("**/404.html", "a/b/404.html", True),
        ("/drafts/", "drafts/plan/index.html", True),
        ("drafts/", "drafts", False),
        ("page?.html", "page1.html", True),
        ("page[!0-9].html", "page1.html", False),
        ("a[b.html", "a[b.html", True),
        ("*.pdf", "x.pdf", True),
    ],
)
def test_glob(pattern: str, path: str, matches: bool) -> None:
    """``*`` stays in a segment, ``**`` crosses them, a trailing ``/`` means below."""
    assert (GlobSet((pattern,)).first_match(path) is not None) is matches


def test_first_match_index() -> None:
    """The index of the first matching pattern is returned."""
    assert GlobSet(("a/**", "**")).first_match("b/c.html") == 1
