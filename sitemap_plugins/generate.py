"""The pipeline: scan the built site, evaluate each page, stream entries to the writers.

Memory stays flat as the site grows: files are yielded one folder at a time, pages are read
by a pool of worker processes in order (so the output does not depend on the worker count),
and entries go straight to the part writers.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import importlib.metadata
import itertools
import logging
import os
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2
import markupsafe

from sitemap_plugins.dates import build_time, parse_w3c
from sitemap_plugins.entry import (
    Entry,
    Exclusion,
    Listing,
    Outcome,
    PageHints,
    Rules,
    evaluate_page,
)
from sitemap_plugins.errors import (
    ConfigError,
    Diagnostic,
    Level,
    ScanError,
    SitemapError,
    WriteError,
)
from sitemap_plugins.globs import GlobSet
from sitemap_plugins.manifest import (
    AmendError,
    Changes,
    KeptListing,
    KeptPages,
    Manifest,
    write_changes,
)
from sitemap_plugins.output import (
    Installed,
    describe_output,
    install,
    remove_stale,
    unchanged_output,
    update_robots,
    without_sitemap,
)
from sitemap_plugins.page_facts import PARSER_MODULES as _PARSER_SOURCES
from sitemap_plugins.page_facts import code_key
from sitemap_plugins.robots_rules import RobotsRules
from sitemap_plugins.scan import BuiltFile, SkipCallback, scan_site
from sitemap_plugins.untouched import Matched, Walk, match_walk, replay
from sitemap_plugins.writers import Rendered, TextSitemapWriter, Writer, XmlSitemapWriter
from sitemap_plugins.writers.atomic import explain, remove_leftovers
from sitemap_plugins.writers.xml_sitemap import render_url

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Iterator, Mapping

    from sitemap_plugins.config import SitemapConfig
    from sitemap_plugins.dates import Lastmod
    from sitemap_plugins.page_facts import PageFacts

log = logging.getLogger(__name__)

REASON_NOT_BUILT = "not written by this build"
# Below this many pages a process pool costs more than it saves.
PARALLEL_THRESHOLD = 2_000
_CHUNK = 256
MAX_DIAGNOSTICS = 1_000
# A file changed less than this before a run may change again within one tick of the file
# system's clock without a trace in its status; it is read again next time. (FAT keeps
# modification times to 2 s.)
SETTLE_NS = 3_000_000_000
# The modules and template that turn a page's facts into its result, besides the parser.
_RESULT_SOURCES = ("entry.py", "urls.py", "dates.py", "globs.py", "robots_rules.py",
                   "manifest.py", "generate.py", "writers/xml_sitemap.py",
                   "writers/templates.py", "templates/urlset.xml")


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
    unchanged: list[str] = field(default_factory=list)
    """Sitemap files left as they were: this build would have written the same bytes."""
    read_ahead: int = 0
    """Pages whose head and fingerprint were read during the host's build and still held."""
    kept: int = 0
    """Pages whose facts or result were kept from the last build (same bytes)."""
    unread: int = 0
    """Of those, pages not even read: their file's signature was the same."""

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


def make_rules(
    config: SitemapConfig, robots: RobotsRules | None, settled_before_ns: int = 0
) -> Rules:
    """Compile the config's globs once per run."""
    return Rules(
        config=config,
        include=GlobSet(config.include),
        exclude=GlobSet(config.exclude),
        changefreq=GlobSet(tuple(p for p, _ in config.changefreq)),
        priority=GlobSet(tuple(p for p, _ in config.priority)),
        robots=robots,
        settled_before_ns=settled_before_ns,
    )


def _version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "?"


@functools.cache
def _results_code_key() -> str:
    # Libraries decide too: Jinja2 renders and MarkupSafe escapes every <url>. Jinja2 names
    # its version; MarkupSafe's __version__ is deprecated, and looking a distribution up
    # searches the whole path (1.5 ms each, every build), so its module file stands in.
    escaper = os.stat(markupsafe.__file__)
    libraries = (f"jinja2 {jinja2.__version__}, markupsafe {markupsafe.__file__} "
                 f"{escaper.st_size} {escaper.st_mtime_ns}")
    return f"{code_key((*_RESULT_SOURCES, *_PARSER_SOURCES))}; {libraries}"


def results_key(rules: Rules) -> str:
    """Names what turns a page's bytes and hints into its result: options, robots.txt, code.

    The last build's results are reused only under the same key. Options that change how
    the work is done, not what it gives (workers, cache folder, changes file, reuse), are
    left out.
    """
    config = replace(rules.config, workers=0, cache_dir=None, changes_file=None,
                     reuse_pages=True)
    digest = hashlib.sha256(_results_code_key().encode())
    digest.update(repr(config).encode("utf-8", "surrogatepass"))
    if rules.robots is None:
        digest.update(b"no robots.txt")
    else:  # Sitemap: lines (this run appends one, after a blank line) decide no page
        digest.update(f"protego {_version('protego')}".encode())
        digest.update(b"".join(line for line in rules.robots.source.splitlines(keepends=True)
                               if not line.lstrip().lower().startswith(b"sitemap:")).rstrip())
    return digest.hexdigest()


def _read_robots(site: Path, config: SitemapConfig, result: Result) -> RobotsRules | None:
    if not config.respect_robots_txt:
        return None
    path = site / "robots.txt"
    try:
        real = Path(os.path.realpath(path))
        if not real.is_file():
            return None
        if os.path.commonpath([real, os.path.realpath(site)]) != os.path.realpath(site):
            return None
        return RobotsRules.from_bytes(real.read_bytes())
    except OSError as err:
        result.add_diagnostic(Diagnostic(
            "robots.txt", "unreadable", f"cannot be read ({err.strerror}); its rules are ignored"))
        return None


# Worker-process state, set once per worker by _init_worker.
_worker_rules: Rules | None = None
_worker_hints: Mapping[str, PageHints] = {}
_worker_kept: KeptPages | None = None


def _init_worker(
    rules: Rules, hints: Mapping[str, PageHints], kept: KeptPages | None
) -> None:
    global _worker_rules, _worker_hints, _worker_kept  # per-process state by design
    # A copy of the kept pages, so that the worker never uses the parent's connection.
    _worker_rules, _worker_hints, _worker_kept = (
        rules, hints, kept.copy() if kept is not None else None)


def _evaluate_in_worker(built: BuiltFile) -> Outcome:
    assert _worker_rules is not None
    rel = built.rel_path
    kept = _worker_kept.get(rel) if _worker_kept is not None else None
    return evaluate_page(built, _worker_rules, _worker_hints.get(rel), kept=kept)


def _worker_count(config: SitemapConfig) -> int:
    if config.workers:
        return config.workers
    return max(1, min(os.cpu_count() or 1, 8))


def evaluate_site(
    files: Iterable[BuiltFile],
    rules: Rules,
    hints: Mapping[str, PageHints],
    known: Mapping[str, PageFacts] | None = None,
    kept: KeptPages | None = None,
    untouched_before: int = 0,
) -> Iterator[Outcome]:
    """Evaluate every file, in scan order, in parallel once the site is large enough.

    With ``known`` facts (read ahead while the host built the site) what is left per page is
    cheaper than sending it to another process, so it is done here. ``kept`` facts (from the
    last build) are tried for pages that were not read ahead. A page whose file the last
    build saw untouched costs less still: when most of the site's first pages are such
    (``untouched_before`` of them came before ``files``), the rest are evaluated here too.
    """
    def here(chosen: Iterable[BuiltFile]) -> Iterator[Outcome]:
        for built in chosen:
            rel = built.rel_path
            ahead = known.get(rel) if known is not None else None
            yield evaluate_page(built, rules, hints.get(rel), ahead,
                                kept.get(rel) if kept is not None and ahead is None else None)

    workers = _worker_count(rules.config)
    if known is not None or workers == 1:
        yield from here(files)
        return
    iterator = iter(files)
    if kept is not None and kept.results:
        read = 0
        sample = max(0, PARALLEL_THRESHOLD - untouched_before)
        for outcome in here(itertools.islice(iterator, sample)):
            read += not outcome.unread
            yield outcome
        if read * 4 <= PARALLEL_THRESHOLD:
            yield from here(iterator)
            return
    head = list(itertools.islice(iterator, PARALLEL_THRESHOLD))
    if len(head) < PARALLEL_THRESHOLD:
        yield from here(head)
        return
    import multiprocessing  # noqa: PLC0415  # only a large first build needs a pool

    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with context.Pool(workers, initializer=_init_worker, initargs=(rules, hints, kept)) as pool:
        yield from pool.imap(_evaluate_in_worker, itertools.chain(head, iterator), _CHUNK)


def write_entries(
    site: Path, config: SitemapConfig, entries: Iterable[Entry | Rendered]
) -> Installed | None:
    """Stream entries into sitemap files in ``site``; None when there was no entry.

    Raises:
        SitemapError: when the files cannot be written (old files are kept whole).

    """
    xml_writer = XmlSitemapWriter(
        site, config.sitemap_name, max_urls=config.max_urls, max_bytes=config.max_bytes,
        xhtml=config.hreflang,
    )
    text_writer = (
        TextSitemapWriter(site, config.sitemap_name, max_urls=config.max_urls,
                          max_bytes=config.max_bytes)
        if config.text else None
    )
    writers: list[Writer] = [xml_writer] if text_writer is None else [xml_writer, text_writer]
    count = 0
    try:
        for item in entries:
            rendered = (Rendered(item.loc, render_url(item), item.lastmod)
                        if isinstance(item, Entry) else item)
            for writer in writers:
                writer.add(rendered)
            count += 1
        if count == 0:
            for writer in writers:
                writer.discard()
            return None
        xml_parts = xml_writer.finish()
        text_parts = text_writer.finish() if text_writer is not None else None
    except OSError as err:
        for writer in writers:
            writer.discard()
        raise WriteError(str(site), f"cannot write the sitemap: {explain(err)}") from err
    except BaseException:
        for writer in writers:
            writer.discard()
        raise
    return install(site, config, xml_parts, text_parts)


def cache_folder(site: Path, config: SitemapConfig) -> Path:
    """Where the manifest lives: ``cache_dir``, or ``.sitemap-cache`` beside the site.

    Raises:
        ConfigError: when that folder is inside the published site.
    """
    default = site.resolve().parent / ".sitemap-cache"
    folder = Path(config.cache_dir) if config.cache_dir else default
    real_site, real_folder = os.path.realpath(site), os.path.realpath(folder)
    if os.path.commonpath([real_site, real_folder]) == real_site:
        msg = (f"{str(folder)!r} is inside the published site {str(site)!r}; choose a folder "
               "outside it so the manifest is never published")
        raise ConfigError("cache_dir", msg)
    return folder


def _open_manifest(site: Path, rules: Rules) -> Manifest:
    config = rules.config
    return Manifest(cache_folder(site, config), str(config.base_url), build_time(),
                    results_key(rules), reuse=config.reuse_pages)


@functools.lru_cache(maxsize=4096)
def _kept_lastmod(text: str) -> Lastmod | None:
    # Many pages share a date: each kept one is parsed once.
    return parse_w3c(text) if text else None


@dataclass
class _Writing:
    """One run's writing of the sitemap from the scanned files, with its manifest."""

    site: Path
    rules: Rules
    result: Result
    manifest: Manifest | None
    kept: KeptPages | None

    def write(
        self, walk: Walk, on_skip: SkipCallback, hints: Mapping[str, PageHints],
        known: Mapping[str, PageFacts] | None,
    ) -> Installed | None:
        """Evaluate the files, write the sitemap and the manifest; None when none is listed."""
        config = self.rules.config
        kept, manifest = self.kept, self.manifest
        outcomes: Iterable[Outcome]
        if kept is not None and kept.results and known is None:
            parts = match_walk(walk, on_skip, kept, self.rules, hints,
                               workers=_worker_count(config))
            if all(part.whole for part in parts) and manifest is not None and manifest.amends:
                same = unchanged_output(self.site, manifest.last_output)
                if same is not None:
                    return self._unchanged(parts, same, manifest)
            outcomes = itertools.chain.from_iterable(
                self._part_outcomes(part, kept, hints) for part in parts)
        else:
            outcomes = evaluate_site(walk(on_skip), self.rules, hints, known, kept)
        installed = write_entries(self.site, config, self._listed(outcomes))
        if kept is not None:
            kept.close()
        if manifest is not None:
            for diagnostic in manifest.diagnostics:
                self.result.add_diagnostic(diagnostic)
            if installed is not None:
                description = describe_output(self.site, installed)
                if description is not None:
                    manifest.set_output(description)
            self.result.changes = manifest.changes(with_urls=bool(config.changes_file))
            if config.changes_file:
                write_changes(Path(config.changes_file), self.result.changes)
            manifest.save()
        return installed

    def _take_part(self, part: Matched) -> None:
        """Count what the walk of ``part`` passed over, and its files ruled out unread."""
        result = self.result
        if part.skips is not None:  # walked by another process
            result.excluded.update(part.skips.counts)
            for diagnostic in part.skips.diagnostics:
                result.add_diagnostic(diagnostic)
        result.excluded.update(part.ruled_out)  # they have no rows to replay

    def _part_outcomes(
        self, part: Matched, kept: KeptPages, hints: Mapping[str, PageHints]
    ) -> Iterator[Outcome]:
        """The matched files' outcomes, from their rows; then the rest of the part's files."""
        self._take_part(part)
        yield from replay(kept, part)
        yield from evaluate_site(part.rest, self.rules, hints, None, kept,
                                 untouched_before=part.count - len(part.resigned))

    def _unchanged(
        self, parts: list[Matched], same: Installed, manifest: Manifest
    ) -> Installed:
        """The last build's sitemap files stay: this build would write the same bytes."""
        config, result = self.rules.config, self.result
        for part in parts:
            self._take_part(part)
            result.listed += part.listed
            result.excluded.update(part.excluded)
            result.kept += part.count
            result.unread += part.count - len(part.resigned)
        if self.kept is not None:
            self.kept.close()
        for diagnostic in manifest.diagnostics:
            result.add_diagnostic(diagnostic)
        result.changes = manifest.unchanged(
            (signature, rowid) for part in parts for rowid, signature in part.resigned.items())
        if config.changes_file:
            write_changes(Path(config.changes_file), result.changes)
        keep = set(same.unchanged)
        if not config.text:
            keep.add(f"{config.sitemap_name}.txt")  # may be the user's own file
        same.removed = remove_stale(self.site, config.sitemap_name, keep)
        return same

    def _listed(self, outcomes: Iterable[Outcome]) -> Iterator[Rendered]:
        """The listed pages' ``<url>`` elements, each outcome counted and kept on the way."""
        result, manifest = self.result, self.manifest
        for outcome in outcomes:
            result.read_ahead += outcome.read_ahead
            result.kept += outcome.kept
            result.unread += outcome.unread
            for diagnostic in outcome.diagnostics:
                result.add_diagnostic(diagnostic)
            entry = outcome.result
            kept_file = outcome.kept_file if manifest is not None else None
            # A page with something to report is evaluated again next time, to report it.
            keep_result = kept_file is not None and not outcome.diagnostics
            if isinstance(entry, Exclusion):
                result.excluded[entry.reason] += 1
                if manifest is not None and kept_file is not None:
                    manifest.keep_file(entry.rel_path, kept_file,
                                       entry.reason if keep_result else None,
                                       last_row=outcome.kept_row, same=outcome.unread,
                                       resigned=outcome.resigned)
                continue
            result.listed += 1
            if isinstance(entry, Listing):
                done = entry.kept
                assert manifest is not None  # only a manifest's kept page is a Listing
                assert kept_file is not None
                manifest.record(done.url, done.fingerprint, done.lastmod, done.source)
                manifest.keep_file(entry.rel_path, kept_file, done, last_row=outcome.kept_row,
                                   same=outcome.unread, resigned=outcome.resigned)
                yield Rendered(done.url, done.xml, _kept_lastmod(done.lastmod))
                continue
            if manifest is not None:
                lastmod, source = manifest.settle(entry)
                if lastmod is not entry.lastmod or source is not entry.lastmod_source:
                    entry = replace(entry, lastmod=lastmod, lastmod_source=source)
            xml = render_url(entry)
            if manifest is not None and kept_file is not None:
                manifest.keep_file(entry.rel_path, kept_file, KeptListing(
                    entry.loc, entry.fingerprint, entry.lastmod_w3c, entry.lastmod_source, xml)
                    if keep_result else None, last_row=outcome.kept_row)
            yield Rendered(entry.loc, xml, entry.lastmod)


def generate(
    site_dir: str | os.PathLike[str],
    config: SitemapConfig,
    *,
    hints: Mapping[str, PageHints] | None = None,
    only: Collection[str] | None = None,
    known: Mapping[str, PageFacts] | None = None,
) -> Result:
    """Write the sitemap files for the built site in ``site_dir``.

    Args:
        site_dir: the built site (MkDocs ``site_dir``, Pelican ``OUTPUT_PATH``, any folder).
        config: validated options.
        hints: what the host knows per page, keyed by path relative to the site root.
        only: when given, only these relative paths may be listed (files written by this
            build); anything else in the folder is stale and left out.
        known: page facts read ahead (:mod:`sitemap_plugins.readahead`), by relative path;
            each is used only if the file's bytes still match it.

    Raises:
        ScanError: when ``site_dir`` is missing or not a folder.
        SitemapError: when the sitemap cannot be written (old files are kept whole).

    """
    # The step makes many short-lived, acyclic objects. Inside a host (MkDocs, Pelican) the
    # collector would scan the host's whole heap for cycles each time they trigger a full
    # collection: tens of milliseconds of work that finds nothing of ours. The objects that
    # exist now sit that out, and rejoin the oldest generation after.
    gc.freeze()
    try:
        site = Path(site_dir)
        try:
            return _generate(site, config, hints=hints, only=only, known=known)
        except AmendError as err:
            result = _generate(site, replace(config, reuse_pages=False), hints=hints,
                               only=only, known=known)
            result.add_diagnostic(Diagnostic(
                "", "bad-manifest", f"{err}; the build was made again without reusing pages",
                Level.INFO))
            result.diagnostics.sort()
            return result
    finally:
        gc.unfreeze()


def _generate(
    site: Path,
    config: SitemapConfig,
    *,
    hints: Mapping[str, PageHints] | None,
    only: Collection[str] | None,
    known: Mapping[str, PageFacts] | None,
) -> Result:
    if not site.is_dir():
        raise ScanError(str(site), "is not a folder (build the site first?)")
    hints = hints or {}
    sitemap_url = f"{config.base_url}{config.sitemap_name}.xml"
    result = Result(sitemap_url=sitemap_url)
    for leftover in remove_leftovers(site):
        log.debug("removed %s, left by an interrupted run", leftover)
    rules = make_rules(config, _read_robots(site, config, result),
                       settled_before_ns=time.time_ns() - SETTLE_NS)

    def on_skip(_rel: str, reason: str, diagnostic: Diagnostic | None) -> None:
        result.excluded[reason] += 1
        if diagnostic is not None:
            result.add_diagnostic(diagnostic)

    allowed = set(only) if only is not None else None

    def walk(
        report: SkipCallback, *, from_path: str | None = None, before_path: str | None = None
    ) -> Iterator[BuiltFile]:
        files = scan_site(
            str(site), extensions=config.extensions, sitemap_name=config.sitemap_name,
            directory_urls=config.directory_urls, on_skip=report, from_path=from_path,
            before_path=before_path,
        )
        if allowed is None:
            yield from files
            return
        for built in files:
            if built.rel_path in allowed:
                yield built
            else:
                report(built.rel_path, REASON_NOT_BUILT, None)

    manifest = _open_manifest(site, rules) if config.fingerprint else None
    kept = manifest.kept_pages() if manifest is not None else None

    try:
        installed = _Writing(site, rules, result, manifest, kept).write(walk, on_skip, hints, known)
    except BaseException:
        if kept is not None:
            kept.close()
        if manifest is not None:
            manifest.discard()
        raise
    if installed is None:
        result.removed = remove_stale(site, config.sitemap_name, set())
        result.add_diagnostic(Diagnostic(
            "", "nothing-listed", "no page can be listed, so no sitemap was written"))
        pointers = without_sitemap(site, config, sitemap_url)
        result.removed.extend(pointers.removed)
        for diagnostic in pointers.diagnostics:
            result.add_diagnostic(diagnostic)
        result.diagnostics.sort()
        return result
    result.files.extend(installed.files)
    result.unchanged = installed.unchanged
    result.removed = installed.removed
    result.split = installed.split
    robots = update_robots(site, config, sitemap_url)
    result.files.extend(robots.files)
    for diagnostic in robots.diagnostics:
        result.add_diagnostic(diagnostic)
    result.diagnostics.sort()
    log.debug("facts reused: %d pages read ahead, %d kept from the last build (same bytes), "
              "%d of them not read (same file)", result.read_ahead, result.kept, result.unread)
    return result


__all__ = ["Entry", "PageHints", "Result", "SitemapError", "generate"]
