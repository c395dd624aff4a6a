"""Cost as counted work, never as seconds: a busy machine must not fail a test.

A bound on elapsed time failed on a loaded 2-core runner (issue 40.23). Here a test counts
what the work did: the function calls it made (Python's and C's, by ``sys.setprofile``), or
what it handed to the HTML5 parser, and compares the count for an input of size n with the
count for 2n (linear: twice the calls; quadratic: four times). A hang is caught by a guard
of minutes, which is no speed bound.
"""

from __future__ import annotations

import signal
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from types import FrameType

HANG = 300
"""Seconds after which a test is stopped as hung (a guard, not a bound on its speed)."""


def calls(work: Callable[[], object]) -> int:
    """The function calls ``work`` makes, Python and C (in this thread)."""
    count = 0

    def profile(_frame: FrameType, event: str, _arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(previous)
    return count


def assert_linear(run: Callable[[int], object], n: int, *, slack: float = 2.5) -> None:
    """``run(2 * n)`` makes at most ``slack`` times the calls of ``run(n)`` (square: 4)."""
    with hang_guard():
        small = calls(lambda: run(n))
        large = calls(lambda: run(2 * n))
    assert large <= slack * small, (f"{small:,} calls for n = {n:,} and {large:,} for 2n: the "
                                    "work grows faster than the input")


@contextmanager
def hang_guard(seconds: int = HANG) -> Iterator[None]:
    """Fail (never hang) when the block runs for minutes."""
    def stop(_signal: int, _frame: object) -> None:
        pytest.fail(f"still running after {seconds} s: hung")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def parser_input(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, the size of each document handed to the HTML5 parser (lexbor, in C: its
    work is not counted as calls, so what it is given is)."""
    from sitemap_plugins.page import reader  # noqa: PLC0415

    sizes: list[int] = []
    real = reader.LexborHTMLParser

    def parser(markup: str | bytes, *args: object, **kwargs: object) -> object:
        sizes.append(len(markup))
        return real(markup, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(reader, "LexborHTMLParser", parser)
    return sizes
