"""The walk of the built site: any file name gives one URL that serves that file (#17).

On Linux a file name is bytes. Names that are not UTF-8 reach Python as surrogate escapes,
and the same text may be stored NFC or NFD. Whatever the names, each listed URL,
percent-decoded to bytes, names exactly one file of the site, no URL is listed twice, no
page whose canonical names another file is listed, and `check` agrees with the build.
"""

from __future__ import annotations

import os
import tempfile
from urllib.parse import quote_from_bytes, unquote_to_bytes

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sitemap_plugins import SitemapConfig, generate
from sitemap_plugins.products.check.checker import check_site

BASE = "https://example.org/"
SAFE = "-._~!$&'()*+,;=:@/"  # RFC 3986 pchar minus "%", plus "/"
# Pieces that break naive code: bytes that are not UTF-8 (alone, a lone lead byte, an
# encoded surrogate, latin-1 é), é in NFC and NFD, "%" and escapes written literally, URL
# specials, a BOM, NEL.
PIECES = [b"\xff", b"\xfe", b"\xe9", b"\xc3", b"\xed\xa0\x80", b"\xc3\xa9", b"e\xcc\x81",
          b"%", b"%FF", b"%25", b"%C3%A9", b"a", b"A", b" ", b"#", b"?", b"\\", b"&", b"\x85",
          b"\xef\xbb\xbf", b"index", b"INDEX", b"."]
_NAME = st.lists(st.sampled_from(PIECES), min_size=1, max_size=4).map(b"".join)
_FILE = st.tuples(_NAME, st.sampled_from([b".html", b".htm", b".HTML", b".css"])).map(b"".join)
_FILES = st.one_of(_FILE, st.sampled_from([b"index.html", b"index.htm", b"Index.html"]))
_ENTRY = st.tuples(st.one_of(st.none(), _NAME), _FILES, st.one_of(st.none(), st.integers(0, 7)))
SETTINGS = settings(max_examples=int(os.environ.get("SITEMAP_HYPOTHESIS_EXAMPLES") or 150), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def url_of(rel: bytes) -> str:
    """The URL a server answers with the file ``rel``, computed here from the bytes."""
    folder, _, name = rel.rpartition(b"/")
    if name in (b"index.html", b"index.htm"):
        rel = folder + b"/" if folder else b""
    return BASE + quote_from_bytes(rel, safe=SAFE)


def file_of(site: bytes, url: str) -> bytes | None:
    """The file a static server answers ``url`` with (directory URLs: index.html first)."""
    path = unquote_to_bytes(url[len(BASE):])
    candidates = [path + b"index.html", path + b"index.htm"] if path.endswith(b"/") or not path \
        else [path]
    for candidate in candidates:
        if os.path.isfile(os.path.join(site, candidate)):
            return candidate
    return None


def _page(canonical: str | None) -> bytes:
    link = f"<link rel=canonical href='{canonical}'>" if canonical else ""
    return f"<html><head><title>t</title>{link}</head><body>x</body></html>".encode()


def build_names(entries: list[tuple[bytes | None, bytes, int | None]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        site = os.path.join(os.fsencode(tmp), b"site")
        os.mkdir(site)
        written: list[tuple[bytes, int | None]] = []
        for folder, name, target in entries:
            rel = folder + b"/" + name if folder is not None else name
            if any(part.startswith(b".") for part in rel.split(b"/")):
                continue  # hidden: never listed, by design
            path = os.path.join(site, rel)
            if os.path.lexists(path):
                continue
            try:
                if folder is not None:
                    os.makedirs(os.path.join(site, folder), exist_ok=True)
                with open(path, "xb"):
                    pass
            except (FileExistsError, NotADirectoryError, IsADirectoryError):
                continue
            written.append((rel, target))
        pages = [rel for rel, _ in written if rel.lower().endswith((b".html", b".htm"))]
        canonicals: dict[bytes, bytes | None] = {}
        for rel, target in written:
            other = pages[target % len(pages)] if target is not None and pages else None
            canonicals[rel] = other
            with open(os.path.join(site, rel), "wb") as handle:
                handle.write(_page(url_of(other) if other is not None else None))

        def itself(rel: bytes) -> bool:
            other = canonicals.get(rel)
            return other is None or url_of(other) == url_of(rel)

        config = SitemapConfig.from_mapping({"base_url": BASE, "fingerprint": False})
        generate(os.fsdecode(site), config)  # no exception, whatever the names
        text = os.path.join(site, b"sitemap.txt")
        urls: list[str] = []
        if os.path.exists(text):
            with open(text, encoding="utf-8") as handle:
                urls = handle.read().split()
        assert len(urls) == len(set(urls)), "a URL is listed twice"
        served = [file_of(site, url) for url in urls]
        assert None not in served, f"a listed URL names no file: {urls}"
        assert len(set(served)) == len(urls), "two URLs name one file"
        for rel in served:
            assert rel is not None
            assert itself(rel), f"{rel!r} names {canonicals.get(rel)!r} as canonical"
        expected = {url_of(rel) for rel in pages if itself(rel)
                    and not (rel.rpartition(b"/")[2] == b"index.htm"
                             and rel[:-3] + b"html" in pages)}
        assert set(urls) == expected
        if urls:
            problems, _ = check_site(os.fsdecode(site), config)
            assert [str(problem) for problem in problems if "robots" not in str(problem)] == []


@SETTINGS
@given(st.lists(_ENTRY, min_size=1, max_size=8))
@example([(None, b"\xff.html", None), (None, b"\xfe.html", 0)])  # both were '%FF.html'
@example([(None, b"caf\xc3\xa9.html", None), (None, b"cafe\xcc\x81.html", None)])  # NFC, NFD
@example([(b"a", b"Index.html", None)])  # was listed as a/, which no server answers with it
@example([(None, b"%FF.html", None), (None, b"\xff.html", None)])
def test_every_listed_url_serves_exactly_one_file(entries) -> None:
    """Names as bytes: listed URLs and the files they serve correspond one to one."""
    build_names(entries)
