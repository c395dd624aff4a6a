"""IndexNow: tell search engines which URLs changed, after the deploy (docs/submitting.md).

One POST reaches Bing, Yandex, Seznam, Naver and others (the sitemap "ping" endpoints are
gone). Each build adds its changed URLs to a pending set in the cache folder, emptied only by
an accepted submission; with ``indexnow_key`` the build writes ``KEY.txt`` at the site root;
``sitemap-plugins submit`` POSTs batches of at most 10,000 URLs, retrying 429, 5xx and
network errors a bounded number of times.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from sitemap_plugins.disk.history import (
    pending_path,
    read_pending,
    read_pending_versions,
    record_pending,
    remove_sent,
)
from sitemap_plugins.disk.history_files import PENDING_NAME, PENDING_SCHEMA, PendingError
from sitemap_plugins.disk.owned import publish_key as _publish_key
from sitemap_plugins.disk.owned import publishes_key
from sitemap_plugins.disk.site import what_stands
from sitemap_plugins.vocab.errors import ConfigError, Diagnostic, PathError
from sitemap_plugins.vocab.urls import (
    is_within,
    page_url,
    parse_base_url,
    resolve_href,
    without_userinfo,
)

if TYPE_CHECKING:
    import urllib.request
    from collections.abc import Callable, Iterable
    from pathlib import Path

    from sitemap_plugins.products.build.progress import Progress
    from sitemap_plugins.vocab.urls import BaseUrl

DEFAULT_ENDPOINT = "https://api.indexnow.org/indexnow"
# indexnow.org allows up to 10,000 URLs per POST.
MAX_BATCH = 10_000
# Seconds to wait before each retry of a 429, a 5xx or a network error; then it gives up.
RETRY_DELAYS: tuple[float, ...] = (1.0, 4.0, 16.0)
# A Retry-After longer than this is not waited for: the next run will send the list.
MAX_RETRY_AFTER = 60.0
TIMEOUT = 30.0
_OK = frozenset({200, 202})
_RETRIED = frozenset({429})
_CAUSES = {
    400: "the endpoint found the request malformed (bad format)",
    403: "the key was not found at {key_location} or does not match it: deploy the site "
         "with the key file first, then submit",
    422: "some URLs are not on host {host} (or not under the key file's folder), or the key "
         "does not match the protocol's pattern",
    429: "the endpoint takes this many requests for spam; submit less often",
}


# Characters no URL holds as they are (RFC 3986 section 2): white space and controls.
_NOT_IN_URL = re.compile(r"[\x00-\x20\x7f-\x9f]")
# A URI as RFC 3986 writes it: its characters only, each "%" starting an escape.
_URI = re.compile(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*\Z")


def check_endpoint(option: str, text: str) -> str:
    """Validate an endpoint URL: an absolute http(s) URL with a valid host and port.

    Checked before anything is sent, so a typo is one usage error, not a traceback or a round
    of retries. Returns the URL to send, percent-encoded when it is an IRI.

    Raises:
        ConfigError: naming what is wrong.
    """
    shown = without_userinfo(text)  # a password or token in the URL is never printed
    expected = f"Expected an http(s) URL such as '{DEFAULT_ENDPOINT}' but received: {shown!r}"
    if _NOT_IN_URL.search(text):
        raise ConfigError(option, f"{expected} (white space or a control character)")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018  # raises ValueError for a port out of range or not a number
    except ValueError as err:
        raise ConfigError(option, f"{expected} ({err})") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise ConfigError(option, expected)
    try:
        # The base URL's grammar for the host part: host or IP literal, port, no user info.
        parse_base_url(f"{parts.scheme}://{parts.netloc}/")
    except ValueError as err:
        raise ConfigError(option, f"{expected} ({err})") from None
    if _URI.match(text):
        return text
    # An IRI is sent as the URI it stands for (http.client cannot encode it).
    encoded = resolve_href(text, text)
    if encoded is None:  # pragma: no cover  # what passed the checks above resolves
        raise ConfigError(option, expected)
    return encoded


def key_file_name(key: str) -> str:
    """The key file's name at the site root."""
    return f"{key}.txt"


def key_location(base: BaseUrl, key: str) -> str:
    """The URL of the key file: the site root, under the base URL's path when it has one."""
    return page_url(base, key_file_name(key), directory_urls=False)


# --- the key file -----------------------------------------------------------------------------


def publish_key(site: Path, key: str) -> tuple[list[str], list[Diagnostic]]:
    """Write ``KEY.txt`` holding the key at the site root, atomically (files, diagnostics).

    A file of that name holding anything else is the site's own: reported, never overwritten.
    """
    return _publish_key(site, key_file_name(key), key)


class KeyFileError(PathError):
    """The key given to ``submit`` is not published in the built site."""


def check_key_file(site: Path, key: str, location: str) -> None:
    """Make sure the built site publishes ``key`` where IndexNow will look for it.

    Raises:
        KeyFileError: saying what to add, when the file is missing or holds another key.
    """
    name = key_file_name(key)
    remedy = (f"set the option indexnow_key to this key (mkdocs.yml, SITEMAP_PLUGINS or "
              f"--indexnow-key) so the build writes it, or add a file {name} holding the key "
              "at the site root; then build, deploy and submit again")
    holds = publishes_key(site, name, key)
    if holds is None and os.path.lexists(site / name):
        # "Not in the built site" sent the user to add a file that was there.
        what = what_stands(site / name)
        state = (f"is {what} in the built site, not a file" if what is not None
                 else "is in the built site but cannot be read")
        msg = (f"the key file {name} {state}, and IndexNow reads the key at {location}: "
               "replace it with a readable file holding the key; then deploy and submit again")
        raise KeyFileError(str(site), msg)
    if holds is None:
        msg = (f"the key file {name} is not in the built site, but IndexNow checks the key at "
               f"{location}: {remedy}")
        raise KeyFileError(str(site), msg)
    if not holds:
        msg = f"the key file {name} holds another key than the one given: {remedy}"
        raise KeyFileError(str(site), msg)


# The pending list lives in the cache folder (disk.history, in disk.history_files' format).
__all__ = ["PENDING_NAME", "PENDING_SCHEMA", "PendingError", "pending_path", "read_pending",
           "read_pending_versions", "record_pending", "remove_sent"]


# --- submission ------------------------------------------------------------------------------


def request_body(host: str, key: str, location: str, urls: list[str]) -> bytes:
    """One POST's JSON body (indexnow.org: host, key, keyLocation, urlList)."""
    body = {"host": host, "key": key, "keyLocation": location, "urlList": urls}
    return json.dumps(body, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def batches(urls: list[str], size: int = MAX_BATCH) -> list[list[str]]:
    """The URLs in batches of at most ``size``, in order."""
    return [urls[start:start + size] for start in range(0, len(urls), size)]


@dataclass
class BatchOutcome:
    """What happened to one batch."""

    urls: list[str]
    status: int | None = None
    """The endpoint's final answer; None when it could not be reached (or not sent)."""
    attempts: int = 0
    error: str = ""
    """Why the batch was not accepted; empty when it was (or was not sent)."""
    retry_at: datetime | None = None
    """When the endpoint asked to be tried again (a long ``Retry-After``), if it did."""

    @property
    def accepted(self) -> bool:
        """Whether the endpoint took it (200, or 202: the key is still being checked)."""
        return self.status in _OK


@dataclass
class Submission:
    """One ``submit`` run: what was pending, what each batch got."""

    endpoint: str
    host: str
    key_location: str
    pending: int = 0
    """URLs on the pending list."""
    out_of_scope: list[str] = field(default_factory=list)
    """Pending URLs not under the base URL, or not URLs at all: not sent, kept."""
    batches: list[BatchOutcome] = field(default_factory=list)

    @property
    def sent(self) -> int:
        """URLs the endpoint accepted."""
        return sum(len(batch.urls) for batch in self.batches if batch.accepted)

    @property
    def failed(self) -> BatchOutcome | None:
        """The batch that stopped the run, if one did."""
        return next((batch for batch in self.batches if batch.error), None)


def _send(request: urllib.request.Request, timeout: float) -> tuple[int, dict[str, str]]:
    """POST once; the status and headers (an HTTP error status is an answer, not raised).

    ``timeout`` bounds the whole exchange (a byte-at-a-time answer cannot hold it); the
    body is never read.

    Raises:
        TimeoutError: when no answer came within ``timeout`` seconds.
    """
    answers: list[tuple[int, dict[str, str]]] = []
    failures: list[BaseException] = []

    def exchange() -> None:
        try:
            answers.append(_exchange(request, timeout))
        except BaseException as err:  # noqa: BLE001  # handed to the caller's thread
            failures.append(err)

    # A daemon thread: one still waiting on a stalled endpoint never keeps the command alive.
    worker = threading.Thread(target=exchange, name="indexnow-post", daemon=True)
    worker.start()
    worker.join(timeout)
    if failures:
        raise failures[0]
    if not answers:
        msg = f"no whole answer within {timeout:g} seconds"
        raise TimeoutError(msg)
    return answers[0]


def _exchange(request: urllib.request.Request, timeout: float) -> tuple[int, dict[str, str]]:
    import urllib.error  # noqa: PLC0415  # only submit sends: a build never loads http and ssl
    import urllib.request  # noqa: PLC0415

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        """A redirected POST would become a GET without its body: report it instead."""

        def redirect_request(self, *_args: object, **_kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect())
    try:
        # By keyword: the request, not a file's mode (as open()'s second argument would be).
        with opener.open(fullurl=request, timeout=timeout) as response:
            return int(response.status), _fields(response.headers.items())
    except urllib.error.HTTPError as err:
        headers = _fields(err.headers.items()) if err.headers is not None else {}
        err.close()
        return int(err.code), headers


def _fields(items: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Header fields by lower-case name; a repeated field keeps all its values, one per line."""
    fields: dict[str, str] = {}
    for name, value in items:
        key = name.lower()
        fields[key] = f"{fields[key]}\n{value}" if key in fields else value
    return fields


def _header(headers: dict[str, str], name: str) -> str:
    return next((v for k, v in headers.items() if k.lower() == name.lower()), "")


def printable(text: str, limit: int = 200) -> str:
    """Text from the network or a hand-edited file as one printable line: controls escaped."""
    shown = _NOT_IN_URL.sub(lambda m: f"\\x{ord(m.group(0)):02x}", text[:limit])
    return shown + ("..." if len(text) > limit else "")


# RFC 9110 section 10.2.3: delay-seconds is 1*DIGIT (leading zeros allowed: "0120").
_DELAY_SECONDS = re.compile(r"[0-9]+\Z")
# The longest pause read, so "run again after" stays within datetime's range.
LONGEST_PAUSE = 100 * 366 * 86_400.0


def _retry_after(headers: dict[str, str], now: float) -> float | None:
    """Seconds the endpoint asks to wait (RFC 9110 ``Retry-After``); None: not said.

    Delay-seconds or an HTTP-date relative to ``now``; anything else is ignored. Repeated,
    the longest pause counts.
    """
    pauses = [pause for value in _header(headers, "Retry-After").split("\n")
              if (pause := _pause(value.strip(), now)) is not None]
    return min(max(pauses), LONGEST_PAUSE) if pauses else None


def _pause(value: str, now: float) -> float | None:
    """One ``Retry-After`` value in seconds from ``now``; None when it is neither form."""
    if not value:
        return None
    if _DELAY_SECONDS.match(value):  # past 12 digits, more than the longest pause anyway
        return float(int(value)) if len(value) <= 12 else LONGEST_PAUSE  # noqa: PLR2004
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:  # "-0000": RFC 5322 for UTC with no more said
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, when.timestamp() - now)


def _reason(status: int) -> str:
    import http.client  # noqa: PLC0415  # loaded by the send before it

    try:
        return f"{status} {http.client.responses[status]}"
    except KeyError:
        return str(status)


def send_batch(
    endpoint: str, body: bytes, outcome: BatchOutcome, *, host: str, location: str,
    delays: tuple[float, ...] = RETRY_DELAYS, timeout: float = TIMEOUT,
    sleep: Callable[[float], None] = time.sleep,
    send: Callable[[urllib.request.Request, float], tuple[int, dict[str, str]]] = _send,
    user_agent: str = "sitemap-plugins", now: Callable[[], float] = time.time,
) -> None:
    """POST one batch, retrying 429, 5xx and network errors; fills in ``outcome``.

    A longer ``Retry-After`` than :data:`MAX_RETRY_AFTER` stops the batch (``retry_at``).
    """
    import http.client  # noqa: PLC0415  # only submit sends: a build never loads http and ssl
    import urllib.request  # noqa: PLC0415

    waits = iter(delays)
    while True:
        outcome.attempts += 1
        request = urllib.request.Request(  # noqa: S310  # the endpoint is checked as http(s)
            endpoint, data=body, method="POST",
            headers={"Content-Type": "application/json; charset=utf-8",
                     "User-Agent": user_agent})
        headers: dict[str, str] = {}
        try:
            status, headers = send(request, timeout)
        except (OSError, http.client.HTTPException) as err:
            reason = getattr(err, "reason", None) or err
            outcome.status = None
            outcome.error = f"cannot reach {endpoint} ({reason})"
        else:
            outcome.status = status
            if status in _OK:
                outcome.error = ""
                return
            # Only our own templates are formatted, never text from the network.
            cause = _CAUSES.get(status, "").format(key_location=location, host=host)
            if 300 <= status < 400:  # noqa: PLR2004
                where = _header(headers, "Location") or "elsewhere"
                cause = (f"the endpoint redirects to {printable(where)}: give that URL as "
                         "--endpoint")
            elif status >= 500:  # noqa: PLR2004
                cause = "the endpoint failed on its side"
            elif not cause:
                cause = "an answer the IndexNow protocol does not define"
            outcome.error = f"{_reason(status)}: {cause}"
            if status not in _RETRIED and status < 500:  # noqa: PLR2004
                return
        pause = _retry_after(headers, now()) if outcome.status is not None else None
        if pause is not None and pause > MAX_RETRY_AFTER:
            # Not waited for here: the URLs stay pending and the next run sends them.
            again = datetime.fromtimestamp(now() + pause, tz=timezone.utc)
            outcome.retry_at = again
            tries = f"{outcome.attempts} time{'s' if outcome.attempts > 1 else ''}"
            outcome.error += (f" (tried {tries}); the endpoint asks for a pause of "
                              f"{pause:,.0f} seconds: run submit again after "
                              f"{again:%Y-%m-%d %H:%M:%S} UTC")
            return
        delay = next(waits, None)
        if delay is None:
            if outcome.attempts > 1:
                outcome.error += f" (tried {outcome.attempts} times)"
            return
        sleep(max(delay, pause or 0.0))


def submit(
    cache_dir: Path, base: BaseUrl, key: str, *, endpoint: str = DEFAULT_ENDPOINT,
    dry_run: bool = False, delays: tuple[float, ...] = RETRY_DELAYS, timeout: float = TIMEOUT,
    sleep: Callable[[float], None] = time.sleep,
    send: Callable[[urllib.request.Request, float], tuple[int, dict[str, str]]] | None = None,
    user_agent: str = "sitemap-plugins", progress: Progress | None = None,
) -> Submission:
    """Send the pending URLs under ``base`` in batches; take the accepted ones off the list.

    It stops at the first batch not accepted: the rest stay pending. ``progress`` counts the
    URLs to send and those accepted; the other arguments are :func:`send_batch`'s.

    Raises:
        PendingError: when the pending list cannot be read, or ``cache_dir`` is no folder.
        WriteError: when it cannot be updated after an accepted batch.
    """
    location = key_location(base, key)
    submission = Submission(endpoint, base.netloc, location)
    if not cache_dir.is_dir():
        # No cache folder: not the build's (a typo, a CI cache not restored); say so.
        what = "is not a folder" if os.path.lexists(cache_dir) else "does not exist"
        raise PendingError(str(cache_dir), f"{what}, so it holds no list of changed URLs",
                           "give --cache-dir the cache folder of the builds (their cache_dir)")
    versions = read_pending_versions(cache_dir)
    pending = list(versions)
    submission.pending = len(pending)
    # A URL that is no URI (a hand-edited list) is never sent, and kept as one off the base.
    in_scope = [url for url in pending if _URI.match(url) and is_within(url, base)]
    sent = set(in_scope)
    submission.out_of_scope = [url for url in pending if url not in sent]
    submission.batches = [BatchOutcome(urls) for urls in batches(in_scope)]
    if dry_run:
        return submission
    if progress is not None:
        progress.found(len(in_scope))
    try:
        for outcome in submission.batches:
            body = request_body(submission.host, key, location, outcome.urls)
            send_batch(endpoint, body, outcome, host=submission.host, location=location,
                       delays=delays, timeout=timeout, sleep=sleep, send=send or _send,
                       user_agent=user_agent)
            if not outcome.accepted:
                break
            remove_sent(cache_dir, {url: versions[url] for url in outcome.urls})
            if progress is not None:
                progress.done(len(outcome.urls))
    finally:
        if progress is not None:
            progress.finish()
    return submission
