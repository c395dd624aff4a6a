"""MkDocs plugin: ``plugins: [sitemap]`` replaces the built-in sitemap.

MkDocs' own template (the build date as every lastmod) is emptied; once everything else has
written the site the core writes the real files, with what only MkDocs knows (front matter,
i18n translations and copies, git dates, raw HTML) as
:class:`~sitemap_plugins.entry.rules.PageHints`. Top floor: a front-end writing no file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from mkdocs.config import base
from mkdocs.config.base import ValidationError
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.utils.meta import get_data

from sitemap_plugins.entry import page_values
from sitemap_plugins.entry.rules import REASON_UNTRANSLATED, PageHints
from sitemap_plugins.hosts import git_dates, markdown_includes
from sitemap_plugins.hosts.config import host_config, preview_config, relative_to_config
from sitemap_plugins.hosts.host_files import source_text
from sitemap_plugins.hosts.mkdocs_family import (
    REASON_FRONT_MATTER,
    REASON_STATIC_HTML,
    front_values,
)
from sitemap_plugins.page.reader import HostPage, head_of, listing_items, titled
from sitemap_plugins.products.report import log_result
from sitemap_plugins.vocab.errors import ConfigError, PageValueError, SitemapError, unknown_key
from sitemap_plugins.vocab.options import BUILD_OPTIONS, Option
from sitemap_plugins.vocab.urls import rel_path, version_urls
from sitemap_plugins.vocab.values import hreflang, language_group, untranslated_copy

if TYPE_CHECKING:
    from collections.abc import Iterable
    from concurrent.futures import Future

    import jinja2
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import File, Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page
    from mkdocs.utils.templates import TemplateContext

    from sitemap_plugins.products.html_map.plan import NavNode
    from sitemap_plugins.vocab.dates import Lastmod
    from sitemap_plugins.vocab.options import SitemapConfig


log = get_plugin_logger(__name__)

REASON_THEME_PAGE = "theme page (not documentation)"
# Run after every other plugin's on_post_build: mkdocs-redirects writes its stubs at 0,
# mkdocs-static-i18n builds the other languages at -100.
_LATE = -150
_HTML = (".html", ".htm", ".xhtml")
_GIT_PLUGIN = "git-revision-date-localized"
_GIT_META = "git_revision_date_localized"
# mike builds each version with its name in this variable; its plugin then sets site_url to
# that version's folder, or to canonical_version's.
_MIKE_VERSION = "MIKE_DOCS_VERSION"


class _CoreOption(base.BaseConfigOption[object]):
    """A core option in ``mkdocs.yml``: the value goes through the core's own check.

    So a bad value gets the message it gets on the command line and in Pelican, and stops the
    build. Unset is None: the core's default, or what MkDocs says (``site_url``,
    ``use_directory_urls``).
    """

    def __init__(self, option: Option) -> None:
        super().__init__()
        self.option = option
        self.default = None
        self.config_dir = ""

    def pre_validation(self, config: base.Config, key_name: str) -> None:
        """Note where mkdocs.yml is: paths in it are relative to it."""
        del key_name
        self.config_dir = os.path.dirname(os.path.abspath(config.config_file_path or "./x"))

    def run_validation(self, value: object) -> object:
        """Check the value with the core; MkDocs reports a failure with the option's name.

        A path is returned relative to mkdocs.yml's folder, as the core then takes it.
        """
        if value is None:
            return None
        value = relative_to_config(self.option.name, value, self.config_dir)
        try:
            self.option.check(self.option.name, value)
        except ConfigError as err:
            raise ValidationError(err.message) from err
        return value


def _is_served(config: MkDocsConfig) -> bool:
    """Whether this is ``mkdocs serve --clean``, which tells plugins it is a ``build``.

    ``serve`` builds into a fresh ``mkdocs_*`` folder in the temporary directory, with
    ``site_url`` replaced by the dev server's address: both together mean the dev server.
    """
    site_dir = os.path.abspath(config.site_dir)
    host, port = config.dev_addr
    return (os.path.dirname(site_dir) == os.path.abspath(tempfile.gettempdir())
            and os.path.basename(site_dir).startswith("mkdocs_")
            and (config.site_url or "").startswith(f"http://{host}:{port}/"))


def _validate(self: base.Config) -> tuple[base.ConfigErrors, base.ConfigWarnings]:
    """Validate; an unknown option is an error with a close match, not just a warning."""
    failed, warnings = base.Config.validate(self)
    known = sorted(name for name, _ in self._schema)
    for key in sorted(set(self.keys()) - set(known)):
        failed.append((key, ValidationError(unknown_key(key, known))))
    return failed, [(key, message) for key, message in warnings if key in known]


# Made from the one option table, so that mkdocs.yml knows exactly the core's options.
_PluginConfig: type[base.Config] = type(
    "_PluginConfig", (base.Config,),
    {**{option.name: _CoreOption(option) for option in BUILD_OPTIONS}, "validate": _validate},
)


@dataclass
class _PageRecord:
    """What one build knows about one documentation page, keyed by its ``dest_uri``."""

    src_uri: str | None
    """Path relative to ``docs_dir``; None for pages generated by plugins."""
    abs_src_path: str | None
    fallback: bool = False
    stands_in: tuple[str, str] | None = None
    """A fallback copy's language and the page it copies (the HTML site map links that)."""
    alternates: tuple[tuple[str, tuple[str, str]], ...] | None = None
    """``(hreflang, (dest_uri, url))`` of the real translations; None when i18n is off."""
    front: page_values.OwnValues | None = None
    """From the front matter; None until ``on_page_context`` (``--dirty`` skips pages)."""
    git_plugin: tuple[Lastmod, bool] | None = None
    """The git plugin's last commit of the page: its date, and whether it created the file."""
    shows: tuple[str, ...] = ()
    """``dest_uri`` of the posts a listing page shows (Material's blog index, its archive and
    category pages, each page of their pagination): it changed when the newest of them did."""
    items: str = ""
    """What a listing page lists (:func:`~sitemap_plugins.page.reader.listing_items`): its
    content besides its own Markdown."""
    host: HostPage | None = None
    """The page as MkDocs rendered it: its content and the head of the output it wrote."""


@dataclass
class _BuildState:
    """Everything collected from the first ``on_pre_build`` to the last ``on_post_build``."""

    pages: dict[str, _PageRecord] = field(default_factory=dict)
    static_html: set[str] = field(default_factory=set)
    theme_pages: set[str] = field(default_factory=set)
    known: set[str] = field(default_factory=set)
    """Every file of the site as MkDocs knows it in this build (all languages)."""
    navs: list[Navigation] = field(default_factory=list)
    """The navigation of every language built (titles are read once the pages are)."""
    language_pages: dict[str, str] = field(default_factory=dict)
    """The HTML site map's page of each language built after the site's, by language."""
    includes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Absolute paths of the files each page includes (snippets, documented modules)."""


if TYPE_CHECKING:
    _Plugin = BasePlugin[base.Config]
else:  # the class made above, which a type checker cannot follow
    _Plugin = BasePlugin[_PluginConfig]


class SitemapPlugin(_Plugin):  # type: ignore[no-untyped-call]  # MkDocs' hook
    """Write ``sitemap.xml`` (and ``.gz``, ``.txt``, robots line) from the built site."""

    def __init__(self) -> None:
        self._command: str | None = None
        self._dirty = False
        self._instant = False
        self._depth = 0
        self._name = "sitemap"
        self._sitemap: SitemapConfig | None = None
        self._docs_dir = ""
        self._git_timezone: str | None = None
        self._i18n_default: str | None = None
        self._state = _BuildState()
        self._git_log: Future[git_dates.GitLog] | None = None
        self._given_site_url: str | None = None
        self._canonical_base: str | None = None
        self._lang: str | None = None
        """The site's language: the HTML site map's names are in it."""

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        """Remember the command (under ``serve`` no sitemap is written) and ``--dirty``."""
        self._command = command
        self._dirty = dirty

    @event_priority(100)
    def _remember_site_url(self, config: MkDocsConfig) -> MkDocsConfig | None:
        """Keep ``site_url`` as written, before plugins such as mike change it."""
        if self._depth == 0:
            self._given_site_url = config.site_url
        return None

    def _configure(self, config: MkDocsConfig) -> MkDocsConfig | None:
        """Validate the options through the core, so a bad one stops the build at once."""
        if self._depth == 0:  # a nested build (mkdocs-static-i18n) keeps the outer settings
            self._read_host(config, final=False)
        return None

    @event_priority(-99)  # after hooks (priority 0), before mkdocs-static-i18n's other builds
    def _settle(self, *, config: MkDocsConfig) -> None:
        """Read the host's values again once they are final (see :meth:`_read_host`)."""
        if self._depth == 1:
            self._read_host(config, final=True)

    def _read_host(self, config: MkDocsConfig, *, final: bool) -> None:
        """The core's config from the options and MkDocs' values (``site_url``, ...).

        Plugins and ``hooks:`` may change those after this plugin's ``on_config`` (FastAPI's
        hook sets each language's ``site_url``), so they are read again, ``final``, at the
        outer build's ``on_post_build``: only then is the missing site URL warned about.
        """
        self._name = next((k for k, v in config.plugins.items() if v is self), self._name)
        self._docs_dir = config.docs_dir
        git_plugin = config.plugins.get(_GIT_PLUGIN)
        self._git_timezone = git_plugin.config.get("timezone") if git_plugin else None
        default_language = getattr(config.plugins.get("i18n"), "default_language", None)
        self._i18n_default = default_language if isinstance(default_language, str) else None
        features = config.theme.get("features") or ()
        self._instant = config.theme.name == "material" and "navigation.instant" in features
        self._sitemap = None
        options = {o.name: self.config[o.name] for o in BUILD_OPTIONS
                   if self.config[o.name] is not None}
        options.setdefault("directory_urls", config.use_directory_urls)
        base_url = self.config["base_url"] or config.site_url
        self._canonical_base = None
        mike = _mike_urls(config, self._given_site_url)
        served = self._command == "serve" or _is_served(config)
        if served:  # the dev server's sitemap lists its own URLs, not the real site's others
            options = {k: v for k, v in options.items() if not k.startswith("extra_")}
        if mike is not None and not self.config["base_url"] and not served:
            # Each version's sitemap lists its own pages at their own URLs, in its own folder
            # (Material's version selector and instant navigation read it there), whatever
            # canonical_version makes of site_url and of the pages' canonical links.
            base_url, self._canonical_base = mike
            if final:
                log.info(
                    "mike version %s: its sitemap lists its own pages under %s%s; run "
                    "'sitemap-plugins merge' on the deployed tree for the root index",
                    os.environ.get(_MIKE_VERSION), base_url,
                    f" (canonical links point at {self._canonical_base})"
                    if self._canonical_base else "")
        config_dir = os.path.abspath(os.path.dirname(config.config_file_path or "./x"))
        try:  # checked even when no sitemap will be written (no site_url)
            sitemap = host_config(options, base_url=base_url, config_dir=config_dir,
                                  check_products=not final)
        except ConfigError as err:
            where = f"Plugin '{self._name}' option '{err.option}'"
            if err.option == "base_url" and not self.config["base_url"]:
                where = "Config value 'site_url'"
            raise PluginError(f"{where}: {err.message}") from err
        if served:
            # Material's instant navigation asks the dev server for sitemap.xml: the served
            # copy lists the dev server's own URLs, which is what it serves.
            self._sitemap = preview_config(sitemap)
        elif base_url or not final:
            self._sitemap = sitemap
        else:
            log.warning("No sitemap written: 'site_url' is not set in the config file, and a "
                        "sitemap must list absolute URLs. Set 'site_url' to the public URL of the "
                        "site, e.g. 'site_url: https://example.org/docs/'.")

    on_config = CombinedEvent(_remember_site_url, _configure)

    @event_priority(_LATE)  # after plugins that rework the files (mkdocs-static-i18n)
    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files | None:
        """Add the HTML site map as a page of the site, rendered in the theme with a marker.

        The list replaces the marker after the build, once the sitemap is known. Each other
        language that mkdocs-static-i18n builds gets its own page in its folder (``fr/``), in
        its theme language and navigation.
        """
        if self._sitemap is None or self._sitemap.html_sitemap is None:
            return None
        from mkdocs.structure.files import File as MkDocsFile  # noqa: PLC0415
        from mkdocs.structure.files import InclusionLevel  # noqa: PLC0415

        from sitemap_plugins.products.html_map.markup import MARKER  # noqa: PLC0415
        from sitemap_plugins.products.html_map.plan import site_map_title, taken_message  # noqa: PLC0415

        dest = self._sitemap.html_sitemap
        language = None
        if self._depth > 1:  # a language that mkdocs-static-i18n builds after the site's
            language = getattr(config.plugins.get("i18n"), "current_language", None)
            if not isinstance(language, str) or language == self._i18n_default:
                return None
            dest = f"{language}/{dest}"
        src = dest.rpartition(".")[0] + ".md"
        taken = files.get_file_from_path(src) or next(
            (f for f in files if f.dest_uri == dest), None)
        if taken is not None:
            msg = taken_message(dest, taken.src_uri)
            raise PluginError(f"Plugin '{self._name}' option 'html_sitemap': {msg}")
        # Named in the build's language: the theme's (Material's "language", the built-in
        # themes' "locale", which mkdocs-static-i18n sets for each language), else the
        # language built.
        theme = config.theme
        lang = theme.get("language") or theme.get("locale") or language or self._i18n_default
        if language is None:  # the site's language: it names the further pages of a listing
            self._lang = str(lang) if lang else None
        title = site_map_title(str(lang) if lang else None)
        # In no nav on purpose: MkDocs would list it among the pages the nav omits.
        page = MkDocsFile.generated(config, src, content=f"# {title}\n\n{MARKER}\n",
                                    inclusion=InclusionLevel.NOT_IN_NAV)
        page.dest_uri = dest
        if self._i18n_default is not None:
            # A page of the site's language with no translation of its own, in
            # mkdocs-static-i18n's terms: its language menu then leads to each language's
            # home. Without them the i18n plugin passes the page by, and Material's menu
            # and hreflang links kept the page rendered before it (another page's
            # translations). Each language's site map is linked in the page itself.
            page.locale = page.locale_alternate_of = (  # type: ignore[attr-defined]
                language or self._i18n_default)
            page.alternates = {}  # type: ignore[attr-defined]
            page.localization = None  # type: ignore[attr-defined]
            page.norm_src_uri = page.src_uri  # type: ignore[attr-defined]
        if language is not None:  # the pages of this build say <html lang> in it
            self._state.language_pages[str(lang or language).lower()] = dest
        files.append(page)
        return files

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        """Count nested builds; start collecting at the outermost one."""
        del config
        if self._depth == 0:
            self._state = _BuildState()
            self._git_log = None
            if (self._sitemap is not None and self._git_timezone is None
                    and self._sitemap.git_dates):
                # No git plugin: pages without a front-matter date will want git dates.
                # The one git log runs in another process while MkDocs builds.
                self._git_log = git_dates.start_git_log(self._docs_dir)
        self._depth += 1

    def on_nav(self, nav: Navigation, /, *, config: MkDocsConfig, files: Files) -> None:
        """Keep the navigation: the HTML site map follows its sections, order and titles."""
        del config, files
        if self._sitemap is not None and self._sitemap.lists_pages:
            self._state.navs.append(nav)

    @event_priority(_LATE)
    def on_env(
        self, env: jinja2.Environment, /, *, config: MkDocsConfig, files: Files
    ) -> jinja2.Environment | None:
        """Note every page this build writes, and which HTML files are not documentation."""
        del env
        self._state.known.update(file.dest_uri for file in files)
        self._state.known.update(config.theme.static_templates)
        for file in files.documentation_pages():
            record = _PageRecord(file.src_uri, file.abs_src_path)
            self._read_i18n(file, record)
            self._state.pages[file.dest_uri] = record
        docs_dir = os.path.abspath(config.docs_dir)
        for file in files.static_pages():
            dest = file.dest_uri
            if (dest.lower().endswith(_HTML) and file.abs_src_path
                    and rel_path(file.abs_src_path, docs_dir) is not None):
                self._state.static_html.add(dest)
        for name in config.theme.static_templates:
            if name.lower().endswith(_HTML) and name.rpartition("/")[2].lower() != "404.html":
                self._state.theme_pages.add(name)
        return None

    @event_priority(_LATE)
    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        """Note the files the page includes: snippets, mkdocstrings' and mkdocs-click's modules.

        Their last commits date the page too (see ``docs/lastmod.md`` for what is covered).
        """
        del files
        if self._sitemap is None or not self._sitemap.git_dates:
            return None
        autodoc = config.plugins.get("mkdocstrings")
        found = markdown_includes.page_includes(
            markdown, extensions=config.markdown_extensions, mdx_configs=config.mdx_configs,
            mkdocstrings=None if autodoc is None else getattr(autodoc, "config", {}),
            config_dir=os.path.dirname(os.path.abspath(config.config_file_path or "./x")))
        # MkDocs renders the Markdown before on_env, where the page's record is made.
        self._state.includes[page.file.dest_uri] = tuple(found)
        return None

    @event_priority(_LATE)
    def on_page_context(
        self, context: TemplateContext, /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext | None:
        """Keep the page's front matter and the posts a blog listing shows.

        The front matter is checked now, so a bad value names the page. Material's blog puts
        the posts a listing shows in the context at priority -100, before this runs.
        """
        del config, nav
        record = self._state.pages.get(page.file.dest_uri)
        if record is None:  # not a page this plugin saw in on_env; nothing to add
            return None
        record.front = _front_matter(page.meta, record.src_uri)
        record.git_plugin = self._git_plugin_commit(page.meta)
        record.shows, record.items = _listing(context.get("posts"), self._state.pages)
        return None

    @event_priority(_LATE)  # after plugins that rework the output (minifiers)
    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str | None:
        """Keep what MkDocs rendered: the page's content and the head of its output.

        The sitemap takes the page's content facts (fingerprint, images, videos, heading)
        from the content before the theme wrapped it, and its head facts from the output it
        hands over: the file it writes is never read back.
        """
        del config
        record = self._state.pages.get(page.file.dest_uri)
        if (record is None or self._sitemap is None or record.fallback
                or (record.front is not None and record.front.exclude)):
            return None  # left out whatever it holds: nothing of it is needed
        head = head_of(output)
        if head is not None and isinstance(page.content, str):
            record.host = HostPage(
                head, titled(str(page.title or ""), page.content) + record.items)
        return None

    @event_priority(_LATE)
    def on_pre_template(
        self, template: jinja2.Template, /, *, template_name: str, config: MkDocsConfig
    ) -> jinja2.Template | None:
        """Swap the built-in ``sitemap.xml`` template for an empty one: rendering it costs."""
        del config
        if template_name == "sitemap.xml":
            return template.environment.from_string("")
        return template

    @event_priority(_LATE)
    def on_post_template(
        self, output_content: str, /, *, template_name: str, config: MkDocsConfig
    ) -> str | None:
        """Empty the built-in ``sitemap.xml`` output, so MkDocs writes neither file.

        Kept besides :meth:`on_pre_template`: a later plugin may swap the template back.
        """
        del config
        if template_name == "sitemap.xml":
            return ""
        return output_content

    @event_priority(_LATE)
    def _write(self, *, config: MkDocsConfig) -> None:
        """Write the sitemap once, after the outermost build (and every language) is done."""
        self._depth = max(0, self._depth - 1)
        if self._depth > 0 or self._sitemap is None:
            return
        hints = self._hints()
        # --dirty leaves the output of a deleted page in site_dir: only the files MkDocs
        # knows in this build may be listed then. (A full build starts from a clean folder.)
        only = self._state.known if self._dirty else None
        # The navigation, kept for the HTML site map and llms.txt only.
        outline = [node for nav in self._state.navs for node in _outline(nav.items, self._lang)]
        from sitemap_plugins.products.build.pipeline import generate  # noqa: PLC0415  # the pipeline, as it runs

        try:
            result = generate(config.site_dir, self._sitemap, hints=hints, only=only,
                              canonical_base=self._canonical_base, outline=outline,
                              language_pages=self._state.language_pages,
                              stand_ins={dest: record.stands_in
                                         for dest, record in self._state.pages.items()
                                         if record.stands_in is not None},
                              site_name=config.site_name)
        except SitemapError as err:
            raise PluginError(f"Cannot write the sitemap: {err}") from err
        log_result(log, result)
        if result.split and self._instant:
            log.warning("sitemap.xml is a sitemap index (more than max_urls or max_bytes in one "
                        "file), but Material's instant navigation reads sitemap.xml as the list "
                        "of the site's pages: with an index it treats every link as external. "
                        "Keep the protocol's limits (max_urls 50,000) or turn off "
                        "navigation.instant.")

    on_post_build = CombinedEvent(_settle, _write)

    def on_build_error(self, *, error: Exception) -> None:
        """Reset the nesting count, so the next ``serve`` rebuild starts clean."""
        del error
        self._depth = 0
        self._git_log = None  # its thread ends on its own

    # -- helpers ------------------------------------------------------------------------

    def _read_i18n(self, file: File, record: _PageRecord) -> None:
        """Fallback copy or translation, and its real translations (mkdocs-static-i18n)."""
        locale = getattr(file, "locale", None)
        build_locale = getattr(file, "locale_alternate_of", None)
        alternates = getattr(file, "alternates", None)
        if locale is None or build_locale is None or not isinstance(alternates, dict):
            if self._i18n_default is not None:
                record.alternates = ()  # i18n site, page without languages: claim none
            return
        # A page copied into another language's folder because it has no translation.
        record.fallback = untranslated_copy(locale, build_locale, alternates)
        original = alternates.get(locale) if record.fallback else None
        if original is not None and isinstance(getattr(original, "dest_uri", None), str):
            record.stands_in = (hreflang(build_locale), original.dest_uri)
        record.alternates = language_group(
            ((language, (other.dest_uri, other.url)) for language, other in sorted(
                alternates.items())  # not the default-language page standing in for one
             if getattr(other, "locale", None) == language), self._i18n_default)

    def _git_plugin_commit(self, meta: Mapping[str, Any]) -> tuple[Lastmod, bool] | None:
        """mkdocs-git-revision-date-localized's last commit: (date, only added the file).

        None when it stamped "now" with an empty hash: git knew no commit of the page.
        """
        if self._git_timezone is None or meta.get(f"{_GIT_META}_hash") == "":
            return None
        raw = meta.get(f"{_GIT_META}_raw_iso_datetime")
        created = meta.get("git_creation_date_localized_raw_iso_datetime")
        when = page_values.zoned_time(raw, self._git_timezone,
                                      meta.get(f"{_GIT_META}_raw_iso_date"))
        return (when, created is not None and created == raw) if when is not None else None

    def _hints(self) -> dict[str, PageHints]:
        """Turn what the builds collected into the core's per-page hints."""
        state = self._state
        hints: dict[str, PageHints] = {}
        for dest in sorted(state.static_html):
            if not self.config["static_html"]:
                hints[dest] = PageHints(exclude=REASON_STATIC_HTML)
        for dest in sorted(state.theme_pages):
            hints[dest] = PageHints(exclude=REASON_THEME_PAGE)
        listed: dict[str, _PageRecord] = {}
        for dest, record in sorted(state.pages.items()):
            if record.front is None:  # --dirty: the page was not read this time
                meta = _read_front_matter(record.abs_src_path)
                record.front = _front_matter(meta, record.src_uri)
            if record.fallback:
                hints[dest] = PageHints(exclude=REASON_UNTRANSLATED)
            elif record.front.exclude:
                hints[dest] = PageHints(exclude=REASON_FRONT_MATTER)
            else:
                listed[dest] = record
        git_log = self._git_dates(listed.values())
        # A page whose source lies outside docs_dir (a hook's File from another language's
        # docs) is dated by that file's own commits, as an included file is.
        outside = {dest: (record.abs_src_path,) for dest, record in listed.items()
                   if record.abs_src_path and record.git_plugin is None and self._sitemap
                   and self._sitemap.git_dates and self._in_docs(record) is None}
        included = git_dates.included_commits(
            {d: (*state.includes.get(d, ()), *outside.get(d, ())) for d in listed})
        # What MkDocs knows of the pages' dates; the core's one rule picks
        # (rules.choose_lastmod), with the page's own date meta tags. A blog listing lists its
        # posts: their dates are its items' dates.
        claims = page_values.with_listings(
            {dest: page_values.date_claims(record.front or page_values.NO_OWN_VALUES,
                                          [*self._commits(record, git_log), *included[dest]])
             for dest, record in listed.items()},
            {dest: record.shows for dest, record in listed.items()})
        for dest, record in listed.items():
            front = record.front or page_values.NO_OWN_VALUES
            alternates = None
            if record.alternates is not None:
                # MkDocs' URLs are relative to the site root: the core resolves them.
                alternates = tuple(
                    (code, href) for code, (other, href) in record.alternates if other in listed)
            page_hints = PageHints(
                dates=claims[dest], changefreq=front.changefreq, priority=front.priority,
                alternates=alternates, published=front.published, page=record.host,
                unrendered=self._dirty and record.host is None)  # --dirty skipped it
            if page_hints != PageHints():  # else the page speaks for itself (and costs less)
                hints[dest] = page_hints
        return hints

    def _git_dates(self, records: Iterable[_PageRecord]) -> git_dates.GitLog:
        """Git dates for the pages that have no better date, from one ``git log``."""
        needed = [r for r in records if self._in_docs(r) is not None and r.git_plugin is None
                  and (r.front is None or r.front.lastmod is None)]
        if not needed or self._sitemap is None or not self._sitemap.git_dates:
            self._git_log = None  # its thread ends on its own
            return git_dates.NO_GIT_LOG
        started, self._git_log = self._git_log, None
        log_read = started.result() if started else git_dates.read_git_log(self._docs_dir)
        if log_read.shallow:
            # CI's default checkout: a note, not a warning, so that --strict builds pass.
            log.info(git_dates.shallow_note("'git_dates: false'"))
        return log_read


    def _in_docs(self, record: _PageRecord) -> str | None:
        """The page's source relative to ``docs_dir``; None when generated or elsewhere."""
        path = record.abs_src_path
        return None if not path else rel_path(os.path.abspath(path), os.path.abspath(
            self._docs_dir))

    def _commits(self, record: _PageRecord, git_log: git_dates.GitLog,
                 ) -> list[tuple[Lastmod, bool]]:
        """The last commits MkDocs knows of a page's source: the git plugin's, ``git log``'s.

        Each as ``(date, whether it only added the file)``.
        """
        rel = self._in_docs(record)
        logged = git_log.commit(rel) if rel is not None else None
        return [c for c in (record.git_plugin, logged) if c is not None]


def _mike_urls(config: MkDocsConfig, given_site_url: str | None) -> tuple[str, str | None] | None:
    """Under ``mike deploy``: (this version's own base URL, where canonicals point instead).

    mike sets ``site_url`` to ``site_url`` joined with ``canonical_version`` when that is set,
    else with the version being built; the pages' canonical links follow ``site_url``.
    """
    version = os.environ.get(_MIKE_VERSION, "").strip()
    mike = config.plugins.get("mike")
    if not version or mike is None or not given_site_url:
        return None
    return version_urls(given_site_url, version,
                        getattr(mike, "config", {}).get("canonical_version"))


def _listing(posts: object, pages: Mapping[str, _PageRecord]) -> tuple[tuple[str, ...], str]:
    """What a Material blog listing shows, from its ``posts``; ``((), "")`` for other pages.

    The ``dest_uri`` of the documentation pages among them, and its items
    (:func:`~sitemap_plugins.page.reader.listing_items`): each post's URL, title, date and excerpt.
    """
    # Each item is an excerpt of a post (its .post), or the post itself.
    shown = [(getattr(item, "post", item), item)
             for item in (posts if isinstance(posts, (list, tuple)) else ())]
    dests = tuple(dest for post, _ in shown
                  if (dest := _dest_uri(post)) is not None and dest in pages)
    if not dests:
        return (), ""
    items = []
    for post, item in shown:
        meta = getattr(post, "meta", None)
        date = meta.get("date", "") if isinstance(meta, Mapping) else ""
        content = getattr(item, "content", None)
        items.append((str(getattr(post, "url", "") or ""), str(getattr(post, "title", "") or ""),
                      str(date), content if isinstance(content, str) else ""))
    return dests, listing_items(items)


def _front_matter(meta: Mapping[str, Any], src_uri: str | None) -> page_values.OwnValues:
    """Read the page's ``sitemap:`` key and ``date``.

    Raises:
        PluginError: naming the page and the key, when a ``sitemap:`` value is invalid
            (the words of :func:`~sitemap_plugins.vocab.options.check_page_values`, as in Pelican).

    """
    where = src_uri or "(generated page)"
    try:
        own = front_values(meta, where)
    except PageValueError as err:
        raise PluginError(str(err)) from err
    if own.unread_date is not None:
        log.info("Page '%s': front matter date %r is not a date; not used as lastmod",
                 where, own.unread_date)
    return own


def _read_front_matter(path: str | None) -> dict[str, Any]:
    """The front matter of a source file that this build did not read (``--dirty``)."""
    text = None if path is None else source_text(path)
    return {} if text is None else dict(get_data(text)[1])


def _outline(items: Iterable[Any], lang: str | None) -> tuple[NavNode, ...]:
    """MkDocs' navigation as the core's: sections and pages (links to elsewhere left out).

    A page may head a section (mkdocs-section-index); a Material blog listing heads its posts
    and further pages (:func:`~sitemap_plugins.products.html_map.plan.listing_nodes`).
    """
    from sitemap_plugins.products.html_map.plan import NavNode, listing_nodes  # noqa: PLC0415  # the map's

    nodes: list[NavNode] = []
    for item in items:
        if getattr(item, "is_page", False):
            children = (_outline(item.children or (), lang)
                        if getattr(item, "is_section", False) else ())
            posts, pages = getattr(item, "posts", None), getattr(item, "pages", None)
            if isinstance(posts, list) and isinstance(pages, list):  # a Material blog listing
                children = (*children, *listing_nodes(
                    item.title or "", map(_dest_uri, posts), map(_dest_uri, pages[1:]), lang))
            nodes.append(NavNode(item.title, item.file.dest_uri, children))
        elif getattr(item, "is_section", False):
            nodes.append(NavNode(item.title, None, _outline(item.children, lang)))
    return tuple(nodes)


def _dest_uri(obj: object) -> str | None:
    """Where MkDocs writes the file of a page (a blog post, a listing's further page)."""
    dest = getattr(getattr(obj, "file", None), "dest_uri", None)
    return dest if isinstance(dest, str) else None
