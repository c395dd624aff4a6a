"""SIGTERM handled as Ctrl-C is: the run unwinds, removes its temporary files, and says so.

Python's default for SIGTERM (a CI cancel, ``timeout``, a container stop) ends the process at
once: no ``finally`` runs, and half-written temporary files stayed in the published site.
Within :func:`sigterm_as_interrupt` it raises :class:`Terminated`, a ``KeyboardInterrupt``,
so that every clean-up written for Ctrl-C runs for it too.
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

    Only in the main thread, and only where SIGTERM has its default action: a handler of
    the host (or of an outer caller) is left as it is. The default action is back after.
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

    Inside a host (MkDocs, Pelican) that leaves SIGTERM to its default action, the process
    still ends by SIGTERM, as it would have, only after the clean-up: the signal is sent
    again once the default action is back. Under the command line's own handler (see
    ``cli.main``) the :class:`Terminated` goes up to it instead.
    """
    try:
        with sigterm_as_interrupt():
            yield
    except Terminated:
        if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
            os.kill(os.getpid(), signal.SIGTERM)
        raise
