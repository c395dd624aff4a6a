"""What the sitemap takes from one page's bytes: its head and its fingerprint.

Both depend on the bytes alone, so they can be worked out ahead of time (see
:mod:`sitemap_plugins.readahead`) and trusted later when a digest of the file's bytes still
matches.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sitemap_plugins.fingerprint import (
    MAX_PARSED_BYTES,
    fingerprint_bytes,
    fingerprint_file,
    fingerprint_html,
)
from sitemap_plugins.head import PageMeta, parse_page, read_page_bytes


@dataclass(frozen=True)
class PageFacts:
    """The head and fingerprint of a page, with a digest of the bytes they come from."""

    digest: bytes
    meta: PageMeta
    fingerprint: str
    """Empty when fingerprints are off."""


def digest_of(raw: bytes) -> bytes:
    """A digest of all of a file's bytes, to tell whether facts still hold.

    SHA-256: processors have instructions for it, so it is twice as fast as BLAKE2 here.
    """
    return hashlib.sha256(raw).digest()


def facts_from_bytes(
    raw: bytes, *, fingerprint: bool, digest: bytes | None = None
) -> PageFacts | None:
    """The facts of a whole page's bytes; None when it is too large to parse whole.

    ``digest``: the bytes' digest when the caller has it (empty: not wanted).
    """
    if len(raw) > MAX_PARSED_BYTES:
        return None
    meta, text = parse_page(raw, at_eof=True, whole=fingerprint)
    if digest is None:
        digest = digest_of(raw)
    if not fingerprint:
        return PageFacts(digest, meta, "")
    return PageFacts(digest, meta,
                     fingerprint_html(text) if text is not None else fingerprint_bytes(raw))


def read_facts(path: str, *, fingerprint: bool, known: PageFacts | None = None) -> PageFacts:
    """The facts of the page at ``path``: ``known`` when its bytes have not changed since.

    Raises:
        OSError: when the file cannot be opened or read.
    """
    if known is None and not fingerprint:
        raw, at_eof = read_page_bytes(path, whole=False, max_bytes=MAX_PARSED_BYTES)
        return PageFacts(b"", parse_page(raw, at_eof=at_eof, whole=False)[0], "")
    raw, at_eof = read_page_bytes(path, whole=True, max_bytes=MAX_PARSED_BYTES)
    if len(raw) <= MAX_PARSED_BYTES:
        digest = b""  # only worth working out to compare with what was read ahead
        if known is not None:
            digest = digest_of(raw)
            if digest == known.digest:
                return known
        facts = facts_from_bytes(raw, fingerprint=fingerprint, digest=digest)
        assert facts is not None
        return facts
    # Too large to parse whole: the head only, and a fingerprint of every byte.
    meta = parse_page(raw, at_eof=at_eof, whole=False)[0]
    return PageFacts(b"", meta, fingerprint_file(path) if fingerprint else "")
