"""Rebuilds over files the last build saw: matched in one pass before anything is evaluated.

A page file whose signature (device, inode, size and times: see
:func:`~sitemap_plugins.page_facts.file_signature`) and hints are the ones the last build
recorded gets the last build's result again, under the same options and code (see
:class:`~sitemap_plugins.manifest.KeptPages`). When the files come in the order of the last
manifest's rows, that is known from the scan and one narrow read of the manifest, without
making any object per page; so the pass below goes through the scan that way until the
first file that is not its row's. A file written again since (or too recently then to have
had a signature) still matches when its bytes are the same: the pass reads a few such files
(:data:`MAX_READ`) and records their new signatures; a host that writes every page again is
better served by the workers, which read in parallel.

If no file differs and no row is left over, this build lists exactly what the last one
listed, and the sitemap files it wrote are the ones this build would write: when they are
still there, byte for byte, nothing is written at all (their dates stay, which deploy tools
and HTTP caches notice).

Otherwise the matched files are handed on as the outcomes the rest of the build would have
made of them, their rows read again in the same order (:func:`replay`), followed by the files
from the first that differs: what follows sees exactly what it would have seen without the
pass. Only an untouched tree gains from the pass; any other costs one narrow read of the
rows up to its first difference.

On a large site with two workers or more, a second process matches the second half of the
walk (cut at the path of the manifest's middle row: see :func:`~sitemap_plugins.scan.scan_site`)
against the second half of the rows, while this one matches the first. It answers how far its
half matched, and this process walks on from the first file that differs there (a walk cut at
that path). If it fails, this process matches that half itself.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pickle
import sqlite3
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from sitemap_plugins.entry import (
    hints_key,
    is_html_page,
    left_out_unread,
    reused_outcome,
    same_bytes_signature,
)
from sitemap_plugins.manifest import AmendError
from sitemap_plugins.page_facts import file_signature

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping

    from sitemap_plugins.entry import Outcome, PageHints, Rules
    from sitemap_plugins.errors import Diagnostic
    from sitemap_plugins.manifest import KeptPages
    from sitemap_plugins.scan import BuiltFile, SkipCallback

# Below this many rows a second process costs more than it saves (a fork and a pipe: about
# 5 ms; the pass: about 10 µs a page).
SPLIT_THRESHOLD = 5_000
# Files written again since the last build that a part's pass reads, at most.
MAX_READ = 256


class Walk(Protocol):
    """The site's walk (:func:`~sitemap_plugins.scan.scan_site` and the host's filter)."""

    def __call__(
        self, on_skip: SkipCallback, /, *, from_path: str | None = None,
        before_path: str | None = None,
    ) -> Iterable[BuiltFile]:
        """The files, reporting those passed over to ``on_skip``; cut at a path if given."""


@dataclass
class Skips:
    """What a walk passed over: counts by reason and the diagnostics, to hand on."""

    counts: Counter[str] = field(default_factory=Counter)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __call__(self, _rel: str, reason: str, diagnostic: Diagnostic | None) -> None:
        """An ``on_skip`` callback."""
        self.counts[reason] += 1
        if diagnostic is not None:
            self.diagnostics.append(diagnostic)


@dataclass
class Matched:
    """The files at the start of a walk (or a part of it) that are the last build's rows."""

    after_row: int = 0
    """The part's rows are those after this rowid."""
    last_row: int = 0
    """The rowid of the last matched row (``after_row`` when none matched)."""
    listed: int = 0
    excluded: Counter[str] = field(default_factory=Counter)
    """Of the matched files, how many the last build listed, and left out by reason."""
    ruled_out: Counter[str] = field(default_factory=Counter)
    """Files among them left out before reading (no row is kept for them), by reason."""
    resigned: dict[int, str] = field(default_factory=dict)
    """Rows (by rowid) of files among them that were read, the same bytes: their new
    signatures (at most :data:`MAX_READ`)."""
    rest: Iterator[BuiltFile] = field(default_factory=lambda: iter(()))
    """The files after them, from the first that differs."""
    whole: bool = False
    """Every file of the part matched, and every row: the part is as the last build left it."""
    skips: Skips | None = None
    """What the walk of the part passed over, when another process walked it."""
    resume_at: str | None = None
    """When another process walked the part: the path of the first file that differs, where
    the walk goes on here (None when its walk ended)."""

    @property
    def count(self) -> int:
        """How many files matched a row."""
        return self.listed + sum(self.excluded.values())


def match_untouched(
    files: Iterable[BuiltFile], kept: KeptPages, rules: Rules, hints: Mapping[str, PageHints],
    *, after_row: int = 0, before_row: int | None = None,
) -> Matched:
    """Go through ``files`` while each is the next row of the last manifest, untouched.

    Only the rows after rowid ``after_row`` and before ``before_row`` are compared.

    Raises:
        AmendError: when the manifest cannot be read (the build is then made again without
            reusing pages).
    """
    matched = Matched(after_row=after_row)
    scan = iter(files)
    settled_before_ns = rules.settled_before_ns
    excluded, ruled_out, resigned = matched.excluded, matched.ruled_out, matched.resigned
    listed = 0
    last_row = after_row
    differs: BuiltFile | None = None
    try:
        rows = kept.matched_rows(after_row, before_row)
        row = next(rows, None)
        for built in scan:
            differs = built
            rel = built.rel_path
            page_hints = hints.get(rel) if hints else None
            if row is None or row[0] != rel.encode("utf-8", "surrogatepass"):
                # No row is kept for a page left out before it is read: decide it again.
                ruled = left_out_unread(rel, rules, page_hints)
                if ruled is None:
                    break
                ruled_out[ruled] += 1
                differs = None
                continue
            _, signature, hints_text, reason, rowid, digest = row
            if reason is None or hints_text != hints_key(page_hints):
                break
            try:
                status = os.stat(built.abs_path)
            except OSError:
                break  # the evaluation that follows says why
            if not signature or file_signature(status, settled_before_ns) != signature:
                # Written again since, or too recently then to be known by its signature: the
                # same bytes will do, for a few (a host's rebuild writes every page again,
                # and is better evaluated in parallel).
                if len(resigned) >= MAX_READ:
                    break
                new_signature, _ = same_bytes_signature(built, rules, digest,
                                                        html=is_html_page(rel))
                if new_signature is None:
                    break
                resigned[rowid] = new_signature
            differs = None
            last_row = rowid
            if reason:
                excluded[reason] += 1
            else:
                listed += 1
            row = next(rows, None)
        else:
            matched.whole = row is None
    except sqlite3.Error as err:
        msg = f"the lastmod manifest cannot be read ({err})"
        raise AmendError(msg) from err
    matched.listed, matched.last_row = listed, last_row
    matched.rest = scan if differs is None else itertools.chain((differs,), scan)
    return matched


def match_walk(
    walk: Walk, on_skip: SkipCallback, kept: KeptPages, rules: Rules,
    hints: Mapping[str, PageHints], *, workers: int,
) -> list[Matched]:
    """:func:`match_untouched` over the whole walk, in two processes when it pays.

    Returns the parts of the walk in order, each matched from its start.

    Raises:
        AmendError: when the manifest cannot be read.
    """
    # A fork copies only the calling thread: in a process with others (a host's server, say)
    # a lock one of them holds would never be released in the child.
    can_fork = hasattr(os, "fork") and threading.active_count() == 1
    middle = kept.middle_row() if workers > 1 and can_fork else None
    if middle is None or middle[2] < SPLIT_THRESHOLD:
        return [match_untouched(walk(on_skip), kept, rules, hints)]
    split_row, split_path, _ = middle
    second_half = _SecondHalf(walk, kept, rules, hints, split_path, split_row - 1)
    try:
        first = match_untouched(walk(on_skip, before_path=split_path), kept, rules, hints,
                                before_row=split_row)
        second = second_half.answer()
    finally:
        second_half.close()
    if second is None:  # the other process failed: match its half here
        second = match_untouched(walk(on_skip, from_path=split_path), kept, rules, hints,
                                 after_row=split_row - 1)
    elif second.resume_at is not None:  # the walk goes on from the first file that differs
        second.rest = iter(walk(on_skip, from_path=second.resume_at))
    return [first, second]


class _SecondHalf:
    """A forked process that matches the walk from a path on against the rows after a rowid.

    Forked, not spawned: it shares what this process has prepared (rules, hints), and takes
    a few milliseconds. It sends back its :class:`Matched`, without the files: this process
    walks on from :attr:`Matched.resume_at`.
    """

    def __init__(
        self, walk: Walk, kept: KeptPages, rules: Rules, hints: Mapping[str, PageHints],
        from_path: str, after_row: int,
    ) -> None:
        self._pid = 0
        self._read = -1
        try:
            read, write = os.pipe()
        except OSError:
            return
        try:
            pid = os.fork()
        except OSError:
            os.close(read)
            os.close(write)
            return
        if pid == 0:  # the child: answer, and leave without running the parent's exit code
            code = 1
            try:
                os.close(read)
                skips = Skips()
                matched = match_untouched(walk(skips, from_path=from_path), kept.copy(), rules,
                                          hints, after_row=after_row)
                # The files cannot cross: the parent walks on from the first that differs
                # (its walk from that path gives the rest, as the cut of a walk does).
                differs = next(matched.rest, None)
                matched.resume_at = differs.rel_path if differs is not None else None
                matched.rest, matched.skips = iter(()), skips
                with os.fdopen(write, "wb") as pipe:
                    pickle.dump(matched, pipe, protocol=pickle.HIGHEST_PROTOCOL)
                code = 0
            finally:
                os._exit(code)
        os.close(write)
        self._pid, self._read = pid, read

    def answer(self) -> Matched | None:
        """The half as far as it matched; None when the process failed."""
        if not self._pid:
            return None
        try:
            with os.fdopen(self._read, "rb") as pipe:
                self._read = -1
                answer = pickle.load(pipe)  # noqa: S301  # from our own child, over a pipe
        except Exception:  # noqa: BLE001  # whatever went wrong there, the half is matched here
            return None
        return answer if isinstance(answer, Matched) else None

    def close(self) -> None:
        """Wait for the process to end; stop it first if its answer is no longer wanted."""
        if self._read >= 0:
            with contextlib.suppress(OSError):
                os.close(self._read)
            if self._pid:  # this process failed before asking: the answer is not needed
                import signal  # noqa: PLC0415  # only on this path (1.6 ms for its enums)

                with contextlib.suppress(OSError):
                    os.kill(self._pid, signal.SIGKILL)
        if self._pid:
            with contextlib.suppress(OSError):
                os.waitpid(self._pid, 0)
            self._pid = 0


def replay(kept: KeptPages, matched: Matched) -> Iterator[Outcome]:
    """The outcomes of the matched files: the last build's results, as evaluation gives them.

    Raises:
        AmendError: when the rows cannot be read again.
    """
    if matched.count:
        resigned = matched.resigned
        for rel, page in kept.replay(matched.after_row, matched.last_row):
            assert page.result is not None  # checked by the query that matched it
            signature = resigned.get(page.row) if resigned else None
            if signature is None:
                yield reused_outcome(rel, page, page.result, unread=True)
            else:
                yield reused_outcome(rel, page, page.result, signature=signature)
