"""The official sitemap schemas as data, applied by a small validator for ``check``.

sitemap.xsd, siteindex.xsd, Google's image, video and news schemas and xhtml:link, restated
as a table (no lxml, no copy of Google's XSDs; tests compare them side by side). Stricter
protocol text is in the table too; Google's limits beyond the XSDs are ``beyond`` rules.
"""

from __future__ import annotations

import re
from calendar import monthrange
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from sitemap_plugins.vocab.options import CHANGEFREQ_WORDS
from sitemap_plugins.vocab.urls import url_problem
from sitemap_plugins.vocab.values import is_language_tag

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

    from sitemap_plugins.entry.render import Node

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"
IMAGE = "{http://www.google.com/schemas/sitemap-image/1.1}"
VIDEO = "{http://www.google.com/schemas/sitemap-video/1.1}"
NEWS = "{http://www.google.com/schemas/sitemap-news/0.9}"
XML_NS = "{http://www.w3.org/XML/1998/namespace}"
XSI = "{http://www.w3.org/2001/XMLSchema-instance}"
_PREFIXES = {SITEMAP: "", XHTML: "xhtml:", IMAGE: "image:", VIDEO: "video:", NEWS: "news:",
             XML_NS: "xml:", XSI: "xsi:"}


def foreign(tag: str) -> bool:
    """An element of a namespace no sitemap schema defines (sitemaps.org allows them)."""
    namespace, brace, _ = tag.rpartition("}")
    return bool(brace) and namespace + "}" not in _PREFIXES


# Any schema-aware reader accepts these on any element: they only point at the schema.
_SCHEMA_HINTS = frozenset({f"{XSI}schemaLocation", f"{XSI}noNamespaceSchemaLocation"})

def display(name: str) -> str:
    """A Clark name as a reader writes it: ``lastmod``, ``image:loc``, ``{urn:x}foo``."""
    namespace, brace, local = name.rpartition("}")
    if not brace:
        return name
    prefix = _PREFIXES.get(namespace + "}")
    return f"{prefix}{local}" if prefix is not None else name


# --- the text check (the elements are read by sitemap_plugins.entry.render.parse_xml) ------------


# Markup, so that what lies between is character data: comments, PIs, the declaration,
# CDATA sections, tags (values may hold ">") and a DOCTYPE's internal subset.
_MARKUP = re.compile(
    r"<!--.*?-->|<\?.*?\?>|<!\[CDATA\[.*?\]\]>"
    r"|<!DOCTYPE(?:[^>\"'\[]|\"[^\"]*\"|'[^']*')*\[(?:[^\]\"']|\"[^\"]*\"|'[^']*')*\]\s*>"
    r"|<!(?:[^>\"']|\"[^\"]*\"|'[^']*')*>"
    r"|<(?:[^>\"']|\"[^\"]*\"|'[^']*')*>", re.DOTALL)
_UNESCAPED = re.compile(r"['\"<>]")


def unescaped_text(text: str) -> tuple[int, str] | None:
    """The first character that character data holds as itself but must escape, with its line.

    sitemaps.org, "Entity escaping": every data value escapes ``& ' " < >``.
    """
    position = 0
    for match in _MARKUP.finditer(text):
        found = _UNESCAPED.search(text, position, match.start())
        if found is not None:
            return text.count("\n", 0, found.start()) + 1, found.group(0)
        position = match.end()
    return None


# --- value rules ----------------------------------------------------------------------------

_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)\Z", re.ASCII)
_INTEGER = re.compile(r"[+-]?\d+\Z", re.ASCII)
_DATE = re.compile(
    r"(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})"
    r"(?:T(?P<H>\d{2}):(?P<M>\d{2}):(?P<S>\d{2})(?:\.\d+)?(?P<tz>Z|[+-]\d{2}:\d{2}))?\Z",
    re.ASCII,
)
_MONTHS = 12
_MAX_TZ_MINUTES = 14 * 60  # xs:dateTime: time zones from -14:00 to +14:00
_SHOWN = 100  # longer values are not repeated in messages
_SPACE = re.compile(r"[ \t\r\n]+")
_XML_SPACE = " \t\r\n"
"""XML's white space, all an element-only element may hold (not what ``str.strip`` removes)."""


def collapse(text: str) -> str:
    """XML Schema's whitespace collapse: what anyURI, dates and numbers are read as."""
    return _SPACE.sub(" ", text).strip(" ")


def check_url(text: str) -> str | None:
    """An absolute, escaped http(s) URL of at most 2,048 characters (:func:`.url_problem`)."""
    return url_problem(collapse(text))


def check_date(text: str) -> str | None:
    """A W3C datetime that xs:date or xs:dateTime takes (time: seconds and zone required)."""
    value = collapse(text)
    match = _DATE.match(value)
    if match is None:
        return ("is not a W3C datetime with a time zone (YYYY-MM-DD or "
                "YYYY-MM-DDThh:mm:ss+hh:mm)")
    year, month, day = int(match["y"]), int(match["m"]), int(match["d"])
    if year == 0 or not 1 <= month <= _MONTHS or not 1 <= day <= monthrange(year, month)[1]:
        return "is not a date that exists"
    if match["H"] is not None:
        if int(match["H"]) > 23 or int(match["M"]) > 59 or int(match["S"]) > 59:  # noqa: PLR2004
            return "is not a time that exists"
        zone = match["tz"]
        if zone != "Z":
            hours, minutes = int(zone[1:3]), int(zone[4:6])
            if minutes > 59 or hours * 60 + minutes > _MAX_TZ_MINUTES:  # noqa: PLR2004
                return "has a time zone outside -14:00 to +14:00"
    return None


def _decimal(low: Decimal, high: Decimal) -> Callable[[str], str | None]:
    def check(text: str) -> str | None:
        value = collapse(text)
        if not _DECIMAL.match(value):
            return f"is not a number from {low} to {high}"
        try:
            number = Decimal(value)
        except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
            return f"is not a number from {low} to {high}"
        return None if low <= number <= high else f"is not a number from {low} to {high}"
    return check


def _integer(low: int, high: int | None = None) -> Callable[[str], str | None]:
    def check(text: str) -> str | None:
        value = collapse(text)
        # Decimal, not int: int() refuses more than 4,300 digits.
        if not _INTEGER.match(value) or Decimal(value) < low or (high is not None
                                                                  and Decimal(value) > high):
            upper = f" to {high:,}" if high is not None else " or more"
            return f"is not a whole number from {low}{upper}"
        return None
    return check


def _words(*words: str) -> Callable[[str], str | None]:
    def check(text: str) -> str | None:  # xs:string: no whitespace is stripped
        return None if text in words else f"is not one of {', '.join(words)}"
    return check


def _pattern(regex: str, what: str) -> Callable[[str], str | None]:
    compiled = re.compile(regex)

    def check(text: str) -> str | None:
        return None if compiled.fullmatch(text) else f"is not {what}"
    return check


def _text(most: int | None = None) -> Callable[[str], str | None]:
    def check(text: str) -> str | None:
        if most is not None and len(text) > most:
            return f"has {len(text):,} characters; at most {most:,} are allowed"
        return None
    return check


def _language(text: str) -> str | None:
    # Stricter than xs:language, as engines are: "english" is no hreflang Google reads.
    return None if is_language_tag(text) else "is not a BCP 47 language tag (such as 'en-GB')"


_YES_NO = _words("yes", "Yes", "YES", "no", "No", "NO")
_ALLOW_DENY = _words("allow", "deny")
# XML Schema's \w is wider than Python's; [^\W_] keeps to letters and digits.
_TICKER = r"[^\W_]+:[^\W_]+"


# --- the element table ----------------------------------------------------------------------

@dataclass(frozen=True)
class Element:
    """What an element may hold, per its schema.

    ``children`` (name, least, most) in order, or a ``text`` rule; ``extensions`` after the
    sequence (``any ##other``); ``unordered``: ``xsd:all``.
    """

    children: tuple[tuple[str, int, int | None], ...] = ()
    text: Callable[[str], str | None] | None = None
    attributes: Mapping[str, Callable[[str], str | None]] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    extensions: frozenset[str] = frozenset()
    unordered: bool = False
    empty: bool = False
    """Nothing inside, not even white space (XHTML's link is EMPTY)."""
    beyond: Callable[[Node], str | None] | None = None
    """A rule of Google's pages (or the XSD's words) the XSD's grammar lacks (``check`` only)."""
    deprecated: bool = False
    """Google no longer reads it (the image tags other than image:loc, 2022): a warning."""


_ANY_TEXT = _text()
_ZERO = re.compile(r"[+-]?0+", re.ASCII)  # a whole number that is zero, as xs:integer reads it


def _at_most(child: str, most: int) -> Callable[[Node], str | None]:
    def check(node: Node) -> str | None:
        count = sum(1 for item in node.children if item.tag == child)
        return (f"{count:,} {display(child)} elements; Google takes at most {most:,} a page"
                if count > most else None)
    return check


def _longest(most: int) -> Callable[[Node], str | None]:
    def check(node: Node) -> str | None:
        return (f"{display(node.tag)} has {len(node.text):,} characters; Google takes at most "
                f"{most}" if len(node.text) > most else None)
    return check


def _filled(node: Node) -> str | None:
    return None if node.text.strip() else f"{display(node.tag)} is empty"


def _video(node: Node) -> str | None:
    tags = {child.tag for child in node.children}
    return (None if tags & {f"{VIDEO}content_loc", f"{VIDEO}player_loc"}
            else "video:video has neither content_loc nor player_loc")


def _news(node: Node) -> str | None:  # sitemap-news.xsd makes it optional; Google requires it
    title = node.find(f"{NEWS}title")
    return (None if title is not None and title.text.strip()
            else "news:title is missing or empty (Google News requires it)")


def _seconds(node: Node) -> str | None:
    return ("video:duration is 0; Google takes 1 to 28,800 seconds (leave it out when unknown)"
            if _ZERO.fullmatch(collapse(node.text)) else None)


def _price(node: Node) -> str | None:
    # sitemap-video.xsd's own words: a price is a non-negative decimal or empty; with a
    # value the currency is required, without one the type.
    value = collapse(node.text)
    if value and (not _DECIMAL.match(value) or value.startswith("-")):
        return f"video:price {_shown(value)} is not a non-negative number"
    if value and "currency" not in node.attributes:
        return "video:price gives a price without its currency (sitemap-video.xsd requires it)"
    if not value and "type" not in node.attributes:
        return "video:price is empty and has no type (sitemap-video.xsd requires one then)"
    return None


def beyond_schema(node: Node) -> Iterator[tuple[str, bool]]:
    """What the table adds to the schemas' grammar in ``node`` and below: (message, warning).

    Google's limits, the XSDs' words and Google's deprecated tags (a warning).
    """
    spec = ELEMENTS.get(node.tag)
    if spec is None:
        return
    if spec.deprecated:
        yield (f"{display(node.tag)} is deprecated: Google reads only image:loc (leave it "
               "out)"), True
    reason = spec.beyond(node) if spec.beyond is not None else None
    if reason is not None:
        yield reason, False
    allowed = spec.extensions | {tag for tag, _, _ in spec.children}
    for child in node.children:
        if child.tag in allowed:
            yield from beyond_schema(child)


EXTENSIONS = frozenset({f"{XHTML}link", f"{IMAGE}image", f"{VIDEO}video", f"{NEWS}news"})
"""The elements a <url> may hold after its own four (Google's extensions; xhtml:link)."""

# XML's name characters beyond letters and digits (XML 1.0 fifth edition, NameChar).
_NAME_MORE = "\\-.\u00b7\u0300-\u036f\u203f-\u2040"
_NMTOKEN = re.compile(rf"[\w:{_NAME_MORE}]+")
# xs:ID is an NCName: no colon, a letter or "_" first (\w stands in for XML's letters).
_NCNAME = re.compile(rf"(?!\d)[\w][\w{_NAME_MORE}]*")


def _xhtml_id(text: str) -> str | None:
    # The same id twice in one file is caught where the file is seen (validate_entry).
    return None if _NCNAME.fullmatch(collapse(text)) else "is not an XML name (xs:ID)"


def _name_tokens(text: str) -> str | None:  # xs:NMTOKENS (lxml takes an empty list)
    tokens = collapse(text).split(" ") if collapse(text) else []
    good = all(_NMTOKEN.fullmatch(token) for token in tokens)
    return None if good else "is not a list of XML name tokens (xs:NMTOKENS)"


def _direction(text: str) -> str | None:  # an xs:token: white space is collapsed first
    return None if collapse(text) in ("ltr", "rtl") else "is not one of ltr, rtl"


_XHTML_LINK_ATTRIBUTES: dict[str, Callable[[str], str | None]] = dict.fromkeys((
    "style", "title", "charset", "type", "onclick", "ondblclick", "onmousedown", "onmouseup",
    "onmouseover", "onmousemove", "onmouseout", "onkeypress", "onkeydown", "onkeyup"),
    _ANY_TEXT)
_XHTML_LINK_ATTRIBUTES.update({
    "href": check_url, "hreflang": _language, "rel": _ANY_TEXT, f"{XML_NS}lang": _language,
    "lang": _language, "id": _xhtml_id, "class": _name_tokens, "rev": _name_tokens,
    "dir": _direction,
    # XHTML's MediaDesc: media descriptors separated by commas, none empty.
    "media": _pattern(r"[^,]+(?:,[ \t\r\n]*[^,]+)*", "a comma-separated list of media"),
})

ELEMENTS: dict[str, Element] = {
    # sitemap.xsd
    f"{SITEMAP}urlset": Element(children=((f"{SITEMAP}url", 1, None),)),
    f"{SITEMAP}url": Element(
        children=((f"{SITEMAP}loc", 1, 1), (f"{SITEMAP}lastmod", 0, 1),
                  (f"{SITEMAP}changefreq", 0, 1), (f"{SITEMAP}priority", 0, 1)),
        extensions=EXTENSIONS, beyond=_at_most(f"{IMAGE}image", 1_000)),
    f"{SITEMAP}loc": Element(text=check_url),
    f"{SITEMAP}lastmod": Element(text=check_date),
    f"{SITEMAP}changefreq": Element(text=_words(*CHANGEFREQ_WORDS)),
    f"{SITEMAP}priority": Element(text=_decimal(Decimal("0.0"), Decimal("1.0"))),
    # siteindex.xsd
    f"{SITEMAP}sitemapindex": Element(children=((f"{SITEMAP}sitemap", 1, None),)),
    f"{SITEMAP}sitemap": Element(
        children=((f"{SITEMAP}loc", 1, 1), (f"{SITEMAP}lastmod", 0, 1)), unordered=True),
    # xhtml1-strict.xsd: link is empty and takes only the attributes XHTML gives it.
    f"{XHTML}link": Element(attributes=_XHTML_LINK_ATTRIBUTES, empty=True),
    # sitemap-image.xsd
    f"{IMAGE}image": Element(children=(
        (f"{IMAGE}loc", 1, 1), (f"{IMAGE}caption", 0, 1), (f"{IMAGE}geo_location", 0, 1),
        (f"{IMAGE}title", 0, 1), (f"{IMAGE}license", 0, 1))),
    f"{IMAGE}loc": Element(text=check_url),
    f"{IMAGE}caption": Element(text=_ANY_TEXT, deprecated=True),
    f"{IMAGE}geo_location": Element(text=_ANY_TEXT, deprecated=True),
    f"{IMAGE}title": Element(text=_ANY_TEXT, deprecated=True),
    f"{IMAGE}license": Element(text=check_url, deprecated=True),
    # sitemap-video.xsd
    f"{VIDEO}video": Element(beyond=_video, children=(
        (f"{VIDEO}thumbnail_loc", 1, 1), (f"{VIDEO}title", 1, 1),
        (f"{VIDEO}description", 1, 1), (f"{VIDEO}content_loc", 0, 1),
        (f"{VIDEO}player_loc", 0, 1), (f"{VIDEO}duration", 0, 1),
        (f"{VIDEO}expiration_date", 0, 1), (f"{VIDEO}rating", 0, 1),
        (f"{VIDEO}content_segment_loc", 0, None), (f"{VIDEO}view_count", 0, 1),
        (f"{VIDEO}publication_date", 0, 1), (f"{VIDEO}tag", 0, 32),
        (f"{VIDEO}category", 0, 1), (f"{VIDEO}family_friendly", 0, 1),
        (f"{VIDEO}restriction", 0, 1), (f"{VIDEO}gallery_loc", 0, 1),
        (f"{VIDEO}price", 0, None), (f"{VIDEO}requires_subscription", 0, 1),
        (f"{VIDEO}uploader", 0, 1), (f"{VIDEO}tvshow", 0, 1), (f"{VIDEO}platform", 0, 1),
        (f"{VIDEO}live", 0, 1), (f"{VIDEO}id", 0, None))),
    f"{VIDEO}thumbnail_loc": Element(text=check_url),
    f"{VIDEO}title": Element(text=_text(100), beyond=_filled),
    f"{VIDEO}description": Element(text=_text(2048), beyond=_filled),
    f"{VIDEO}content_loc": Element(text=check_url),
    f"{VIDEO}player_loc": Element(
        text=check_url, attributes={"allow_embed": _YES_NO, "autoplay": _ANY_TEXT}),
    f"{VIDEO}duration": Element(text=_integer(0, 28_800), beyond=_seconds),
    f"{VIDEO}expiration_date": Element(text=check_date),
    f"{VIDEO}rating": Element(text=_decimal(Decimal(0), Decimal(5))),
    f"{VIDEO}content_segment_loc": Element(
        text=check_url, attributes={"duration": _integer(0, 28_800)}),
    f"{VIDEO}view_count": Element(text=_integer(0)),
    f"{VIDEO}publication_date": Element(text=check_date),
    f"{VIDEO}tag": Element(text=_ANY_TEXT),
    f"{VIDEO}category": Element(text=_text(256)),
    f"{VIDEO}family_friendly": Element(text=_YES_NO),
    f"{VIDEO}restriction": Element(
        text=_pattern(r"(?:[A-Z]{2}(?: +[A-Z]{2})*)?", "a list of country codes"),
        attributes={"relationship": _ALLOW_DENY}, required=("relationship",)),
    f"{VIDEO}gallery_loc": Element(text=check_url, attributes={"title": _ANY_TEXT}),
    f"{VIDEO}price": Element(text=_ANY_TEXT, beyond=_price, attributes={
        "currency": _pattern(r"[A-Z]{3}", "an ISO 4217 currency code"),
        "type": _words("purchase", "PURCHASE", "rent", "RENT"),
        "resolution": _words("sd", "SD", "hd", "HD")}),
    f"{VIDEO}requires_subscription": Element(text=_YES_NO),
    f"{VIDEO}uploader": Element(text=_ANY_TEXT, attributes={"info": check_url},
                                beyond=_longest(255)),
    f"{VIDEO}tvshow": Element(children=(
        (f"{VIDEO}show_title", 1, 1), (f"{VIDEO}video_type", 1, 1),
        (f"{VIDEO}episode_title", 0, 1), (f"{VIDEO}season_number", 0, 1),
        (f"{VIDEO}episode_number", 0, 1), (f"{VIDEO}premier_date", 0, 1))),
    f"{VIDEO}show_title": Element(text=_ANY_TEXT),
    f"{VIDEO}video_type": Element(
        text=_words("full", "preview", "clip", "interview", "news", "other")),
    f"{VIDEO}episode_title": Element(text=_ANY_TEXT),
    f"{VIDEO}season_number": Element(text=_integer(1)),
    f"{VIDEO}episode_number": Element(text=_integer(1)),
    f"{VIDEO}premier_date": Element(text=check_date),
    f"{VIDEO}platform": Element(
        text=_pattern(r"(?:(?:web|mobile|tv)(?: (?:web|mobile|tv))*)?", "a list of platforms"),
        attributes={"relationship": _ALLOW_DENY}, required=("relationship",)),
    f"{VIDEO}live": Element(text=_YES_NO),
    f"{VIDEO}id": Element(text=_ANY_TEXT, required=("type",), attributes={"type": _words(
        "tms:series", "tms:program", "rovi:series", "rovi:program", "freebase", "url")}),
    # sitemap-news.xsd
    f"{NEWS}news": Element(beyond=_news, children=(
        (f"{NEWS}publication", 1, 1), (f"{NEWS}access", 0, 1), (f"{NEWS}genres", 0, 1),
        (f"{NEWS}publication_date", 1, 1), (f"{NEWS}title", 0, 1),
        (f"{NEWS}keywords", 0, 1), (f"{NEWS}stock_tickers", 0, 1))),
    f"{NEWS}publication": Element(children=((f"{NEWS}name", 1, 1), (f"{NEWS}language", 1, 1))),
    f"{NEWS}name": Element(text=_ANY_TEXT, beyond=lambda node: None if node.text.strip()
                           else "news:publication has no name"),
    f"{NEWS}language": Element(
        text=_pattern(r"zh-cn|zh-tw|[a-z]{2,3}", "an ISO 639 language code")),
    f"{NEWS}access": Element(text=_words("Subscription", "Registration")),
    f"{NEWS}genres": Element(text=_pattern(
        r"(?:PressRelease|Satire|Blog|OpEd|Opinion|UserGenerated)"
        r"(?:, *(?:PressRelease|Satire|Blog|OpEd|Opinion|UserGenerated))*", "a list of genres")),
    f"{NEWS}publication_date": Element(text=check_date),
    f"{NEWS}title": Element(text=_ANY_TEXT),
    f"{NEWS}keywords": Element(text=_ANY_TEXT),
    f"{NEWS}stock_tickers": Element(text=_pattern(
        rf"(?:{_TICKER}(?:, *{_TICKER}){{0,4}})?", "a list of up to 5 stock tickers")),
}


_ROOTS = (f"{SITEMAP}urlset", f"{SITEMAP}sitemapindex")


def validate_root(root: Node, entries: int) -> list[tuple[int, str]]:
    """What breaks the schemas in the root element itself, which held ``entries`` children."""
    if root.tag not in _ROOTS:
        return [(root.line, (f"root element is {display(root.tag)}, not the sitemaps.org 0.9 "
                            "urlset or sitemapindex"))]
    problems: list[tuple[int, str]] = []
    name = display(root.tag)
    _check_attributes(root, ELEMENTS[root.tag], problems)
    stray = root.text.strip(_XML_SPACE)
    if stray:
        problems.append((root.line, (f"<{name}> holds text {_shown(stray)}; only "
                                    "elements may stand here")))
    if entries == 0:
        child = display(ELEMENTS[root.tag].children[0][0])
        problems.append((root.line, f"<{name}> lacks <{child}>"))
    return problems


def validate_entry(root: Node, node: Node, ids: set[str] | None = None) -> list[tuple[int, str]]:
    """What breaks the schemas in one child of the root (a <url>, a <sitemap>).

    ``ids``: the file's xs:ID values so far (xhtml:link's ``id``, unique in a file).
    """
    if root.tag not in _ROOTS:
        return []  # the root is reported, once
    problems: list[tuple[int, str]] = []
    if root.tag == f"{SITEMAP}urlset" and foreign(node.tag):
        return []
    if node.tag != ELEMENTS[root.tag].children[0][0]:
        problems.append((node.line, (f"<{display(root.tag)}> may not hold "
                                    f"<{display(node.tag)}> (an element no schema allows "
                                    "here)")))
        return problems
    _validate(node, ELEMENTS[node.tag], problems)
    if ids is not None:
        for child in node.children:
            if child.tag == f"{XHTML}link" and "id" in child.attributes:
                value = collapse(child.attributes["id"])
                if value in ids:
                    problems.append((child.line, (f"<xhtml:link> id {value!r} is used twice in "
                                                 "the file (an xs:ID must be unique)")))
                ids.add(value)
    return problems


def _check_attributes(node: Node, spec: Element, problems: list[tuple[int, str]]) -> None:
    name = display(node.tag)
    for attribute, value in node.attributes.items():
        rule = spec.attributes.get(attribute)
        if rule is None:
            if attribute not in _SCHEMA_HINTS:
                problems.append((node.line, (f"<{name}> has an unknown attribute "
                                             f"{display(attribute)}")))
            continue
        reason = rule(value)
        if reason is not None:
            problems.append((node.line, (f"<{name}> attribute {display(attribute)} "
                                         f"{value!r} {reason}")))
    problems.extend((node.line, f"<{name}> lacks the attribute {attribute}")
                    for attribute in spec.required if attribute not in node.attributes)


def _validate(node: Node, spec: Element, problems: list[tuple[int, str]]) -> None:
    name = display(node.tag)
    _check_attributes(node, spec, problems)
    if spec.text is not None:
        if node.children:
            problems.append((node.line, (f"<{name}> may hold only text, not "
                                         f"<{display(node.children[0].tag)}>")))
            return
        reason = spec.text(node.text)
        if reason is not None:
            shown = f" {node.text!r}" if len(node.text) <= _SHOWN else ""
            problems.append((node.line, f"{name}{shown} {reason}"))
        return
    if spec.empty and node.text:
        problems.append((node.line, (f"<{name}> holds text {_shown(node.text)}; it must be "
                                     "empty, not even white space")))
        return
    stray = node.text.strip(_XML_SPACE)
    if stray:
        problems.append((node.line, (f"<{name}> holds text {_shown(stray)}; only "
                                     "elements may stand here")))
    _validate_children(node, spec, problems)


def _validate_children(node: Node, spec: Element, problems: list[tuple[int, str]]) -> None:
    name = display(node.tag)
    order = {child: index for index, (child, _, _) in enumerate(spec.children)}
    counts = [0] * len(spec.children)
    position = 0
    for child in node.children:
        index = order.get(child.tag)
        if index is None:
            if child.tag in spec.extensions or (spec.extensions and foreign(child.tag)):
                position = len(spec.children)
                if child.tag in ELEMENTS:
                    _validate(child, ELEMENTS[child.tag], problems)
            else:
                problems.append((child.line, (f"<{name}> may not hold <{display(child.tag)}> "
                                             "(an element no schema allows here)")))
            continue
        _, _, most = spec.children[index]
        counts[index] += 1
        ignored = ELEMENTS[child.tag].deprecated  # read by no engine: its place is no fault
        if most is not None and counts[index] > most:
            problems.append((child.line, (f"<{name}> holds <{display(child.tag)}> more than "
                                         f"{most} time{'s' if most > 1 else ''}")))
        elif index < position and not spec.unordered and not ignored:
            sequence = ", ".join(display(tag) for tag, _, _ in spec.children[:5])
            problems.append((child.line, (f"<{name}>: <{display(child.tag)}> is out of order "
                                         f"(the order is {sequence}"
                                         f"{', ...' if len(spec.children) > 5 else ''}"  # noqa: PLR2004
                                         f"{', then extensions' if spec.extensions else ''})")))
        position = max(position, index)
        _validate(child, ELEMENTS[child.tag], problems)
    for index, (child_name, least, _) in enumerate(spec.children):
        if counts[index] < least:
            problems.append((node.line, f"<{name}> lacks <{display(child_name)}>"))


def _shown(text: str, most: int = 80) -> str:
    return repr(text) if len(text) <= most else repr(text[:most]) + "..."
