"""The pipeline: scan the built site, read each page once, decide, date, render, write.

One page at a time (:meth:`PageStep.run`)::

    scan_site        -> BuiltFile    the files that may be pages, in a stable order
    read_bytes       -> PageBytes    the file, once, and a digest of its bytes
    History.kept     -> Kept         what the last build saw of it (same digest: its record)
    read_record      -> PageRecord   else the parser's record of it
    evaluate         -> Decision     listed or not, and how (pure)
    History.settle   -> lastmod      honest dates across builds
    render_url       -> Rendered     its <url> element
    write_entries    -> files        parts, index, .gz, text
    write_extras     -> files        HTML site map, news sitemap, robots.txt (extra_files)

Memory stays flat (files stream by folder, entries straight to the writers); a large site's
pages are read by a pool of processes, in order, so the output does not depend on it.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from sitemap_plugins.disk.history import (
    History,
    Kept,
    Manifest,
    ManifestRow,
    path_key,
    record_path,
    record_pending,
    write_changes,
)
from sitemap_plugins.disk.locks import site_lock
from sitemap_plugins.disk.owned import (
    Installed,
    Ownership,
    SitePages,
    install,
    replaced_dates,
)
from sitemap_plugins.disk.site import (
    BuiltFile,
    SkipCallback,
    Staged,
    discard_unfinished,
    read_bytes,
    read_head,
    read_robots,
    remove_leftovers,
    scan_site,
)
from sitemap_plugins.entry.news import NewsItem, NewsSelection
from sitemap_plugins.entry.render import (
    Rendered,
    TextSitemapWriter,
    Writer,
    XmlSitemapWriter,
    render_url,
)
from sitemap_plugins.entry.robots_txt import MAX_ROBOTS_BYTES, RobotsRules
from sitemap_plugins.entry.rules import (
    REASON_EXCLUDED,
    REASON_REDIRECT,
    REASON_UNREADABLE,
    Alternate,
    Entry,
    Exclusion,
    PageHints,
    Rules,
    evaluate,
    is_html_page,
    place,
)
from sitemap_plugins.page.chrome import (
    CHROME_WITNESSES,
    HOME_PAGE,
    PageBlocks,
    SiteChrome,
    local_pages,
    site_chrome,
)
from sitemap_plugins.page.codec import decode_record, encode_record
from sitemap_plugins.page.reader import (
    PageRecord,
    page_blocks,
    parts_digest,
    read_parts,
    read_record,
)
from sitemap_plugins.products.build.extras import (
    check_extra_targets,
    own_names,
    publish_key_file,
    withdraw,
    write_extras,
)
from sitemap_plugins.products.build.interrupt import sigterm_cleans_up
from sitemap_plugins.products.build.result import Result
from sitemap_plugins.products.build.targets import cache_folder, check_changes_file
from sitemap_plugins.vocab.dates import build_time, format_w3c
from sitemap_plugins.vocab.errors import (
    Diagnostic,
    Level,
    ScanError,
    SitemapError,
    WriteError,
    explain,
)
from sitemap_plugins.vocab.globs import GlobSet
from sitemap_plugins.vocab.urls import INDEX_NAMES, comparison_key

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence

    from sitemap_plugins.products.build.progress import Progress
    from sitemap_plugins.products.html_map.pages import SiteMapPages
    from sitemap_plugins.products.html_map.plan import HtmlEntry, NavNode
    from sitemap_plugins.vocab.dates import Lastmod
    from sitemap_plugins.vocab.options import SitemapConfig

log = logging.getLogger(__name__)

REASON_NOT_BUILT = "not written by this build"
REASON_HOOK = "left out by entry_hook"
PARALLEL_THRESHOLD = 5_000  # below it, a pool's start costs more CPU than it saves time
_CHUNK = 256  # pages a worker is sent at a time
_NO_PAGE = PageRecord("")


def make_rules(
    config: SitemapConfig, robots: RobotsRules | None, canonical_base: str | None = None,
    replaced_dates: Mapping[str, str] | None = None,
    source_commits: Mapping[str, tuple[Lastmod, bool]] | None = None,
) -> Rules:
    """Compile the config's globs once per run (the dates and commits: see ``Rules``)."""
    return Rules(
        canonical_base=canonical_base, source_commits=source_commits or {},
        replaced_dates={comparison_key(url): text
                        for url, text in (replaced_dates or {}).items()},
        config=config,
        include=GlobSet(config.include),
        exclude=GlobSet(config.exclude),
        changefreq=GlobSet(tuple(p for p, _ in config.changefreq)),
        priority=GlobSet(tuple(p for p, _ in config.priority)),
        robots=robots,
    )


def _read_robots(site: Path, config: SitemapConfig, result: Result) -> RobotsRules | None:
    if not config.respect_robots_txt:
        return None
    try:
        data = read_robots(site, MAX_ROBOTS_BYTES)
        return None if data is None else RobotsRules.from_bytes(data)
    except OSError as err:
        result.add_diagnostic(Diagnostic(
            "robots.txt", "unreadable", f"cannot be read ({err.strerror}); its rules are ignored"))
        return None


class _Source(NamedTuple):
    """A page's record and the cache's view of it."""

    record: PageRecord
    text: str
    """The record encoded for the cache ('' when nothing is kept)."""
    digest: bytes
    cached: bool
    mtime: float | None
    kept: Kept | None


class PageDone(NamedTuple):
    """One page through the step: what the main process counts, writes and keeps."""

    reason: str
    """Why it is left out; empty when it is listed."""
    rendered: Rendered | None
    diagnostics: tuple[Diagnostic, ...] = ()
    row: ManifestRow | None = None
    """What the next build should know of the file (when it was read)."""
    cached: bool = False
    rules_applied: tuple[tuple[str, int], ...] = ()
    page: HtmlEntry | None = None
    """The listed page as the HTML site map shows it (only when one is written)."""
    videos_skipped: tuple[str, ...] = ()
    """Why each video of the listed page that could not be listed was left out."""
    news: NewsItem | None = None
    """The listed page as a news article (only when a news sitemap is written)."""
    why: tuple[str, str] | None = None
    """The file's path and the decision, for ``explain`` (:func:`decision_text`)."""


@dataclass
class PageStep:
    """From a built file to its ``<url>`` element: everything a worker process needs."""

    rules: Rules
    hints: Mapping[str, PageHints]
    history: History
    chrome: SiteChrome | None = None
    """The home page's blocks, left out of pages without a content region (the CLI's)."""
    chrome_site: Path | None = None
    """Where the chrome is measured when a page is first read whole (a host's build)."""

    def _chrome(self) -> SiteChrome | None:
        """The chrome; in a host's build, measured once, when a page is first read whole."""
        if self.chrome_site is not None:
            self.chrome, self.chrome_site = _home_chrome(
                self.chrome_site, str(self.rules.config.base_url)), None
        return self.chrome

    def _source(self, built: BuiltFile, hints: PageHints | None) -> _Source:
        """The page's record (the host's content, the cache's, or the file's) and the cache's.

        Raises:
            OSError: when the file cannot be read.
        """
        config = self.rules.config
        rel = built.rel_path
        html = is_html_page(rel) or (hints is not None and hints.html)
        parts = hints.page if hints is not None else None
        if parts is not None and parts.head is None:  # the host left its written head to us
            head = read_head(built.abs_path)
            parts = None if head is None else parts._replace(head=head)
        if not html and not config.fingerprint:
            return _Source(_NO_PAGE, "", b"", cached=False, mtime=self._mtime(built), kept=None)
        if parts is not None:
            digest = parts_digest(parts) if config.fingerprint else b""
            mtime, same = self._mtime(built), False
        else:
            page = read_bytes(built.abs_path)
            digest, mtime = page.digest, page.mtime
            same = hints is not None and hints.unrendered
        kept = self.history.kept(rel) if config.fingerprint else None
        if kept is not None and self.history.records and (kept.digest == digest or same):
            record = decode_record(kept.record)
            if record is not None:
                return _Source(record, kept.record, digest, cached=True, mtime=mtime, kept=kept)
        home = str(config.base_url)
        record = (read_parts(parts, home) if parts is not None else
                  read_record(page, html=html, home=home,
                              chrome=self._chrome() if html else None))
        text = encode_record(record) if config.fingerprint else ""
        return _Source(record, text, digest, cached=False, mtime=mtime, kept=kept)

    def _mtime(self, built: BuiltFile) -> float | None:
        """The file's time, when lastmod_file_time asks for it."""
        return os.stat(built.abs_path).st_mtime if self.rules.config.lastmod_file_time else None

    def _asleep(self, rel: str, kept: Kept | None, digest: bytes, record: str) -> ManifestRow:
        """The row of a page left out: its record, and the history of its last listing."""
        return ManifestRow(path_key(rel), digest, record, "", "", "", "", "", (
            kept.url, kept.fingerprint, kept.lastmod, kept.source, kept.changed)
            if kept is not None and kept.url else self.history.asleep(rel))

    def run_chunk(self, files: list[BuiltFile]) -> list[PageDone]:
        """:meth:`run` over a chunk of files: what a worker process is handed."""
        return [self.run(built) for built in files]

    def run(self, built: BuiltFile) -> PageDone:
        """Read, evaluate, date and render one file; the steps in the module docstring."""
        done = self._run(built)
        if not self.rules.config.fingerprint or done.why is not None:
            return done  # the reason and notes say it all (unreadable, too large)
        return done._replace(why=(built.rel_path, decision_text(done.reason, done.diagnostics)))

    def _run(self, built: BuiltFile) -> PageDone:
        rel = built.rel_path
        hints = self.hints.get(rel)
        placed = place(rel, hints, self.rules)
        config = self.rules.config
        if placed.reason is not None:  # nothing in the page could change that: not read
            kept = self.history.kept(rel) if config.fingerprint else None
            rule = (config.exclude[self.rules.exclude.first_match(rel, placed.url_path) or 0]
                    if placed.reason == REASON_EXCLUDED else "")
            return PageDone(placed.reason, None, row=None if kept is None else self._asleep(
                rel, kept, kept.digest, kept.record), why=(rel, decision_text(
                    placed.reason, (), rule=rule)))
        try:
            seen, record_text, page_digest, cached, mtime, kept = self._source(built, hints)
        except OSError as err:
            return _unreadable(rel, err)
        decision = evaluate(rel, seen, hints, self.rules, mtime=mtime, placed=placed)
        entry = decision.result
        if isinstance(entry, Exclusion):
            row = self._asleep(rel, kept, page_digest, record_text) if record_text else None
            target = seen.refresh_url if entry.reason == REASON_REDIRECT else seen.canonical
            return PageDone(entry.reason, None, decision.diagnostics, row, cached, why=(
                rel, decision_text(entry.reason, decision.diagnostics, target=target)))
        row, changed = None, ""
        if config.fingerprint:
            settled = self.history.settle(entry.loc, entry.fingerprint, entry.lastmod,
                                          entry.lastmod_source, kept)
            if settled.lastmod is not entry.lastmod or settled.source is not entry.lastmod_source:
                entry = replace(entry, lastmod=settled.lastmod, lastmod_source=settled.source)
            changed = settled.changed
        if config.entry_hook is not None:
            from sitemap_plugins.products.build.hook import apply_hook  # noqa: PLC0415  # only then

            hooked = apply_hook(entry, config)
            if hooked is None:
                return PageDone(REASON_HOOK, None, decision.diagnostics, self._asleep(
                    rel, kept, page_digest, record_text) if record_text else None, cached,
                    why=(rel, decision_text(REASON_HOOK, decision.diagnostics)))
            entry = hooked
        if config.fingerprint:
            row = ManifestRow(path_key(rel), page_digest, record_text, entry.loc,
                              entry.fingerprint, entry.lastmod_w3c, entry.lastmod_source,
                              changed)
        diagnostics = decision.diagnostics
        element = render_url(entry)
        budget = config.max_bytes - _FRAME_BYTES
        # A UTF-8 character takes at most 4 bytes: most entries are never encoded here.
        if len(element) * 4 > budget and len(element.encode("utf-8")) > budget:
            fitted = _fit(entry, budget)
            if fitted is None:
                too_large = Diagnostic(rel, "entry-too-large", (
                    f"its <url> entry ({len(element.encode()):,} bytes) does not fit in "
                    f"max_bytes ({config.max_bytes:,}) even without its alternates, images "
                    "and videos; page left out"))
                return PageDone(REASON_TOO_LARGE, None, (*diagnostics, too_large), row, cached)
            entry, element, dropped = fitted
            diagnostics = (*diagnostics, Diagnostic(rel, "entry-too-large", (
                f"its <url> entry does not fit in max_bytes ({config.max_bytes:,}) with its "
                f"{dropped}; listed without them")))
        rendered = Rendered(entry.loc, element, entry.lastmod, len(entry.images),
                            len(entry.videos))
        shown = None
        if config.lists_pages:  # the HTML site map's modules are loaded only for them
            from sitemap_plugins.products.html_map.plan import HtmlEntry, page_title  # noqa: PLC0415

            shown = HtmlEntry(entry.loc, rel, page_title(seen.title, seen.heading, entry.loc),
                              seen.lang or "", "", seen.description or "",
                              (seen.title or "") if rel in INDEX_NAMES else "")
        why = (rel, decision_text(
            "", diagnostics, url=entry.loc, lastmod=entry.lastmod_w3c,
            source=entry.lastmod_source, changed=changed,
            dates=[(d.kind, format_w3c(d.value), d.source) for d in decision.dates],
            rules=[(option, *getattr(config, option)[index])
                   for option, index in decision.rules_applied],
            images=len(entry.images), videos=len(entry.videos),
            videos_left_out=decision.videos_skipped)) if config.fingerprint else None
        return PageDone("", rendered, diagnostics, row, cached, decision.rules_applied,
                        shown, decision.videos_skipped, entry.news, why)


# One encoder for every decision: json.dumps with arguments builds a new one at each call.
_DECISION_ENCODER = json.JSONEncoder(separators=(",", ":"))


def decision_text(reason: str, diagnostics: Iterable[Diagnostic], **found: object) -> str:
    """What ``explain`` tells of a page: one JSON object, without its empty values."""
    found = {"reason": reason, **found, "notes": [d.message for d in diagnostics]}
    return _DECISION_ENCODER.encode({key: value for key, value in found.items() if value})


_FRAME_BYTES = 1_024  # the <urlset> around one entry, at most
REASON_TOO_LARGE = "entry larger than max_bytes"


def _fit(entry: Entry, budget: int) -> tuple[Entry, str, str] | None:
    """The entry without alternates, then media, until it fits ``budget`` (None: never)."""
    steps = (("alternates", {"alternates": ()}),
             ("alternates, images and videos", {"alternates": (), "images": (), "videos": ()}))
    for dropped, changes in steps:
        smaller = replace(entry, **changes)  # type: ignore[arg-type]
        element = render_url(smaller)
        if len(element.encode("utf-8")) <= budget:
            return smaller, element, dropped
    return None


def _home_chrome(site: Path, base_url: str) -> SiteChrome | None:
    """The chrome of ``site``, from its home page and the first pages that links to.

    None without a readable home page or a page it links to (their own reads report why).
    """
    home = _blocks_of(site / HOME_PAGE)
    if home is None:
        return None
    witnesses: list[PageBlocks] = []
    seen = {HOME_PAGE}
    for href in home.links:
        for rel in local_pages(href, base_url):
            if rel in seen or not is_html_page(rel):
                continue
            seen.add(rel)
            found = _blocks_of(site / rel)
            if found is not None:
                witnesses.append(found)
                break
        if len(witnesses) >= CHROME_WITNESSES:
            break
    return site_chrome(home, witnesses)


def _blocks_of(path: Path) -> PageBlocks | None:
    try:
        return page_blocks(read_bytes(str(path)))
    except OSError:
        return None


def _unreadable(rel: str, err: OSError) -> PageDone:
    message = f"cannot be read: {err.strerror or err}"
    return PageDone(REASON_UNREADABLE, None, (Diagnostic(rel, "unreadable", message),))


def _worker_count(config: SitemapConfig) -> int:
    if config.workers:
        return config.workers
    return max(1, min(os.cpu_count() or 1, 8))


def run_pages(files: Iterable[BuiltFile], step: PageStep) -> Iterator[PageDone]:
    """Every file through the step, in scan order; in a pool of processes for a large site.

    Raises:
        SitemapError: when a worker process ends before its pages are done.
    """
    iterator = iter(files)
    head: list[BuiltFile] = []
    workers = _worker_count(step.rules.config)
    if workers > 1:
        for built in iterator:
            head.append(built)
            if len(head) >= PARALLEL_THRESHOLD:
                break
    if len(head) < PARALLEL_THRESHOLD:
        for built in itertools.chain(head, iterator):
            yield step.run(built)
        return
    import multiprocessing  # noqa: PLC0415  # only a large site needs a pool

    from sitemap_plugins.products.build.pool import Pool, WorkerLost  # noqa: PLC0415

    # A fresh interpreter per worker, never a fork of a host's threaded process.
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(["sitemap_plugins.products.build.pipeline"])
    every_file = itertools.chain(head, iterator)
    try:
        pool: Pool[BuiltFile, PageDone] = Pool(context, step.run_chunk, workers)
    except (OSError, EOFError) as err:  # EOFError: the fork server could not fork
        # No process can be started: the pages are read all the same, in this process.
        log.info("reading the pages in one process: no worker process can start here (%s)",
                 err)
        yield from map(step.run, every_file)
        return
    finished = False
    try:
        yield from pool.map(iter(lambda: list(itertools.islice(every_file, _CHUNK)), []))
        finished = True
    except WorkerLost:
        raise SitemapError(
            "a worker process reading the pages ended before its pages were done (killed, "
            "or out of memory?); nothing was written. A script that calls generate() must "
            'call it under `if __name__ == "__main__":`, which the workers do not run'
        ) from None
    finally:
        pool.close(finished=finished)


def write_entries(
    site: Path, config: SitemapConfig, entries: Iterable[Entry | Rendered],
    owned: Ownership | None = None,
) -> Installed | None:
    """Stream entries into sitemap files in ``site``; None when there was no entry.

    Raises:
        SitemapError: when the files cannot be written (old files are kept whole).
    """
    def open_part(name: str) -> Staged:
        return Staged(site / name)

    xml_writer = XmlSitemapWriter(
        open_part, config.sitemap_name, max_urls=config.max_urls, max_bytes=config.max_bytes,
        xhtml=config.hreflang, image=config.images, video=config.videos,
    )
    writers: list[Writer] = [xml_writer]
    if config.text:
        writers.append(TextSitemapWriter(open_part, config.sitemap_name, max_urls=config.max_urls,
                                         max_bytes=config.max_bytes))
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
        parts = [writer.finish() for writer in writers]
    except BaseException as err:
        for writer in writers:
            writer.discard()
        if isinstance(err, OSError):
            raise WriteError(str(site), f"cannot write the sitemap: {explain(err)}") from err
        raise
    return install(site, config, parts[0], parts[1] if config.text else None, owned)


def _listed(
    pages: Iterable[PageDone], result: Result, manifest: Manifest | None,
    html: SiteMapPages | None = None,
    progress: Progress | None = None, news: NewsSelection | None = None,
    *, hreflang: bool = True, shown: list[HtmlEntry] | None = None,
) -> Iterator[Rendered]:
    """The listed pages' ``<url>`` elements; each page counted, and kept (``shown``)."""
    for page in pages:
        if progress is not None:
            progress.done()
        for diagnostic in page.diagnostics:
            result.add_diagnostic(diagnostic)
        result.cached += page.cached
        if manifest is not None:
            manifest.keep(page.row, page.why)
        if page.rendered is None:
            result.excluded[page.reason] += 1
            continue
        result.listed += 1
        result.images += page.rendered.images
        result.videos += page.rendered.videos
        result.videos_skipped.update(page.videos_skipped)
        result.rules_applied.update(page.rules_applied)
        if shown is not None and page.page is not None:
            shown.append(page.page)
        if news is not None and page.news is not None:
            news.offer(page.news)
        yield page.rendered
    if html is not None and html.entries:  # the HTML site map's own pages, after the rest
        planned = html.plan()
        for diagnostic in html.diagnostics:
            result.add_diagnostic(diagnostic)
        for own in planned:
            alternates = (*(Alternate(t.lang, t.loc) for t in own.translations),
                          Alternate("x-default", own.translations[0].loc)) \
                if own.part == 1 and own.translations and hreflang else ()
            result.listed += 1
            yield Rendered(own.loc, render_url(Entry(own.loc, rel_path=own.rel_path,
                                                     alternates=alternates)), None)


def _with_extra_urls(listed: Iterator[Rendered], config: SitemapConfig,
                     result: Result) -> Iterator[Rendered]:
    """The listed pages, then ``extra_urls``; a built page of the same URL wins."""
    if not config.extra_urls:
        return listed
    extra = {comparison_key(url.loc): url for url in config.extra_urls}

    def chained() -> Iterator[Rendered]:
        for rendered in listed:
            if extra.pop(comparison_key(rendered.loc), None) is not None:
                result.add_diagnostic(Diagnostic("", "extra-url-built", (
                    f"extra_urls names {rendered.loc}, a page this build lists: listed once, "
                    "as the page (remove it from extra_urls)")))
            yield rendered
        for url in extra.values():
            result.listed += 1
            yield Rendered(url.loc, render_url(Entry(url.loc, url.lastmod)), url.lastmod)

    return chained()


def _without(files: Iterable[BuiltFile], html: SiteMapPages) -> Iterator[BuiltFile]:
    """The scan without the HTML site map's pages: they are listed by the pipeline."""
    return (built for built in files if not html.is_own_page(built.rel_path))


def check_products(config: SitemapConfig) -> None:
    """The checks of options that need a product (a template): hosts call it before rendering.

    Raises:
        ConfigError: naming the option.
    """
    if config.html_sitemap_template is not None:
        from sitemap_plugins.products.html_map.markup import load_template  # noqa: PLC0415  # only then

        load_template(config.html_sitemap_template)
    if config.entry_hook is not None:
        from sitemap_plugins.products.build.hook import load_hook  # noqa: PLC0415  # only then

        load_hook(config.entry_hook, fresh=True)


def generate(
    site_dir: str | os.PathLike[str], config: SitemapConfig, *,
    hints: Mapping[str, PageHints] | None = None, only: Collection[str] | None = None,
    written_since: int | None = None, canonical_base: str | None = None,
    progress: Progress | None = None, outline: Sequence[NavNode] = (),
    language_pages: Mapping[str, str] | None = None,
    stand_ins: Mapping[str, tuple[str, str]] | None = None, site_name: str = "",
    source_commits: Mapping[str, tuple[Lastmod, bool]] | None = None,
) -> Result:
    """Write the sitemap files for the built site in ``site_dir``.

    Args:
        site_dir: the built site.
        config: validated options.
        hints: what the host knows per page, keyed by path relative to the site root.
        only: when given, only these relative paths may be listed (files written by this
            build), and files written at ``written_since`` or later.
        written_since: when the host's build started, in ns (with ``only``).
        canonical_base: where the host points every page's canonical link instead of the
            base URL (mike's ``canonical_version``).
        progress: counts the files found and the pages read (a front-end shows it).
        outline: the host's navigation: how the HTML site map groups and titles its pages.
        language_pages: lower-case language code -> the path where the host rendered the
            HTML site map's page of that language (in its theme).
        stand_ins: fallback copies of untranslated pages, not listed: path -> (its language,
            the path of the page it copies), which that language's HTML site map links.
        site_name: the host's name of the site (llms.txt's heading; else the home page's).
        source_commits: see :attr:`~sitemap_plugins.entry.rules.Rules.source_commits`.

    Raises:
        ScanError: when ``site_dir`` is missing or not a folder.
        SitemapError: when the sitemap cannot be written (old files are kept whole).
    """
    if _starting_worker():
        # The caller's script imported again by a worker: it would wait for the lock.
        sys.stderr.write("sitemap-plugins: generate() called again while a worker process "
                         'imported the script; call it under `if __name__ == "__main__":`\n')
        raise SystemExit(1)
    check_products(config)
    site = Path(site_dir)
    if not site.is_dir():
        raise ScanError(str(site), "is not a folder (build the site first?)")
    cache_dir = cache_folder(site, config) if config.fingerprint else None
    check_changes_file(site, config, cache_dir)
    # A second build of the site waits for the first; SIGTERM unwinds as Ctrl-C does.
    with sigterm_cleans_up(), site_lock(site, cache_dir):
        try:
            return _generate(site, config, cache_dir, hints=hints, only=only,
                             written_since=written_since, canonical_base=canonical_base,
                             progress=progress, outline=outline,
                             language_pages=language_pages or {}, stand_ins=stand_ins or {},
                             site_name=site_name,
                             source_commits=source_commits)
        except KeyboardInterrupt:
            discard_unfinished()  # one a writer had not in hand yet to delete (see site)
            raise


def _starting_worker() -> bool:
    """Whether this is a worker process importing its parent's main script."""
    process = sys.modules.get("multiprocessing.process")  # never imported for a small site
    return process is not None and bool(getattr(process.current_process(), "_inheriting", False))


def _generate(
    site: Path, config: SitemapConfig, cache_dir: Path | None, *,
    hints: Mapping[str, PageHints] | None, only: Collection[str] | None,
    written_since: int | None, canonical_base: str | None, progress: Progress | None,
    outline: Sequence[NavNode],
    language_pages: Mapping[str, str], stand_ins: Mapping[str, tuple[str, str]],
    site_name: str = "",
    source_commits: Mapping[str, tuple[Lastmod, bool]] | None = None,
) -> Result:
    """:func:`generate`, with the site held by this build."""
    sitemap_url = f"{config.base_url}{config.sitemap_name}.xml"
    result = Result(sitemap_url=sitemap_url)
    for leftover in remove_leftovers(site):
        log.debug("removed %s, left by an interrupted run", leftover)
    rules = make_rules(config, _read_robots(site, config, result), canonical_base,
                       replaced_dates(site, config.sitemap_name, str(config.base_url)),
                       source_commits)

    def on_skip(rel: str, reason: str, diagnostic: Diagnostic | None) -> None:
        result.excluded[reason] += 1
        if manifest is not None:
            manifest.keep(None, (rel, decision_text(reason, [diagnostic] if diagnostic else [])))
        if diagnostic is not None:
            result.add_diagnostic(diagnostic)

    files: Iterable[BuiltFile] = scan_site(
        str(site), extensions=config.extensions, sitemap_name=config.sitemap_name,
        directory_urls=config.directory_urls, on_skip=on_skip,
        own_names=own_names(config))
    html: SiteMapPages | None = None
    shown: list[HtmlEntry] = []
    if config.html_sitemap is not None:
        from sitemap_plugins.products.html_map.pages import SiteMapPages  # noqa: PLC0415  # only then

        pages = SitePages(site)
        pages.check_free(config.html_sitemap)
        html = SiteMapPages(pages, config.html_sitemap, config.base_url, config.directory_urls,
                            config.html_sitemap_depth, config.html_sitemap_template, outline,
                            language_pages, extensionless_urls=config.extensionless_urls,
                            stand_ins=stand_ins)
        files, shown = _without(files, html), html.entries
    if only is not None:
        files = _only(files, set(only), written_since, on_skip)
    if progress is not None:
        files = progress.counted(files)
    owned = Ownership.load(site, cache_dir, replace_files=config.replace_files,
                           base=str(config.base_url))
    check_extra_targets(site, config, owned)
    manifest = (Manifest(cache_dir, str(config.base_url), build_time(), site,
                         own_files=[record_path(cache_dir, site).name],
                         sitemap_name=config.sitemap_name)
                if cache_dir is not None else None)
    history = manifest.history if manifest is not None else History(None, build_time())
    # The CLI reads whole pages: the home page's blocks tell the chrome (see PageStep._chrome).
    chrome = (_home_chrome(site, str(config.base_url)) if not hints and config.fingerprint
              else None)
    step = PageStep(rules, hints or {}, history, chrome,
                    site if hints and config.fingerprint else None)
    news = NewsSelection(build_time()) if config.news is not None else None
    try:
        installed = write_entries(site, config, _with_extra_urls(_listed(
            run_pages(files, step), result, manifest, html, progress, news,
            hreflang=config.hreflang, shown=shown), config, result), owned)
        if manifest is not None:
            for diagnostic in manifest.diagnostics:
                result.add_diagnostic(diagnostic)
            if history.failed:
                result.add_diagnostic(Diagnostic(
                    "", "bad-manifest", f"{history.failed}; its dates were not all used",
                    Level.INFO))
            # The URLs only with a baseline (or a changes file): a first build's are all new.
            result.changes = manifest.changes(
                with_urls=bool(config.changes_file) or manifest.has_baseline)
            if config.changes_file:
                write_changes(Path(config.changes_file), result.changes)
            # Before the manifest moves on: a crash in between records them again.
            for diagnostic in record_pending(manifest.cache_dir, result.changes):
                result.add_diagnostic(diagnostic)
            manifest.save()
        elif config.changes_file:
            result.add_diagnostic(Diagnostic(
                "", "changes-file-off", "changes_file is set but fingerprint is off: without "
                "the manifest no change is known, so the file was not written"))
    except BaseException:
        if manifest is not None:
            manifest.discard()
        raise
    finally:
        if progress is not None:
            progress.finish()
    _unused_rules(config, result)
    if installed is None:
        withdraw(site, config, result, owned)
    else:
        result.files.extend(installed.files)
        result.removed = installed.removed
        result.split = installed.split
        write_extras(site, config, result, html, news, (shown, outline, site_name))
    if config.indexnow_key:
        publish_key_file(site, config, result)
    for diagnostic in owned.diagnostics:
        result.add_diagnostic(diagnostic)
    result.diagnostics.sort()
    log.debug("%d page records came from the cache (same bytes)", result.cached)
    return result


def _only(files: Iterable[BuiltFile], allowed: set[str], since: int | None,
          on_skip: SkipCallback) -> Iterator[BuiltFile]:
    for built in files:
        if built.rel_path in allowed or (since is not None and _written_since(built, since)):
            yield built
        else:
            on_skip(built.rel_path, REASON_NOT_BUILT, None)


def _written_since(built: BuiltFile, since: int) -> bool:
    """Whether a file was written (or copied: by its inode's change time) at ``since`` or later."""
    try:  # 20 ms: a file's times tick coarser than the clock (a kernel's jiffy)
        return max((st := os.stat(built.abs_path)).st_mtime_ns, st.st_ctime_ns) >= since - 2e7
    except OSError:
        return True  # its read says why


def _unused_rules(config: SitemapConfig, result: Result) -> None:
    """A changefreq or priority rule that set nothing: a glob that matches no listed page."""
    if not result.listed:
        return
    for option in ("changefreq", "priority"):
        for index, (pattern, value) in enumerate(getattr(config, option)):
            if (option, index) not in result.rules_applied:
                result.add_diagnostic(Diagnostic(
                    "", "unused-rule",
                    f"{option} rule {pattern!r}: {value!r} matches no listed page (or an "
                    "earlier rule always matches first); globs match file paths such as "
                    "'blog/*.html' or URL paths such as 'blog/**'"))


__all__ = ["Entry", "PageHints", "Result", "SitemapError", "generate"]
