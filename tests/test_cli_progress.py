"""The progress display: on a terminal only, never under -q, never when piped."""

from __future__ import annotations

import json
import os
import pty
import re
import shutil
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from sitemap_plugins.products.build.progress import Progress, Snapshot
from sitemap_plugins.products.submit import PENDING_NAME, PENDING_SCHEMA

ROOT = Path(__file__).resolve().parents[1]
BASE = "https://example.org/"
# The display waits a second before it appears; these runs take less, so it waits 0 here.
RUN = ("import sys; import sitemap_plugins.cli as cli; cli.SHOW_AFTER = cli.REFRESH = 0.0; "
       "sys.exit(cli.main(sys.argv[1:]))")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("progress") / "site"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "make_site.py"), "--pages", "400",
                    "--out", str(folder), "--jobs", "1", "--body-kb", "1"],
                   check=True, capture_output=True)
    return folder


def _on_a_terminal(args: list[str]) -> str:
    """Run the CLI with stdout and stderr on a pseudo-terminal; returns what it showed."""
    primary, secondary = pty.openpty()
    env = {**os.environ, "COLUMNS": "100", "TERM": "xterm"}
    process = subprocess.Popen([sys.executable, "-c", RUN, *args], stdin=subprocess.DEVNULL,
                               stdout=secondary, stderr=secondary, env=env)
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(primary)
    assert process.wait(timeout=60) == 0
    return b"".join(chunks).decode("utf-8", "replace")


def _build(site: Path) -> list[str]:
    return ["build", str(site), "--base-url", BASE, "--no-fingerprint"]


def test_progress_shows_pages_read_of_found_and_rate_on_a_terminal(site: Path) -> None:
    """On a terminal, build shows pages read out of pages found and the rate per second."""
    shown = _on_a_terminal(_build(site))
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown)
    found = sum(1 for p in site.rglob("*") if p.is_file() and p.suffix == ".html")
    assert "Reading pages" in plain
    assert re.search(rf"\b{found}/{found}\b", plain), plain  # the last count: all read
    assert re.search(r"[\d,]+/s", plain), plain
    assert "Listed " in plain  # the summary still follows


def test_progress_absent_under_quiet(site: Path) -> None:
    """Under -q nothing but problems is printed, even on a terminal: no progress."""
    shown = _on_a_terminal(["-q", *_build(site)])
    assert "Reading pages" not in shown
    assert "/s" not in shown


def test_progress_absent_when_not_a_terminal(site: Path) -> None:
    """Piped (as in CI or a script), the output holds the summary and no progress."""
    run = subprocess.run([sys.executable, "-c", RUN, *_build(site)],
                         capture_output=True, text=True, check=True)
    assert "Listed " in run.stdout
    assert "Reading pages" not in run.stdout + run.stderr
    assert "\x1b[" not in run.stdout + run.stderr


def test_progress_counts_and_throttles() -> None:
    """Progress counts what passes, shows at most once per interval, and ends with the totals."""
    shown: list[Snapshot] = []
    # Started two hours ago, so the first look at the clock is far past the interval (the
    # clock's zero is unspecified: on a machine up for less than an hour 0.0 was not).
    progress = Progress(shown.append, interval=3600.0, started=time.perf_counter() - 7200.0)
    for _ in progress.counted(range(1000)):
        progress.done()
    assert len(shown) == 1  # the first look at the clock, then not again within the hour
    progress.finish()
    last = shown[-1]
    assert (last.found, last.done, last.finished) == (1000, 1000, True)
    assert last.rate > 0


def test_merge_shows_the_urls_it_reads(site: Path, tmp_path: Path) -> None:
    """merge counts the builds' URLs as it reads them, on a terminal only."""
    root = tmp_path / "root"
    listed = 0
    for section in ("a", "b"):
        shutil.copytree(site, root / section)
        run = subprocess.run([sys.executable, "-m", "sitemap_plugins", "build", str(root / section),
                              "--base-url", f"{BASE}{section}/", "--no-fingerprint", "--json"],
                             capture_output=True, text=True, check=True, cwd=ROOT)
        listed += json.loads(run.stdout)["listed"]
    merge = ["merge", str(root), "--base-url", BASE]
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", _on_a_terminal(merge))
    assert "Reading sitemaps" in plain
    assert f"{listed:,}/{listed:,}" in plain or f"{listed}/{listed}" in plain, plain
    assert "Reading sitemaps" not in _on_a_terminal(["-q", *merge])


def test_check_shows_the_urls_it_checks(site: Path, tmp_path: Path) -> None:
    """check counts the URLs as it checks them, on a terminal only, and still finds none bad."""
    checked = tmp_path / "checked"
    shutil.copytree(site, checked)
    subprocess.run([sys.executable, "-m", "sitemap_plugins", "-q", *_build(checked)],
                   check=True, cwd=ROOT)
    listed = len((checked / "sitemap.txt").read_text("utf-8").split())
    check = ["check", str(checked), "--base-url", BASE]
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", _on_a_terminal(check))
    assert "Checking URLs" in plain
    assert f"{listed}/{listed}" in plain, plain
    assert f"Checked {listed} URLs: no problems" in plain
    assert "Checking URLs" not in _on_a_terminal(["-q", *check])


def test_submit_shows_the_urls_it_sends(tmp_path: Path) -> None:
    """submit counts the pending URLs as their batches are accepted, on a terminal only."""
    received: list[int] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            received.append(len(json.loads(body)["urlList"]))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    key = "0123abcd-KEY-4567"
    site = tmp_path / "site"
    site.mkdir()
    (site / f"{key}.txt").write_text(key)
    urls = [f"{BASE}page-{number}.html" for number in range(25_000)]
    pending = tmp_path / ".sitemap-cache" / PENDING_NAME
    pending.parent.mkdir()
    submit = ["submit", str(site), "--base-url", BASE, "--key", key, "--endpoint",
              f"http://127.0.0.1:{server.server_address[1]}/indexnow"]
    try:
        pending.write_text(json.dumps({"schema": PENDING_SCHEMA, "urls": urls}))
        plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", _on_a_terminal(submit))
        assert "Submitting URLs" in plain
        assert "25,000/25,000" in plain or "25000/25000" in plain, plain
        assert received == [10_000, 10_000, 5_000]
        pending.write_text(json.dumps({"schema": PENDING_SCHEMA, "urls": urls[:10]}))
        assert "Submitting URLs" not in _on_a_terminal(["-q", *submit])
        assert received[-1] == 10
    finally:
        server.shutdown()
        server.server_close()
