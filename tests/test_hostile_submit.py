"""``submit`` under hostile input: bad endpoints, hostile answers, Retry-After, races."""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from local_server import serving

from sitemap_plugins import cli
from sitemap_plugins.cli import main
from sitemap_plugins.products.submit import (
    MAX_RETRY_AFTER,
    PENDING_NAME,
    PENDING_SCHEMA,
    read_pending,
)

BASE = "https://example.org/"
KEY = "0123abcd-KEY-4567"


@dataclass
class Endpoint:
    """A real local HTTP endpoint: answers from a list, records when each POST came."""

    answers: list[tuple[int, dict[str, str] | list[tuple[str, str]]]] = field(
        default_factory=list)
    """Status and header fields (a list of pairs to send a field twice)."""
    times: list[float] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    """The request target of each POST, as it came."""
    bodies: list[dict[str, object]] = field(default_factory=list)
    during: Callable[[], None] | None = None
    """Run while the first POST is being answered (a build meanwhile)."""
    url: str = ""


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    state = Endpoint()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            state.times.append(time.monotonic())
            state.paths.append(self.path)
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            state.bodies.append(json.loads(body))
            if state.during is not None:
                during, state.during = state.during, None
                during()
            status, headers = state.answers.pop(0) if state.answers else (200, {})
            self.send_response(status)
            for name, value in headers.items() if isinstance(headers, dict) else headers:
                self.send_header(name, value)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            pass

    with serving(Handler) as url:
        state.url = url
        yield state


@pytest.fixture(autouse=True)
def no_delays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retries wait 0 seconds of their own here: any wait measured is the endpoint's."""
    monkeypatch.setattr(cli, "SUBMIT_DELAYS", (0.0, 0.0, 0.0))
    monkeypatch.delenv("INDEXNOW_KEY", raising=False)


def page(text: str) -> str:
    return f"<!DOCTYPE html><html><head><title>{text}</title></head><body>{text}</body></html>"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    for name in ("index", "a", "b"):
        (folder / f"{name}.html").write_text(page(name), "utf-8")
    return folder


def build(site: Path) -> int:
    return main(["-q", "build", str(site), "--base-url", BASE, "--indexnow-key", KEY])


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The pauses submit asks for, in seconds, recorded instead of slept: what it waits is
    counted, not timed (a busy machine must not fail a test)."""
    asked: list[float] = []
    monkeypatch.setattr(cli, "submit", functools.partial(cli.submit, sleep=asked.append))
    return asked


def submit(site: Path, endpoint: str, *extra: str) -> int:
    return main(["submit", str(site), "--base-url", BASE, "--key", KEY, "--endpoint", endpoint,
                 *extra])


def pending_of(site: Path) -> list[str]:
    return read_pending(site.parent / ".sitemap-cache")


@pytest.fixture
def changed(site: Path) -> Path:
    """A site built twice, a.html edited in between: a.html is pending."""
    assert build(site) == 0
    (site / "a.html").write_text(page("a, edited"), "utf-8")
    assert build(site) == 0
    assert pending_of(site) == [BASE + "a.html"]
    return site


# --- bad endpoints ---------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [
    "https://[::1",
    "https://[::1/indexnow",
    "https://api indexnow.org/indexnow",
    "https://api.indexnow.org:99999/indexnow",
    "https://api.indexnow.org:0/indexnow",
    "https://api.indexnow.org:port/indexnow",
    "ftp://api.indexnow.org/indexnow",
    "file:///etc/passwd",
    "https:///indexnow",
    "https://:443/indexnow",
    "https://user:secret@api.indexnow.org/indexnow",
    "https://api.indexnow.org/index now",
    "https://api.indexnow.org/\x1b[31m",
    "https://exa<mple.org/",
    "https://[fe80::1%25eth0]/indexnow",
], ids=["open-bracket", "open-bracket-path", "space-in-host", "port-99999", "port-0",
        "port-text", "ftp", "file", "empty-host", "only-port", "userinfo", "space-in-path",
        "control", "angle-in-host", "zone-id"])
def test_a_malformed_endpoint_is_a_usage_error_at_once(
        changed: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        waits: list[float], bad: str) -> None:
    """Any endpoint that is no valid http(s) URL: exit 2, one line, nothing sent or waited."""
    monkeypatch.setattr(cli, "SUBMIT_DELAYS", (2.0, 2.0, 2.0))  # a retry would show
    capsys.readouterr()
    assert submit(changed, bad) == 2
    assert waits == []
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("error: --endpoint: Expected an http(s) URL such as ")
    assert "Traceback" not in err
    assert pending_of(changed) == [BASE + "a.html"]


@pytest.mark.parametrize("good", [
    "http://127.0.0.1:8080/indexnow", "https://[::1]:8443/indexnow", "HTTPS://API.Example.org/x",
    "https://www.bing.com/indexnow?source=ci",
])
def test_valid_endpoints_pass_the_check(good: str) -> None:
    """The check refuses only what cannot be sent: IP literals, ports, queries pass."""
    from sitemap_plugins.products.submit import check_endpoint  # noqa: PLC0415

    assert check_endpoint("endpoint", good) == good


# --- text from the network -------------------------------------------------------------------


@pytest.mark.parametrize("location", [
    "https://evil.example/{key_location}{0}{host!r:>99999999}",
    "https://evil.example/%s%(x)s%n",
    "https://evil.example/\x1b]0;pwned\x07\r\nX: y",
], ids=["format-braces", "percent", "control-characters"])
def test_a_redirect_location_is_text_never_a_format(
        changed: Path, endpoint: Endpoint, capsys: pytest.CaptureFixture[str],
        location: str) -> None:
    """A Location holding format fields or controls is reported as text, in one line."""
    endpoint.answers = [(307, {"Location": location.replace("\r\n", "")})]
    capsys.readouterr()
    assert submit(changed, endpoint.url) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("error: 307 Temporary Redirect: the endpoint redirects to https://"
                          "evil.example/")
    assert "\x1b" not in err
    assert "\x07" not in err
    if "{" in location:
        assert "{key_location}{0}" in err
    assert pending_of(changed) == [BASE + "a.html"]


# --- Retry-After -----------------------------------------------------------------------------


@pytest.mark.parametrize("header", [
    str(int(MAX_RETRY_AFTER) + 60), "120", "86400",
    "DATE+3600",
], ids=["just-over", "120", "a-day", "http-date"])
def test_a_long_retry_after_stops_and_says_when(
        changed: Path, endpoint: Endpoint, capsys: pytest.CaptureFixture[str],
        waits: list[float], header: str) -> None:
    """A Retry-After longer than the pause submit takes: one try, kept, and when to retry."""
    value = formatdate(time.time() + 3600, usegmt=True) if header == "DATE+3600" else header
    endpoint.answers = [(429, {"Retry-After": value})] * 4
    capsys.readouterr()
    assert submit(changed, endpoint.url) == 1
    assert waits == []
    assert len(endpoint.times) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "the endpoint asks for a pause of " in err
    assert "run submit again after 20" in err
    assert " UTC" in err
    assert pending_of(changed) == [BASE + "a.html"]


@pytest.mark.parametrize("form", ["seconds", "http-date"])
@pytest.mark.integration  # waits for the endpoint's Retry-After
def test_a_short_retry_after_is_waited_for(changed: Path, endpoint: Endpoint, form: str) -> None:
    """A short Retry-After (either form) is honoured: the retry comes no sooner than asked."""
    value = "2" if form == "seconds" else formatdate(time.time() + 3, usegmt=True)
    endpoint.answers = [(503, {"Retry-After": value}), (200, {})]
    assert submit(changed, endpoint.url, "-q") == 0
    assert len(endpoint.times) == 2
    # An HTTP-date has whole seconds: +3 s is at least 2 s away when it is read.
    assert endpoint.times[1] - endpoint.times[0] >= 1.9
    assert pending_of(changed) == []


@pytest.mark.parametrize("value", ["soon", "-5", "1e9", "Fri, 99 Nov 2026 25:61:00 GMT", ""])
def test_an_unreadable_retry_after_falls_back_to_the_own_delays(
        changed: Path, endpoint: Endpoint, waits: list[float], value: str) -> None:
    """Retry-After that is no number or date is ignored, never a traceback or a long wait."""
    endpoint.answers = [(429, {"Retry-After": value}), (202, {})]
    assert submit(changed, endpoint.url, "-q") == 0
    assert waits == [cli.SUBMIT_DELAYS[0]]  # the own delay, not the header's
    assert len(endpoint.times) == 2


# --- a change while the POST is under way ----------------------------------------------------


def test_a_change_built_during_the_post_stays_pending(changed: Path, endpoint: Endpoint) -> None:
    """a.html changed and built again while submit waits: the accepted POST keeps it listed."""
    def edit_and_build() -> None:
        (changed / "a.html").write_text(page("a, edited twice"), "utf-8")
        (changed / "b.html").write_text(page("b, edited"), "utf-8")
        assert build(changed) == 0

    endpoint.during = edit_and_build
    assert submit(changed, endpoint.url, "-q") == 0
    assert endpoint.bodies[0]["urlList"] == [BASE + "a.html"]
    # The second change of a.html was never sent; b.html's change came meanwhile.
    assert pending_of(changed) == [BASE + "a.html", BASE + "b.html"]
    assert submit(changed, endpoint.url, "-q") == 0
    assert endpoint.bodies[1]["urlList"] == [BASE + "a.html", BASE + "b.html"]
    assert pending_of(changed) == []


def test_a_list_written_before_versions_is_still_sent_and_cleared(
        site: Path, endpoint: Endpoint) -> None:
    """A pending list of the same schema without versions: sent once, then emptied."""
    assert build(site) == 0
    cache = site.parent / ".sitemap-cache"
    (cache / PENDING_NAME).write_text(
        json.dumps({"schema": PENDING_SCHEMA, "urls": [BASE + "b.html"]}), "utf-8")
    assert submit(site, endpoint.url, "-q") == 0
    assert endpoint.bodies[0]["urlList"] == [BASE + "b.html"]
    assert pending_of(site) == []


# --- the summary of a stopped run ------------------------------------------------------------


def test_a_stopped_run_counts_the_batches_it_sent(site: Path, endpoint: Endpoint,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Stopped at batch 2 of 3: the summary says 1 of 3 accepted, not 'in 3 batches'."""
    assert build(site) == 0
    urls = sorted(f"{BASE}p/{n:05}.html" for n in range(25_000))
    cache = site.parent / ".sitemap-cache"
    (cache / PENDING_NAME).write_text(
        json.dumps({"schema": PENDING_SCHEMA, "urls": urls}), "utf-8")
    endpoint.answers = [(202, {}), (403, {})]
    capsys.readouterr()
    assert submit(site, endpoint.url) == 1
    out = capsys.readouterr().out
    summary = out.splitlines()[-1]
    assert summary == (f"Submitted 10,000 of 25,000 URLs to {endpoint.url}: 1 of 3 batches "
                       "accepted; 1 not sent")
    assert "in 3 batches" not in out


def test_a_single_refused_batch_is_counted_as_such(changed: Path, endpoint: Endpoint,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """One batch, refused: '0 of 1 batch accepted', nothing claimed as sent."""
    endpoint.answers = [(403, {})]
    capsys.readouterr()
    assert submit(changed, endpoint.url) == 1
    summary = capsys.readouterr().out.splitlines()[-1]
    assert summary == f"Submitted 0 of 1 URL to {endpoint.url}: 0 of 1 batch accepted"


# --- endpoints beyond ASCII, secrets in URLs -------------------------------------------------


@pytest.mark.parametrize(("tail", "sent"), [
    ("/indexnow/é", "/indexnow/%C3%A9"),
    ("/indexnow?source={ci}", "/indexnow?source=%7Bci%7D"),
    ("/in dex", None),
    ("/ünï?q=ü", "/%C3%BCn%C3%AF?q=%C3%BC"),
], ids=["letter-in-path", "braces-in-query", "space-refused", "letters-everywhere"])
def test_an_endpoint_beyond_ascii_is_sent_encoded(
        changed: Path, endpoint: Endpoint, capsys: pytest.CaptureFixture[str], tail: str,
        sent: str | None) -> None:
    """An endpoint holding characters no URI holds is POSTed percent-encoded (it was a
    UnicodeEncodeError traceback); white space stays a usage error."""
    capsys.readouterr()
    parts = urlsplit(endpoint.url)
    code = submit(changed, f"{parts.scheme}://{parts.netloc}{tail}", "-q")
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if sent is None:
        assert code == 2
        assert err.startswith("error: --endpoint: Expected an http(s) URL")
        return
    assert code == 0, err
    assert endpoint.paths == [sent]
    assert pending_of(changed) == []


def test_an_idn_endpoint_is_checked_and_encoded() -> None:
    """A host name beyond ASCII passes the check and is sent in its IDNA form."""
    from sitemap_plugins.products.submit import check_endpoint  # noqa: PLC0415

    assert check_endpoint("endpoint", "https://bücher.example/indexnow") == (
        "https://xn--bcher-kva.example/indexnow")


@pytest.mark.parametrize("url", [
    "https://user:s3cr3t-pass@api.indexnow.org/indexnow",
    "https://s3cr3t-pass@api.indexnow.org/indexnow",
    "https://user:s3cr3t-pass@[::1/indexnow",
    "https://user:s3cr3t-pass@api.indexnow.org:99999/indexnow",
], ids=["user-and-password", "token-as-user", "broken-host", "bad-port"])
@pytest.mark.parametrize("flag", ["--endpoint", "--base-url"])
def test_a_password_in_a_url_is_never_printed(
        changed: Path, capsys: pytest.CaptureFixture[str], url: str, flag: str) -> None:
    """A URL refused for its user information (or anything else) is echoed without it."""
    capsys.readouterr()
    args = ["submit", str(changed), "--base-url", BASE, "--key", KEY, "--endpoint",
            "http://127.0.0.1:9/"]
    args[args.index(flag) + 1] = url if flag == "--endpoint" else url.replace("/indexnow", "/")
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1
    assert "s3cr3t" not in out + err
    assert "***@" in err


# --- Retry-After beyond the ordinary ---------------------------------------------------------


@pytest.mark.parametrize("value", [
    "Fri, 31 Dec 9999 23:59:59 -2359", "9" * 40, "00000000000000003600",
], ids=["date-past-year-9999", "forty-digits", "leading-zeros"])
def test_an_extreme_retry_after_stops_with_a_date_never_a_traceback(
        changed: Path, endpoint: Endpoint, capsys: pytest.CaptureFixture[str],
        value: str) -> None:
    """A pause past datetime's range, or digits RFC 9110 allows with leading zeros: one try,
    kept, and a date to run again (the year-9999 date was an OverflowError traceback)."""
    endpoint.answers = [(429, {"Retry-After": value})] * 4
    capsys.readouterr()
    assert submit(changed, endpoint.url) == 1
    assert len(endpoint.times) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "Traceback" not in err
    assert "run submit again after " in err
    assert pending_of(changed) == [BASE + "a.html"]


@pytest.mark.parametrize("order", [("3600", "0"), ("0", "3600")], ids=["long-first",
                                                                       "long-last"])
def test_retry_after_sent_twice_counts_the_longest(
        changed: Path, endpoint: Endpoint, capsys: pytest.CaptureFixture[str],
        order: tuple[str, str]) -> None:
    """Two Retry-After fields: the longer pause counts, whichever came last (only the last
    was read, so a trailing '0' made submit retry at once)."""
    endpoint.answers = [(429, [("Retry-After", order[0]), ("Retry-After", order[1])])] * 4
    capsys.readouterr()
    assert submit(changed, endpoint.url) == 1
    assert len(endpoint.times) == 1
    assert "asks for a pause of 3,600 seconds" in capsys.readouterr().err


# --- the key file, as it stands in the site --------------------------------------------------


@pytest.mark.parametrize(("kind", "said"), [
    ("folder", "is a folder in the built site, not a file"),
    ("link", "is a symbolic link in the built site, not a file"),
    ("pipe", "is a named pipe in the built site, not a file"),
], ids=["folder", "link", "pipe"])
def test_a_key_file_that_is_no_file_is_named_as_such(
        changed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str,
        said: str) -> None:
    """KEY.txt replaced by a folder, a link or a pipe: one line saying what stands there (it
    said the file 'is not in the built site'), exit 1, nothing sent, the list kept."""
    import os  # noqa: PLC0415

    key_file = changed / f"{KEY}.txt"
    key_file.unlink()
    if kind == "folder":
        key_file.mkdir()
    elif kind == "link":
        (tmp_path / "key.txt").write_text(KEY, "utf-8")
        key_file.symlink_to(tmp_path / "key.txt")
    else:
        os.mkfifo(key_file)
    capsys.readouterr()
    assert submit(changed, "http://127.0.0.1:9/", "--dry-run") == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"the key file {KEY}.txt {said}" in err
    assert "is not in the built site" not in err
    assert pending_of(changed) == [BASE + "a.html"]


@pytest.mark.parametrize("text", [f"\ufeff  {KEY} \r\n", f"{KEY}\n"], ids=["bom-and-spaces",
                                                                            "newline"])
def test_a_key_file_with_white_space_around_the_key_is_accepted(
        changed: Path, endpoint: Endpoint, text: str) -> None:
    """A hand-made key file (echo KEY > KEY.txt, an editor's BOM) holds the key all the same."""
    (changed / f"{KEY}.txt").write_text(text, "utf-8")
    assert submit(changed, endpoint.url, "-q") == 0
    assert pending_of(changed) == []


# --- a hand-edited pending list --------------------------------------------------------------


@pytest.mark.parametrize("bad", [f"{BASE}a\x1b[31mred", f"{BASE}a\x00b", f"{BASE}a b",
                                 f"{BASE}caf\u00e9"],
                         ids=["escape-sequence", "nul", "space", "not-encoded"])
def test_a_pending_url_that_is_no_uri_is_kept_never_sent_or_printed_raw(
        changed: Path, endpoint: Endpoint, capsys: pytest.CaptureFixture[str],
        bad: str) -> None:
    """A hand-edited pending list holding a URL with a control character or white space: not
    sent, kept, and the warning shows it escaped (it was POSTed, and printed raw)."""
    path = changed.parent / ".sitemap-cache" / PENDING_NAME
    path.write_text(json.dumps({"schema": PENDING_SCHEMA, "urls": [BASE + "a.html", bad]}),
                    "utf-8")
    capsys.readouterr()
    assert submit(changed, endpoint.url) == 0
    out, err = capsys.readouterr()
    assert endpoint.bodies[0]["urlList"] == [BASE + "a.html"]
    assert "\x1b" not in out + err
    assert "\x00" not in out + err
    assert "warning: 1 pending URLs are not under" in err
    assert pending_of(changed) == [bad]


def test_output_piped_into_head_ends_without_a_traceback(changed: Path) -> None:
    """`submit --dry-run | head -1`: the reader goes away mid-list; exit 141 (as a shell says
    of SIGPIPE), nothing on stderr (it was a BrokenPipeError traceback), the list kept."""
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    urls = [f"{BASE}p{number}.html" for number in range(30_000)]
    path = changed.parent / ".sitemap-cache" / PENDING_NAME
    path.write_text(json.dumps({"schema": PENDING_SCHEMA, "urls": urls}), "utf-8")
    with subprocess.Popen(
            [sys.executable, "-m", "sitemap_plugins", "submit", str(changed), "--base-url", BASE,
             "--key", KEY, "--dry-run"], stdout=subprocess.PIPE, stderr=subprocess.PIPE) as run:
        assert run.stdout is not None
        assert run.stderr is not None
        assert run.stdout.readline().startswith(b"Batch 1 of 3: ")
        run.stdout.close()
        err = run.stderr.read().decode()
        code = run.wait(timeout=60)
    assert "Traceback" not in err
    assert err == ""
    assert code == 141
    assert len(pending_of(changed)) == 30_000
