"""The one vocabulary of options, shared by the command line, mkdocs.yml and pelicanconf.py.

``SitemapConfig.from_mapping`` is the only place where option values are checked. Every
adapter builds its host-side config from ``DEFAULTS`` so that names and defaults cannot drift.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from sitemap_plugins.errors import ConfigError
from sitemap_plugins.globs import compile_glob
from sitemap_plugins.urls import BaseUrl, parse_base_url

# sitemaps.org protocol, "XML tag definitions": the seven words <changefreq> allows.
CHANGEFREQ_WORDS = ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")
ROBOTS_TXT_MODES = ("merge", "create", "fragment", "off")
# sitemaps.org protocol: at most 50,000 URLs and 50 MiB (52,428,800 bytes) uncompressed.
PROTOCOL_MAX_URLS = 50_000
PROTOCOL_MAX_BYTES = 52_428_800
# A part must hold at least one entry of the longest allowed URL with its alternates.
MIN_MAX_BYTES = 16_384
_NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")


@dataclass(frozen=True)
class SitemapConfig:
    """Validated options for one sitemap run. Build it with :meth:`from_mapping`."""

    base_url: BaseUrl
    """Public URL of the site root, e.g. ``https://example.org/docs/``. Every listed URL lies
    under it (sitemaps.org "Sitemap file location")."""

    directory_urls: bool = True
    """List ``a/index.html`` as ``a/``. Turn off for sites served without directory URLs."""

    extensions: tuple[str, ...] = (".html", ".htm")
    """File extensions that are listed. HTML pages are read for canonical, robots and
    hreflang; other files (e.g. ``.pdf``) are listed as they are."""

    include: tuple[str, ...] = ()
    """Globs; when given, only matching pages are listed."""

    exclude: tuple[str, ...] = ()
    """Globs of pages to leave out."""

    changefreq: tuple[tuple[str, str], ...] = ()
    """``{glob: word}`` rules; the first matching glob sets ``<changefreq>``. None by default."""

    priority: tuple[tuple[str, float], ...] = ()
    """``{glob: number}`` rules, 0.0 to 1.0; the first matching glob sets ``<priority>``."""

    lastmod_file_time: bool = False
    """Use a page's file modification time as its lastmod when nothing better is known.
    Off by default: builds rewrite every file, so file times usually say "built today"."""

    gzip: bool = True
    """Also write a deterministic ``.gz`` copy of every XML sitemap file."""

    text: bool = True
    """Also write ``sitemap.txt``: one URL a line."""

    hreflang: bool = True
    """Write ``xhtml:link`` alternates from the pages' ``<link rel="alternate" hreflang>``."""

    respect_robots_txt: bool = True
    """Leave out URLs that the site's own robots.txt disallows for all agents."""

    robots_txt: str = "merge"
    """``merge``: add the ``Sitemap:`` line to the site's robots.txt if it has one;
    ``create``: the same, creating robots.txt when missing; ``fragment``: only write
    ``robots-sitemap.txt`` for you to merge upstream; ``off``: leave robots.txt alone. When the
    base URL has a path, the site's robots.txt is not the host's, so a fragment is written."""

    sitemap_name: str = "sitemap"
    """Base name of the files written: ``sitemap.xml``, ``sitemap.txt``, ``sitemap-1.xml``..."""

    max_urls: int = PROTOCOL_MAX_URLS
    """URLs per sitemap file before splitting into numbered parts (at most 50,000)."""

    max_bytes: int = PROTOCOL_MAX_BYTES
    """Uncompressed bytes per sitemap file before splitting (at most 52,428,800)."""

    cache_dir: str | None = None
    """Folder for the lastmod manifest kept between builds (outside the published site).
    None: ``.sitemap-cache`` beside the site folder."""

    workers: int = 0
    """Processes that read pages; 0 means one per CPU core. The output does not depend on it."""

    fingerprint: bool = True
    """Keep lastmod honest across rebuilds with a manifest of page fingerprints (needs a cache
    folder that persists between builds)."""

    reuse_pages: bool = True
    """Reuse what the last build found in a page whose bytes (or file) did not change. False
    reads and evaluates every page again; the lastmod history is kept either way."""

    changes_file: str | None = None
    """Write the URLs added, changed and removed since the last build to this file (JSON),
    relative to the current folder. None: do not write it."""

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> SitemapConfig:
        """Validate a mapping of options and return a frozen config.

        Raises:
            ConfigError: naming the first bad option; unknown keys get a close-match hint.

        """
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                close = difflib.get_close_matches(str(key), sorted(known), n=1)
                hint = f" Did you mean '{close[0]}'?" if close else ""
                raise ConfigError(str(key), f"Unrecognised option.{hint}")
        if data.get("base_url") is None:
            raise ConfigError("base_url", "Required: the public URL of the site root.")
        values: dict[str, Any] = {}
        for key, value in data.items():
            values[key] = _VALIDATORS[key](key, value)
        return cls(**values)


def _type_name(value: object) -> str:
    return type(value).__name__


def _received(value: object) -> str:
    return f"{value!r} ({_type_name(value)})"


def _check_base_url(option: str, value: object) -> BaseUrl:
    if isinstance(value, BaseUrl):
        return value
    if not isinstance(value, str):
        raise ConfigError(option, f"Expected a URL string but received: {_received(value)}")
    try:
        return parse_base_url(value)
    except ValueError as err:
        raise ConfigError(option, str(err)) from err


def _check_bool(option: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(option, f"Expected a boolean but received: {_received(value)}")
    return value


def _check_globs(option: str, value: object) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise ConfigError(
            option, f"Expected a list of glob patterns but received: {_received(value)}"
        )
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise ConfigError(
                option, f"Item {index}: expected a glob pattern but received: {_received(item)}"
            )
        try:
            compile_glob(item)
        except ValueError as err:
            raise ConfigError(option, f"Item {index}: {err}") from err
    return tuple(value)


def _check_extensions(option: str, value: object) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or not value:
        raise ConfigError(
            option,
            f"Expected a non-empty list of file extensions such as ['.html', '.pdf'] "
            f"but received: {_received(value)}",
        )
    result: list[str] = []
    for index, item in enumerate(value):
        if not isinstance(item, str) or not re.fullmatch(r"\.[A-Za-z0-9_.-]+", item):
            raise ConfigError(
                option,
                f"Item {index}: expected an extension starting with '.' but received: "
                f"{_received(item)}",
            )
        result.append(item.lower())
    return tuple(dict.fromkeys(result))


def _check_rules(option: str, value: object) -> tuple[tuple[str, Any], ...]:
    if isinstance(value, (list, tuple)) and all(
        isinstance(v, (list, tuple)) and len(v) == 2 for v in value  # noqa: PLR2004
    ):
        items = [tuple(v) for v in value]
    elif isinstance(value, Mapping):
        items = list(value.items())
    else:
        raise ConfigError(
            option, f"Expected a mapping of glob pattern to value but received: {_received(value)}"
        )
    rules: list[tuple[str, Any]] = []
    for pattern, rule_value in items:
        if not isinstance(pattern, str):
            raise ConfigError(
                option, f"Expected a glob pattern as key but received: {_received(pattern)}"
            )
        try:
            compile_glob(pattern)
        except ValueError as err:
            raise ConfigError(option, f"Key {pattern!r}: {err}") from err
        if option == "changefreq":
            if rule_value not in CHANGEFREQ_WORDS:
                words = ", ".join(repr(w) for w in CHANGEFREQ_WORDS)
                raise ConfigError(
                    option,
                    f"Key {pattern!r}: expected one of: {words} but received: "
                    f"{_received(rule_value)}",
                )
            rules.append((pattern, rule_value))
        else:
            rules.append((pattern, check_priority(option, rule_value, where=f"Key {pattern!r}: ")))
    return tuple(rules)


def check_priority(option: str, value: object, *, where: str = "") -> float:
    """Validate one priority value (sitemaps.org: 0.0 to 1.0)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ConfigError(
            option,
            f"{where}{'e' if where else 'E'}xpected a number from 0.0 to 1.0 but received: "
            f"{_received(value)}",
        )
    return float(value)


def check_changefreq(option: str, value: object) -> str:
    """Validate one changefreq word."""
    if value not in CHANGEFREQ_WORDS:
        words = ", ".join(repr(w) for w in CHANGEFREQ_WORDS)
        raise ConfigError(option, f"Expected one of: {words} but received: {_received(value)}")
    return str(value)


def _check_robots_txt(option: str, value: object) -> str:
    if value not in ROBOTS_TXT_MODES:
        modes = ", ".join(repr(m) for m in ROBOTS_TXT_MODES)
        raise ConfigError(option, f"Expected one of: {modes} but received: {_received(value)}")
    return str(value)


def _check_name(option: str, value: object) -> str:
    if not isinstance(value, str) or not _NAME_PATTERN.match(value):
        raise ConfigError(
            option,
            f"Expected a plain file name without extension such as 'sitemap' but received: "
            f"{_received(value)}",
        )
    return value


def _int_range(low: int, high: int):  # type: ignore[no-untyped-def]  # noqa: ANN202
    def check(option: str, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(
                option,
                f"Expected a whole number from {low:,} to {high:,} but received: "
                f"{_received(value)}",
            )
        return value

    return check


def _optional_path(kind: str):  # type: ignore[no-untyped-def]  # noqa: ANN202
    def check(option: str, value: object) -> str | None:
        if value is None:
            return None
        if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
            raise ConfigError(option, f"Expected a {kind} path but received: {_received(value)}")
        return os.fspath(value)

    return check


_VALIDATORS: dict[str, Any] = {
    "base_url": _check_base_url,
    "directory_urls": _check_bool,
    "extensions": _check_extensions,
    "include": _check_globs,
    "exclude": _check_globs,
    "changefreq": _check_rules,
    "priority": _check_rules,
    "lastmod_file_time": _check_bool,
    "gzip": _check_bool,
    "text": _check_bool,
    "hreflang": _check_bool,
    "respect_robots_txt": _check_bool,
    "robots_txt": _check_robots_txt,
    "sitemap_name": _check_name,
    "max_urls": _int_range(1, PROTOCOL_MAX_URLS),
    "max_bytes": _int_range(MIN_MAX_BYTES, PROTOCOL_MAX_BYTES),
    "cache_dir": _optional_path("folder"),
    "workers": _int_range(0, 64),
    "fingerprint": _check_bool,
    "reuse_pages": _check_bool,
    "changes_file": _optional_path("file"),
}

# Defaults in plain Python types, for adapters that declare the options in their own host's
# config system (MkDocs) or document them (Pelican). ``base_url`` comes from the host.
DEFAULTS: dict[str, Any] = {
    f.name: (list(f.default) if isinstance(f.default, tuple) else f.default)
    for f in fields(SitemapConfig)
    if f.name != "base_url"
}
for _rules in ("changefreq", "priority"):
    DEFAULTS[_rules] = {}
