"""Hostile site trees: every odd file gives a diagnostic, the run goes on, nothing leaks in.

Each test builds a small site around one trap (bad encodings, binary pages, a 200 MB page,
a head that never ends, 10,000 nested folders, symlink loops and links out of the site,
unreadable and vanishing files, pipes named ``.html``) and checks three things: the trap is
reported as a diagnostic, the ordinary pages beside it are still listed (the output validates
against the XSDs), and nothing from outside the site reaches the output.
"""

from __future__ import annotations

import errno
import os
import shutil
import socket
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import validate_sitemap_file
from cost import assert_linear, hang_guard

from sitemap_plugins import SitemapConfig, generate
from sitemap_plugins.cli import main
from sitemap_plugins.page.reader import MAX_PARSED_BYTES, parse_html
from sitemap_plugins.products.build.pipeline import Result

BASE = "https://example.org/"
PAGE = b"<!DOCTYPE html><html><head><title>ok</title></head><body>ok</body></html>"
CANARY = "CANARY-OUTSIDE"  # written only outside the site; must never reach the output


def build(site: Path, **options: object) -> Result:
    config = SitemapConfig.from_mapping({"base_url": BASE, **options})
    return generate(site, config)


def codes(result: Result) -> dict[str, set[str]]:
    """Diagnostic codes by the path they are about."""
    found: dict[str, set[str]] = {}
    for diagnostic in result.diagnostics:
        found.setdefault(diagnostic.path, set()).add(diagnostic.code)
    return found


def output_bytes(site: Path) -> bytes:
    """Everything the run wrote at the site root (sitemaps, robots.txt, fragment)."""
    return b"".join(p.read_bytes() for p in sorted(site.iterdir())
                    if p.is_file() and not p.is_symlink()
                    and (p.name.startswith("sitemap") or p.name.startswith("robots")))


def make_site(root: Path) -> Path:
    site = root / "site"
    (site / "guide").mkdir(parents=True)
    (site / "index.html").write_bytes(PAGE)
    (site / "guide" / "index.html").write_bytes(PAGE)
    return site


ORDINARY = {BASE, BASE + "guide/"}


# --- encodings and binary files ----------------------------------------------------------------

def test_non_utf8_pages(tmp_path: Path, sitemap_urls, snapshot) -> None:
    """Declared latin-1 and Shift_JIS pages are read right; undeclared bytes are guessed."""
    site = make_site(tmp_path)
    (site / "café.html").write_bytes(
        '<html><head><meta charset="iso-8859-1"><title>café</title>'
        '<link rel="canonical" href="https://example.org/café.html"></head></html>'
        .encode("latin-1"))
    (site / "日本.html").write_bytes(
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'
        '<link rel="canonical" href="/日本.html"><title>日本語</title></head></html>'
        .encode("shift_jis"))
    (site / "undeclared.html").write_bytes(
        b"<html><head><title>caf\xe9 \x93quoted\x94 \xff\xfe</title></head></html>")
    # Python knows byte-to-byte codecs by these names; declaring one used to crash the run.
    for label in ("hex", "base64", "rot13", "undefined", "idna", "utf-7", "cp037", "utf-32"):
        (site / f"declares-{label}.html").write_bytes(
            f'<html><head><meta charset="{label}"><title>x</title></head></html>'.encode())
    before = snapshot(site)
    result = build(site)
    after = snapshot(site)
    assert {k: after[k] for k in before} == before, "a page changed"
    assert sorted(set(after) - set(before)) == ["sitemap.txt", "sitemap.xml", "sitemap.xml.gz"]
    urls = set(sitemap_urls(site))
    assert urls == ORDINARY | {
        BASE + "caf%C3%A9.html", BASE + "%E6%97%A5%E6%9C%AC.html", BASE + "undeclared.html",
    } | {BASE + f"declares-{label}.html" for label in
         ("hex", "base64", "rot13", "undefined", "idna", "utf-7", "cp037", "utf-32")}
    assert codes(result)["undeclared.html"] == {"not-utf8"}
    assert "café.html" not in codes(result)
    assert "日本.html" not in codes(result)


@pytest.mark.parametrize(
    ("content", "code", "listed"),
    [
        (b"\x7fELF\x02\x01\x01\x00" + os.urandom(4096), "binary", False),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8, "binary", False),
        # no <html>, <head>, <body>, doctype or <title>: no page (reader._is_template)
        (b"\x1f\x8b\x08\x08" + bytes(range(1, 256)) * 16, None, False),
        (bytes(range(0x80, 0x100)) * 64, None, False),
        (b"\xff\xfe" + "<html><head><title>x</title></head></html>".encode("utf-16-le"),
         None, True),
    ],
    ids=["elf", "png", "gzip-no-nul", "high-bytes", "utf16-bom"],
)
def test_binary_named_html(tmp_path: Path, sitemap_urls, content: bytes, code, listed) -> None:
    """A binary file named .html is reported (and left out when it holds NUL bytes)."""
    site = make_site(tmp_path)
    (site / "blob.html").write_bytes(content)
    result = build(site)
    expected = ORDINARY | ({BASE + "blob.html"} if listed else set())
    assert set(sitemap_urls(site)) == expected
    assert codes(result).get("blob.html", set()) == ({code} if code else set())


# --- huge pages and heads that never end --------------------------------------------------------

_MEASURE = textwrap.dedent("""
    import resource, subprocess, sys, time
    start = time.monotonic()
    done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
    print(done.returncode, peak, round(time.monotonic() - start, 2))
    sys.stderr.write(done.stderr)
""")


def run_measured(site: Path, *args: str) -> tuple[int, int, float, str]:
    """Run the CLI in a child of a fresh process: (exit code, peak RSS in KiB, seconds, stderr).

    The extra process makes RUSAGE_CHILDREN hold the build alone, not earlier test children.
    """
    cli = [sys.executable, "-m", "sitemap_plugins", "build", str(site), "--base-url", BASE, *args]
    done = subprocess.run([sys.executable, "-c", _MEASURE, *cli], capture_output=True,
                          text=True, timeout=300, check=True)
    code, peak, seconds = done.stdout.split()
    return int(code), int(peak), float(seconds), done.stderr


@pytest.mark.integration
@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB on Linux only")
@pytest.mark.parametrize("kind", ["text-body", "sparse"])
def test_200_mb_page_bounded_memory(tmp_path: Path, sitemap_urls, kind: str) -> None:
    """A 200 MB page whose head never closes is read in bounded memory (peak RSS < 150 MB)."""
    site = make_site(tmp_path)
    size = 200 * 1024 * 1024
    with (site / "huge.html").open("wb") as handle:
        handle.write(b"<!DOCTYPE html><html><head><title>never closed")
        if kind == "text-body":
            line = b"<p>" + b"x" * 1020 + b"</p>\n"
            for _ in range(size // len(line)):
                handle.write(line)
        else:  # a text start, then a hole: the file system holds no data for it
            handle.write(b"<p>text</p>\n" * 200_000)
            handle.truncate(size)
    assert (site / "huge.html").stat().st_size >= size - 2048
    code, peak_kib, seconds, stderr = run_measured(site)
    print(f"200 MB page ({kind}): peak RSS {peak_kib / 1024:.1f} MiB, {seconds:.2f} s")  # noqa: T201
    assert code == 0, stderr
    assert peak_kib < 150 * 1024, f"peak RSS {peak_kib / 1024:.0f} MiB"
    assert "Traceback" not in stderr
    assert (f"'huge.html': is larger than {MAX_PARSED_BYTES:,} bytes; only that much was parsed"
            in stderr)
    listed = set(sitemap_urls(site))
    assert listed >= ORDINARY


@pytest.mark.integration
def test_head_never_closes(tmp_path: Path, sitemap_urls) -> None:
    """A head without </head> or <body> still yields its links; a huge title is cut short."""
    site = make_site(tmp_path)
    (site / "short.html").write_bytes(
        b'<html><head><link rel="canonical" href="https://example.org/short.html"><title>x')
    (site / "long.html").write_bytes(
        b"<html><head><title>" + b"a" * (3 * 1024 * 1024))
    (site / "long-noindex.html").write_bytes(
        b"<html><head><meta name=robots content=noindex><script>" + b"x<" * (2 * 1024 * 1024))
    result = build(site)
    assert set(sitemap_urls(site)) == ORDINARY | {BASE + "short.html", BASE + "long.html"}
    assert result.excluded["noindex"] == 1
    title = parse_html((site / "long.html").read_bytes()).title
    assert title is not None
    assert 0 < len(title) <= 2_048


PATHOLOGICAL = {
    "end-tags": "</" * 500_000,
    "end-tags-named": "</a" * 333_333,
    "bogus-comments": "<!" * 500_000,
    "open-brackets": "<" * 1_000_000,
    "unclosed-attribute": "<meta content='" * 70_000,
    "marked-sections": "<![" * 333_333,
    "comments": "<!--" * 250_000,
    "char-refs": "&#x" * 333_333,
}


@pytest.mark.parametrize("markup", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_pathological_head_parses_in_linear_time(markup: str) -> None:
    """1 MB of markup that makes html.parser's close() quadratic (74 s on "</" * 500,000) is
    read with work that grows as the markup does."""
    def page(size: int) -> bytes:
        return ('<html><head><link rel="canonical" href="/x">' + markup[:size]).encode()
    assert_linear(lambda size: parse_html(page(size)), len(markup) // 4)
    with hang_guard():
        record = parse_html(page(len(markup)))
    assert record.canonical == "/x"


def test_pathological_head_in_a_build(tmp_path: Path, sitemap_urls) -> None:
    """A page whose 1 MB head is "</</</..." does not stall the build."""
    site = make_site(tmp_path)
    (site / "slow.html").write_bytes(b"<html><head>" + b"</" * 500_000)
    with hang_guard():
        result = build(site)
    assert set(sitemap_urls(site)) == ORDINARY | {BASE + "slow.html"}
    assert result.listed == 3


HOSTILE_BODIES = {
    # 200 kB each; a linear reader takes milliseconds. A regex tokenizer once took 93 s on
    # the first (it stripped unclosed <nav> one per pass over the whole page) and grew with
    # the square of the size on the second.
    "unclosed-navs": (b"<nav>", 40_000),
    "less-than-signs": (b"x < y ", 120_000),
}


@pytest.mark.integration
@pytest.mark.parametrize("body", HOSTILE_BODIES.values(), ids=HOSTILE_BODIES.keys())
def test_fingerprint_of_hostile_page_is_linear(tmp_path: Path, body: tuple[bytes, int]) -> None:
    """Reading and fingerprinting a 200 kB hostile page costs work in step with its size (it
    was given 3 wall seconds, which a busy machine failed), and a default build of it ends."""
    unit, count = body
    def page(repeats: int) -> bytes:
        return b"<html><body>" + unit * repeats + b"x"
    assert_linear(lambda repeats: parse_html(page(repeats)).fingerprint, count // 2)
    site = make_site(tmp_path)
    (site / "hostile.html").write_bytes(page(count))
    subprocess.run(
        [sys.executable, "-m", "sitemap_plugins", "build", str(site), "--base-url", BASE],
        capture_output=True, timeout=300, check=True)  # a guard against a hang, no bound


# --- deep and looping trees --------------------------------------------------------------------

def _make_chain(root: Path, depth: int, pages_at: set[int]) -> None:
    """depth nested folders named "d", made with folder handles (paths pass PATH_MAX)."""
    fd = os.open(root, os.O_RDONLY)
    try:
        for level in range(1, depth + 1):
            os.mkdir("d", dir_fd=fd)
            child = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = child
            if level in pages_at:
                page = os.open("index.html", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
                os.write(page, PAGE)
                os.close(page)
    finally:
        os.close(fd)


@pytest.mark.integration
def test_ten_thousand_nested_folders(tmp_path: Path, sitemap_urls) -> None:
    """10,000 nested folders: no recursion error; too-deep folders and URLs are reported."""
    site = make_site(tmp_path)
    try:
        _make_chain(site, 10_000, {1, 500, 1000, 1020, 3000, 10_000})
        with hang_guard():
            result = build(site)
        urls = set(sitemap_urls(site))
        assert urls == ORDINARY | {BASE + "d/" * n for n in (1, 500, 1000)}
        found = codes(result)
        # depth 1020: the URL passes 2,048 characters; beyond PATH_MAX the folder is unreadable
        assert "url-too-long" in found["d/" * 1019 + "d/index.html"]
        # past PATH_MAX (4,096 bytes) the entries cannot be examined: reported, not fatal
        assert any(d.code.startswith("unreadable") and "File name too long" in d.message
                   for d in result.diagnostics)
    finally:
        subprocess.run(["rm", "-rf", str(site / "d")], check=True)  # deeper than rmtree goes


def test_symlink_loops(tmp_path: Path, sitemap_urls) -> None:
    """Links back to parents, to siblings and to themselves end; each loop is reported."""
    site = make_site(tmp_path)
    for folder in ("a", "b"):
        (site / folder).mkdir()
        (site / folder / "page.html").write_bytes(PAGE)
    os.symlink(".", site / "loop")
    os.symlink("..", site / "a" / "up")
    os.symlink("../b", site / "a" / "toB")
    os.symlink("../a", site / "b" / "toA")
    os.symlink(str(site), site / "guide" / "absolute-root")
    os.symlink("x.html", site / "y.html")
    os.symlink("y.html", site / "x.html")
    os.symlink("self.html", site / "self.html")
    result = build(site)
    assert set(sitemap_urls(site)) == ORDINARY | {BASE + "a/page.html", BASE + "b/page.html"}
    found = codes(result)
    for loop in ("loop", "a/up", "guide/absolute-root"):
        assert "symlink-loop" in found[loop], loop
    for sibling in ("a/toB", "b/toA"):  # their pages are listed under their own paths
        assert "symlink-duplicate" in found[sibling], sibling
    for broken in ("x.html", "y.html", "self.html"):  # ELOOP: "Too many levels of symlinks"
        assert found[broken] & {"broken-symlink", "unreadable"}, broken


def test_symlinks_fanning_out_read_each_file_once(tmp_path: Path, sitemap_urls) -> None:
    """Folders linking to each other without a loop: 14 pages gave 16,370 URLs (the walk was
    exponential). Now each real file is read once and listed under one URL; a hidden folder
    reached only through links is listed through one of them."""
    site = tmp_path / "site"
    for level in range(7):
        folder = site / f"l{level}"
        folder.mkdir(parents=True)
        (folder / "a.html").write_bytes(PAGE)
        (folder / "b.html").write_bytes(PAGE)
    for level in range(6):
        for name in ("x", "y"):
            os.symlink(f"../l{level + 1}", site / f"l{level}" / name)
    (site / ".assets").mkdir()
    (site / ".assets" / "shared.html").write_bytes(PAGE)
    os.symlink(".assets", site / "one")
    os.symlink(".assets", site / "two")
    with hang_guard():  # each folder is walked once: a loop would never end
        build(site)
    urls = sitemap_urls(site)
    assert len(urls) == len(set(urls)) == 15
    assert BASE + "one/shared.html" in urls
    assert BASE + "two/shared.html" not in urls


def test_symlinks_out_of_the_site(tmp_path: Path, sitemap_urls) -> None:
    """Links that leave the site are not followed; nothing of theirs reaches the output."""
    site = make_site(tmp_path)
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    secret_page = (f'<html><head><title>{CANARY}</title><link rel="canonical" '
                   f'href="https://example.org/{CANARY}.html"></head></html>').encode()
    (outside / f"{CANARY}.html").write_bytes(secret_page)
    (outside / "deep" / f"{CANARY}-deep.html").write_bytes(secret_page)
    outside_robots = f"User-agent: *\nDisallow: /\nSitemap: https://evil.example/{CANARY}\n"
    (outside / "robots.txt").write_text(outside_robots)
    os.symlink(outside / f"{CANARY}.html", site / "absolute-file.html")
    os.symlink(f"../outside/{CANARY}.html", site / "relative-file.html")
    os.symlink(outside, site / "absolute-folder")
    os.symlink("../../outside/deep", site / "guide" / "relative-folder")
    os.symlink("/etc/passwd", site / "passwd.html")
    os.symlink("hop.html", site / "chain.html")  # inside, then out
    os.symlink(f"../outside/{CANARY}.html", site / "hop.html")
    os.symlink("../outside/robots.txt", site / "robots.txt")
    (site / "inside.html").symlink_to("index.html")  # within the site: listed as index.html
    result = build(site, robots_txt="create")
    assert set(sitemap_urls(site)) == ORDINARY
    found = codes(result)
    assert "symlink-duplicate" in found["inside.html"]
    for link in ("absolute-file.html", "relative-file.html", "absolute-folder",
                 "guide/relative-folder", "passwd.html", "chain.html", "hop.html", "robots.txt"):
        assert "symlink-out" in found[link], link
    assert CANARY.encode() not in output_bytes(site)
    assert b"root:" not in output_bytes(site)
    assert (outside / "robots.txt").read_text() == outside_robots  # never edited
    assert (site / "robots.txt").is_symlink()


# --- unreadable, vanishing and special files ---------------------------------------------------

def _reads_are_blocked(path: Path) -> bool:
    try:
        path.read_bytes()
    except PermissionError:
        return True
    except IsADirectoryError:
        try:
            os.listdir(path)
        except PermissionError:
            return True
    return False


def _fail_open_for(monkeypatch: pytest.MonkeyPatch, victim: Path, error: OSError) -> None:
    """Make os.open() fail for ``victim``, as chmod 000 would (root ignores it)."""
    real_open = os.open

    def fake_open(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if os.fspath(path) == os.fspath(victim):
            raise error
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", fake_open)


def test_unreadable_page(tmp_path: Path, sitemap_urls, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page that cannot be read (chmod 000) is reported and left out; the run goes on."""
    site = make_site(tmp_path)
    victim = site / "secret.html"
    victim.write_bytes(PAGE)
    victim.chmod(0)
    try:
        if not _reads_are_blocked(victim):  # running as root: inject the same failure
            _fail_open_for(monkeypatch, victim,
                           PermissionError(errno.EACCES, "Permission denied", str(victim)))
        result = build(site)
    finally:
        victim.chmod(0o644)
    assert set(sitemap_urls(site)) == ORDINARY
    assert "unreadable" in codes(result)["secret.html"]
    assert "Permission denied" in str(result.diagnostics)


def test_unreadable_folder(tmp_path: Path, sitemap_urls, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder that cannot be listed (chmod 000) is reported; its siblings are listed."""
    site = make_site(tmp_path)
    locked = site / "locked"
    locked.mkdir()
    (locked / "page.html").write_bytes(PAGE)
    locked.chmod(0)
    try:
        if not _reads_are_blocked(locked):
            real_scandir = os.scandir

            def fake_scandir(path):  # type: ignore[no-untyped-def]
                if os.fspath(path) == os.fspath(locked.resolve()):
                    raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
                return real_scandir(path)

            monkeypatch.setattr(os, "scandir", fake_scandir)
        result = build(site)
    finally:
        locked.chmod(0o755)
    assert set(sitemap_urls(site)) == ORDINARY
    assert "unreadable-folder" in codes(result)["locked"]


def test_unreadable_robots_txt(tmp_path: Path, sitemap_urls, monkeypatch) -> None:
    """robots.txt that cannot be read, or is a folder, is reported, never a traceback."""
    site = make_site(tmp_path)
    robots = site / "robots.txt"
    robots.write_bytes(b"User-agent: *\nDisallow: /guide/\n")
    robots.chmod(0)
    try:
        if not _reads_are_blocked(robots):
            # Running as root: the denial is made up, for every way of reading the file.
            real, real_open = Path.read_bytes, Path.open

            def fake_read_bytes(self: Path) -> bytes:
                if self.name == "robots.txt":
                    raise PermissionError(errno.EACCES, "Permission denied", str(self))
                return real(self)

            def fake_open(self: Path, *args: object, **kwargs: object) -> object:
                if self.name == "robots.txt":
                    raise PermissionError(errno.EACCES, "Permission denied", str(self))
                return real_open(self, *args, **kwargs)  # type: ignore[call-overload]

            real_os_open = os.open

            def fake_os_open(path: object, *args: object, **kwargs: object) -> int:
                if os.path.basename(os.fspath(path)) == "robots.txt":  # type: ignore[arg-type]
                    raise PermissionError(errno.EACCES, "Permission denied", str(path))
                return real_os_open(path, *args, **kwargs)  # type: ignore[arg-type]

            monkeypatch.setattr(Path, "read_bytes", fake_read_bytes)
            monkeypatch.setattr(Path, "open", fake_open)
            monkeypatch.setattr(os, "open", fake_os_open)
        result = build(site)
    finally:
        robots.chmod(0o644)
    monkeypatch.undo()
    assert set(sitemap_urls(site)) == ORDINARY  # its rules could not be read, so none apply
    assert codes(result)["robots.txt"] == {"unreadable"}
    assert robots.read_bytes() == b"User-agent: *\nDisallow: /guide/\n"


def test_robots_txt_is_a_folder(tmp_path: Path, sitemap_urls) -> None:
    """A folder named robots.txt is reported and left alone."""
    site = make_site(tmp_path)
    (site / "robots.txt").mkdir()
    result = build(site)
    assert set(sitemap_urls(site)) == ORDINARY
    assert "unreadable" in codes(result)["robots.txt"]


def test_page_vanishes_mid_scan(tmp_path: Path, sitemap_urls, monkeypatch) -> None:
    """A page deleted between the folder listing and its reading is reported, not listed."""
    site = make_site(tmp_path)
    victim = site / "guide" / "gone.html"
    victim.write_bytes(PAGE)
    real_open = os.open

    def vanishing_open(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if os.fspath(path) == os.fspath(victim) and victim.exists():
            victim.unlink()
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", vanishing_open)
    result = build(site, lastmod_file_time=True)
    assert set(sitemap_urls(site)) == ORDINARY
    assert "unreadable" in codes(result)["guide/gone.html"]
    assert "No such file or directory" in str(result.diagnostics)


def test_folder_vanishes_mid_scan(tmp_path: Path, sitemap_urls, monkeypatch) -> None:
    """A folder deleted after its parent was listed is reported; the run goes on."""
    site = make_site(tmp_path)
    doomed = site / "doomed"
    (doomed / "sub").mkdir(parents=True)
    (doomed / "sub" / "page.html").write_bytes(PAGE)
    (site / "zzz.html").write_bytes(PAGE)
    real_scandir = os.scandir

    def vanishing_scandir(path):  # type: ignore[no-untyped-def]
        if isinstance(path, str) and path == str(doomed.resolve()) and doomed.exists():
            monkeypatch.setattr(os, "scandir", real_scandir)  # rmtree lists too
            shutil.rmtree(doomed)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", vanishing_scandir)
    result = build(site)
    assert set(sitemap_urls(site)) == ORDINARY | {BASE + "zzz.html"}
    assert "unreadable-folder" in codes(result)["doomed"]


def _special_files(site: Path) -> list[str]:
    made = []
    os.mkfifo(site / "pipe.html")
    made.append("pipe.html")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(site / "socket.html"))
        made.append("socket.html")
    except OSError:
        pass
    finally:
        server.close()
    try:
        os.mknod(site / "device.html", 0o600 | stat.S_IFCHR, os.makedev(1, 3))  # /dev/null
        made.append("device.html")
    except (PermissionError, OSError):
        pass  # only root (and not in every container) may make device nodes
    os.symlink("pipe.html", site / "link-to-pipe.html")
    made.append("link-to-pipe.html")
    return made


@pytest.mark.integration
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_pipes_sockets_devices_named_html(tmp_path: Path, sitemap_urls) -> None:
    """A named pipe called x.html used to block the build forever; now it is reported."""
    site = make_site(tmp_path)
    made = _special_files(site)
    done = subprocess.run(
        [sys.executable, "-m", "sitemap_plugins", "-v", "build", str(site), "--base-url", BASE],
        capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert set(sitemap_urls(site)) == ORDINARY
    for name in made:
        assert f"'{name}': is not a regular file" in done.stderr, name


@pytest.mark.integration
def test_undecodable_file_names(tmp_path: Path, sitemap_urls) -> None:
    """A file name that is not UTF-8 is listed by its bytes, and printing it cannot fail."""
    site = make_site(tmp_path)
    raw_name = b"caf\xe9 \xff.html"
    try:
        (site / os.fsdecode(raw_name)).write_bytes(PAGE)
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system refuses names that are not UTF-8")
    (site / os.fsdecode(b"bin\x80.html")).write_bytes(b"\x00" * 10)  # a diagnostic names it
    done = subprocess.run(
        [sys.executable, "-m", "sitemap_plugins", "build", str(site), "--base-url", BASE],
        capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert set(sitemap_urls(site)) == ORDINARY | {BASE + "caf%E9%20%FF.html"}
    assert b"bin" in done.stderr
    assert b"Traceback" not in done.stderr


def test_folder_named_index_html(tmp_path: Path, sitemap_urls) -> None:
    """A folder called index.html does not hide the index.htm beside it."""
    site = make_site(tmp_path)
    (site / "guide" / "index.html").unlink()
    (site / "guide" / "index.htm").write_bytes(PAGE)
    (site / "guide" / "index.html").mkdir()
    (site / "guide" / "index.html" / "inner.html").write_bytes(PAGE)
    build(site)
    assert set(sitemap_urls(site)) == ORDINARY | {BASE + "guide/index.html/inner.html"}


def test_sitemap_name_taken_by_a_folder(tmp_path: Path, capsys) -> None:
    """A folder where sitemap.xml goes fails the run with one clear message and no temp file."""
    site = make_site(tmp_path)
    (site / "sitemap.xml").mkdir()
    code = main(["build", str(site), "--base-url", BASE])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("error: ")
    assert err.count("\n") == 1
    assert "sitemap.xml" in err
    assert "the previous file was kept" in err
    assert not [p for p in site.iterdir() if p.name.startswith(".sitemap-plugins-tmp-")]


def _cli_build(site: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """The command line on ``site``, in its own process, so that a hang fails the test."""
    return subprocess.run(
        [sys.executable, "-m", "sitemap_plugins", "build", str(site), "--base-url", BASE, *extra],
        capture_output=True, text=True, timeout=60, check=False,
    )


@pytest.mark.integration
@pytest.mark.parametrize("name", ["sitemap.xml", "sitemap.txt", "sitemap.xml.gz"])
def test_output_symlink_is_never_replaced(tmp_path: Path, name: str) -> None:
    """A symlink standing where an output goes stops the build with one line; the link and
    the file it points to are left as they were."""
    site = make_site(tmp_path)
    outside = tmp_path / "shared-file.txt"
    outside.write_text(CANARY, "utf-8")
    (site / name).symlink_to(outside)
    done = _cli_build(site)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1, done.stderr
    assert "is a symbolic link, not a regular file" in done.stderr
    assert name in done.stderr
    assert "Traceback" not in done.stderr
    assert (site / name).is_symlink()
    assert os.readlink(site / name) == str(outside)
    assert outside.read_text("utf-8") == CANARY
    assert not [p for p in site.iterdir() if p.name.startswith(".sitemap-plugins-tmp-")]


@pytest.mark.integration
@pytest.mark.parametrize("kind", ["symlink", "pipe"])
def test_changes_file_that_is_not_a_file_is_left_alone(tmp_path: Path, kind: str) -> None:
    """changes_file naming a symlink or a named pipe is one clear line, exit 1, and it is
    neither replaced nor opened (a pipe would block the build forever)."""
    site = make_site(tmp_path)
    target = tmp_path / "changes.json"
    outside = tmp_path / "elsewhere.json"
    outside.write_text(CANARY, "utf-8")
    if kind == "symlink":
        target.symlink_to(outside)
    else:
        os.mkfifo(target)
    done = _cli_build(site, "--changes-file", str(target))
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "changes.json" in done.stderr
    if kind == "symlink":
        assert target.is_symlink()
        assert outside.read_text("utf-8") == CANARY
    else:
        assert stat.S_ISFIFO(os.lstat(target).st_mode)


@pytest.mark.integration
def test_robots_txt_pipe_does_not_hang_the_build(tmp_path: Path, sitemap_urls) -> None:
    """A named pipe at robots.txt is reported and never opened: the build finishes, lists
    the pages, and the pipe is still a pipe."""
    site = make_site(tmp_path)
    os.mkfifo(site / "robots.txt")
    done = _cli_build(site, "--robots-txt", "create")
    assert done.returncode == 0, done.stderr
    assert "robots.txt" in done.stderr
    assert "is a named pipe, not a regular file" in done.stderr
    assert set(sitemap_urls(site)) == ORDINARY
    assert stat.S_ISFIFO(os.lstat(site / "robots.txt").st_mode)


@pytest.mark.integration
def test_fragment_pipe_does_not_hang_the_build(tmp_path: Path) -> None:
    """A named pipe where the robots.txt fragment goes stops the build with one line, at
    once."""
    site = make_site(tmp_path)
    os.mkfifo(site / "robots-sitemap.txt")
    done = subprocess.run(
        [sys.executable, "-m", "sitemap_plugins", "build", str(site), "--base-url",
         "https://example.org/docs/"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert "robots-sitemap.txt" in done.stderr
    assert "is a named pipe, not a regular file" in done.stderr
    assert "Traceback" not in done.stderr
    assert stat.S_ISFIFO(os.lstat(site / "robots-sitemap.txt").st_mode)



@pytest.mark.parametrize(
    ("meta", "mtime"),
    [
        ('<meta property="article:modified_time" content="2024-01-02T10:00:00+23:59">', None),
        ('<meta property="article:modified_time" content="2024-01-02T10:00:00-14:30">', None),
        ("", 253402300800.0),  # the first second of the year 10000
        ("", -62135596801.0),  # one second before the year 1
    ],
    ids=["offset-past-a-day", "offset-past-14h", "year-10000", "year-0"],
)
def test_dates_no_sitemap_can_hold_are_dropped_with_a_warning(
    meta: str, mtime: float | None
) -> None:
    """Impossible time zones in a page's meta and file times outside the years 1 to 9999
    (file systems hold them; xs:dateTime cannot): no lastmod, and a warning says why."""
    from sitemap_plugins.entry.rules import Entry, evaluate  # noqa: PLC0415
    from sitemap_plugins.page.reader import parse_html  # noqa: PLC0415
    from sitemap_plugins.products.build.pipeline import make_rules  # noqa: PLC0415
    from sitemap_plugins.vocab.options import SitemapConfig  # noqa: PLC0415

    config = SitemapConfig.from_mapping({"base_url": "https://example.org/",
                                         "lastmod_file_time": True})
    record = parse_html(f"<html><head>{meta}</head><body><main>x</main></body></html>".encode())
    decision = evaluate("index.html", record, None, make_rules(config, None), mtime=mtime)
    assert isinstance(decision.result, Entry)
    assert decision.result.lastmod is None
    assert [d.code for d in decision.diagnostics] == (
        ["bad-date"] if meta else ["bad-file-time"])


def test_an_impossible_time_zone_never_reaches_the_file(tmp_path: Path, xsd) -> None:
    from sitemap_plugins.cli import main  # noqa: PLC0415

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(
        '<html><head><meta property="article:modified_time" content="2024-01-02T10:00:00+23:59">'
        "</head><body><main>x</main></body></html>", "utf-8")
    assert main(["build", str(site), "--base-url", "https://example.org/"]) == 0
    assert "<lastmod>" not in (site / "sitemap.xml").read_text("utf-8")
    validate_sitemap_file(site / "sitemap.xml", xsd)


def test_very_many_or_very_long_alternates_never_stop_the_build(tmp_path: Path, xsd) -> None:
    """A page whose alternates alone pass max_bytes is listed without them (a warning says
    so); an alternate URL past 2,048 characters is not written; the rest goes on."""
    from sitemap_plugins.cli import main  # noqa: PLC0415

    site = tmp_path / "site"
    site.mkdir()
    many = '<link rel="alternate" hreflang="en" href="/">' + "".join(
        f'<link rel="alternate" hreflang="en-a{n}" href="/p{n}/">' for n in range(3000))
    (site / "index.html").write_text(f"<html><head>{many}</head><body>x</body></html>", "utf-8")
    long = ('<link rel="alternate" hreflang="de" href="/long.html">'
            f'<link rel="alternate" hreflang="en" href="/{"a" * 3000}/">'
            '<link rel="alternate" hreflang="fr" href="/fr/">')
    (site / "long.html").write_text(f"<html><head>{long}</head><body>y</body></html>", "utf-8")
    (site / "fr").mkdir()
    (site / "fr" / "index.html").write_bytes(PAGE)
    assert main(["build", str(site), "--base-url", BASE, "--max-bytes", "100000"]) == 0
    text = (site / "sitemap.xml").read_text("utf-8")
    validate_sitemap_file(site / "sitemap.xml", xsd)
    assert len(text.encode()) <= 100_000
    assert "p1/" not in text  # index.html: listed, without its 3,000 alternates
    assert "<loc>https://example.org/</loc>" in text
    assert 'hreflang="fr" href="https://example.org/fr/"' in text  # long.html keeps the others
    assert "a" * 2049 not in text


@pytest.mark.integration
@pytest.mark.parametrize("command", ["build", "merge"])
def test_a_huge_robots_txt_is_not_read_whole_nor_changed(tmp_path: Path, command: str) -> None:
    """Crawlers read the first 500 KiB of robots.txt: a line added after a 50 MB file would be
    lost on them. The file is left byte for byte, a warning says why, and memory stays low
    (a 50 MB file took 505 MB)."""
    import hashlib  # noqa: PLC0415

    root = tmp_path / "root"
    site = root / "docs" if command == "merge" else root
    site.mkdir(parents=True)
    (site / "index.html").write_bytes(PAGE)
    robots = root / "robots.txt"
    with robots.open("wb") as handle:
        handle.write(b"User-agent: *\n")
        for _ in range(50):
            handle.write(b"Disallow: /private/" + b"x" * 1_048_540 + b"\n")
    digest = hashlib.sha256(robots.read_bytes()).hexdigest()
    base = BASE + ("docs/" if command == "merge" else "")
    if command == "merge":  # the build below the root writes its fragment; merge edits robots
        subprocess.run([sys.executable, "-m", "sitemap_plugins", "build", str(site),
                        "--base-url", base], check=True, capture_output=True)
    args = ([command, str(root), "--base-url", BASE] if command == "merge" else
            [command, str(site), "--base-url", base])
    # VmHWM: this process's own peak (ru_maxrss would carry the forking test runner's over).
    done = subprocess.run([sys.executable, "-c", (
        "import re, sys; from sitemap_plugins.cli import main; code = main(sys.argv[1:]); "
        "status = open('/proc/self/status').read(); "
        r"print(re.search(r'VmHWM:\s+(\d+)', status).group(1)); sys.exit(code)"), *args],
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.splitlines()[-1]) < 150 * 1024  # KiB: peak RSS under 150 MB
    assert "robots.txt" in done.stderr
    assert "larger than the 500 KiB crawlers read" in done.stderr
    assert hashlib.sha256(robots.read_bytes()).hexdigest() == digest


def _built_for_check(tmp_path: Path) -> Path:
    from sitemap_plugins.cli import main  # noqa: PLC0415

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_bytes(PAGE)
    assert main(["-q", "build", str(site), "--base-url", BASE, "--no-fingerprint"]) == 0
    return site


def _check(site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sitemap_plugins", "check", str(site),
                           "--base-url", BASE], capture_output=True, text=True, timeout=60,
                          check=False)


@pytest.mark.integration
def test_check_never_waits_on_a_pipe(tmp_path: Path) -> None:
    """A named pipe at sitemap.xml.gz made check wait forever; now it is one line."""
    site = _built_for_check(tmp_path)
    (site / "sitemap.xml.gz").unlink()
    os.mkfifo(site / "sitemap.xml.gz")
    done = _check(site)
    assert done.returncode == 1
    assert "sitemap.xml.gz: is not a valid gzip file, or cannot be read: is not a regular file" \
        in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.integration
def test_check_inflates_a_gzip_bomb_in_bounded_memory(tmp_path: Path) -> None:
    """A .gz that inflates to 2 GB is compared a chunk at a time: the mismatch is found at
    once and memory stays low."""
    import zlib  # noqa: PLC0415

    site = _built_for_check(tmp_path)
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # gzip framing
    with (site / "sitemap.xml.gz").open("wb") as handle:
        zeros = bytes(1 << 20)
        for _ in range(2048):
            handle.write(compressor.compress(zeros))
        handle.write(compressor.flush())
    assert (site / "sitemap.xml.gz").stat().st_size < 5_000_000
    done = subprocess.run([sys.executable, "-c", (
        "import re, sys; from sitemap_plugins.cli import main; code = main(sys.argv[1:]); "
        "status = open('/proc/self/status').read(); "
        r"print(re.search(r'VmHWM:\s+(\d+)', status).group(1)); sys.exit(code)"),
        "check", str(site), "--base-url", BASE], capture_output=True, text=True, timeout=60,
        check=False)
    assert done.returncode == 1
    assert "sitemap.xml.gz: does not hold the same bytes as sitemap.xml" in done.stderr
    assert int(done.stdout.splitlines()[-1]) < 150 * 1024


@pytest.mark.integration
def test_check_never_looks_outside_the_site(tmp_path: Path) -> None:
    """URLs with .. segments (plain or %2e%2e) and parts that are links out name no file of
    the site: each is a problem, and nothing outside is read."""
    site = _built_for_check(tmp_path)
    secret = tmp_path / "secret.xml"
    secret.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.'
                      'sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.org/'
                      "</loc></url></urlset>", "utf-8")
    (site / "sitemap-2.xml").symlink_to(secret)
    index = ('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.'
             'sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.org/sitemap-2.xml'
             "</loc></sitemap></sitemapindex>")
    (site / "sitemap.xml").write_text(index, "utf-8")
    (site / "sitemap.xml.gz").unlink()
    text = (site / "sitemap.txt").read_text("utf-8")
    (site / "sitemap.txt").write_text(text + f"{BASE}%2e%2e/secret.xml\n{BASE}a/../../secret.xml\n",
                                      "utf-8")
    done = _check(site)
    assert done.returncode == 1
    assert ("sitemap.xml: <sitemap> #1: no file in the site serves "
            "'https://example.org/sitemap-2.xml'") in done.stderr  # the link out: not read
    assert "Checked 0 URLs" in done.stdout  # nothing of the secret file was counted
    assert f"no file in the site serves '{BASE}%2e%2e/secret.xml'" in done.stderr
    assert f"no file in the site serves '{BASE}a/../../secret.xml'" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.integration
@pytest.mark.parametrize("name", ["sitemap.txt", "robots.txt"])
def test_check_reports_a_special_file_in_one_line(tmp_path: Path, name: str) -> None:
    """sitemap.txt or robots.txt that is a pipe: one line, no wait, no traceback."""
    site = _built_for_check(tmp_path)
    (site / name).unlink(missing_ok=True)
    os.mkfifo(site / name)
    done = _check(site)
    assert "Traceback" not in done.stderr
    if name == "sitemap.txt":  # robots.txt: a pipe is no robots.txt, and is not read
        assert done.returncode == 1
        assert ("sitemap.txt: cannot be read: is not a regular file (a named pipe); not read"
                in done.stderr)
