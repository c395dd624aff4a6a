"""Read pages in a background process while the host is still building the site.

A host spends seconds writing pages one after another on one core, and reading and
fingerprinting those pages is most of what the sitemap step costs. So the adapters hand
each page to a :class:`ReadAhead` as soon as it exists (MkDocs: the HTML it is about to
write; Pelican: the path it has just written), one worker process on another core works out
its :class:`~sitemap_plugins.page_facts.PageFacts`, and
:func:`~sitemap_plugins.generate.generate` then uses them for every file whose bytes still
have the same digest, and reads the others itself. The sitemap is the same either way: a
fact is only used for the exact bytes it was taken from.

A rebuild whose manifest keeps every page's facts (see :mod:`sitemap_plugins.manifest`)
starts no read-ahead: it parses only the pages that changed.
"""

from __future__ import annotations

import logging
import os
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import TYPE_CHECKING

from sitemap_plugins.errors import ConfigError
from sitemap_plugins.fingerprint import MAX_PARSED_BYTES
from sitemap_plugins.generate import cache_folder
from sitemap_plugins.head import read_page_bytes
from sitemap_plugins.manifest import has_kept_facts
from sitemap_plugins.page_facts import PageFacts, facts_from_bytes

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from sitemap_plugins.config import SitemapConfig

log = logging.getLogger(__name__)

# Pages sent to the worker at a time: few enough that little is left at the end, enough
# that the parent's cost per page stays a few microseconds.
BATCH = 32
# How long the end of the build waits for the worker before reading the rest itself (a
# worker that dies is noticed at once; this is for one that hangs).
WAIT_SECONDS = 120.0


def _facts_of_batch(
    items: list[tuple[str, bytes | str]], *, fingerprint: bool
) -> list[tuple[str, PageFacts | None]]:
    """Worker side: ``(rel, bytes or path)`` → ``(rel, facts or None)``."""
    done: list[tuple[str, PageFacts | None]] = []
    for rel, source in items:
        try:
            if isinstance(source, bytes):
                facts = facts_from_bytes(source, fingerprint=fingerprint)
            else:
                raw, _, _ = read_page_bytes(source, whole=True, max_bytes=MAX_PARSED_BYTES)
                facts = facts_from_bytes(raw, fingerprint=fingerprint)  # None: too large
        except Exception:  # noqa: BLE001  # the parent reads the page itself, and reports
            facts = None
        done.append((rel, facts))
    return done


class ReadAhead:
    """Works out page facts in a worker process; :meth:`collect` returns them."""

    def __init__(self, *, fingerprint: bool) -> None:
        self._fingerprint = fingerprint
        self._executor: ProcessPoolExecutor | None = None
        self._broken = False
        self._batch: list[tuple[str, bytes | str]] = []
        self._pending: list[Future[list[tuple[str, PageFacts | None]]]] = []

    @classmethod
    def for_config(cls, config: SitemapConfig, site_dir: str) -> ReadAhead | None:
        """A read-ahead, or None where it cannot pay.

        It cannot on one core, with ``workers: 1`` or without fork, nor on a rebuild whose
        manifest keeps the pages' facts: then only changed pages are parsed at the end, and
        handing every page over would cost the host more than it saves.
        """
        if config.workers == 1 or (os.cpu_count() or 1) <= 1:
            return None
        if not hasattr(os, "fork"):
            return None  # spawning would re-import the host in the worker
        if config.fingerprint and config.reuse_pages:
            try:
                cache = cache_folder(Path(site_dir), config)
            except ConfigError:
                cache = None  # the build itself will say so
            if cache is not None and has_kept_facts(cache, str(config.base_url)):
                return None
        return cls(fingerprint=config.fingerprint)

    def start(self) -> None:
        """Fork the worker now, while the host process is still small.

        Memory the host allocates later is not shared with the worker, so it costs no
        copy-on-write faults.
        """
        if self._executor is None and not self._broken:
            # Imported here: most rebuilds start no read-ahead, and the host does not load
            # multiprocessing itself (a few milliseconds of every build).
            import multiprocessing  # noqa: PLC0415
            from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

            try:
                self._executor = ProcessPoolExecutor(
                    1, mp_context=multiprocessing.get_context("fork"))
                self._executor.submit(int)  # a fork-context pool forks at its first task
            except (OSError, RuntimeError) as err:
                log.debug("read-ahead not started (%s); the pages are read at the end", err)
                self._broken = True
                self.close()

    def add_bytes(self, rel_path: str, raw: bytes) -> None:
        """The bytes the host writes (or has written) to ``rel_path``."""
        self._add(rel_path, raw)

    def add_file(self, rel_path: str, path: str) -> None:
        """A file the host has written; the worker reads it."""
        self._add(rel_path, path)

    def _add(self, rel_path: str, source: bytes | str) -> None:
        if self._broken:
            return
        self._batch.append((rel_path, source))
        if len(self._batch) >= BATCH:
            self._send()

    def _send(self) -> None:
        batch, self._batch = self._batch, []
        if not batch or self._broken:
            return
        self.start()
        if self._executor is None:
            return
        try:
            self._pending.append(
                self._executor.submit(_facts_of_batch, batch, fingerprint=self._fingerprint))
        except (OSError, RuntimeError) as err:  # no processes left, a broken pool
            log.debug("read-ahead stopped (%s); the pages are read at the end", err)
            self._broken = True
            self.close()

    def collect(self) -> dict[str, PageFacts]:
        """Every fact the worker found, by path relative to the site root; then stop it."""
        self._send()
        found: dict[str, PageFacts] = {}
        finished = False
        try:
            for pending in self._pending:
                found.update((rel, facts) for rel, facts in pending.result(WAIT_SECONDS)
                             if facts is not None)
            finished = True
        except FutureTimeout:
            log.debug("read-ahead too slow; %d pages known, the rest are read now", len(found))
        except Exception as err:  # noqa: BLE001  # a lost worker: read the rest ourselves
            log.debug("read-ahead failed (%r); the rest are read now", err)
        finally:
            self.close(stop=not finished)
        return found

    def close(self, *, stop: bool = True) -> None:
        """Stop the worker: killed when ``stop`` (a failed build, a hung worker)."""
        self._pending, self._batch = [], []
        executor, self._executor = self._executor, None
        if executor is None:
            return
        if stop:
            # shutdown() would wait for the batch in hand; a build that failed should not.
            for process in list(getattr(executor, "_processes", {}).values()):
                process.terminate()
        executor.shutdown(wait=True, cancel_futures=True)
