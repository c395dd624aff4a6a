"""``sitemap-plugins merge``: one sitemap index over the builds below a folder.

Builds under one root (mike's versions, a blog beside the docs, parallel CI jobs) each wrote
their own sitemap; this ties them together (docs/versions-and-merge.md)::

    find_builds      -> Build          the builds below ROOT that this tool wrote, and ROOT's own
    read_build       -> SitemapFile    each urlset a build offers, streamed (both in .builds)
    plan_indexes     -> rendered       one index, or several past the protocol's limits
    write            -> files          root urlset moved to a part name, indexes, robots.txt

A build is ours when it wrote ``robots-sitemap.txt``, naming its sitemap and base URL; other
sitemaps are reported and left out. Only sitemaps are read, streamed; nothing is written
until every check has passed, atomically, and unchanged files are not rewritten.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from sitemap_plugins.disk.cache_keys import default_cache_dir
from sitemap_plugins.disk.locks import site_lock
from sitemap_plugins.disk.owned import identify, install_copy, is_own_file, own_stale_files
from sitemap_plugins.disk.robots import update_robots
from sitemap_plugins.disk.site import (
    is_regular,
    list_names,
    remove_files,
    remove_leftovers,
    what_stands,
    write_if_changed,
)
from sitemap_plugins.entry.render import OWN, gzip_stream, render_indexes
from sitemap_plugins.products.merge.builds import (
    Build,
    BuildReader,
    Merged,
    MergeError,
    Problems,
    SitemapFile,
    find_builds,
    index_name,
    own_pages,
    read_versions,
    root_part_name,
)
from sitemap_plugins.products.merge.versions import VERSIONS_FILE, read_the_docs_versions
from sitemap_plugins.vocab.dates import Newest, parse_w3c
from sitemap_plugins.vocab.errors import (
    ConfigError,
    Diagnostic,
    ScanError,
    WriteError,
    explain,
)
from sitemap_plugins.vocab.options import FRAGMENT_NAME

if TYPE_CHECKING:
    import os
    from collections.abc import Callable

    from sitemap_plugins.products.build.progress import Progress
    from sitemap_plugins.vocab.dates import Lastmod
    from sitemap_plugins.vocab.options import SitemapConfig


# -- Read the Docs' versions (sitemap_plugins.products.merge.versions) -----------------------------


def offer_read_the_docs(builds: list[Build], patterns: tuple[str, ...], merged: Merged, *,
                        default: bool) -> list[Build] | None:
    """The builds of the chosen versions in every language, on Read the Docs' layout.

    The others go to ``merged.not_offered``; None when the builds are not laid out so.

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


# -- the root indexes -------------------------------------------------------------------------


def plan_indexes(
    files: list[SitemapFile], config: SitemapConfig
) -> list[tuple[bytes, list[SitemapFile]]]:
    """The root index files (bytes, and the sitemaps each names), split before either limit.

    An index may not name another index (sitemaps.org): past a limit each is in robots.txt.
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
        config: its ``base_url``, ``sitemap_name``, ``gzip``, ``robots_txt``, ``max_urls``,
            ``max_bytes`` and ``versions`` are used.
        versions_given: whether ``versions`` was chosen (else it is the default).
        progress: counts the builds' URLs as they are read.

    Raises:
        ScanError: when ``root_dir`` is not a folder.
        ConfigError: when ``versions`` names nothing in versions.json.
        MergeError: listing what stops the merge; nothing was written.
        WriteError: when a file cannot be written (each file is whole, old or new).
        BusyError: when a build of the root or below is still running after the wait.
    """
    root = Path(root_dir)
    if not root.is_dir():
        raise ScanError(str(root), "is not a folder (build the sites first?)")
    # A build of the root writes these files too: a merge and such a build wait for each other.
    with site_lock(root, None):
        return _merge(root, config, versions_given=versions_given, progress=progress)


def _merge(root: Path, config: SitemapConfig, *, versions_given: bool,
           progress: Progress | None) -> Merged:
    remove_leftovers(root)
    merged = Merged()
    problems = Problems()
    versions = read_versions(root)
    chosen: list[str] = []
    if versions is not None:
        chosen = versions.choose(config.versions, default=not versions_given)
    own, own_parts = own_pages(root, config, problems)
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
    reader = BuildReader(root, builds, problems, progress)
    files: list[SitemapFile] = []
    try:
        for build in builds:
            files.extend(reader.read_build(build, own_parts if build is own else None))
    finally:
        if progress is not None:
            progress.finish()
    problems.raise_any()
    files.extend(SitemapFile("", url, "", 0) for url in config.extra_sitemaps)  # other tools'
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
    """Warn when the builds' default cache folder, inside the published root, holds their data.

    (The manifest and IndexNow list would go online; lock files alone are not mentioned.)
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
    # 1. The root's own urlset moves to its part name (a copy: sitemap.xml stays whole).
    if own is not None and own_parts is None:
        part = root_part_name(name)
        keep.add(part)
        own_file = next(f for f in files if f.path == own.sitemap)
        if config.gzip:
            keep.add(part + ".gz")
        merged.files.extend(install_copy(
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
    pattern = re.compile(rf"{re.escape(name)}(?:-index-\d+\.xml|-root\.xml|\.xml)(?:\.gz)?\Z")
    stale = own_stale_files(root, pattern, keep)
    dropped.update(base + s for s in stale if s.endswith(".xml"))
    dropped.difference_update(merged.index_urls)
    robots = update_robots(root, config, merged.index_urls[0], merged.index_urls[1:], dropped)
    merged.files.extend(robots.files)
    merged.diagnostics.extend(robots.diagnostics)
    # 4. Files of ours that the new indexes no longer name.
    merged.removed.extend(remove_files(root, stale))


_REPLACES_INDEX = ("the merge would replace it (and drop any sitemaps it names): move what it "
                   "lists into a build below the root, rename it, or choose another "
                   "sitemap_name")


def _refuse_foreign(root: Path, names: list[str], *,
                    ours: Callable[[Path], bool] = lambda path: identify(path) == OWN,
                    would: str = _REPLACES_INDEX) -> None:
    """Stop before a merge writes where a file it did not write, or no regular file, stands.

    ``ours`` tells this tool's files (by default its sitemaps) from the user's; ``would``
    says what the merge would do to such a file. Nothing has been written when this raises.

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
            # A folder, a link, a pipe: found here, not half-way through the writes.
            problems.append(
                f"{name}: is {what} at the root, where the merge writes a file; it was left "
                "as it is: remove or rename it, or choose another sitemap_name")
    if problems:
        raise MergeError(problems)
