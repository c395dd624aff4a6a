"""Glob patterns for include, exclude, changefreq and priority rules.

A pattern matches a page's file path or its URL path, relative to the site root. ``*`` stays
in a segment, ``**`` crosses segments, a trailing ``/`` matches a folder, a leading one is ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


def _translate(pattern: str) -> str:
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        if char == "*":
            if pattern.startswith("**", i):
                i += 2
                if pattern.startswith("/", i):
                    i += 1
                    out.append("(?:.*/)?")
                else:
                    out.append(".*")
                continue
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = pattern.find("]", i + 2 if pattern.startswith("[!", i) else i + 1)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = pattern[i + 1 : end]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = end
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


def compile_glob(pattern: str) -> re.Pattern[str]:
    """Compile one glob to a regular expression over a relative path.

    Raises:
        ValueError: if the pattern is empty or not a valid glob.
    """
    text = pattern.strip().lstrip("/")
    if not text:
        msg = f"Expected a non-empty glob pattern but received: {pattern!r}"
        raise ValueError(msg)
    if text.endswith("/"):
        text += "**"
    try:
        return re.compile(_translate(text) + r"\Z", re.DOTALL)
    except re.error as err:
        msg = f"Expected a valid glob pattern but received: {pattern!r} ({err})"
        raise ValueError(msg) from err


@dataclass(frozen=True)
class GlobSet:
    """An ordered list of globs; ``first_match`` names the first that matches."""

    patterns: tuple[str, ...]
    _compiled: tuple[re.Pattern[str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_compiled", tuple(compile_glob(p) for p in self.patterns))

    def first_match(self, *paths: str) -> int | None:
        """The index of the first pattern matching any of ``paths``, or None."""
        for index, regex in enumerate(self._compiled):
            if any(regex.match(path) for path in paths):
                return index
        return None

    def __bool__(self) -> bool:
        return bool(self.patterns)


def from_fnmatch(pattern: str) -> str:
    """An ``fnmatch`` pattern (whose ``*`` crosses ``/``) as a glob of this module."""
    return re.sub(r"\*+", "**", pattern)
