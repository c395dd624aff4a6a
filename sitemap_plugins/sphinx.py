"""Sphinx extension: ``extensions = ["sitemap_plugins.sphinx"]`` writes the sitemap.

A drop-in successor to sphinx-sitemap. After an ``html`` or ``dirhtml`` build it hands the
core what Sphinx knows: the files it writes, each document's values, git sources and
``body``, the toctree, sphinx-sitemap's settings. The core scans the output and decides.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import posixpath
import time
import weakref
from dataclasses import dataclass, field, replace
from logging import INFO
from typing import TYPE_CHECKING, Any, TypeGuard

from sphinx.builders.dirhtml import DirectoryHTMLBuilder
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.builders.singlehtml import SingleFileHTMLBuilder
from sphinx.jinja2glue import BuiltinTemplateLoader
from sphinx.util import fileutil, logging

from sitemap_plugins import __version__
from sitemap_plugins.entry.page_values import date_claims, own_values
from sitemap_plugins.entry.rules import HTML_EXTENSIONS, PageHints
from sitemap_plugins.hosts.config import host_config, read_options, relative_to_config
from sitemap_plugins.hosts.git_dates import latest_dates, shallow_note
from sitemap_plugins.hosts.host_files import files_under, subfolders
from sitemap_plugins.hosts.sphinx_legacy import LEGACY_DEFAULTS, check_legacy, translate
from sitemap_plugins.page.reader import HostPage
from sitemap_plugins.products.report import log_level, log_result
from sitemap_plugins.vocab.errors import ConfigError, Diagnostic, SitemapError
from sitemap_plugins.vocab.options import SitemapConfig, html_sitemap_file

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config

    from sitemap_plugins.products.html_map.plan import NavNode
    from sitemap_plugins.vocab.dates import Lastmod

log = logging.getLogger(__name__)

SETTING = "sitemap_plugins"
REASON_METADATA = "metadata sitemap: false"
REASON_STATIC_HTML = "static HTML copied from html_extra_path"
_COPYFILE = "copyfile"  # what copy_asset_file and copy_asset call, in sphinx.util.fileutil
_NOT_PAGES = ("_static/", "_sources/", "_images/", "_downloads/")  # theme and source files
_RUNS: weakref.WeakKeyDictionary[Sphinx, _Run] = weakref.WeakKeyDictionary()
_REFUSED: weakref.WeakSet[Sphinx] = weakref.WeakSet()


@dataclass
class _Run:
    """One HTML build's checked options and where its URLs live."""

    config: SitemapConfig
    canonical_base: str | None  # html_baseurl, when the URL scheme adds a path
    alternates: tuple[tuple[str, str], ...] = ()  # (hreflang, base URL) per sitemap_locales
    builder: StandaloneHTMLBuilder = field(kw_only=True)
    written: set[str] = field(default_factory=set)  # resolved here, whatever -j says
    bodies: dict[str, str] = field(default_factory=dict)  # of the pages rendered here
    pages: set[str] = field(default_factory=set)  # rendered here: all but -j's documents
    started: int = field(default_factory=time.time_ns)
    copied: set[str] = field(default_factory=set)  # by Sphinx's copy helpers, for extensions
    copy: Callable[..., None] | None = None  # Sphinx's own copyfile, while it is watched



def setup(app: Sphinx) -> dict[str, Any]:
    """Register the options and sphinx-sitemap's settings; connect the build's events."""
    meta = {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
    if "sphinx_sitemap" in app.config.extensions:
        _refuse(app, "sitemap_plugins.sphinx replaces sphinx_sitemap (and reads its sitemap_* "
                "settings): remove 'sphinx_sitemap' from extensions in conf.py")
        return meta
    app.add_config_value(SETTING, {}, "", types=frozenset({dict}))
    for name, default in LEGACY_DEFAULTS:
        if name not in app.config:
            app.add_config_value(name, default, "")
    app.connect("config-inited", _check_options)
    # Last: conf.py's setup() and other extensions may still set html_baseurl then.
    app.connect("builder-inited", _start, priority=900)
    app.connect("html-collect-pages", _site_map_page)
    app.connect("html-page-context", _page_context)
    app.connect("doctree-resolved", _resolved)
    # All the work, in the main process; after the pages other extensions write as it ends.
    app.connect("build-finished", _finish, priority=900)
    return meta


def _refuse(app: Sphinx, err: str) -> None:
    """Report a bad value in one ``ERROR:`` line, not Sphinx's crash report; exit status 1."""
    log.error("%s", err)  # untyped: suppress_warnings must not hide why the build failed
    app.statuscode = 1
    _REFUSED.add(app)


def _options(config: Config, confdir: str) -> dict[str, Any]:
    """``sitemap_plugins`` as given, its keys checked (the core checks the values)."""
    raw = read_options(config[SETTING], SETTING, base_url_from="html_baseurl",
                       key_noun="an option")
    return {name: relative_to_config(name, value, confdir) for name, value in raw.items()}


def _check_options(app: Sphinx, config: Config) -> None:
    """Check every option and sphinx-sitemap setting when the configuration is read."""
    try:
        check_legacy(_legacy_values(config))
        _validated(_options(config, _confdir(app)), None, _confdir(app), names={})
    except ConfigError as err:
        _refuse(app, f"{err.option}: {err.message}")


def _legacy_values(config: Config) -> dict[str, Any]:
    return {name: config[name] for name, _ in LEGACY_DEFAULTS}


def _validated(options: dict[str, Any], base_url: str | None, confdir: str, *,
               names: dict[str, str]) -> SitemapConfig:
    """The core's config, or an error naming the option (``names``: set as another setting)."""
    try:  # a user's template is compiled as the map is written, at the end of an html build
        return host_config(options, base_url=base_url, config_dir=confdir, check_products=False)
    except ConfigError as err:
        where = names.get(err.option, f"{SETTING}[{err.option!r}]")
        raise ConfigError(where, err.message) from err


def _is_html(builder: Builder) -> TypeGuard[StandaloneHTMLBuilder]:
    """Builders of a site of pages (html, dirhtml); not singlehtml, epub or JSON builders."""
    return (isinstance(builder, StandaloneHTMLBuilder) and not hasattr(builder, "implementation")
            and not isinstance(builder, SingleFileHTMLBuilder) and builder.format == "html"
            and builder.name not in ("epub", "json", "pickle"))


def _confdir(app: Sphinx) -> str:
    return str(app.confdir or app.srcdir)


def _start(app: Sphinx) -> None:
    """Check the base URL and the options for this HTML build; say what differs."""
    if not _is_html(builder := app.builder) or app in _REFUSED:
        return
    try:
        _begin(app, builder)
    except ConfigError as err:
        _refuse(app, f"{err.option}: {err.message}")


def _begin(app: Sphinx, builder: StandaloneHTMLBuilder) -> None:
    config = app.config
    base = config.site_url or config.html_baseurl
    if not base:
        log.warning(
            "No sitemap written: html_baseurl is not set in conf.py, and a sitemap must list "
            "absolute URLs. Set html_baseurl to the public URL of the documentation, e.g. "
            "html_baseurl = 'https://example.org/docs/'.", type="sitemap", subtype="configuration")
        return
    confdir, raw = _confdir(app), getattr(config, "_raw_config", {})
    options = _options(config, confdir)
    options.setdefault("directory_urls", isinstance(app.builder, DirectoryHTMLBuilder))
    if (suffix := builder.out_suffix.lower()) not in (".html", ".htm") and suffix[1:].isalnum():
        options.setdefault("extensions", [".html", ".htm", suffix])  # html_file_suffix's pages
    locales = list(config.sitemap_locales) or [  # else the folders of locale_dirs
        name for folder in config.locale_dirs or ()
        for name in subfolders(os.path.join(confdir, folder))]
    legacy = translate(
        _legacy_values(config), base=str(base), locales=locales,
        lang=os.environ.get("READTHEDOCS_LANGUAGE") or config.language or "",
        version=os.environ.get("READTHEDOCS_VERSION") or config.version or "",
        scheme_used=bool(os.environ.get("READTHEDOCS")) or "sitemap_url_scheme" in raw)
    names = {"base_url": "html_baseurl"}
    if legacy.sitemap_name is not None and "sitemap_name" not in options:
        options["sitemap_name"], names["sitemap_name"] = legacy.sitemap_name, "sitemap_filename"
    sitemap = _validated(options, legacy.root + legacy.prefix, confdir, names=names)
    run = _Run(replace(sitemap, exclude=(*sitemap.exclude, *legacy.excludes, *_NOT_PAGES)),
               canonical_base=legacy.root if legacy.prefix else None,
               alternates=legacy.alternates, builder=builder)
    for note in legacy.notes:  # info: a difference from sphinx-sitemap is no fault (-W passes)
        log.info("Sitemap: %s", note)
    _RUNS[app] = run
    run.copy = copy = getattr(fileutil, _COPYFILE)

    def noted(source: str | os.PathLike[str], dest: str | os.PathLike[str], **kw: bool) -> None:
        # copy_asset_file leaves a file identical to its source as it is: copied all the same.
        run.copied.add(os.path.abspath(dest))
        copy(source, dest, **kw)

    setattr(fileutil, _COPYFILE, noted)


def _site_map_page(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    """The HTML site map's page, rendered in the theme with a marker the core fills in."""
    if (run := _RUNS.get(app)) is None or run.config.html_sitemap is None:
        return
    builder, rel = run.builder, html_sitemap_file(run.config.html_sitemap)
    suffix = str(getattr(builder, "out_suffix", ".html"))
    if not rel.endswith(suffix):
        return  # the core writes its own page there
    # dirhtml writes page 'a' as a/index.html: a/index.html is 'a/index' or 'a'.
    pagename = next((name for name in (rel[: -len(suffix)], rel[: -len(suffix)].removesuffix(
        "/index")) if _rel(app, builder.get_outfilename(name)) == rel), None)
    if pagename is None or pagename in app.env.found_docs:
        return  # not a page name Sphinx can write there, or a document the core won't replace
    from sitemap_plugins.products.html_map.markup import MARKER  # noqa: PLC0415
    from sitemap_plugins.products.html_map.plan import site_map_title  # noqa: PLC0415

    title = site_map_title(app.config.language)
    # In a <section>, as docutils writes a document: themes indent lists there (rtd only there).
    body = f"<section>\n<h1>{title}</h1>\n{MARKER}\n</section>\n"
    yield pagename, {"title": title, "body": body}, "page.html"


def _page_context(app: Sphinx, pagename: str, template: str, context: dict[str, Any],
                  _doctree: object) -> None:
    """Keep a document's rendered content; fix its canonical link, the search page's noindex."""
    builder, base, run = app.builder, app.config.html_baseurl, _RUNS.get(app)
    if run:
        run.pages.add(pagename)
    if run and pagename in app.env.found_docs and isinstance(body := context.get("body"), str):
        run.bodies[pagename] = body  # its title in it, as the <h1> of its first section
    # dirhtml's canonical links say page.html, a file it never writes (Sphinx < 8.2, #9730).
    if run and isinstance(builder, DirectoryHTMLBuilder) and context.get("pageurl"):
        context["pageurl"] = posixpath.join(base, builder.get_target_uri(pagename))
    loader = getattr(builder, "templates", None)  # the basic theme's noindex, dropped by rtd
    if run and pagename == "search" and "search" not in app.env.found_docs and isinstance(
            loader, BuiltinTemplateLoader) and "noindex" not in loader.get_source(
            loader.environment, template)[0]:
        context["metatags"] = f'{context.get("metatags", "")}<meta name="robots" content="noindex">'


def _resolved(app: Sphinx, _doctree: object, docname: str) -> None:
    if (run := _RUNS.get(app)) is not None:
        run.written.add(docname)


def _rel(app: Sphinx, path: str | os.PathLike[str]) -> str:
    return os.path.relpath(path, app.outdir).replace(os.sep, "/")


def _finish(app: Sphinx, exception: Exception | None) -> None:
    """Write the sitemap once Sphinx has written the whole site (not after a failed build)."""
    run = _RUNS.pop(app, None)
    if run is not None and run.copy is not None:
        setattr(fileutil, _COPYFILE, run.copy)
    if run is None or exception is not None:
        return
    outline = _outline(app, run.builder) if run.config.lists_pages else ()
    from sitemap_plugins.products.build.pipeline import generate  # noqa: PLC0415  # the pipeline, as it runs

    try:
        hints, known = _hints(app, run)
        result = generate(app.outdir, run.config, hints=hints, only=known, outline=outline,
                          written_since=run.started, canonical_base=run.canonical_base,
                          site_name=app.config.project)
    except SitemapError as err:  # a page's bad value, a file in the way
        _refuse(app, f"{SETTING}[{err.option!r}]: {err.message}" if isinstance(
            err, ConfigError) else str(err))
        return
    # Warnings are Sphinx warnings (-W counts them), filed under sitemap.<code>.
    log_result(log, result, "Sitemap: ", level=_level,
               extra=lambda diagnostic: {"type": "sitemap", "subtype": diagnostic.code})


_PAGE_FIELDS = {"sitemap": "sitemap", "sitemap_lastmod": "lastmod",  # a document's own values
                "sitemap_changefreq": "changefreq", "sitemap_priority": "priority"}


def _hints(app: Sphinx, run: _Run) -> tuple[dict[str, PageHints], set[str]]:
    """What Sphinx knows of each page, by its path in the output; and the files it writes.

    Those it wrote or copied in this build or before: a deleted document's page is not one.
    """
    env, builder, config = app.env, run.builder, run.config
    suffixes = (*HTML_EXTENSIONS, builder.out_suffix.lower())
    extra = {rel for entry in app.config.html_extra_path or ()
             for rel in files_under(os.path.join(_confdir(app), entry))}
    docs = {_rel(app, builder.get_outfilename(doc)): doc for doc in sorted(env.found_docs)}
    rendered = {_rel(app, builder.get_outfilename(name)) for name in (*run.pages, *(
        f"_modules/{module.replace('.', '/')}" for module, entry
        in getattr(env, "_viewcode_modules", {}).items() if entry))}
    html = builder.out_suffix.lower() not in HTML_EXTENSIONS  # .shtml, .php: pages all the same

    def alternates(rel: str) -> tuple[tuple[str, str], ...] | None:
        link = rel.removesuffix("index.html") if config.directory_urls and (
            rel == "index.html" or rel.endswith("/index.html")) else rel
        return tuple((code, base + link) for code, base in run.alternates) or None

    hints = {rel: PageHints(alternates=alternates(rel), html=html) for rel in rendered}
    hints.update((rel, PageHints(exclude=REASON_STATIC_HTML)) for rel in extra
                 if not config.static_html and rel.lower().endswith(suffixes))
    metas = {doc: own_values({value: env.metadata.get(doc, {}).get(name) for name, value in
                              _PAGE_FIELDS.items()}, doc, date_value=env.metadata.get(doc, {}).get(
                                  "date")) for doc in docs.values()}  # PageValueError: bad
    git = _git_dates(app, [d for d, m in metas.items() if not m.exclude and m.lastmod is None],
                     config)
    for page in git.keys() - env.found_docs:  # viewcode's page of a module: the module's date
        rel = _rel(app, builder.get_outfilename(page))
        if not hints.get(rel, PageHints()).exclude:
            hints[rel] = replace(hints.get(rel, PageHints()), lastmod=git[page])
    other_link = getattr(builder, "link_suffix", ".html") != builder.out_suffix
    bodies = run.bodies if run.written <= run.bodies.keys() else {}  # all or none: -j N
    for rel, doc in docs.items():
        meta = metas[doc]
        if meta.exclude:
            hints[rel] = PageHints(exclude=REASON_METADATA)
            continue
        hints[rel] = PageHints(  # html_link_suffix: linked (and served) at another URL
            dates=date_claims(meta, [(git[doc], False)] if doc in git else []),
            changefreq=meta.changefreq, priority=meta.priority, alternates=alternates(rel),
            published=meta.published, url=builder.get_target_uri(doc) if other_link else None,
            unrendered=doc not in run.written,  # not rewritten: its last build's record holds
            html=html, page=HostPage(None, bodies[doc]) if doc in bodies else None)
    copied = {_rel(app, path) for path in run.copied}
    return hints, {*docs, *rendered, *extra, *copied}


def _git_dates(app: Sphinx, docs: list[str], config: SitemapConfig) -> dict[str, Lastmod]:
    """Each page's git date: of its source and the files it depends on (autodoc's modules).

    viewcode's page of a module takes its module's.
    """
    if not config.git_dates:
        return {}
    env = app.env
    sources = {doc: [str(env.doc2path(doc)), *(os.path.join(app.srcdir, dep)
                                          for dep in sorted(env.dependencies.get(doc, ())))]
               for doc in docs}
    for name, entry in sorted(getattr(env, "_viewcode_modules", {}).items()):
        with contextlib.suppress(Exception):  # not found, or not importable: no date
            spec = importlib.util.find_spec(name) if entry else None  # False: not read
            if spec is not None and spec.origin and spec.origin.endswith((".py", ".pyw")):
                sources[f"_modules/{name.replace('.', '/')}"] = [spec.origin]
    dates, shallow = latest_dates(str(app.srcdir), sources)
    if shallow:  # CI's default checkout: a note, not a warning, so that -W builds pass
        log.info("Sitemap: %s", shallow_note(f"{SETTING} = {{'git_dates': False}}"))
    return dates


def _outline(app: Sphinx, builder: StandaloneHTMLBuilder) -> tuple[NavNode, ...]:
    """The toctree from the root document, as the core's navigation for the HTML site map."""
    from sitemap_plugins.products.html_map.plan import NavNode  # noqa: PLC0415  # with the HTML site map

    env = app.env
    seen: set[str] = set()

    def node(doc: str) -> NavNode:
        seen.add(doc)
        children = tuple(node(child) for child in env.toctree_includes.get(doc, ())
                         if child in env.found_docs and child not in seen)
        title = env.titles[doc].astext() if doc in env.titles else None
        return NavNode(title, _rel(app, builder.get_outfilename(doc)), children)

    root = str(app.config.root_doc)
    return (node(root),) if root in env.found_docs else ()


def _level(diagnostic: Diagnostic) -> int:
    """The one policy (:func:`log_level`); sphinx-sitemap's file replaced is news (-W passes)."""
    if diagnostic.code == "replaced-sitemap" and "sphinx-sitemap" in diagnostic.message:
        return INFO
    return log_level(diagnostic)
