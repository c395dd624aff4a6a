"""The HTML site map's plan: which pages it has, and how each groups and names its links.

Entries are grouped into sections by folder, or where the host's navigation puts them
(:func:`build_tree`); there is a page per language, cut into parts of :data:`MAX_LINKS`
(:func:`plan_pages`). ``markup`` renders a planned page; ``pages`` writes a build's.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, NamedTuple

from sitemap_plugins.vocab.urls import INDEX_NAMES
from sitemap_plugins.vocab.values import names_language, xml_text

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

# A title's site-name suffix: "Page - Site", "Page | Site", "Page — Site".
SITE_SUFFIX = re.compile(r"\s+[-|\u2013\u2014\u00b7:]\s+[^-|\u2013\u2014\u00b7:]+\Z")


class HtmlEntry(NamedTuple):
    """One listed page as the HTML site map shows it."""

    loc: str
    rel_path: str
    title: str
    lang: str = ""
    link_lang: str = ""
    """The linked page's language when not the list's (a stand-in for a missing translation)."""
    notes: str = ""
    """The page's description (llms.txt's notes)."""
    site: str = ""
    """A home page's whole ``<title>``, which names the site (llms.txt's heading)."""

    @property
    def link_language(self) -> str:
        """:attr:`link_lang` named in itself (English, Français...)."""
        return ENDONYMS.get(language_key(self.link_lang), self.link_lang)


def page_title(title: str | None, heading: str | None, loc: str) -> str:
    """The link text: the page's ``<h1>``, else its ``<title>`` without a site-name suffix."""
    heading = " ".join(xml_text(heading or "").split())
    if heading:
        return heading
    text = " ".join(xml_text(title or "").split())
    if text:
        shorter = SITE_SUFFIX.sub("", text)
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


def listing_nodes(name: str, posts: Iterable[str | None], further: Iterable[str | None],
                  lang: str | None) -> tuple[NavNode, ...]:
    """What a blog listing named ``name`` heads: the posts it shows, then its further pages.

    Further pages (None where the host wrote no file) are named in ``lang``.
    """
    further_page = names_in(lang)["page"]
    return (*(NavNode(None, rel) for rel in posts if rel is not None),
            *(NavNode(further_page.format(name=name, number=number), rel)
              for number, rel in enumerate(further, start=2) if rel is not None))


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
    """The slug of ``name``, which tells Pelican categories apart ("Physics" is "physics")."""


# Categories (each with its articles, newest first), then pages, then the listings.
_LISTINGS = ("archives", "categories", "tags", "authors")


def blog_outline(places: Mapping[str, BlogPlace], site_name: str,
             labels: Mapping[str, str]) -> tuple[NavNode, ...]:
    """A blog as sections: home, categories with their articles, pages, then listings.

    ``labels``: names of the sections Pelican gives none, in the site's language.
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

    The host's navigation order is kept; the rest follow sorted by title and name.
    """

    name: str
    index: HtmlEntry | None = None
    items: list[HtmlEntry | Section] = field(default_factory=list)
    """Pages and sub-sections in the order shown."""
    pages: list[HtmlEntry] = field(default_factory=list, repr=False)
    folders: dict[str, Section] = field(default_factory=dict, repr=False)
    """Pages and sub-folders grouped by folder, until :func:`build_tree` orders them."""


def is_index(rel_path: str) -> bool:
    """Whether the file is a folder's index page (its name is in ``urls.INDEX_NAMES``)."""
    return PurePosixPath(rel_path).name.lower() in INDEX_NAMES


MAX_DEPTH = 20
"""Levels of lists at most (``html_sitemap_depth`` 0): deeper pages fold into their ancestor,
so neither the plan nor a template's recursive macro passes the recursion limit."""


def build_tree(entries: Sequence[HtmlEntry], depth: int,
               outline: Sequence[NavNode] = ()) -> Section:
    """Entries grouped into at most ``depth`` levels of lists (0: :data:`MAX_DEPTH`).

    Pages the navigation (``outline``) names go where it puts them, with its titles; the
    others by folder, a folder's index page heading its section.
    """
    depth = min(depth, MAX_DEPTH) if depth > 0 else MAX_DEPTH
    root = Section("")
    by_path = {entry.rel_path: entry for entry in entries}
    _place_navigation(root, outline, by_path, depth)
    for entry in by_path.values():
        folders = list(PurePosixPath(entry.rel_path).parts[:-1])
        heads_folder = is_index(entry.rel_path)
        if depth and len(folders) > depth - 1:  # listed in its ancestor at the last level
            folders, heads_folder = folders[: depth - 1], False
        section = root
        for name in folders:
            section = section.folders.setdefault(name, Section(_readable(name)))
        if heads_folder and section.index is None and not section.items:
            section.index = entry
        else:
            section.pages.append(entry)
    _finish(root)
    return root


def _readable(name: str) -> str:
    """A folder's name as text, bytes that are not UTF-8 shown as U+FFFD."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _place_navigation(root: Section, outline: Sequence[NavNode],
                      unplaced: dict[str, HtmlEntry], depth: int) -> None:
    """Move the entries the navigation names from ``unplaced`` into its sections.

    With a stack, not recursion (navigations nest deep); sections below ``depth`` fold up.
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
    """Order what the navigation did not; drop sections left empty (depth is bounded)."""
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


# What the site map calls things in common languages (others get English): its name, and
# the listings a host gives no name ("{number}" is a page number).
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
    return NAMES.get(language_key(lang or "en"), NAMES["en"])


# Chinese scripts: a tag's script, else the region's (BCP 47 / CLDR likely subtags).
_TRADITIONAL_REGIONS = frozenset({"tw", "hk", "mo"})


def language_key(lang: str) -> str:
    """The key of NAMES and ENDONYMS for a tag: its language, and for Chinese its script."""
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


def taken_message(rel_path: str, source: str) -> str:
    """Why a host cannot add the site map as a page: ``rel_path`` is the output of ``source``."""
    return f"{rel_path!r} is the output of {source!r}; choose another path"


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
        return ENDONYMS.get(language_key(self.lang), self.lang)

    @property
    def label(self) -> str:
        """What a link to this part says: its first and last titles."""
        first, last = self.entries[0].title, self.entries[-1].title
        return first if first == last else f"{first} \u2013 {last}"


def variant(rel_path: str, suffix: str) -> str:
    """The file of another page of the site map beside ``rel_path``, at the same depth.

    So a themed page's relative links still work: ``sitemap/index.html`` gives
    ``sitemap-fr/index.html``.
    """
    if not suffix:
        return rel_path
    prefix, ending = _variant_ends(rel_path)
    return f"{prefix}{suffix}{ending}"


_SUFFIX_WORDS = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z", re.IGNORECASE)


def variant_suffix(own_rel: str, rel_path: str) -> str | None:
    """The suffix that makes ``rel_path`` a :func:`variant` of ``own_rel``, or None."""
    prefix, ending = _variant_ends(own_rel)
    if not (rel_path.startswith(prefix) and rel_path.endswith(ending)):
        return None
    suffix = rel_path[len(prefix): len(rel_path) - len(ending)]
    return suffix if _SUFFIX_WORDS.match(suffix) else None


def _variant_ends(rel_path: str) -> tuple[str, str]:
    """What the name of each :func:`variant` of ``rel_path`` has before and after its suffix."""
    folder, _, name = rel_path.rpartition("/")
    if is_index(rel_path) and folder:
        head, _, stem = folder.rpartition("/")
        return (f"{head}/{stem}-" if head else f"{stem}-"), f"/{name}"
    stem, dot, extension = name.rpartition(".")
    return (f"{folder}/{stem}-" if folder else f"{stem}-"), f"{dot}{extension}"


MAX_LANGUAGES = 100
"""Languages that get a page of their own, at most (each links every other): the ones with
the most pages; the others are listed in the site's."""


def own_languages(counted: Counter[str], home: str) -> set[str]:
    """The (lower-case) languages with a page: the site's, then the most common (ties by code)."""
    ranked = sorted((code for code in counted if code != home),
                    key=lambda code: (-counted[code], code))
    return {home, *ranked[: MAX_LANGUAGES - 1]}


def plan_pages(
    entries: Sequence[HtmlEntry], own_rel: str, *, home_lang: str | None,
    page_loc: Callable[[str], str], depth: int, outline: Sequence[NavNode] = (),
    language_pages: Mapping[str, str] | None = None,
) -> list[MapPage]:
    """The site map's pages: one per language, each cut into parts of :data:`MAX_LINKS`.

    The site's language is at ``own_rel``; another where the host rendered its page
    (``language_pages``), else beside it (:func:`variant`). A page without a language counts
    as the site's (its home page's, else the most common).
    """
    language_pages = language_pages or {}
    # Only a tag naming a language becomes a path and an hreflang (older cached records may
    # hold others); "und" or "x-default" is none.
    entries = [e if (not e.lang or names_language(e.lang))
               and (not e.link_lang or names_language(e.link_lang))
               else e._replace(lang=e.lang if names_language(e.lang) else "",
                               link_lang=e.link_lang if names_language(e.link_lang) else "")
               for e in entries]
    home_lang = home_lang if home_lang and names_language(home_lang) else None
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
