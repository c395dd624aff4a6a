"""Sitemap entries and the rules that decide whether, and how, a built page is listed.

``evaluate_page`` is the single decision point: it takes a built file, what the host knows
about it (``PageHints``) and the config, reads the page head when it needs to, and returns
either an :class:`Entry` or an :class:`Exclusion` with the reason.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from sitemap_plugins.dates import Lastmod, coerce_lastmod, file_time, format_w3c, parse_w3c
from sitemap_plugins.errors import Diagnostic, Level
from sitemap_plugins.fingerprint import fingerprint_file
from sitemap_plugins.head import PageMeta
from sitemap_plugins.manifest import KeptFile, KeptListing, KeptPage, KeptResult
from sitemap_plugins.page_facts import (
    PageBytes,
    PageFacts,
    facts_of,
    file_signature,
    read_page_file,
)
from sitemap_plugins.urls import (
    MAX_URL_LENGTH,
    comparison_key,
    is_within,
    page_url,
    resolve_href,
)

if TYPE_CHECKING:
    from sitemap_plugins.config import SitemapConfig
    from sitemap_plugins.globs import GlobSet
    from sitemap_plugins.robots_rules import RobotsRules
    from sitemap_plugins.scan import BuiltFile

REASON_HOST = "left out by the host"
REASON_EXCLUDED = "excluded by config"
REASON_NOT_INCLUDED = "not included by config"
REASON_404 = "404 page"
REASON_REDIRECT = "redirect stub"
REASON_NOINDEX = "noindex"
REASON_CANONICAL = "canonical elsewhere"
REASON_OFF_SITE = "canonical off the site"
REASON_ROBOTS = "disallowed by robots.txt"
REASON_TOO_LONG = "URL longer than 2,048 characters"
REASON_UNREADABLE = "unreadable"

_HTML_EXTENSIONS = (".html", ".htm", ".xhtml")
_NOT_FOUND_NAMES = ("404.html", "404.htm")
# xhtml1-strict.xsd types hreflang as xs:language; "x-default" fits the same pattern.
_LANGUAGE_CODE = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*\Z")


@dataclass(frozen=True, order=True)
class Alternate:
    """One ``xhtml:link rel="alternate"``: a language version of the page."""

    hreflang: str
    href: str


@dataclass(frozen=True)
class Entry:
    """One ``<url>`` of a sitemap."""

    loc: str
    lastmod: Lastmod | None = None
    changefreq: str | None = None
    priority: float | None = None
    alternates: tuple[Alternate, ...] = ()
    rel_path: str = field(default="", compare=False)
    """The file behind the URL, relative to the site root (not written to the sitemap)."""
    lastmod_source: str = field(default="", compare=False)
    """Where the lastmod came from: host, page, file time, manifest (for reports)."""
    fingerprint: str = field(default="", compare=False)
    """What the reader sees, hashed (see :mod:`sitemap_plugins.fingerprint`); empty when off."""

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


class Listing(NamedTuple):
    """A page listed as the last build listed it: same bytes, hints, options and code."""

    rel_path: str
    kept: KeptListing


@dataclass(frozen=True)
class PageHints:
    """What a host (MkDocs, Pelican) knows about one built page; it wins over the page head."""

    lastmod: Lastmod | None = None
    changefreq: str | None = None
    priority: float | None = None
    exclude: str | None = None
    """When set, the page is left out; the text is the reason shown to the user."""
    alternates: tuple[tuple[str, str], ...] | None = None
    """``(hreflang, absolute URL)`` pairs replacing the head's alternates; None keeps them."""
    lastmod_source: str = "host"
    url: str | None = None
    """The page's URL as the host links to it, when that is not its file's path (Pelican's
    ``ARTICLE_URL = "{slug}"`` with ``ARTICLE_SAVE_AS = "{slug}.html"``, served by a rewrite
    rule). Absolute and normalised; used only when it is on the site."""


def hints_key(hints: PageHints | None) -> str:
    """Names the hints a page was evaluated with: other hints, another evaluation."""
    if hints is None:
        return ""
    return hashlib.blake2b(repr(hints).encode("utf-8", "surrogatepass"),
                           digest_size=16).hexdigest()


@dataclass
class Outcome:
    """The result of evaluating one page, with what the user should hear about it."""

    result: Entry | Exclusion | Listing
    diagnostics: list[Diagnostic] = field(default_factory=list)
    read_ahead: bool = False
    """The page's facts came from the read-ahead (its bytes had not changed)."""
    kept: bool = False
    """The page's facts, or its result, came from the last build's manifest (same bytes)."""
    unread: bool = False
    """The page's result came from the last build and its file was not even read."""
    kept_file: KeptFile | None = None
    """What the manifest keeps of the page file for the next build (with fingerprints)."""
    kept_row: int = 0
    """The file's row in the last build's manifest (:attr:`KeptPage.row`), 0 when none."""
    resigned: bool = False
    """The page's result came from the last build and its bytes were read, the same: of its
    row, only the file's signature is new."""


@dataclass(frozen=True)
class Rules:
    """Everything ``evaluate_page`` needs besides the page itself, prepared once per run."""

    config: SitemapConfig
    include: GlobSet
    exclude: GlobSet
    changefreq: GlobSet
    priority: GlobSet
    robots: RobotsRules | None
    settled_before_ns: int = 0
    """Files last changed before this time get a signature (:func:`file_signature`)."""


def _url_path(loc: str, base: str) -> str:
    return loc[len(base) :]


def evaluate_page(
    built: BuiltFile, rules: Rules, hints: PageHints | None = None,
    known: PageFacts | None = None, kept: KeptPage | None = None,
) -> Outcome:
    """Decide whether ``built`` is listed and compute its entry.

    ``known``: the page's facts read ahead during this build; ``kept``: what the last build
    kept of it. Either is used only when the page's bytes are the ones it was taken from;
    the last build's result only with the same hints (and options and code: see
    :class:`~sitemap_plugins.manifest.KeptPages`), and without reading the file when its
    signature is the same.
    """
    config = rules.config
    rel = built.rel_path
    # The last build's result was made under the same options (KeptPages checks that), so
    # with the same hints the checks below went the same way then.
    hints_text = hints_key(hints) if config.fingerprint else ""
    result = kept.result if kept is not None and kept.file.hints == hints_text else None
    name = rel.rpartition("/")[2].lower()
    page: PageBytes | None = None
    if result is not None and kept is not None:
        # The checks below went the same way for the last build: reuse before doing them.
        reused, page = _reuse_kept(built, rules, kept, result, html=name.endswith(_HTML_EXTENSIONS))
        if reused is not None:
            return reused
    reason, own_url, url_path = _placed(rel, name, rules, hints)
    if reason is not None:
        return Outcome(Exclusion(rel, reason))

    outcome = Outcome(Exclusion(rel, REASON_UNREADABLE), kept_row=kept.row if kept else 0)
    meta = PageMeta()
    fingerprint = ""
    if name.endswith(_HTML_EXTENSIONS):
        try:
            if page is None:
                page = read_page_file(built.abs_path, whole=config.fingerprint or known is not None)
        except OSError as err:
            outcome.diagnostics.append(
                Diagnostic(rel, "unreadable", f"cannot be read: {err.strerror or err}")
            )
            return outcome
        same_bytes = kept is not None and page.digest == kept.file.digest
        signature = (file_signature(page.status, rules.settled_before_ns)
                     if config.fingerprint else "")
        kept_facts = kept.facts() if kept is not None and same_bytes else None
        facts = facts_of(page, built.abs_path, fingerprint=config.fingerprint,
                         known=tuple(c for c in (known, kept_facts) if c is not None))
        meta, fingerprint = facts.meta, facts.fingerprint
        outcome.read_ahead = facts is known
        outcome.kept = facts is kept_facts
        if facts.encoded and facts.digest:
            outcome.kept_file = KeptFile(facts.digest, facts.encoded, signature, hints_text)
        for code, message in meta.problems:
            outcome.diagnostics.append(Diagnostic(rel, code, message))
        if any(code == "binary" for code, _ in meta.problems):
            return outcome
    elif config.fingerprint:
        try:
            # Taken before the read, so that a change during it shows next time.
            status = os.stat(built.abs_path)
            fingerprint = fingerprint_file(built.abs_path)
        except OSError as err:
            outcome.diagnostics.append(
                Diagnostic(rel, "unreadable", f"cannot be read: {err.strerror or err}")
            )
            return outcome
        # No facts to keep, but a PDF read whole on every build is worth not reading again.
        outcome.kept_file = KeptFile(
            b"", "", file_signature(status, rules.settled_before_ns), hints_text)
    resolve_from = own_url
    if meta.base_href:
        resolve_from = resolve_href(meta.base_href, own_url) or own_url

    if meta.refresh_url is not None:
        target = resolve_href(meta.refresh_url, resolve_from)
        if target is None or comparison_key(target) != comparison_key(own_url):
            outcome.result = Exclusion(rel, REASON_REDIRECT)
            return outcome
    if meta.robots & {"noindex", "none"}:
        outcome.result = Exclusion(rel, REASON_NOINDEX)
        return outcome

    loc = own_url
    if meta.canonical is not None:
        canonical = resolve_href(meta.canonical, resolve_from)
        if canonical is None:
            outcome.diagnostics.append(Diagnostic(
                rel, "bad-canonical",
                f"canonical link {meta.canonical!r} is not an http(s) URL; ignored", Level.INFO))
        elif not is_within(canonical, config.base_url):
            outcome.diagnostics.append(Diagnostic(
                rel, "canonical-off-site",
                f"canonical link points off the site ({canonical}); page left out"))
            outcome.result = Exclusion(rel, REASON_OFF_SITE)
            return outcome
        elif _same_page(canonical, own_url):
            loc = canonical  # the site's own spelling of its URL
        else:
            outcome.result = Exclusion(rel, REASON_CANONICAL)
            return outcome
    if len(loc) > MAX_URL_LENGTH:
        outcome.diagnostics.append(Diagnostic(
            rel, "url-too-long",
            f"URL has {len(loc):,} characters; at most 2,048 are allowed"))
        outcome.result = Exclusion(rel, REASON_TOO_LONG)
        return outcome

    lastmod, source = _lastmod(
        built, meta, hints, outcome, use_file_time=config.lastmod_file_time)
    changefreq = hints.changefreq if hints is not None else None
    if changefreq is None and rules.changefreq:
        index = rules.changefreq.first_match(rel, url_path)
        changefreq = config.changefreq[index][1] if index is not None else None
    priority = hints.priority if hints is not None else None
    if priority is None and rules.priority:
        index = rules.priority.first_match(rel, url_path)
        priority = config.priority[index][1] if index is not None else None
    alternates: tuple[Alternate, ...] = ()
    if config.hreflang:
        pairs = hints.alternates if hints is not None and hints.alternates is not None else None
        alternates = _alternates(
            loc, meta, pairs, resolve_from, config, outcome, rel
        )
    outcome.result = Entry(
        loc=loc, lastmod=lastmod, changefreq=changefreq, priority=priority,
        alternates=alternates, rel_path=rel, lastmod_source=source, fingerprint=fingerprint,
    )
    return outcome


def _placed(
    rel: str, name: str, rules: Rules, hints: PageHints | None
) -> tuple[str | None, str, str]:
    """The reason a page is left out before it is read (or None), its URL and URL path."""
    config = rules.config
    if hints is not None and hints.exclude:
        return hints.exclude, "", ""
    own_url = page_url(config.base_url, rel, directory_urls=config.directory_urls)
    if hints is not None and hints.url is not None and is_within(hints.url, config.base_url):
        own_url = hints.url
    url_path = _url_path(own_url, str(config.base_url))
    reason: str | None = None
    if rules.include and rules.include.first_match(rel, url_path) is None:
        reason = REASON_NOT_INCLUDED
    elif rules.exclude and rules.exclude.first_match(rel, url_path) is not None:
        reason = REASON_EXCLUDED
    elif name in _NOT_FOUND_NAMES:
        reason = REASON_404
    elif rules.robots is not None and not rules.robots.allows(own_url):
        reason = REASON_ROBOTS
    return reason, own_url, url_path


def left_out_unread(rel: str, rules: Rules, hints: PageHints | None) -> str | None:
    """The reason a page is left out without being read, or None when it must be read.

    :func:`evaluate_page` keeps nothing of such a page for the next build: it decides the
    same way from the path, options and hints alone.
    """
    return _placed(rel, rel.rpartition("/")[2].lower(), rules, hints)[0]


def _reuse_kept(
    built: BuiltFile, rules: Rules, kept: KeptPage, result: KeptResult, *, html: bool
) -> tuple[Outcome | None, PageBytes | None]:
    """The last build's result, if the file is untouched or its bytes are the same.

    Also returns the page's bytes when they were read, so that they are not read twice.
    """
    if kept.file.signature:
        try:
            status = os.stat(built.abs_path)
        except OSError:
            return None, None  # the read that follows says why
        if file_signature(status, rules.settled_before_ns) == kept.file.signature:
            return reused_outcome(built.rel_path, kept, result, unread=True), None
    signature, page = same_bytes_signature(built, rules, kept.file.digest, html=html)
    if signature is None:
        return None, page
    return reused_outcome(built.rel_path, kept, result, signature=signature), page


def is_html_page(rel: str) -> bool:
    """Whether the file at ``rel`` is read as an HTML page (by its extension)."""
    return rel.rpartition("/")[2].lower().endswith(_HTML_EXTENSIONS)


def same_bytes_signature(
    built: BuiltFile, rules: Rules, digest: bytes, *, html: bool
) -> tuple[str | None, PageBytes | None]:
    """The file's signature when its bytes are still the ones of ``digest``, else None.

    Also returns the page's bytes when they were read. Only a page's bytes say everything
    the last build took from it: a file time may have moved (``lastmod_file_time``).
    """
    if not html or rules.config.lastmod_file_time or not digest:
        return None, None
    try:
        page = read_page_file(built.abs_path, whole=True)
    except OSError:
        return None, None
    if page.digest != digest:
        return None, page
    return file_signature(page.status, rules.settled_before_ns), page


def reused_outcome(
    rel: str, kept: KeptPage, result: KeptResult, *, unread: bool = False, signature: str = ""
) -> Outcome:
    """The last build's ``result`` for the page at ``rel``.

    ``unread`` when the file was not read (its signature was the same); else ``signature``
    is the file's new one.
    """
    found = Exclusion(rel, result) if isinstance(result, str) else Listing(rel, result)
    if unread:
        return Outcome(found, kept=True, unread=True, kept_file=kept.file, kept_row=kept.row)
    return Outcome(found, kept=True, kept_file=kept.file._replace(signature=signature),
                   kept_row=kept.row, resigned=True)


def _same_page(canonical: str, own_url: str) -> bool:
    if canonical == own_url:  # the usual self-canonical, spelled as we spell it
        return True
    key, own = comparison_key(canonical), comparison_key(own_url)
    if key == own:
        return True
    # "a/" and "a/index.html" are one file on a static server.
    for index in ("index.html", "index.htm"):
        if key.endswith("/" + index) and key[: -len(index)] == own:
            return True
        if own.endswith("/" + index) and own[: -len(index)] == key:
            return True
    return False


def _lastmod(
    built: BuiltFile,
    meta: PageMeta,
    hints: PageHints | None,
    outcome: Outcome,
    *,
    use_file_time: bool,
) -> tuple[Lastmod | None, str]:
    if hints is not None and hints.lastmod is not None:
        value = coerce_lastmod(hints.lastmod)
        if value is not None:
            return value, hints.lastmod_source
    for raw, label in ((meta.modified, "modified"), (meta.published, "published")):
        if raw is None:
            continue
        parsed = parse_w3c(raw)
        if parsed is not None:
            return parsed, "page"
        outcome.diagnostics.append(Diagnostic(
            built.rel_path, "bad-date",
            f"{label} date meta tag {raw!r} is not a W3C date; ignored"))
    if use_file_time:
        try:
            return file_time(os.stat(built.abs_path).st_mtime), "file time"
        except OSError:
            pass
    return None, ""


def _alternates(
    loc: str,
    meta: PageMeta,
    pairs: tuple[tuple[str, str], ...] | None,
    resolve_from: str,
    config: SitemapConfig,
    outcome: Outcome,
    rel: str,
) -> tuple[Alternate, ...]:
    raw = pairs if pairs is not None else tuple(meta.alternates)
    if not raw:
        return ()
    found: dict[str, str] = {}
    for hreflang, href in raw:
        code = hreflang.strip()
        if not _LANGUAGE_CODE.match(code):
            outcome.diagnostics.append(Diagnostic(
                rel, "bad-hreflang", f"hreflang {hreflang!r} is not a language code; ignored",
                Level.INFO))
            continue
        url = resolve_href(href, resolve_from)
        if url is None or not is_within(url, config.base_url):
            outcome.diagnostics.append(Diagnostic(
                rel, "alternate-off-site",
                f"alternate {code} {href!r} is not on the site; not listed", Level.INFO))
            continue
        found.setdefault(code.lower() if code.lower() == "x-default" else code, url)
    own_key = comparison_key(loc)
    if not any(comparison_key(url) == own_key for url in found.values()):
        lang = (meta.lang or "").strip()
        if lang and _LANGUAGE_CODE.match(lang) and lang not in found:
            found[lang] = loc
    others = [code for code, url in found.items() if comparison_key(url) != own_key]
    if not others or not any(comparison_key(url) == own_key for url in found.values()):
        # A language group needs the page itself and at least one other version.
        return ()
    return tuple(sorted(Alternate(code, url) for code, url in found.items()))
