"""Switching from pelican-sitemap in one line: its ``SITEMAP`` setting, read and translated.

Its ``priorities`` and ``changefreqs`` become page defaults (a page's metadata and
``SITEMAP_PLUGINS`` rules win), its ``exclude`` patterns leave pages out, ``format`` is not
needed. A bad value's ``option`` is the setting's place (``SITEMAP['format']``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sitemap_plugins.vocab.errors import ConfigError, received, unknown_key
from sitemap_plugins.vocab.options import check_changefreq, check_priority
from sitemap_plugins.vocab.urls import INDEX_NAMES

if TYPE_CHECKING:
    import logging

LEGACY_SETTING = "SITEMAP"
REASON_LEGACY_EXCLUDE = "excluded by SITEMAP['exclude']"
# Plugins that write sitemap.xml themselves: only one plugin should own the file.
COMPETING_PLUGINS = {
    "pelican.plugins.sitemap": "pelican-sitemap",
    "extended_sitemap": "pelican-extended-sitemap",
}
_KEYS = ("format", "priorities", "changefreqs", "exclude")
_KINDS = ("articles", "pages", "indexes")
_FORMATS = ("xml", "txt")
# pelican-sitemap's keys, met in SITEMAP_PLUGINS: "priorities" is not "priority".
MISPLACED_KEYS = {
    "priorities": ("Unrecognised option. pelican-sitemap's 'priorities' (by kind: articles, "
                   "pages, indexes) belongs in its own setting, SITEMAP = {'priorities': "
                   "{'articles': 0.8}}, which this plugin reads; here 'priority' takes globs, "
                   "{'blog/**': 0.8}."),
    "changefreqs": ("Unrecognised option. pelican-sitemap's 'changefreqs' (by kind: articles, "
                    "pages, indexes) belongs in its own setting, SITEMAP = {'changefreqs': "
                    "{'articles': 'weekly'}}, which this plugin reads; here 'changefreq' takes "
                    "globs, {'blog/**': 'weekly'}."),
    "format": ("Unrecognised option. pelican-sitemap's 'format' is not needed: sitemap.xml is "
               "always written, and sitemap.txt unless 'text' is False."),
}


@dataclass(frozen=True)
class Legacy:
    """pelican-sitemap's ``SITEMAP`` dict, checked, in the terms of this plugin."""

    priorities: Mapping[str, float] = field(default_factory=dict)
    changefreqs: Mapping[str, str] = field(default_factory=dict)
    exclude: tuple[re.Pattern[str], ...] = ()
    notes: tuple[str, ...] = ()
    """What was translated, for the log (info)."""
    dead_patterns: tuple[str, ...] = ()
    """``exclude`` patterns that can never match (they expect a leading slash)."""


def read_legacy(raw: object, setting: str) -> Legacy:
    """Check pelican-sitemap's ``SITEMAP`` dict and translate it (``setting``: ours, for notes).

    Raises:
        ConfigError: whose ``option`` is the place of the bad value (``SITEMAP['format']``).
    """
    if raw is None:
        return Legacy()
    if not isinstance(raw, Mapping):
        msg = f"Expected a dict (pelican-sitemap's setting) but received: {received(raw)}"
        raise ConfigError(LEGACY_SETTING, msg)
    for key in raw:
        if key not in _KEYS:
            raise ConfigError(f"{LEGACY_SETTING}[{key!r}]",
                              unknown_key(key, _KEYS, "pelican-sitemap key"))
    notes: list[str] = []
    if "format" in raw:
        fmt = raw["format"]
        if fmt not in _FORMATS:
            msg = f"Expected 'xml' or 'txt' but received: {received(fmt)}"
            raise ConfigError(f"{LEGACY_SETTING}['format']", msg)
        notes.append(f"{LEGACY_SETTING}['format'] = {fmt!r}: both formats are written anyway "
                     f"(sitemap.xml, and sitemap.txt unless {setting}['text'] is False)")
    priorities = _per_kind(raw, "priorities", notes, setting)
    changefreqs = _per_kind(raw, "changefreqs", notes, setting)
    patterns, dead = _exclude(raw, notes)
    return Legacy(priorities=priorities, changefreqs=changefreqs, exclude=patterns,
                  notes=tuple(notes), dead_patterns=dead)


def _per_kind(raw: Mapping[str, Any], key: str, notes: list[str], setting: str) -> dict[str, Any]:
    """``priorities`` or ``changefreqs``: one value for each of articles, pages, indexes."""
    target: dict[str, Any] = {}
    if key not in raw:
        return target
    value = raw[key]
    where = f"{LEGACY_SETTING}[{key!r}]"
    if not isinstance(value, Mapping):
        msg = "Expected a dict with keys 'articles', 'pages', 'indexes' but received: "
        raise ConfigError(where, msg + received(value))
    for kind, given in value.items():
        item = f"{where}[{kind!r}]"
        if kind not in _KINDS:
            what = "kind of page; expected 'articles', 'pages' or 'indexes'"
            raise ConfigError(item, unknown_key(kind, _KINDS, what))
        try:
            check = check_priority if key == "priorities" else check_changefreq
            target[kind] = check(item, given)
        except ConfigError as err:
            raise ConfigError(item, err.message[:1].upper() + err.message[1:]) from err
    if target:
        listed = ", ".join(f"{kind} {target[kind]}" for kind in _KINDS if kind in target)
        element, metadata = ("<priority>", "Priority") if key == "priorities" else (
            "<changefreq>", "ChangeFreq")
        notes.append(f"{where} = {listed}: written as each page's {element} ({metadata}: "
                     f"metadata and {setting} rules win; pelican-sitemap's defaults for kinds "
                     f"not set here are not written)")
    return target


def _exclude(raw: Mapping[str, Any], notes: list[str],
             ) -> tuple[tuple[re.Pattern[str], ...], tuple[str, ...]]:
    """``exclude``: regular expressions, and those that can never match."""
    if "exclude" not in raw:
        return (), ()
    value = raw["exclude"]
    where = f"{LEGACY_SETTING}['exclude']"
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        msg = f"Expected a list of regular expressions but received: {received(value)}"
        raise ConfigError(where, msg)
    patterns: list[re.Pattern[str]] = []
    for index, pattern in enumerate(value):
        if not isinstance(pattern, str):
            msg = f"Expected a regular expression but received: {received(pattern)}"
            raise ConfigError(f"{where}[{index}]", msg)
        try:
            patterns.append(re.compile(pattern))
        except re.error as err:
            msg = f"Expected a regular expression but received: {pattern!r} ({err})"
            raise ConfigError(f"{where}[{index}]", msg) from err
    notes.append(f"{where}: {len(patterns)} pattern(s) matched with re.search against each URL "
                 f"relative to SITEURL, without a leading slash (e.g. 'tag/python.html'), as "
                 f"pelican-sitemap does; matching pages are left out")
    return tuple(patterns), tuple(p for p in value if p.startswith("^/"))


def announce(legacy: Legacy, plugins: object, log: logging.Logger) -> None:
    """Say what was translated, what never matches, and which competing plugin is on."""
    enabled = plugins if isinstance(plugins, (list, tuple)) else []
    for name, label in COMPETING_PLUGINS.items():
        if name in enabled:
            log.warning("Sitemap: %s (%s) is enabled too: both plugins write sitemap.xml and the "
                        "last to run wins. Remove it from PLUGINS: sitemap_plugins.pelican "
                        "replaces it and reads its SITEMAP setting.", label, name)
    for note in legacy.notes:
        log.info("Sitemap: translated pelican-sitemap's %s", note)
    for pattern in legacy.dead_patterns:
        log.warning("Sitemap: %s['exclude'] pattern %r never matches: URLs are matched without "
                    "a leading slash (write %r)", LEGACY_SETTING, pattern, "^" + pattern[2:])


def is_excluded(legacy: Legacy, rel: str, url: str | None, *, directory_urls: bool) -> bool:
    """pelican-sitemap's test: ``re.search`` on the URL relative to SITEURL, no leading slash.

    The listed path and, for articles and pages, their own ``url`` are both tried.
    """
    candidates = {_strip_index(rel) if directory_urls else rel}
    if url is not None:
        candidates.add(_strip_index(url.lstrip("/")))
    return any(p.search(c) for p in legacy.exclude for c in candidates)


def _strip_index(path: str) -> str:
    head, _, name = path.rpartition("/")
    if name.lower() in INDEX_NAMES:
        return f"{head}/" if head else ""
    return path
