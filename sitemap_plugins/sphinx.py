"""Sphinx extension: ``extensions = ["sitemap_plugins.sphinx"]`` writes the sitemap.

A drop-in successor to sphinx-sitemap. After an ``html`` or ``dirhtml`` build the core scans
the output folder, with what only Sphinx knows (sources and autodoc's modules for git dates,
metadata, the toctree, sphinx-sitemap's settings, each document's ``body``) as
:class:`~sitemap_plugins.entry.rules.PageHints`; ``-j N`` gives ``-j 1``'s bytes.
"""

from __future__ import annotations

import contextlib
import fnmatch
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
from sphinx.errors import ConfigError as SphinxConfigError
from sphinx.errors import SphinxError
from sphinx.jinja2glue import BuiltinTemplateLoader
from sphinx.util import logging

from sitemap_plugins import __version__
from sitemap_plugins.entry.page_values import OwnValues, date_claims, own_values
from sitemap_plugins.entry.rules import PageHints
from sitemap_plugins.hosts.config import host_config, read_options, relative_to_config
from sitemap_plugins.hosts.git_dates import read_git_dates, shallow_note
from sitemap_plugins.page.reader import HostPage
from sitemap_plugins.products.report import log_level, log_result
from sitemap_plugins.vocab.dates import Lastmod, latest
from sitemap_plugins.vocab.errors import ConfigError, Diagnostic, SitemapError
from sitemap_plugins.vocab.options import SitemapConfig, html_sitemap_file
from sitemap_plugins.vocab.values import hreflang

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config

    from sitemap_plugins.products.html_map.plan import NavNode

log = logging.getLogger(__name__)

SETTING = "sitemap_plugins"
REASON_METADATA = "metadata sitemap: false"
REASON_EXCLUDES = "sitemap_excludes"
REASON_STATIC_HTML = "static HTML copied from html_extra_path"
REASON_NOT_A_PAGE = "theme or source file (not a page)"
REASON_LEFT_OVER = "left from an earlier build (Sphinx no longer writes it)"
DEFAULT_SCHEME = "{lang}{version}{link}"
_LEGACY_DEFAULTS: tuple[tuple[str, object], ...] = (
    ("site_url", None), ("sitemap_url_scheme", DEFAULT_SCHEME), ("sitemap_locales", []),
    ("sitemap_filename", "sitemap.xml"), ("sitemap_excludes", []),
    ("sitemap_show_lastmod", False), ("sitemap_indent", 0))
"""sphinx-sitemap's settings, with its defaults: read so that conf.py keeps working."""
_NOT_PAGES = ("_static/", "_sources/", "_images/", "_downloads/")
_RUNS: weakref.WeakKeyDictionary[Sphinx, _Run] = weakref.WeakKeyDictionary()
_REFUSED: weakref.WeakSet[Sphinx] = weakref.WeakSet()


@dataclass
class _Run:
    """One HTML build's checked options and where its URLs live."""

    config: SitemapConfig
    canonical_base: str | None
    """html_baseurl, where Sphinx's canonical links point, when the URL scheme adds a path."""
    alternates: tuple[tuple[str, str], ...] = ()
    """``(hreflang, base URL)`` of each of sphinx-sitemap's ``sitemap_locales``."""
    excludes: tuple[str, ...] = ()
    builder: StandaloneHTMLBuilder = field(kw_only=True)
    written: set[str] = field(default_factory=set)  # resolved here, whatever -j says
    bodies: dict[str, str] = field(default_factory=dict)  # of the pages rendered here
    pages: set[str] = field(default_factory=set)  # rendered here: all but -j's documents
    started: int = field(default_factory=time.time_ns)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the options and sphinx-sitemap's settings; connect the build's events.

    With sphinx-sitemap loaded too, an error says which one to remove.
    """
    meta = {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
    if "sphinx_sitemap" in app.config.extensions:
        _refuse(app, "sitemap_plugins.sphinx replaces sphinx_sitemap (and reads its sitemap_* "
                "settings): remove 'sphinx_sitemap' from extensions in conf.py")
        return meta
    app.add_config_value(SETTING, {}, "", types=frozenset({dict}))
    for name, default in _LEGACY_DEFAULTS:
        if name not in app.config:
            app.add_config_value(name, default, "")
    app.connect("config-inited", _check_options)
    # Last: conf.py's setup() and other extensions may still set html_baseurl then.
    app.connect("builder-inited", _start, priority=900)
    app.connect("html-collect-pages", _site_map_page)
    app.connect("html-page-context", _page_context)
    app.connect("doctree-resolved", _resolved)
    app.connect("build-finished", _finish)  # all the work, in the main process
    return meta


def _refuse(app: Sphinx, err: SphinxError | str) -> None:
    """Report a bad setting or page value in one ``ERROR:`` line; the build then exits 1.

    As linkcheck reports a broken link: a raised error would print Sphinx's crash report (a
    traceback, and a plea to report a bug to Sphinx) for a user's value. No sitemap is written.
    """
    log.error("%s", err)  # untyped: suppress_warnings must not hide why the build failed
    app.statuscode = 1
    _REFUSED.add(app)


def _options(config: Config, confdir: str) -> dict[str, Any]:
    """``sitemap_plugins`` as given, its keys checked (the core checks the values).

    Raises:
        sphinx.errors.ConfigError: naming the key, in the core's words.
    """
    try:
        raw = read_options(config[SETTING], SETTING, base_url_from="html_baseurl",
                           key_noun="an option")
    except ConfigError as err:
        raise SphinxConfigError(f"{err.option}: {err.message}") from err
    return {name: relative_to_config(name, value, confdir) for name, value in raw.items()}


def _check_options(app: Sphinx, config: Config) -> None:
    """Check every option when the configuration is read, whatever the builder."""
    try:
        _validated(_options(config, _confdir(app)), None, _confdir(app), names={})
    except SphinxConfigError as err:
        _refuse(app, err)


def _validated(options: dict[str, Any], base_url: str | None, confdir: str, *,
               names: dict[str, str]) -> SitemapConfig:
    """The core's config, or an error naming the option (``names``: set as another setting)."""
    try:  # a user's template is compiled as the map is written, at the end of an html build
        return host_config(options, base_url=base_url, config_dir=confdir, check_products=False)
    except ConfigError as err:
        where = names.get(err.option, f"{SETTING}[{err.option!r}]")
        raise SphinxConfigError(f"{where}: {err.message}") from err


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
    except SphinxConfigError as err:
        _refuse(app, err)


def _begin(app: Sphinx, builder: StandaloneHTMLBuilder) -> None:
    config = app.config
    base = config.site_url or config.html_baseurl
    if not base:
        log.warning(
            "No sitemap written: html_baseurl is not set in conf.py, and a sitemap must list "
            "absolute URLs. Set html_baseurl to the public URL of the documentation, e.g. "
            "html_baseurl = 'https://example.org/docs/'.", type="sitemap", subtype="configuration")
        return
    notes: list[str] = []
    confdir = _confdir(app)
    options = _options(config, confdir)
    options.setdefault("directory_urls", isinstance(app.builder, DirectoryHTMLBuilder))
    if (suffix := builder.out_suffix.lower()) not in (".html", ".htm") and suffix[1:].isalnum():
        options.setdefault("extensions", [".html", ".htm", suffix])  # html_file_suffix's pages
    filename, names = str(config.sitemap_filename or "sitemap.xml"), {"base_url": "html_baseurl"}
    if filename != "sitemap.xml" and "sitemap_name" not in options:
        # At the root: a sitemap lists only URLs below its folder (sitemaps.org, file location).
        name = posixpath.basename(filename.replace("\\", "/")).removesuffix(".gz")
        options["sitemap_name"] = name.removesuffix(".xml")
        names["sitemap_name"] = "sitemap_filename"
        notes.append(f"sitemap_filename {filename!r}: written as {options['sitemap_name']}.xml "
                     "at the root of the site (and .txt, .xml.gz beside it)")
    root, prefix, lang_root = _scheme(app, str(base), notes)
    run = _Run(_validated(options, root + prefix, confdir, names=names),
               canonical_base=root if prefix else None, alternates=_locales(app, lang_root, notes),
               excludes=tuple(str(p) for p in config.sitemap_excludes or ()), builder=builder)
    if run.excludes:
        notes.append("sitemap_excludes: matched as sphinx-sitemap does (fnmatch on the page's "
                     "link); the 'exclude' option takes globs of URL paths")
    if config.sitemap_show_lastmod:
        notes.append("sitemap_show_lastmod: not needed; lastmod comes from git (first-parent "
                     "commit dates) and the pages, without sphinx-last-updated-by-git")
    if config.sitemap_indent:
        notes.append("sitemap_indent: not used; the sitemap is always written two spaces deep")
    for note in notes:  # info: a difference from sphinx-sitemap is no fault (-W passes)
        log.info("Sitemap: %s", note)
    _RUNS[app] = run


def _scheme(app: Sphinx, base: str, notes: list[str]) -> tuple[str, str, str | None]:
    """(html_baseurl with its slash, the URL scheme's path before pages, its languages' root).

    The last is where each language's path goes (None: the scheme is not used). ``{lang}``
    and ``{version}`` are Read the Docs' language and version when it builds, else
    ``language`` and ``version``. Outside Read the Docs the scheme applies only when conf.py
    sets it (Sphinx's canonical links are html_baseurl + page). A prefix that html_baseurl
    already ends with is not added again.
    """
    config = app.config
    root = base if base.endswith("/") else base + "/"
    if root != base:
        notes.append(f"html_baseurl {base!r} has no trailing slash: pages are listed under "
                     f"{root!r} (sphinx-sitemap glued the page to it)")
    lang = os.environ.get("READTHEDOCS_LANGUAGE") or config.language or ""
    prefix = _prefix(app, lang)
    if "sitemap_url_scheme" not in getattr(config, "_raw_config", {}) and not os.environ.get(
            "READTHEDOCS"):
        if prefix:
            notes.append(f"sitemap_url_scheme not set: pages are listed at html_baseurl + page, "
                         f"as Sphinx's canonical links say (sphinx-sitemap put {prefix!r} "
                         "between them; set sitemap_url_scheme to keep that)")
        return root, "", None
    if prefix and root.endswith("/" + prefix):
        notes.append(f"html_baseurl ends in {prefix!r} already: sitemap_url_scheme adds none")
        return root, "", root[: -len(prefix)]
    return root, prefix, root


def _prefix(app: Sphinx, lang: str) -> str:
    """What ``sitemap_url_scheme`` puts before the page for ``lang`` (ConfigError if bad)."""
    scheme = str(app.config.sitemap_url_scheme)
    version = os.environ.get("READTHEDOCS_VERSION") or app.config.version or ""
    try:
        if not scheme.endswith("{link}"):
            raise ValueError(scheme)  # noqa: TRY301  # one message for both
        return scheme[: -len("{link}")].format(lang=f"{lang}/" if lang else "",
                                              version=f"{version}/" if version else "")
    except (KeyError, IndexError, ValueError) as err:
        msg = (f"Expected a scheme of {{lang}}, {{version}} and text, ending in {{link}}, such as "
               f"{DEFAULT_SCHEME!r}, but received: {scheme!r} (str)")
        raise SphinxConfigError(f"sitemap_url_scheme: {msg}") from err


def _locales(app: Sphinx, root: str | None, notes: list[str]) -> tuple[tuple[str, str], ...]:
    """sphinx-sitemap's ``sitemap_locales`` (or the folders of ``locale_dirs``) as bases."""
    config = app.config
    locales = list(config.sitemap_locales or ())
    if locales == [None]:
        return ()
    for folder in () if locales else config.locale_dirs or ():
        path = os.path.join(_confdir(app), folder)
        if os.path.isdir(path):
            locales.extend(sorted(name for name in os.listdir(path)
                                  if os.path.isdir(os.path.join(path, name))))
    if root is None or "{lang}" not in str(config.sitemap_url_scheme):
        if locales:
            notes.append("sitemap_locales: no alternates written, sitemap_url_scheme "
                         f"{'is not set' if root is None else 'has no {lang}'}")
        return ()
    return tuple((hreflang(locale), root + _prefix(app, str(locale)))
                 for locale in dict.fromkeys(locales) if locale)


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
    if run is None or exception is not None:
        return
    outline = _outline(app, run.builder) if run.config.lists_pages else ()
    from sitemap_plugins.products.build.pipeline import generate  # noqa: PLC0415  # the pipeline, as it runs

    try:
        result = generate(app.outdir, run.config, hints=_hints(app, run), outline=outline,
                          canonical_base=run.canonical_base, site_name=app.config.project)
    except SitemapError as err:  # a page's bad value, a file in the way
        _refuse(app, f"{SETTING}[{err.option!r}]: {err.message}" if isinstance(
            err, ConfigError) else str(err))
        return
    # Warnings are Sphinx warnings (-W counts them), filed under sitemap.<code>.
    log_result(log, result, "Sitemap: ", level=_level,
               extra=lambda diagnostic: {"type": "sitemap", "subtype": diagnostic.code})


def _metadata(docname: str, meta: Mapping[str, Any]) -> OwnValues:
    """A document's own sitemap values, from the fields at its top.

    ``:sitemap: false``, ``:sitemap_lastmod:``, ``:sitemap_changefreq:``,
    ``:sitemap_priority:``, and ``:date:`` (when it was published; free text is passed by).

    Raises:
        PageValueError: naming the document and the field, when a sitemap value is bad.
    """
    given = {value: meta.get(name) for name, value in _PAGE_FIELDS.items()}
    return own_values(given, docname, date_value=meta.get("date"))


_PAGE_FIELDS = {"sitemap": "sitemap", "sitemap_lastmod": "lastmod",
                "sitemap_changefreq": "changefreq", "sitemap_priority": "priority"}


def _hints(app: Sphinx, run: _Run) -> dict[str, PageHints]:
    """What Sphinx knows of each page, keyed by its path in the output folder."""
    from sitemap_plugins.disk.site import read_head  # noqa: PLC0415  # with the pipeline

    env, builder, config = app.env, run.builder, run.config
    hints: dict[str, PageHints] = {}
    extra = _extra_files(app)
    known = {_rel(app, builder.get_outfilename(name)) for name in (
        *env.found_docs, *run.pages, *(f"_modules/{module.replace('.', '/')}" for module, entry
                                       in getattr(env, "_viewcode_modules", {}).items() if entry))
             } | extra
    own_map = posixpath.splitext(html_sitemap_file(config.html_sitemap))[0].removesuffix(
        "/index") if config.html_sitemap else "\0"  # the core's own page, and its languages'
    for rel in (r for r in _files(str(app.outdir)) if r.lower().endswith((
            ".html", ".htm", builder.out_suffix.lower() or ".html"))):
        # The page's URL below the base; sphinx-sitemap's "link", which its excludes match.
        link = rel.removesuffix("index.html") if config.directory_urls and (
            rel == "index.html" or rel.endswith("/index.html")) else rel
        if rel.startswith(_NOT_PAGES):
            hints[rel] = PageHints(exclude=REASON_NOT_A_PAGE)
        elif rel in extra and not config.static_html:
            hints[rel] = PageHints(exclude=REASON_STATIC_HTML)
        elif rel not in known and not rel.startswith(own_map) and os.stat(
                os.path.join(app.outdir, rel)).st_mtime_ns < run.started:  # Sphinx deletes none
            hints[rel] = PageHints(exclude=REASON_LEFT_OVER)
        elif any(fnmatch.fnmatch(link, pattern) for pattern in run.excludes):
            hints[rel] = PageHints(exclude=REASON_EXCLUDES)
        elif run.alternates:
            hints[rel] = PageHints(alternates=tuple(
                (code, base + link) for code, base in run.alternates))
    docs = {_rel(app, builder.get_outfilename(doc)): doc for doc in sorted(env.found_docs)}
    metas = {doc: _metadata(doc, env.metadata.get(doc, {})) for doc in docs.values()}
    git = _git_dates(app, [doc for doc, m in metas.items() if not m.exclude and m.lastmod is None],
                     _module_sources(app), config)
    for page in git.keys() - env.found_docs:  # viewcode's page of a module: the module's date
        rel = _rel(app, builder.get_outfilename(page))
        if not hints.get(rel, PageHints()).exclude:
            hints[rel] = replace(hints.get(rel, PageHints()), lastmod=git[page])
    other_link = getattr(builder, "link_suffix", ".html") != builder.out_suffix
    bodies = run.bodies if run.written <= run.bodies.keys() else {}  # all or none: -j N
    for rel, doc in docs.items():
        meta, before = metas[doc], hints.get(rel, PageHints())
        if before.exclude or meta.exclude:
            hints[rel] = before if before.exclude else PageHints(exclude=REASON_METADATA)
            continue
        # html_link_suffix: pages are linked (and served) at a URL other than their file's.
        url = builder.get_target_uri(doc) if other_link else None
        head = read_head(os.path.join(app.outdir, rel)) if doc in bodies else None
        hints[rel] = PageHints(
            dates=date_claims(meta, [(git[doc], False)] if doc in git else []),
            changefreq=meta.changefreq, priority=meta.priority,
            alternates=before.alternates, published=meta.published, url=url,
            unrendered=doc not in run.written,  # not rewritten: its last build's record holds
            page=HostPage(head, bodies[doc]) if head is not None else None)
    return hints


def _files(folder: str) -> list[str]:
    """The files in ``folder`` (none if it is missing), as relative POSIX paths."""
    return [os.path.relpath(os.path.join(parent, name), folder).replace(os.sep, "/")
            for parent, _dirs, files in os.walk(folder) for name in files]


def _extra_files(app: Sphinx) -> set[str]:
    """Files ``html_extra_path`` copies into the site, as they are (not pages Sphinx wrote)."""
    found: set[str] = set()
    for entry in app.config.html_extra_path or ():
        path = os.path.join(_confdir(app), entry)
        found.update([os.path.basename(path)] if os.path.isfile(path) else _files(path))
    return found


def _module_sources(app: Sphinx) -> dict[str, str]:
    """The pages of viewcode (``_modules/a/b``) and their modules' source files, if known."""
    found: dict[str, str] = {}
    for name, entry in sorted(getattr(app.env, "_viewcode_modules", {}).items()):
        with contextlib.suppress(Exception):  # not found, or not importable: no date
            spec = importlib.util.find_spec(name) if entry else None  # False: not read
            if spec is not None and spec.origin and spec.origin.endswith((".py", ".pyw")):
                found[f"_modules/{name.replace('.', '/')}"] = spec.origin
    return found


def _git_dates(app: Sphinx, docs: list[str], modules: dict[str, str],
               config: SitemapConfig) -> dict[str, Lastmod]:
    """Each document's git date: the latest of its source's and of every file it depends on.

    Autodoc notes the modules it documents as dependencies (``env.dependencies``): an API page
    changed when its module did; viewcode's take their module's date. One ``git log`` for all.
    """
    env, src = app.env, os.path.abspath(app.srcdir)
    top = src  # the repository: a dependency outside it (an installed module) has no date
    while not os.path.exists(os.path.join(top, ".git")) and os.path.dirname(top) != top:
        top = os.path.dirname(top)
    sources = {doc: [os.path.abspath(env.doc2path(doc)), *(
        path for dep in sorted(env.dependencies.get(doc, ()))
        if (path := os.path.abspath(os.path.join(src, dep))).startswith(os.path.join(top, "")))]
        for doc in docs}
    sources.update((page, [path]) for page, path in modules.items()
                   if os.path.abspath(path).startswith(os.path.join(top, "")))
    if not sources or not config.git_dates:
        return {}
    root = os.path.commonpath([os.path.dirname(p) for ps in sources.values() for p in ps])
    dates, shallow = read_git_dates(root)
    if shallow:  # CI's default checkout: a note, not a warning, so that -W builds pass
        log.info("Sitemap: %s", shallow_note(f"{SETTING} = {{'git_dates': False}}"))
    return {doc: last for doc, paths in sources.items() if (last := latest(*(
        dates.get(os.path.relpath(p, root).replace(os.sep, "/")) for p in paths))) is not None}


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
