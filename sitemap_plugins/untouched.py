"""Rebuilds over files the last build saw: matched in one pass before anything is evaluated.

A page file whose signature (device, inode, size and times: see
:func:`~sitemap_plugins.page_facts.file_signature`) and hints are the ones the last build
recorded gets the last build's result again, under the same options and code (see
:class:`~sitemap_plugins.manifest.KeptPages`). When the files come in the order of the last
manifest's rows, that is known from the scan and one narrow read of the manifest, without
making any object per page; so the pass below goes through the scan that way until the
first file that is not its row's.

If no file differs and no row is left over, this build lists exactly what the last one
listed, and the sitemap files it wrote are the ones this build would write: when they are
still there, byte for byte, nothing is written at all (their dates stay, which deploy tools
and HTTP caches notice).

Otherwise the matched files are handed on as the outcomes the rest of the build would have
made of them, their rows read again in the same order (:func:`replay`), followed by the files
from the first that differs: what follows sees exactly what it would have seen without the
pass. Only an untouched tree gains from the pass; any other costs one narrow read of the
rows up to its first difference.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sitemap_plugins.entry import hints_key, left_out_unread, reused_outcome
from sitemap_plugins.manifest import AmendError
from sitemap_plugins.page_facts import file_signature

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping

    from sitemap_plugins.entry import Outcome, PageHints, Rules
    from sitemap_plugins.manifest import KeptPages
    from sitemap_plugins.scan import BuiltFile


@dataclass
class Matched:
    """The files at the start of a scan that are the last build's rows, in its order."""

    count: int = 0
    last_row: int = 0
    """The rowid of the last matched row (0 when none matched)."""
    listed: int = 0
    excluded: Counter[str] = field(default_factory=Counter)
    """Of the matched files, how many the last build listed, and left out by reason."""
    ruled_out: Counter[str] = field(default_factory=Counter)
    """Files among them left out before reading (no row is kept for them), by reason."""
    rest: Iterator[BuiltFile] = field(default_factory=lambda: iter(()))
    """The files after them, from the first that differs."""
    whole: bool = False
    """Every file matched, and every row: the build is the last one again."""


def match_untouched(
    files: Iterable[BuiltFile], kept: KeptPages, rules: Rules, hints: Mapping[str, PageHints]
) -> Matched:
    """Go through ``files`` while each is the next row of the last manifest, untouched.

    Raises:
        AmendError: when the manifest cannot be read (the build is then made again without
            reusing pages).
    """
    matched = Matched()
    scan = iter(files)
    settled_before_ns = rules.settled_before_ns
    excluded, ruled_out = matched.excluded, matched.ruled_out
    count = listed = last_row = 0
    differs: BuiltFile | None = None
    try:
        rows = kept.matched_rows()
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
            _, signature, hints_text, reason, rowid = row
            if reason is None or not signature or hints_text != hints_key(page_hints):
                break
            try:
                status = os.stat(built.abs_path)
            except OSError:
                break  # the evaluation that follows says why
            if file_signature(status, settled_before_ns) != signature:
                break
            differs = None
            count += 1
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
    matched.count, matched.listed, matched.last_row = count, listed, last_row
    matched.rest = scan if differs is None else itertools.chain((differs,), scan)
    return matched


def replay(kept: KeptPages, matched: Matched) -> Iterator[Outcome]:
    """The outcomes of the matched files: the last build's results, as evaluation gives them.

    Raises:
        AmendError: when the rows cannot be read again.
    """
    if matched.count:
        for rel, page in kept.replay(matched.last_row):
            assert page.result is not None  # checked by the query that matched it
            yield reused_outcome(rel, page, page.result, unread=True)
