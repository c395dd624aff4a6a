"""W3C datetime parsing and formatting, and the build's notion of "now".

Inside the core every lastmod is a ``date`` or an aware ``datetime``; text only when rendering.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

Lastmod = date | datetime  # a datetime is always timezone-aware here
MAX_OFFSET = timedelta(hours=14)  # xs:dateTime's time zones: -14:00 to +14:00
_MAX_MINUTES = 59

_W3C = re.compile(
    r"(?P<y>\d{4})(?:-(?P<m>\d{2})(?:-(?P<d>\d{2})"
    r"(?:[T ](?P<H>\d{2}):(?P<M>\d{2})(?::(?P<S>\d{2})(?:[.,](?P<f>\d+))?)?"
    r"\s*(?P<tz>Z|z|[+-]\d{2}:?\d{2}|UTC|GMT)?)?)?)?\Z"
)


@functools.lru_cache(maxsize=4096)  # many pages share a date
def parse_w3c(text: str) -> Lastmod | None:
    """Parse a W3C/ISO 8601 date or datetime; None when it is not one.

    A time without a zone is ambiguous (Google calls it invalid): only its date is kept.
    ``YYYY`` and ``YYYY-MM`` become the first day of that year or month.
    """
    match = _W3C.match(text.strip())
    if not match:
        return None
    parts = match.groupdict()
    try:
        day = date(int(parts["y"]), int(parts["m"] or 1), int(parts["d"] or 1))
        if parts["H"] is None or parts["tz"] is None:
            return day
        tz_text = parts["tz"]
        if tz_text in ("Z", "z", "UTC", "GMT"):
            tz = timezone.utc
        else:
            sign = -1 if tz_text[0] == "-" else 1
            digits = tz_text[1:].replace(":", "")
            offset = timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
            # XML Schema's time zones run from -14:00 to +14:00: "+23:59" is no time zone.
            if int(digits[2:]) > _MAX_MINUTES or offset > MAX_OFFSET:
                return None
            tz = timezone(sign * offset)
        micro = int((parts["f"] or "0")[:6].ljust(6, "0"))
        return datetime(
            day.year, day.month, day.day, int(parts["H"]), int(parts["M"]),
            int(parts["S"] or 0), micro, tzinfo=tz,
        )
    except ValueError:
        return None


def coerce_lastmod(value: object) -> Lastmod | None:
    """Turn what an adapter or front matter gives (date, datetime, string) into a lastmod.

    A naive datetime keeps only its date; a zone outside XML Schema's range is no date.
    """
    if isinstance(value, datetime):
        offset = value.utcoffset()
        if offset is None:
            return value.date()
        return value if abs(offset) <= MAX_OFFSET else None
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        return parse_w3c(value)
    return None


def format_w3c(value: Lastmod) -> str:
    """``YYYY-MM-DD`` for a date, ``YYYY-MM-DDThh:mm:ss±hh:mm`` (or ``Z``) for a datetime."""
    if isinstance(value, datetime):
        text = value.replace(microsecond=0).isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text
    return value.isoformat()


def sort_key(value: Lastmod) -> datetime:
    """A comparable instant: a date counts as midnight UTC (Google's reading of a bare date)."""
    if isinstance(value, datetime):
        return value
    return datetime(value.year, value.month, value.day, tzinfo=timezone.utc)


def latest(*dates: Lastmod | None) -> Lastmod | None:
    """The latest of the known dates (the first of equals); None when none is known."""
    known = [d for d in dates if d is not None]
    return max(known, key=sort_key) if known else None


@dataclass
class Newest:
    """The newest of the dates seen, kept as written; a date that does not parse is passed over."""

    text: str = ""
    """The newest date as written; empty while none was seen."""
    key: datetime | None = None

    def see(self, text: str) -> None:
        """Take the date ``text`` (W3C) into account."""
        if not text or text == self.text:
            return
        value = parse_w3c(text)
        if value is None:
            return
        key = sort_key(value)
        if self.key is None or key > self.key:
            self.text, self.key = text, key


def build_time() -> datetime:
    """The build's "now", to the second, in UTC; ``SOURCE_DATE_EPOCH`` wins when set."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        try:
            return datetime.fromtimestamp(int(epoch), tz=timezone.utc)
        except (ValueError, OverflowError, OSError):
            pass
    return datetime.now(tz=timezone.utc).replace(microsecond=0)


def file_time(mtime: float) -> datetime | None:
    """A file's mtime as an aware UTC datetime to the second; None outside years 1 to 9999."""
    try:
        return datetime.fromtimestamp(int(mtime), tz=timezone.utc)
    except (ValueError, OverflowError, OSError):
        return None
