"""What the sitemap takes from one page's bytes: its head and its fingerprint.

Both depend on the bytes alone, so they can be worked out ahead of time (see
:mod:`sitemap_plugins.readahead`), or kept from the last build (the lastmod manifest keeps
them in its ``files`` table), and trusted when a digest of the file's bytes still matches.
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import xxhash

from sitemap_plugins.fingerprint import (
    MAX_PARSED_BYTES,
    fingerprint_bytes,
    fingerprint_file,
    fingerprint_html,
)
from sitemap_plugins.head import PageMeta, parse_page, read_page_bytes

if TYPE_CHECKING:
    import os


@dataclass(frozen=True)
class PageFacts:
    """The head and fingerprint of a page, with a digest of the bytes they come from."""

    digest: bytes
    meta: PageMeta
    fingerprint: str
    """Empty when fingerprints are off."""
    encoded: str = field(default="", compare=False)
    """The facts as the manifest keeps them (:func:`encode_facts`); empty when not wanted."""


_PAIR = 2  # (hreflang, href) and (code, message) are kept as two-item lists

# Parsing code whose every change can change the facts of the same bytes.
PARSER_MODULES = ("head.py", "fasthead.py", "fingerprint.py", "page_facts.py")


def code_key(sources: tuple[str, ...]) -> str:
    """A digest of the Python version and of these files of the package (or template).

    Paths are relative to the package; ``templates/`` is looked up where the writers find it.
    Without sources (a frozen app) the package version must do.
    """
    from sitemap_plugins.writers.templates import template_path  # noqa: PLC0415  # no cycle

    digest = hashlib.sha256(sys.version.encode())
    folder = Path(__file__).parent
    try:
        for name in sources:
            if name.startswith("templates/"):
                digest.update(template_path(name.removeprefix("templates/")).read_bytes())
            else:
                digest.update((folder / name).read_bytes())
    except OSError:
        from sitemap_plugins import __version__  # noqa: PLC0415  # only then

        digest.update(__version__.encode())
    return digest.hexdigest()


@functools.cache
def parser_key() -> str:
    """Names the parser that facts come from: kept facts are only trusted by the same one.

    A digest of the parsing modules' source and the Python version (``html.parser`` is the
    fallback), so an upgrade or a local edit can never reuse facts of an older parser.
    """
    return code_key(PARSER_MODULES)


def encode_facts(meta: PageMeta, fingerprint: str) -> str:
    """The facts of a page as one JSON text (the digest is kept beside it)."""
    return json.dumps(
        [fingerprint, meta.canonical, sorted(meta.robots), meta.refresh_url, meta.alternates,
         meta.lang, meta.base_href, meta.modified, meta.published, meta.problems],
        separators=(",", ":"))  # ASCII: a lone surrogate from a bad byte survives too


def _pairs(value: object) -> list[tuple[str, str]]:
    if not isinstance(value, list) or not all(
        isinstance(pair, list) and len(pair) == _PAIR and all(isinstance(v, str) for v in pair)
        for pair in value
    ):
        raise TypeError
    return [(pair[0], pair[1]) for pair in value]


def _text(value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError
    return value


def decode_facts(digest: bytes, encoded: str) -> PageFacts | None:
    """What :func:`encode_facts` wrote; None for anything else (a damaged manifest)."""
    try:
        (fingerprint, canonical, robots, refresh_url, alternates, lang, base_href, modified,
         published, problems) = json.loads(encoded)
        if not isinstance(fingerprint, str) or not isinstance(robots, list) or not all(
            isinstance(word, str) for word in robots
        ):
            return None
        meta = PageMeta(
            canonical=_text(canonical), robots=set(robots), refresh_url=_text(refresh_url),
            alternates=_pairs(alternates), lang=_text(lang), base_href=_text(base_href),
            modified=_text(modified), published=_text(published), problems=_pairs(problems))
    except (ValueError, TypeError):
        return None
    return PageFacts(digest, meta, fingerprint, encoded)


def digest_of(raw: bytes) -> bytes:
    """A digest of all of a file's bytes, to tell whether facts still hold.

    XXH3-128: 0.3 µs for a 15 KB page where SHA-256 takes 9 µs, and every page of a
    rebuild is hashed. It guards against accidents, not attacks: a site's author gains
    nothing by making a page collide with its own last version.
    """
    return xxhash.xxh3_128_digest(raw)


def facts_from_bytes(
    raw: bytes, *, fingerprint: bool, digest: bytes | None = None
) -> PageFacts | None:
    """The facts of a whole page's bytes; None when it is too large to parse whole.

    ``digest``: the bytes' digest when the caller has it.
    """
    if len(raw) > MAX_PARSED_BYTES:
        return None
    meta, text = parse_page(raw, at_eof=True, whole=fingerprint)
    if digest is None:
        digest = digest_of(raw)
    if not fingerprint:
        return PageFacts(digest, meta, "")
    # Fingerprints on means a manifest, which keeps the facts for the next build.
    fingerprint_text = fingerprint_html(text) if text is not None else fingerprint_bytes(raw)
    return PageFacts(digest, meta, fingerprint_text, encode_facts(meta, fingerprint_text))


class PageBytes(NamedTuple):
    """One read of a page file: its bytes, their digest and the file's status before."""

    raw: bytes
    at_eof: bool
    digest: bytes
    """Of all the bytes; empty when not all of them were read (too large, or head only)."""
    status: os.stat_result


def read_page_file(path: str, *, whole: bool) -> PageBytes:
    """Read the page at ``path``: all of it with ``whole`` (up to the parsing limit).

    Raises:
        OSError: when the file cannot be opened or read.
    """
    raw, at_eof, status = read_page_bytes(path, whole=whole, max_bytes=MAX_PARSED_BYTES)
    digest = digest_of(raw) if whole and len(raw) <= MAX_PARSED_BYTES else b""
    return PageBytes(raw, at_eof, digest, status)


def facts_of(
    page: PageBytes, path: str, *, fingerprint: bool, known: tuple[PageFacts, ...] = ()
) -> PageFacts:
    """The facts of ``page`` (read from ``path``): one of ``known`` if of the same bytes.

    With ``fingerprint`` the facts carry their digest and encoding, for the manifest.
    """
    if page.digest:
        for candidate in known:
            if candidate.digest == page.digest:
                return candidate
        facts = facts_from_bytes(page.raw, fingerprint=fingerprint, digest=page.digest)
        assert facts is not None
        return facts
    meta = parse_page(page.raw, at_eof=page.at_eof, whole=False)[0]
    if len(page.raw) <= MAX_PARSED_BYTES:  # the head was all that was wanted
        return PageFacts(b"", meta, "")
    # Too large to parse whole: the head only, and a fingerprint of every byte.
    return PageFacts(b"", meta, fingerprint_file(path) if fingerprint else "")


def read_facts(
    path: str, *, fingerprint: bool, known: tuple[PageFacts, ...] = ()
) -> PageFacts:
    """The facts of the page at ``path``: one of ``known`` if taken from the same bytes.

    Raises:
        OSError: when the file cannot be opened or read.
    """
    page = read_page_file(path, whole=fingerprint or bool(known))
    return facts_of(page, path, fingerprint=fingerprint, known=known)


def file_signature(status: os.stat_result, settled_before_ns: int) -> str:
    """What tells a file's bytes apart without reading them; empty when it cannot yet.

    Device, inode, size, modification and change times: any write changes the change time,
    which no tool can set back (``git`` and ``rsync`` trust the same). But a file changed
    shortly before ``settled_before_ns`` could change again within the same tick of the
    file system's clock and keep every time: it gets no signature, so the next build reads
    it. Neither does a file with a modification time in the future.
    """
    if status.st_ctime_ns >= settled_before_ns or status.st_mtime_ns >= settled_before_ns:
        return ""
    return (f"{status.st_dev}:{status.st_ino}:{status.st_size}:{status.st_mtime_ns}:"
            f"{status.st_ctime_ns}")
