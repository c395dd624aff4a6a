"""The files a Markdown page includes, found as pymdownx.snippets and mkdocstrings find them.

Literal Markdown against small files in ``tmp_path``; no host runs (the real MkDocs build that
dates a page by them is in ``test_adapter_mkdocs.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from sitemap_plugins.markdown_includes import documented_files, snippet_bases, snippet_files

if TYPE_CHECKING:
    from pathlib import Path


def test_snippets_are_found_as_the_extension_finds_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One-line and block includes are found against each base in turn, with line ranges and
    sections cut off, nested includes followed; escaped marks and URLs are not files."""
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "a.md").write_text("--8<-- 'nested.md'\n", "utf-8")
    (tmp_path / "snippets" / "nested.md").write_text("Nested.\n", "utf-8")
    (tmp_path / "b.md").write_text("B.\n", "utf-8")
    (tmp_path / "c.md").write_text("C.\n", "utf-8")
    (tmp_path / "d.md").write_text("D.\n", "utf-8")
    markdown = ("Text.\n--8<-- 'a.md'\n--8<-- \"b.md:2:5\"\n;--8<-- 'c.md'\n"
                "--8<--\nd.md\n;c.md\nhttps://example.org/x.md\n--8<--\n")
    monkeypatch.chdir(tmp_path)  # base_path is relative to where the build runs
    found = snippet_files(markdown, snippet_bases(["snippets", "."]))
    assert found == [str(tmp_path / "snippets" / "a.md"), str(tmp_path / "snippets" / "nested.md"),
                     str(tmp_path / "b.md"), str(tmp_path / "d.md")]
    assert snippet_files("No include here.\n", [str(tmp_path)]) == []


def test_snippet_bases_take_a_path_or_a_list(tmp_path: Path) -> None:
    """``base_path`` is one path or a list of them, made absolute; anything else is none."""
    assert snippet_bases(str(tmp_path)) == [str(tmp_path)]
    assert snippet_bases([str(tmp_path), 3]) == [str(tmp_path)]
    assert snippet_bases(None) == []
    assert snippet_bases(7) == []


def test_documented_modules_are_found_without_importing_them(tmp_path: Path) -> None:
    """``::: package.module.Object`` names the module's source file, found on the search path;
    the module is never imported (it would raise here)."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", "utf-8")
    (package / "mod.py").write_text("raise SystemExit('imported')\n", "utf-8")
    markdown = "# API\n\n::: pkg.mod.Thing\n\n## ::: pkg\n\n::: missing.module\n"
    assert documented_files(markdown, [str(tmp_path)]) == [
        str(package / "mod.py"), str(package / "__init__.py")]
    assert documented_files("No identifier.\n", [str(tmp_path)]) == []
