"""Values that reach the output whatever a page holds: language tags and XML text."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from collections.abc import Iterable

_T = TypeVar("_T")

# RFC 5646 2.1, narrowed: the primary subtag has two or three letters (IANA registers no
# longer ones), so "english", which pages do write, is refused.
_ALNUM = "[A-Za-z0-9]"
_LANGTAG = (
    r"[A-Za-z]{2,3}(?:-[A-Za-z]{3}){0,3}"  # language, extlang
    r"(?:-[A-Za-z]{4})?"  # script
    r"(?:-(?:[A-Za-z]{2}|[0-9]{3}))?"  # region
    rf"(?:-(?:{_ALNUM}{{5,8}}|[0-9]{_ALNUM}{{3}}))*"  # variants
    rf"(?:-[0-9A-WY-Za-wy-z](?:-{_ALNUM}{{2,8}})+)*"  # extensions (any singleton but x)
    rf"(?:-[Xx](?:-{_ALNUM}{{1,8}})+)?"  # private use
)
_PRIVATE_USE = rf"[Xx](?:-{_ALNUM}{{1,8}})+"  # x-default, which hreflang uses, is one
# The grandfathered tags (RFC 5646 section 2.2.8), irregular and regular.
_GRANDFATHERED = frozenset(tag.lower() for tag in (
    "en-GB-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux",
    "i-mingo", "i-navajo", "i-pwn", "i-tao", "i-tay", "i-tsu", "sgn-BE-FR", "sgn-BE-NL",
    "sgn-CH-DE", "art-lojban", "cel-gaulish", "no-bok", "no-nyn", "zh-guoyu", "zh-hakka",
    "zh-min", "zh-min-nan", "zh-xiang"))
_LANGUAGE_TAG = re.compile(rf"(?:{_LANGTAG}|{_PRIVATE_USE})", re.ASCII)
# No registered tag comes near this; a longer value is not looked at (bounded work).
_MAX_TAG_LENGTH = 64


def is_language_tag(text: str) -> bool:
    """Whether ``text`` is exactly a well-formed BCP 47 tag (``en``, ``zh-Hant-TW``)."""
    if not text or len(text) > _MAX_TAG_LENGTH:
        return False
    return _LANGUAGE_TAG.fullmatch(text) is not None or text.lower() in _GRANDFATHERED


# Well-formed tags naming no language (RFC 5646 4.1, ISO 639-2 special codes, local use
# qaa-qtz, private use, the grandfathered i-default).
_SPECIAL_PRIMARY = frozenset({"und", "mul", "zxx", "mis"})


def names_language(text: str) -> bool:
    """Whether ``text`` is a language tag naming a language (not ``und``, ``x-default``...).

    A page saying none gets no site map page of its own, and a news entry the site's language.
    """
    if not is_language_tag(text):
        return False
    code = text.lower()
    primary = code.partition("-")[0]
    return not (primary in _SPECIAL_PRIMARY or primary == "x" or code == "i-default"
                or (len(primary) == 3 and "qaa" <= primary <= "qtz"))  # noqa: PLR2004


# ISO 639-1, the two-letter codes hreflang takes: a well-formed two-letter code outside it
# names no language (``cz``: Czech is ``cs``), and search engines ignore its alternates.
_ISO_639_1_CODES = (
    "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv "
    "cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr "
    "ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw "
    "ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv "
    "ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr "
    "ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi "
    "yo za zh zu")
_ISO_639_1 = frozenset(_ISO_639_1_CODES.split())


def unknown_language(code: str) -> str | None:
    """Why hreflang ``code`` names no language (one phrase), or None when it names one."""
    if not names_language(code):
        return f"{code!r} is not a language tag"
    primary = code.partition("-")[0].lower()
    if len(primary) == 2 and primary not in _ISO_639_1:  # noqa: PLR2004  # ISO 639-1's
        return f"{code!r} is not an ISO 639-1 language code"
    return None


def untranslated_copy(lang: object, site_lang: object, site_langs: Iterable[object]) -> bool:
    """Whether a page in ``lang`` written into ``site_lang``'s site copies another site's page.

    ``site_langs``: the languages that have a site. i18n fallback pages are copies.
    """
    code = hreflang(lang).lower()
    return (bool(code) and code != hreflang(site_lang).lower()
            and code in {hreflang(other).lower() for other in site_langs})


def hreflang(lang: object) -> str:
    """A host's language name as an hreflang code: ``pt_BR``, a common spelling, is ``pt-BR``."""
    return str(lang or "").strip().replace("_", "-")


def language_group(members: Iterable[tuple[str, _T]],
                   default_lang: str | None) -> tuple[tuple[str, _T], ...]:
    """A page's translations as ``(hreflang, where)``, then ``x-default`` (``default_lang``'s)."""
    group = tuple((hreflang(lang), where) for lang, where in members)
    default = None if default_lang is None else next(
        (where for code, where in group if code == hreflang(default_lang)), None)
    return group if default is None else (*group, ("x-default", default))


# XML 1.0 2.2 Char: no escape makes these legal (C0 controls, U+FFFE/F, lone surrogates from
# non-UTF-8 file names), so they are dropped. Listed, not complemented: 10 times faster.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 forbids (controls, U+FFFE/U+FFFF, surrogates)."""
    if NOT_XML.search(text) is None:  # nearly always: the string itself, no copy
        return text
    return NOT_XML.sub("", text)


FUTURE_SLACK = timedelta(days=1)
"""How far after the clock's now a date may lie before it is taken for a wrong one (time
zones, a build a few hours ahead): the build writes no later lastmod, ``check`` refuses one."""
