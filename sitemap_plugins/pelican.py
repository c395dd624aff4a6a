"""Pelican adapter: ``PLUGINS = ["sitemap_plugins.pelican"]`` in ``pelicanconf.py``.

Settings: the ``SITEMAP_PLUGINS`` dict (the core's options plus ``static_html``), and
pelican-sitemap's ``SITEMAP`` (``pelican_legacy``). Signals drive it (:func:`register`): each
file written is noted as it is written, and the main instance's end writes the sitemap.
Top floor: a front-end writing no file.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import posixpath
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, Protocol

# Import Pelican before creating the logger: Pelican installs its logger class on import,
# which is what makes `pelican --fatal warnings` count our warnings.
from pelican.plugins import signals

from sitemap_plugins.entry import page_values
from sitemap_plugins.entry.rules import PUBLISHED, REASON_UNTRANSLATED, DateClaim, PageHints
from sitemap_plugins.hosts import pelican_legacy
from sitemap_plugins.hosts.config import host_config, read_options
from sitemap_plugins.hosts.git_dates import GitLog, read_git_log, shallow_note
from sitemap_plugins.page.reader import HostPage, host_title, listing_items, titled
from sitemap_plugins.products.report import log_result
from sitemap_plugins.vocab import urls
from sitemap_plugins.vocab.dates import Lastmod, file_time
from sitemap_plugins.vocab.errors import ConfigError, PageValueError, received
from sitemap_plugins.vocab.options import PAGE_VALUE_BY_NAME, SitemapConfig
from sitemap_plugins.vocab.values import (
    hreflang,
    language_group,
    unknown_language,
    untranslated_copy,
)

if TYPE_CHECKING:
    from sitemap_plugins.products.html_map.plan import BlogPlace, NavNode
    from sitemap_plugins.vocab.urls import BaseUrl

log = logging.getLogger(__name__)

SETTING = "SITEMAP_PLUGINS"

_HTML_EXTENSIONS = (".html", ".htm")

REASON_DRAFT = "draft"
REASON_HIDDEN = "hidden"
REASON_STATUS = "not published"
REASON_OPT_OUT = "Sitemap: false metadata"
REASON_PRIVATE = "Private: True metadata"
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
class _Plan:
    """Everything the run needs from the main site's settings, checked once."""

    config: SitemapConfig
    base: BaseUrl | None
    """None when SITEURL is empty or relative: no sitemap can be written then."""
    siteurl: str
    use_source_time: bool
    """``lastmod_file_time`` as Pelican users mean it: the source file's time (every output
    file is rewritten by each build, so its own time is always "now")."""
    legacy: pelican_legacy.Legacy
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
    file_dates: bool = False
    """``DEFAULT_DATE = 'fs'``: Pelican fills a missing ``date`` and ``modified`` with the
    source file's time, which is no author's date (a checkout or a ``touch`` moves it)."""
    site_langs: tuple[str, ...] = ()
    """The languages with a site: DEFAULT_LANG and i18n_subsites' ``I18N_SUBSITES`` keys."""


@dataclass(frozen=True)
class _Site:
    """One Pelican instance of the current run: the main site or an i18n sub-site."""

    instance_id: int
    base: BaseUrl | None
    offset: str | None
    """Its OUTPUT_PATH relative to the main one (POSIX, "" for the main site), or None."""
    served_at_offset: bool
    """Whether its SITEURL is the main SITEURL plus ``offset``, so its files' URLs follow."""
    lang: str = ""
    """Its DEFAULT_LANG."""


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
    places: dict[str, BlogPlace] = field(default_factory=dict)
    """Written file -> what it is on the blog, for the HTML site map's sections."""
    git_log: GitLog | None = None
    """Each source's last commit (relative to ``PATH``), read once when first wanted."""

    def main_instance(self) -> _Pelican | None:
        return self.main() if self.main is not None else None


_RUN = _Run()


# --- Settings -----------------------------------------------------------------------------


def _base_from_siteurl(siteurl: object) -> BaseUrl | None:
    """The site's base URL, or None when SITEURL is empty or relative (a dev build).

    Raises:
        SettingsError: when SITEURL is absolute but not a usable http(s) URL.

    """
    if not isinstance(siteurl, str):
        msg = f"Expected a URL string but received: {received(siteurl)}"
        raise SettingsError("SITEURL", msg)
    try:
        return urls.absolute_base(siteurl)
    except ValueError as err:
        raise SettingsError("SITEURL", str(err)) from err


def read_plan(settings: Mapping[str, Any]) -> _Plan:
    """Check the plugin's settings and turn them into a plan for the run.

    Raises:
        SettingsError: naming the setting (``SITEMAP_PLUGINS['key']``, ``SITEMAP[...]`` or
            ``SITEURL``) and what is wrong with it.

    """
    raw = settings.get(SETTING)
    subsites = settings.get("I18N_SUBSITES")
    subsites = subsites if isinstance(subsites, Mapping) else {}
    try:
        core = read_options({} if raw is None else raw, SETTING, base_url_from="SITEURL",
                            key_noun="a setting", misplaced=pelican_legacy.MISPLACED_KEYS)
        legacy = pelican_legacy.read_legacy(settings.get(pelican_legacy.LEGACY_SETTING), SETTING)
    except ConfigError as err:
        raise SettingsError(err.option, err.message) from err
    siteurl = settings.get("SITEURL", "")
    base = _base_from_siteurl(siteurl)
    use_source_time = bool(core.get("lastmod_file_time", False))
    # The cache folder: Pelican does not keep the settings file's path, and pelicanconf.py
    # normally sits beside the content folder, in PATH's parent.
    content = Path(str(settings.get("PATH") or os.curdir)).resolve()
    try:
        config = host_config(core, base_url=str(base) if base is not None else None,
                             config_dir=str(content.parent))
    except ConfigError as err:
        raise SettingsError(f"{SETTING}[{err.option!r}]", err.message) from err
    if use_source_time:
        # Output files are all rewritten by each build: their time would say "built now".
        config = dataclasses.replace(config, lastmod_file_time=False)
    return _Plan(config=config, base=base, siteurl=str(siteurl),
                 development=not str(siteurl).strip() and bool(settings.get("RELATIVE_URLS")),
                 use_source_time=use_source_time, legacy=legacy,
                 default_lang=hreflang(settings.get("DEFAULT_LANG", "")),
                 timezone_name=str(settings.get("TIMEZONE") or "UTC"),
                 urls_follow_files=_urls_follow_files(settings),
                 content_path=str(settings.get("PATH") or ""),
                 file_dates=settings.get("DEFAULT_DATE") == "fs",
                 site_langs=(str(settings.get("DEFAULT_LANG") or ""), *map(str, subsites)))


_URL_SETTINGS = ("ARTICLE", "ARTICLE_LANG", "DRAFT", "DRAFT_LANG", "PAGE", "PAGE_LANG",
                 "DRAFT_PAGE", "DRAFT_PAGE_LANG")


def _urls_follow_files(settings: Mapping[str, Any]) -> bool:
    for kind in _URL_SETTINGS:
        url, save_as = settings.get(f"{kind}_URL"), settings.get(f"{kind}_SAVE_AS")
        if url is None and save_as is None:
            continue
        if not (isinstance(url, str) and isinstance(save_as, str)
                and urls.is_file_link(url, save_as)):
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
    pelican_legacy.announce(plan.legacy, pelican.settings.get("PLUGINS"), log)
    for index, code in enumerate(plan.site_langs):
        if code and (why := unknown_language(hreflang(code))) is not None:
            log.warning("Sitemap: %s %s: search engines ignore hreflang links in it",
                        "I18N_SUBSITES key" if index else "DEFAULT_LANG", why)


def on_get_generators(pelican: _Pelican) -> None:
    """Start a run for the main instance; remember an i18n sub-site inside it.

    The first Pelican instance seen is the main site; i18n_subsites runs its sub-sites as
    nested instances inside that run, so their pages join the main sitemap.
    """
    if not _nested(pelican):
        _RUN.main = weakref.ref(pelican)
        _RUN.plan = read_plan(pelican.settings)
        _RUN.main_output = _real_dir(pelican.settings["OUTPUT_PATH"])
        # autoreload: the sources may have been committed since (git_dates)
        _RUN.sites, _RUN.pages, _RUN.outside, _RUN.places, _RUN.git_log = [], {}, 0, {}, None
    _RUN.folders, _RUN.content_lastmods = {}, {}
    _RUN.sites.append(_site_for(pelican))


def _site_for(pelican: _Pelican) -> _Site:
    output = _real_dir(pelican.settings["OUTPUT_PATH"])
    offset = urls.rel_path(output, _RUN.main_output)
    plan = _RUN.plan
    siteurl = pelican.settings.get("SITEURL", "")
    try:
        base = _base_from_siteurl(siteurl)
    except SettingsError:
        base = None
    if base is None and plan is not None and plan.base is not None and isinstance(siteurl, str):
        base = urls.relative_base(siteurl, plan.base)
    served = False
    if plan is not None and plan.base is not None and base is not None and offset is not None:
        served = urls.folder_base(plan.base, offset) == base
    return _Site(id(pelican), base, offset, served,
                 hreflang(pelican.settings.get("DEFAULT_LANG")))


def _real_dir(path: object) -> str:
    return os.path.realpath(os.fspath(str(path)))


def _written_rel(path: str) -> str | None:
    """A written file's path relative to the main OUTPUT_PATH, or None when outside it.

    Links are resolved in the folder part only: with STATIC_CREATE_LINKS the file itself is a
    link into the sources.
    """
    head, name = os.path.split(os.path.abspath(path))
    if head not in _RUN.folders:
        _RUN.folders[head] = urls.rel_path(os.path.realpath(head), _RUN.main_output)
    folder = _RUN.folders[head]
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

    from sitemap_plugins.products.html_map.markup import MARKER  # noqa: PLC0415
    from sitemap_plugins.products.html_map.plan import site_map_title, taken_message  # noqa: PLC0415

    rel = plan.config.html_sitemap
    taken = next((p for p in [*generator.pages, *generator.hidden_pages]
                  if getattr(p, "save_as", None) == rel), None)
    if taken is not None:
        log.critical("SettingsError: SITEMAP_PLUGINS['html_sitemap']: %s",
                     taken_message(rel, _source_name(taken)))
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
    """Note what Pelican knows of a page it wrote: status, dates, translations, opt-outs.

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
    obj = next((o for o in (context.get("article"), context.get("page")) if o is not None), None)
    override = _is_override(obj, context)
    known = _RUN.pages.get(rel)
    if known is not None and (known[1] or not override):
        return  # Pelican wrote this one to /dev/null (or it repeats the same page)
    site = _RUN.sites[-1]
    # Checked in every build, whatever the page's fate.
    own = _own_values(obj) if obj is not None else page_values.NO_OWN_VALUES
    hints = _page_hints(plan, site, rel, obj, context, own) if plan.base is not None else None
    place = _place(obj, context)
    if hints is not None and not hints.exclude:
        page = _host_page(path, obj, context, place, plan)
        if page is not None:
            hints = dataclasses.replace(hints, page=page)
    _RUN.pages[rel] = (hints, override)
    if plan.config.lists_pages and place is not None:
        _RUN.places[rel] = place


def _host_page(path: str, obj: object, context: Mapping[str, Any], place: BlogPlace | None,
               plan: _Plan) -> HostPage | None:
    """The page as Pelican rendered it: its content (a listing's: its items), and its head.

    None for a page whose content Pelican does not know (``TEMPLATE_PAGES``): read whole.
    """
    if obj is not None:
        content = getattr(obj, "content", None)
        if isinstance(content, str):
            content = titled(host_title(getattr(obj, "title", "")), content)
        media = True
    else:
        content = _listing_content(context, place, plan)
        media = False  # a listing's images are its articles'
    if not isinstance(content, str):
        return None
    from sitemap_plugins.disk.site import read_head  # noqa: PLC0415  # once a page is written

    head = read_head(path)
    return HostPage(head, content, media) if head is not None else None


def _listing_content(context: Mapping[str, Any], place: BlogPlace | None,
                     plan: _Plan) -> str | None:
    kind = place.kind if place is not None else ""
    if kind in ("tags", "categories", "authors"):
        named = context.get(kind) or ()
        return listing_items([(str(getattr(item, "url", "") or ""), str(item), "", "")
                              for item, _ in named])
    page = context.get("articles_page")
    if page is not None:
        articles = getattr(page, "object_list", None) or ()
    elif kind == "archives" or context.get("period") is not None:
        articles = context.get("dates") or ()
    elif kind in ("category", "tag", "author", "index"):
        articles = context.get("articles") or ()
    else:
        return None
    items = []
    for article in articles:
        when = _stated(article, "date", plan)
        items.append((str(getattr(article, "url", "") or ""),
                      host_title(getattr(article, "title", "")),
                      when.isoformat() if isinstance(when, date) else "",
                      str(getattr(article, "summary", "") or "")))
    return listing_items(items)


def _is_override(obj: object, context: Mapping[str, Any]) -> bool:
    """Whether Pelican wrote this file with ``override_output`` (it then wins the path)."""
    if obj is not None:
        return hasattr(obj, "override_save_as")
    # TEMPLATE_PAGES are written with override_output=True and have no content object.
    return _is_template_page(context)


def _is_template_page(context: Mapping[str, Any]) -> bool:
    return context.get("output_file") in set((context.get("TEMPLATE_PAGES") or {}).values())


def on_static_finalized(generator: _StaticGenerator) -> None:
    """Note the static files of this run that the sitemap may list."""
    plan = _RUN.plan
    if plan is None or not _RUN.sites:
        return
    output_path = generator.output_path
    extensions = plan.config.extensions
    for static in getattr(generator, "staticfiles", ()):
        save_as = getattr(static, "save_as", None)
        suffix = PurePath(save_as).suffix.lower() if save_as else ""
        if not save_as or suffix not in extensions:
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
        claims = page_values.date_claims(page_values.NO_OWN_VALUES, file_time=_source_time(static)
                             if plan.use_source_time else None)
        hints = PageHints(dates=claims) if claims else None
        _RUN.pages[rel] = (hints, False)


def on_finalized(pelican: _Pelican) -> None:
    """Write the sitemap once the main instance (and every i18n sub-site) is done."""
    if _RUN.sites and _RUN.sites[-1].instance_id == id(pelican):
        _RUN.sites.pop()
    if _RUN.main_instance() is not pelican:
        return
    plan, pages, outside, places = _RUN.plan, _RUN.pages, _RUN.outside, _RUN.places
    _RUN.main, _RUN.plan, _RUN.sites, _RUN.pages, _RUN.outside = None, None, [], {}, 0
    _RUN.folders, _RUN.content_lastmods, _RUN.places = {}, {}, {}
    if plan is None:
        return
    if plan.base is None and plan.development:
        log.info("Sitemap: not written for this development build (no SITEURL, "
                 "RELATIVE_URLS on): a sitemap lists absolute URLs; the build with your "
                 "publish settings (SITEURL set, usually publishconf.py) writes it.")
        return
    if plan.base is None:
        log.warning("Sitemap: SITEURL %r is not an absolute URL, so no sitemap was written: a "
                    "sitemap lists absolute URLs. Set SITEURL to the public URL of the site "
                    "(usually in publishconf.py).", plan.siteurl)
        return
    if outside:
        log.info("Sitemap: %d files were written outside OUTPUT_PATH (an i18n sub-site with its "
                 "own OUTPUT_PATH?) and are not listed", outside)
    unplaced = sum(1 for page_hints, _ in pages.values()
                   if page_hints is not None and page_hints.exclude == REASON_OTHER_URL)
    if unplaced:
        log.warning(
            "Sitemap: %d pages of i18n sub-sites are not listed: their SITEURL does not put "
            "them where their files are below the main site's (%s). Set each sub-site's "
            "SITEURL to the main SITEURL followed by its folder.", unplaced, plan.siteurl)
    hints = {rel: page_hints for rel, (page_hints, _) in pages.items() if page_hints is not None}
    outline: tuple[NavNode, ...] = ()
    if plan.config.lists_pages:
        from sitemap_plugins.products.html_map.plan import blog_outline, names_in  # noqa: PLC0415

        outline = blog_outline(places, str(pelican.settings.get("SITENAME") or ""),
                               names_in(pelican.settings.get("DEFAULT_LANG")))
    from sitemap_plugins.products.build.pipeline import generate  # noqa: PLC0415  # the pipeline, as it runs

    result = generate(pelican.settings["OUTPUT_PATH"], plan.config, hints=hints, only=set(pages),
                      outline=outline, site_name=str(pelican.settings.get("SITENAME") or ""))
    log_result(log, result, "Sitemap: ", show=_console_line)


def _console_line(line: str) -> None:
    """Print ``line`` as Pelican prints its own "Done: ..." summary (Pelican 4.9 and later)."""
    try:
        from pelican.log import console  # noqa: PLC0415  # only when the line is shown
    except ImportError:  # an older Pelican prints its summary with print()
        print(line)  # noqa: T201
        return
    console.print(line, markup=False, highlight=False, soft_wrap=True)


# --- Where a page goes in the HTML site map ----------------------------------------------


def _place(obj: object, context: Mapping[str, Any]) -> BlogPlace | None:
    """What Pelican wrote, from the objects it rendered the file with."""
    from sitemap_plugins.products.html_map.plan import BlogPlace  # noqa: PLC0415  # the map's, and listings'

    listing = context.get("articles_page")
    number = int(getattr(listing, "number", 1) or 1)
    if context.get("article") is not None:
        date = getattr(obj, "date", None)
        stamp = date.timestamp() if isinstance(date, datetime) else 0.0
        category = context.get("category")
        return BlogPlace("article", str(category or ""), date=stamp,
                      title=host_title(getattr(obj, "title", "")),
                      slug=str(getattr(category, "slug", "") or ""))
    if obj is not None:
        return BlogPlace("page", "", title=host_title(getattr(obj, "title", "")))
    for kind in ("category", "tag", "author"):
        if context.get(kind) is not None:
            return BlogPlace(kind, str(context[kind]), number,
                             slug=str(getattr(context[kind], "slug", "") or ""))
    page_name = str(context.get("page_name") or "")
    for template in context.get("DIRECT_TEMPLATES") or ():
        save_as = context.get(f"{str(template).upper()}_SAVE_AS", f"{template}.html")
        if save_as and os.path.splitext(str(save_as))[0] == page_name:
            return BlogPlace(str(template), "", number)
    return None  # period archives, TEMPLATE_PAGES: grouped by folder


# --- What Pelican knows about a page --------------------------------------------------------


def _page_hints(plan: _Plan, site: _Site, rel: str, obj: object, context: Mapping[str, Any],
                own: page_values.OwnValues) -> PageHints:
    """What Pelican knows of one written file, in the core's terms."""
    assert plan.base is not None
    if not site.served_at_offset:
        return PageHints(exclude=REASON_OTHER_URL)
    status = str(getattr(obj, "status", "published") or "published").lower()
    if status != "published":
        return PageHints(exclude={"draft": REASON_DRAFT, "hidden": REASON_HIDDEN}.get(
            status, REASON_STATUS))
    if own.exclude:
        return PageHints(exclude=REASON_OPT_OUT)
    if own.private:
        return PageHints(exclude=REASON_PRIVATE)
    if obj is not None and untranslated_copy(getattr(obj, "lang", ""), site.lang,
                                             plan.site_langs):
        return PageHints(exclude=REASON_UNTRANSLATED)  # I18N_UNTRANSLATED_*: keep
    config = plan.config
    host_url = _host_url(plan, site, rel, obj) if obj is not None else None
    if plan.legacy.exclude and pelican_legacy.is_excluded(
        plan.legacy, rel, None if obj is None else str(getattr(obj, "url", "") or ""),
        directory_urls=config.directory_urls,
    ):
        return PageHints(exclude=pelican_legacy.REASON_LEGACY_EXCLUDE)
    kind = ("articles" if context.get("article") is not None
            else "pages" if obj is not None else "indexes")

    # Every date below is Pelican's own knowledge, each with what it is; the core's one rule
    # (rules.choose_lastmod) picks, and its manifest may know of a later change.
    alternates, published = None, None
    claims: tuple[DateClaim, ...] = ()
    if obj is not None:
        claims = _content_claims(obj, plan, own)
        if kind == "articles":  # an article's Date: when it was published (pages are not news)
            published = next((claim.value for claim in claims if claim.kind == PUBLISHED), None)
        own_url = host_url or urls.page_url(plan.base, rel, directory_urls=config.directory_urls,
                                            extensionless_urls=config.extensionless_urls)
        alternates = _translations(plan, site, obj, own_url)
    elif not _is_template_page(context):
        claims = _listing_claims(context, plan)
    # else a TEMPLATE_PAGES page shows anything; its date is unknown
    # The page's own metadata wins over SITEMAP_PLUGINS rules, which win over
    # pelican-sitemap's per-kind values: the core applies that order.
    return PageHints(dates=claims, changefreq=own.changefreq,
                     priority=own.priority, alternates=alternates, url=host_url,
                     published=published, default_changefreq=plan.legacy.changefreqs.get(kind),
                     default_priority=plan.legacy.priorities.get(kind))


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
    if urls.is_file_link(url, save_as):
        return None  # the usual case, told apart without any URL work (every page pays it)
    prefix = f"{site.offset}/" if site.offset else ""
    if prefix + save_as != rel and posixpath.normpath(prefix + save_as) != rel:
        return None  # another file of the page's (a listing it heads, say)
    # Pelican's URLs are relative to the SITEURL of the instance that wrote the page.
    return urls.resolve_href(url or "./", str(site.base))


def _source_name(obj: object) -> str:
    return str(getattr(obj, "relative_source_path", None) or getattr(obj, "source_path", "?"))


def _own_values(obj: object) -> page_values.OwnValues:
    """The page's own values (``Sitemap:``, ``Priority:``...), checked as MkDocs' front matter.

    A bad one is one CRITICAL line naming the page, then exit status 1.
    """
    try:
        return page_values.own_values(
            {name: getattr(obj, name, None) for name in PAGE_VALUE_BY_NAME}, _source_name(obj))
    except PageValueError as err:
        log.critical("%s", err)
        raise SystemExit(1) from None


def _stated(obj: object, name: str, plan: _Plan) -> object:
    """The content's ``date`` or ``modified`` as its author stated it; None for a file time.

    Under ``DEFAULT_DATE = 'fs'`` Pelican fills a missing one with the source file's time
    (naive, in the machine's local time): a checkout or a ``touch`` moves it, so it is never
    taken for the author's date. It is known by being exactly that time, to the microsecond.
    """
    value = getattr(obj, name, None)
    if value is None or not plan.file_dates or not isinstance(value, datetime):
        return value
    source = getattr(obj, "source_path", None)
    try:
        # Pelican's own naive local time, compared as Pelican made it.
        stamp = (datetime.fromtimestamp(os.stat(source).st_mtime)  # noqa: DTZ006
                 if source else None)
    except (OSError, ValueError, OverflowError):
        return value
    return None if value.replace(tzinfo=None) == stamp else value


def _content_claims(obj: object, plan: _Plan,
                    own: page_values.OwnValues = page_values.NO_OWN_VALUES,
                    ) -> tuple[DateClaim, ...]:
    """What Pelican knows of an article's or page's dates, each with what it is.

    ``Lastmod:`` is the author's word for the sitemap, ``Modified:`` the stated last change,
    ``Date:`` the publication (never a file time: :func:`_stated`), then its source's git
    dates; its source's file time only under ``lastmod_file_time``.
    """
    modified, published = (page_values.aware(_stated(obj, name, plan), plan.timezone_name)
                           for name in ("modified", "date"))
    stated = dataclasses.replace(own, updated=modified, published=published)
    commit = _git_commit(plan, obj) if plan.config.git_dates else None
    return page_values.date_claims(stated, [commit] if commit is not None else [],
                       _source_time(obj) if plan.use_source_time else None)


def _listing_claims(context: Mapping[str, Any], plan: _Plan) -> tuple[DateClaim, ...]:
    """The dates of the articles a listing page shows (just this page's, when paginated)."""
    page = context.get("articles_page")
    articles = getattr(page, "object_list", None) if page is not None else None
    if articles is None:
        articles = context.get("articles") or context.get("dates") or ()
    return page_values.listing_claims(_article_date(article, plan) for article in articles)


def _article_date(article: object, plan: _Plan) -> Lastmod | None:
    """An article's chosen date, found once a run.

    The same articles come back on every tag, category, archive and index page.
    """
    cached = _RUN.content_lastmods.get(id(article))
    if cached is not None and cached[0] is article:
        return cached[1]
    lastmod = page_values.chosen_date(_content_claims(article, plan, _own_values(article)))
    _RUN.content_lastmods[id(article)] = (article, lastmod)  # holding it keeps the id unique
    return lastmod


def _git_commit(plan: _Plan, obj: object) -> tuple[Lastmod, bool] | None:
    """The last commit of the source of ``obj`` on this branch, from one ``git log``."""
    source = getattr(obj, "source_path", None)
    if not source or not plan.content_path:
        return None
    if _RUN.git_log is None:
        _RUN.git_log = read_git_log(plan.content_path)
        if _RUN.git_log.shallow:  # CI's default checkout: a note, so that --fatal warnings passes
            log.info(shallow_note(f"{SETTING}['git_dates'] = False"))
    return _RUN.git_log.commit(os.path.relpath(source, plan.content_path).replace(os.sep, "/"))


def _source_time(obj: object) -> Lastmod | None:
    source = getattr(obj, "source_path", None)
    try:
        return file_time(os.stat(source).st_mtime) if source else None
    except OSError:
        return None


def _translations(plan: _Plan, site: _Site, obj: object,
                  own_url: str) -> tuple[tuple[str, str], ...] | None:
    """The page's language group: itself, its published translations and ``x-default``.

    URLs come from SITEURL in the settings of the instance that wrote the page (with
    RELATIVE_URLS the page context holds a relative one) and each translation's ``url``
    (i18n_subsites makes those relative to the sub-site, e.g. ``../post.html``).
    """
    translations = [t for t in getattr(obj, "translations", None) or ()
                    if str(getattr(t, "status", "published")).lower() == "published"]
    if not translations or site.base is None:
        return None
    found = ((getattr(t, "lang", ""), urls.resolve_href(str(getattr(t, "url", "") or "./"),
                                                         str(site.base))) for t in translations)
    return language_group([(getattr(obj, "lang", ""), own_url),
                           *((lang, url) for lang, url in found if url is not None)],
                          plan.default_lang)


__all__ = ["SETTING", "SettingsError", "read_plan", "register"]
