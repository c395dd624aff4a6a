"""A narrow, fast reader for page heads, with ``html.parser`` as the fallback.

:func:`parse_head_fast` gives exactly what :func:`sitemap_plugins.head.parse_head` gives, or
None when the markup is anything but plain, so that the caller parses it the slow way. Only
the tokenising is new: the tags that matter (``link``, ``meta``, ``html``, ``base``, ``body``
and ``</head>``) go to the same :class:`~sitemap_plugins.head.HeadParser` handlers, so the
rules (canonical, robots, refresh, hreflang, dates) live in one place.

"Plain" is deliberately strict, so that the answer does not depend on the Python version's
``html.parser`` (3.13 and 3.14 changed how it ends comments and scripts, which elements hold
raw text, and how it reads some attribute values). The fast path gives up on:

* a ``<`` before a letter, ``/``, ``!`` or ``?`` that does not start a well-formed tag,
  comment, doctype or processing instruction: attributes separated by ASCII whitespace, names
  of ASCII letters, digits and ``-_:.``, values double-quoted, single-quoted or bare (no
  whitespace, quotes, ``=``, ``<``, ``>`` or backtick);
* comments that start with ``>`` or ``->`` or hold ``--!>``, ``--`` + space + ``>`` variants;
* ``<script>``/``<style>`` that are self-closing, never end, hold ``<!--``, or end with
  anything but ``</script>`` (ASCII whitespace allowed before ``>``);
* ``<title>``/``<textarea>`` holding a ``<``; any ``<template>``, ``<xmp>``, ``<iframe>``,
  ``<noembed>``, ``<noframes>``, ``<plaintext>``, ``<![CDATA[``, or other ``<!`` declaration;
* an ``&`` in an attribute value that does not start a complete ``&name;``, ``&#N;`` or
  ``&#xH;`` reference, and any NUL character.
"""

from __future__ import annotations

import re
from html import unescape
from typing import TYPE_CHECKING

from sitemap_plugins.head import (
    _MODIFIED_KEYS,
    _PUBLISHED_KEYS,
    HeadParser,
    PageMeta,
    _HeadDone,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

_WS = "[ \\t\\n\\r\\f]"
# One token starting at "<". Group "start" holds a whole start tag; "end" an end tag's name.
_TOKEN = re.compile(
    rf"""<(?:
        (?P<start>[a-zA-Z][a-zA-Z0-9-]*)
        (?P<attrs>(?:{_WS}+[a-zA-Z_:][-a-zA-Z0-9_:.]*
            (?:{_WS}*={_WS}*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)
        {_WS}*(?P<slash>/?)>
      | /(?P<end>[a-zA-Z][-.a-zA-Z0-9:_]*){_WS}*>
      | (?P<comment>!--)
      | ![dD][oO][cC][tT][yY][pP][eE][^<>]*>
      | \?[^<>]*>
      | (?P<bad>[a-zA-Z/!?])
    )""",
    re.VERBOSE,
)
_ATTR = re.compile(
    rf"""{_WS}+([a-zA-Z_:][-a-zA-Z0-9_:.]*)
        (?:{_WS}*={_WS}*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""",
    re.VERBOSE,
)
# Well-formed character references; any other "&" makes the value version-dependent.
_BAD_AMPERSAND = re.compile(r"&(?![a-zA-Z][a-zA-Z0-9]*;|#[0-9]+;|#[xX][0-9a-fA-F]+;)")
_MARKUP = re.compile(r"<[a-zA-Z/!?]")
_COMMENT_END = re.compile(r"--!?\s*>")
_RAW_END = {
    "script": re.compile(r"</\s*script|<!--", re.IGNORECASE),
    "style": re.compile(r"</\s*style|<!--", re.IGNORECASE),
}
_RAW_CLOSE = {
    "script": re.compile(rf"</script{_WS}*>", re.IGNORECASE),
    "style": re.compile(rf"</style{_WS}*>", re.IGNORECASE),
}
_TEXT_CLOSE = {
    "title": re.compile(rf"</title{_WS}*>", re.IGNORECASE),
    "textarea": re.compile(rf"</textarea{_WS}*>", re.IGNORECASE),
}
# The start tags HeadParser looks at (every other one is only stepped over), each with the
# words at least one of which its attributes must hold to matter: a link is read only as a
# canonical or an hreflang alternate, a meta only for robots, refresh and the date keys.
# Keep these in step with HeadParser when it learns to read more.
def _any_of(words: Iterable[str]) -> re.Pattern[str]:
    # Searched in the lower-cased attributes (an IGNORECASE search is ten times slower).
    # "&": a character reference could spell any word, so such tags are always read.
    return re.compile("|".join([*sorted(re.escape(w.lower()) for w in words), "&"]))


_WANTED: dict[str, re.Pattern[str] | None] = {
    "link": _any_of(("canonical", "hreflang")),
    "meta": _any_of(("robots", "googlebot", "refresh", *(_MODIFIED_KEYS | _PUBLISHED_KEYS))),
    "html": None,
    "base": None,
    "body": None,
}
# Elements whose content some html.parser versions read as raw text, or that the HTML
# standard parses in a way html.parser does not (template contents).
_GIVE_UP = frozenset({"template", "xmp", "iframe", "noembed", "noframes", "plaintext"})


def _attributes(raw: str) -> list[tuple[str, str | None]] | None:
    attrs: list[tuple[str, str | None]] = []
    for match in _ATTR.finditer(raw):
        name, double, single, bare = match.groups()
        value = double if double is not None else single if single is not None else bare
        if value and "&" in value:
            if _BAD_AMPERSAND.search(value):
                return None
            value = unescape(value)
        attrs.append((name.lower(), value))
    return attrs


def _scan(text: str, parser: HeadParser) -> bool:
    """Feed the head's tags to ``parser``; False when the markup is not plain.

    Raises:
        _HeadDone: from the parser, at ``<body>`` or ``</head>``.
    """
    search = _TOKEN.search
    pos = 0
    while True:
        match = search(text, pos)
        if match is None:
            return True
        pos = match.end()
        kind = match.lastgroup
        if kind == "slash":  # a start tag (its last group is the optional "/")
            tag = match.group("start").lower()
            if tag in _WANTED:
                raw = match.group("attrs")
                words = _WANTED[tag]
                if words is not None and not words.search(raw.lower()):
                    continue  # a stylesheet, an icon, a viewport...: nothing to read
                attrs = _attributes(raw)
                if attrs is None:
                    return False
                parser.handle_starttag(tag, attrs)
            elif tag in _RAW_END:
                if match.group("slash"):
                    return False
                end = _RAW_END[tag].search(text, pos)
                if end is None or not _RAW_CLOSE[tag].match(text, end.start()):
                    return False
                pos = end.start()
            elif tag in _TEXT_CLOSE:
                # Plain text up to the end tag: nothing a parser could read as markup.
                markup = _MARKUP.search(text, pos)
                if markup is None or not _TEXT_CLOSE[tag].match(text, markup.start()):
                    return False
            elif tag in _GIVE_UP:
                return False
        elif kind == "end":
            if match.group("end").lower() == "head":
                parser.handle_endtag("head")
        elif kind == "comment":
            if text.startswith((">", "->"), pos):
                return False
            close = _COMMENT_END.search(text, pos)
            if close is None or close.group() != "-->":
                return False
            pos = close.end()
        elif kind == "bad":
            return False
        # else a doctype or a processing instruction: nothing to read


def parse_head_fast(text: str) -> PageMeta | None:
    """What :func:`~sitemap_plugins.head.parse_head` returns for ``text``, or None.

    None means the markup is not plain enough for the fast path (see the module docstring);
    parse it with :func:`~sitemap_plugins.head.parse_head` then.
    """
    if "\x00" in text:
        return None
    parser = HeadParser()
    try:
        if not _scan(text, parser):
            return None
    except _HeadDone:
        pass
    return parser.finish()
