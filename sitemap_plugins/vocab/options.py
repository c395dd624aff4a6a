"""The one vocabulary of options: each declared once in :data:`OPTIONS` with its check.

The CLI flags, host config classes and docs table are made from it, so a bad value gets the
same message everywhere; :meth:`SitemapConfig.from_mapping` is the one place values are checked.
Page values (front matter, Pelican metadata) are :data:`PAGE_VALUES`. Ground floor: touches no
file; also holds the facts products share (own file names, the fragment, the key syntax).
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, NamedTuple

from sitemap_plugins.vocab.dates import Lastmod, coerce_lastmod
from sitemap_plugins.vocab.errors import ConfigError, PageValueError, received, unknown_key
from sitemap_plugins.vocab.globs import compile_glob
from sitemap_plugins.vocab.urls import BaseUrl, is_within, parse_base_url, resolve_href
from sitemap_plugins.vocab.values import xml_text

# sitemaps.org protocol, "XML tag definitions": the seven words <changefreq> allows.
CHANGEFREQ_WORDS = ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")
ROBOTS_TXT_MODES = ("merge", "create", "fragment", "off")
# sitemaps.org protocol: at most 50,000 URLs and 50 MiB (52,428,800 bytes) uncompressed.
PROTOCOL_MAX_URLS = 50_000
PROTOCOL_MAX_BYTES = 52_428_800
# A part must hold at least one entry of the longest allowed URL with its alternates.
MIN_MAX_BYTES = 16_384
_NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")

# --- Facts the products share with the options (the products import them from here) -------

FRAGMENT_NAME = "robots-sitemap.txt"
"""The robots.txt fragment written beside the sitemap when the site's own robots.txt is not
the host's (or ``robots_txt: fragment``)."""
LLMS_NAME = "llms.txt"
LLMS_MARK = "<!-- sitemap-plugins: llms.txt -->"
"""Ends the ``llms.txt`` this tool writes: what proves the file there is ours."""
_TAKEN_NAMES = frozenset({"robots", FRAGMENT_NAME.removesuffix(".txt")})
# indexnow.org, "Documentation": a key has 8 to 128 characters of a-z, A-Z, 0-9 and "-".
KEY_PATTERN = re.compile(r"[A-Za-z0-9-]{8,128}\Z")
NEWS_LANGUAGE = re.compile(r"zh-cn|zh-tw|[a-z]{2,3}")
"""sitemap-news.xsd's languages: an ISO 639 code of two or three letters, or zh-cn, zh-tw
(use ``fullmatch``)."""


@dataclass(frozen=True)
class NewsPublication:
    """``news: {name: ..., language: ...}``: the publication a news sitemap names."""

    name: str
    language: str


def own_file_pattern(sitemap_name: str) -> re.Pattern[str]:
    """Names of the files this tool writes at the site root (never listed as pages)."""
    name = re.escape(sitemap_name)
    return re.compile(
        rf"(?:{name}(?:-\d+)?\.(?:xml|txt)|{name}-txt-index\.xml|{name}-news\.xml)(?:\.gz)?\Z"
        rf"|{re.escape(FRAGMENT_NAME)}\Z")


TEMP_PREFIX = ".sitemap-plugins-tmp-"
"""Starts the name of each temporary file this tool writes: hidden, so that the walk never
lists one, and recognised, so that the next run removes one that a killed run left behind."""
_TOKEN_LENGTH = 12


def temp_name(target: str) -> str:
    """A fresh temporary name for a file that is to become ``target`` (in the same folder)."""
    return f"{TEMP_PREFIX}{secrets.token_hex(_TOKEN_LENGTH // 2)}-{target}"


def temp_target(name: str) -> str | None:
    """The name that the temporary file ``name`` was to become; None for any other file."""
    return name[len(TEMP_PREFIX) + _TOKEN_LENGTH + 1:] if name.startswith(TEMP_PREFIX) else None


def sitemap_file_pattern(name: str) -> re.Pattern[str]:
    """Every file name the sitemap writers may produce for base name ``name``."""
    escaped = re.escape(name)
    return re.compile(rf"{escaped}(?:-\d+\.(?:xml|txt)|\.xml|\.txt|-txt-index\.xml)(?:\.gz)?\Z")


def text_index_name(name: str) -> str:
    """The index over text parts (the protocol has no text index format, so it is XML)."""
    return f"{name}-txt-index.xml"


def html_sitemap_file(option: str) -> str:
    """The file the option names, relative to the site root: ``sitemap/`` is ``sitemap/index.html``.

    Raises:
        ConfigError: when the path leaves the site, is absolute or is not an HTML file.
    """
    text = option.strip().replace("\\", "/")
    path = text + "index.html" if text.endswith("/") else text
    parts = PurePosixPath(path).parts
    if (not parts or text.startswith("/") or ".." in parts or "." in parts or "\0" in text
            or not path.lower().endswith((".html", ".htm"))):
        raise ConfigError(
            "html_sitemap", f"Expected a path inside the site such as 'sitemap/' or "
            f"'site-map.html' but received: {option!r} (str)")
    return "/".join(parts)


def check_key(option: str, value: object) -> str | None:
    """Validate an IndexNow key (None: no key); the option check of ``indexnow_key``."""
    if value is None:
        return None
    if not isinstance(value, str) or not KEY_PATTERN.match(value):
        raise ConfigError(option, "Expected a key of 8 to 128 characters of a-z, A-Z, 0-9 and "
                                  f"'-' but received: {received(value)}")
    return value


Check = Callable[[str, Any], Any]


@dataclass(frozen=True)
class Option:
    """One option, as every front-end knows it."""

    name: str
    default: Any
    doc: str
    check: Check
    """``check(name, value)``: the value the core uses, or :class:`ConfigError`."""
    kind: str
    """How a command line takes it: ``bool``, ``int``, ``text``, ``list`` (repeated flag),
    ``rules`` (repeated ``GLOB=VALUE``), ``choice``."""
    choices: tuple[str, ...] = ()
    cli: bool = True
    """False for options that only a host adapter can act on."""
    flag: str = ""
    """The command-line flag, when not ``--`` and the name with dashes."""
    command: str = ""
    """The one command that takes it (``merge``, ``check``); empty: builds and hosts take it."""

    @property
    def cli_flag(self) -> str:
        """The flag on the command line (``base_url`` is ``--base-url``)."""
        return self.flag or "--" + self.name.replace("_", "-")


_REQUIRED = object()
def _check_base_url(option: str, value: object) -> BaseUrl:
    if isinstance(value, BaseUrl):
        return value
    if not isinstance(value, str):
        raise ConfigError(option, f"Expected a URL string but received: {received(value)}")
    try:
        return parse_base_url(value)
    except ValueError as err:
        raise ConfigError(option, str(err)) from err


def _check_bool(option: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(option, f"Expected a boolean but received: {received(value)}")
    return value


def _list(option: str, value: object, what: str, *, filled: bool = False) -> list[Any]:
    if (isinstance(value, (str, Mapping)) or not isinstance(value, (list, tuple))
            or (filled and not value)):
        raise ConfigError(option, f"Expected a {'non-empty ' if filled else ''}list of {what} "
                                  f"but received: {received(value)}")
    return list(value)


def _check_globs(option: str, value: object) -> tuple[str, ...]:
    items = _list(option, value, "glob patterns")
    for index, item in enumerate(items):
        if not isinstance(item, str):
            raise ConfigError(
                option, f"Item {index}: expected a glob pattern but received: {received(item)}")
        try:
            compile_glob(item)
        except ValueError as err:
            raise ConfigError(option, f"Item {index}: {err}") from err
    return tuple(items)


def _check_extensions(option: str, value: object) -> tuple[str, ...]:
    items = _list(option, value, "file extensions such as ['.html', '.pdf']", filled=True)
    for index, item in enumerate(items):
        if not isinstance(item, str) or not re.fullmatch(r"\.[A-Za-z0-9_.-]+", item):
            raise ConfigError(option, f"Item {index}: expected an extension starting with '.' "
                                      f"but received: {received(item)}")
    return tuple(dict.fromkeys(item.lower() for item in items))


def _check_rules(option: str, value: object) -> tuple[tuple[str, Any], ...]:
    if isinstance(value, (list, tuple)) and all(
        isinstance(v, (list, tuple)) and len(v) == 2 for v in value  # noqa: PLR2004
    ):
        items = [tuple(v) for v in value]
    elif isinstance(value, Mapping):
        items = list(value.items())
    else:
        raise ConfigError(
            option, f"Expected a mapping of glob pattern to value but received: {received(value)}"
        )
    rules: list[tuple[str, Any]] = []
    for pattern, rule_value in items:
        if not isinstance(pattern, str):
            raise ConfigError(
                option, f"Expected a glob pattern as key but received: {received(pattern)}"
            )
        try:
            compile_glob(pattern)
        except ValueError as err:
            raise ConfigError(option, f"Key {pattern!r}: {err}") from err
        check = check_changefreq if option == "changefreq" else check_priority
        rules.append((pattern, check(option, rule_value, where=f"Key {pattern!r}: ")))
    return tuple(rules)


def check_priority(option: str, value: object, *, where: str = "") -> float:
    """Validate one priority value (sitemaps.org: 0.0 to 1.0)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ConfigError(option, f"{where}{'e' if where else 'E'}xpected a number from 0.0 to "
                                  f"1.0 but received: {received(value)}")
    return float(value)


def check_changefreq(option: str, value: object, *, where: str = "",
                     words: tuple[str, ...] = CHANGEFREQ_WORDS) -> str:
    """Validate one changefreq word (or one of ``words``)."""
    if value not in words:
        raise ConfigError(option, f"{where}{'e' if where else 'E'}xpected one of: "
                                  f"{', '.join(map(repr, words))} but received: {received(value)}")
    return str(value)


def _check_robots_txt(option: str, value: object) -> str:
    return check_changefreq(option, value, words=ROBOTS_TXT_MODES)


def _check_name(option: str, value: object) -> str:
    if not isinstance(value, str) or not _NAME_PATTERN.match(value):
        raise ConfigError(option, "Expected a plain file name without extension such as "
                                  f"'sitemap' but received: {received(value)}")
    # name.txt would overwrite robots.txt or the fragment (without case: macOS, Windows).
    if value.lower() in _TAKEN_NAMES:
        raise ConfigError(option, f"Expected a name whose files are not robots.txt or "
                                  f"{FRAGMENT_NAME} but received: {received(value)}")
    return value


def _int_range(low: int, high: int) -> Callable[[str, object], int]:
    def check(option: str, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(option, f"Expected a whole number from {low:,} to {high:,} but "
                                      f"received: {received(value)}")
        return value

    return check


def _check_html_sitemap(option: str, value: object) -> str | None:
    if value is None or value is False:
        return None
    if not isinstance(value, str):
        raise ConfigError(option, f"Expected a path inside the site such as 'sitemap/' or "
                                  f"'site-map.html' but received: {received(value)}")
    return html_sitemap_file(value)


def _check_versions(option: str, value: object) -> tuple[str, ...]:
    items = _list(option, value, "versions or aliases such as ['latest']", filled=True)
    for index, item in enumerate(items):
        if not isinstance(item, str) or not item.strip() or "/" in item:
            raise ConfigError(option, f"Item {index}: expected a version, an alias or a glob "
                                      f"such as '2.*' but received: {received(item)}")
    return tuple(dict.fromkeys(items))


def _check_news(option: str, value: object) -> NewsPublication | None:
    if value is None or isinstance(value, NewsPublication):
        return value
    if not isinstance(value, Mapping):
        msg = ('Expected a mapping such as {name: "Example News", language: "en"} but '
               f"received: {received(value)}")
        raise ConfigError(option, msg)
    unknown = sorted(str(key) for key in value if key not in ("name", "language"))
    if unknown:
        raise ConfigError(option, f"Unrecognised key {unknown[0]!r}; expected name and language.")
    name, language = value.get("name"), value.get("language")
    if isinstance(name, str):  # as it will be written: no character XML forbids
        name = " ".join(xml_text(name).split())
    if not isinstance(name, str) or not name:
        raise ConfigError(option, "Expected name: the publication's name, as it appears on "
                                  f"its pages, but received: {received(value.get('name'))}")
    if not isinstance(language, str) or not NEWS_LANGUAGE.fullmatch(language.strip().lower()):
        msg = ("Expected language: an ISO 639 code of two or three letters (or zh-cn, zh-tw), "
               f"but received: {received(language)}")
        raise ConfigError(option, msg)
    return NewsPublication(name, language.strip().lower())


class ExtraUrl(NamedTuple):
    """One of ``extra_urls``: a URL the build did not make, with its optional lastmod."""

    loc: str
    lastmod: Lastmod | None = None


@dataclass(frozen=True)
class EntryHook:
    """``entry_hook``: ``module:function``, imported from ``folder`` (the config's) or sys.path."""

    module: str
    function: str
    folder: str = ""

    def __str__(self) -> str:
        return f"{self.module}:{self.function}"


_HOOK_PATTERN = re.compile(r"([^\W\d]\w*(?:\.[^\W\d]\w*)*):([^\W\d]\w*)\Z")
_URL_EXAMPLE = "an absolute http(s) URL such as 'https://example.org/api/'"


def _absolute_url(option: str, index: int, text: object, what: str = _URL_EXAMPLE) -> str:
    url = resolve_href(text, text) if isinstance(text, str) and "://" in text else None
    if url is None:
        raise ConfigError(option, f"Item {index}: expected {what} but received: {received(text)}")
    return url


def _check_extra_urls(option: str, value: object) -> tuple[ExtraUrl, ...]:
    urls: list[ExtraUrl] = []
    for index, item in enumerate(_list(option, value, "URLs")):
        if isinstance(item, ExtraUrl):
            urls.append(item)
            continue
        words: list[Any] = item.split() if isinstance(item, str) else []
        if isinstance(item, Mapping) and set(item) <= {"url", "lastmod"}:
            words = [item.get("url"), item.get("lastmod")]
        elif len(words) not in (1, 2):
            msg = (f"Item {index}: expected 'URL', 'URL LASTMOD' or {{url: URL, lastmod: "
                   f"LASTMOD}} but received: {received(item)}")
            raise ConfigError(option, msg)
        url = _absolute_url(option, index, words[0], _URL_EXAMPLE + " (then a space and an "
                            "optional lastmod)")
        date = words[1] if len(words) > 1 else None
        lastmod = None if date is None else coerce_lastmod(date)
        if date is not None and lastmod is None:
            raise ConfigError(option, f"Item {index}: expected a lastmod such as 2024-05-06 or "
                                      f"2024-05-06T10:00:00+02:00 but received: {received(date)}")
        urls.append(ExtraUrl(url, lastmod))
    return tuple(urls)


def _check_extra_sitemaps(option: str, value: object) -> tuple[str, ...]:
    return tuple(_absolute_url(option, index, item)
                 for index, item in enumerate(_list(option, value, "sitemap URLs")))


def _check_entry_hook(option: str, value: object) -> EntryHook | None:
    if value is None or isinstance(value, EntryHook):
        return value
    found = _HOOK_PATTERN.match(value.strip()) if isinstance(value, str) else None
    if found is None:
        raise ConfigError(option, "Expected MODULE:FUNCTION such as 'hooks:sitemap_entry' but "
                                  f"received: {received(value)}")
    return EntryHook(found[1], found[2], os.getcwd())


def _check_scope(values: Mapping[str, Any]) -> None:
    """``extra_urls`` under the base URL; ``extra_sitemaps`` on its host, none of ours."""
    base = values["base_url"]
    if base.netloc.endswith(".invalid"):  # a host's placeholder (RFC 2606): the URL comes later
        return
    for index, extra in enumerate(values.get("extra_urls", ())):
        if not is_within(extra.loc, base):
            raise ConfigError("extra_urls", f"Item {index}: expected a URL under the base URL "
                                            f"{base} but received: {extra.loc!r} (str)")
    own = own_file_pattern(values.get("sitemap_name", _default("sitemap_name")))
    for index, url in enumerate(values.get("extra_sitemaps", ())):
        if not url.startswith(base.host_root):
            raise ConfigError("extra_sitemaps", f"Item {index}: expected a sitemap on the base "
                                                f"URL's host {base.host_root} but received: "
                                                f"{url!r} (str)")
        if is_within(url, base) and own.match(url[len(str(base)):]):
            raise ConfigError("extra_sitemaps", f"Item {index}: expected another tool's sitemap, "
                                                f"not one this build writes (an index names no "
                                                f"index), but received: {url!r} (str)")


def _optional_path(kind: str) -> Callable[[str, object], str | None]:
    def check(option: str, value: object) -> str | None:
        if value is None:
            return None
        # A NUL byte is no path anywhere: os calls raised ValueError on it, a traceback.
        if (not isinstance(value, (str, os.PathLike)) or not str(value).strip()
                or "\0" in str(value)):
            raise ConfigError(option, f"Expected a {kind} path but received: {received(value)}")
        return os.fspath(value)

    return check


OPTIONS: tuple[Option, ...] = (
    Option("base_url", _REQUIRED, "Public URL of the site root, e.g. https://example.org/docs/. "
           "Every listed URL lies under it. MkDocs: site_url; Pelican: SITEURL.",
           _check_base_url, "text"),
    Option("directory_urls", True, "List a/index.html as a/. Turn off for sites served "
           "without directory URLs. MkDocs: use_directory_urls.", _check_bool, "bool"),
    Option("extensionless_urls", False, "List a/one.html as a/one, for servers that answer "
           "a URL without .html with that file (Astro build.format 'file', Cloudflare Pages, "
           "Netlify pretty URLs); a/index.html as a/.", _check_bool, "bool"),
    Option("extensions", (".html", ".htm"), "File extensions that are listed. HTML pages are "
           "read; other files (e.g. .pdf) are listed as they are.", _check_extensions, "list",
           flag="--extension"),
    Option("include", (), "Globs; when given, only matching pages are listed.", _check_globs,
           "list"),
    Option("exclude", (), "Globs of pages to leave out.", _check_globs, "list"),
    Option("changefreq", (), "{glob: word} rules; the first matching glob sets <changefreq>. "
           "None by default.", _check_rules, "rules"),
    Option("priority", (), "{glob: number} rules, 0.0 to 1.0; the first matching glob sets "
           "<priority>. None by default.", _check_rules, "rules"),
    Option("lastmod_file_time", False, "Use a page's file modification time as its lastmod "
           "when nothing better is known. Off: builds rewrite every file, so file times "
           'usually say "built today".', _check_bool, "bool"),
    Option("gzip", True, "Also write a deterministic .gz copy of every XML sitemap file.",
           _check_bool, "bool"),
    Option("text", True, "Also write sitemap.txt: one URL a line.", _check_bool, "bool"),
    Option("hreflang", True, "Write xhtml:link alternates from the pages' <link "
           'rel="alternate" hreflang>.', _check_bool, "bool"),
    Option("images", True, "List each page's content images (in <main> or <article>, not "
           "logos and icons in the header or navigation) as image:image entries.",
           _check_bool, "bool"),
    Option("videos", True, "List each page's content videos (<video>, YouTube and Vimeo "
           "embeds) as video:video entries; a video without a thumbnail or title is left "
           "out and counted.", _check_bool, "bool"),
    Option("news", None, "Also write a Google News sitemap, sitemap-news.xml, of the articles "
           "published in the two days before the build: {name: publication, language: en}. "
           "Command line: --news name=NAME --news language=CODE. Default: not written.",
           _check_news, "mapping"),
    Option("respect_robots_txt", True, "Leave out URLs that the site's own robots.txt "
           "disallows for all agents.", _check_bool, "bool"),
    Option("robots_txt", "merge", "merge: add the Sitemap: line to the site's robots.txt if it "
           "has one; create: the same, creating robots.txt when missing; fragment: only write "
           "robots-sitemap.txt for you to merge upstream; off: leave robots.txt alone. When the "
           "base URL has a path, a fragment is written.", _check_robots_txt, "choice",
           choices=ROBOTS_TXT_MODES),
    Option("sitemap_name", "sitemap", "Base name of the files written: sitemap.xml, "
           "sitemap.txt, sitemap-1.xml...", _check_name, "text"),
    Option("replace_files", False, "Replace a file that stands where the build writes (a "
           "sitemap file of sitemap_name, the news sitemap, the fragment) though this tool "
           "did not write it and it is no other generator's sitemap. Off: the build stops and "
           "names it. Another generator's sitemap of this site (a sitemaps.org urlset or index, "
           "or a text sitemap, listing only URLs under base_url) is always replaced, with a "
           "warning naming the generator when it can tell.", _check_bool, "bool"),
    Option("max_urls", PROTOCOL_MAX_URLS, "URLs per sitemap file before splitting into "
           "numbered parts (at most 50,000).", _int_range(1, PROTOCOL_MAX_URLS), "int"),
    Option("max_bytes", PROTOCOL_MAX_BYTES, "Uncompressed bytes per sitemap file before "
           "splitting (at most 52,428,800).", _int_range(MIN_MAX_BYTES, PROTOCOL_MAX_BYTES),
           "int"),
    Option("cache_dir", None, "Folder for the lastmod manifest kept between builds (outside "
           "the published site). Default: .sitemap-cache beside the site folder (MkDocs: "
           "beside mkdocs.yml; Sphinx: beside conf.py).", _optional_path("folder"), "text"),
    Option("workers", 0, "Processes that read pages of a large site; 0 means one per CPU "
           "core. The output does not depend on it.", _int_range(0, 64), "int"),
    Option("fingerprint", True, "Keep lastmod honest across rebuilds with a manifest of page "
           "fingerprints (needs a cache folder that persists between builds).", _check_bool,
           "bool"),
    Option("changes_file", None, "Write the URLs added, changed and removed since the last "
           "build to this file (JSON). Default: not written.", _optional_path("file"), "text"),
    Option("git_dates", True, "Use the git history as pages' lastmod: when each source's last "
           "change was published on the built branch (first-parent, committer dates). In a "
           "shallow clone a note says they are off. A commit that only added a dated page's "
           "source is not used (see docs/lastmod.md). On the command line, in a git work tree: "
           "the file a page's 'Edit this page' link names (docs/any-generator.md).",
           _check_bool, "bool"),
    Option("static_html", False, "List HTML files copied as they are from the sources (MkDocs "
           "docs_dir, Pelican STATIC_PATHS, Sphinx html_extra_path), not rendered by the host. "
           "Hosts only.",
           _check_bool, "bool", cli=False),
    Option("html_sitemap", None, "Also write an HTML site map for people at this path inside "
           "the site, e.g. sitemap/ (sitemap/index.html) or site-map.html. It lists exactly "
           "the URLs the XML sitemap lists, grouped by the host's navigation (MkDocs nav; Pelican "
           "categories, then pages), else by folder; one page per language, and further pages "
           "past 1,000 links (sitemap-fr/, sitemap-2/). Default: not written.",
           _check_html_sitemap, "text"),
    Option("html_sitemap_depth", 0, "Levels of nested lists in the HTML site map (1: one "
           "flat list); deeper pages are listed in their folder at the last level. 0: as deep "
           "as the folders go, up to 20 levels.", _int_range(0, 20),
           "int"),
    Option("html_sitemap_template", None, "A Jinja2 template file for the HTML site map "
           "page, in place of the built-in templates/html_sitemap.html (MkDocs: relative to "
           "mkdocs.yml; Sphinx: to conf.py). Checked before the build.",
           _optional_path("file"), "text"),
    Option("llms_txt", False, "Also write llms.txt at the site root (llmstxt.org): the site's "
           "name, the home page's description, then a section of links per group of the HTML "
           "site map (listing exactly the URLs the sitemap lists, with their titles and "
           "descriptions).", _check_bool, "bool"),
    Option("indexnow_key", None, "An IndexNow key (8 to 128 characters of a-z, A-Z, 0-9 and "
           "-): the build publishes it as KEY.txt at the site root, which 'sitemap-plugins "
           "submit' needs to send the changed URLs. Default: no key file.",
           check_key, "text"),
    Option("announce_feeds", False, "Add the site's own Atom and RSS feeds, linked from the "
           "home page's <head>, to robots.txt as Sitemap: lines (search engines read feeds "
           "as sitemaps). A feed outside the base URL is left out with a warning.",
           _check_bool, "bool"),
    Option("extra_urls", (), "URLs the build did not make, listed after its pages: each "
           "'URL' or 'URL LASTMOD' (a space between), or {url: URL, lastmod: LASTMOD} in a "
           "config file. Under the base URL only; a built page of the same URL wins, with a "
           "warning.", _check_extra_urls, "list", flag="--extra-url"),
    Option("extra_sitemaps", (), "Sitemaps another tool writes on the same host (e.g. "
           "https://example.org/api/sitemap.xml): the build then writes a sitemap index naming "
           "its own sitemap files and these, and names these in robots.txt too.",
           _check_extra_sitemaps, "list", flag="--extra-sitemap"),
    Option("entry_hook", None, "MODULE:FUNCTION called with each page's entry: it returns the "
           "entry, a changed copy (dataclasses.replace) or None to leave the page out (see "
           "docs/hooks.md). The module is found beside the config file (CLI: the current "
           "folder) or on sys.path.", _check_entry_hook, "text"),
    Option("versions", ("latest",), "With mike's versions.json, or Read the Docs' "
           "language/version folders (en/latest/), in the merged folder: the versions (names, "
           "aliases or globs such as '2.*') whose sitemaps the root index offers. Others keep "
           "their own sitemaps, not offered to crawlers.",
           _check_versions, "list", command="merge"),
    Option("fail_on_foreign", False, "Fail the check when the sitemap was not written by "
           "sitemap-plugins (another generator's, left by a build step that did not run); "
           "off: a warning says so.", _check_bool, "bool", command="check"),
)
OPTION_BY_NAME = {option.name: option for option in OPTIONS}
BUILD_OPTIONS = tuple(option for option in OPTIONS if not option.command)
"""What a build takes: the command line's ``build``, mkdocs.yml and pelicanconf.py."""
MERGE_OPTIONS = tuple(
    option for option in OPTIONS
    if option.command == "merge" or option.name in (
        "base_url", "gzip", "robots_txt", "sitemap_name", "max_urls", "max_bytes",
        "extra_sitemaps"))
"""What ``sitemap-plugins merge`` takes: the root index's URL, name, limits and robots.txt."""
CHECK_OPTIONS = tuple(option for option in OPTIONS if option.command == "check")
"""What ``sitemap-plugins check`` takes besides the base URL and the sitemap's name."""


def _default(name: str) -> Any:  # noqa: ANN401  # each field's own type
    return OPTION_BY_NAME[name].default


@dataclass(frozen=True)
class SitemapConfig:
    """Validated options for one sitemap run. Build it with :meth:`from_mapping`.

    The fields are :data:`OPTIONS`, in order, with their defaults; their documentation is
    there too.
    """

    base_url: BaseUrl
    directory_urls: bool = _default("directory_urls")
    extensionless_urls: bool = _default("extensionless_urls")
    extensions: tuple[str, ...] = _default("extensions")
    include: tuple[str, ...] = _default("include")
    exclude: tuple[str, ...] = _default("exclude")
    changefreq: tuple[tuple[str, str], ...] = _default("changefreq")
    priority: tuple[tuple[str, float], ...] = _default("priority")
    lastmod_file_time: bool = _default("lastmod_file_time")
    gzip: bool = _default("gzip")
    text: bool = _default("text")
    hreflang: bool = _default("hreflang")
    images: bool = _default("images")
    videos: bool = _default("videos")
    news: NewsPublication | None = None  # the option table's default (a frozen record)
    respect_robots_txt: bool = _default("respect_robots_txt")
    robots_txt: str = _default("robots_txt")
    sitemap_name: str = _default("sitemap_name")
    replace_files: bool = _default("replace_files")
    max_urls: int = _default("max_urls")
    max_bytes: int = _default("max_bytes")
    cache_dir: str | None = _default("cache_dir")
    workers: int = _default("workers")
    fingerprint: bool = _default("fingerprint")
    changes_file: str | None = _default("changes_file")
    git_dates: bool = _default("git_dates")
    static_html: bool = _default("static_html")
    html_sitemap: str | None = _default("html_sitemap")
    html_sitemap_depth: int = _default("html_sitemap_depth")
    html_sitemap_template: str | None = _default("html_sitemap_template")
    llms_txt: bool = _default("llms_txt")
    indexnow_key: str | None = _default("indexnow_key")
    announce_feeds: bool = _default("announce_feeds")
    extra_urls: tuple[ExtraUrl, ...] = _default("extra_urls")
    extra_sitemaps: tuple[str, ...] = _default("extra_sitemaps")
    entry_hook: EntryHook | None = None  # the option table's default
    versions: tuple[str, ...] = _default("versions")
    fail_on_foreign: bool = _default("fail_on_foreign")

    @property
    def lists_pages(self) -> bool:
        """Whether a list for readers (the HTML site map, llms.txt) wants the host's nav."""
        return self.html_sitemap is not None or self.llms_txt

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> SitemapConfig:
        """Validate a mapping of options and return a frozen config.

        Raises:
            ConfigError: naming the first bad option; unknown keys get a close-match hint.

        """
        check_keys(data)
        if data.get("base_url") is None:
            raise ConfigError("base_url", "Required: the public URL of the site root.")
        values = {key: OPTION_BY_NAME[key].check(key, value) for key, value in data.items()}
        _check_own_names(values, data.get("html_sitemap"))
        _check_scope(values)
        return cls(**values)


def _check_own_names(values: Mapping[str, Any], given: object) -> None:
    """No option may name a file the build writes at the site root, nor a folder there.

    The sitemap files, the fragment, robots.txt, llms.txt, KEY.txt and the HTML site map
    (``sitemap.xml/`` would be a folder where sitemap.xml is written), one against another.
    Compared without case: macOS and Windows would write both to one file.
    """
    name = values.get("sitemap_name", _default("sitemap_name"))
    ours = re.compile(own_file_pattern(name).pattern, re.IGNORECASE)
    llms = values.get("llms_txt", False)
    if llms and ours.match(LLMS_NAME):
        raise ConfigError("sitemap_name", f"Expected a name whose files are not llms.txt "
                                          f"(llms_txt is on) but received: {name!r} (str)")
    key = values.get("indexnow_key")
    if key is not None and (ours.match(f"{key}.txt") or key.lower() == "robots"):
        raise ConfigError("indexnow_key", f"Expected a key whose file is not one of the "
                                          f"sitemap or robots files but received: {key!r} (str)")
    page = values.get("html_sitemap")
    first = page.split("/", 1)[0].lower() if page is not None else ""
    taken = {"robots.txt", LLMS_NAME if llms else "", f"{key}.txt".lower() if key else ""}
    if page is not None and (ours.match(first) or first in taken):
        raise ConfigError("html_sitemap", f"Expected a path clear of the files the build writes "
                                          f"at the site root but received: {given!r} "
                                          f"({type(given).__name__})")


def check_keys(data: Mapping[str, Any], known: Collection[str] = OPTION_BY_NAME) -> None:
    """Raise :class:`ConfigError` for the first key that is not an option, with a hint."""
    for key in data:
        if key not in known:
            raise ConfigError(str(key), unknown_key(key, known))


# --- Page values: what a page says of itself (MkDocs front matter, Pelican metadata) -------

_YES = frozenset({"true", "yes", "on", "1"})
_NO = frozenset({"false", "no", "off", "0"})


def _check_yes_no(option: str, value: object) -> bool:
    """True or false; Pelican's metadata are text, so the words of a yes/no are taken too."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower() if isinstance(value, (str, int)) else None
    if text in _YES or text in _NO:
        return text in _YES
    raise ConfigError(option, f"Expected true or false but received: {received(value)}")


def _check_page_priority(option: str, value: object) -> float:
    number = value
    if isinstance(value, str):  # Pelican's metadata are text
        try:
            number = float(value)
        except ValueError:
            number = value
    try:
        return check_priority(option, number)
    except ConfigError as err:  # named as it was written
        raise ConfigError(option, f"Expected a number from 0.0 to 1.0 but received: "
                                  f"{received(value)}") from err


def _check_page_changefreq(option: str, value: object) -> str:
    word = value.strip().lower() if isinstance(value, str) else value
    try:
        return check_changefreq(option, word)
    except ConfigError as err:
        words = ", ".join(repr(w) for w in CHANGEFREQ_WORDS)
        raise ConfigError(option, f"Expected one of: {words} but received: "
                                  f"{received(value)}") from err


def _check_page_lastmod(option: str, value: object) -> Lastmod:
    lastmod = coerce_lastmod(value)
    if lastmod is None:
        raise ConfigError(option, "Expected a date such as 2024-05-06 or "
                                  f"2024-05-06T10:00:00+02:00 but received: {received(value)}")
    return lastmod


@dataclass(frozen=True)
class PageValue:
    """One value a page can give about itself, in the same words in every host."""

    name: str
    """The key: inside MkDocs' ``sitemap:`` front matter (``sitemap: false`` for the flag),
    Pelican's metadata (``Priority: 0.8``)."""
    doc: str
    check: Check
    front_matter: bool = True
    """Whether MkDocs' ``sitemap:`` mapping takes it (``sitemap`` itself is that key)."""


PAGE_VALUES: tuple[PageValue, ...] = (
    PageValue("sitemap", "false leaves the page out of the sitemap. MkDocs: sitemap: false; "
              "Pelican: Sitemap: false.", _check_yes_no, front_matter=False),
    PageValue("lastmod", "The page's own <lastmod>, a W3C date; it wins over every other date.",
              _check_page_lastmod),
    PageValue("changefreq", "The page's own <changefreq>; it wins over the changefreq rules.",
              _check_page_changefreq),
    PageValue("priority", "The page's own <priority>, 0.0 to 1.0; it wins over the priority "
              "rules.", _check_page_priority),
    PageValue("private", "Pelican (pelican-sitemap's): Private: true leaves the page out.",
              _check_yes_no, front_matter=False),
)
PAGE_VALUE_BY_NAME = {value.name: value for value in PAGE_VALUES}
FRONT_MATTER_KEYS = tuple(value.name for value in PAGE_VALUES if value.front_matter)
"""The keys of MkDocs' ``sitemap:`` front-matter mapping."""


@dataclass(frozen=True)
class PageValues:
    """A page's own values, checked; None where the page says nothing."""

    sitemap: bool | None = None
    lastmod: Lastmod | None = None
    changefreq: str | None = None
    priority: float | None = None
    private: bool | None = None


NO_PAGE_VALUES = PageValues()


def check_page_values(values: Mapping[str, object], page: str,
                      keys: Collection[str] = PAGE_VALUE_BY_NAME) -> PageValues:
    """Check what a page says of itself; the one policy of every host.

    ``values`` maps :data:`PAGE_VALUES` names to what the host read (None: not given);
    ``page`` is the page's source path, which the message names; ``keys``: the names the
    host's syntax takes there (MkDocs' ``sitemap:`` mapping takes :data:`FRONT_MATTER_KEYS`).

    Raises:
        PageValueError: for the first unknown key or bad value; it stops the build.

    """
    checked: dict[str, Any] = {}
    for key, value in values.items():
        known = PAGE_VALUE_BY_NAME.get(key) if key in keys else None
        if known is None:
            raise PageValueError(page, str(key), unknown_key(key, keys, "key"))
        if value is not None:
            try:
                checked[key] = known.check(key, value)
            except ConfigError as err:
                raise PageValueError(page, key, err.message) from err
    return PageValues(**checked) if checked else NO_PAGE_VALUES


def options_markdown() -> str:
    """The options table of the README and the docs, made from :data:`OPTIONS`."""
    lines = ["| option | command line | default | what it does |", "|---|---|---|---|"]
    for option in OPTIONS:
        if option.default is _REQUIRED:
            default = "required"
        elif option.default is None:
            default = "none"
        elif option.kind in ("rules", "mapping"):
            default = "`{}`"
        else:
            value = list(option.default) if isinstance(option.default, tuple) else option.default
            default = "`" + json.dumps(value) + "`"
        flag = f"`{option.cli_flag}`" if option.cli else "(hosts only)"
        if option.command:
            flag += f" ({option.command} only)"
        lines.append(f"| `{option.name}` | {flag} | {default} | {option.doc} |")
    return "\n".join(lines) + "\n"


# Defaults in plain Python types, for documentation and host config classes. ``base_url``
# comes from the host.
DEFAULTS: dict[str, Any] = {
    option.name: ({} if option.kind == "rules" else
                  list(option.default) if isinstance(option.default, tuple) else option.default)
    for option in BUILD_OPTIONS if option.name != "base_url"
}
