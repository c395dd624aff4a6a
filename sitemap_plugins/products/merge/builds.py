"""The builds below a ``merge`` root: found, and their sitemaps read, streamed.

Nothing here writes; problems are kept in :class:`Problems`, and the merge stops before any
write when there is one.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sitemap_plugins.disk.locks import site_lock
from sitemap_plugins.disk.site import (
    is_regular,
    read_file,
    read_own,
    sitemap_entries,
    sitemap_kind,
    what_stands,
)
from sitemap_plugins.entry.render import NotASitemapError
from sitemap_plugins.entry.robots_txt import (
    fragment_sitemap,
)
from sitemap_plugins.products.build.result import counted
from sitemap_plugins.products.merge.versions import (
    VERSIONS_FILE,
    VERSIONS_SHAPE,
    Versions,
    parse_versions,
)
from sitemap_plugins.vocab.dates import Newest
from sitemap_plugins.vocab.errors import (
    Diagnostic,
    SitemapError,
)
from sitemap_plugins.vocab.options import FRAGMENT_NAME
from sitemap_plugins.vocab.urls import (
    encode_path,
    is_under,
    parse_base_url,
    scope_form,
)

if TYPE_CHECKING:

    from sitemap_plugins.products.build.progress import Progress
    from sitemap_plugins.vocab.options import SitemapConfig

_MAX_FRAGMENT = 65_536
_MAX_VERSIONS_FILE = 16 * 1024 * 1024
# At most this many problems are kept; the rest are counted.
MAX_PROBLEMS = 50
# The root's own URLs inside builds' folders, remembered to find URLs listed twice (bounded).
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


class Problems:
    """Problems found while reading: kept up to ``MAX_PROBLEMS``, then counted."""

    def __init__(self) -> None:
        self.kept: list[str] = []
        self.more = 0

    def add(self, message: str) -> None:
        """Keep ``message``, or count it past ``MAX_PROBLEMS``."""
        if len(self.kept) < MAX_PROBLEMS:
            self.kept.append(message)
        else:
            self.more += 1

    def raise_any(self) -> None:
        """Stop the merge when a problem was found (raises :class:`MergeError`)."""
        if self.kept:
            raise MergeError(self.kept, self.more)


# -- mike's versions (sitemap_plugins.products.merge.versions) -------------------------------------


def read_versions(root: Path) -> Versions | None:
    """The ``versions.json`` that mike keeps at ``root``; None when there is none.

    Raises:
        MergeError: when it is there but is not mike's list of versions.
    """
    path = root / VERSIONS_FILE
    if not path.is_file():
        if not os.path.lexists(path):
            return None
        # A folder, a pipe or a broken link is not "no versions.json": that would offer all.
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
    problems: Problems, merged: Merged,
) -> list[Build]:
    """The builds below ``root`` that the root index offers, sorted by folder.

    Breadth-first until a build is met; a build's own folder is never descended into.
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
    root: Path, rel: str, root_base: str, name: str, problems: Problems, merged: Merged,
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


# -- reading sitemaps, streamed (sitemap_plugins.disk.site.sitemap_entries) ------------------------


class BuildReader:
    """Reads the builds' urlsets in order; checks scope, and URLs listed by two builds."""

    def __init__(self, root: Path, builds: list[Build], problems: Problems,
                 progress: Progress | None = None) -> None:
        self.root = root
        self.problems = problems
        self.progress = progress
        # The root's own URLs in a build's folder: only these can be listed twice.
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
                # Compared in scope form: ".../blog/../docs/" is in docs/.
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
        """Every urlset of ``build`` (its sitemap, or its index's parts), read while it is held."""
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


def own_pages(root: Path, config: SitemapConfig, problems: Problems) -> tuple[
        Build | None, list[str] | None]:
    """ROOT's own pages: (the build, and the parts a previous merge named) or (None, None).

    ``<name>.xml`` at ROOT is the root build's urlset, or an index of its parts, or a previous
    merge's (whose root-level entries are the root's parts).
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


