"""One build's HTML site map: a page for people listing exactly the URLs the sitemap lists.

:class:`SiteMapPages` collects the listed pages as they stream, plans and renders the site
map's pages before the sitemap naming them is written, then writes them and removes those of
earlier builds, through a :class:`PageStore` (:class:`sitemap_plugins.disk.owned.SitePages`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from sitemap_plugins.entry.render import HTML_MAP_MARK
from sitemap_plugins.products.html_map.markup import (
    fill_themed,
    load_template,
    page_view,
    render_html_sitemap,
)
from sitemap_plugins.products.html_map.plan import (
    MAX_LANGUAGES,
    HtmlEntry,
    MapPage,
    is_index,
    plan_pages,
    variant_suffix,
)
from sitemap_plugins.vocab.errors import Diagnostic, Level
from sitemap_plugins.vocab.urls import INDEX_NAMES, BaseUrl, page_url
from sitemap_plugins.vocab.values import names_language

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping, Sequence

    import jinja2

    from sitemap_plugins.products.html_map.plan import NavNode

OWN_MARK = HTML_MAP_MARK
"""Ends every page of the site map this tool writes: what proves a file there is ours."""


class PageStore(Protocol):
    """The site's files as the HTML site map needs them (``owned.SitePages``)."""

    def check_free(self, rel_path: str) -> None:
        """Raise ConfigError when a page of the site (not ours, no marker) stands there."""

    def shell(self, rel_path: str) -> str | None:
        """The host's themed page holding ``html_map_markup.MARKER`` there, or None."""

    def is_ours(self, rel_path: str) -> bool:
        """Whether a page of the site map stands there."""

    def names(self, folder: str) -> list[str]:
        """The names in that folder of the site, sorted."""

    def write(self, rel_path: str, data: bytes) -> None:
        """Replace the page atomically."""

    def remove(self, rel_path: str, *, folder_too: bool = False) -> bool:
        """Remove the page; whether it went."""


@dataclass
class SiteMapPages:
    """The HTML site map of one build."""

    store: PageStore
    own_rel: str
    base: BaseUrl
    directory_urls: bool
    depth: int
    template: str | None = None
    outline: Sequence[NavNode] = ()
    language_pages: Mapping[str, str] = field(default_factory=dict)
    """Lower-case language code to the page a multilingual host rendered for that language."""
    extensionless_urls: bool = False
    """Its own pages' URLs as the sitemap lists them (see :func:`page_url`)."""
    stand_ins: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """A page standing in for a missing translation -> its language and the page it copies.

    That language's list links the copied page in the place of the copy."""
    entries: list[HtmlEntry] = field(default_factory=list)
    pages: list[MapPage] = field(default_factory=list)
    rendered: list[str] = field(default_factory=list)
    """Each page's HTML, rendered by :meth:`plan` and written by :meth:`write`."""
    shells: dict[str, str | None] = field(default_factory=dict)
    """The host's themed pages awaiting a list, by path, as :meth:`plan` found them."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """What :meth:`plan` has to say (languages listed in the site's own page)."""

    @property
    def _firsts(self) -> list[str]:
        """Where each language's first page may be: the site's, then the hosts' others."""
        return [self.own_rel, *self.language_pages.values()]

    def is_own_page(self, rel_path: str) -> bool:
        """Whether the scan found one of the site map's pages (which is listed as such)."""
        if rel_path in self._firsts:
            return True
        return any(variant_suffix(first, rel_path) is not None for first in self._firsts
                   ) and self.store.is_ours(rel_path)

    def _untranslated(self, home_lang: str | None) -> list[HtmlEntry]:
        """Each stand-in's entry: the copied page's link and title, at the copy's place."""
        if not self.stand_ins:
            return []
        listed = {entry.rel_path: entry for entry in self.entries}
        found: list[HtmlEntry] = []
        for copy, (lang, original) in sorted(self.stand_ins.items()):
            entry = listed.get(original)
            if entry is not None and copy not in listed:
                found.append(HtmlEntry(entry.loc, copy, entry.title, lang,
                                       entry.lang or home_lang or ""))
        return found

    def plan(self) -> list[MapPage]:
        """Lay the pages out, check that none would replace a page of the site, render them.

        A failing template stops the build before the sitemap naming the pages is written.

        Raises:
            ConfigError: naming the file or the template's error, before anything is written.
        """
        home_lang = next((e.lang for e in self.entries if e.rel_path in _HOMES), None)
        self.pages = plan_pages(
            [*self.entries, *self._untranslated(home_lang)], self.own_rel,
            home_lang=home_lang, depth=self.depth,
            outline=self.outline, language_pages=self.language_pages, page_loc=lambda rel: page_url(
                self.base, rel, directory_urls=self.directory_urls,
                extensionless_urls=self.extensionless_urls))
        languages = {e.lang.lower() for e in self.entries if names_language(e.lang)}
        folded = languages - {page.lang.lower() for page in self.pages}
        if folded:
            self.diagnostics.append(Diagnostic(self.own_rel, "html-sitemap-languages", (
                f"the pages name {len(languages):,} languages; the {MAX_LANGUAGES} with the "
                f"most pages get a site map page each, the other {len(folded):,} (such as "
                f"{min(folded)!r}) are listed in the site's own"), Level.INFO))
        for page in self.pages:
            if page.rel_path != self.own_rel:  # checked before the pages were read
                self.store.check_free(page.rel_path)
        # Read before page one replaces them: the themed pages the host rendered.
        self.shells = {rel: self.store.shell(rel) for rel in self._firsts}
        template: jinja2.Template | None = None
        self.rendered = []
        for page in self.pages:
            view = page_view(page, base=str(self.base), depth=self.depth, outline=self.outline)
            shell = self.shells.get(page.parts[0].rel_path) or self.shells[self.own_rel]
            if shell is not None:
                self.rendered.append(fill_themed(shell, view))
            else:
                template = template or load_template(self.template)
                self.rendered.append(render_html_sitemap(view, template))
        return self.pages

    def write(self) -> tuple[list[str], list[str]]:
        """Write every page :meth:`plan` rendered; the files written and those removed.

        Raises:
            WriteError: when a page cannot be written; the old one is kept.
        """
        written: list[str] = []
        for page, html in zip(self.pages, self.rendered, strict=True):
            ending = "" if html.endswith("\n") else "\n"
            self.store.write(page.rel_path, f"{html}{ending}{OWN_MARK}\n".encode())
            written.append(page.rel_path)
        removed = [rel for first in self._firsts
                   for rel in remove_stale_pages(self.store, first, set(written))]
        for rel, shell in self.shells.items():
            # A language page the host rendered for no language of the site: never left.
            if (shell is not None and rel not in written and rel != self.own_rel
                    and self.store.remove(rel)):
                removed.append(rel)
        return written, removed


_HOMES = frozenset(INDEX_NAMES)


def remove_stale_pages(store: PageStore, own_rel: str, keep: Collection[str]) -> list[str]:
    """Remove site map pages earlier builds wrote and this one did not (ours, beside it)."""
    folder, _, name = own_rel.rpartition("/")
    nested = is_index(own_rel) and bool(folder)
    parent = folder.rpartition("/")[0] if nested else folder
    removed: list[str] = []
    for candidate in store.names(parent):
        rel = f"{parent}/{candidate}" if parent else candidate
        if nested:
            rel = f"{rel}/{name}"
        if rel in keep or variant_suffix(own_rel, rel) is None:
            continue
        # Never a file out of the site through a link; a folder goes only when empty.
        if store.is_ours(rel) and store.remove(rel, folder_too=nested):
            removed.append(rel)
    return removed
