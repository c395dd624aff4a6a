"""The files a Markdown page includes, found as pymdownx.snippets and mkdocstrings find them.

Literal Markdown against small files in ``tmp_path``; no host runs (the real MkDocs build that
dates a page by them is in ``test_adapter_mkdocs.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from sitemap_plugins.hosts.markdown_includes import (
    click_files,
    documented_files,
    page_includes,
    snippet_bases,
    snippet_files,
)

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


def test_click_modules_are_found_whole_packages_included(tmp_path: Path) -> None:
    """``::: mkdocs-click`` with ``:module:``: a module names its file; a package names every
    module in it (a group gathers its commands there, as hatch.cli does); nothing is
    imported; other options, a block that has ended and a missing module name nothing."""
    package = tmp_path / "tool" / "cli"
    package.mkdir(parents=True)
    (tmp_path / "tool" / "__init__.py").write_text("", "utf-8")
    (package / "__init__.py").write_text("raise SystemExit('imported')\n", "utf-8")
    (package / "build.py").write_text("", "utf-8")
    (package / "sub").mkdir()
    (package / "sub" / "run.py").write_text("", "utf-8")
    (package / "notes.txt").write_text("", "utf-8")
    (tmp_path / "main.py").write_text("", "utf-8")
    markdown = ("::: mkdocs-click\n    :module: tool.cli\n    :command: main\n\n"
                "::: mkdocs-click\n    :command: x\n    :module: main\n"
                "::: mkdocs-click\n    :module: missing.cli\n"
                "Text.\n    :module: tool\n")
    assert click_files(markdown, [str(tmp_path)]) == [
        str(package / "__init__.py"), str(package / "build.py"), str(package / "sub" / "run.py"),
        str(tmp_path / "main.py")]
    assert click_files("::: tool.cli\n", [str(tmp_path)]) == []


def test_page_includes_asks_only_what_is_on(tmp_path: Path) -> None:
    """Each kind of include counts only with its extension or plugin on."""
    (tmp_path / "tool.py").write_text("", "utf-8")
    (tmp_path / "part.md").write_text("Part.\n", "utf-8")
    markdown = "--8<-- 'part.md'\n\n::: tool.thing\n\n::: mkdocs-click\n    :module: tool\n"
    everything = page_includes(
        markdown, extensions=["pymdownx.snippets", "mkdocs-click"],
        mdx_configs={"pymdownx.snippets": {"base_path": [str(tmp_path)]}},
        mkdocstrings={"handlers": {"python": {"paths": ["."]}}}, config_dir=str(tmp_path))
    assert everything == [str(tmp_path / "part.md"), str(tmp_path / "tool.py")]
    assert page_includes(markdown, extensions=[], mdx_configs={}, mkdocstrings=None,
                         config_dir=str(tmp_path)) == []
