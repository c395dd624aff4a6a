"""A page's record as the record cache keeps it: one JSON text, checked field by field.

Nothing decoded is trusted: a damaged or forged row decodes to None and costs a parse.
"""

from __future__ import annotations

import json
import re

from sitemap_plugins.page.content import Video
from sitemap_plugins.page.reader import PageRecord
from sitemap_plugins.vocab.values import NOT_XML

# One encoder for every record; ASCII output keeps a lone surrogate too.
_RECORD_ENCODER = json.JSONEncoder(separators=(",", ":"))


def encode_record(record: PageRecord) -> str:
    """The record as one JSON text, for the record cache."""
    return _RECORD_ENCODER.encode(
        [record.fingerprint, record.html, record.canonical, sorted(record.robots),
         record.refresh_url, record.alternates, record.lang, record.base_href, record.modified,
         record.published, record.title, record.heading, record.description, record.og_title,
         record.feeds, record.images, record.videos, record.problems, record.source_link])


def _str_or_none(value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError
    return value


def _strings(value: object, width: int = 0) -> tuple[object, ...]:
    """A list of strings, or (``width``) of lists of that many strings, as tuples."""
    if type(value) is not list:
        raise TypeError
    if not value:
        return ()
    if not width:
        for item in value:
            if type(item) is not str:
                raise TypeError
        return tuple(value)
    found = []
    for item in value:
        if type(item) is not list or len(item) != width:
            raise TypeError
        for part in item:
            if type(part) is not str:
                raise TypeError
        found.append(tuple(item))
    return tuple(found)


# A record holds what a page's head and main content say: far less than this.
MAX_RECORD_TEXT = 4 * 1024 * 1024
_FINGERPRINT = re.compile(r"[\x21-\x7e]{1,256}\Z")
# What XML 1.0 cannot hold is never taken from a cache. The encoder escapes all non-ASCII,
# so only a record matching this needs a closer look at its strings.
_MAYBE_NOT_XML = re.compile(
    r"\\(?:[bf]|u(?:00[01]|[dD][89a-fA-F]|[fF]{3}[eEfF]))|[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _all_text_clean(value: object) -> bool:
    """Whether every string in a decoded JSON value is text XML can hold."""
    if isinstance(value, str):
        return not NOT_XML.search(value)
    if isinstance(value, list):
        return all(_all_text_clean(item) for item in value)
    return True


def decode_record(text: str) -> PageRecord | None:
    """What :func:`encode_record` wrote, every field checked; None for anything else."""
    if not isinstance(text, str) or len(text) > MAX_RECORD_TEXT:
        return None
    try:
        fields = json.loads(text)
        if type(fields) is not list or (
                _MAYBE_NOT_XML.search(text) and not _all_text_clean(fields)):
            return None
        (fingerprint, html, canonical, robots, refresh_url, alternates, lang, base_href,
         modified, published, title, heading, description, og_title, feeds, images, videos,
         problems, source_link) = fields
        if (not isinstance(fingerprint, str) or not _FINGERPRINT.match(fingerprint)
                or not isinstance(html, bool)):
            return None
        return PageRecord(
            fingerprint=fingerprint, html=html, canonical=_str_or_none(canonical),
            robots=frozenset(_strings(robots)),  # type: ignore[arg-type]
            refresh_url=_str_or_none(refresh_url),
            alternates=_strings(alternates, 2),  # type: ignore[arg-type]
            lang=_str_or_none(lang), base_href=_str_or_none(base_href),
            modified=_str_or_none(modified), published=_str_or_none(published),
            title=_str_or_none(title), heading=_str_or_none(heading),
            description=_str_or_none(description), og_title=_str_or_none(og_title),
            feeds=_strings(feeds),  # type: ignore[arg-type]
            images=_strings(images),  # type: ignore[arg-type]
            videos=tuple(Video(*v) for v in _strings(videos, len(Video._fields))),  # type: ignore[misc]
            problems=_strings(problems, 2),  # type: ignore[arg-type]
            source_link=_str_or_none(source_link),
        )
    except (ValueError, TypeError, RecursionError):
        return None
