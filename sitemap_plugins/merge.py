"""``sitemap-plugins merge``: one sitemap index over the builds below a folder.

A host serves several builds under one root: mike's documentation versions, a blog beside the
docs, sections of a large site built by parallel CI jobs. Each build wrote its own sitemap;
this module ties them together::

    find_builds      -> Build          the builds below ROOT that this tool wrote, and ROOT's own
    read_build       -> SitemapFile    each urlset a build offers, streamed: scope, count, newest
    plan_indexes     -> rendered       one index, or several past the protocol's limits
    write            -> files          root urlset moved to a part name, indexes, robots.txt

How a build is known to be ours: a build whose base URL has a path (every build below ROOT)
writes ``robots-sitemap.txt``, the fragment that asks for its ``Sitemap:`` line in the host's
robots.txt. The fragment names the sitemap, so it says both that this tool wrote it and which
base URL the build was made for. A folder with a sitemap but no such fragment is foreign (a
theme's or another generator's): it is reported and left out.

Only the children's sitemap files are read, each streamed, never a page: memory stays flat
whatever the number of URLs. Nothing is written until every check has passed, each file is
replaced atomically, and a file whose bytes would not change is not written at all, so a
second merge with nothing changed leaves every byte and time stamp as it was.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sitemap_plugins.cache_keys import default_cache_dir
from sitemap_plugins.dates import Newest, parse_w3c
from sitemap_plugins.doc_versions import (
    VERSIONS_FILE,
    VERSIONS_SHAPE,
    Versions,
    parse_versions,
    read_the_docs_versions,
)
from sitemap_plugins.errors import (
    ConfigError,
    Diagnostic,
    Level,
    ScanError,
    SitemapError,
    WriteError,
    explain,
)
from sitemap_plugins.options import FRAGMENT_NAME
from sitemap_plugins.owned import identify, is_own_file
from sitemap_plugins.render import OWN, NotASitemapError, gzip_stream, render_indexes
from sitemap_plugins.result import counted
from sitemap_plugins.robots_txt import (
    create_robots,
    fragment_sitemap,
    merge_sitemap_lines,
    render_fragment_lines,
    without_sitemap_lines,
)
from sitemap_plugins.site import (
    commit,
    discard,
    is_regular,
    list_names,
    read_chunks,
    read_editable,
    read_file,
    read_own,
    remove_files,
    remove_leftovers,
    same_files,
    site_lock,
    sitemap_entries,
    sitemap_kind,
    stage,
    what_stands,
    write_bytes_atomic,
    write_if_changed,
)
from sitemap_plugins.urls import (
    encode_path,
    is_under,
    parse_base_url,
    scope_form,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from sitemap_plugins.dates import Lastmod
    from sitemap_plugins.options import SitemapConfig
    from sitemap_plugins.progress import Progress

_MAX_FRAGMENT = 65_536
_MAX_VERSIONS_FILE = 16 * 1024 * 1024
# At most this many problems are kept; the rest are counted (a broken child of 50,000 URLs
# must not print 50,000 lines).
MAX_PROBLEMS = 50
# The root's own URLs inside builds' folders are remembered to find URLs listed twice; past
# this many the root build plainly lists the builds' pages, and memory must stay bounded.
MAX_CLAIMED = 100_000


def root_part_name(name: str) -> str:
    """Where the root's own urlset goes, once ``<name>.xml`` is the index."""
    return f"{name}-root.xml"


def index_name(name: str, number: int) -> str:
    """The root index files: ``sitemap.xml``, then ``sitemap-index-2.xml``, ..."""
    return f"{name}.xml" if number == 1 else f"{name}-index-{number}.xml"


@dataclass(frozen=True)
class Build:
    """One build below ROOT (or ROOT's own pages, ``folder == ""``)."""

    folder: str
    """POSIX path below ROOT; empty for ROOT's own pages."""
    base: str
    """The base URL its URLs lie under."""
    sitemap: str
    """The file that names its URLs, in ``folder``: a urlset, or an index over its parts."""

    @property
    def label(self) -> str:
        """How messages name it."""
        if not self.folder:
            return f"{self.sitemap} (the root's own pages)"
        return f"{self.folder}/{self.sitemap}"


@dataclass(frozen=True)
class SitemapFile:
    """One urlset the root index names."""

    path: str
    """POSIX path below ROOT of the file read."""
    loc: str
    """Its URL in the root index (the root's own urlset: under its new part name)."""
    lastmod: str
    """The newest lastmod inside, as written there; empty when none."""
    urls: int


class MergeError(SitemapError):
    """The builds cannot be merged as they are; nothing was written."""

    def __init__(self, problems: list[str], more: int = 0) -> None:
        self.problems = problems
        self.more = more
        tail = f" (and {more:,} more problems)" if more else ""
        super().__init__(problems[0] + tail if len(problems) == 1 else
                         f"{len(problems) + more:,} problems; the first: {problems[0]}{tail}")


@dataclass
class Merged:
    """What a merge did."""

    index_urls: list[str] = field(default_factory=list)
    builds: list[Build] = field(default_factory=list)
    """The builds the root index offers, in its order."""
    not_offered: list[str] = field(default_factory=list)
    """Versions (mike's, Read the Docs') left out of the root index (their own sitemaps stay)."""
    not_offered_urls: set[str] = field(default_factory=set, repr=False)
    """Their sitemaps' URLs (robots.txt should not name them either)."""
    sitemaps: int = 0
    urls: int = 0
    files: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def summary(self) -> list[str]:
        """The merge in a few lines, for a terminal."""
        shown = [b.folder + "/" if b.folder else "(root)" for b in self.builds[:8]]
        if len(self.builds) > len(shown):
            shown.append(f"... {len(self.builds) - len(shown):,} more")
        names = ", ".join(shown)
        lines = [f"Merged {counted(len(self.builds), 'build')} ({names}): "
                 f"{counted(self.sitemaps, 'sitemap')}, {counted(self.urls, 'URL')}, in "
                 + ", ".join(self.index_urls)]
        if self.not_offered:
            lines.append("Not offered to crawlers (other versions, own sitemaps kept): "
                         + ", ".join(self.not_offered))
        lines.append("Wrote: " + (", ".join(self.files) or "nothing (all up to date)"))
        if self.removed:
            lines.append("Removed stale: " + ", ".join(self.removed))
        return lines


class _Problems:
    """Problems found while reading: kept up to ``MAX_PROBLEMS``, then counted."""

    def __init__(self) -> None:
        self.kept: list[str] = []
        self.more = 0

    def add(self, message: str) -> None:
        if len(self.kept) < MAX_PROBLEMS:
            self.kept.append(message)
        else:
            self.more += 1

    def raise_any(self) -> None:
        if self.kept:
            raise MergeError(self.kept, self.more)


# -- mike's and Read the Docs' versions (sitemap_plugins.doc_versions) ------------------------


def read_versions(root: Path) -> Versions | None:
    """The ``versions.json`` that mike keeps at ``root``; None when there is none.

    Raises:
        MergeError: when it is there but is not mike's list of versions.
    """
    path = root / VERSIONS_FILE
    if not path.is_file():
        if not os.path.lexists(path):
            return None
        # A folder, a pipe or a broken link there was read as "no versions.json": every
        # version was offered, the choice of the ones to offer undone without a word.
        what = what_stands(path) or "not a regular file"
        if what == "a symbolic link":
            what = "a symbolic link to no regular file"
        msg = (f"{VERSIONS_FILE}: is {what}, not mike's list of versions; put mike's file "
               "back (mike deploy writes it), or remove it to offer every build")
        raise MergeError([msg])
    try:
        return parse_versions(read_file(path, _MAX_VERSIONS_FILE))
    except (OSError, ValueError) as err:
        detail = err.strerror if isinstance(err, OSError) else VERSIONS_SHAPE
        msg = f"{VERSIONS_FILE}: is not mike's list of versions ({detail})"
        raise MergeError([msg]) from None


def offer_read_the_docs(builds: list[Build], patterns: tuple[str, ...], merged: Merged, *,
                        default: bool) -> list[Build] | None:
    """The builds of the chosen versions in every language, on Read the Docs' layout.

    The others go to ``merged.not_offered``, as mike's versions do. None when the builds are
    not laid out so (:func:`~sitemap_plugins.doc_versions.read_the_docs_versions`).

    Raises:
        ConfigError: for a pattern that names no version.
    """
    chosen = read_the_docs_versions([build.folder for build in builds], patterns,
                                    default=default)
    if chosen is None:
        return None
    offered: list[Build] = []
    for build in builds:
        if build.folder in chosen:
            offered.append(build)
        else:
            merged.not_offered.append(build.folder)
            merged.not_offered_urls.add(build.base + build.sitemap)
    return offered


# -- finding the builds -----------------------------------------------------------------------


def _child_base(root_base: str, folder: str) -> str:
    return str(parse_base_url(root_base + encode_path(folder) + "/"))


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _read_fragment(folder: Path) -> tuple[bool, str | None]:
    """(a fragment file is there, the sitemap URL it names when this tool wrote it)."""
    path = folder / FRAGMENT_NAME
    if not is_regular(path):
        return False, None
    data = read_own(path, _MAX_FRAGMENT)
    return True, None if data is None else fragment_sitemap(data)


def find_builds(
    root: Path, config: SitemapConfig, versions: Versions | None, chosen: list[str],
    problems: _Problems, merged: Merged,
) -> list[Build]:
    """The builds below ``root`` that the root index offers, sorted by folder.

    Folders are listed breadth-first, each once, until a build is met: a build's own folder
    is its business (its build scanned it), so the walk never descends into it and reads no
    page.
    """
    root_base = str(config.base_url)
    name = config.sitemap_name
    builds: list[Build] = []
    aliases = versions.alias_names if versions is not None else set()
    queue: deque[str] = deque([""])
    while queue:
        folder = queue.popleft()
        try:
            with os.scandir(root / folder if folder else root) as listing:
                entries = sorted(((e.name, _is_dir(e)) for e in listing), key=lambda e: e[0])
        except OSError as err:
            problems.add(f"{folder or '.'}/: cannot be listed ({err.strerror})")
            continue
        version = versions is not None and folder in versions.aliases
        if folder:
            files = {entry for entry, is_dir in entries if not is_dir}
            build = None
            if FRAGMENT_NAME in files or f"{name}.xml" in files:
                build = _build_in(root, folder, root_base, name, problems, merged)
                if build is not None:
                    builds.append(build)
            if version and build is None:
                problems.add(
                    f"{folder}/: version {folder} is to be offered, but no sitemap written by "
                    f"sitemap-plugins is there (no {FRAGMENT_NAME} naming one); "
                    "build it with the plugin, or choose other --versions")
            if build is not None or version or f"{name}.xml" in files:
                continue  # a build, or another tool's: not searched further
        for entry, is_dir in entries:
            if not is_dir or entry.startswith("."):
                continue
            rel = f"{folder}/{entry}" if folder else entry
            if not folder and versions is not None:
                if entry in aliases:
                    continue  # a mike alias: its pages are its version's
                if entry in versions.aliases and entry not in chosen:
                    merged.not_offered.append(entry)
                    url = _read_fragment(root / rel)[1]
                    if url is not None:
                        merged.not_offered_urls.add(url)
                    continue
            queue.append(rel)
    return sorted(builds, key=lambda b: b.folder.split("/"))


def _build_in(
    root: Path, rel: str, root_base: str, name: str, problems: _Problems, merged: Merged,
) -> Build | None:
    """The build in folder ``rel``, when this tool wrote one there."""
    folder = root / rel
    has_fragment, url = _read_fragment(folder)
    if url is None:
        if has_fragment or (folder / f"{name}.xml").exists():
            merged.diagnostics.append(Diagnostic(
                f"{rel}/", "foreign-sitemap",
                f"has a sitemap that sitemap-plugins did not write (no {FRAGMENT_NAME} "
                "of ours naming it); left out of the index"))
        return None
    expected = _child_base(root_base, rel)
    built_for, _, file_name = url.rpartition("/")
    try:
        built_base = str(parse_base_url(built_for + "/"))
    except ValueError:
        built_base = built_for + "/"
    if built_base != expected:
        problems.add(
            f"{rel}/: built for {built_base}, but below {root_base} this folder is served at "
            f"{expected}; build it again with base_url {expected}")
        return None
    if not file_name.endswith(".xml") or not is_regular(folder / file_name):
        problems.add(f"{rel}/{FRAGMENT_NAME}: names {url}, which is not a sitemap "
                     "file in that folder; build it again")
        return None
    return Build(rel, expected, file_name)


# -- reading sitemaps, streamed (sitemap_plugins.site.sitemap_entries) ------------------------


class _Reader:
    """Reads the builds' urlsets in order; checks scope, and URLs listed by two builds."""

    def __init__(self, root: Path, builds: list[Build], problems: _Problems,
                 progress: Progress | None = None) -> None:
        self.root = root
        self.problems = problems
        self.progress = progress
        # The root's own URLs that lie in a build's folder, with the files that list them:
        # only these can be listed twice (builds' folders never nest).
        self.claimed: dict[str, str] = {}
        self.child_bases = sorted(b.base for b in builds if b.folder)

    def _in_child_folder(self, loc: str) -> bool:
        # Builds' folders never nest, so only the greatest base not after the URL can hold it.
        position = bisect_right(self.child_bases, loc)
        return position > 0 and loc.startswith(self.child_bases[position - 1])

    def _claim(self, url: str, label: str) -> None:
        if len(self.claimed) < MAX_CLAIMED:
            self.claimed.setdefault(url, label)
        elif len(self.claimed) == MAX_CLAIMED:
            self.claimed[""] = label  # said once
            self.problems.add(
                f"{label}: lists more than {MAX_CLAIMED:,} URLs in the folders of other builds; "
                "build the root's own pages with those folders excluded")

    def read_urlset(self, build: Build, rel: str, loc: str) -> SitemapFile:
        """Stream one urlset of ``build``; the file's entry for the root index."""
        newest = Newest()
        count = outside = 0
        first_outside = ""
        own = not build.folder
        label = f"{rel} ({'the root' if own else build.folder + '/'})"
        path = self.root / rel
        try:
            for kind, url, lastmod in sitemap_entries(path):
                if kind != "urlset":
                    self.problems.add(f"{rel}: is a sitemap index inside a sitemap index; the "
                                      "protocol does not allow indexes to nest")
                    break
                count += 1
                if self.progress is not None:  # the total is not known before: found = read
                    self.progress.found()
                    self.progress.done()
                newest.see(lastmod)
                # Compared in one form: ".../blog/../docs/" is in docs/, not blog/, and
                # ".../%64ocs/page.html" is the docs build's page.
                resolved = scope_form(url)
                if not resolved.startswith(build.base):
                    outside += 1
                    first_outside = first_outside or url
                elif own:
                    if self.child_bases and self._in_child_folder(resolved):
                        self._claim(resolved, label)
                elif resolved in self.claimed:
                    self.problems.add(f"{url} is listed by two builds: "
                                      f"{self.claimed[resolved]} and {label}; leave it out of "
                                      "one (exclude it there)")
        except NotASitemapError as err:
            self.problems.add(f"{rel}: {err}")
        except OSError as err:
            self.problems.add(f"{rel}: cannot be read ({err.strerror})")
        if outside:
            self.problems.add(
                f"{rel}: {outside:,} URL{'s' if outside > 1 else ''} outside {build.base}, the "
                f"folder this sitemap covers (first: {first_outside}); a sitemap may only list "
                "URLs in its own folder and below")
        if not count and not outside:
            self.problems.add(f"{rel}: lists no URL")
        return SitemapFile(rel, loc, newest.text, count)

    def read_build(self, build: Build, own_parts: list[str] | None = None) -> list[SitemapFile]:
        """Every urlset of ``build``: its sitemap, or the parts its index names.

        A build below the root is read while no build of it runs (its index and parts
        are then one build's); the root itself is held by the merge.
        """
        if own_parts is not None:  # the root's own pages, as the last merge left them
            return [self.read_urlset(build, p, build.base + p) for p in own_parts]
        if not build.folder:
            return self._read_build(build)
        with site_lock(self.root / build.folder, None):
            return self._read_build(build)

    def _read_build(self, build: Build) -> list[SitemapFile]:
        rel = f"{build.folder}/{build.sitemap}" if build.folder else build.sitemap
        kind = sitemap_kind(self.root / rel)
        if kind == "urlset":
            loc = build.base + (root_part_name(Path(build.sitemap).stem) if not build.folder
                                else build.sitemap)
            return [self.read_urlset(build, rel, loc)]
        if kind != "sitemapindex":
            self.problems.add(f"{rel}: is not a sitemaps.org urlset or sitemap index")
            return []
        files: list[SitemapFile] = []
        try:
            parts = [loc for _, loc, _ in sitemap_entries(self.root / rel)]
        except (NotASitemapError, OSError) as err:
            self.problems.add(f"{rel}: {err}")
            return []
        for part_url in parts:
            part = (part_url[len(build.base):] if is_under(part_url, build.base)
                    and scope_form(part_url) == part_url else "")
            if not part or "/" in part or not is_regular(self.root / build.folder / part):
                self.problems.add(f"{rel}: names {part_url}, which is not a file in "
                                  f"{build.folder or 'the root'} folder")
                continue
            part_rel = f"{build.folder}/{part}" if build.folder else part
            files.append(self.read_urlset(build, part_rel, part_url))
        return files


# -- the root's own pages ---------------------------------------------------------------------


def _own_pages(root: Path, config: SitemapConfig, problems: _Problems) -> tuple[
        Build | None, list[str] | None]:
    """ROOT's own pages: (the build, and the parts a previous merge named) or (None, None).

    ``<name>.xml`` at ROOT is the root build's urlset, or an index: the root build's over its
    numbered parts, or a previous merge's, whose entries at the root level are the root's own
    parts (entries in sub-folders are builds, found again).
    """
    base = str(config.base_url)
    name = config.sitemap_name
    main = root / f"{name}.xml"
    if not main.exists():
        return None, None
    if not is_regular(main):
        problems.add(f"{main.name}: is not a regular file")
        return None, None
    kind = sitemap_kind(main)
    if kind == "urlset":
        return Build("", base, main.name), None
    if kind != "sitemapindex":
        problems.add(f"{main.name}: is not a sitemaps.org urlset or sitemap index; move it away "
                     "(the root index is written there)")
        return None, None
    parts: list[str] = []
    own_part = re.compile(rf"{re.escape(name)}-(?:\d+|root)\.xml\Z")
    number = 1
    while (root / index_name(name, number)).is_file():
        file_name = index_name(name, number)
        try:
            for _, loc, _ in sitemap_entries(root / file_name):
                rest = (loc[len(base):] if is_under(loc, base)
                        and scope_form(loc) == loc else None)
                if rest is not None and "/" in rest:
                    continue  # a build's sitemap: found again by the walk
                if rest is None or not own_part.match(rest):
                    problems.add(
                        f"{file_name}: names {loc}, which is not a file that sitemap-plugins "
                        "writes; the root index replaces this file, so move it away first")
                    continue
                if not is_regular(root / rest):
                    continue  # gone since: the root's own pages are no longer listed there
                if rest not in parts:
                    parts.append(rest)
        except (NotASitemapError, OSError) as err:
            problems.add(f"{file_name}: {err}")
            return None, None
        number += 1
    if not parts:
        return None, None
    return Build("", base, main.name), parts


# -- the root indexes -------------------------------------------------------------------------


def plan_indexes(
    files: list[SitemapFile], config: SitemapConfig
) -> list[tuple[bytes, list[SitemapFile]]]:
    """The root index files (bytes, and the sitemaps each names), split before either limit.

    An index may not name another index (sitemaps.org), so past ``max_urls`` entries or
    ``max_bytes`` there are several root indexes, each named in robots.txt.
    """
    indexes: list[tuple[bytes, list[SitemapFile]]] = []
    start = 0
    for data, count in render_indexes([(f.loc, f.lastmod) for f in files],
                                      max_urls=config.max_urls, max_bytes=config.max_bytes):
        indexes.append((data, files[start:start + count]))
        start += count
    return indexes


def _gzip_bytes(data: bytes, newest: Lastmod | None) -> bytes:
    # No file name, and the newest lastmod as the header time: as a build's .gz.
    return b"".join(gzip_stream([data], newest))


def _newest_of(texts: list[str]) -> tuple[str, Lastmod | None]:
    newest = Newest()
    for text in texts:
        newest.see(text)
    return newest.text, parse_w3c(newest.text) if newest.text else None


# -- the merge --------------------------------------------------------------------------------


def merge(root_dir: str | os.PathLike[str], config: SitemapConfig, *,
          versions_given: bool = False, progress: Progress | None = None) -> Merged:
    """Write one sitemap index at ``root_dir`` over the builds below it.

    Args:
        root_dir: the folder served at ``config.base_url``.
        config: ``base_url``, ``sitemap_name``, ``gzip``, ``robots_txt``, ``max_urls``,
            ``max_bytes`` and ``versions`` are used.
        versions_given: whether ``versions`` was chosen (else it is the default).
        progress: counts the builds' URLs as they are read (a front-end shows it).

    Raises:
        ScanError: when ``root_dir`` is not a folder.
        ConfigError: when ``versions`` names nothing in versions.json.
        MergeError: listing what stops the merge; nothing was written.
        WriteError: when a file cannot be written (each file is whole, old or new).
        BusyError: when a build of the root, or of a build below it, is still running after
            the wait (:data:`sitemap_plugins.site.WAIT_SECONDS`); nothing was written.
    """
    root = Path(root_dir)
    if not root.is_dir():
        raise ScanError(str(root), "is not a folder (build the sites first?)")
    # A build of the root's own pages writes these files too, and removes the temporary files
    # it finds: a merge and such a build wait for each other, as two builds do.
    with site_lock(root, None):
        return _merge(root, config, versions_given=versions_given, progress=progress)


def _merge(root: Path, config: SitemapConfig, *, versions_given: bool,
           progress: Progress | None) -> Merged:
    remove_leftovers(root)
    merged = Merged()
    problems = _Problems()
    versions = read_versions(root)
    chosen: list[str] = []
    if versions is not None:
        chosen = versions.choose(config.versions, default=not versions_given)
    own, own_parts = _own_pages(root, config, problems)
    children = find_builds(root, config, versions, chosen, problems, merged)
    if versions is None:
        offered = offer_read_the_docs(children, config.versions, merged,
                                      default=not versions_given)
        if offered is None and versions_given:
            msg = (f"Applies only to a folder with mike's {VERSIONS_FILE} or Read the Docs' "
                   f"<language>/<version>/ builds, and {str(root)!r} has neither")
            raise ConfigError("versions", msg)
        children = children if offered is None else offered
    builds = ([own] if own is not None else []) + children
    problems.raise_any()
    if not builds:
        msg = (f"{root}: no build of sitemap-plugins below it (a build below the root writes "
               f"{FRAGMENT_NAME} naming its sitemap; is robots_txt 'off' there?)")
        raise MergeError([msg])
    reader = _Reader(root, builds, problems, progress)
    files: list[SitemapFile] = []
    try:
        for build in builds:
            files.extend(reader.read_build(build, own_parts if build is own else None))
    finally:
        if progress is not None:
            progress.finish()
    problems.raise_any()
    merged.builds = builds
    merged.sitemaps = len(files)
    merged.urls = sum(f.urls for f in files)
    try:
        _write(root, config, own, own_parts, files, children, merged)
    except OSError as err:  # a copy or a .gz that cannot be written: each file stays whole
        raise WriteError(str(root), f"cannot write the sitemap index: {explain(err)}") from err
    _see_published_caches(root, children, merged)
    merged.diagnostics.sort()
    return merged


def _see_published_caches(root: Path, children: list[Build], merged: Merged) -> None:
    """Warn when the builds' default cache folder, inside the merged root, holds their data.

    A build below the root keeps its cache beside its own folder by default, which is inside
    the root that is published: the lastmod manifest and the IndexNow list went online
    without a word. Its lock files alone (every build and merge makes them) are left unsaid.
    """
    folders = sorted({default_cache_dir(root / build.folder) for build in children})
    resolved = root.resolve()
    for folder in folders:
        data = [name for name in list_names(folder)
                if name != ".gitignore" and not name.endswith(".lock")]
        if data:
            rel = folder.relative_to(resolved).as_posix()
            merged.diagnostics.append(Diagnostic(
                f"{rel}/", "cache-published",
                f"holds the cache of builds below the root ({data[0]}"
                f"{', ...' if len(data) > 1 else ''}), and the root is published: give those "
                "builds a cache_dir outside it, move the folder there, and deploy again"))


def _write_if_changed(path: Path, data: bytes, merged: Merged) -> None:
    if write_if_changed(path, data):
        merged.files.append(path.name)


def _write(
    root: Path, config: SitemapConfig, own: Build | None, own_parts: list[str] | None,
    files: list[SitemapFile], children: list[Build], merged: Merged,
) -> None:
    name = config.sitemap_name
    base = str(config.base_url)
    keep: set[str] = set()
    indexes = plan_indexes(files, config)
    targets = [index_name(name, n) for n in range(1, len(indexes) + 1)]
    if own is not None and own_parts is None:
        targets.append(root_part_name(name))
    _refuse_foreign(root, [*targets, *(t + ".gz" for t in targets)] if config.gzip else targets)
    if config.base_url.robots_mode(config.robots_txt) == "fragment":
        # A user's own file of that name (notes, a hand-made fragment) was replaced silently.
        _refuse_foreign(root, [FRAGMENT_NAME],
                        ours=lambda path: is_own_file(path.parent, path.name),
                        would=("the merge would replace it with the Sitemap: lines of its "
                               "index: rename it, or set robots_txt to 'off'"))
    # 1. The root's own urlset moves to its part name (a copy first: sitemap.xml stays whole
    #    until the index replaces it).
    if own is not None and own_parts is None:
        part = root_part_name(name)
        keep.add(part)
        own_file = next(f for f in files if f.path == own.sitemap)
        if config.gzip:
            keep.add(part + ".gz")
        merged.files.extend(_install_copy(
            root / own.sitemap, root / part,
            parse_w3c(own_file.lastmod) if own_file.lastmod else None, packed=config.gzip))
    elif own_parts is not None:
        keep.update(own_parts)
        keep.update(p + ".gz" for p in own_parts)
    # 2. The indexes: the extra ones first, sitemap.xml last (it names the others' siblings).
    for number in [*range(2, len(indexes) + 1), 1]:
        file_name = index_name(name, number)
        keep.add(file_name)
        data, named = indexes[number - 1]
        _write_if_changed(root / file_name, data, merged)
        if config.gzip:
            keep.add(file_name + ".gz")
            _, newest = _newest_of([f.lastmod for f in named])
            _write_if_changed(root / (file_name + ".gz"), _gzip_bytes(data, newest), merged)
    merged.index_urls = [base + index_name(name, n) for n in range(1, len(indexes) + 1)]
    # 3. robots.txt names the indexes, and no longer the builds' own sitemaps.
    dropped = {c.base + c.sitemap for c in children} | merged.not_offered_urls
    dropped.update(f.loc for f in files if "/" in f.path)
    stale = _stale_files(root, name, keep)
    dropped.update(base + s for s in stale if s.endswith(".xml"))
    dropped.difference_update(merged.index_urls)
    _update_robots(root, config, merged, dropped)
    # 4. Files of ours that the new indexes no longer name.
    merged.removed.extend(remove_files(root, stale))


def _install_copy(source: Path, target: Path, newest: Lastmod | None, *, packed: bool,
                 ) -> list[str]:
    """``source`` copied to ``target`` (and gzipped beside it with ``packed``); names written.

    Each file is written only when its bytes change.

    Raises:
        OSError: when a copy cannot be made (the old files stay whole).
        WriteError: when one cannot be put in place.
    """
    written: list[str] = []
    if not (is_regular(target) and same_files(source, target)):
        commit(stage(target, read_chunks(source)), target)
        written.append(target.name)
    if packed:
        gz = target.with_name(target.name + ".gz")
        temp = stage(gz, gzip_stream(read_chunks(target), newest), sync=True)
        if same_files(temp, gz):
            discard([temp])
        else:
            commit(temp, gz)
            written.append(gz.name)
    return written


_REPLACES_INDEX = ("the merge would replace it (and drop any sitemaps it names): move what it "
                   "lists into a build below the root, rename it, or choose another "
                   "sitemap_name")


def _refuse_foreign(root: Path, names: list[str], *,
                    ours: Callable[[Path], bool] = lambda path: identify(path) == OWN,
                    would: str = _REPLACES_INDEX) -> None:
    """Stop before a merge writes where a file it did not write, or no regular file, stands.

    A user's own file of one of these names (a hand-written index naming other sitemaps, a
    file that merely shares the pattern) would be lost, and the sitemaps it named no longer
    announced. Nothing has been written when this raises.

    A folder, a link or a pipe there stops it too, before anything is written (found at its
    own write, it stopped the merge half-way). ``ours`` tells this tool's files (by default
    its sitemaps) from the user's; ``would`` says what the merge would do to such a file.

    Raises:
        MergeError: naming each such file.
    """
    problems: list[str] = []
    for name in names:
        path = root / name
        if is_regular(path):
            if not ours(path):
                problems.append(f"{name}: is already at the root and was not written by "
                                f"sitemap-plugins; {would}")
        elif (what := what_stands(path)) is not None:
            # A folder, a link, a pipe: found only at its own write, it stopped the merge
            # half-way (sitemap.xml new, its .gz missing). Found here, nothing is written.
            problems.append(
                f"{name}: is {what} at the root, where the merge writes a file; it was left "
                "as it is: remove or rename it, or choose another sitemap_name")
    if problems:
        raise MergeError(problems)


def _stale_files(root: Path, name: str, keep: set[str]) -> list[str]:
    """Root-level files that only a merge writes and this one does not: this tool's own.

    A user's file of such a name (not this tool's output) is never removed.
    """
    pattern = re.compile(rf"{re.escape(name)}(?:-index-\d+\.xml|-root\.xml|\.xml)(?:\.gz)?\Z")
    return [n for n in list_names(root)
            if pattern.match(n) and n not in keep and is_regular(root / n)
            and identify(root / n) == OWN]


def _update_robots(root: Path, config: SitemapConfig, merged: Merged, dropped: set[str]) -> None:
    mode = config.base_url.robots_mode(config.robots_txt)
    if mode == "off":
        return
    base = config.base_url
    host_root = base.host_root
    if mode == "fragment":
        data = render_fragment_lines(merged.index_urls, host_root)
        _write_if_changed(root / FRAGMENT_NAME, data, merged)
        if base.has_path:
            merged.diagnostics.append(Diagnostic(
                "", "robots-below-root",
                f"the root lives below the host root ({base.path}): add the lines of "
                f"{FRAGMENT_NAME} to {host_root}robots.txt", Level.INFO))
        return
    target = root / "robots.txt"
    if os.path.lexists(target) and not is_regular(target):
        merged.diagnostics.append(Diagnostic(
            "robots.txt", "not-a-file", "is not a regular file; not read or changed"))
        return
    if not target.exists():
        if mode != "create":
            merged.diagnostics.append(Diagnostic(
                "", "no-robots-txt", "the root has no robots.txt, so no Sitemap: line was added "
                "(--robots-txt create makes one)", Level.INFO))
            return
        original = b""
        updated = create_robots(merged.index_urls[0])
    else:
        try:
            editable, why = read_editable(target)
        except OSError as err:
            merged.diagnostics.append(Diagnostic(
                "robots.txt", "unreadable", f"cannot be read ({err.strerror}); not changed"))
            return
        if editable is None:
            merged.diagnostics.append(Diagnostic("robots.txt", "robots-too-large", why))
            return
        original = editable
        updated = without_sitemap_lines(original, dropped)
    try:
        updated = merge_sitemap_lines(updated, merged.index_urls)
    except UnicodeError:  # a UTF-16 mark on bytes that are not UTF-16: a traceback here
        merged.diagnostics.append(Diagnostic(
            "robots.txt", "unreadable", "starts with a UTF-16 byte-order mark but is not "
            "UTF-16; left as it is, so no Sitemap: line was added"))
        return
    if updated != original:
        write_bytes_atomic(target, updated)
        merged.files.append("robots.txt")
