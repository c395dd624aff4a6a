"""Pelican adapter: ``PLUGINS = ["sitemap_plugins.pelican"]`` in ``pelicanconf.py``.

Settings live in one dict, ``SITEMAP_PLUGINS``, whose keys are the core's option names plus
``static_html``. pelican-sitemap's ``SITEMAP`` dict is read too, so that switching plugins
takes one line. Pelican's signals drive everything:

* ``initialized``: check the settings (a bad one stops the build) and warn when
  pelican-sitemap is enabled as well.
* ``get_generators``: the first Pelican instance seen is the main site; i18n_subsites runs its
  sub-sites as nested instances inside that run, so their pages join the main sitemap.
* ``content_written``: note what Pelican knows about every page it writes (status, dates,
  translations, opt-outs). Only these files are listed: stale files left in ``OUTPUT_PATH``
  by earlier builds are not.
* ``static_generator_finalized``: note the static files copied by this run.
* ``finalized`` (main instance only): hand the notes to :func:`sitemap_plugins.build`.
"""

from __future__ import annotations

import dataclasses
import difflib
import logging
import os
import posixpath
import re
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timezone, tzinfo
from pathlib import Path, PurePath
from typing import Any, Protocol
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

# Import Pelican before creating the logger: Pelican installs its logger class on import,
# which is what makes `pelican --fatal warnings` count our warnings.
from pelican.plugins import signals

from sitemap_plugins.build import Result, generate
from sitemap_plugins.dates import Lastmod, coerce_lastmod, file_time, sort_key
from sitemap_plugins.errors import ConfigError, Level
from sitemap_plugins.git_dates import read_git_dates, shallow_note
from sitemap_plugins.history import EXPLICIT_SOURCE
from sitemap_plugins.html_map import MARKER, NavNode, names_in, site_map_title
from sitemap_plugins.options import (
    BUILD_OPTIONS,
    SitemapConfig,
    check_changefreq,
    check_keys,
    check_priority,
)
from sitemap_plugins.rules import PageHints
from sitemap_plugins.urls import INDEX_NAMES, BaseUrl, page_url, parse_base_url, resolve_href

log = logging.getLogger(__name__)

SETTING = "SITEMAP_PLUGINS"
LEGACY_SETTING = "SITEMAP"
CACHE_DIR_NAME = ".sitemap-cache"

# Plugins that write sitemap.xml themselves: only one plugin should own the file.
COMPETING_PLUGINS = {
    "pelican.plugins.sitemap": "pelican-sitemap",
    "extended_sitemap": "pelican-extended-sitemap",
}
_LEGACY_KEYS = ("format", "priorities", "changefreqs", "exclude")
_LEGACY_KINDS = ("articles", "pages", "indexes")
_LEGACY_FORMATS = ("xml", "txt")
_HTML_EXTENSIONS = (".html", ".htm")
# Values of the `Sitemap:` and `Private:` metadata, compared lower-case.
_YES = frozenset({"true", "yes", "on", "1"})
_NO = frozenset({"false", "no", "off", "0"})
_PLACEHOLDER_BASE = "https://example.invalid/"

REASON_DRAFT = "draft"
REASON_HIDDEN = "hidden"
REASON_STATUS = "not published"
REASON_OPT_OUT = "Sitemap: false metadata"
REASON_PRIVATE = "Private: True metadata"
REASON_LEGACY_EXCLUDE = "excluded by SITEMAP['exclude']"
REASON_STATIC_HTML = "static HTML (static_html is off)"
REASON_OTHER_URL = "i18n sub-site served from another URL"


class _Pelican(Protocol):
    """What the plugin reads from a ``pelican.Pelican`` instance."""

    settings: dict[str, Any]


class _StaticGenerator(Protocol):
    """What the plugin reads from Pelican's ``StaticGenerator``."""

    output_path: str
    staticfiles: list[Any]


class SettingsError(ConfigError):
    """A setting the plugin reads has a bad value; it stops the build.

    Pelican shows it as ``CRITICAL SettingsError: SITEMAP_PLUGINS['gzip']: Expected ...``.
    """

    def __init__(self, location: str, message: str) -> None:
        super().__init__(location, message)
        self.location = location

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"


@dataclass(frozen=True)
class _Legacy:
    """pelican-sitemap's ``SITEMAP`` dict, checked, in the terms of this plugin."""

    priorities: Mapping[str, float] = field(default_factory=dict)
    changefreqs: Mapping[str, str] = field(default_factory=dict)
    exclude: tuple[re.Pattern[str], ...] = ()
    notes: tuple[str, ...] = ()
    """What was translated, for the log (info)."""
    dead_patterns: tuple[str, ...] = ()
    """``exclude`` patterns that can never match (they expect a leading slash)."""


@dataclass(frozen=True)
class _Plan:
    """Everything the run needs from the main site's settings, checked once."""

    config: SitemapConfig
    base: BaseUrl | None
    """None when SITEURL is empty or relative: no sitemap can be written then."""
    siteurl: str
    use_source_time: bool
    """``lastmod_file_time`` as Pelican users mean it: the source file's time (every output
    file is rewritten by each build, so its own time is always "now")."""
    legacy: _Legacy
    default_lang: str
    timezone_name: str
    development: bool = False
    """No SITEURL and RELATIVE_URLS: what pelican-quickstart's pelicanconf.py is, for
    previewing; publishconf.py sets the SITEURL."""
    urls_follow_files: bool = True
    """Whether every content URL setting is its ``*_SAVE_AS`` (or that file's folder): then
    only a page with its own ``url``/``save_as`` metadata can be served elsewhere."""
    content_path: str = ""
    """``PATH``: the sources, for their git dates."""


@dataclass(frozen=True)
class _Site:
    """One Pelican instance of the current run: the main site or an i18n sub-site."""

    instance_id: int
    base: BaseUrl | None
    output: str
    """Its OUTPUT_PATH, with symlinks resolved."""
    offset: str | None
    """Its OUTPUT_PATH relative to the main one (POSIX, "" for the main site), or None."""
    served_at_offset: bool
    """Whether its SITEURL is the main SITEURL plus ``offset``, so its files' URLs follow."""


@dataclass(frozen=True)
class _Place:
    """What a written file is on the blog: an article of a category, a tag's listing..."""

    kind: str
    """article, page, category, tag, author, or a direct template (index, archives...)."""
    name: str
    """The category an article is in; a category's, tag's or author's name."""
    number: int = 1
    """The page of a paginated listing."""
    date: float = 0.0
    """An article's date, as a timestamp: the newest comes first."""
    title: str = ""
    """An article's or page's title (the link's text, before the page's own headings)."""


@dataclass
class _Run:
    """Per-run state, reset when the main instance starts a run (autoreload reuses it)."""

    main: weakref.ref[_Pelican] | None = None
    plan: _Plan | None = None
    main_output: str = ""
    sites: list[_Site] = field(default_factory=list)
    pages: dict[str, tuple[PageHints | None, bool]] = field(default_factory=dict)
    """Written file (relative to the main OUTPUT_PATH) -> (hints, written with override)."""
    outside: int = 0
    content_lastmods: dict[int, tuple[object, Lastmod | None]] = field(default_factory=dict)
    """id() of an article -> (the article, its lastmod), for listing pages."""
    folders: dict[str, str | None] = field(default_factory=dict)
    """Written folder -> its path relative to the main OUTPUT_PATH (realpath is slow)."""
    places: dict[str, _Place] = field(default_factory=dict)
    """Written file -> what it is on the blog, for the HTML site map's sections."""
    git_dates: dict[str, Lastmod] | None = None
    """Each source's last commit date (relative to ``PATH``), read once when first wanted."""

    def main_instance(self) -> _Pelican | None:
        return self.main() if self.main is not None else None


_RUN = _Run()


# --- Settings -----------------------------------------------------------------------------


def _received(value: object) -> str:
    return f"{value!r} ({type(value).__name__})"


def _capitalised(message: str) -> str:
    return message[:1].upper() + message[1:]


def _base_from_siteurl(siteurl: object) -> BaseUrl | None:
    """The site's base URL, or None when SITEURL is empty or relative (a dev build).

    Raises:
        SettingsError: when SITEURL is absolute but not a usable http(s) URL.

    """
    if not isinstance(siteurl, str):
        msg = f"Expected a URL string but received: {_received(siteurl)}"
        raise SettingsError("SITEURL", msg)
    text = siteurl.strip()
    if not urlsplit(text).scheme:
        return None
    try:
        return parse_base_url(text)
    except ValueError as err:
        raise SettingsError("SITEURL", str(err)) from err


def _options(raw: object) -> dict[str, Any]:
    """``SITEMAP_PLUGINS``, checked for its keys (the core checks the values)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        msg = f"Expected a dict of sitemap options but received: {_received(raw)}"
        raise SettingsError(SETTING, msg)
    if "base_url" in raw:
        msg = "Not a setting here: the base URL is SITEURL. Set SITEURL instead."
        raise SettingsError(f"{SETTING}['base_url']", msg)
    for key in raw:
        if key in _LEGACY_HINTS:
            raise SettingsError(f"{SETTING}[{key!r}]", _LEGACY_HINTS[key])
    try:
        check_keys(raw, [o.name for o in BUILD_OPTIONS if o.name != "base_url"])
    except ConfigError as err:
        raise SettingsError(f"{SETTING}[{err.option!r}]", err.message) from err
    return dict(raw)


# pelican-sitemap's keys, met in SITEMAP_PLUGINS: a close match would mislead ("priorities"
# is not "priority": one takes kinds of page, the other globs).
_LEGACY_HINTS = {
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


def _read_legacy(raw: object) -> _Legacy:
    """Check pelican-sitemap's ``SITEMAP`` dict and translate it."""
    if raw is None:
        return _Legacy()
    if not isinstance(raw, Mapping):
        msg = f"Expected a dict (pelican-sitemap's setting) but received: {_received(raw)}"
        raise SettingsError(LEGACY_SETTING, msg)
    notes: list[str] = []
    for key in raw:
        if key not in _LEGACY_KEYS:
            close = difflib.get_close_matches(str(key), _LEGACY_KEYS, n=1)
            hint = f" Did you mean '{close[0]}'?" if close else ""
            where = f"{LEGACY_SETTING}[{key!r}]"
            raise SettingsError(where, f"Unrecognised pelican-sitemap key.{hint}")
    if "format" in raw:
        fmt = raw["format"]
        if fmt not in _LEGACY_FORMATS:
            msg = f"Expected 'xml' or 'txt' but received: {_received(fmt)}"
            raise SettingsError(f"{LEGACY_SETTING}['format']", msg)
        notes.append(
            f"{LEGACY_SETTING}['format'] = {fmt!r}: both formats are written anyway "
            f"(sitemap.xml, and sitemap.txt unless {SETTING}['text'] is False)"
        )
    priorities: dict[str, Any] = {}
    changefreqs: dict[str, Any] = {}
    for key, target in (("priorities", priorities), ("changefreqs", changefreqs)):
        if key not in raw:
            continue
        value = raw[key]
        where = f"{LEGACY_SETTING}[{key!r}]"
        if not isinstance(value, Mapping):
            msg = "Expected a dict with keys 'articles', 'pages', 'indexes' but received: "
            raise SettingsError(where, msg + _received(value))
        for kind, setting in value.items():
            item = f"{where}[{kind!r}]"
            if kind not in _LEGACY_KINDS:
                close = difflib.get_close_matches(str(kind), _LEGACY_KINDS, n=1)
                hint = f" Did you mean '{close[0]}'?" if close else ""
                msg = f"Unrecognised kind of page; expected 'articles', 'pages' or 'indexes'.{hint}"
                raise SettingsError(item, msg)
            try:
                if key == "priorities":
                    target[kind] = check_priority(item, setting)
                else:
                    target[kind] = check_changefreq(item, setting)
            except ConfigError as err:
                raise SettingsError(item, _capitalised(err.message)) from err
        if target:
            listed = ", ".join(f"{kind} {target[kind]}" for kind in _LEGACY_KINDS if kind in target)
            element, metadata = ("<priority>", "Priority")
            if key == "changefreqs":
                element, metadata = ("<changefreq>", "ChangeFreq")
            notes.append(
                f"{where} = {listed}: written as each page's {element} ({metadata}: metadata "
                f"and {SETTING} rules win; pelican-sitemap's defaults for kinds not set here "
                f"are not written)"
            )
    patterns: list[re.Pattern[str]] = []
    dead: list[str] = []
    if "exclude" in raw:
        value = raw["exclude"]
        where = f"{LEGACY_SETTING}['exclude']"
        if isinstance(value, str) or not isinstance(value, (list, tuple)):
            msg = f"Expected a list of regular expressions but received: {_received(value)}"
            raise SettingsError(where, msg)
        for index, pattern in enumerate(value):
            if not isinstance(pattern, str):
                msg = f"Expected a regular expression but received: {_received(pattern)}"
                raise SettingsError(f"{where}[{index}]", msg)
            try:
                patterns.append(re.compile(pattern))
            except re.error as err:
                msg = f"Expected a regular expression but received: {pattern!r} ({err})"
                raise SettingsError(f"{where}[{index}]", msg) from err
            if pattern.startswith("^/"):
                dead.append(pattern)
        notes.append(
            f"{where}: {len(patterns)} pattern(s) matched with re.search against each URL "
            f"relative to SITEURL, without a leading slash (e.g. 'tag/python.html'), as "
            f"pelican-sitemap does; matching pages are left out"
        )
    return _Legacy(
        priorities=priorities,
        changefreqs=changefreqs,
        exclude=tuple(patterns),
        notes=tuple(notes),
        dead_patterns=tuple(dead),
    )


def _default_cache_dir(settings: Mapping[str, Any]) -> str:
    """``.sitemap-cache`` in the folder that holds the content folder.

    Pelican does not keep the settings file's path; ``pelicanconf.py`` normally sits beside
    the content folder, in PATH's parent.
    """
    content = Path(str(settings.get("PATH") or os.curdir)).resolve()
    return str(content.parent / CACHE_DIR_NAME)


def read_plan(settings: Mapping[str, Any]) -> _Plan:
    """Check the plugin's settings and turn them into a plan for the run.

    Raises:
        SettingsError: naming the setting (``SITEMAP_PLUGINS['key']``, ``SITEMAP[...]`` or
            ``SITEURL``) and what is wrong with it.

    """
    core = _options(settings.get(SETTING))
    legacy = _read_legacy(settings.get(LEGACY_SETTING))
    siteurl = settings.get("SITEURL", "")
    base = _base_from_siteurl(siteurl)
    mapping = dict(core)
    mapping.setdefault("cache_dir", _default_cache_dir(settings))
    use_source_time = bool(mapping.get("lastmod_file_time", False))
    try:
        config = SitemapConfig.from_mapping(
            {**mapping, "base_url": str(base) if base is not None else _PLACEHOLDER_BASE}
        )
    except ConfigError as err:
        raise SettingsError(f"{SETTING}[{err.option!r}]", err.message) from err
    if use_source_time:
        # Output files are all rewritten by each build: their time would say "built now".
        config = dataclasses.replace(config, lastmod_file_time=False)
    return _Plan(
        config=config,
        base=base,
        siteurl=str(siteurl),
        development=not str(siteurl).strip() and bool(settings.get("RELATIVE_URLS")),
        use_source_time=use_source_time,
        legacy=legacy,
        default_lang=_lang_code(settings.get("DEFAULT_LANG", "")),
        timezone_name=str(settings.get("TIMEZONE") or "UTC"),
        urls_follow_files=_urls_follow_files(settings),
        content_path=str(settings.get("PATH") or ""),
    )


_URL_SETTINGS = ("ARTICLE", "ARTICLE_LANG", "DRAFT", "DRAFT_LANG", "PAGE", "PAGE_LANG",
                 "DRAFT_PAGE", "DRAFT_PAGE_LANG")


def _urls_follow_files(settings: Mapping[str, Any]) -> bool:
    for kind in _URL_SETTINGS:
        url, save_as = settings.get(f"{kind}_URL"), settings.get(f"{kind}_SAVE_AS")
        if url is None and save_as is None:
            continue
        if not (isinstance(url, str) and isinstance(save_as, str)):
            return False
        if url not in (save_as, save_as.removesuffix("index.html")):
            return False
    return True


# --- Signal receivers (module level: blinker holds weak references) ------------------------


def register() -> None:
    """Connect the plugin to Pelican's signals. Safe to call more than once."""
    signals.initialized.connect(on_initialized)
    signals.get_generators.connect(on_get_generators)
    signals.content_written.connect(on_content_written)
    signals.static_generator_finalized.connect(on_static_finalized)
    signals.finalized.connect(on_finalized)
    signals.page_generator_finalized.connect(on_pages_finalized)


def _nested(pelican: _Pelican) -> bool:
    """Whether ``pelican`` is an i18n sub-site inside the main instance's run.

    It is when another instance's run is under way and it writes elsewhere. An instance
    writing to the main OUTPUT_PATH is a new main site instead: autoreload makes one when the
    settings file changes, possibly after a run that failed half-way.
    """
    main = _RUN.main_instance()
    if main is None or main is pelican or not _RUN.sites:
        return False
    return _real_dir(pelican.settings["OUTPUT_PATH"]) != _RUN.main_output


def on_initialized(pelican: _Pelican) -> None:
    """Check the settings (a bad one stops the build); warn about competing plugins.

    A bad setting is one CRITICAL line naming it, then exit status 1: raised as an exception
    it would reach Pelican's own handler, which from 4.12 on prints its traceback (about
    thirty lines for a typo).
    """
    try:
        plan = read_plan(pelican.settings)
    except SettingsError as err:
        log.critical("SettingsError: %s", err)
        raise SystemExit(1) from None
    if _nested(pelican):
        return  # an i18n sub-site: the main instance already said all this
    enabled = pelican.settings.get("PLUGINS") or []
    for name, label in COMPETING_PLUGINS.items():
        if name in enabled:
            log.warning(
                "Sitemap: %s (%s) is enabled too: both plugins write sitemap.xml and the last "
                "to run wins. Remove it from PLUGINS: sitemap_plugins.pelican replaces it and "
                "reads its SITEMAP setting.",
                label,
                name,
            )
    for note in plan.legacy.notes:
        log.info("Sitemap: translated pelican-sitemap's %s", note)
    for pattern in plan.legacy.dead_patterns:
        log.warning(
            "Sitemap: %s['exclude'] pattern %r never matches: URLs are matched without a leading "
            "slash (write %r)",
            LEGACY_SETTING,
            pattern,
            "^" + pattern[2:],
        )


def on_get_generators(pelican: _Pelican) -> None:
    """Start a run for the main instance; remember an i18n sub-site inside it."""
    if not _nested(pelican):
        _RUN.main = weakref.ref(pelican)
        _RUN.plan = read_plan(pelican.settings)
        _RUN.main_output = _real_dir(pelican.settings["OUTPUT_PATH"])
        _RUN.sites = []
        _RUN.pages = {}
        _RUN.outside = 0
        _RUN.places = {}
        _RUN.git_dates = None  # autoreload: the sources may have been committed since
    _RUN.folders, _RUN.content_lastmods = {}, {}
    _RUN.sites.append(_site_for(pelican))


def _site_for(pelican: _Pelican) -> _Site:
    output = _real_dir(pelican.settings["OUTPUT_PATH"])
    offset = _relative(output, _RUN.main_output)
    plan = _RUN.plan
    siteurl = pelican.settings.get("SITEURL", "")
    try:
        base = _base_from_siteurl(siteurl)
    except SettingsError:
        base = None
    if base is None and plan is not None and plan.base is not None and isinstance(siteurl, str):
        base = _relative_base(siteurl, plan.base)
    served = False
    if plan is not None and plan.base is not None and base is not None and offset is not None:
        expected = parse_base_url(page_url(plan.base, f"{offset}/" if offset else ""))
        served = expected == base
    return _Site(id(pelican), base, output, offset, served)


def _relative_base(siteurl: str, main: BaseUrl) -> BaseUrl | None:
    """A sub-site's relative SITEURL (``"/en"``), read against the main site's.

    A browser reads it so: the sub-site is served from that path of the main site's host.
    """
    text = siteurl.strip()
    if not text:
        return None
    resolved = resolve_href(text.rstrip("/") + "/", str(main))
    try:
        return parse_base_url(resolved) if resolved is not None else None
    except ValueError:
        return None


def _real_dir(path: object) -> str:
    return os.path.realpath(os.fspath(str(path)))


def _relative(path: str, root: str) -> str | None:
    """``path`` relative to ``root`` in POSIX form, or None when it lies outside."""
    try:
        rel = os.path.relpath(path, root)
    except ValueError:  # another drive on Windows
        return None
    if rel == os.curdir:
        return ""
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return None
    return PurePath(rel).as_posix()


def _written_rel(path: str) -> str | None:
    """A written file's path relative to the main OUTPUT_PATH, or None when outside it.

    Links are resolved in the folder part only: with STATIC_CREATE_LINKS the file itself is a
    link into the sources.
    """
    head, name = os.path.split(os.path.abspath(path))
    if head in _RUN.folders:
        folder = _RUN.folders[head]
    else:
        folder = _RUN.folders[head] = _relative(os.path.realpath(head), _RUN.main_output)
    if folder is None:
        return None
    return f"{folder}/{name}" if folder else name


def on_pages_finalized(generator: Any) -> None:  # noqa: ANN401  # Pelican's PagesGenerator
    """Add the HTML site map as a page of the main site, rendered by the theme with a marker.

    The list replaces the marker once the sitemap is written (see :func:`on_finalized`).
    """
    plan = _RUN.plan
    if plan is None or plan.config.html_sitemap is None or len(_RUN.sites) != 1:
        return
    from pelican.contents import Page  # noqa: PLC0415

    rel = plan.config.html_sitemap
    taken = next((p for p in [*generator.pages, *generator.hidden_pages]
                  if getattr(p, "save_as", None) == rel), None)
    if taken is not None:
        log.critical("SettingsError: SITEMAP_PLUGINS['html_sitemap']: %r is the output of %r; "
                     "choose another path", rel, _source_name(taken))
        raise SystemExit(1)
    url = rel[: -len("index.html")] if rel.endswith("/index.html") else rel
    settings = generator.settings
    lang = str(settings.get("DEFAULT_LANG") or "en")
    page = Page(MARKER, metadata={"title": site_map_title(lang), "save_as": rel, "url": url,
                                  "slug": "sitemap-plugins-html-sitemap", "lang": lang},
                settings=settings, source_path=os.path.join(
                    settings.get("PATH", ""), "sitemap-plugins-html-sitemap.html"),
                context=generator.context)
    generator.pages.append(page)


def on_content_written(path: str, context: Mapping[str, Any] | None = None) -> None:
    """Note a page Pelican wrote.

    The first writer of a path wins, unless a later one overrides it by ``save_as``: Pelican
    then really writes the later one and sends the other writes to /dev/null.
    """
    plan = _RUN.plan
    if plan is None or not _RUN.sites:
        return
    rel = _written_rel(path)
    if rel is None:
        _RUN.outside += 1
        return
    context = context or {}
    obj = context.get("article")
    if obj is None:
        obj = context.get("page")
    override = _is_override(obj, context)
    known = _RUN.pages.get(rel)
    if known is not None and (known[1] or not override):
        return  # Pelican wrote this one to /dev/null (or it repeats the same page)
    site = _RUN.sites[-1]
    hints = _page_hints(plan, site, rel, obj, context) if plan.base is not None else None
    _RUN.pages[rel] = (hints, override)
    if plan.config.html_sitemap is not None:
        place = _place(obj, context)
        if place is not None:
            _RUN.places[rel] = place


def _is_override(obj: object, context: Mapping[str, Any]) -> bool:
    """Whether Pelican wrote this file with ``override_output`` (it then wins the path)."""
    if obj is not None:
        return hasattr(obj, "override_save_as")
    # TEMPLATE_PAGES are written with override_output=True and have no content object.
    return _is_template_page(context)


def _is_template_page(context: Mapping[str, Any]) -> bool:
    template_pages = context.get("TEMPLATE_PAGES") or {}
    return context.get("output_file") in set(template_pages.values())


def on_static_finalized(generator: _StaticGenerator) -> None:
    """Note the static files of this run that the sitemap may list."""
    plan = _RUN.plan
    if plan is None or not _RUN.sites:
        return
    output_path = generator.output_path
    extensions = plan.config.extensions
    for static in getattr(generator, "staticfiles", ()):
        save_as = getattr(static, "save_as", None)
        if not save_as:
            continue
        suffix = PurePath(save_as).suffix.lower()
        if suffix not in extensions:
            continue
        rel = _written_rel(os.path.join(output_path, save_as))
        if rel is None:
            _RUN.outside += 1
            continue
        if rel in _RUN.pages:
            continue
        if suffix in _HTML_EXTENSIONS and not plan.config.static_html:
            _RUN.pages[rel] = (PageHints(exclude=REASON_STATIC_HTML), False)
            continue
        lastmod = _source_time(static) if plan.use_source_time else None
        hints = PageHints(lastmod=lastmod) if lastmod else None
        _RUN.pages[rel] = (hints, False)


def on_finalized(pelican: _Pelican) -> None:
    """Write the sitemap once the main instance (and every i18n sub-site) is done."""
    if _RUN.sites and _RUN.sites[-1].instance_id == id(pelican):
        _RUN.sites.pop()
    if _RUN.main_instance() is not pelican:
        return
    plan, pages, outside = _RUN.plan, _RUN.pages, _RUN.outside
    _RUN.main, _RUN.plan, _RUN.sites, _RUN.pages, _RUN.outside = None, None, [], {}, 0
    places = _RUN.places
    _RUN.folders, _RUN.content_lastmods, _RUN.places = {}, {}, {}
    if plan is None:
        return
    if plan.base is None and plan.development:
        log.info("Sitemap: not written for this development build (no SITEURL, "
                 "RELATIVE_URLS on): a sitemap lists absolute URLs; the build with your "
                 "publish settings (SITEURL set, usually publishconf.py) writes it.")
        return
    if plan.base is None:
        log.warning(
            "Sitemap: SITEURL %r is not an absolute URL, so no sitemap was written: a sitemap "
            "lists absolute URLs. Set SITEURL to the public URL of the site (usually in "
            "publishconf.py).",
            plan.siteurl,
        )
        return
    if outside:
        log.info(
            "Sitemap: %d files were written outside OUTPUT_PATH (an i18n sub-site with its "
            "own OUTPUT_PATH?) and are not listed",
            outside,
        )
    unplaced = sum(1 for page_hints, _ in pages.values()
                   if page_hints is not None and page_hints.exclude == REASON_OTHER_URL)
    if unplaced:
        log.warning(
            "Sitemap: %d pages of i18n sub-sites are not listed: their SITEURL does not put "
            "them where their files are below the main site's (%s). Set each sub-site's "
            "SITEURL to the main SITEURL followed by its folder.", unplaced, plan.siteurl)
    hints = {rel: page_hints for rel, (page_hints, _) in pages.items() if page_hints is not None}
    result = generate(pelican.settings["OUTPUT_PATH"], plan.config, hints=hints, only=set(pages),
                      outline=_outline(places, str(pelican.settings.get("SITENAME") or ""),
                                       names_in(pelican.settings.get("DEFAULT_LANG"))))
    _report(result)


def _report(result: Result) -> None:
    for diagnostic in result.diagnostics:
        if diagnostic.level is Level.WARNING:
            log.warning("Sitemap: %s", diagnostic)
        else:
            log.info("Sitemap: %s", diagnostic)
    if result.dropped_diagnostics:
        log.warning("Sitemap: %d more diagnostics not shown", result.dropped_diagnostics)
    log.info("Sitemap: %s", result.summary_line())
    log.debug("Sitemap: %d page records came from the cache (same bytes)", result.cached)


# --- Where a page goes in the HTML site map ----------------------------------------------
# Categories (each with its articles, newest first), then pages, then the listings.
_LISTINGS = ("archives", "categories", "tags", "authors")


def _place(obj: object, context: Mapping[str, Any]) -> _Place | None:
    """What Pelican wrote, from the objects it rendered the file with."""
    listing = context.get("articles_page")
    number = int(getattr(listing, "number", 1) or 1)
    if context.get("article") is not None:
        date = getattr(obj, "date", None)
        stamp = date.timestamp() if isinstance(date, datetime) else 0.0
        return _Place("article", str(context.get("category") or ""), date=stamp,
                      title=str(getattr(obj, "title", "") or ""))
    if obj is not None:
        return _Place("page", "", title=str(getattr(obj, "title", "") or ""))
    for kind in ("category", "tag", "author"):
        if context.get(kind) is not None:
            return _Place(kind, str(context[kind]), number)
    page_name = str(context.get("page_name") or "")
    for template in context.get("DIRECT_TEMPLATES") or ():
        save_as = context.get(f"{str(template).upper()}_SAVE_AS", f"{template}.html")
        if save_as and os.path.splitext(str(save_as))[0] == page_name:
            return _Place(str(template), "", number)
    return None  # period archives, TEMPLATE_PAGES: grouped by folder


def _outline(places: Mapping[str, _Place], site_name: str,
             labels: Mapping[str, str]) -> tuple[NavNode, ...]:
    """The blog as sections: home, categories with their articles, pages, then listings.

    ``labels``: what the sections Pelican gives no name are called, in the site's language.
    """
    def listing(kind: str, name: str, title: str) -> tuple[NavNode | None, list[NavNode]]:
        """A listing's first page (a section's heading) and its further pages."""
        found = sorted((p.number, rel) for rel, p in places.items()
                       if p.kind == kind and p.name == name)
        first = next((NavNode(title, rel) for number, rel in found if number == 1), None)
        more = [NavNode(labels["page"].format(name=title, number=number), rel)
                for number, rel in found if number > 1]
        return first, more

    def section(kind: str, name: str, title: str, children: list[NavNode]) -> NavNode:
        first, more = listing(kind, name, title)
        return NavNode(title, first.rel_path if first else None, (*children, *more))

    nodes: list[NavNode] = []
    home, more_home = listing("index", "", site_name or labels["home"])
    nodes.extend(n for n in (home, *more_home) if n is not None)
    articles: dict[str, list[tuple[float, str, str]]] = {}
    for rel, place in places.items():
        if place.kind == "article":
            articles.setdefault(place.name, []).append((-place.date, rel, place.title))
    categories = {p.name for p in places.values() if p.kind == "category"} | set(articles)
    for name in sorted(categories, key=str.casefold):
        children = [NavNode(title or None, rel)
                    for _, rel, title in sorted(articles.get(name, []))]
        nodes.append(section("category", name, name, children))
    pages = sorted((p.title.casefold(), rel, p.title)
                   for rel, p in places.items() if p.kind == "page")
    if pages:
        nodes.append(NavNode(labels["pages"], None, tuple(NavNode(title or None, rel)
                                                  for _, rel, title in pages)))
    for kind in _LISTINGS:
        singular = kind[:-1] if kind != "categories" else "category"
        names = sorted({p.name for p in places.values() if p.kind == singular}, key=str.casefold)
        children = [section(singular, name, name, []) for name in names] \
            if kind != "categories" else []  # categories are sections of their own above
        nodes.append(section(kind, "", labels[kind], children))
    return tuple(nodes)


# --- What Pelican knows about a page --------------------------------------------------------


def _page_hints(
    plan: _Plan,
    site: _Site,
    rel: str,
    obj: object,
    context: Mapping[str, Any],
) -> PageHints:
    assert plan.base is not None
    if not site.served_at_offset:
        return PageHints(exclude=REASON_OTHER_URL)
    reason = _opt_out(obj) if obj is not None else None
    if reason is not None:
        return PageHints(exclude=reason)
    config = plan.config
    host_url = _host_url(plan, site, rel, obj) if obj is not None else None
    if plan.legacy.exclude and _legacy_excluded(
        plan, rel, obj, directory_urls=config.directory_urls
    ):
        return PageHints(exclude=REASON_LEGACY_EXCLUDE)
    kind = (
        "articles"
        if context.get("article") is not None
        else ("pages" if obj is not None else "indexes")
    )

    # Every lastmod below is Pelican's own knowledge. A Date: is when the content was
    # published, and a listing's date its newest article's: the core's manifest may know of
    # a later change (an edit, a reshuffled listing). A Modified: is the author's word.
    alternates = None
    source = "host"
    published = None
    if obj is not None:
        lastmod = _content_lastmod(obj, plan.timezone_name)
        date_value = getattr(obj, "date", None)  # an article's Date: when it was published
        if kind == "articles" and date_value is not None:  # pages are not news
            published = _aware(date_value, plan.timezone_name)
        if getattr(obj, "modified", None) is not None and lastmod is not None:
            source = EXPLICIT_SOURCE  # Modified: says when it last changed, in so many words
        if lastmod is None and plan.config.git_dates:
            # A page without Date: or Modified: (an about page) changed when its source
            # last did. Never for a dated article: a blog moved into git in one commit would
            # date every old article that day.
            lastmod = _git_date(plan, obj)
        if lastmod is None and plan.use_source_time:
            lastmod = _source_time(obj)
        own_url = host_url or page_url(plan.base, rel, directory_urls=config.directory_urls)
        alternates = _translations(plan, site, obj, own_url)
    elif not _is_template_page(context):
        lastmod = _listing_lastmod(context, plan.timezone_name)
    else:
        lastmod = None  # a TEMPLATE_PAGES page shows anything; its date is unknown
    # The page's own metadata wins over SITEMAP_PLUGINS rules, which win over
    # pelican-sitemap's per-kind values: the core applies that order.
    return PageHints(
        lastmod=lastmod, lastmod_source=source, changefreq=_metadata_changefreq(obj, rel),
        priority=_metadata_priority(obj, rel), alternates=alternates, url=host_url,
        published=published,
        default_changefreq=plan.legacy.changefreqs.get(kind),
        default_priority=plan.legacy.priorities.get(kind),
    )


def _host_url(plan: _Plan, site: _Site, rel: str, obj: object) -> str | None:
    """The URL the site links to for a content page, absolute, when it may not be its file's.

    ``ARTICLE_URL = "{slug}"`` with ``ARTICLE_SAVE_AS = "{slug}.html"`` (a server rewrite
    adds the suffix) links to ``slug``; the core decides whether that is the page's URL.
    """
    if plan.urls_follow_files and not site.offset:
        # Pelican formats url and save_as anew on every access: skip them when they cannot
        # differ (every page pays this).
        metadata = getattr(obj, "metadata", None)
        if not isinstance(metadata, Mapping) or not ({"url", "save_as"} & metadata.keys()):
            return None
    save_as, url = getattr(obj, "save_as", None), getattr(obj, "url", None)
    if not isinstance(save_as, str) or not isinstance(url, str) or site.base is None:
        return None
    save_as = save_as.replace(os.sep, "/")
    if url == save_as or url == save_as.removesuffix("index.html"):
        return None  # the usual case, told apart without any URL work (every page pays it)
    prefix = f"{site.offset}/" if site.offset else ""
    if prefix + save_as != rel and posixpath.normpath(prefix + save_as) != rel:
        return None  # another file of the page's (a listing it heads, say)
    # Pelican's URLs are relative to the SITEURL of the instance that wrote the page.
    return resolve_href(url or "./", str(site.base))


def _opt_out(obj: object) -> str | None:
    status = str(getattr(obj, "status", "published") or "published").lower()
    if status != "published":
        return {"draft": REASON_DRAFT, "hidden": REASON_HIDDEN}.get(status, REASON_STATUS)
    flag = _flag(obj, "sitemap")
    if flag is False:
        return REASON_OPT_OUT
    if _flag(obj, "private") is True:
        return REASON_PRIVATE
    return None


def _flag(obj: object, name: str) -> bool | None:
    """A yes/no metadata value (``Sitemap: false``, ``Private: True``); None when unset."""
    value = getattr(obj, name, None)
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _YES:
        return True
    if text in _NO:
        return False
    log.warning(
        "Sitemap: %s: %s metadata %r is not a yes/no value (true/false); ignored",
        _source_name(obj),
        name.capitalize(),
        value,
    )
    return None


def _source_name(obj: object) -> str:
    return str(getattr(obj, "relative_source_path", None) or getattr(obj, "source_path", "?"))


def _metadata_priority(obj: object, rel: str) -> float | None:
    """pelican-sitemap's ``Priority:`` metadata."""
    value = getattr(obj, "priority", None) if obj is not None else None
    if value is None:
        return None
    try:
        number = float(value) if isinstance(value, str) else value
        return check_priority("priority", number)
    except (ValueError, ConfigError):
        log.warning(
            "Sitemap: %s: Priority metadata %r is not a number from 0.0 to 1.0; ignored (%s)",
            _source_name(obj),
            value,
            rel,
        )
        return None


def _metadata_changefreq(obj: object, rel: str) -> str | None:
    """pelican-sitemap's ``ChangeFreq:`` metadata."""
    value = getattr(obj, "changefreq", None) if obj is not None else None
    if value is None:
        return None
    try:
        return check_changefreq("changefreq", str(value).strip().lower())
    except ConfigError:
        log.warning(
            "Sitemap: %s: ChangeFreq metadata %r is not one of always, hourly, daily, weekly, "
            "monthly, yearly, never; ignored (%s)",
            _source_name(obj),
            value,
            rel,
        )
        return None


def _legacy_excluded(plan: _Plan, rel: str, obj: object, *, directory_urls: bool) -> bool:
    """pelican-sitemap's test: ``re.search`` on the URL relative to SITEURL, no leading slash.

    Both the listed path and, for articles and pages, their own ``url`` are tried, so patterns
    written for pelican-sitemap keep matching (it used ``url``) and i18n prefixes can be used.
    """
    candidates = {_strip_index(rel) if directory_urls else rel}
    if obj is not None:
        url = str(getattr(obj, "url", "") or "")
        candidates.add(_strip_index(url.lstrip("/")))
    return any(p.search(c) for p in plan.legacy.exclude for c in candidates)


def _strip_index(path: str) -> str:
    head, _, name = path.rpartition("/")
    if name.lower() in INDEX_NAMES:
        return f"{head}/" if head else ""
    return path


def _aware(value: object, timezone_name: str) -> Lastmod | None:
    """A Pelican date as a plain, timezone-aware datetime (TIMEZONE for a naive one)."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            try:
                zone: tzinfo = ZoneInfo(timezone_name)
            except (ZoneInfoNotFoundError, ValueError):
                zone = timezone.utc
            value = value.replace(tzinfo=zone)
        # Pelican's SafeDatetime subclass becomes a plain datetime (cheap to pickle).
        return datetime(
            value.year,
            value.month,
            value.day,
            value.hour,
            value.minute,
            value.second,
            tzinfo=value.tzinfo,
        )
    if isinstance(value, date):
        return date(value.year, value.month, value.day)
    return coerce_lastmod(value)


def _content_lastmod(obj: object, timezone_name: str) -> Lastmod | None:
    """An article's or page's ``modified``, else its ``date``."""
    for name in ("modified", "date"):
        value = getattr(obj, name, None)
        if value is not None:
            lastmod = _aware(value, timezone_name)
            if lastmod is not None:
                return lastmod
    return None


def _listing_lastmod(context: Mapping[str, Any], timezone_name: str) -> Lastmod | None:
    """The newest article a listing page shows (just this page's, when paginated)."""
    page = context.get("articles_page")
    articles = getattr(page, "object_list", None) if page is not None else None
    if articles is None:
        articles = context.get("articles") or context.get("dates") or ()
    newest: Lastmod | None = None
    known = _RUN.content_lastmods
    for article in articles:
        # The same articles come back on every tag, category, archive and index page.
        cached = known.get(id(article))
        if cached is not None and cached[0] is article:
            lastmod = cached[1]
        else:
            lastmod = _content_lastmod(article, timezone_name)
            known[id(article)] = (article, lastmod)  # holding it keeps the id unique
        if lastmod is not None and (newest is None or sort_key(lastmod) > sort_key(newest)):
            newest = lastmod
    return newest


def _git_date(plan: _Plan, obj: object) -> Lastmod | None:
    """When the source of ``obj`` last changed on this branch, from one ``git log``."""
    source = getattr(obj, "source_path", None)
    if not source or not plan.content_path:
        return None
    if _RUN.git_dates is None:
        _RUN.git_dates, shallow = read_git_dates(plan.content_path)
        if shallow:
            # CI's default checkout: a note, not a warning, so that --fatal warnings passes.
            log.info(shallow_note(f"{SETTING}['git_dates'] = False"))
    rel = os.path.relpath(source, plan.content_path).replace(os.sep, "/")
    return _RUN.git_dates.get(rel)


def _source_time(obj: object) -> Lastmod | None:
    source = getattr(obj, "source_path", None)
    if not source:
        return None
    try:
        return file_time(os.stat(source).st_mtime)
    except OSError:
        return None


def _lang_code(lang: object) -> str:
    """Pelican language names as hreflang codes (``pt_BR`` -> ``pt-BR``)."""
    return str(lang or "").strip().replace("_", "-")


def _translations(
    plan: _Plan,
    site: _Site,
    obj: object,
    own_url: str,
) -> tuple[tuple[str, str], ...] | None:
    """The page's language group: itself, its published translations and ``x-default``.

    URLs come from SITEURL in the settings of the instance that wrote the page (with
    RELATIVE_URLS the page context holds a relative one) and each translation's ``url``
    (i18n_subsites makes those relative to the sub-site, e.g. ``../post.html``).
    """
    translations = [
        t
        for t in getattr(obj, "translations", None) or ()
        if str(getattr(t, "status", "published")).lower() == "published"
    ]
    if not translations or site.base is None:
        return None
    pairs = [(_lang_code(getattr(obj, "lang", "")), own_url)]
    for translation in translations:
        url = resolve_href(str(getattr(translation, "url", "") or "./"), str(site.base))
        if url is not None:
            pairs.append((_lang_code(getattr(translation, "lang", "")), url))
    default = next((url for code, url in pairs if code == plan.default_lang), None)
    if default is not None:
        pairs.append(("x-default", default))
    return tuple(pairs)


__all__ = ["SETTING", "SettingsError", "read_plan", "register"]
