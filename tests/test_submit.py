"""IndexNow: pending changes recorded by builds, the key file, and ``sitemap-plugins submit``.

No test leaves the machine: submissions go to a small HTTP server on 127.0.0.1 that records
each request and answers the status codes it is given, in turn. Retry delays are made zero.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from local_server import serving

from sitemap_plugins import cli
from sitemap_plugins.cli import main
from sitemap_plugins.products.submit import (
    MAX_BATCH,
    PENDING_NAME,
    PENDING_SCHEMA,
    read_pending,
)

ROOT = Path(__file__).resolve().parents[1]
TRAPS = ROOT / "sample_sites" / "traps" / "site"
BASE = "https://example.org/"
KEY = "0123abcd-KEY-4567"


@dataclass
class Recorder:
    """What the fake endpoint received, and the statuses it answers, in turn."""

    statuses: list[int] = field(default_factory=list)
    requests: list[dict[str, object]] = field(default_factory=list)
    url: str = ""


@pytest.fixture
def endpoint() -> Iterator[Recorder]:
    recorder = Recorder()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            recorder.requests.append({
                "path": self.path, "content_type": self.headers.get("Content-Type"),
                "body": json.loads(body)})
            status = recorder.statuses.pop(0) if recorder.statuses else 200
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            pass

    with serving(Handler) as url:
        recorder.url = url
        yield recorder


@pytest.fixture(autouse=True)
def no_delays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retries wait 0 seconds here (three of them, as in a real run)."""
    monkeypatch.setattr(cli, "SUBMIT_DELAYS", (0.0, 0.0, 0.0))
    monkeypatch.delenv("INDEXNOW_KEY", raising=False)


def page(text: str) -> str:
    return f"<!DOCTYPE html><html><head><title>{text}</title></head><body>{text}</body></html>"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    for name in ("index", "a", "b", "c"):
        (folder / f"{name}.html").write_text(page(name), "utf-8")
    return folder


def build(site: Path, *extra: str) -> int:
    return main(["-q", "build", str(site), "--base-url", BASE, "--indexnow-key", KEY, *extra])


def submit(site: Path, endpoint: str, *extra: str) -> int:
    return main(["submit", str(site), "--base-url", BASE, "--key", KEY, "--endpoint", endpoint,
                 *extra])


def cache(site: Path) -> Path:
    return site.parent / ".sitemap-cache"


def pending_of(site: Path) -> list[str]:
    return read_pending(cache(site))


def set_pending(site: Path, urls: list[str]) -> None:
    cache(site).mkdir(exist_ok=True)
    data = {"schema": PENDING_SCHEMA, "urls": urls}
    (cache(site) / PENDING_NAME).write_text(json.dumps(data), "utf-8")


@pytest.fixture
def changed(site: Path) -> Path:
    """A site built twice, a.html edited in between: a.html is pending."""
    assert build(site) == 0
    (site / "a.html").write_text(page("a, edited"), "utf-8")
    assert build(site) == 0
    assert pending_of(site) == [BASE + "a.html"]
    return site


# --- pending changes ---------------------------------------------------------------------------


def test_first_build_records_nothing(site: Path) -> None:
    """Without an earlier build nothing is known to have changed: nothing is pending."""
    assert build(site) == 0
    assert pending_of(site) == []


def test_added_changed_removed_accumulate_once(changed: Path) -> None:
    """Changes of several builds add up, each URL once, even one changed and changed back."""
    site = changed
    (site / "a.html").write_text(page("a"), "utf-8")  # changed back
    (site / "b.html").unlink()
    (site / "d.html").write_text(page("d"), "utf-8")
    assert build(site) == 0
    assert pending_of(site) == [BASE + "a.html", BASE + "b.html", BASE + "d.html"]
    raw = json.loads((cache(site) / PENDING_NAME).read_text("utf-8"))
    assert raw["urls"] == sorted(set(raw["urls"]))


def test_pending_survives_a_failed_submission_and_a_second_build(
    changed: Path, endpoint: Recorder, capsys: pytest.CaptureFixture[str],
) -> None:
    """A refused submission keeps the list; the next build adds to it; a success clears it."""
    site = changed
    endpoint.statuses = [503, 503, 503, 503]
    assert submit(site, endpoint.url) == 1
    assert pending_of(site) == [BASE + "a.html"]
    (site / "c.html").write_text(page("c, edited"), "utf-8")
    assert build(site) == 0
    assert pending_of(site) == [BASE + "a.html", BASE + "c.html"]
    capsys.readouterr()
    assert submit(site, endpoint.url) == 0
    assert endpoint.requests[-1]["body"]["urlList"] == [BASE + "a.html", BASE + "c.html"]  # type: ignore[index]
    assert pending_of(site) == []
    assert "Submitted 2 of 2 URLs in 1 batch" in capsys.readouterr().out


def test_damaged_pending_list_is_one_line(changed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A damaged list: submit says so in one line (exit 1); a build sets it aside and goes on."""
    site = changed
    damaged = b'{"schema": "sitemap-plugins/indexnow-pending/1", "urls": ["https://exa'
    (cache(site) / PENDING_NAME).write_bytes(damaged)
    capsys.readouterr()
    assert submit(site, "http://127.0.0.1:9/never") == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"error: {cache(site) / PENDING_NAME}: is damaged (")
    assert "Traceback" not in err
    (site / "b.html").write_text(page("b, edited"), "utf-8")
    assert main(["build", str(site), "--base-url", BASE]) == 0
    err = capsys.readouterr().err
    assert "warning: the IndexNow pending list" in err
    assert f"set aside as {PENDING_NAME}.damaged" in err
    assert (cache(site) / f"{PENDING_NAME}.damaged").read_bytes() == damaged
    assert pending_of(site) == [BASE + "b.html"]


# --- the key file ------------------------------------------------------------------------------


def test_key_file_is_written_and_never_listed(site: Path) -> None:
    """KEY.txt holds exactly the key, at the root, and is not listed even when .txt is."""
    assert build(site, "--extension", ".html", "--extension", ".txt") == 0
    assert build(site, "--extension", ".html", "--extension", ".txt") == 0
    assert (site / f"{KEY}.txt").read_bytes() == KEY.encode()
    listed = (site / "sitemap.txt").read_text("utf-8").split()
    assert BASE + f"{KEY}.txt" not in listed
    assert sorted(listed) == sorted(BASE + n for n in ("", "a.html", "b.html", "c.html"))
    assert not [p for p in site.iterdir() if p.name.startswith(".sitemap-plugins-tmp")]


def test_key_file_below_a_base_path(site: Path, endpoint: Recorder) -> None:
    """With a base URL path, keyLocation is the key file under that path."""
    base = "https://example.org/docs/"
    args = ["-q", "build", str(site), "--base-url", base, "--indexnow-key", KEY]
    assert main(args) == 0
    (site / "a.html").write_text(page("a2"), "utf-8")
    assert main(args) == 0
    assert main(["submit", str(site), "--base-url", base, "--key", KEY,
                 "--endpoint", endpoint.url]) == 0
    body = endpoint.requests[0]["body"]
    assert body == {"host": "example.org", "key": KEY,
                    "keyLocation": f"{base}{KEY}.txt", "urlList": [base + "a.html"]}


def test_own_file_with_the_key_name_is_kept(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file of the site at KEY.txt holding something else is never overwritten."""
    (site / f"{KEY}.txt").write_text("mine", "utf-8")
    assert main(["build", str(site), "--base-url", BASE, "--indexnow-key", KEY]) == 0
    assert (site / f"{KEY}.txt").read_text("utf-8") == "mine"
    assert (f"warning: '{KEY}.txt': is the site's own file and does not hold the indexnow_key"
            in capsys.readouterr().err)


@pytest.mark.integration
def test_key_missing_from_the_built_site(changed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A key the site does not publish: exit 1, one line saying what to add; nothing sent."""
    other = "another-key-42"
    capsys.readouterr()
    code = main(["submit", str(changed), "--base-url", BASE, "--key", other,
                 "--endpoint", "http://127.0.0.1:9/never"])
    err = capsys.readouterr().err
    assert code == 1
    assert err == (
        f"error: {changed}: the key file {other}.txt is not in the built site, but IndexNow "
        f"checks the key at {BASE}{other}.txt: set the option indexnow_key to this key "
        f"(mkdocs.yml, SITEMAP_PLUGINS or --indexnow-key) so the build writes it, or add a file "
        f"{other}.txt holding the key at the site root; then build, deploy and submit again\n")
    assert pending_of(changed) == [BASE + "a.html"]


def test_key_from_the_environment(changed: Path, endpoint: Recorder,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --key, INDEXNOW_KEY gives the key."""
    monkeypatch.setenv("INDEXNOW_KEY", KEY)
    assert main(["submit", str(changed), "--base-url", BASE, "--endpoint", endpoint.url]) == 0
    assert endpoint.requests[0]["body"]["key"] == KEY  # type: ignore[index]


@pytest.mark.parametrize(("args", "env", "line"), [
    (["--key", "short"], None, ("error: --key: Expected a key of 8 to 128 characters of a-z, "
     "A-Z, 0-9 and '-' but received: 'short' (str)")),
    ([], "has space", ("error: INDEXNOW_KEY: Expected a key of 8 to 128 characters of a-z, "
     "A-Z, 0-9 and '-' but received: 'has space' (str)")),
    ([], None, ("error: --key: Required: the IndexNow key the build published as KEY.txt (give "
     "--key or set INDEXNOW_KEY)")),
    (["--key", KEY, "--endpoint", "api.indexnow.org"], None, ("error: --endpoint: Expected an "
     "http(s) URL such as 'https://api.indexnow.org/indexnow' but received: 'api.indexnow.org'")),
], ids=["bad-flag", "bad-env", "missing", "bad-endpoint"])
def test_submit_usage_errors(site: Path, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch, args: list[str], env: str | None,
                             line: str) -> None:
    """A bad or missing key or endpoint: exit 2 and one line naming where it came from."""
    if env is not None:
        monkeypatch.setenv("INDEXNOW_KEY", env)
    assert main(["submit", str(site), "--base-url", BASE, *args]) == 2
    assert capsys.readouterr().err == line + "\n"


# --- responses ---------------------------------------------------------------------------------


@pytest.mark.integration
@pytest.mark.parametrize(("statuses", "code", "requests", "cause"), [
    ([200], 0, 1, ""),
    ([202], 0, 1, ""),
    ([400], 1, 1, "400 Bad Request: the endpoint found the request malformed (bad format)"),
    ([403], 1, 1, (f"403 Forbidden: the key was not found at {BASE}{KEY}.txt or does not match "
                  "it: deploy the site with the key file first, then submit")),
    ([422], 1, 1, ("422 Unprocessable Entity: some URLs are not on host example.org (or not "
                  "under the key file's folder), or the key does not match the protocol's "
                  "pattern")),
    ([429] * 4, 1, 4, ("429 Too Many Requests: the endpoint takes this many requests for "
                      "spam; submit less often (tried 4 times)")),
    ([500] * 4, 1, 4, ("500 Internal Server Error: the endpoint failed on its side (tried 4 "
                      "times)")),
    ([503, 429, 502, 202], 0, 4, ""),
    ([404], 1, 1, "404 Not Found: an answer the IndexNow protocol does not define"),
], ids=["200", "202", "400", "403", "422", "429", "500", "retried-then-202", "404"])
def test_each_response(changed: Path, endpoint: Recorder, capsys: pytest.CaptureFixture[str],
                       statuses: list[int], code: int, requests: int, cause: str) -> None:
    """200/202 clear the list; 400/403/422 stop at once; 429/5xx are retried, then stop."""
    endpoint.statuses = list(statuses)
    capsys.readouterr()
    assert submit(changed, endpoint.url) == code
    out, err = capsys.readouterr()
    assert len(endpoint.requests) == requests
    request = endpoint.requests[0]
    assert request["path"] == "/indexnow"
    assert request["content_type"] == "application/json; charset=utf-8"
    assert request["body"] == {"host": "example.org", "key": KEY,
                               "keyLocation": f"{BASE}{KEY}.txt", "urlList": [BASE + "a.html"]}
    if code == 0:
        assert err == ""
        assert pending_of(changed) == []
        assert "Submitted 1 of 1 URL in 1 batch" in out
    else:
        assert err == (f"error: {cause}; nothing of this batch was taken, and 1 URL stays "
                       "pending for the next submit\n")
        assert pending_of(changed) == [BASE + "a.html"]


@pytest.mark.integration
def test_network_error_is_retried_and_kept(changed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An endpoint that cannot be reached: retried, exit 1, the list kept."""
    with ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler) as closed:
        port = closed.server_address[1]
    capsys.readouterr()
    assert submit(changed, f"http://127.0.0.1:{port}/indexnow") == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: cannot reach http://127.0.0.1:{port}/indexnow (")
    assert "(tried 4 times); nothing of this batch was taken" in err
    assert pending_of(changed) == [BASE + "a.html"]


class _Stalling(BaseHTTPRequestHandler):
    """An endpoint that answers 200 and then never finishes: its body (``body``) or its
    headers (``headers``) come a few bytes at a time, ten times a second, for 60 seconds."""

    protocol_version = "HTTP/1.1"
    slow = "body"

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response_only(200)
        if self.slow == "body":
            self.send_header("Content-Length", "1000000")
            self.end_headers()
        else:
            self.flush_headers()  # the status line goes out; the headers never end
        for number in range(600):
            try:
                self.wfile.write(f"X-Slow-{number}: 1\r\n".encode() if self.slow == "headers"
                                 else b"x" * 64)
                self.wfile.flush()
            except OSError:
                return
            time.sleep(0.1)

    def log_message(self, *_args: object) -> None:
        pass


@pytest.mark.integration
@pytest.mark.parametrize("slow", ["body", "headers"])
def test_an_endpoint_that_never_finishes_its_answer_does_not_hold_submit(
    changed: Path, tmp_path: Path, slow: str,
) -> None:
    """An answer that trickles for ever (a stalled proxy, a broken endpoint) gets one line
    within the timeout per try, not a wait for ever: a 200 whose body never ends is
    accepted at its status; headers that never end are no answer, and the URL stays."""
    handler = type("Handler", (_Stalling,), {"slow": slow})
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/indexnow"
        script = (f"from sitemap_plugins import cli; cli.SUBMIT_DELAYS = (0.0,); "
                  f"cli.SUBMIT_TIMEOUT = 1.0; raise SystemExit(cli.main(['submit', "
                  f"{str(changed)!r}, '--base-url', {BASE!r}, '--key', {KEY!r}, "
                  f"'--endpoint', {url!r}]))")
        try:  # a guard: each try ends at its timeout, never waits for ever
            ran = subprocess.run([sys.executable, "-c", script], capture_output=True,
                                 text=True, timeout=120, check=False)
        finally:
            server.shutdown()
    if slow == "body":
        assert (ran.returncode, ran.stderr) == (0, "")
        assert pending_of(changed) == []
    else:
        assert ran.returncode == 1
        assert ran.stderr == (f"error: cannot reach {url} (no whole answer within 1 seconds) "
                              "(tried 2 times); nothing of this batch was taken, and 1 URL "
                              "stays pending for the next submit\n")
        assert pending_of(changed) == [BASE + "a.html"]


# --- batches -----------------------------------------------------------------------------------


def test_25000_urls_go_in_three_batches(site: Path, endpoint: Recorder) -> None:
    """25,000 pending URLs: POSTs of 10,000, 10,000 and 5,000, in order; the list is cleared."""
    assert build(site) == 0
    urls = sorted(f"{BASE}p/{n:05}.html" for n in range(25_000))
    set_pending(site, urls)
    assert submit(site, endpoint.url, "-q") == 0
    sent = [request["body"]["urlList"] for request in endpoint.requests]  # type: ignore[index]
    assert [len(batch) for batch in sent] == [MAX_BATCH, MAX_BATCH, 5_000]
    assert [url for batch in sent for url in batch] == urls
    assert pending_of(site) == []


def test_a_failed_batch_keeps_itself_and_the_rest(site: Path, endpoint: Recorder) -> None:
    """The first batch accepted, the second refused: only the first leaves the list."""
    assert build(site) == 0
    urls = sorted(f"{BASE}p/{n:05}.html" for n in range(25_000))
    set_pending(site, urls)
    endpoint.statuses = [202, 403]
    assert submit(site, endpoint.url, "-q") == 1
    assert len(endpoint.requests) == 2
    assert pending_of(site) == urls[MAX_BATCH:]


def test_dry_run_sends_and_changes_nothing(site: Path, endpoint: Recorder,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """--dry-run prints the batches; no request is made and the list stays as it was."""
    assert build(site) == 0
    urls = sorted(f"{BASE}p/{n:05}.html" for n in range(10_001))
    set_pending(site, urls)
    before = (cache(site) / PENDING_NAME).read_bytes()
    capsys.readouterr()
    assert submit(site, endpoint.url, "--dry-run") == 0
    out = capsys.readouterr().out
    assert endpoint.requests == []
    assert (cache(site) / PENDING_NAME).read_bytes() == before
    lines = out.splitlines()
    assert lines[0] == (f"Batch 1 of 2: 10,000 URLs (host example.org, keyLocation "
                        f"{BASE}{KEY}.txt)")
    assert lines[10_001] == f"Batch 2 of 2: 1 URL (host example.org, keyLocation {BASE}{KEY}.txt)"
    assert lines[-1] == (f"Dry run: 10,001 URLs in 2 batches would go to {endpoint.url}; "
                         "nothing was sent or changed")


def test_out_of_scope_urls_are_kept_not_sent(changed: Path, endpoint: Recorder,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Pending URLs of another base URL are not sent (422 otherwise), and stay listed."""
    set_pending(changed, [BASE + "a.html", "https://old.example.org/x.html"])
    capsys.readouterr()
    assert submit(changed, endpoint.url) == 0
    assert endpoint.requests[0]["body"]["urlList"] == [BASE + "a.html"]  # type: ignore[index]
    assert "warning: 1 pending URLs are not under" in capsys.readouterr().err
    assert pending_of(changed) == ["https://old.example.org/x.html"]


def test_json_report(changed: Path, endpoint: Recorder, capsys: pytest.CaptureFixture[str]) -> None:
    """--json: one object with the batches and what each got."""
    endpoint.statuses = [202]
    capsys.readouterr()
    assert submit(changed, endpoint.url, "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["command"] == "submit"
    assert report["ok"] is True
    assert (report["pending"], report["sent"], report["kept"]) == (1, 1, 0)
    assert report["batches"] == [{"urls": 1, "status": 202, "attempts": 1}]


def test_nothing_pending(site: Path, endpoint: Recorder, capsys: pytest.CaptureFixture[str]) -> None:
    """No pending URL: nothing is sent, exit 0, one line says so."""
    assert build(site) == 0
    capsys.readouterr()
    assert submit(site, endpoint.url) == 0
    assert endpoint.requests == []
    assert capsys.readouterr().out == ("Nothing to submit: no URL was added, changed or removed "
                                       "since the last submission\n")


# --- the sample site ---------------------------------------------------------------------------


def test_dry_run_on_the_trap_site_after_one_edit(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The sample trap site built, about.html edited, built again: that one URL only."""
    site = tmp_path / "site"
    shutil.copytree(TRAPS, site, symlinks=True)
    assert build(site) == 0
    about = site / "about.html"
    about.write_bytes(about.read_bytes().replace(b"</main>", b"<p>One more line.</p></main>"))
    assert build(site) == 0
    capsys.readouterr()
    assert main(["submit", str(site), "--base-url", BASE, "--key", KEY, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out == (
        f"Batch 1 of 1: 1 URL (host example.org, keyLocation {BASE}{KEY}.txt)\n"
        f"  {BASE}about.html\n"
        "Dry run: 1 URL in 1 batch would go to https://api.indexnow.org/indexnow; nothing was "
        "sent or changed\n")


def test_a_crash_while_recording_loses_nothing(changed: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The pending list cannot be replaced (disk full): the build fails, the old list is
    whole, no temporary file stays, and the next build records the same change again."""
    import errno  # noqa: PLC0415
    import os  # noqa: PLC0415

    site = changed
    before = (cache(site) / PENDING_NAME).read_bytes()
    real_replace = os.replace

    def full_disk(source: object, target: object) -> None:
        if str(target).endswith(PENDING_NAME):
            raise OSError(errno.ENOSPC, "No space left on device")
        real_replace(source, target)  # type: ignore[arg-type]

    (site / "b.html").write_text(page("b, edited"), "utf-8")
    monkeypatch.setattr(os, "replace", full_disk)
    capsys.readouterr()
    assert build(site) == 1
    assert capsys.readouterr().err == (f"error: {cache(site) / PENDING_NAME}: the disk is full; "
                                       "the previous file was kept\n")
    assert (cache(site) / PENDING_NAME).read_bytes() == before
    assert [p.name for p in cache(site).iterdir() if p.name.startswith(".sitemap-plugins-tmp")] == []
    monkeypatch.setattr(os, "replace", real_replace)
    assert build(site) == 0
    assert pending_of(site) == [BASE + "a.html", BASE + "b.html"]


def test_damaged_list_that_cannot_be_set_aside_is_left_alone(
    changed: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """A damaged list that cannot be renamed is never written over; a warning says so."""
    import os  # noqa: PLC0415

    site = changed
    (cache(site) / PENDING_NAME).write_bytes(b"[not json")

    real_replace = os.replace

    def refuse(source: object, target: object) -> None:
        if str(source).endswith(PENDING_NAME):
            raise PermissionError(13, "Permission denied")
        real_replace(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", refuse)
    (site / "b.html").write_text(page("b, edited"), "utf-8")
    capsys.readouterr()
    assert main(["build", str(site), "--base-url", BASE]) == 0
    err = capsys.readouterr().err
    assert (f"warning: the IndexNow pending list {cache(site) / PENDING_NAME} is damaged ("
            in err)
    assert ("and cannot be set aside (Permission denied): this build's 1 changed URLs were not "
            "recorded for IndexNow") in err
    assert (cache(site) / PENDING_NAME).read_bytes() == b"[not json"
