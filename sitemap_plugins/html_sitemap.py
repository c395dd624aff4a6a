"""The HTML site map: a page for people listing exactly the URLs the XML sitemap lists.

The pipeline hands over each listed page's URL, file and title as it streams them
(:class:`HtmlEntry`, a few short strings per page); :func:`build_tree` groups them by folder,
with a folder's index page as the section's heading, and :func:`write_html_sitemap` renders
the tree with a Jinja2 template and replaces the file atomically.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import NamedTuple

import jinja2

from sitemap_plugins.errors import ConfigError
from sitemap_plugins.writers.atomic import refuse_special, write_bytes_atomic
from sitemap_plugins.writers.templates import template_environment, template_path

TEMPLATE_NAME = "html_sitemap.html"
NAV_TEMPLATE_NAME = "html_sitemap_nav.html"
MARKER = "<!-- sitemap-plugins:html-sitemap -->"
"""Where a host's themed page wants the list: the host renders a page holding it, and the
list replaces it once the sitemap is known (see :func:`write_html_sitemap`)."""
# A title's site-name suffix: "Page - Site", "Page | Site", "Page — Site".
_SUFFIX = re.compile(r"\s+[-|\u2013\u2014\u00b7:]\s+[^-|\u2013\u2014\u00b7:]+\Z")


class HtmlEntry(NamedTuple):
    """One listed page as the HTML site map shows it."""

    loc: str
    rel_path: str
    title: str
    lang: str = ""


def relative_href(loc: str, *, base: str, self_loc: str) -> str:
    """``loc`` as a link from the page at ``self_loc``; absolute when off the base.

    Relative, so that any copy of the site (a preview, a local server) links to its own pages.
    """
    if not loc.startswith(base) or not self_loc.startswith(base):
        return loc
    up = self_loc[len(base):].count("/")
    return "../" * up + loc[len(base):] or "./"


def html_sitemap_file(option: str) -> str:
    """The file the option names, relative to the site root: ``sitemap/`` is ``sitemap/index.html``.

    Raises:
        ConfigError: when the path leaves the site, is absolute or is not an HTML file.
    """
    text = option.strip().replace("\\", "/")
    path = text + "index.html" if text.endswith("/") else text
    parts = PurePosixPath(path).parts
    if (not parts or text.startswith("/") or ".." in parts or "." in parts
            or not path.lower().endswith((".html", ".htm"))):
        raise ConfigError(
            "html_sitemap", f"Expected a path inside the site such as 'sitemap/' or "
            f"'site-map.html' but received: {option!r} (str)")
    return "/".join(parts)


def page_title(title: str | None, heading: str | None, loc: str) -> str:
    """The link text: the page's ``<h1>``, else its ``<title>`` without a site-name suffix."""
    if heading and heading.strip():
        return " ".join(heading.split())
    if title and title.strip():
        text = " ".join(title.split())
        shorter = _SUFFIX.sub("", text)
        return shorter or text
    return loc


@dataclass
class Section:
    """A folder of the site: its index page (the heading), its pages and its sub-folders."""

    name: str
    index: HtmlEntry | None = None
    pages: list[HtmlEntry] = field(default_factory=list)
    folders: dict[str, Section] = field(default_factory=dict)


def _is_index(rel_path: str) -> bool:
    return PurePosixPath(rel_path).name.lower() in ("index.html", "index.htm")


def build_tree(entries: list[HtmlEntry], depth: int) -> Section:
    """Entries grouped by folder into at most ``depth`` levels of lists (0: no limit).

    A folder's index page is its section's heading; pages are sorted by title, folders by
    name, so the order does not depend on the scan.
    """
    root = Section("")
    for entry in entries:
        folders = list(PurePosixPath(entry.rel_path).parts[:-1])
        is_index = _is_index(entry.rel_path)
        if depth and len(folders) > depth - 1:  # listed in its ancestor at the last level
            folders, is_index = folders[: depth - 1], False
        section = root
        for name in folders:
            section = section.folders.setdefault(name, Section(name))
        if is_index and section.index is None:
            section.index = entry
        else:
            section.pages.append(entry)
    _sort(root)
    return root


def _sort(section: Section) -> None:
    section.pages.sort(key=lambda e: (e.title.casefold(), e.loc))
    section.folders = dict(sorted(section.folders.items()))
    for child in section.folders.values():
        _sort(child)


def _environment(template: str | None) -> jinja2.Environment:
    return template_environment(*([str(Path(template).resolve().parent)] if template else []))


def render_html_sitemap(
    entries: list[HtmlEntry], *, self_loc: str, base: str, lang: str, title: str,
    depth: int, template: str | None = None,
) -> str:
    """The page's HTML: the tree in nested lists inside a named ``<nav>``; no link to itself.

    Raises:
        ConfigError: when the template cannot be read or rendered.
    """
    shown = [e._replace(loc=relative_href(e.loc, base=base, self_loc=self_loc))
             for e in entries if e.loc != self_loc]
    name = Path(template).name if template else TEMPLATE_NAME
    if template is None:
        template_path(TEMPLATE_NAME)
    try:
        page = _environment(template).get_template(name)
        return page.render(tree=build_tree(shown, depth), count=len(shown), lang=lang,
                           title=title)
    except (jinja2.TemplateError, OSError) as err:
        raise ConfigError("html_sitemap_template", f"cannot render {name!r}: {err}") from err


def render_nav(entries: list[HtmlEntry], *, self_loc: str, base: str, title: str,
               depth: int) -> str:
    """Only the ``<nav>`` with its nested lists: what fills a themed page's marker."""
    shown = [e._replace(loc=relative_href(e.loc, base=base, self_loc=self_loc))
             for e in entries if e.loc != self_loc]
    module = _environment(None).get_template(NAV_TEMPLATE_NAME).module
    return str(module.site_map(build_tree(shown, depth), title))  # type: ignore[attr-defined]


def themed_page(site: Path, rel_path: str) -> str | None:
    """The host's themed page holding :data:`MARKER`, or None (a standalone page is written)."""
    try:
        text = (site / rel_path).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return text if MARKER in text else None


OWN_MARK = '<meta name="generator" content="sitemap-plugins">'


def check_free(site: Path, rel_path: str) -> None:
    """Refuse to overwrite a page of the site that is neither a host's marker page nor ours.

    Raises:
        ConfigError: naming the file, before anything is written.
        WriteError: when a link, pipe or device stands there.
    """
    target = site / rel_path
    refuse_special(target)  # a pipe there would hang the read below
    if target.is_dir():
        raise ConfigError("html_sitemap", f"{rel_path!r} is a folder of the site; end the path "
                                          "with '/' to write index.html in it")
    try:
        head = target.read_bytes()
    except FileNotFoundError:
        return
    except OSError as err:
        raise ConfigError("html_sitemap", f"{rel_path!r} cannot be read: {err.strerror}") from err
    if MARKER.encode() not in head and OWN_MARK.encode() not in head:
        raise ConfigError("html_sitemap", f"{rel_path!r} is a page of the site, not an HTML "
                                          "site map; choose another path")


def write_html_sitemap(site: Path, rel_path: str, html: str) -> None:
    """Replace the page atomically (its folder made when missing).

    Raises:
        WriteError: when the file cannot be written; the old one is kept.
    """
    target = site / rel_path
    target.parent.mkdir(parents=True, exist_ok=True)
    write_bytes_atomic(target, html.encode("utf-8"))
