"""Worker processes that take chunks of work in turn and hand back each chunk's results in order.

Each worker has a connection of its own and nothing else is shared (no queue, no lock), so a
worker killed at any moment is one closed connection: the build sees it and stops, where
``ProcessPoolExecutor`` could wait forever. Chunks go out and results come back in the same
turn, so the output does not depend on the worker count. A thread per worker writes the
chunks, so a busy worker never blocks the build from reading results.
"""

from __future__ import annotations

import collections
import contextlib
import multiprocessing
import os
import queue
import signal
import threading
from multiprocessing.connection import wait
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from multiprocessing.connection import Connection
    from multiprocessing.context import BaseContext
    from multiprocessing.process import BaseProcess

T = TypeVar("T")
R = TypeVar("R")


class WorkerLost(Exception):  # noqa: N818  # what happened, not an error class of ours
    """A worker process ended before handing in its chunk's results."""


def _serve(connection: Connection, work: Callable[[list[T]], list[R]]) -> None:
    """A worker's life: chunks in, results out, until the build says stop or is gone."""
    # Ctrl-C reaches the whole group: the build stops the workers and says so once.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    build = multiprocessing.parent_process()
    if build is not None:
        # A build killed on its own must not leave its workers (and the fork server) behind.
        def end_with_the_build() -> None:
            wait([build.sentinel])
            os._exit(1)

        threading.Thread(target=end_with_the_build, name="end-with-the-build",
                         daemon=True).start()
    while True:
        try:
            chunk = connection.recv()
        except (EOFError, OSError):
            return
        if chunk is None:
            return
        try:
            results: tuple[bool, object] = (True, work(chunk))
        except Exception as err:  # noqa: BLE001  # raised again in the build's process
            results = (False, err)
        try:
            connection.send(results)
        except (OSError, ValueError):
            return  # the build is gone, or stopped reading
        except Exception as err:  # noqa: BLE001  # an exception that cannot be pickled
            connection.send((False, RuntimeError(f"{type(err).__name__}: {err}")))


def _send_all(connection: Connection, outbox: queue.SimpleQueue[object]) -> None:
    """Write what the build hands this worker, in order; ``None`` last."""
    while True:
        item = outbox.get()
        try:
            connection.send(item)
        except (OSError, ValueError):
            return  # the worker is gone: the build sees its connection closed
        if item is None:
            return


@contextlib.contextmanager
def _ctrl_c_held_back() -> Iterator[None]:
    """Hold Ctrl-C back while the pool's processes start, and have them ignore it from exec.

    They ignore SIGINT themselves only after their imports; an ignored signal stays ignored
    across exec, and a blocked one reaches the build once its handler is back.
    """
    if (os.name != "posix" or not hasattr(signal, "pthread_sigmask")
            or threading.current_thread() is not threading.main_thread()):
        yield  # only the main thread may set a handler
        return
    from multiprocessing import resource_tracker  # noqa: PLC0415

    previous = signal.getsignal(signal.SIGINT)
    try:  # whatever is raised between these lines, the finally puts both back
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        # The tracker unblocks SIGINT after starting itself: started first, then blocked again.
        resource_tracker.ensure_running()
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class _Worker:
    def __init__(self, context: BaseContext, work: Callable[[list[T]], list[R]]) -> None:
        self.connection, theirs = context.Pipe(duplex=True)
        self.process: BaseProcess = context.Process(  # type: ignore[attr-defined]
            target=_serve, args=(theirs, work), daemon=True, name="sitemap-plugins-worker")
        try:
            self.process.start()
        except BaseException:
            self.connection.close()
            raise
        finally:
            # Only the worker holds its end now: its death ends a read at once.
            theirs.close()
        self.outbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        self.sender = threading.Thread(target=_send_all, args=(self.connection, self.outbox),
                                       name="sitemap-plugins-sender", daemon=True)
        self.sender.start()

    def result(self) -> object:
        """The results of the oldest chunk handed to this worker.

        Raises:
            WorkerLost: when the worker ended first.
        """
        ready = wait([self.connection, self.process.sentinel])
        if self.connection not in ready:
            raise WorkerLost
        try:
            ok, value = self.connection.recv()
        except (EOFError, OSError) as err:
            raise WorkerLost from err
        if not ok:
            raise value  # the worker's exception, as it was raised
        return value

    def stop(self, *, at_once: bool) -> None:
        if at_once:
            self.process.kill()
        else:
            self.outbox.put(None)
            self.process.join(timeout=30)
            if self.process.exitcode is None:
                self.process.kill()
        self.process.join()
        # The sender is done before the connection closes: closed under it, its write could
        # go to a reused descriptor. With the worker gone, a pending write fails at once.
        self.outbox.put(None)
        self.sender.join(timeout=30)
        self.connection.close()


class Pool(Generic[T, R]):
    """Worker processes running ``work`` over chunks, started at once.

    Raises:
        OSError: when a process cannot be started (the caller does the work itself).
    """

    def __init__(self, context: BaseContext, work: Callable[[list[T]], list[R]],
                 count: int) -> None:
        self._workers: list[_Worker] = []
        try:
            with _ctrl_c_held_back():
                for _ in range(count):
                    self._workers.append(_Worker(context, work))
        except BaseException:
            self.close(finished=False)
            raise

    def map(self, chunks: Iterable[list[T]], *, ahead: int = 4) -> Iterator[R]:
        """Every chunk's results, chunk after chunk (at most ``ahead`` chunks a worker in flight).

        Raises:
            WorkerLost: when a worker ends before handing in its results.
        """
        turn: collections.deque[_Worker] = collections.deque()
        count = len(self._workers)
        for index, chunk in enumerate(chunks):
            worker = self._workers[index % count]
            worker.outbox.put(chunk)
            turn.append(worker)
            if len(turn) >= ahead * count:
                yield from turn.popleft().result()  # type: ignore[misc]
        while turn:
            yield from turn.popleft().result()  # type: ignore[misc]

    def close(self, *, finished: bool) -> None:
        """End every worker: once its work is done, or (``finished`` false) at once."""
        for worker in self._workers:
            worker.stop(at_once=not finished)
