"""The site's own robots.txt rules, read with a real parser (Protego: Google's matching rules).

Only the group that applies to every crawler (``User-agent: *``) is consulted: a URL that it
disallows is not one the site wants indexed. Rules for named crawlers are theirs alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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

        from sitemap_plugins.writers.robots import (  # noqa: PLC0415
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
