"""What a page says of itself, and the dates a host knows of it, as the core's date claims.

Every host reads a page's own values where its authors write them (MkDocs' front matter,
Pelican's metadata, Sphinx's file-wide fields) and knows dates of its own (the source's last
commit, the files it includes). The adapters hand over what they read; this module checks it
by the one policy (:func:`~sitemap_plugins.vocab.options.check_page_values`), reads the dates the
way
front matter gives them, and makes the claims that
:func:`~sitemap_plugins.entry.rules.choose_lastmod`
picks from, so that the three hosts date a page alike.

Floor: the middle (pure: it opens no file and logs nothing; a host says what it could not use).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import TYPE_CHECKING

from sitemap_plugins.entry.rules import (
    EXPLICIT,
    FILE_TIME,
    GIT,
    GIT_ADDED,
    LISTED,
    MODIFIED,
    PUBLISHED,
    DateClaim,
    choose_lastmod,
)
from sitemap_plugins.vocab.dates import Lastmod, coerce_lastmod, parse_w3c
from sitemap_plugins.vocab.options import NO_PAGE_VALUES, PAGE_VALUE_BY_NAME, check_page_values

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable


@dataclass(frozen=True)
class OwnValues:
    """A page's own sitemap values and stated dates, checked; None where it says nothing."""

    exclude: bool = False
    """``sitemap: false`` (or its host's spelling): the page is left out."""
    lastmod: Lastmod | None = None
    """The author's word for the sitemap (MkDocs ``sitemap: {lastmod: ...}``, Pelican
    ``Lastmod:``): it wins over every other date."""
    changefreq: str | None = None
    priority: float | None = None
    published: Lastmod | None = None
    """When the page was first published: ``date`` (Material blog: ``date.created``)."""
    updated: Lastmod | None = None
    """Its stated last change (Material blog's ``date.updated``, Pelican's ``Modified:``)."""
    private: bool = False
    """Pelican's ``Private: True``: left out, with its own reason."""
    unread_date: object = None
    """The page's ``date`` as given, when it is not a date (the host may say so)."""


NO_OWN_VALUES = OwnValues()


def own_values(given: Mapping[str, object], where: str, *, date_value: object = None,
               keys: Collection[str] = PAGE_VALUE_BY_NAME) -> OwnValues:
    """What a page says of itself: its page values by the one policy, and its ``date``.

    ``given`` maps page-value names to what the host read (None: not given), ``where`` is
    the page's source path, which a message names, ``keys`` the names the host's syntax
    takes there. ``date_value`` is the page's ``date`` as the host read it (see
    :func:`stated_date`).

    Raises:
        PageValueError: for the first unknown key or bad value; it stops the build.

    """
    values = check_page_values(given, where, keys)
    if values is NO_PAGE_VALUES and date_value is None:
        return NO_OWN_VALUES  # most pages say nothing of themselves: nothing to make
    if values.sitemap is False:  # its values are kept: a listing may still show its date
        return OwnValues(exclude=True, lastmod=values.lastmod, changefreq=values.changefreq,
                         priority=values.priority, private=bool(values.private))
    published = stated_date(date_value, first=True)
    updated = (stated_date(date_value) if isinstance(date_value, Mapping)
               and date_value.get("updated") is not None else None)
    latest = ((date_value.get("updated") or date_value.get("created"))
              if isinstance(date_value, Mapping) else date_value)
    # Said once, for the date that would be the lastmod (a list is no date, and says nothing).
    unread = (latest if values.lastmod is None and latest is not None
              and not isinstance(latest, list) and stated_date(date_value) is None else None)
    return OwnValues(lastmod=values.lastmod, changefreq=values.changefreq,
                     priority=values.priority, published=published, updated=updated,
                     private=bool(values.private), unread_date=unread)


def stated_date(value: object, *, first: bool = False) -> Lastmod | None:
    """A page's ``date`` as a lastmod; None when it is no date.

    As front matter or metadata give it: a date, a datetime, W3C text, or Material blog's
    ``{created, updated}``.

    ``first``: when the page was created (its publication), else its latest date.
    """
    if value is None:
        return None
    if isinstance(value, Mapping):
        value = value.get("created") if first else value.get("updated") or value.get("created")
        if value is None:
            return None
        # Material's blog turns a bare date into midnight UTC in place; it was a date.
        if (isinstance(value, datetime) and value.utcoffset() == timedelta(0)
                and value.time() == time(0)):
            value = value.date()
    if isinstance(value, list):
        return None
    return coerce_lastmod(value) if isinstance(value, (str, date)) else None


def in_zone(value: datetime, zone_name: str) -> datetime | None:
    """``value``'s wall-clock time in the zone named ``zone_name``; None for no such zone.

    A host's naive times are in a zone its settings name (an IANA name, ``Europe/Paris``):
    Pelican's ``TIMEZONE``, the ``timezone`` of MkDocs' git-revision-date-localized.
    """
    # Imported here: only hosts that name a zone for naive times come this way (2 ms).
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # noqa: PLC0415

    try:
        return value.replace(tzinfo=ZoneInfo(zone_name))
    except (ValueError, ZoneInfoNotFoundError):
        return None


def zoned_time(stamp: object, zone_name: str, day: object = None) -> Lastmod | None:
    """ISO 8601 text ``stamp`` as its wall-clock time in the zone named ``zone_name``.

    Else ``day``, W3C text; None when neither is one. A host's dates given as text in a zone
    of its settings: the times mkdocs-git-revision-date-localized stamps, say.
    """
    try:
        found = datetime.fromisoformat(stamp) if isinstance(stamp, str) else None
    except ValueError:
        found = None  # its day, below
    zoned = in_zone(found, zone_name) if found is not None else None
    if zoned is not None:
        return zoned
    return parse_w3c(day) if isinstance(day, str) else None


def aware(value: object, zone_name: str) -> Lastmod | None:
    """A host's date as a plain, timezone-aware lastmod.

    A naive time is in the zone named ``zone_name`` (UTC when there is no such zone); a
    subclass (Pelican's ``SafeDatetime``) becomes a plain datetime, cheap to pickle.
    """
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = in_zone(value, zone_name) or value.replace(tzinfo=timezone.utc)
        return datetime(value.year, value.month, value.day, value.hour, value.minute,
                        value.second, tzinfo=value.tzinfo)
    if isinstance(value, date):
        return date(value.year, value.month, value.day)
    return coerce_lastmod(value)


def date_claims(own: OwnValues, commits: Iterable[tuple[Lastmod, bool]] = (),
                file_time: Lastmod | None = None) -> tuple[DateClaim, ...]:
    """The dates a host knows of a page, each with what it is (see ``rules.choose_lastmod``).

    The page's own word for the sitemap, its stated last change and its publication; then
    ``commits``: ``(date, only added)`` of the last commit of its source and of each file it
    includes (a commit that only added the file is weaker evidence). ``file_time`` (under
    ``lastmod_file_time``) counts only when nothing else is known.
    """
    claims: list[DateClaim] = []
    if own.lastmod is not None:
        claims.append(DateClaim(EXPLICIT, own.lastmod, EXPLICIT))
    if own.updated is not None:
        claims.append(DateClaim(MODIFIED, own.updated, EXPLICIT))
    if own.published is not None:
        claims.append(DateClaim(PUBLISHED, own.published))
    claims.extend(DateClaim(GIT_ADDED if only_added else GIT, when)
                  for when, only_added in commits)
    if not claims and file_time is not None:
        claims.append(DateClaim(FILE_TIME, file_time, FILE_TIME))
    return tuple(claims)


def chosen_date(claims: Iterable[DateClaim]) -> Lastmod | None:
    """The date the one rule (:func:`~sitemap_plugins.entry.rules.choose_lastmod`) picks; None."""
    chosen = choose_lastmod(claims)
    return chosen.value if chosen is not None else None


def listing_claims(shown: Iterable[Lastmod | None]) -> tuple[DateClaim, ...]:
    """A listing's dates: the chosen date of each page it shows (a blog index, a tag page).

    It changed when the newest of them did.
    """
    return tuple(DateClaim(LISTED, when) for when in shown if when is not None)


def with_listings(claims: Mapping[str, tuple[DateClaim, ...]],
                  shows: Mapping[str, Iterable[str]]) -> dict[str, tuple[DateClaim, ...]]:
    """Each page's claims; a listing's with the chosen date of each page it shows.

    ``shows``: by page, the pages it lists (:func:`listing_claims`), among ``claims``' keys.
    """
    chosen = {page: chosen_date(found) for page, found in claims.items()}
    return {page: (*found, *listing_claims(chosen.get(shown) for shown in shows.get(page, ())))
            for page, found in claims.items()}
