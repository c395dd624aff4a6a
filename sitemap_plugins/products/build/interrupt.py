"""SIGTERM handled as Ctrl-C is: the run unwinds, removes its temporary files, and says so.

By default SIGTERM (a CI cancel, ``timeout``) ends the process with no ``finally``; within
:func:`sigterm_as_interrupt` it raises :class:`Terminated`, a ``KeyboardInterrupt``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived; unwinds the way Ctrl-C does."""


def _raise_terminated(_signum: int, _frame: object) -> None:
    # A second SIGTERM while the first one's clean-up runs is not raised in the middle of it.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within: SIGTERM raises :class:`Terminated` where the program is, instead of killing it.

    Only in the main thread, and only where SIGTERM has its default action (a host's handler
    is left as it is).
    """
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL):
        yield
        return
    signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextlib.contextmanager
def sigterm_cleans_up() -> Iterator[None]:
    """Within: SIGTERM first removes this tool's temporary files, then ends the process.

    Inside a host that leaves SIGTERM to its default, the signal is sent again after the
    clean-up; under the command line's own handler :class:`Terminated` goes up to it.
    """
    try:
        with sigterm_as_interrupt():
            yield
    except Terminated:
        if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
            os.kill(os.getpid(), signal.SIGTERM)
        raise
