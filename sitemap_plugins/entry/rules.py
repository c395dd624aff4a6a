"""Sitemap entries and the one decision: is a built page listed, and how.

:func:`evaluate` is pure: a page's path, its :class:`~sitemap_plugins.page.reader.PageRecord`,
what the host knows about it (:class:`PageHints`) and the run's :class:`Rules` in; an
:class:`Entry` or an :class:`Exclusion` out, with what the user should hear. It reads no
file and keeps no books, so it is tested as a table of cases.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, NamedTuple

from sitemap_plugins.entry.media import VideoEntry, page_images, page_videos
from sitemap_plugins.page.reader import NOTES
from sitemap_plugins.page.stated import linked_source
from sitemap_plugins.vocab.dates import (
    Lastmod,
    coerce_lastmod,
    file_time,
    format_w3c,
    parse_w3c,
    sort_key,
)
from sitemap_plugins.vocab.errors import Diagnostic, Level
from sitemap_plugins.vocab.urls import (
    INDEX_NAMES,
    MAX_URL_LENGTH,
    comparison_key,
    is_public,
    is_within,
    page_url,
    resolve_href,
)
from sitemap_plugins.vocab.values import FUTURE_SLACK, is_language_tag

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from sitemap_plugins.entry.news import NewsItem
    from sitemap_plugins.entry.robots_txt import RobotsRules
    from sitemap_plugins.page.reader import HostPage, PageRecord
    from sitemap_plugins.vocab.globs import GlobSet
    from sitemap_plugins.vocab.options import SitemapConfig

REASON_EXCLUDED = "excluded by config"
REASON_NOT_INCLUDED = "not included by config"
REASON_404 = "404 page"
REASON_REDIRECT = "redirect stub"
REASON_NOINDEX = "noindex"
REASON_CANONICAL = "canonical elsewhere"
REPLACED_SITEMAP_SOURCE = "replaced sitemap"
"""Where a lastmod came from: the honest generator's sitemap this build replaced."""
REASON_OFF_SITE = "canonical off the site"
REASON_ROBOTS = "disallowed by robots.txt"
REASON_TOO_LONG = "URL longer than 2,048 characters"
REASON_UNREADABLE = "unreadable"
REASON_UNTRANSLATED = "i18n fallback copy of an untranslated page"
"""Another language's page copied into this site (:func:`~.vocab.values.untranslated_copy`)."""
REASON_TEMPLATE = "template file (not a page)"

HTML_EXTENSIONS = (".html", ".htm", ".xhtml")
_NOT_FOUND_NAMES = ("404.html", "404.htm")


@dataclass(frozen=True, order=True)
class Alternate:
    """One ``xhtml:link rel="alternate"``: a language version of the page."""

    hreflang: str
    href: str


@dataclass(frozen=True)
class Entry:
    """One ``<url>`` of a sitemap: public API, what ``entry_hook`` is given (docs/hooks.md)."""

    loc: str
    lastmod: Lastmod | None = None
    changefreq: str | None = None
    priority: float | None = None
    alternates: tuple[Alternate, ...] = ()
    images: tuple[str, ...] = ()
    """The page's content images, absolute (``image:loc``)."""
    videos: tuple[VideoEntry, ...] = ()
    """The page's content videos that Google can take (``video:video``)."""
    rel_path: str = field(default="", compare=False)
    """The file behind the URL, relative to the site root (not written to the sitemap)."""
    lastmod_source: str = field(default="", compare=False)
    """Where the lastmod came from: host, page, file time, manifest (for reports)."""
    fingerprint: str = field(default="", compare=False)
    """What the reader sees, hashed (see :mod:`sitemap_plugins.page.reader`); empty when off."""
    news: NewsItem | None = field(default=None, compare=False)
    """Its news entry, when a news sitemap is written and the page has a publication date."""

    @property
    def lastmod_w3c(self) -> str:
        """The lastmod in W3C datetime form, or an empty string."""
        return format_w3c(self.lastmod) if self.lastmod is not None else ""

    @property
    def priority_text(self) -> str:
        """The priority with one decimal, as the protocol's examples write it."""
        return f"{self.priority:.1f}" if self.priority is not None else ""


class Exclusion(NamedTuple):
    """A built file that is not listed, and why."""

    rel_path: str
    reason: str


class Decision(NamedTuple):
    """What :func:`evaluate` decided about one page, and what the user should hear."""

    result: Entry | Exclusion
    diagnostics: tuple[Diagnostic, ...] = ()
    rules_applied: tuple[tuple[str, int], ...] = ()
    """``(option, index)`` of the ``changefreq`` and ``priority`` rules whose glob was the
    first to match the listed page (whether or not the page's own value won)."""
    videos_skipped: tuple[str, ...] = ()
    """Why each of the listed page's videos that could not be listed was left out."""
    dates: tuple[DateClaim, ...] = ()
    """Every date :func:`choose_lastmod` was offered for the listed page (for ``explain``)."""


# --- the one date rule -----------------------------------------------------------------------

EXPLICIT = "explicit"
"""The author's word for the sitemap: MkDocs ``sitemap: {lastmod: ...}``, Pelican ``Lastmod:``."""
MODIFIED = "modified"
"""The page's stated last change: Pelican ``Modified:``, Material's ``date.updated``, a
``article:modified_time`` (or like) meta tag."""
PUBLISHED = "published"
"""The page's stated publication: front matter ``date``, Pelican ``Date:``, a published meta."""
LISTED = "listed"
"""The newest date of the pages a listing lists (a blog index, a tag page)."""
GIT = "git"
"""A commit that changed the page's source, or a file it includes, after it was added."""
GIT_ADDED = "git: added"
"""The commit that added the page's source (or included file), its only one so far."""
REPLACED = "replaced sitemap"
"""The lastmod another generator known to date honestly (Hugo) gave in the sitemap replaced."""
FILE_TIME = "file time"
"""A file's modification time: no author's date; used only under ``lastmod_file_time``."""


class DateClaim(NamedTuple):
    """A candidate lastmod, what it is, and the source recorded for it (for reports)."""

    kind: str
    """One of :data:`EXPLICIT`, :data:`MODIFIED`, :data:`PUBLISHED`, :data:`LISTED`,
    :data:`GIT`, :data:`GIT_ADDED`, :data:`REPLACED`, :data:`FILE_TIME`."""
    value: Lastmod
    source: str = "host"
    """What reports and the manifest say it came from: ``explicit``, ``host``, ``page``..."""


# The manifest never overrules these sources: the date says when the page last changed.
STATED_SOURCES = frozenset({EXPLICIT, "page"})


def choose_lastmod(claims: Iterable[DateClaim]) -> DateClaim | None:
    """The one date rule, for every host and the command line alike.

    1. An explicit date (the author's word for the sitemap) wins.
    2. Else the page's stated last change (the latest, when there are several).
    3. Else the latest of its stated publication, for a listing its items' dates, and the
       commits that changed its source or the files it includes after they were added.
    4. Else the commit that added its source (or an included file): only for a page that
       states no date of its own, since that commit may be an import, which says nothing
       about when a dated article changed.
    5. Else the date a replaced sitemap of a generator that dates honestly (Hugo) gave.
    6. Else a file time (the caller hands one over only under ``lastmod_file_time``).

    The manifest then may know of a later change (:mod:`sitemap_plugins.disk.history`): it wins
    over every date but those of steps 1 and 2 (sources in :data:`STATED_SOURCES`).
    """
    found: dict[str, list[DateClaim]] = {}
    for claim in claims:
        found.setdefault(claim.kind, []).append(claim)
    for kinds in ((EXPLICIT,), (MODIFIED,), (PUBLISHED, LISTED, GIT), (GIT_ADDED,),
                  (REPLACED,), (FILE_TIME,)):
        candidates = [claim for kind in kinds for claim in found.get(kind, ())]
        if candidates:
            return max(candidates, key=lambda claim: sort_key(claim.value))
    return None


@dataclass(frozen=True)
class PageHints:
    """What a host (MkDocs, Pelican) knows about one built page; it wins over the page."""

    lastmod: Lastmod | None = None
    """A date the host decided on (kind by ``lastmod_source``); prefer ``dates``."""
    changefreq: str | None = None
    """The page's own value (front matter, metadata): it wins over every rule."""
    priority: float | None = None
    """The page's own value: it wins over every rule."""
    exclude: str | None = None
    """When set, the page is left out; the text is the reason shown to the user."""
    alternates: tuple[tuple[str, str], ...] | None = None
    """``(hreflang, URL)`` pairs replacing the page's alternates; None keeps them. URLs may
    be relative to the base URL."""
    lastmod_source: str = "host"
    published: Lastmod | None = None
    """When the page was first published (Pelican's article date, a blog post's date): the
    news sitemap's publication date, before the page's own meta."""
    url: str | None = None
    """The URL the host links to, when it may differ from its file's path (absolute, or
    relative to the base URL): the page's URL when on the site (see :func:`own_url`)."""
    default_changefreq: str | None = None
    """Used when neither the page nor a ``changefreq`` rule sets one (a host's per-kind
    default, such as pelican-sitemap's ``changefreqs``)."""
    default_priority: float | None = None
    """Used when neither the page nor a ``priority`` rule sets one."""
    dates: tuple[DateClaim, ...] = ()
    """The dates the host knows of the page, each with what it is: :func:`choose_lastmod`
    picks, with the page's own date meta tags and its file time."""
    unrendered: bool = False
    """The host knows the page but did not render it this time (MkDocs ``--dirty``): its
    record is the last build's (the host's content then), when the cache has one."""
    html: bool = False
    """The host wrote it as an HTML page, whatever its name (Sphinx's ``html_file_suffix``)."""
    page: HostPage | None = None
    """The page as the host rendered it: its record is made from it, and no file is read."""


@dataclass(frozen=True)
class Rules:
    """Everything :func:`evaluate` needs besides the page itself, prepared once per run."""

    config: SitemapConfig
    include: GlobSet
    exclude: GlobSet
    changefreq: GlobSet
    priority: GlobSet
    robots: RobotsRules | None
    canonical_base: str | None = None
    """Where the host points every page's canonical link instead of the base URL (mike)."""
    replaced_dates: Mapping[str, str] = field(default_factory=dict)
    """URL key -> the ``<lastmod>`` an honest generator's sitemap this build replaces gave."""
    source_commits: Mapping[str, tuple[Lastmod, bool]] = field(default_factory=dict)
    """The command line's git work tree: file (from its top) -> its last commit, and whether
    that commit only added it. A page whose edit link names one of them is dated by it."""

    @property
    def base(self) -> str:
        """The base URL as text."""
        return str(self.config.base_url)


def is_html_page(rel: str) -> bool:
    """Whether the file at ``rel`` is read as an HTML page (by its extension)."""
    return rel.rpartition("/")[2].lower().endswith(HTML_EXTENSIONS)


class Placement(NamedTuple):
    """Where a page stands before its record is read: its URL, or why it is left out."""

    reason: str | None
    url: str
    url_path: str
    """The URL below the base URL, for globs."""


def own_url(rel: str, hints: PageHints | None, rules: Rules) -> str:
    """The file's URL, or the host's for it when on the site and not the file's spelt otherwise."""
    config = rules.config
    base = config.base_url
    file_url = page_url(base, rel, directory_urls=config.directory_urls,
                        extensionless_urls=config.extensionless_urls)
    if hints is None or hints.url is None:
        return file_url
    host_url = resolve_href(hints.url or "./", str(base))
    if host_url is None or not is_within(host_url, base):
        return file_url
    key = comparison_key(host_url)
    if key in (comparison_key(page_url(base, rel, directory_urls=True)),
               comparison_key(page_url(base, rel, directory_urls=False))):
        return file_url
    return host_url


def place(rel: str, hints: PageHints | None, rules: Rules) -> Placement:
    """The page's URL, and the reason it is left out whatever it holds (or None)."""
    if hints is not None and hints.exclude:
        return Placement(hints.exclude, "", "")
    url = own_url(rel, hints, rules)
    url_path = url[len(rules.base) :]
    reason: str | None = None
    if rules.include and rules.include.first_match(rel, url_path) is None:
        reason = REASON_NOT_INCLUDED
    elif rules.exclude and rules.exclude.first_match(rel, url_path) is not None:
        reason = REASON_EXCLUDED
    elif is_not_found_page(rel):
        reason = REASON_404
    elif rules.robots is not None and not rules.robots.allows(url):
        reason = REASON_ROBOTS
    return Placement(reason, url, url_path)


def evaluate(
    rel: str, record: PageRecord, hints: PageHints | None, rules: Rules,
    *, mtime: float | None = None, placed: Placement | None = None,
) -> Decision:
    """Decide whether the page at ``rel`` is listed, and compute its entry.

    ``mtime``: the file's modification time, used as lastmod only with
    ``lastmod_file_time`` and when nothing better is known. ``placed``: what :func:`place`
    gave for the same page, hints and rules, when the caller has it.
    """
    if placed is None:
        placed = place(rel, hints, rules)
    if placed.reason is not None:
        return Decision(Exclusion(rel, placed.reason))
    config = rules.config
    diagnostics = [Diagnostic(rel, code, message, Level.INFO if code in NOTES else Level.WARNING)
                   for code, message in record.problems]
    if record.unreadable:
        return Decision(Exclusion(rel, REASON_UNREADABLE), tuple(diagnostics))
    if record.template:  # the reason says it all
        return Decision(Exclusion(rel, REASON_TEMPLATE))
    url = placed.url
    resolve_from = url
    if record.base_href:
        resolve_from = resolve_href(record.base_href, url) or url

    def left_out(why: str) -> Decision:
        return Decision(Exclusion(rel, why), tuple(diagnostics))

    said = page_says_leave_out(record, url, resolve_from)
    if said is not None:
        return left_out(said)
    loc = url
    if record.canonical is not None:
        canonical = resolve_href(record.canonical, resolve_from)
        if (canonical is not None and rules.canonical_base is not None
                and canonical.startswith(rules.canonical_base)):
            canonical = rules.base + canonical[len(rules.canonical_base):]
        if canonical is not None:  # a canonical naming the file: the page as listed
            canonical = _as_listed(canonical, config)
        if canonical is None:
            diagnostics.append(Diagnostic(
                rel, "bad-canonical",
                f"canonical link {record.canonical!r} is not an http(s) URL; ignored",
                Level.INFO))
        elif same_page(canonical, url):
            # The site's own spelling of its URL, when the protocol lets the sitemap list it
            # (``/docs`` for the base ``/docs/`` lies outside the sitemap's folder).
            loc = canonical if is_within(canonical, config.base_url) else url
        elif not is_within(canonical, config.base_url):
            diagnostics.append(Diagnostic(
                rel, "canonical-off-site",
                f"canonical link points off the site ({canonical}); page left out"))
            return left_out(REASON_OFF_SITE)
        else:
            return left_out(REASON_CANONICAL)
    if len(loc) > MAX_URL_LENGTH:
        diagnostics.append(Diagnostic(
            rel, "url-too-long", f"URL has {len(loc):,} characters; at most 2,048 are allowed"))
        return left_out(REASON_TOO_LONG)
    commits = rules.source_commits
    source_file = (linked_source(record.source_link, commits)
                   if commits and record.source_link else None)
    dates = _dates(rel, record, hints, diagnostics, mtime if config.lastmod_file_time else None,
                   rules.replaced_dates.get(comparison_key(loc)),
                   commits[source_file] if source_file else None)
    chosen = choose_lastmod(dates)
    lastmod, source = (chosen.value, chosen.source) if chosen is not None else (None, "")
    url_path = placed.url_path
    # The page's own value, then the first matching rule, then the host's default.
    changefreq_rule = rules.changefreq.first_match(rel, url_path) if rules.changefreq else None
    priority_rule = rules.priority.first_match(rel, url_path) if rules.priority else None
    changefreq = hints.changefreq if hints is not None else None
    if changefreq is None and changefreq_rule is not None:
        changefreq = config.changefreq[changefreq_rule][1]
    if changefreq is None and hints is not None:
        changefreq = hints.default_changefreq
    priority = hints.priority if hints is not None else None
    if priority is None and priority_rule is not None:
        priority = config.priority[priority_rule][1]
    if priority is None and hints is not None:
        priority = hints.default_priority
    applied = tuple((option, index) for option, index in (
        ("changefreq", changefreq_rule), ("priority", priority_rule)) if index is not None)
    alternates: tuple[Alternate, ...] = ()
    if config.hreflang:
        pairs = hints.alternates if hints is not None and hints.alternates is not None else None
        alternates = _alternates(loc, record, pairs, resolve_from, config, diagnostics, rel)
    news = _news_item(loc, record, hints) if config.news is not None else None
    images = page_images(record, resolve_from) if config.images else ()
    videos, videos_skipped = page_videos(record, resolve_from, loc) if config.videos else (
        (), ())
    entry = Entry(
        loc=loc, lastmod=lastmod, changefreq=changefreq, priority=priority,
        alternates=alternates, images=images, videos=videos, rel_path=rel,
        lastmod_source=source, fingerprint=record.fingerprint, news=news,
    )
    return Decision(entry, tuple(diagnostics), applied, videos_skipped, dates)


def _news_item(loc: str, record: PageRecord, hints: PageHints | None) -> NewsItem | None:
    """The page as a news article: the host's publication date, else the page's own."""
    from sitemap_plugins.entry.news import NewsItem, news_language  # noqa: PLC0415  # news option only

    published = hints.published if hints is not None else None
    if published is None and record.published is not None:
        published = parse_w3c(record.published)
    title = record.heading or record.og_title or record.title
    if published is None or not title:
        return None
    return NewsItem(loc, published, " ".join(title.split()), news_language(record.lang))


def same_page(canonical: str, url: str) -> bool:
    """Whether ``canonical`` names the page at ``url`` (``a/`` is ``a/index.html``).

    A canonical may drop an end the server adds back (``a`` for ``a/`` or ``a.html``).
    """
    if canonical == url:  # the usual self-canonical, spelled as we spell it
        return True
    key, own = comparison_key(canonical), comparison_key(url)
    if key == own:
        return True
    for index in INDEX_NAMES:
        if key.endswith("/" + index) and key[: -len(index)] == own:
            return True
        if own.endswith("/" + index) and own[: -len(index)] == key:
            return True
    return key in _shortened(own)


def _shortened(key: str) -> tuple[str, ...]:
    """``key`` without the ending a static server adds back (see ``same_page``)."""
    path, mark, query = key.partition("?")
    forms = (path[: -len(ending)] + mark + query
             for ending in ("/index.html", "/index.htm", ".html", ".htm", "/")
             if path.endswith(ending) and not path.endswith("//"))
    return tuple(form for form in forms if "://" in form and not form.endswith(":/"))


def page_says_leave_out(record: PageRecord, url: str, resolve_from: str) -> str | None:
    """Why the page's own head asks not to be listed (a redirect stub, noindex), or None.

    ``check`` asks it of each listed page, so that it fails what the build leaves out.
    """
    if record.refresh_url is not None:
        target = resolve_href(record.refresh_url, resolve_from)
        if target is None or not same_page(target, url):  # a page reloading itself stays
            return REASON_REDIRECT
    if record.robots & {"noindex", "none"}:
        return REASON_NOINDEX
    return None


def is_not_found_page(rel: str) -> bool:
    """``404.html`` at any depth, or ``404/index.html`` (Gatsby, Next.js, VitePress)."""
    folder, _, name = rel.lower().rpartition("/")
    if name in _NOT_FOUND_NAMES:
        return True
    return name in INDEX_NAMES and folder.rpartition("/")[2] == "404"


def _dates(
    rel: str, record: PageRecord, hints: PageHints | None, diagnostics: list[Diagnostic],
    mtime: float | None, replaced: str | None = None,
    commit: tuple[Lastmod, bool] | None = None,
) -> tuple[DateClaim, ...]:
    """The page's candidate lastmods.

    The host's, the page's, its source's last ``commit`` (date, only added), a replaced
    sitemap's (``replaced``); a date after the clock's now is none of them.
    """
    # A date after the clock's now (a scheduled post, a typo in the year) is no last change:
    # engines distrust it, and check refuses it. The next source is asked instead.
    latest = datetime.now(timezone.utc) + FUTURE_SLACK
    claims: list[DateClaim] = []

    def claim(kind: str, value: Lastmod, source: str, what: str) -> None:
        if sort_key(value) > latest:
            diagnostics.append(Diagnostic(
                rel, "future-date", f"{what} {format_w3c(value)} lies in the future; ignored"))
        else:
            claims.append(DateClaim(kind, value, source))

    def bad_host_date(raw: object) -> None:
        diagnostics.append(Diagnostic(
            rel, "bad-date", f"the host's date {raw!r} is not a date a sitemap can hold (its "
            "time zone lies outside -14:00 to +14:00); ignored"))

    if hints is not None:
        for given in hints.dates:
            value = coerce_lastmod(given.value)
            if value is None:
                bad_host_date(given.value)
            else:
                claim(given.kind, value, given.source, "the host's date")
        if hints.lastmod is not None:
            value = coerce_lastmod(hints.lastmod)
            if value is None:
                bad_host_date(hints.lastmod)
            else:
                source = hints.lastmod_source
                kind = {EXPLICIT: EXPLICIT, FILE_TIME: FILE_TIME}.get(source, PUBLISHED)
                claim(kind, value, source, "the host's date")
    for raw, label, kind, source in ((record.modified, "modified", MODIFIED, "page"),
                                     (record.published, "published", PUBLISHED,
                                      "page: published")):
        if raw is None:
            continue
        parsed = parse_w3c(raw)
        if parsed is not None:
            claim(kind, parsed, source, f"the page's {label} date")
        else:
            diagnostics.append(Diagnostic(
                rel, "bad-date", f"the page's {label} date {raw!r} is not a W3C date; ignored"))
    if commit is not None:
        claim(GIT_ADDED if commit[1] else GIT, commit[0], "git", "the source's last commit")
    dated = parse_w3c(replaced) if replaced else None
    if dated is not None:  # another generator's hint: silently none when it is not a date
        claim(REPLACED, dated, REPLACED_SITEMAP_SOURCE, "the replaced sitemap's date")
    if mtime is not None and not claims:
        stamp = file_time(mtime)
        if stamp is not None:
            claim(FILE_TIME, stamp, FILE_TIME, "file modification time")
        else:
            diagnostics.append(Diagnostic(
                rel, "bad-file-time", f"file modification time {mtime:.0f} lies outside the "
                "years 1 to 9999; no lastmod from it"))
    return tuple(claims)


def _as_listed(url: str, config: SitemapConfig) -> str:
    """An on-site URL as the sitemap lists its page (without ``.html`` under extensionless_urls)."""
    if not config.extensionless_urls or not is_within(url, config.base_url):
        return url
    end = min((i for i in (url.find("?"), url.find("#")) if i >= 0), default=len(url))
    path, rest = url[:end], url[end:]
    head, _, name = path.rpartition("/")
    if name == "index.html":
        return f"{head}/{rest}"
    if name.endswith(".html") and name != ".html":
        return path.removesuffix(".html") + rest
    return url


def _alternates(
    loc: str,
    record: PageRecord,
    pairs: tuple[tuple[str, str], ...] | None,
    resolve_from: str,
    config: SitemapConfig,
    diagnostics: list[Diagnostic],
    rel: str,
) -> tuple[Alternate, ...]:
    raw = pairs if pairs is not None else record.alternates
    if not raw:
        return ()
    if pairs is not None:  # the host's URLs are relative to the base URL, not to the page
        resolve_from = str(config.base_url)
    found: dict[str, str] = {}
    for hreflang, href in raw:
        code = hreflang.strip()
        if not is_language_tag(code):  # x-default is one too
            diagnostics.append(Diagnostic(
                rel, "bad-hreflang", f"hreflang {hreflang!r} is not a language code; ignored",
                Level.INFO))
            continue
        url = resolve_href(href or "./", resolve_from)
        if url is None:
            diagnostics.append(Diagnostic(
                rel, "bad-alternate",
                f"alternate {code} {href!r} is not an http(s) URL; not listed", Level.INFO))
            continue
        # Another site's page is a translation too (Google: alternates "may be on other
        # domains", as example.de for example.com); a development server's never is.
        if not is_within(url, config.base_url) and not is_public(url):
            diagnostics.append(Diagnostic(
                rel, "alternate-local",
                f"alternate {code} {href!r} names a local address, not a public site (a "
                "development server's URL in the page?); not listed"))
            continue
        if len(url) > MAX_URL_LENGTH:
            diagnostics.append(Diagnostic(
                rel, "alternate-too-long", f"alternate {code} has {len(url):,} characters; at "
                "most 2,048 are allowed, so it is not listed"))
            continue
        found.setdefault(code.lower() if code.lower() == "x-default" else code,
                         _as_listed(url, config))
    own_key = comparison_key(loc)
    keys = [comparison_key(url) for url in found.values()]
    if own_key not in keys:
        lang = (record.lang or "").strip()
        if lang and is_language_tag(lang) and lang not in found:
            found[lang] = loc
            keys.append(own_key)
    if own_key not in keys or keys.count(own_key) == len(keys):
        # A language group needs the page itself and at least one other version.
        return ()
    return tuple(sorted(Alternate(code, url) for code, url in found.items()))
