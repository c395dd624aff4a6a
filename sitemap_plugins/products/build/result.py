"""What a build did: URLs listed, pages left out by reason, files written, diagnostics."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sitemap_plugins.vocab.errors import Diagnostic, Level

if TYPE_CHECKING:
    from sitemap_plugins.disk.history_files import Changes

MAX_DIAGNOSTICS = 1_000


def counted(count: int, noun: str) -> str:
    """``count`` and the noun (a plain English one), plural with an ``s`` unless one."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


@dataclass
class Result:
    """What a run did: URLs listed, pages left out by reason, files written, diagnostics."""

    sitemap_url: str
    listed: int = 0
    excluded: Counter[str] = field(default_factory=Counter)
    files: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    split: bool = False
    dropped_diagnostics: int = 0
    changes: Changes | None = None
    """URLs added, changed and removed since the last build (with ``fingerprint``)."""
    cached: int = 0
    """Pages whose record came from the last build's cache (same bytes), not the parser."""
    rules_applied: set[tuple[str, int]] = field(default_factory=set)
    images: int = 0
    """``image:image`` entries written."""
    videos: int = 0
    """``video:video`` entries written."""
    videos_skipped: Counter[str] = field(default_factory=Counter)
    """Videos in listed pages that could not be listed, by reason."""
    news: int | None = None
    """Articles in the news sitemap (None: no news sitemap is written)."""

    @property
    def warnings(self) -> list[Diagnostic]:
        """The diagnostics a user should act on."""
        return [d for d in self.diagnostics if d.level is Level.WARNING]

    def add_diagnostic(self, diagnostic: Diagnostic) -> None:
        """Keep a diagnostic, up to ``MAX_DIAGNOSTICS`` (the rest are counted)."""
        if len(self.diagnostics) < MAX_DIAGNOSTICS:
            self.diagnostics.append(diagnostic)
        else:
            self.dropped_diagnostics += 1

    def summary(self) -> list[str]:
        """The run in a few lines, for a terminal: the same figures every front-end reports."""
        lines = [f"Listed {counted(self.listed, 'URL')} in {self.sitemap_url}"
                 + (" (sitemap index with numbered parts)" if self.split else "")]
        if self.excluded:
            lines.append("Left out:")
            lines.extend(f"  {count:>7,}  {reason}" for reason, count in self._left_out())
        if self.files:
            lines.append("Wrote: " + ", ".join(self.files))
        if self.removed:
            lines.append("Removed stale: " + ", ".join(self.removed))
        if self.images or self.videos or self.videos_skipped:
            lines.append(self.media_line())
        if self.news is not None:
            lines.append(f"News: {counted(self.news, 'article')} "
                         "published in the last two days")
        changes = self.changes
        if changes is not None and changes.baseline:
            lines.append(f"Since the last build: {changes.added_count:,} added, "
                         f"{changes.changed_count:,} changed, {changes.removed_count:,} removed")
        return lines

    def media_line(self) -> str:
        """Images and videos listed, and the videos left out by reason."""
        line = f"Media: {counted(self.images, 'image')}, {counted(self.videos, 'video')}"
        if self.videos_skipped:
            why = ", ".join(f"{reason}: {count:,}"
                            for reason, count in sorted(self.videos_skipped.items()))
            skipped = sum(self.videos_skipped.values())
            line += f"; {counted(skipped, 'video')} left out ({why})"
        return line

    def summary_line(self) -> str:
        """The run in one line, for a host's log."""
        # A reason is a phrase, not a noun to count: the pages are counted once, in front.
        left_out = ", ".join(f"{reason} ({count:,})" for reason, count in self._left_out())
        left_out = (f"{counted(sum(self.excluded.values()), 'page')} left out: {left_out}"
                    if left_out else "none left out")
        media = (f"; {self.media_line()[len('Media: '):]}"
                 if self.images or self.videos or self.videos_skipped else "")
        if self.news is not None:
            media += f"; {counted(self.news, 'news article')}"
        return (f"{counted(self.listed, 'URL')} listed in {self.sitemap_url}; {left_out}"
                f"{media}; wrote {', '.join(self.files) or 'nothing'}")

    def _left_out(self) -> list[tuple[str, int]]:
        return sorted(self.excluded.items(), key=lambda item: (item[0].lower(), item[0]))
