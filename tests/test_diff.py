"""``sitemap-plugins diff`` (products/diff.py): URLs added, removed and redated, and its exits."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

from sitemap_plugins.cli import main
from sitemap_plugins.products.diff import diff_sitemaps

BASE = "https://example.org/"
HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def urlset(*entries: tuple[str, str]) -> str:
    urls = "".join(f"<url><loc>{BASE}{path}</loc>" + (f"<lastmod>{date}</lastmod>" if date
                   else "") + "</url>\n" for path, date in entries)
    return f"{HEAD}<urlset {NS}>\n{urls}</urlset>\n"


def index(*parts: str) -> str:
    named = "".join(f"<sitemap><loc>{BASE}{part}</loc></sitemap>" for part in parts)
    return f"{HEAD}<sitemapindex {NS}>{named}</sitemapindex>\n"


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        text = text.encode()
    path.write_bytes(gzip.compress(text, mtime=0) if path.name.endswith(".gz") else text)
    return path


OLD = urlset(("", "2024-05-01"), ("a.html", "2024-05-01"), ("gone.html", ""),
             ("same-instant.html", "2024-05-01"), ("b.html", "2024-01-01"))


def test_diff_counts_added_removed_and_moved_lastmods(tmp_path: Path) -> None:
    """Added, removed and redated URLs; one instant written two ways is not a move."""
    old = write(tmp_path / "old.xml", OLD)
    new = write(tmp_path / "new.xml", urlset(
        ("", "2024-05-01"), ("a.html", "2024-06-01"), ("new.html", "2024-06-01"),
        ("same-instant.html", "2024-05-01T00:00:00Z"), ("b.html", "")))
    diff = diff_sitemaps(str(old), str(new))
    assert diff.added == [f"{BASE}new.html"]
    assert diff.removed == [f"{BASE}gone.html"]
    assert diff.redated == [(f"{BASE}a.html", "2024-05-01", "2024-06-01"),
                            (f"{BASE}b.html", "2024-01-01", "")]  # its lastmod went
    assert (diff.old_urls, diff.new_urls) == (5, 5)
    assert diff.summary() == "5 URLs -> 5 URLs: 1 added, 1 removed, 2 redated"


def test_diff_reads_an_index_with_gzip_parts_a_folder_and_a_text_sitemap(tmp_path: Path) -> None:
    """An index's parts (.gz too, named by URL) and a folder's sitemap.txt read as one list."""
    site = tmp_path / "site"
    write(site / "sitemap.xml", index("sitemap-1.xml.gz", "docs/sitemap-2.xml"))
    write(site / "sitemap-1.xml.gz", urlset(("", "2024-05-01"), ("a.html", "2024-05-01")))
    write(site / "docs" / "sitemap-2.xml", urlset(("docs/x.html", "2024-05-01")))
    text = tmp_path / "text"
    write(text / "sitemap.txt", f"\ufeff{BASE}\r\n{BASE}a.html\n\n{BASE}docs/y.html")
    diff = diff_sitemaps(str(site), str(text))
    assert diff.removed == [f"{BASE}docs/x.html"]
    assert diff.added == [f"{BASE}docs/y.html"]
    assert diff.redated == []  # a text sitemap has no dates to move


def test_cli_fails_on_removed_urls_and_prints_json(tmp_path: Path, capsys) -> None:
    """--fail-on removed exits 1 when a URL went; the JSON names every change."""
    old = write(tmp_path / "old.xml", OLD)
    new = write(tmp_path / "new.xml", urlset(("", "2024-05-01"), ("a.html", "2024-06-01")))
    assert main(["diff", str(old), str(new), "--fail-on", "removed"]) == 1
    out, err = capsys.readouterr()
    assert f"- {BASE}gone.html" in out.splitlines()
    assert f"~ {BASE}a.html 2024-05-01 -> 2024-06-01" in out.splitlines()
    assert out.splitlines()[-1] == "5 URLs -> 2 URLs: 0 added, 3 removed, 1 redated"
    assert err == "error: URLs 3 removed (--fail-on removed)\n"
    assert main(["diff", str(old), str(new), "--fail-on", "added", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["command"] == "diff"
    assert report["ok"] is True
    assert report["counts"] == {"added": 0, "removed": 3, "redated": 1}
    assert report["redated"] == [{"url": f"{BASE}a.html", "old": "2024-05-01",
                                  "new": "2024-06-01"}]
    assert report["old"] == {"source": str(old), "urls": 5}
    assert main(["diff", str(old), str(old), "--fail-on", "removed,redated"]) == 0


def test_cli_rejects_a_bad_fail_on(tmp_path: Path, capsys) -> None:
    """A word that is no kind of change is a usage error, in one line."""
    old = write(tmp_path / "old.xml", OLD)
    assert main(["diff", str(old), str(old), "--fail-on", "removed,moved"]) == 2
    assert capsys.readouterr().err == (
        "error: --fail-on: Expected some of added, removed, redated (comma-separated) but "
        "received: 'removed,moved'\n")


def _hostile(tmp_path: Path, case: str) -> Path:
    site = tmp_path / "bad"
    if case == "not xml":
        return write(site / "sitemap.xml", b"<html><p>hi</html>")
    if case == "doctype":
        return write(site / "sitemap.xml", '<?xml version="1.0"?><!DOCTYPE u [<!ENTITY a "'
                     + "x" * 10 + '">]><urlset/>')
    if case == "gzip bomb":
        comment = b"<!--" + b" " * (60 * 1024 * 1024) + b"-->"
        return write(site / "sitemap.xml.gz", f"{HEAD}<urlset {NS}>".encode() + comment)
    if case == "not gzip":
        site.mkdir()
        (site / "sitemap.xml.gz").write_bytes(b"plain text")
        return site / "sitemap.xml.gz"
    if case == "index loop":
        return write(site / "sitemap.xml", index("sitemap.xml"))
    if case == "index outside":
        write(tmp_path / "secret.xml", urlset(("a.html", "")))
        return write(site / "sitemap.xml", index("../secret.xml"))
    if case == "missing part":
        return write(site / "sitemap.xml", index("sitemap-9.xml"))
    if case == "text not urls":
        return write(site / "sitemap.txt", "<html>\n")
    if case == "named pipe":
        site.mkdir()
        os.mkfifo(site / "sitemap.xml")
        return site
    if case == "empty folder":
        site.mkdir()
        return site
    raise AssertionError(case)


HOSTILE = {
    "not xml": "is not a sitemaps.org urlset or sitemap index (root element html)",
    "doctype": "line 1: has a DOCTYPE; a sitemap may declare no DOCTYPE",
    "gzip bomb": "inflates past 52,428,800 bytes (the protocol's limit)",
    "not gzip": "is not a valid gzip file",
    "index loop": "is a sitemap index named by a sitemap index; indexes do not nest",
    "index outside": "names 'https://example.org/../secret.xml', which is not a file in",
    "missing part": "names 'https://example.org/sitemap-9.xml', which is not a file in",
    "text not urls": "line 1 is not an http(s) URL: '<html>'",
    "named pipe": "cannot be read (is not a regular file (a named pipe); not read)",
    "empty folder": "holds no sitemap.xml, sitemap.xml.gz, sitemap.txt (build the site first?)",
}


@pytest.mark.parametrize("case", list(HOSTILE), ids=list(HOSTILE))
def test_hostile_input_is_one_line_and_exit_2(tmp_path: Path, capsys, case: str) -> None:
    """A side that is no sitemap (or a trap) gets one clear line on stderr and exit 2."""
    good = write(tmp_path / "good.xml", OLD)
    bad = _hostile(tmp_path, case)
    assert main(["diff", str(good), str(bad)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("error: ")
    assert HOSTILE[case] in err
