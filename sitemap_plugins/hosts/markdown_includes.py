"""The files a Markdown page includes: ``pymdownx.snippets``, mkdocstrings' and mkdocs-click's.

Their last commits date the page too (docs/lastmod.md). Markdown-level, no host object: it
reads included files, writes nothing, and finds modules without importing them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping

# pymdownx.snippets: "--8<-- 'file'" on a line, or a block of paths between two "--8<--".
_SNIPPET = re.compile(
    r"""^[ \t]*(?P<escape>;*)(?:-{1,}8<-{1,}[ \t]+(?P<q>["'])(?P<path>.+?)(?P=q)"""
    r"""|(?P<block>-{1,}8<-{1,}))[ \t]*\r?$""", re.MULTILINE)
# What may follow a snippet's path: line ranges (":2:5", ":3,7:9") or a section (":name").
_SNIPPET_PART = re.compile(
    r"(?i)(?:(?::-?[0-9]*){1,2}(?:,-?[0-9]*(?::-?[0-9]*)?)*|:[a-z][-_0-9a-z]*)$")
_MAX_SNIPPET_DEPTH = 4
# mkdocstrings: "::: package.module.Object" on a line of its own (after a heading mark or not).
_AUTODOC = re.compile(r"^(?:#{1,6} *)?::: ?(?P<name>[A-Za-z_][\w.]*) *$", re.MULTILINE)
# mkdocs-click: a "::: mkdocs-click" line, then indented ":key: value" lines; ":module:".
_CLICK_START = re.compile(r"::: mkdocs-click")
_CLICK_OPTION = re.compile(r"\s+:(?P<key>.+?):(?:\s+(?P<value>.*\S))?")
_MODULE_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
# A package's modules that date a command group documented from it: bounded, whatever it holds.
_MAX_PACKAGE_FILES = 1_000


def page_includes(markdown: str, *, extensions: Iterable[str], mdx_configs: Mapping[str, object],
                  mkdocstrings: Mapping[str, object] | None, config_dir: str) -> list[str]:
    """Every file ``markdown`` includes through the extensions and plugins that are on, once.

    ``extensions`` and ``mdx_configs``: MkDocs' ``markdown_extensions``; ``mkdocstrings``:
    that plugin's settings, None without it; ``config_dir``: the config file's folder.
    """
    if "8<-" not in markdown and ":::" not in markdown:
        return []
    names = set(extensions)
    found: list[str] = []
    if "8<-" in markdown and "pymdownx.snippets" in names:
        snippets = mdx_configs.get("pymdownx.snippets")
        base_path = snippets.get("base_path", ["."]) if isinstance(snippets, Mapping) else ["."]
        found.extend(snippet_files(markdown, snippet_bases(base_path)))
    if ":::" in markdown and mkdocstrings is not None:
        handlers = mkdocstrings.get("handlers")
        found.extend(documented_files(markdown, search_path(handlers, config_dir)))
    if ":::" in markdown and names & {"mkdocs-click", "mkdocs_click"}:
        # The extension imports the module: the config's folder first, then sys.path.
        found.extend(click_files(markdown, search_path(None, config_dir)))
    return list(dict.fromkeys(found))


def snippet_bases(base_path: object) -> list[str]:
    """pymdownx.snippets' ``base_path`` (a path or a list), absolute from the build's folder."""
    if isinstance(base_path, (str, os.PathLike)):
        bases: list[object] = [base_path]
    else:
        bases = list(base_path) if isinstance(base_path, Iterable) else []
    return [os.path.abspath(b) for b in bases if isinstance(b, (str, os.PathLike))]


def snippet_files(markdown: str, bases: list[str], depth: int = 0) -> list[str]:
    """The files ``markdown`` includes with ``--8<--``, and those they include (no URLs)."""
    if "8<-" not in markdown or not bases:
        return []
    names: list[str] = []
    block = False
    for line in markdown.splitlines():
        match = _SNIPPET.match(line)
        if match is not None and match.group("escape"):
            continue
        if match is not None and match.group("block"):
            block = not block
            continue
        if match is not None:
            names.append(match.group("path").strip())
        elif block and line.strip() and not line.strip().startswith(";"):
            names.append(line.strip())
    found: list[str] = []
    for name in names:
        if "://" in name:
            continue  # a URL: not a file in the repository
        path = _snippet_path(name, bases) or _snippet_path(_SNIPPET_PART.sub("", name), bases)
        if path is None or path in found:
            continue
        found.append(path)
        if depth < _MAX_SNIPPET_DEPTH:
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
            except OSError:
                continue
            found.extend(p for p in snippet_files(text, bases, depth + 1) if p not in found)
    return found


def _snippet_path(name: str, bases: list[str]) -> str | None:
    for folder in bases:
        if os.path.isdir(folder):
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate):
                return os.path.abspath(candidate)
        elif os.path.isfile(folder) and os.path.basename(folder) == os.path.basename(name):
            return folder
    return None


def search_path(handlers: object, config_dir: str) -> list[str]:
    """Where mkdocstrings' Python handler looks for modules: its ``paths``, then ``sys.path``.

    Its ``paths`` are relative to ``config_dir``, the config file's folder.
    """
    import sys  # noqa: PLC0415

    python = handlers.get("python") if isinstance(handlers, Mapping) else None
    paths = python.get("paths") if isinstance(python, Mapping) else None
    own = [os.path.join(config_dir, p) for p in (paths or ["."]) if isinstance(p, str)]
    return [*own, *sys.path]


def documented_files(markdown: str, search: list[str]) -> list[str]:
    """The Python source of each module a ``:::`` identifier names or holds the object of."""
    if ":::" not in markdown:
        return []
    from importlib.machinery import PathFinder  # noqa: PLC0415  # only with mkdocstrings

    found: list[str] = []
    for match in _AUTODOC.finditer(markdown):
        parts = match.group("name").split(".")
        locations: list[str] | None = search
        origin: str | None = None
        for index in range(len(parts)):
            spec = PathFinder.find_spec(".".join(parts[: index + 1]), locations)
            if spec is None:
                break  # the rest names an object inside the last module found
            if spec.origin and spec.origin.endswith(".py"):
                origin = spec.origin
            locations = list(spec.submodule_search_locations or [])
            if not locations:
                break
        if origin is not None and origin not in found:
            found.append(os.path.abspath(origin))
    return found


def click_files(markdown: str, search: list[str]) -> list[str]:
    """The Python source of each module a ``::: mkdocs-click`` block documents a command of.

    A package's every module (the first ``_MAX_PACKAGE_FILES``): a group gathers its commands.
    """
    if "::: mkdocs-click" not in markdown:
        return []
    from importlib.machinery import PathFinder  # noqa: PLC0415  # only with mkdocs-click

    modules: list[str] = []
    block = False
    for line in markdown.splitlines():
        option = _CLICK_OPTION.match(line) if block else None
        if option is not None:
            value = (option.group("value") or "").strip()
            if option.group("key") == "module" and _MODULE_NAME.fullmatch(value):
                modules.append(value)
            continue
        block = _CLICK_START.match(line) is not None
    found: list[str] = []
    for name in dict.fromkeys(modules):
        parts = name.split(".")
        locations: list[str] | None = search
        spec = None
        for index in range(len(parts)):
            spec = PathFinder.find_spec(".".join(parts[: index + 1]), locations)
            if spec is None:
                break
            locations = list(spec.submodule_search_locations or [])
        if spec is None:
            continue
        if spec.submodule_search_locations:
            found.extend(_package_files(list(spec.submodule_search_locations)))
        elif spec.origin and spec.origin.endswith(".py"):
            found.append(os.path.abspath(spec.origin))
    return list(dict.fromkeys(found))


def _package_files(folders: list[str]) -> list[str]:
    """The ``.py`` files under a package's folders, sorted, the first ``_MAX_PACKAGE_FILES``."""
    files: list[str] = []
    for folder in folders:
        for root, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__pycache__")))
            files.extend(os.path.abspath(os.path.join(root, n)) for n in sorted(names)
                         if n.endswith(".py"))
            if len(files) >= _MAX_PACKAGE_FILES:
                return files[:_MAX_PACKAGE_FILES]
    return files
