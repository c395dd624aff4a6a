"""Absolute, percent-encoded URLs: the only place where URLs are built or compared.

Every ``<loc>`` is an absolute RFC 3986 URL under the sitemap's own scheme, host, port and
path (sitemaps.org, "Sitemap file location"). A ``%`` in a file name is a percent sign.
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
from dataclasses import dataclass
from urllib.parse import quote, unquote, urljoin, urlsplit, urlunsplit

# RFC 3986 pchar minus "%": sub-delims, ":" and "@" stay literal in a path, as in the links
# most generators write (``r&d.html``); a canonical spelling differently is listed instead.
_PATH_SAFE = "-._~!$&'()*+,;=:@/"
_DEFAULT_PORTS = {"http": 80, "https": 443}
# A path of only characters that stay literal: encoding it gives it back.
_PLAIN_PATH = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,;=:@/]*\Z")
# A "%" not starting a valid escape, or a byte outside the URI set; "[" and "]" too (RFC
# 3986 allows them only around an IPv6 host).
_NEEDS_ENCODING = re.compile(r"%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?#%]")
# A host name after IDNA: labels of letters, digits, "-" and "_" (intranets), optional final
# dot. Anything else would make every <loc> an invalid URI.
_HOST_NAME = re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?\Z")
# sitemap.xsd: a <loc> has 12 to 2,048 characters; the base URL is the root page's <loc>.
MIN_URL_LENGTH = 12
_HEX_ESCAPE = re.compile(r"%[0-9a-fA-F]{2}")
MAX_URL_LENGTH = 2048
INDEX_NAMES = ("index.html", "index.htm")
"""The files a static server answers a folder URL with, the preferred one first."""


@dataclass(frozen=True)
class BaseUrl:
    """The public URL of the site root: ``scheme://host[:port]/path/``, path ending in ``/``."""

    scheme: str
    netloc: str
    path: str

    def __str__(self) -> str:
        return f"{self.scheme}://{self.netloc}{self.path}"

    @property
    def has_path(self) -> bool:
        """Whether the site lives below the host root (its robots.txt is then not the host's)."""
        return self.path != "/"

    @property
    def host_root(self) -> str:
        """The host's root URL, ``scheme://host[:port]/``: where crawlers read robots.txt."""
        return f"{self.scheme}://{self.netloc}/"

    def robots_mode(self, robots_txt: str) -> str:
        """What ``robots_txt`` comes to here: below the host root (not crawlers'), the fragment."""
        return "fragment" if robots_txt != "off" and self.has_path else robots_txt


# The user information of a URL (``user:password@``, a token as the user name): a secret.
_USERINFO = re.compile(r"//[^/?#]*@")


def without_userinfo(text: str) -> str:
    """``text`` with any URL's user name and password hidden (messages end up in CI logs)."""
    return _USERINFO.sub("//***@", text) if "@" in text else text


def parse_base_url(text: str) -> BaseUrl:
    """Validate and normalise a base URL.

    Raises:
        ValueError: in the config-message grammar (user name and password hidden).
    """
    value = text.strip()
    text = without_userinfo(text)  # only ever shown from here on
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError as err:
        msg = f"Expected an absolute http(s) URL but received: {text!r} ({err})"
        raise ValueError(msg) from err
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        msg = (
            f"Expected an absolute http(s) URL such as 'https://example.org/' "
            f"but received: {text!r}"
        )
        raise ValueError(msg)
    if parts.query or parts.fragment:
        msg = f"Expected a URL without query or fragment but received: {text!r}"
        raise ValueError(msg)
    if parts.username or parts.password:
        msg = f"Expected a URL without user name or password but received: {text!r}"
        raise ValueError(msg)
    try:
        host = parts.hostname.encode("idna").decode("ascii")
    except UnicodeError as err:
        msg = f"Expected a valid host name but received: {parts.hostname!r}"
        raise ValueError(msg) from err
    if "[" in parts.netloc:  # an IP literal: only IPv6 (not "[v1.x]", not a zone "%eth0")
        try:
            ipaddress.IPv6Address(host)
        except ValueError as err:
            msg = f"Expected a valid host name but received: {parts.hostname!r}"
            raise ValueError(msg) from err
        if "%" in host:
            msg = f"Expected a valid host name but received: {parts.hostname!r}"
            raise ValueError(msg)
        host = f"[{host}]"
    elif not _HOST_NAME.match(host):
        msg = f"Expected a valid host name but received: {parts.hostname!r}"
        raise ValueError(msg)
    if port == 0:
        msg = f"Expected a port from 1 to 65535 but received: {text!r}"
        raise ValueError(msg)
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    # Dot segments removed (RFC 3986 5.2.4), so page URLs and canonicals compare with the base.
    path = _encode_href_part(_remove_dot_segments(unquote_keep_reserved(parts.path or "/")))
    if not path.endswith("/"):
        path += "/"
    base = BaseUrl(scheme, netloc, path)
    if len(str(base)) < MIN_URL_LENGTH:
        msg = (f"Expected a base URL of at least {MIN_URL_LENGTH} characters (sitemap.xsd: "
               f"the shortest <loc>) but received: {text!r}")
        raise ValueError(msg)
    return base


def unquote_keep_reserved(path: str) -> str:
    """Decode only escapes of unreserved characters, so that re-encoding is stable."""

    def _decode(match: re.Match[str]) -> str:
        char = chr(int(match.group(0)[1:], 16))
        return char if (char.isalnum() and char.isascii()) or char in "-._~" else match.group(0)

    return _HEX_ESCAPE.sub(_decode, path)


def encode_path(rel_path: str) -> str:
    """Percent-encode a literal file path (UTF-8; non-UTF-8 names byte for byte), keeping ``/``."""
    if _PLAIN_PATH.match(rel_path):  # most paths: nothing to encode
        return rel_path
    try:
        raw = rel_path.encode("utf-8")
    except UnicodeEncodeError:
        raw = os.fsencode(rel_path)
    return quote(raw, safe=_PATH_SAFE)


def page_url(base: BaseUrl, rel_path: str, *, directory_urls: bool = True,
             extensionless_urls: bool = False) -> str:
    """The absolute URL of a built file.

    ``directory_urls``: ``a/b/index.html`` is ``a/b/``. ``extensionless_urls``: ``a/one.html``
    is ``a/one`` (pretty-URL servers). Different files always get different URLs, and each
    URL, percent-decoded to bytes, names its file.
    """
    path = rel_path
    head, _, name = path.rpartition("/")
    # Exactly these names: a case-sensitive server never answers a/ with a/Index.html.
    if (directory_urls and name in INDEX_NAMES) or (
            extensionless_urls and name == "index.html"):
        path = f"{head}/" if head else ""
    # Only ".html": the suffix these servers add. "a/.html" would leave an empty name.
    elif extensionless_urls and name.endswith(".html") and name != ".html":
        path = path.removesuffix(".html")
    return f"{base}{encode_path(path)}"


def _encode_href_part(text: str) -> str:
    encoded = _NEEDS_ENCODING.sub(lambda m: quote(m.group(0), safe=""), text)
    # RFC 3986 section 6.2.2.1: escapes are compared upper-case; write them that way.
    return _HEX_ESCAPE.sub(lambda m: m.group(0).upper(), encoded) if "%" in encoded else encoded


# An absolute http(s) URL already in normal form: resolving gives it back, so the costly
# general path is skipped.
_PLAIN_ABSOLUTE = re.compile(
    r"https?://[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*"
    r"/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*\Z"
)


_QUERY_OR_FRAGMENT = re.compile(r"[?#]")
_BRACKETED = re.compile(r"\[[^\[\]]*\](?::[0-9]*)?\Z")


def resolve_href(href: str, against: str) -> str | None:
    """Resolve a page's ``href`` against its URL and percent-encode it; None if not http(s).

    Valid escapes are kept (no double encoding); the fragment is dropped.
    """
    text = href.strip(" \t\n\r\f")  # ASCII whitespace only, as HTML does
    if not text:
        return None
    if "/." not in text and _PLAIN_ABSOLUTE.match(text):
        return text
    if "\\" in text:
        # WHATWG URL: a backslash before the query is a slash, as browsers load it.
        end = _QUERY_OR_FRAGMENT.search(text)
        cut = end.start() if end is not None else len(text)
        text = text[:cut].replace("\\", "/") + text[cut:]
    try:
        joined = urljoin(against, text)
        parts = urlsplit(joined)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    try:
        host = parts.hostname.encode("idna").decode("ascii")
    except UnicodeError:
        return None
    host_and_port = parts.netloc.rpartition("@")[2]
    if host_and_port.startswith("["):
        # Only an IPv6 address, without a zone, in one pair of brackets.
        if ":" not in host or "%" in host or not _BRACKETED.match(host_and_port):
            return None
        host = f"[{host}]"
    elif ":" in host:
        host = f"[{host}]"
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    # RFC 3986 6.2.2.2: "%7E" is "~" (decoded first, so "%2E%2E" is a dot segment too).
    path = _encode_href_part(_remove_dot_segments(unquote_keep_reserved(parts.path or "/")))
    query = _encode_href_part(parts.query)
    return urlunsplit((scheme, netloc, path, query, ""))


def _remove_dot_segments(path: str) -> str:
    # urljoin leaves "a/../b" alone when the href is absolute (Pelican i18n writes those).
    if "/." not in path and not path.startswith("."):
        return path
    output: list[str] = []
    for segment in path.split("/"):
        if segment == "..":
            if len(output) > 1:
                output.pop()
        elif segment != ".":
            output.append(segment)
    result = "/".join(output)
    if path.endswith(("/.", "/..")):
        result += "/"
    return result if result.startswith("/") else "/" + result


# Host names that never name a public server: a development server's URL baked into a page.
_LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".home.arpa")


def is_public(url: str) -> bool:
    """Whether an absolute http(s) URL names a host the public can reach.

    Not localhost, a local-only domain, or a loopback, private, link-local or unspecified
    address: such a URL in a published page is a development server's.
    """
    try:
        host = (urlsplit(url).hostname or "").rstrip(".").lower()
    except ValueError:
        return False
    if not host or host == "localhost" or host.endswith(_LOCAL_SUFFIXES):
        return False
    try:
        address: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(host)
    except ValueError:
        # The short IPv4 forms browsers read (127.1, 2130706433); inet_aton refuses names.
        try:
            address = ipaddress.IPv4Address(socket.inet_aton(host))
        except ValueError:  # a NUL: no host name holds one
            return False
        except OSError:
            return True  # a name
    return not (address.is_loopback or address.is_private or address.is_link_local
                or address.is_unspecified)


# "%2E" is "." (RFC 3986 section 2.3: an unreserved character, its escape names the same URL).
_ESCAPED_DOT = re.compile(r"%2[eE]")


def without_dot_segments(url: str) -> str:
    """``url`` without its path's dot segments, escaped ones too (RFC 3986 5.2.4, 6.2.2.3)."""
    if "/." not in url and "%2" not in url:
        return url  # the common case: nothing to remove
    try:
        parts = urlsplit(url)
    except ValueError:
        return url  # not a URL: no scope holds it anyway
    path = _ESCAPED_DOT.sub(".", parts.path)
    if "/." not in path and not path.startswith("."):
        return url
    removed = _remove_dot_segments(path)
    if removed == path:
        return url  # dots only inside names (".well-known", "..%2f"): the URL as written
    return urlunsplit((parts.scheme, parts.netloc, removed, parts.query, parts.fragment))


_SLASHES = re.compile(r"//+")
_ESCAPED_SLASH = re.compile(r"%(?:2[fF]|5[cC])")


def scope_form(url: str) -> str:
    """``url`` in the form a scope is compared in: each spelling of one URL gives one text.

    RFC 3986 6.2.2's normal form, and as servers read a path: a backslash or escaped slash is
    ``/``, a run of slashes one, ``..;x`` a dot segment. So a URL cannot climb out of its
    folder (``blog/..;/docs/``) or hide a page (``%64ocs/``) while its text looks in place.
    """
    if "/." not in url and _PLAIN_ABSOLUTE.match(url) and "//" not in url[8:]:
        return url  # the common case: already in that form
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return url  # not a URL: no scope holds it anyway
    scheme = parts.scheme.lower()
    netloc = parts.netloc.lower()
    if port is not None and port == _DEFAULT_PORTS.get(scheme):
        netloc = netloc.rpartition(":")[0]
    # Runs of slashes as one, and an escaped slash or backslash as one (nginx, Apache).
    path = _ESCAPED_SLASH.sub("/", parts.path.replace("\\", "/"))
    path = _SLASHES.sub("/", unquote_keep_reserved(path))
    path = _HEX_ESCAPE.sub(lambda m: m.group(0).upper(), path)
    path = "/".join(_dot_segment(segment) for segment in path.split("/"))
    path = _remove_dot_segments(path) if path else "/"
    return urlunsplit((scheme, netloc, path, parts.query, parts.fragment))


def _dot_segment(segment: str) -> str:
    """``..;x`` as ``..`` (Tomcat and Jetty read it so); any other segment as it is."""
    head = segment.partition(";")[0]
    return head if head in (".", "..") else segment


def is_under(url: str, prefix: str) -> bool:
    """Whether ``url`` lies in the folder URL ``prefix`` (a base URL), both in scope form."""
    return scope_form(url).startswith(scope_form(prefix))


def is_within(url: str, base: BaseUrl) -> bool:
    """Whether ``url`` is under the base's scheme, host, port and path (dot segments removed)."""
    return is_under(url, str(base))


def comparison_key(url: str) -> str:
    """A form of ``url`` in which equivalent spellings compare equal.

    Escapes decoded (``caf%C3%A9/`` is ``café/``), the fragment dropped. Bytes that are not
    UTF-8 decode to one surrogate each, as file names do: ``%FE`` and ``%FF`` stay apart.
    """
    parts = urlsplit(url)
    path = unquote(parts.path, errors="surrogateescape")
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


def rel_path(path: str, root: str) -> str | None:
    """``path`` relative to the folder ``root``, POSIX (``""`` for ``root``); None outside."""
    try:
        rel = os.path.relpath(path, root)
    except ValueError:  # another drive on Windows
        return None
    if rel == os.curdir:
        return ""
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return None
    return rel.replace(os.sep, "/")


def folder_url(root: str, name: str) -> str:
    """The URL of folder ``name`` (one segment, encoded) under URL ``root`` (a mike version)."""
    return urljoin(root if root.endswith("/") else root + "/", quote(name, safe="") + "/")


def version_urls(site_url: str, version: str, canonical_version: object) -> tuple[str, str | None]:
    """A version's own base URL, and the folder its canonicals point to (mike).

    The second is ``canonical_version``'s folder, or None when none or the version's own.
    """
    own = folder_url(site_url, version)
    if not isinstance(canonical_version, str) or not canonical_version.strip():
        return own, None
    canonical = folder_url(site_url, canonical_version.strip("/"))
    return own, (canonical if canonical != own else None)


def is_file_link(href: str, rel_path: str) -> bool:
    """Whether a site-relative ``href`` is the file ``rel_path``'s path, or its folder's."""
    return href in (rel_path, rel_path.removesuffix("index.html"))


def absolute_base(text: str) -> BaseUrl | None:
    """``text`` as a base URL; None when it is no absolute URL (empty, or relative).

    Raises:
        ValueError: when it is absolute but not a usable base URL (:func:`parse_base_url`).
    """
    text = text.strip()
    return parse_base_url(text) if urlsplit(text).scheme else None


def folder_base(base: BaseUrl, folder: str) -> BaseUrl:
    """The base URL of ``folder``, a path below ``base``'s (``""`` for ``base`` itself)."""
    return parse_base_url(page_url(base, f"{folder}/" if folder else ""))


def relative_base(href: str, against: BaseUrl) -> BaseUrl | None:
    """A base URL written relative to another (a sub-site's ``/fr``); None if unusable."""
    text = href.strip()
    if not text:
        return None
    resolved = resolve_href(text.rstrip("/") + "/", str(against))
    try:
        return parse_base_url(resolved) if resolved is not None else None
    except ValueError:
        return None


# RFC 3986's URI syntax as <loc> needs it: pchar, escapes, brackets only around an IP literal.
_PCT = r"%[0-9A-Fa-f]{2}"
_PCHAR = rf"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|{_PCT})"
_URL = re.compile(
    rf"[Hh][Tt][Tt][Pp][Ss]?://(?:{_PCHAR}|[\[\]])+(?:/(?:{_PCHAR}|/)*)?"
    rf"(?:\?(?:{_PCHAR}|[/?])*)?(?:#(?:{_PCHAR}|[/?])*)?\Z", re.ASCII)
_URI_CHARS = re.compile(rf"(?:{_PCHAR}|[/?#\[\]])*\Z", re.ASCII)


def _splits(url: str) -> bool:
    """Whether urlsplit takes ``url`` (it refuses a bracketed host that is no IP literal)."""
    try:
        urlsplit(url)
    except ValueError:
        return False
    return True


def url_problem(url: str) -> str | None:
    """What keeps ``url`` from being a sitemap URL, or None when it is one.

    An absolute http(s) URL, RFC 3986 encoded, of at most 2,048 characters (sitemap.xsd): the
    one rule for every URL written and every URL ``check`` reads.
    """
    if not url:
        return "is empty"
    if not _URI_CHARS.match(url) or url.count("#") > 1:
        return "is not percent-encoded per RFC 3986"
    if not url[:8].lower().startswith(("http://", "https://")):
        return "is not an absolute http(s) URL"
    if not _URL.match(url) or not _splits(url):
        return "is not a well-formed URL (RFC 3986: a host, brackets only around it)"
    if len(url) > MAX_URL_LENGTH:
        return f"has {len(url):,} characters (at most 2,048)"
    return None


def lower_scheme_and_host(url: str) -> str:
    """``url`` with its scheme and host in lower case (RFC 3986 6.2.2.1), the path as is."""
    scheme, separator, rest = url.partition("://")
    if not separator:
        return url
    authority, slash, path = rest.partition("/")
    return f"{scheme.lower()}://{authority.lower()}{slash}{path}"
