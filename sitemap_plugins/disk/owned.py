"""What this tool wrote in the site: only those files are replaced quietly or removed as stale.

Floor: the door (with :mod:`site` and :mod:`history`). Each kind of file is told from the
site's own by one proof (:data:`PROOFS`; :class:`Ownership` for the sitemap set); files are
installed in commit order: parts, then the files that name them, then stale files go.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import unquote

from sitemap_plugins.disk.cache_keys import former_site_key
from sitemap_plugins.disk.history import read_written, record_path, save_written
from sitemap_plugins.disk.proofs import (
    HEAD_BYTES,
    MAX_MAP_PAGE,
    PROOFS,
    TAIL_BYTES,
    Proof,
    is_text_sitemap,
    key_proof,
    marker_page,
    may_hold_map,
    replacing,
)
from sitemap_plugins.disk.site import (
    commit,
    discard,
    is_inside,
    is_regular,
    list_names,
    read_chunks,
    read_file,
    read_own,
    refuse_special,
    remove,
    same_files,
    sitemap_chunks,
    sitemap_entries,
    stage,
    write_bytes_atomic,
)
from sitemap_plugins.entry.render import (
    HONEST_DATES,
    OWN,
    NotASitemapError,
    gzip_stream,
    identify_bytes,
    index_of_parts,
    is_own_index_head,
    lists_only_under,
    newest_of,
)
from sitemap_plugins.page.reader import generator_of
from sitemap_plugins.vocab.errors import (
    ConfigError,
    Diagnostic,
    Level,
    WriteError,
    explain,
)
from sitemap_plugins.vocab.options import (
    FRAGMENT_NAME,
    LLMS_NAME,
    PROTOCOL_MAX_BYTES,
    sitemap_file_pattern,
    text_index_name,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence
    from pathlib import Path

    from sitemap_plugins.entry.render import Part
    from sitemap_plugins.vocab.dates import Lastmod
    from sitemap_plugins.vocab.options import SitemapConfig

# -------------------- the proofs (sitemap_plugins.disk.proofs), applied to the site's files


def holds(path: Path, proof: Proof) -> bool:
    """Whether the regular file at ``path`` (not a link, pipe or device) passes ``proof``."""
    data = read_own(path, proof.most + 1)
    return data is not None and len(data) <= proof.most and proof.holds(data)


def is_own_file(site: Path, name: str) -> bool:
    """Whether the news sitemap, the fragment or llms.txt at ``name`` is what this tool writes."""
    return holds(site / name, PROOFS[{FRAGMENT_NAME: "fragment", LLMS_NAME: "llms"}.get(
        name, "news")])


def remove_own(site: Path, name: str, proof: Proof) -> bool | OSError:
    """Remove the site's file ``name`` if it passes ``proof``: whether it went, or why not."""
    if not holds(site / name, proof):
        return False
    try:
        remove(site / name)
    except OSError as err:
        return err
    return True


# -------------------- the sitemap set, and the record of what was written

_PART = re.compile(r".*-\d+\.(?:xml|txt)(?:\.gz)?\Z")
_MAX_DATED_FILES = 1_000  # the children of a replaced sitemap index read, at most


def file_digest(path: Path) -> str | None:
    """SHA-256 of a regular file's bytes; None for anything else (never opens a pipe)."""
    if not is_regular(path):
        return None
    digest = hashlib.sha256()
    try:
        for chunk in read_chunks(path):
            digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


def _ends(path: Path) -> tuple[bytes, bytes] | None:
    """The first and last bytes of a regular file; a ``.gz`` inflated, None past 50 MiB."""
    if not is_regular(path):
        return None
    try:
        if path.name.endswith(".gz"):
            head, tail = b"", b""
            for chunk in sitemap_chunks(path):
                head, tail = head or chunk[:HEAD_BYTES], (tail + chunk)[-TAIL_BYTES:]
            return head, tail
        with path.open("rb") as handle:
            head = handle.read(HEAD_BYTES)
            size = os.fstat(handle.fileno()).st_size
            handle.seek(max(size - TAIL_BYTES, 0))
            return head, handle.read(TAIL_BYTES)
    except (OSError, NotASitemapError):
        return None


def identify(path: Path) -> str | None:
    """Which generator wrote the sitemap at ``path`` (:data:`OWN` for this tool), or None.

    Only XML sitemaps (and their ``.gz``) are recognised, by the bytes their templates write
    first; a hand-written file or anything that is not such a sitemap is None.
    """
    ends = _ends(path)
    return None if ends is None else identify_bytes(*ends)


def foreign_sitemap(path: Path, base: str) -> bool:
    """Whether the file at ``path`` is another tool's sitemap of this site, by what it is.

    A sitemaps.org urlset or index (a ``.gz`` inflated) or a text sitemap, of at most the
    protocol's size, whose every URL is under ``base``.
    """
    if not is_regular(path):
        return False
    try:
        if not path.name.endswith(".txt"):
            return lists_only_under(sitemap_entries(path), base)
        if path.stat().st_size > PROTOCOL_MAX_BYTES:
            return False
        with path.open("rb") as handle:
            return is_text_sitemap(handle, base)
    except OSError:
        return False


def another_tool(site: Path) -> str:
    """Another tool, named by the generator the site's home page names, when it does."""
    page = read_own(site / "index.html", 64 * 1024)
    named = generator_of(page) if page else None
    return f"another tool (the home page names {named} as its generator)" if named else (
        "another tool")


def replaced_dates(site: Path, sitemap_name: str, base: str) -> dict[str, str]:
    """URL -> ``<lastmod>`` text, from the sitemap this build replaces.

    Only when its generator dates honestly (:data:`HONEST_DATES`); empty otherwise. Read
    before it is replaced, so that the pages it dated keep those dates (Hugo's listing pages,
    dated from git, which the built HTML does not state). A sitemap index's children are read
    when they lie in the site below ``base`` and come from the same generator. Unreadable or
    malformed files give what was read of them: these dates are a hint.
    """
    dates: dict[str, str] = {}
    pending = [site / f"{sitemap_name}.xml"]
    seen: set[Path] = set()
    while pending and len(seen) < _MAX_DATED_FILES:
        path = pending.pop(0)
        if path in seen or identify(path) not in HONEST_DATES:
            continue
        seen.add(path)
        for kind, loc, lastmod in _sitemap_entries(path):
            if kind == "urlset" and loc and lastmod:
                dates.setdefault(loc, lastmod)
            elif kind == "sitemapindex" and loc.startswith(base) and "?" not in loc:
                child = (site / unquote(loc[len(base):])).resolve()
                if child.is_relative_to(site.resolve()):
                    pending.append(child)
    return dates


def _sitemap_entries(path: Path) -> Iterator[tuple[str, str, str]]:
    """``(root tag, loc, lastmod)`` per entry of a sitemap file; what could be read of it."""
    try:
        yield from sitemap_entries(path)
    except (OSError, NotASitemapError):
        return


def _text_lines(path: Path) -> bool:
    """Whether a regular file stands at ``path`` that is a text sitemap of ours (by its lines)."""
    if not is_regular(path):
        return False
    try:
        with path.open("rb") as handle:
            return is_text_sitemap(handle)
    except OSError:
        return False


@dataclass
class Ownership:
    """The record of the files written into one site, and the rules that use it."""

    site: Path
    path: Path | None
    """The record file; None when no record is kept (``fingerprint`` off)."""
    replace_files: bool = False
    base: str = ""
    """The base URL: a sitemap listing only URLs under it is another tool's of this site."""
    files: dict[str, set[str]] = field(default_factory=dict)
    """File name -> digests this tool wrote under it."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    _seen: dict[str, tuple[tuple[int, int, int], str | None]] = field(
        default_factory=dict, repr=False)

    @classmethod
    def load(cls, site: Path, cache_dir: Path | None, *,
             replace_files: bool = False, base: str = "") -> Ownership:
        """The record kept in ``cache_dir`` for ``site`` (an empty one when there is none).

        A damaged record counts as empty: files it named are no longer known to be ours, so
        they are neither replaced quietly nor removed.
        """
        path = record_path(cache_dir, site) if cache_dir is not None else None
        owned = cls(site, path, replace_files, base)
        if path is None or cache_dir is None:
            return owned
        if not os.path.lexists(path):
            # Kept under the former key (the folder's name only): read on, saved under the new.
            path = cache_dir / f"written-{former_site_key(site)}.json"
        try:
            owned.files = read_written(path)
        except (OSError, ValueError) as err:
            owned.diagnostics.append(Diagnostic("", "bad-written-record", (
                f"the record of the files written into the site, {path}, cannot be read "
                f"({err}); files it named are left as they are"), Level.INFO))
        return owned

    def owns(self, name: str) -> bool:
        """Whether the file ``name`` in the site holds bytes this tool wrote there."""
        digests = self.files.get(name)
        return bool(digests) and self._digest(name) in digests  # type: ignore[operator]

    def _digest(self, name: str) -> str | None:
        """The file's digest, read once a run while it stays the same file (size, time)."""
        try:
            info = os.lstat(self.site / name)
        except OSError:
            return None
        key = (info.st_ino, info.st_size, info.st_mtime_ns)
        known = self._seen.get(name)
        if known is not None and known[0] == key:
            return known[1]
        digest = file_digest(self.site / name)
        self._seen[name] = (key, digest)
        return digest

    def adopt_earlier(self, pattern: re.Pattern[str]) -> None:
        """Know as ours the files an earlier version wrote, before there were records.

        That is a file named as this tool names its sitemaps whose bytes are this tool's XML
        (its template's exact start and end), and the parts such an index names. A user's
        file of such a name (an archived ``sitemap-2019.xml``, a ``sitemap-1.txt``) is not.
        """
        names = [name for name in list_names(self.site) if pattern.match(name)]
        own_indexes: list[str] = []
        for name in names:
            if name in self.files and self.owns(name):
                continue
            ends = _ends(self.site / name)
            if ends is None or identify_bytes(*ends) != OWN:
                continue
            self._adopt(name)
            if is_own_index_head(ends[0]) and not name.endswith(".gz"):
                own_indexes.append(name)
        for index in own_indexes:
            # The base URL may have changed since: the part is named by its last segment.
            for loc in _index_locs(self.site / index):
                part = loc.rpartition("/")[2]
                if (part in names and part not in self.files and _PART.match(part)
                        and (identify(self.site / part) == OWN
                             or _text_lines(self.site / part))):
                    self._adopt(part)

    def _adopt(self, name: str) -> None:
        digest = self._digest(name)
        if digest is not None:
            self.files.setdefault(name, set()).add(digest)

    def check_targets(self, names: Iterable[str], *,
                      own_content: Callable[[str], bool] | None = None) -> None:
        """Stop before writing over a file that is neither ours nor another generator's sitemap.

        ``own_content(name)``: a further proof that the file is this tool's (a news sitemap
        that renders to the same bytes).

        Raises:
            SitemapError: naming the first such file; nothing has been changed.
        """
        for name in names:
            target = self.site / name
            if not os.path.lexists(target) or not is_regular(target) or self.owns(name):
                continue  # nothing there, or something the write itself refuses
            who = identify(target)
            if who == OWN or (own_content is not None and own_content(name)):
                continue
            if who is None and name.endswith(".txt") and self._text_beside_own_xml(name):
                continue
            if who is None and name != FRAGMENT_NAME and self.base and foreign_sitemap(
                    target, self.base):
                who = another_tool(self.site)
            replaced = replacing(name, who, replace_files=self.replace_files)
            if replaced is not None:
                self.diagnostics.append(replaced)
                continue
            msg = ("is already in the site and was not written by sitemap-plugins (nor is it "
                   "a sitemap from Hugo, MkDocs or pelican-sitemap): remove it, choose "
                   "another sitemap_name, or set replace_files to true to replace it")
            raise WriteError(str(target), msg)

    def _text_beside_own_xml(self, name: str) -> bool:
        """A text sitemap of this tool's shape next to this tool's XML sitemap (no record)."""
        stem = name[: -len(".txt")]
        xml = re.sub(r"-\d+\Z", "", stem) + ".xml"
        return ((self.owns(xml) or identify(self.site / xml) == OWN)
                and _text_lines(self.site / name))

    def intend(self, written: dict[str, str]) -> None:
        """Record ``written`` (name -> digest) beside what is known, before it is committed.

        Raises:
            WriteError: when the record cannot be written (nothing has been committed).
        """
        for name, digest in written.items():
            self.files.setdefault(name, set()).add(digest)
        self._save(strict=True)

    def settle(self, written: dict[str, str], gone: Iterable[str]) -> None:
        """After the commit: the names written hold only their new digests; ``gone`` are none."""
        for name, digest in written.items():
            self.files[name] = {digest}
        for name in gone:
            self.files.pop(name, None)
        self._save(strict=False)

    def remove_stale(self, keep: set[str]) -> list[str]:
        """Remove the files this tool wrote that the new set does not include.

        Only files the record names with their present bytes go. Files that name parts
        (indexes, ``sitemap.xml``) go before the parts: a crash in between never leaves an
        index that names a missing part.
        """
        candidates = sorted(name for name in self.files if name not in keep)
        candidates.sort(key=lambda name: bool(_PART.match(name)))
        removed: list[str] = []
        index_kept = False
        for name in candidates:
            is_part = bool(_PART.match(name))
            if not self.owns(name):
                self.files.pop(name, None)  # gone, or the user's now: left, and forgotten
                continue
            if index_kept and is_part:
                continue  # an index that could not be removed still names these parts
            try:
                remove(self.site / name)
            except OSError:
                index_kept = index_kept or not is_part
                continue
            removed.append(name)
        return removed

    def _save(self, *, strict: bool) -> None:
        if self.path is None:
            return
        try:
            save_written(self.path, self.files)
        except WriteError as err:
            if strict:
                msg = f"cannot record the files it writes into the site: {err.message}"
                raise WriteError(str(self.path), msg) from err
            self.diagnostics.append(Diagnostic("", "bad-written-record", (
                f"the record of the files written into the site, {self.path}, cannot be "
                f"updated ({err.message})"), Level.INFO))


def digests_of(files: Iterable[tuple[Path, str]]) -> dict[str, str]:
    """Name -> digest of each (temporary file, final name) about to be committed.

    Raises:
        OSError: when a temporary file cannot be read.
    """
    result: dict[str, str] = {}
    for temp, name in files:
        digest = file_digest(temp)
        if digest is None:
            raise OSError(f"cannot read {temp}")
        result[name] = digest
    return result



def _index_locs(path: Path) -> list[str]:
    """The ``<loc>`` values of a sitemap index of this tool's."""
    try:
        return [loc for _, loc, _ in sitemap_entries(path)]
    except (OSError, NotASitemapError):
        return []


# -------------------- installing the sitemap set


@dataclass
class Installed:
    """What was written where."""

    files: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    split: bool = False


def _stage_set(
    site: Path, config: SitemapConfig, parts: list[Part], extension: str,
    staged: list[tuple[Path, Path, Lastmod | None]], temps: list[Path],
) -> bool:
    """Stage one format's files in commit order; True when it was split into parts."""
    name = config.sitemap_name
    main = site / (f"{name}.xml" if extension == "xml" else text_index_name(name))
    extra = config.extra_sitemaps if extension == "xml" else ()
    if len(parts) == 1 and not extra:
        staged.append((parts[0].temp, site / f"{name}.{extension}", parts[0].newest))
        return False
    names, index = index_of_parts(parts, name, extension, str(config.base_url), extra=extra,
                                  max_urls=config.max_urls, max_bytes=config.max_bytes)
    staged.extend((part.temp, site / final, part.newest)
                  for part, final in zip(parts, names, strict=True))
    temp = stage(main, [index])
    temps.append(temp)
    staged.append((temp, main, newest_of(parts)))
    return True


def install(
    site: Path, config: SitemapConfig, xml_parts: list[Part], text_parts: list[Part] | None,
    owned: Ownership | None = None,
) -> Installed:
    """Move parts into place, write the index and ``.gz`` copies, remove stale parts.

    ``owned``: the record of the files this tool wrote into the site (none kept when None):
    only those are written over quietly or removed as stale.

    Raises:
        SitemapError: when the index would pass the limits, or a file that is not ours
            stands where one must be written (nothing is changed then).
        WriteError: when a file cannot be written (temporary files are removed).

    """
    if owned is None:
        owned = Ownership(site, None, config.replace_files, str(config.base_url))
    installed = Installed()
    staged: list[tuple[Path, Path, Lastmod | None]] = []
    temps: list[Path] = [p.temp for p in xml_parts] + [p.temp for p in text_parts or []]
    try:
        installed.split = _stage_set(site, config, xml_parts, "xml", staged, temps)
        if text_parts is not None:
            _stage_set(site, config, text_parts, "txt", staged, temps)
        if config.gzip:
            with_gz: list[tuple[Path, Path, Lastmod | None]] = []
            for temp, final, newest in staged:
                with_gz.append((temp, final, newest))
                if final.suffix == ".xml":
                    packed = stage(final.with_name(final.name + ".gz"),
                                   gzip_stream(read_chunks(temp), newest), sync=True)
                    temps.append(packed)
                    with_gz.append((packed, final.with_name(final.name + ".gz"), newest))
            staged = with_gz
        owned.adopt_earlier(sitemap_file_pattern(config.sitemap_name))
        owned.check_targets(final.name for _, final, _ in staged)
        # Recorded before anything moves: a run killed during the commit leaves files that
        # the next run still knows as its own (old or new bytes), and so cleans up.
        written = digests_of((temp, final.name) for temp, final, _ in staged)
        owned.intend(written)
    except OSError as err:
        discard(temps)
        raise WriteError(str(site), f"cannot write the sitemap: {explain(err)}") from err
    except BaseException:
        discard(temps)
        raise
    # Parts first, then the files that name them: the main file of each set is staged last
    # within its set, so an index never names a part that is not yet in place.
    try:
        for temp, final, _ in staged:
            commit(temp, final)
            installed.files.append(final.name)
    except BaseException:
        discard(temps)
        raise
    installed.removed = remove_stale(owned, set(installed.files), written)
    return installed


def install_copy(source: Path, target: Path, newest: Lastmod | None, *, packed: bool,
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


def own_stale_files(root: Path, pattern: re.Pattern[str], keep: set[str]) -> list[str]:
    """The files at ``root`` matching ``pattern``, not kept, that this tool wrote.

    A user's file of such a name (not this tool's output) is never among them.
    """
    return [n for n in list_names(root)
            if pattern.match(n) and n not in keep and is_regular(root / n)
            and identify(root / n) == OWN]


def remove_stale(owned: Ownership, keep: set[str], written: dict[str, str] | None = None,
                 ) -> list[str]:
    """Remove the sitemap files this tool wrote earlier that the new set does not include.

    Only files the record (or their own bytes) show to be ours go; a user's
    ``sitemap-2019.xml`` or ``sitemap-1.txt`` stays whatever its name.
    """
    removed = owned.remove_stale(keep)
    owned.settle(written or {}, removed)
    return removed


def remove_obsolete_fragment(site: Path, written: Sequence[str]) -> list[str]:
    """An earlier build's fragment (the base URL had a path then), when this one wrote none."""
    fragment = FRAGMENT_NAME
    gone = fragment not in written and remove_own(site, fragment, PROOFS["fragment"])
    return [fragment] if gone is True else []


# -------------------- the IndexNow key file

def publish_key(site: Path, name: str, key: str) -> tuple[list[str], list[Diagnostic]]:
    """Write the key file ``name`` holding ``key`` at the site root (files, diagnostics).

    A file of that name that holds the key already is left as it is; one that holds anything
    else is the site's own, never overwritten, and reported.
    """
    target = site / name
    if os.path.lexists(target):
        try:
            refuse_special(target)
            existing = read_file(target, key_proof(key).most + 1)
        except (OSError, WriteError) as err:
            reason = err.message if isinstance(err, WriteError) else err.strerror
            return [], [Diagnostic(name, "indexnow-key-file", f"cannot be read ({reason}); "
                                   "left as it is, so IndexNow cannot check the key there")]
        if key_proof(key).holds(existing):
            return [name], []
        return [], [Diagnostic(
            name, "indexnow-key-file",
            "is the site's own file and does not hold the indexnow_key; left as it is, so "
            "IndexNow cannot check the key: remove that file or choose another key")]
    write_bytes_atomic(target, key.encode("ascii"))
    return [name], []


def publishes_key(site: Path, name: str, key: str) -> bool | None:
    """Whether the key file ``name`` of the site holds ``key``; None when it cannot be read."""
    try:
        refuse_special(site / name)
        data = read_file(site / name, key_proof(key).most + 1)
    except (OSError, WriteError):
        return None
    return key_proof(key).holds(data)


# -------------------- the HTML site map's pages

def _refused(rel_path: str, why: str) -> ConfigError:
    return ConfigError("html_sitemap", f"{rel_path!r} {why}")


class SitePages:
    """The HTML site map's pages in the site: ``html_map``'s ``PageStore``."""

    def __init__(self, site: Path) -> None:
        """The pages of the site in ``site``."""
        self.site = site

    def check_free(self, rel_path: str) -> None:
        """Refuse to overwrite a page of the site that is neither a host's marker page nor ours.

        Raises:
            ConfigError: naming the file, before anything is written.
            WriteError: when a link, pipe or device stands there.
        """
        target = self.site / rel_path
        if not is_inside(self.site, target.parent):
            raise _refused(rel_path, "leads out of the site through a symbolic link; remove "
                                     "the link or choose another path")
        refuse_special(target)  # a pipe there would hang the read below
        if target.is_dir():
            raise _refused(rel_path, "is a folder of the site; end the path with '/' to write "
                                     "index.html in it")
        try:
            data = read_file(target, MAX_MAP_PAGE)
        except FileNotFoundError:
            return
        except OSError as err:
            raise _refused(rel_path, f"cannot be read: {err.strerror}") from err
        if not may_hold_map(data):
            raise _refused(rel_path, "is a page of the site, not an HTML site map; choose "
                                     "another path")

    def shell(self, rel_path: str) -> str | None:
        """The host's themed page holding the marker, or None (a standalone page is written)."""
        try:
            return marker_page(read_file(self.site / rel_path, MAX_MAP_PAGE))
        except OSError:
            return None

    def is_ours(self, rel_path: str) -> bool:
        """Whether a page of ours stands there (never one out of the site through a link)."""
        path = self.site / rel_path
        return is_inside(self.site, path.parent) and holds(path, PROOFS["html-map"])

    def names(self, folder: str) -> list[str]:
        """The names in the site's folder ``folder`` (empty: the root), sorted."""
        return list_names(self.site / folder if folder else self.site)

    def write(self, rel_path: str, data: bytes) -> None:
        """Replace the page atomically (its folder made when missing).

        Raises:
            WriteError: when the file cannot be written; the old one is kept.
        """
        write_bytes_atomic(self.site / rel_path, data, make_folder=True)

    def remove(self, rel_path: str, *, folder_too: bool = False) -> bool:
        """Remove the page (and its folder with ``folder_too``, when empty); whether it went."""
        try:
            remove(self.site / rel_path, folder_too=folder_too)
        except OSError:
            return False
        return True
