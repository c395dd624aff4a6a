"""How far a run has got, counted as the work streams, for a front-end that wants to show it.

The core only counts; every ``_EVERY`` steps the clock is read and ``show`` is called at most
``interval`` times a second. "found" is what the run knows of so far, "done" what it finished.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

_EVERY = 64  # steps between looks at the clock
T = TypeVar("T")


@dataclass(frozen=True)
class Snapshot:
    """The counts at one moment, and the rate since the start."""

    found: int
    done: int
    seconds: float
    finished: bool = False

    @property
    def rate(self) -> float:
        """Items done per second so far."""
        return self.done / self.seconds if self.seconds > 0 else 0.0


@dataclass
class Progress:
    """Counts found and done items; calls ``show`` at most ``1 / interval`` times a second."""

    show: Callable[[Snapshot], None]
    interval: float = 0.25
    started: float = field(default_factory=time.perf_counter)
    found_count: int = 0
    done_count: int = 0
    _next_look: int = _EVERY
    _next_show: float = 0.0

    def __post_init__(self) -> None:
        self._next_show = self.started + self.interval

    def counted(self, items: Iterable[T]) -> Iterator[T]:
        """``items`` unchanged, each one counted as found as it passes."""
        for item in items:
            self.found_count += 1
            yield item

    def found(self, count: int = 1) -> None:
        """More items known of (for work whose total shows itself as it goes)."""
        self.found_count += count

    def done(self, count: int = 1) -> None:
        """More items finished."""
        self.done_count += count
        if self.done_count >= self._next_look:
            self._next_look = self.done_count + _EVERY
            now = time.perf_counter()
            if now >= self._next_show:
                self._next_show = now + self.interval
                self.show(self.snapshot(now))

    def snapshot(self, now: float | None = None, *, finished: bool = False) -> Snapshot:
        """The counts now."""
        now = time.perf_counter() if now is None else now
        return Snapshot(max(self.found_count, self.done_count), self.done_count,
                        now - self.started, finished)

    def finish(self) -> None:
        """The work is over: ``show`` gets the final counts once."""
        self.show(self.snapshot(finished=True))
