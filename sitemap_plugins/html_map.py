"""The HTML site map: a page for people listing exactly the URLs the XML sitemap lists.

The pipeline hands over each listed page's URL, file and title as it streams them
(:class:`HtmlEntry`, a few short strings per page); :func:`build_tree` groups them by folder,
with a folder's index page as the section's heading, and :class:`SiteMapPages` renders the
tree with a Jinja2 template or into the host's themed page.

Floor: the middle (pure): the site's files are read, written and removed through a
:class:`PageStore` (:class:`sitemap_plugins.owned.SitePages`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from html import escape
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, NamedTuple, Protocol

import jinja2

from sitemap_plugins.errors import ConfigError, Diagnostic, Level, SitemapError
from sitemap_plugins.render import (
    HTML_MAP_MARK,
    HTML_MAP_MARKER,
    TEMPLATE_DIRS,
    template_environment,
    template_module,
    template_path,
)
from sitemap_plugins.urls import INDEX_NAMES, BaseUrl, page_url
from sitemap_plugins.values import is_language_tag, xml_text

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterator, Mapping, Sequence

TEMPLATE_NAME = "html_sitemap.html"
NAV_TEMPLATE_NAME = "html_sitemap_nav.html"
MARKER = HTML_MAP_MARKER
"""Where a host's themed page wants the list (see :func:`fill_themed`)."""
OWN_MARK = HTML_MAP_MARK
"""Ends every page of the site map this tool writes: what proves a file there is ours."""
# A title's site-name suffix: "Page - Site", "Page | Site", "Page — Site".
_SUFFIX = re.compile(r"\s+[-|\u2013\u2014\u00b7:]\s+[^-|\u2013\u2014\u00b7:]+\Z")


class HtmlEntry(NamedTuple):
    """One listed page as the HTML site map shows it."""

    loc: str
    rel_path: str
    title: str
    lang: str = ""
    link_lang: str = ""
    """The language of the linked page when it is not the list's: a page with no translation
    in the list's language, linked where it is (see :attr:`SiteMapPages.stand_ins`)."""

    @property
    def link_language(self) -> str:
        """:attr:`link_lang` named in itself (English, Français...)."""
        return ENDONYMS.get(_primary(self.link_lang), self.link_lang)


def relative_href(loc: str, *, base: str, self_loc: str) -> str:
    """``loc`` as a link from the page at ``self_loc``; absolute when off the base.

    Relative, so that any copy of the site (a preview, a local server) links to its own pages.
    """
    if not loc.startswith(base) or not self_loc.startswith(base):
        return loc
    up = self_loc[len(base):].count("/")
    href = "../" * up + loc[len(base):]
    # A first segment holding ":" reads as a scheme (RFC 3986 section 4.2): a page named
    # "javascript:alert(1);x.html" or "Category:X.html" beside the site map would be linked
    # as that scheme. "./" keeps it a path, to the same page.
    if not href or ":" in href.partition("/")[0]:
        href = "./" + href
    return href


def page_title(title: str | None, heading: str | None, loc: str) -> str:
    """The link text: the page's ``<h1>``, else its ``<title>`` without a site-name suffix.

    Text as it will show: a heading of only characters no page may hold (``&#1;``) is none.
    """
    heading = " ".join(xml_text(heading or "").split())
    if heading:
        return heading
    text = " ".join(xml_text(title or "").split())
    if text:
        shorter = _SUFFIX.sub("", text)
        return shorter or text
    return loc


@dataclass(frozen=True)
class NavNode:
    """One item of a host's navigation: a page, a section, or a section headed by a page.

    ``title`` is the host's title; None keeps the page's own.
    """

    title: str | None = None
    rel_path: str | None = None
    children: tuple[NavNode, ...] = ()


@dataclass(frozen=True)
class BlogPlace:
    """What a written file is on a blog (Pelican): an article of a category, a tag's listing..."""

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
    slug: str = ""
    """The slug of ``name`` (an article's category's), which Pelican tells categories, tags
    and authors apart by: "Physics" and "physics" are one category."""


# Categories (each with its articles, newest first), then pages, then the listings.
_LISTINGS = ("archives", "categories", "tags", "authors")


def blog_outline(places: Mapping[str, BlogPlace], site_name: str,
             labels: Mapping[str, str]) -> tuple[NavNode, ...]:
    """A blog as sections: home, categories with their articles, pages, then listings.

    A paginated listing's further pages go under its first. ``labels``: what the sections
    Pelican gives no name are called, in the site's language.
    """
    def key(place: BlogPlace) -> str:
        """What Pelican merges categories, tags and authors by: the slug, else the name."""
        return place.slug or place.name

    def listing(kind: str, name_key: str, title: str) -> tuple[NavNode | None, list[NavNode]]:
        """A listing's first page (a section's heading) and its further pages."""
        found = sorted((p.number, rel) for rel, p in places.items()
                       if p.kind == kind and key(p) == name_key)
        first = next((NavNode(title, rel) for number, rel in found if number == 1), None)
        more = [NavNode(labels["page"].format(name=title, number=number), rel)
                for number, rel in found if number > 1]
        return first, more

    def section(kind: str, name_key: str, title: str, children: list[NavNode]) -> NavNode:
        first, more = listing(kind, name_key, title)
        return NavNode(title, first.rel_path if first else None, (*children, *more))

    def names(kind: str) -> dict[str, str]:
        """Each key's name: the one its listing page shows, else the first seen in order."""
        found: dict[str, str] = {}
        for _, place in sorted(places.items(), key=lambda item: (item[1].kind != kind,
                                                                 item[1].number, item[0])):
            if place.kind == kind or (kind == "category" and place.kind == "article"):
                found.setdefault(key(place), place.name)
        return found

    nodes: list[NavNode] = []
    home = section("index", "", site_name or labels["home"], [])
    if home.rel_path is not None or home.children:
        nodes.append(home)
    articles: dict[str, list[tuple[float, str, str]]] = {}
    for rel, place in places.items():
        if place.kind == "article":
            articles.setdefault(key(place), []).append((-place.date, rel, place.title))
    categories = names("category")
    for name_key, name in sorted(categories.items(), key=lambda item: item[1].casefold()):
        children = [NavNode(title or None, rel)
                    for _, rel, title in sorted(articles.get(name_key, []))]
        nodes.append(section("category", name_key, name, children))
    pages = sorted((p.title.casefold(), rel, p.title)
                   for rel, p in places.items() if p.kind == "page")
    if pages:
        nodes.append(NavNode(labels["pages"], None, tuple(NavNode(title or None, rel)
                                                  for _, rel, title in pages)))
    for kind in _LISTINGS:
        singular = kind[:-1] if kind != "categories" else "category"
        named = sorted(names(singular).items(), key=lambda item: item[1].casefold()) \
            if kind != "categories" else []  # categories are sections of their own above
        children = [section(singular, name_key, name, []) for name_key, name in named]
        nodes.append(section(kind, "", labels[kind], children))
    return tuple(nodes)


@dataclass
class Section:
    """A section of the site map: its heading (an index page, or a name) and its items.

    Pages and sections placed by the host's navigation keep its order; the rest, grouped by
    folder, follow sorted by title and name, so the order never depends on the scan.
    """

    name: str
    index: HtmlEntry | None = None
    items: list[HtmlEntry | Section] = field(default_factory=list)
    """Pages and sub-sections in the order shown."""
    pages: list[HtmlEntry] = field(default_factory=list, repr=False)
    folders: dict[str, Section] = field(default_factory=dict, repr=False)
    """Pages and sub-folders grouped by folder, until :func:`build_tree` orders them."""


def _is_index(rel_path: str) -> bool:
    return PurePosixPath(rel_path).name.lower() in INDEX_NAMES


MAX_DEPTH = 20
"""Levels of lists the site map shows at most (the most ``html_sitemap_depth`` allows; its 0
means this): a page
deeper down is listed in its ancestor at the last level, as ``depth`` folds it. Neither the
plan nor a template's recursive macro then goes deeper than this, however deep the site's
folders or the host's navigation nest (a thousand folders reached Python's recursion limit)."""


def build_tree(entries: Sequence[HtmlEntry], depth: int,
               outline: Sequence[NavNode] = ()) -> Section:
    """Entries grouped into at most ``depth`` levels of lists (0: :data:`MAX_DEPTH`).

    Pages the host's navigation (``outline``) names go where it puts them, with its titles;
    the others are grouped by folder, a folder's index page as its section's heading.
    """
    depth = min(depth, MAX_DEPTH) if depth > 0 else MAX_DEPTH
    root = Section("")
    by_path = {entry.rel_path: entry for entry in entries}
    _place_navigation(root, outline, by_path, depth)
    for entry in by_path.values():
        folders = list(PurePosixPath(entry.rel_path).parts[:-1])
        is_index = _is_index(entry.rel_path)
        if depth and len(folders) > depth - 1:  # listed in its ancestor at the last level
            folders, is_index = folders[: depth - 1], False
        section = root
        for name in folders:
            section = section.folders.setdefault(name, Section(_readable(name)))
        if is_index and section.index is None and not section.items:
            section.index = entry
        else:
            section.pages.append(entry)
    _finish(root)
    return root


def _readable(name: str) -> str:
    """A folder's name as text, its bytes that are not UTF-8 shown as U+FFFD.

    The scan keeps such bytes as surrogates, which no UTF-8 page can hold.
    """
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _place_navigation(root: Section, outline: Sequence[NavNode],
                      unplaced: dict[str, HtmlEntry], depth: int) -> None:
    """Move the entries the navigation names from ``unplaced`` into its sections.

    Walked with a stack of its own, not by recursion: a navigation may nest deeper than
    Python's recursion limit. Sections below ``depth`` fold into their ancestor.
    """
    stack: list[tuple[Section, Iterator[NavNode], int]] = [(root, iter(outline), 0)]
    while stack:
        section, nodes, level = stack[-1]
        node = next(nodes, None)
        if node is None:
            stack.pop()
            continue
        entry = unplaced.pop(node.rel_path, None) if node.rel_path else None
        if entry is not None and node.title and node.title.strip():
            entry = entry._replace(title=" ".join(node.title.split()))
        if not node.children or level + 1 > depth - 1:
            if entry is not None:  # a page, or a section folded at the last level
                section.items.append(entry)
            stack.append((section, iter(node.children), level))
            continue
        name = " ".join((node.title or (entry.title if entry else "")).split())
        child = Section(name, index=entry)
        section.items.append(child)
        stack.append((child, iter(node.children), level + 1))


def _finish(section: Section) -> None:
    """Order what the navigation did not; drop sections left empty.

    Recursive, but :func:`build_tree` never nests sections deeper than :data:`MAX_DEPTH`.
    """
    pages: list[HtmlEntry] = sorted(section.pages, key=lambda e: (e.title.casefold(), e.loc))
    section.items.extend(pages)
    section.items.extend(child for _, child in sorted(section.folders.items()))
    section.pages, section.folders = [], {}
    kept: list[HtmlEntry | Section] = []
    for item in section.items:
        if isinstance(item, Section):
            _finish(item)
            if item.index is None and not item.items:
                continue
        kept.append(item)
    section.items = kept


def in_order(section: Section) -> Iterator[HtmlEntry]:
    """The section's pages in the order the page shows them (walked without recursion)."""
    if section.index is not None:
        yield section.index
    stack = [iter(section.items)]
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
        elif isinstance(item, Section):
            if item.index is not None:
                yield item.index
            stack.append(iter(item.items))
        else:
            yield item


# --- The pages of the site map: one per language, split past MAX_LINKS links -------------

MAX_LINKS = 1_000
"""Links on one page of the site map, at most: past it, the list goes on in further parts."""

# Endonyms name the other languages' site maps.
ENDONYMS = {"de": "Deutsch", "en": "English", "es": "Español", "fr": "Français",
            "it": "Italiano", "ja": "日本語", "nl": "Nederlands", "pt": "Português",
            "ru": "Русский", "zh": "中文", "zh-Hant": "繁體中文"}


# What the site map calls things, in the languages most sites are written in (others get
# English): its own name, and the listings a host gives no name of its own (Pelican's menus
# of articles), "{number}" being a listing's page number.
NAMES: dict[str, dict[str, str]] = {
    "de": {"site_map": "Seitenübersicht", "home": "Startseite", "pages": "Seiten",
           "archives": "Archiv", "categories": "Kategorien", "tags": "Schlagwörter",
           "authors": "Autoren", "page": "{name}, Seite {number}"},
    "en": {"site_map": "Site map", "home": "Home", "pages": "Pages", "archives": "Archives",
           "categories": "Categories", "tags": "Tags", "authors": "Authors",
           "page": "{name}, page {number}"},
    "es": {"site_map": "Mapa del sitio", "home": "Inicio", "pages": "Páginas",
           "archives": "Archivo", "categories": "Categorías", "tags": "Etiquetas",
           "authors": "Autores", "page": "{name}, página {number}"},
    "fr": {"site_map": "Plan du site", "home": "Accueil", "pages": "Pages",
           "archives": "Archives", "categories": "Catégories", "tags": "Étiquettes",
           "authors": "Auteurs", "page": "{name}, page {number}"},
    "it": {"site_map": "Mappa del sito", "home": "Home", "pages": "Pagine",
           "archives": "Archivio", "categories": "Categorie", "tags": "Tag",
           "authors": "Autori", "page": "{name}, pagina {number}"},
    "ja": {"site_map": "サイトマップ", "home": "ホーム", "pages": "ページ",
           "archives": "アーカイブ", "categories": "カテゴリー", "tags": "タグ",
           "authors": "著者", "page": "{name} {number}ページ目"},
    "nl": {"site_map": "Sitemap", "home": "Home", "pages": "Pagina's", "archives": "Archief",
           "categories": "Categorieën", "tags": "Tags", "authors": "Auteurs",
           "page": "{name}, pagina {number}"},
    "pt": {"site_map": "Mapa do site", "home": "Início", "pages": "Páginas",
           "archives": "Arquivo", "categories": "Categorias", "tags": "Etiquetas",
           "authors": "Autores", "page": "{name}, página {number}"},
    "ru": {"site_map": "Карта сайта", "home": "Главная", "pages": "Страницы",
           "archives": "Архив", "categories": "Категории", "tags": "Метки", "authors": "Авторы",
           "page": "{name}, страница {number}"},
    "zh": {"site_map": "网站地图", "home": "首页", "pages": "页面", "archives": "归档",
           "categories": "分类", "tags": "标签", "authors": "作者",
           "page": "{name} 第 {number} 页"},
    "zh-Hant": {"site_map": "網站地圖", "home": "首頁", "pages": "頁面", "archives": "歸檔",
                "categories": "分類", "tags": "標籤", "authors": "作者",
                "page": "{name} 第 {number} 頁"},
}


def names_in(lang: str | None) -> dict[str, str]:
    """What the site map calls things in ``lang`` (see NAMES); English for another language."""
    return NAMES.get(_primary(lang or "en"), NAMES["en"])


# Chinese is written in two scripts: a tag names the script (zh-Hant, zh-Hans-HK) or, without
# one, the region implies it (BCP 47 / CLDR likely subtags: Taiwan, Hong Kong and Macau write
# Traditional; China, Singapore and a bare "zh", Simplified).
_TRADITIONAL_REGIONS = frozenset({"tw", "hk", "mo"})


def _primary(lang: str) -> str:
    """The key of NAMES and ENDONYMS for a language tag.

    Its language, and for Chinese its script: "zh" Simplified, "zh-Hant" Traditional.
    """
    parts = lang.replace("_", "-").lower().split("-")
    if parts[0] != "zh":
        return parts[0]
    subtags = parts[1:]
    if "hant" in subtags:
        return "zh-Hant"
    if "hans" in subtags:
        return "zh"
    return "zh-Hant" if _TRADITIONAL_REGIONS & set(subtags) else "zh"


def site_map_title(lang: str | None) -> str:
    """The site map's name for people in ``lang``; English for a language not in NAMES."""
    return names_in(lang)["site_map"]


@dataclass
class MapPage:
    """One page of the HTML site map: a language's list, or a part of it."""

    rel_path: str
    loc: str
    lang: str
    entries: list[HtmlEntry]
    part: int = 1
    parts: list[MapPage] = field(default_factory=list, repr=False)
    """Every part of this language's site map, this one included (one when not split)."""
    translations: list[MapPage] = field(default_factory=list, repr=False)
    """The first part of every language's site map, this language's included."""

    @property
    def title(self) -> str:
        """The page's name for people, in its language."""
        return site_map_title(self.lang)

    @property
    def language_name(self) -> str:
        """The page's language, named in itself."""
        return ENDONYMS.get(_primary(self.lang), self.lang)

    @property
    def label(self) -> str:
        """What a link to this part says: its first and last titles."""
        first, last = self.entries[0].title, self.entries[-1].title
        return first if first == last else f"{first} \u2013 {last}"


def variant(rel_path: str, suffix: str) -> str:
    """The file of another page of the site map beside ``rel_path``, at the same depth.

    The same depth keeps a themed page's relative links to its styles right:
    ``sitemap/index.html`` gives ``sitemap-fr/index.html``, ``site-map.html``
    ``site-map-fr.html``.
    """
    if not suffix:
        return rel_path
    folder, _, name = rel_path.rpartition("/")
    if _is_index(rel_path) and folder:
        head, _, last = folder.rpartition("/")
        return f"{head}/{last}-{suffix}/{name}" if head else f"{last}-{suffix}/{name}"
    stem, dot, extension = name.rpartition(".")
    name = f"{stem}-{suffix}{dot}{extension}"
    return f"{folder}/{name}" if folder else name


MAX_LANGUAGES = 100
"""Languages that get a page of their own, at most: each page links every other, so a site
whose pages claim a thousand languages would write a million links (282 MB for 1,000 pages).
The languages with the most pages keep theirs; the others are listed in the site's."""


def own_languages(counted: Counter[str], home: str) -> set[str]:
    """The (lower-case) languages that get a page of their own.

    The site's, then the :data:`MAX_LANGUAGES` - 1 with the most pages (ties by code).
    """
    ranked = sorted((code for code in counted if code != home),
                    key=lambda code: (-counted[code], code))
    return {home, *ranked[: MAX_LANGUAGES - 1]}


def plan_pages(
    entries: Sequence[HtmlEntry], own_rel: str, *, home_lang: str | None,
    page_loc: Callable[[str], str], depth: int, outline: Sequence[NavNode] = (),
    language_pages: Mapping[str, str] | None = None,
) -> list[MapPage]:
    """The site map's pages: one per language, each cut into parts of :data:`MAX_LINKS`.

    The site's own language is at ``own_rel``; another is where the host rendered its page
    (``language_pages``: lower-case language code to path, a multilingual host's build of
    that language), else beside it (:func:`variant`); further parts beside each first. A
    page without a language counts as the site's. The site's language is its home page's,
    else the most common one.
    """
    language_pages = language_pages or {}
    # Only a language tag becomes a path and an hreflang (the reader already says when a
    # page's is not one; a record cached by an older reader may still hold one).
    entries = [e if not e.lang or is_language_tag(e.lang) else e._replace(lang="")
               for e in entries]
    home_lang = home_lang if home_lang and is_language_tag(home_lang) else None
    counted = Counter(e.lang.lower() for e in entries if e.lang)
    home = (home_lang or "").lower() or (counted.most_common(1)[0][0] if counted else "")
    spelt = {e.lang.lower(): e.lang for e in entries if e.lang}
    kept = own_languages(counted, home)
    by_lang: dict[str, list[HtmlEntry]] = {home: []}
    for entry in entries:
        code = entry.lang.lower()
        by_lang.setdefault(code if code in kept else home, []).append(entry)
    pages: list[MapPage] = []
    firsts: list[MapPage] = []
    for lang in sorted(by_lang, key=lambda code: (code != home, code)):
        shown = list(in_order(build_tree(by_lang[lang], depth, outline)))
        chunks = [shown[i:i + MAX_LINKS] for i in range(0, len(shown), MAX_LINKS)] or [[]]
        parts: list[MapPage] = []
        first = own_rel if lang == home else language_pages.get(lang) or variant(own_rel, lang)
        for number, chunk in enumerate(chunks, start=1):
            rel = first if number == 1 else variant(first, str(number))
            parts.append(MapPage(rel, page_loc(rel), spelt.get(lang, lang or "en"), chunk,
                                 number, parts))
        firsts.append(parts[0])
        pages.extend(parts)
    for page in pages:
        page.translations = firsts if len(firsts) > 1 else []
    return pages


class Link(NamedTuple):
    """A link between the site map's own pages: to a part, or to another language's."""

    href: str
    text: str
    lang: str
    current: bool


@dataclass
class View:
    """What the templates show for one page; every link relative to that page."""

    tree: Section
    count: int
    lang: str
    title: str
    parts: list[Link]
    translations: list[Link]
    alternates: list[Link]
    """Every language's first part, absolute, for ``<link rel="alternate" hreflang>``."""

    @property
    def direction(self) -> str:
        """``rtl`` for a language written right to left (Arabic, Hebrew...), else ``ltr``."""
        return "rtl" if _primary(self.lang) in _RIGHT_TO_LEFT else "ltr"


# Languages written right to left (their primary subtags; CLDR's list of common ones).
_RIGHT_TO_LEFT = frozenset({"ar", "arc", "ckb", "dv", "fa", "he", "ks", "ps", "sd", "ug",
                            "ur", "yi"})


def page_view(page: MapPage, *, base: str, depth: int,
              outline: Sequence[NavNode] = ()) -> View:
    """The page's tree and its links to the other parts and languages."""
    def href(loc: str) -> str:
        return relative_href(loc, base=base, self_loc=page.loc)

    shown = [e._replace(loc=href(e.loc)) for e in page.entries]
    parts = [Link(href(p.loc), p.label, p.lang, p is page) for p in page.parts] \
        if len(page.parts) > 1 else []
    translations = [Link(href(t.loc), t.language_name, t.lang, t is page.parts[0])
                    for t in page.translations]
    alternates = [Link(t.loc, t.language_name, t.lang, t is page.parts[0])
                  for t in page.translations] if page.part == 1 else []
    return View(build_tree(shown, depth, outline), len(shown), page.lang, page.title, parts,
                translations, alternates)


def _environment(template: str | None) -> jinja2.Environment:
    return template_environment(*([str(Path(template).resolve().parent)] if template else []))


def load_template(template: str | None) -> jinja2.Template:
    """The page template: the user's file, or the shipped one.

    Raises:
        ConfigError: when the template cannot be read or compiled (checked before a build).
    """
    if template is None:
        template_path(TEMPLATE_NAME)
        return _environment(None).get_template(TEMPLATE_NAME)

    def refused(why: str) -> ConfigError:
        return ConfigError("html_sitemap_template", f"Expected a Jinja2 template file but "
                                                    f"received: {template!r} ({why})")

    if not Path(template).is_file():
        raise refused("a folder" if Path(template).is_dir() else "no such file")
    try:
        return _environment(template).get_template(Path(template).name)
    except jinja2.TemplateSyntaxError as err:
        raise refused(f"line {err.lineno}: {err.message}") from err
    except (jinja2.TemplateError, OSError, UnicodeDecodeError) as err:
        raise refused(str(err)) from err


def render_html_sitemap(view: View, template: jinja2.Template) -> str:
    """A standalone page from ``template`` (:func:`load_template`).

    The tree is in nested lists inside a named navigation landmark.

    Raises:
        ConfigError: when the template cannot be rendered.
    """
    try:
        return template.render(view=view, tree=view.tree, count=view.count, lang=view.lang,
                               dir=view.direction, title=view.title)
    except Exception as err:  # the template is the user's code: 1/0 there is a bad option
        why = str(err) or type(err).__name__
        if _is_shipped(template):  # no template was given: never blame the option
            msg = f"cannot render the HTML site map: {why}"
            raise SitemapError(msg) from err
        raise ConfigError("html_sitemap_template",
                          f"cannot render {template.name!r}: {why}") from err


def _is_shipped(template: jinja2.Template) -> bool:
    if template.filename is None:
        return False
    folder = Path(template.filename).resolve().parent
    return any(folder == Path(shipped).resolve() for shipped in TEMPLATE_DIRS)


def fill_themed(shell: str, view: View) -> str:
    """The host's themed page with the list in place of :data:`MARKER`.

    The page gets the list's language, its name in that language (the host wrote one shell,
    named in the site's language, for every language's site map) and names its translations
    in its head.
    """
    module = template_module(NAV_TEMPLATE_NAME)
    html = shell.replace(MARKER, str(module.body(view)), 1)
    lang = _HTML_LANG.search(html)
    named = site_map_title((lang.group(2) or lang.group(3)) if lang else None)
    if named != view.title:  # in the <title> and the page's heading only, not in its menus
        for element in (_TITLE_ELEMENT, _H1_ELEMENT):
            # The first one that names it (a theme's banner may be an <h1> of the site name).
            found = next((m for m in element.finditer(html) if escape(named) in m.group(0)),
                         None)
            if found is not None:
                renamed = found.group(0).replace(escape(named), escape(view.title))
                html = html[:found.start()] + renamed + html[found.end():]
    html = _HTML_LANG.sub(lambda m: f'{m.group(1)}"{escape(view.lang)}"', html, count=1)
    head = str(module.head_links(view))
    if head.strip():
        at = html.lower().find("</head>")
        if at != -1:
            html = html[:at] + head + html[at:]
    return html


_HTML_LANG = re.compile(r'(<html\b[^>]*?\blang=)(?:"([^"]*)"|\'([^\']*)\')', re.IGNORECASE)
_TITLE_ELEMENT = re.compile(r"<title\b[^>]*>[^<]*</title>", re.IGNORECASE)
_H1_ELEMENT = re.compile(r"<h1\b[^>]*>(?:(?!</h1>).){0,2000}</h1>", re.IGNORECASE | re.DOTALL)


class PageStore(Protocol):
    """The site's files as the HTML site map needs them (``owned.SitePages``)."""

    def check_free(self, rel_path: str) -> None:
        """Raise ConfigError when a page of the site (not ours, no marker) stands there."""

    def shell(self, rel_path: str) -> str | None:
        """The host's themed page holding :data:`MARKER` there, or None."""

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
    """The HTML site map of one build.

    It collects the listed pages as the sitemap streams, plans its own pages before the
    sitemap that lists them is written, and writes them after.
    """

    store: PageStore
    own_rel: str
    base: BaseUrl
    directory_urls: bool
    depth: int
    template: str | None = None
    outline: Sequence[NavNode] = ()
    language_pages: Mapping[str, str] = field(default_factory=dict)
    """Lower-case language code to the page a multilingual host rendered for that language's
    site map in its own theme, language and navigation (mkdocs-static-i18n: ``fr/sitemap/``)."""
    extensionless_urls: bool = False
    """Its own pages' URLs as the sitemap lists them (see :func:`page_url`)."""
    stand_ins: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """A page standing in for a missing translation (mkdocs-static-i18n's fallback copy,
    which is not listed) -> its language and the page it copies. That language's list links
    the copied page in its own language, in the place of the copy."""
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
        return any(_variant_suffix(first, rel_path) is not None for first in self._firsts
                   ) and self.store.is_ours(rel_path)

    def _untranslated(self, home_lang: str | None) -> list[HtmlEntry]:
        """Each stand-in's entry: the copied page's link and title, at the copy's place.

        In the copy's language: a French map names the English page a French reader is shown.
        """
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

        They are rendered in the host's theme when it rendered one. A template that fails on
        any page stops the build before the sitemap naming the pages is written: a sitemap
        never lists a site map page that is not there.

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
        languages = {e.lang.lower() for e in self.entries if is_language_tag(e.lang)}
        folded = languages - {page.lang.lower() for page in self.pages}
        if folded:
            self.diagnostics.append(Diagnostic(self.own_rel, "html-sitemap-languages", (
                f"the pages name {len(languages):,} languages; the {MAX_LANGUAGES} with the "
                f"most pages get a site map page each, the other {len(folded):,} (such as "
                f"{min(folded)!r}) are listed in the site's own"), Level.INFO))
        for page in self.pages:
            if page.rel_path != self.own_rel:  # checked before the pages were read
                self.store.check_free(page.rel_path)
        # Read before page one replaces them: the site's themed page, and each language's
        # that the host rendered in that language (else the site's serves it too).
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
        """Write every page :meth:`plan` rendered.

        Returns the files written and those removed (pages of earlier builds that this one
        has no more).

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
            # A language's page the host rendered, whose language no page of the site has:
            # a list-less page this build asked for, never left published.
            if (shell is not None and rel not in written and rel != self.own_rel
                    and self.store.remove(rel)):
                removed.append(rel)
        return written, removed


_HOMES = frozenset(INDEX_NAMES)


_SUFFIX_WORDS = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z", re.IGNORECASE)


def _variant_suffix(own_rel: str, rel_path: str) -> str | None:
    """The suffix that makes ``rel_path`` a :func:`variant` of ``own_rel``, or None."""
    folder, _, name = own_rel.rpartition("/")
    if _is_index(own_rel) and folder:
        head, _, stem = folder.rpartition("/")
        prefix, ending = f"{head}/{stem}-" if head else f"{stem}-", f"/{name}"
    else:
        stem, dot, extension = name.rpartition(".")
        prefix = f"{folder}/{stem}-" if folder else f"{stem}-"
        ending = f"{dot}{extension}"
    if not (rel_path.startswith(prefix) and rel_path.endswith(ending)):
        return None
    suffix = rel_path[len(prefix): len(rel_path) - len(ending)]
    return suffix if _SUFFIX_WORDS.match(suffix) else None


def remove_stale_pages(store: PageStore, own_rel: str, keep: Collection[str]) -> list[str]:
    """Remove pages of the site map that earlier builds wrote and this one did not.

    Parts of a list that got shorter, languages the site no longer has: only files beside
    the site map's page, named as its variants and marked as ours, go.
    """
    folder, _, name = own_rel.rpartition("/")
    nested = _is_index(own_rel) and bool(folder)
    parent = folder.rpartition("/")[0] if nested else folder
    removed: list[str] = []
    for candidate in store.names(parent):
        rel = f"{parent}/{candidate}" if parent else candidate
        if nested:
            rel = f"{rel}/{name}"
        if rel in keep or _variant_suffix(own_rel, rel) is None:
            continue
        # Never a file out of the site through a link; a folder goes only when empty.
        if store.is_ours(rel) and store.remove(rel, folder_too=nested):
            removed.append(rel)
    return removed
