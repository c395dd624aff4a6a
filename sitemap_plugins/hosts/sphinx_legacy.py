"""Switching from sphinx-sitemap: its ``sitemap_*`` settings, checked and translated.

Beside :mod:`sitemap_plugins.sphinx`; it touches no file and imports no Sphinx.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sitemap_plugins.vocab.errors import ConfigError, received
from sitemap_plugins.vocab.globs import from_fnmatch
from sitemap_plugins.vocab.options import OPTION_BY_NAME
from sitemap_plugins.vocab.values import hreflang

if TYPE_CHECKING:
    from collections.abc import Mapping

DEFAULT_SCHEME = "{lang}{version}{link}"
LEGACY_DEFAULTS: tuple[tuple[str, object], ...] = (
    ("site_url", None), ("sitemap_url_scheme", DEFAULT_SCHEME), ("sitemap_locales", []),
    ("sitemap_filename", "sitemap.xml"), ("sitemap_excludes", []),
    ("sitemap_show_lastmod", False), ("sitemap_indent", 0))
"""sphinx-sitemap's settings, with its defaults: read so that conf.py keeps working."""
# {lang} and {version} (no attribute, index, conversion or format) and text, then {link}.
_SCHEME = re.compile(r"(?:[^{}]|\{\{|\}\}|\{(?:lang|version)\})*\{link\}")


@dataclass
class Legacy:
    """Where the pages' URLs live, by sphinx-sitemap's settings, and what they ask besides."""

    root: str  # html_baseurl with its trailing slash
    prefix: str = ""  # the URL scheme's path between the root and each page
    alternates: tuple[tuple[str, str], ...] = ()  # (hreflang, base URL) per sitemap_locales
    excludes: tuple[str, ...] = ()  # sitemap_excludes as the core's globs
    sitemap_name: str | None = None
    notes: list[str] = field(default_factory=list)  # how they differ from sphinx-sitemap


def check_legacy(values: Mapping[str, Any]) -> tuple[str, ...]:
    """Check the settings (by name), or ConfigError; return ``sitemap_excludes`` as globs."""
    def bad(name: str, expected: str) -> ConfigError:
        return ConfigError(name, f"Expected {expected} but received: {received(values[name])}")

    if values["site_url"]:
        OPTION_BY_NAME["base_url"].check("site_url", values["site_url"])
    OPTION_BY_NAME["git_dates"].check("sitemap_show_lastmod", values["sitemap_show_lastmod"])
    excludes = values["sitemap_excludes"]
    globs: tuple[str, ...] = OPTION_BY_NAME["exclude"].check("sitemap_excludes", [
        from_fnmatch(p) if isinstance(p, str) else p for p in excludes
    ] if isinstance(excludes, list) else excludes)
    locales = values["sitemap_locales"]
    if not isinstance(locales, (list, tuple)) or not (all(isinstance(x, str) for x in locales)
                                                       or list(locales) == [None]):
        raise bad("sitemap_locales", "a list of locales such as ['en', 'pt_BR'], or [None],")
    if not isinstance(values["sitemap_filename"], str) or not values["sitemap_filename"]:
        raise bad("sitemap_filename", "a file name such as 'sitemap.xml'")
    indent = values["sitemap_indent"]
    if isinstance(indent, bool) or not isinstance(indent, int) or indent < 0:
        raise bad("sitemap_indent", "an integer of 0 or more")
    if not isinstance(scheme := values["sitemap_url_scheme"], str) or not _SCHEME.fullmatch(
            scheme):
        raise bad("sitemap_url_scheme", "a scheme of {lang}, {version} and text, ending in "
                  f"{{link}}, such as {DEFAULT_SCHEME!r},")
    return globs


def _prefix(scheme: str, lang: str, version: str) -> str:
    """What a checked scheme puts before the page."""
    return scheme[: -len("{link}")].format(lang=f"{lang}/" if lang else "",
                                           version=f"{version}/" if version else "")


def translate(values: Mapping[str, Any], *, base: str, lang: str, version: str,
              scheme_used: bool, locales: list[str]) -> Legacy:
    """The settings (checked by :func:`check_legacy`) for one build.

    ``lang`` and ``version`` fill the scheme, used only when ``scheme_used``; ``locales``:
    ``sitemap_locales``, else the folders of ``locale_dirs``.
    """
    legacy = Legacy(base if base.endswith("/") else base + "/",
                    excludes=check_legacy(values))
    notes, root = legacy.notes, legacy.root
    if root != base:
        notes.append(f"html_baseurl {base!r} has no trailing slash: pages are listed under "
                     f"{root!r} (sphinx-sitemap glued the page to it)")
    if (filename := values["sitemap_filename"]) != "sitemap.xml":
        # At the root: a sitemap lists only URLs below its folder (sitemaps.org, file location).
        name = posixpath.basename(filename.replace("\\", "/")).removesuffix(".gz")
        legacy.sitemap_name = name.removesuffix(".xml")
        notes.append(f"sitemap_filename {filename!r}: written as {legacy.sitemap_name}.xml "
                     "at the root of the site (and .txt, .xml.gz beside it)")
    scheme = values["sitemap_url_scheme"]
    prefix, lang_root = _prefix(scheme, lang, version), None
    if not scheme_used:
        if prefix:
            notes.append(f"sitemap_url_scheme not set: pages are listed at html_baseurl + page, "
                         f"as Sphinx's canonical links say (sphinx-sitemap put {prefix!r} "
                         "between them; set sitemap_url_scheme to keep that)")
    elif prefix and root.endswith("/" + prefix):
        notes.append(f"html_baseurl ends in {prefix!r} already: sitemap_url_scheme adds none")
        lang_root = root[: -len(prefix)]
    else:
        legacy.prefix, lang_root = prefix, root
    if locales != [None] and (lang_root is None or "{lang}" not in scheme):
        if locales:
            notes.append("sitemap_locales: no alternates written, sitemap_url_scheme "
                         f"{'is not set' if lang_root is None else 'has no {lang}'}")
    elif lang_root is not None:
        legacy.alternates = tuple((hreflang(locale), lang_root + _prefix(scheme, locale, version))
                                  for locale in dict.fromkeys(locales) if locale)
    if legacy.excludes:
        notes.append("sitemap_excludes: matched as sphinx-sitemap does (fnmatch on the page's "
                     "link); the 'exclude' option takes globs of URL paths")
    if values["sitemap_show_lastmod"]:
        notes.append("sitemap_show_lastmod: not needed; lastmod comes from git (first-parent "
                     "commit dates) and the pages, without sphinx-last-updated-by-git")
    if values["sitemap_indent"]:
        notes.append("sitemap_indent: not used; the sitemap is always written two spaces deep")
    return legacy
