"""Writers: streamed, size-aware sitemap files, plus the index, gzip and robots.txt edits.

Each writer in ``WRITERS`` renders entries into numbered temporary part files, starting a new
part before either protocol limit (URL count, uncompressed bytes) would be passed. Naming and
moving the parts into place is done by :mod:`sitemap_plugins.output`.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, NamedTuple, Protocol

from sitemap_plugins.dates import Lastmod, sort_key
from sitemap_plugins.errors import WriteError
from sitemap_plugins.writers.atomic import explain, temp_path_for
from sitemap_plugins.writers.text_sitemap import render_line
from sitemap_plugins.writers.xml_sitemap import render_footer, render_header

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

_BUFFER = 1 << 20


class Rendered(NamedTuple):
    """One listed URL, ready for every writer."""

    loc: str
    xml: str
    """Its ``<url>`` element (:func:`~sitemap_plugins.writers.xml_sitemap.render_url`)."""
    lastmod: Lastmod | None
    images: int = 0
    """``image:image`` elements in it (counted for the run's summary)."""
    videos: int = 0
    """``video:video`` elements in it."""


@dataclass
class Part:
    """One finished (or growing) temporary part file."""

    temp: Path
    count: int = 0
    size: int = 0
    newest: Lastmod | None = None
    handle: IO[bytes] | None = field(default=None, repr=False)


class Writer(Protocol):
    """Turns a stream of entries into part files."""

    extension: str
    """``xml`` or ``txt``: the final files are ``<name>.<extension>`` or numbered parts."""

    def add(self, entry: Rendered) -> None:
        """Append one entry, starting a new part first if a limit would be passed."""

    def finish(self) -> list[Part]:
        """Close the last part and return all parts in order."""

    def discard(self) -> None:
        """Delete every temporary file (after an error)."""


class _PartWriter:
    """Shared machinery: limits, rolling over to a new part, newest lastmod per part."""

    extension = ""

    def __init__(
        self, folder: Path, name: str, *, max_urls: int, max_bytes: int,
        header: str, footer: str, render: Callable[[Rendered], str],
    ) -> None:
        self._folder = folder
        self._name = name
        self._max_urls = max_urls
        self._max_bytes = max_bytes
        self._header = header.encode("utf-8")
        self._footer = footer.encode("utf-8")
        self._render = render
        self._parts: list[Part] = []

    def _start_part(self) -> Part:
        self._close_current()
        part = Part(temp_path_for(self._folder / f"{self._name}-{len(self._parts) + 1}.part"))
        # Registered before the file exists, so that discard() removes it whatever fails next.
        self._parts.append(part)
        part.handle = part.temp.open("wb", buffering=_BUFFER)
        part.handle.write(self._header)
        part.size = len(self._header)
        return part

    def _close_current(self) -> None:
        if self._parts and self._parts[-1].handle is not None:
            part = self._parts[-1]
            assert part.handle is not None
            part.handle.write(self._footer)
            part.size += len(self._footer)
            part.handle.close()
            part.handle = None

    def add(self, entry: Rendered) -> None:
        try:
            self._add(entry)
        except OSError as err:  # a full disk: a clear WriteError, not a traceback
            raise _write_error(self._folder, err) from err

    def _add(self, entry: Rendered) -> None:
        data = self._render(entry).encode("utf-8")
        room = self._max_bytes - len(data) - len(self._footer)  # for what is before it
        part = self._parts[-1] if self._parts else None
        if part is None or part.count >= self._max_urls or (part.count and part.size > room):
            part = self._start_part()
        if part.size > room:
            msg = f"one entry ({len(data):,} bytes) does not fit in max_bytes"
            raise ValueError(msg)
        assert part.handle is not None
        part.handle.write(data)
        part.size += len(data)
        part.count += 1
        lastmod = entry.lastmod
        # Pages share few dates (a kept one is one object per text): compare only new ones.
        if lastmod is not None and lastmod is not part.newest and (
            part.newest is None or sort_key(lastmod) > sort_key(part.newest)
        ):
            part.newest = lastmod

    def finish(self) -> list[Part]:
        try:
            if not self._parts:
                self._start_part()
            self._close_current()
        except OSError as err:
            raise _write_error(self._folder, err) from err
        return self._parts

    def discard(self) -> None:
        for part in self._parts:
            if part.handle is not None:
                # Closing a handle whose flush failed (full disk) raises again; the
                # temporary files must still all be removed.
                with contextlib.suppress(Exception):
                    part.handle.close()
                part.handle = None
            with contextlib.suppress(OSError):
                part.temp.unlink()


def _element(entry: Rendered) -> str:
    return entry.xml


def _write_error(folder: Path, err: OSError) -> WriteError:
    return WriteError(str(folder), f"cannot write the sitemap: {explain(err)}")


class XmlSitemapWriter(_PartWriter):
    """``<urlset>`` parts."""

    extension = "xml"

    def __init__(
        self, folder: Path, name: str, *, max_urls: int, max_bytes: int, xhtml: bool,
        image: bool = False, video: bool = False,
    ) -> None:
        super().__init__(
            folder, name, max_urls=max_urls, max_bytes=max_bytes,
            header=render_header(xhtml=xhtml, image=image, video=video),
            footer=render_footer(), render=_element,
        )


class TextSitemapWriter(_PartWriter):
    """Plain-text parts, one URL a line."""

    extension = "txt"

    def __init__(self, folder: Path, name: str, *, max_urls: int, max_bytes: int) -> None:
        super().__init__(
            folder, name, max_urls=max_urls, max_bytes=max_bytes,
            header="", footer="", render=render_line,
        )
