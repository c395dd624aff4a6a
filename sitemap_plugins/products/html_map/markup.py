"""The HTML site map's markup: a planned page as HTML.

:func:`page_view` gives what the templates show (links relative to the page);
:func:`render_html_sitemap` renders it, or :func:`fill_themed` puts it into a host's themed
page in place of :data:`MARKER`. It reads only template files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import jinja2

from sitemap_plugins.entry.render import (
    HTML_MAP_MARKER,
    TEMPLATE_DIRS,
    template_environment,
    template_module,
    template_path,
)
from sitemap_plugins.products.html_map.plan import (
    MapPage,
    Section,
    build_tree,
    language_key,
    site_map_title,
)
from sitemap_plugins.vocab.errors import ConfigError, SitemapError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sitemap_plugins.products.html_map.plan import NavNode

TEMPLATE_NAME = "html_sitemap.html"
NAV_TEMPLATE_NAME = "html_sitemap_nav.html"
MARKER = HTML_MAP_MARKER
"""Where a host's themed page wants the list (see :func:`fill_themed`)."""


def relative_href(loc: str, *, base: str, self_loc: str) -> str:
    """``loc`` as a link from the page at ``self_loc`` (so any copy of the site works).

    Absolute when off the base.
    """
    if not loc.startswith(base) or not self_loc.startswith(base):
        return loc
    up = self_loc[len(base):].count("/")
    href = "../" * up + loc[len(base):]
    # A first segment holding ":" reads as a scheme (RFC 3986 4.2): "./" keeps it a path.
    if not href or ":" in href.partition("/")[0]:
        href = "./" + href
    return href


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
        return "rtl" if language_key(self.lang) in _RIGHT_TO_LEFT else "ltr"


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

    It gets the list's language, its name in that language and its translations in its head.
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


# No run in these may pass a "<": every character is looked at a bounded number of times.
_HTML_LANG = re.compile(r'(<html\b[^<>]*?\blang=)(?:"([^"<>]*)"|\'([^\'<>]*)\')', re.IGNORECASE)
_TITLE_ELEMENT = re.compile(r"<title\b[^<>]*>[^<]*</title>", re.IGNORECASE)
_H1_ELEMENT = re.compile(r"<h1\b[^<>]*>(?:(?!</h1>|<h1\b).){0,2000}</h1>",
                         re.IGNORECASE | re.DOTALL)
