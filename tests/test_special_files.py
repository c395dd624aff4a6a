"""Pipes, sockets and devices in the site, at output paths and under check (#17).

None is ever opened (a pipe would make a build or a check wait forever, a device may never
end) or replaced by a regular file. Each gives one clear line naming the file and what it
is, and the run ends (every run below has a time limit).
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_plugins.entry.render import render_indexes

ROOT = Path(__file__).resolve().parents[1]
BASE = "https://example.org/"
EPOCH = "1715040000"  # 2024-05-07: the page below is a day-old news article
PAGE = ("<html><head><title>Launch</title><meta property='article:published_time' "
        "content='2024-05-06T09:00:00Z'></head><body><main>x</main></body></html>")
KINDS = ["fifo", "socket", "devnull"]
# What each kind is called: when written to (lstat) and when read (the link is followed out).
WRITE_WORDS = {"fifo": "is a named pipe", "socket": "is a socket", "devnull": "is a symbolic link"}
READ_WORDS = {"fifo": "is not a regular file (a named pipe); not read",
              "socket": "is not a regular file (a socket); not read",
              "devnull": "leads out of the site folder; not read"}
NEWS = ["--news", "name=Daily", "--news", "language=en"]


def make_special(path: Path, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Put a pipe, a unix socket or a link to /dev/null at ``path`` (no root needed)."""
    if path.exists() or path.is_symlink():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        with monkeypatch.context() as patch:  # a relative name: socket paths are short
            patch.chdir(path.parent)
            with socket.socket(socket.AF_UNIX) as server:
                server.bind(path.name)
    else:
        path.symlink_to("/dev/null")


def site_with_page(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(PAGE, "utf-8")
    (site / "robots.txt").write_text("User-agent: *\n", "utf-8")
    return site


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SOURCE_DATE_EPOCH": EPOCH}
    done = subprocess.run([sys.executable, "-m", "sitemap_plugins", *args], capture_output=True,
                          text=True, timeout=60, check=False, env=env, cwd=ROOT)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def lines_naming(text: str, name: str) -> list[str]:
    return [line for line in text.splitlines() if name in line]


# --- build: in the tree, and where the build writes ----------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_a_special_page_in_the_tree_is_one_line(tmp_path: Path, kind: str, monkeypatch) -> None:
    """page.html that is a pipe, a socket or a link to /dev/null: one warning, not read."""
    site = site_with_page(tmp_path)
    make_special(site / "page.html", kind, monkeypatch)
    done = run("build", str(site), "--base-url", BASE)
    assert done.returncode == 0
    (line,) = lines_naming(done.stderr, "page.html")
    assert line.startswith("warning: 'page.html': ")
    assert ("symlink that leaves the site folder" if kind == "devnull"
            else "is not a regular file (a pipe, socket or device); not read") in line
    assert "page.html" not in (site / "sitemap.txt").read_text("utf-8")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("place", "args"), [
    ("site/sitemap.xml", []), ("site/sitemap.xml.gz", []), ("site/sitemap.txt", []),
    ("site/sitemap-news.xml", NEWS), ("site/map.html", ["--html-sitemap", "map.html"]),
    ("changes.json", ["--changes-file", "{root}/changes.json"]),
], ids=["xml", "gz", "txt", "news", "html-sitemap", "changes-file"])
def test_a_special_file_where_the_build_writes_stops_it(tmp_path: Path, kind: str, place: str,
                                                        args: list[str], monkeypatch) -> None:
    """The build stops with one error naming it, and leaves it as it was."""
    site = site_with_page(tmp_path)
    target = tmp_path / place
    make_special(target, kind, monkeypatch)
    before = os.lstat(target).st_mode
    done = run("build", str(site), "--base-url", BASE,
               *(arg.format(root=tmp_path) for arg in args))
    assert done.returncode == 1
    (line,) = lines_naming(done.stderr, target.name)
    assert line == (f"error: {target}: {WRITE_WORDS[kind]}, not a regular file; it was left "
                    "as it is (remove it, or choose another name, to let the file be written)")
    assert os.lstat(target).st_mode == before
    assert not stat.S_ISREG(before)


@pytest.mark.parametrize("kind", KINDS)
def test_a_special_robots_txt_is_left_alone_with_one_warning(tmp_path: Path, kind: str,
                                                             monkeypatch) -> None:
    """robots.txt is not read or changed; the sitemaps are still written."""
    site = site_with_page(tmp_path)
    make_special(site / "robots.txt", kind, monkeypatch)
    before = os.lstat(site / "robots.txt").st_mode
    done = run("build", str(site), "--base-url", BASE)
    assert done.returncode == 0
    (line,) = lines_naming(done.stderr, "robots.txt")
    assert line.startswith("warning: 'robots.txt': ")
    assert "not read or changed" in line
    assert os.lstat(site / "robots.txt").st_mode == before
    assert (site / "sitemap.xml").is_file()


# --- check -------------------------------------------------------------------------------------

def _index_with_part(site: Path) -> None:
    """sitemap.xml as an index of sitemap-1.xml (what a split build writes)."""
    (site / "sitemap.xml").rename(site / "sitemap-1.xml")
    (site / "sitemap.xml.gz").unlink()
    (site / "sitemap.xml").write_bytes(render_indexes([(f"{BASE}sitemap-1.xml", "")], max_urls=9,
                                                     max_bytes=1 << 20)[0][0])


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["sitemap.xml", "sitemap.xml.gz", "sitemap.txt", "robots.txt",
                                  "sitemap-news.xml", "sitemap-1.xml"])
def test_check_names_a_special_file_in_one_line(tmp_path: Path, kind: str, name: str,
                                                monkeypatch) -> None:
    """check exits 1 with one line naming the file and what it is; nothing is opened."""
    site = site_with_page(tmp_path)
    assert run("build", str(site), "--base-url", BASE, *NEWS).returncode == 0
    if name == "sitemap-1.xml":
        _index_with_part(site)
    assert run("check", str(site), "--base-url", BASE).returncode == 0
    make_special(site / name, kind, monkeypatch)
    done = run("check", str(site), "--base-url", BASE)
    assert done.returncode == 1
    problems = done.stderr.splitlines()
    if name == "sitemap-1.xml" and kind == "devnull":  # a link out is no file of the site
        assert problems == [(f"sitemap.xml: <sitemap> #1: no file in the site serves "
                            f"'{BASE}sitemap-1.xml'")]
        return
    prefix = (f"{name}: is not a valid gzip file, or cannot be read: " if name.endswith(".gz")
              else f"{name}: cannot be read: ")
    assert problems == [prefix + READ_WORDS[kind]]
