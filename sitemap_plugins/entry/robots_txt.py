"""robots.txt as text: its rules for all crawlers, and ``Sitemap:`` lines added or removed.

The file is handled as bytes: a byte-order mark, CRLF or CR line ends, bytes that are not
UTF-8, trailing spaces and a missing final newline all survive. The line is appended once;
a file that already names the sitemap (in any letter case of the directive, scheme or host,
with or without the default port) is left exactly as it was. The rules are read with a real
parser (Protego: Google's matching rules); only the group for every crawler (``User-agent: *``)
is consulted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence


# -------------------- formerly writers/robots.py

_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_SITEMAP_LINE = re.compile(rb"^[ \t]*sitemap[ \t]*:[ \t]*([^\s#]+)", re.IGNORECASE)
_DEFAULT_PORTS = {"http": 80, "https": 443}
# The fragment's first line: ``sitemap-plugins merge`` knows a build of this tool by it.
FRAGMENT_HEADER = "# Add this line to the robots.txt at "


def _url_key(url: str) -> tuple[str, str, int | None, str, str] | None:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if port == _DEFAULT_PORTS.get(scheme):
        port = None
    return (scheme, (parts.hostname or "").lower(), port, parts.path or "/", parts.query)


def sitemap_urls(robots: bytes) -> list[str]:
    """The URLs of the ``Sitemap:`` lines in ``robots`` (BOM and any line ends tolerated)."""
    codec = utf16_codec(robots)
    if codec is not None:
        robots = robots[2:].decode(codec, "replace").encode("utf-8", "replace")
    body = robots[3:] if robots.startswith(b"\xef\xbb\xbf") else robots
    urls: list[str] = []
    for line in _LINE_BREAK.split(body):
        match = _SITEMAP_LINE.match(line)
        if match:
            urls.append(match.group(1).decode("utf-8", "replace"))
    return urls


def names_sitemap(robots: bytes, sitemap_url: str) -> bool:
    """Whether ``robots`` already has a ``Sitemap:`` line for ``sitemap_url``."""
    wanted = _url_key(sitemap_url)
    return any(_url_key(url) == wanted for url in sitemap_urls(robots))


_UTF16_BOMS = ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
# Google reads the first 500 KiB of a robots.txt and ignores the rest.
MAX_ROBOTS_BYTES = 500 * 1024


def utf16_codec(robots: bytes) -> str | None:
    """The UTF-16 codec a robots.txt's byte-order mark names, or None (UTF-8, the usual)."""
    for bom, codec in _UTF16_BOMS:
        if robots.startswith(bom):
            return codec
    return None


def decode_robots(robots: bytes) -> str:
    """robots.txt as text: UTF-16 by its byte-order mark, else UTF-8 (bad bytes replaced)."""
    codec = utf16_codec(robots)
    if codec is not None:
        return robots[2:].decode(codec, "replace")
    return robots.decode("utf-8-sig", "replace")


def editable(data: bytes) -> tuple[bytes | None, str]:
    """A robots.txt to add lines to: its bytes, or None and why it is left as it is.

    ``data``: its first ``MAX_ROBOTS_BYTES`` + 1 bytes.

    Crawlers read the first 500 KiB only, so a line added at the end of a larger file would
    never be read: such a file is not read whole (memory stays bounded) nor changed.
    """
    if len(data) > MAX_ROBOTS_BYTES:
        return None, (f"is larger than the {MAX_ROBOTS_BYTES // 1024:,} KiB crawlers read, so a "
                      "Sitemap: line added at its end would never be read; not changed: put "
                      "the line near its start by hand")
    return data, ""


def merge_sitemap_line(robots: bytes, sitemap_url: str) -> bytes:
    """:func:`merge_utf8_line`, in the file's own encoding: UTF-16 stays UTF-16.

    Raises:
        UnicodeError: for UTF-16 that does not decode (it is left as it is).
    """
    return _in_own_encoding(robots, lambda utf8: merge_utf8_line(utf8, sitemap_url))


def _in_own_encoding(robots: bytes, edit: Callable[[bytes], bytes]) -> bytes:
    """``edit`` (of UTF-8 bytes) applied to ``robots`` in its own encoding."""
    codec = utf16_codec(robots)
    if codec is None:
        return edit(robots)
    text = robots[2:].decode(codec, "surrogatepass")
    edited = edit(text.encode("utf-8", "surrogatepass"))
    return robots[:2] + edited.decode("utf-8", "surrogatepass").encode(codec, "surrogatepass")


def merge_utf8_line(robots: bytes, sitemap_url: str) -> bytes:
    """``robots`` with ``Sitemap: <url>`` appended, or unchanged if it names the URL already.

    The new line uses the file's own line end (the first one found; LF in a file without
    any). A line end is added first when the file does not end with one, and a blank line
    when the last line has content, so that no reader takes the directive for part of the
    last ``User-agent`` group (it belongs to none).
    """
    if names_sitemap(robots, sitemap_url):
        return robots
    found = _LINE_BREAK.search(robots)
    newline = found.group(0) if found else b"\n"
    body = robots[3:] if robots.startswith(b"\xef\xbb\xbf") else robots
    prefix = robots
    # Also after a lone byte-order mark or blank text: a reader that does not strip the BOM
    # (urllib.robotparser) would otherwise read "\ufeffSitemap:" as an unknown line.
    if robots and not robots.endswith((b"\n", b"\r")):
        prefix += newline
    if body.strip():
        last_line = _LINE_BREAK.split(re.sub(rb"(?:\r\n|\r|\n)\Z", b"", body))[-1]
        if last_line.strip():
            prefix += newline
    return prefix + b"Sitemap: " + sitemap_url.encode("ascii") + newline


def merge_sitemap_lines(robots: bytes, sitemap_urls_to_add: list[str]) -> bytes:
    """``robots`` with a ``Sitemap:`` line for each URL it does not name yet, together.

    The first goes as :func:`merge_sitemap_line` puts it; the others follow it directly.
    """
    missing = [url for url in sitemap_urls_to_add if not names_sitemap(robots, url)]
    if not missing:
        return robots
    return _in_own_encoding(robots, lambda utf8: _merge_utf8_lines(utf8, missing))


def _merge_utf8_lines(robots: bytes, missing: list[str]) -> bytes:
    merged = merge_utf8_line(robots, missing[0])
    found = _LINE_BREAK.search(merged)
    newline = found.group(0) if found else b"\n"
    return merged + b"".join(b"Sitemap: " + url.encode("ascii") + newline for url in missing[1:])


def create_robots(sitemap_url: str, feeds: Sequence[str] = ()) -> bytes:
    """A new robots.txt that allows everything and names the sitemap (and the feeds)."""
    lines = "".join(f"Sitemap: {url}\n" for url in [sitemap_url, *feeds])
    return f"User-agent: *\nDisallow:\n\n{lines}".encode("ascii")


def render_fragment(sitemap_url: str, host_root: str, feeds: Sequence[str] = ()) -> bytes:
    """The fragment to merge into the host's robots.txt when the site lives below the root.

    ``feeds``: the build's other sitemaps (its news sitemap, the site's feeds with
    ``announce_feeds``), named after the sitemap's line, which stays first: that is how
    ``merge`` (:func:`fragment_sitemap`) knows the build's sitemap.
    """
    return (
        f"{FRAGMENT_HEADER}{host_root}robots.txt:\n"
        f"# crawlers read robots.txt only at the root of a host.\n"
        + "".join(f"Sitemap: {url}\n" for url in (sitemap_url, *feeds))
    ).encode("ascii")


def render_fragment_lines(sitemap_urls: list[str], host_root: str) -> bytes:
    """A fragment naming several sitemaps (the root indexes of a merge)."""
    if len(sitemap_urls) == 1:
        return render_fragment(sitemap_urls[0], host_root)
    lines = [f"# Add these lines to the robots.txt at {host_root}robots.txt:",
             "# crawlers read robots.txt only at the root of a host."]
    lines.extend(f"Sitemap: {url}" for url in sitemap_urls)
    return ("\n".join(lines) + "\n").encode("ascii")


def fragment_sitemap(fragment: bytes) -> str | None:
    """The sitemap URL a fragment written by this tool names; None for any other file."""
    if not fragment.startswith(FRAGMENT_HEADER.encode("ascii")):
        return None
    urls = sitemap_urls(fragment)
    # The build's sitemap comes first; a news sitemap may follow it.
    return urls[0] if urls else None


def without_sitemap_lines(robots: bytes, sitemap_urls_to_drop: set[str]) -> bytes:
    """``robots`` without the ``Sitemap:`` lines naming any of the URLs; every other byte kept.

    A removed line goes with its own line end, so the lines around it are untouched. A
    UTF-16 file is edited in UTF-16, as lines are added (read as bytes, none matched, and the
    lines stayed); one that does not decode is left as it is.
    """
    if not sitemap_urls_to_drop:
        return robots
    try:
        return _in_own_encoding(robots, lambda utf8: _without_utf8_lines(utf8,
                                                                         sitemap_urls_to_drop))
    except UnicodeError:
        return robots


def _without_utf8_lines(robots: bytes, sitemap_urls_to_drop: set[str]) -> bytes:
    keys = {_url_key(url) for url in sitemap_urls_to_drop}
    keys.discard(None)
    pieces: list[bytes] = []
    start = 0
    bom = b"\xef\xbb\xbf" if robots.startswith(b"\xef\xbb\xbf") else b""
    for match in _LINE_BREAK.finditer(robots, len(bom)):
        pieces.append(robots[start:match.end()])
        start = match.end()
    if start < len(robots):
        pieces.append(robots[start:])
    kept: list[bytes] = []
    for number, piece in enumerate(pieces):
        line = piece[len(bom):] if number == 0 else piece
        found = _SITEMAP_LINE.match(line)
        if found and _url_key(found.group(1).decode("utf-8", "replace")) in keys:
            if number == 0 and bom:
                kept.append(bom)
            continue
        kept.append(piece)
    return b"".join(kept)


# -------------------- formerly robots_rules.py

ALL_AGENTS = "*"


@dataclass(frozen=True)
class RobotsRules:
    """Parsed robots.txt; ``allows(url)`` answers for all agents."""

    parser: Any
    source: bytes = field(default=b"", repr=False)
    """The bytes it was parsed from."""

    @classmethod
    def from_bytes(cls, raw: bytes) -> RobotsRules:
        """Parse robots.txt bytes: the first 500 KiB, UTF-8 or UTF-16 by its byte-order mark."""
        from protego import Protego  # noqa: PLC0415  # only for a site with a robots.txt

        from sitemap_plugins.entry.robots_txt import (  # noqa: PLC0415
            MAX_ROBOTS_BYTES,
            decode_robots,
        )

        raw = raw[:MAX_ROBOTS_BYTES]  # what crawlers read; the rest is theirs to ignore too
        return cls(Protego.parse(decode_robots(raw)), raw)

    def __reduce__(self) -> tuple[object, tuple[bytes]]:
        # A worker process parses the same bytes again (a parser object is not portable).
        return (RobotsRules.from_bytes, (self.source,))

    def allows(self, url: str) -> bool:
        """Whether crawlers in general may fetch ``url``."""
        return bool(self.parser.can_fetch(url, ALL_AGENTS))
