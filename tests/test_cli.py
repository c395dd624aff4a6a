"""The command line on the trap site: URL set, goldens, determinism, summary, check, errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_plugins.cli import main

ROOT = Path(__file__).resolve().parents[1]
TRAPS = ROOT / "sample_sites" / "traps"
BASE = "https://example.org/"
OUTPUTS = ["sitemap.xml", "sitemap.txt", "robots.txt"]


def make_traps(folder: Path) -> Path:
    """Build the trap site (odd names, non-UTF-8 bytes, .git) into ``folder``."""
    subprocess.run([sys.executable, str(TRAPS / "make_site.py"), "--out", str(folder)],
                   check=True, capture_output=True)
    return folder


@pytest.fixture
def traps(tmp_path: Path) -> Path:
    return make_traps(tmp_path / "site")


def test_build_lists_exactly_the_expected_urls(traps: Path, sitemap_urls, capsys) -> None:
    """The trap site gives exactly the hand-computed URL set, schema-valid."""
    assert main(["build", str(traps), "--base-url", BASE]) == 0
    urls = sitemap_urls(traps)
    expected = (TRAPS / "expected_urls.txt").read_text("utf-8").splitlines()
    assert sorted(urls) == expected
    assert len(urls) == len(set(urls))
    out, err = capsys.readouterr()
    assert f"Listed {len(expected)} URLs in https://example.org/sitemap.xml" in out
    for line in ("2  404 page", "2  canonical elsewhere", "1  canonical off the site",
                 "1  disallowed by robots.txt", "2  redirect stub", "3  noindex",
                 "2  URL longer than 2,048 characters"):
        assert line in out
    assert "canonical link points off the site (https://other.example.net/x/)" in err
    assert "URL has 2,049 characters; at most 2,048 are allowed" in err
    assert "is not valid UTF-8" not in err  # the latin-1 page declares its charset


@pytest.mark.golden
def test_build_matches_goldens(traps: Path, golden) -> None:
    """sitemap.xml, sitemap.txt and the merged robots.txt match the reviewed goldens."""
    assert main(["-q", "build", str(traps), "--base-url", BASE]) == 0
    golden(traps, TRAPS / "expected", OUTPUTS)


def test_build_is_byte_identical_and_loses_nothing(tmp_path: Path, snapshot) -> None:
    """Two builds give identical bytes; only sitemap files and robots.txt change."""
    first, second = make_traps(tmp_path / "a"), make_traps(tmp_path / "b")
    before = snapshot(first)
    for site in (first, second):
        assert main(["-q", "build", str(site), "--base-url", BASE]) == 0
    after_first, after_second = snapshot(first), snapshot(second)
    assert after_first == after_second
    changed = {name for name in after_first if before.get(name) != after_first[name]}
    assert changed == {"sitemap.xml", "sitemap.xml.gz", "sitemap.txt", "robots.txt"}
    assert after_first["robots.txt"].startswith(before["robots.txt"])
    assert main(["-q", "build", str(first), "--base-url", BASE]) == 0
    assert snapshot(first) == after_first


def test_python_m_is_the_same_program(traps: Path) -> None:
    """``python -m sitemap_plugins`` runs the CLI with the same exit codes."""
    done = subprocess.run(
        [sys.executable, "-m", "sitemap_plugins", "build", str(traps), "--base-url", "ftp://x"],
        capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr == ("error: --base-url: Expected an absolute http(s) URL such as "
                           "'https://example.org/' but received: 'ftp://x'\n")
    assert not (traps / "sitemap.xml").exists()


def test_check_passes_on_our_output_and_reports_problems(traps: Path, capsys) -> None:
    """check accepts a fresh build and names each planted problem on its own line."""
    assert main(["-q", "build", str(traps), "--base-url", BASE]) == 0
    assert main(["check", str(traps), "--base-url", BASE]) == 0
    assert "no problems" in capsys.readouterr().out
    sitemap = traps / "sitemap.xml"
    text = sitemap.read_text("utf-8")
    text = text.replace("<loc>https://example.org/about.html</loc>",
                        "<loc>https://example.org/about.html</loc><lastmod>2024-01-02T10:00</lastmod>", 1)
    text = text.replace("<loc>https://example.org/q&amp;a.html</loc>",
                        "<loc>https://other.example/q.html</loc>", 1)
    sitemap.write_text(text, "utf-8")
    (traps / "robots.txt").write_text("User-agent: *\n", "utf-8")
    assert main(["check", str(traps), "--base-url", BASE]) == 1
    out = capsys.readouterr().err  # problems go to stderr
    assert "sitemap.xml: <url> #3 (https://example.org/about.html): lastmod '2024-01-02T10:00' is not a W3C datetime with a time zone" not in out
    assert "lastmod '2024-01-02T10:00' is not a W3C datetime with a time zone" in out
    assert "URL 'https://other.example/q.html' is not under the base URL 'https://example.org/'" in out
    assert "sitemap.xml.gz: does not hold the same bytes as sitemap.xml" in out
    assert "robots.txt: has no 'Sitemap: https://example.org/sitemap.xml' line" in out
    assert "sitemap.txt: does not list the XML sitemap's URLs" in out


def test_check_detects_unescaped_ampersand(tmp_path: Path, capsys) -> None:
    """A raw '&' makes the file not well-formed, and check says so."""
    (tmp_path / "a.html").write_text("<html></html>")
    (tmp_path / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/'
        'sitemap/0.9"><url><loc>https://example.org/a.html?x=1&y=2</loc></url></urlset>\n')
    assert main(["check", str(tmp_path), "--base-url", BASE]) == 1
    assert "is not well-formed XML" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--max-urls", "0"], 2, "error: --max-urls: Expected a whole number from 1 to 50,000 but received: 0 (int)"),
        (["--changefreq", "**=sometimes"], 2, "error: --changefreq: Key '**': expected one of: 'always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never' but received: 'sometimes' (str)"),
        (["--priority", "**=high"], 2, "error: --priority: Expected a number from 0.0 to 1.0 but received: 'high'"),
        (["--priority", "nothing"], 2, "error: --priority: Expected GLOB=VALUE but received: 'nothing'"),
        (["--robots-txt", "maybe"], 2, "error: --robots-txt: Expected one of: 'merge', 'create', 'fragment', 'off' but received: 'maybe' (str)"),
    ],
    ids=["max-urls", "changefreq", "priority", "rule-syntax", "robots"],
)
def test_bad_flags(traps: Path, capsys, args: list[str], code: int, message: str) -> None:
    """Bad option values exit 2 with one line naming the flag."""
    assert main(["build", str(traps), "--base-url", BASE, *args]) == code
    assert capsys.readouterr().err.strip() == message


def test_missing_site_dir(tmp_path: Path, capsys) -> None:
    """A missing folder is a clear error, exit 1."""
    assert main(["build", str(tmp_path / "nope"), "--base-url", BASE]) == 1
    assert capsys.readouterr().err.strip() == (
        f"error: {tmp_path / 'nope'}: is not a folder (build the site first?)")


def test_base_url_with_path_writes_fragment(traps: Path) -> None:
    """Below the host root, robots.txt is left alone and a fragment is written."""
    robots = (traps / "robots.txt").read_bytes()
    assert main(["-q", "build", str(traps), "--base-url", "https://example.org/sub/"]) == 0
    assert (traps / "robots.txt").read_bytes() == robots
    assert (traps / "robots-sitemap.txt").read_text() == (
        "# Add this line to the robots.txt at https://example.org/robots.txt:\n"
        "# crawlers read robots.txt only at the root of a host.\n"
        "Sitemap: https://example.org/sub/sitemap.xml\n")


def test_rules_pdf_and_file_times(traps: Path, sitemap_urls) -> None:
    """Configured extensions, changefreq/priority rules and file times reach the sitemap."""
    assert main(["-q", "build", str(traps), "--base-url", BASE, "--extension", ".html",
                 "--extension", ".htm", "--extension", ".pdf", "--changefreq", "blog/**=weekly",
                 "--priority", "blog/**=0.9", "--priority", "**=0.4", "--lastmod-file-time",
                 "--exclude", "long/"]) == 0
    urls = sitemap_urls(traps)
    assert "https://example.org/assets/manual.pdf" in urls
    assert not any("/long/" in url for url in urls)
    text = (traps / "sitemap.xml").read_text("utf-8")
    hello = text.split("<loc>https://example.org/blog/2024/hello.htm</loc>")[1].split("</url>")[0]
    assert "<lastmod>2024-03-05T10:20:30+01:00</lastmod>" in hello  # the page's own date wins
    assert "<changefreq>weekly</changefreq>" in hello
    assert "<priority>0.9</priority>" in hello
    about = text.split("<loc>https://example.org/about.html</loc>")[1].split("</url>")[0]
    assert "<lastmod>2024-06-01T00:00:00Z</lastmod>" in about  # file time, set by make_site
    assert "<priority>0.4</priority>" in about
    assert "changefreq" not in about


def test_no_pages_writes_no_sitemap(tmp_path: Path, capsys) -> None:
    """A folder with nothing to list gets a warning and no (empty, invalid) sitemap."""
    (tmp_path / "404.html").write_text("<html></html>")
    assert main(["build", str(tmp_path), "--base-url", BASE]) == 0
    assert "no page can be listed, so no sitemap was written" in capsys.readouterr().err
    assert not (tmp_path / "sitemap.xml").exists()


def test_source_date_epoch_does_not_leak_build_time(traps: Path) -> None:
    """No build time appears anywhere: the same tree built at two 'times' is identical."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1"}
    subprocess.run([sys.executable, "-m", "sitemap_plugins", "-q", "build", str(traps),
                    "--base-url", BASE], check=True, env=env)
    first = (traps / "sitemap.xml.gz").read_bytes()
    env["SOURCE_DATE_EPOCH"] = "1"
    subprocess.run([sys.executable, "-m", "sitemap_plugins", "-q", "build", str(traps),
                    "--base-url", BASE], check=True, env=env)
    assert (traps / "sitemap.xml.gz").read_bytes() == first
    assert b"1970" not in (traps / "sitemap.xml").read_bytes()


@pytest.mark.parametrize("where", ["before", "after"])
def test_quiet_and_verbose_go_before_or_after_the_command(traps: Path, capsys, where: str) -> None:
    """``-q`` and ``-v`` work on either side of the command, as users type them."""
    def run(flag: str, *command: str) -> tuple[int, str, str]:
        args = [flag, *command] if where == "before" else [*command, flag]
        code = main(args)
        out, err = capsys.readouterr()
        return code, out, err

    build = ("build", str(traps), "--base-url", BASE)
    assert run("-q", *build)[1] == ""
    assert run("-q", "check", str(traps), "--base-url", BASE) == (0, "", "")
    verbose = ["-v", *build] if where == "before" else [*build, "-v"]
    shown = subprocess.run([sys.executable, "-m", "sitemap_plugins", *verbose], cwd=ROOT,
                           capture_output=True, text=True, check=True)
    assert "Listed " in shown.stdout
    assert "page records came from the cache" in shown.stderr  # a debug line: only with -v


def test_a_changes_file_without_the_manifest_is_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--changes-file with --no-fingerprint: no change can be known, and the run says so in
    one line instead of writing nothing in silence."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<!doctype html><title>Home</title>")
    changes = tmp_path / "changes.json"
    assert main(["build", str(site), "--base-url", BASE, "--no-fingerprint",
                 "--changes-file", str(changes)]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "changes_file" in line]
    assert warnings == [("warning: changes_file is set but fingerprint is off: without the "
                        "manifest no change is known, so the file was not written")]
    assert not changes.exists()


def test_check_takes_a_url_without_its_files_html(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A URL that a server answers with the file plus .html (GitHub Pages, nginx try_files;
    what Pelican lists for ARTICLE_URL = "{slug}") is served; one with no such file is not."""
    site = tmp_path / "site"
    (site / "blog").mkdir(parents=True)
    (site / "blog" / "post.html").write_text("<!doctype html><title>Post</title>")
    urls = [f"{BASE}blog/post", f"{BASE}blog/gone"]
    (site / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/'
        'schemas/sitemap/0.9">\n' + "".join(f"  <url>\n    <loc>{u}</loc>\n  </url>\n"
                                            for u in urls) + "</urlset>\n")
    assert main(["check", str(site), "--base-url", BASE]) == 1
    out = capsys.readouterr().err  # problems go to stderr
    assert f"no file in the site serves '{BASE}blog/gone'" in out
    assert "blog/post'" not in out


def test_alternates_on_another_domain_are_listed(tmp_path: Path, sitemap_urls, capsys) -> None:
    """A site whose translations live on other domains (Hugo's multihost: example.com in
    English, example.de in German, each its own build): each page's hreflang group names
    the other site's page, as Google's own example does; the files validate against the
    official schemas and check finds no problem. A development server's URL left in a page
    is a warning and never listed."""
    site = tmp_path / "public"
    for name, german in (("index.html", ""), ("about/index.html", "ueber/")):
        page = site / name
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(
            '<!doctype html><html lang="en"><head><title>t</title>'
            f'<link rel="alternate" hreflang="en" href="https://example.com/{name[:-10]}">'
            f'<link rel="alternate" hreflang="de" href="https://example.de/{german}">'
            f'<link rel="alternate" hreflang="fr" href="http://localhost:1313/{german}">'
            "</head><body><main><p>text</p></main></body></html>", "utf-8")
    assert main(["build", str(site), "--base-url", "https://example.com/"]) == 0
    err = capsys.readouterr().err
    assert err.count("names a local address") == 2
    assert sitemap_urls(site) == ["https://example.com/", "https://example.com/about/"]
    text = (site / "sitemap.xml").read_text("utf-8")
    assert '<xhtml:link rel="alternate" hreflang="de" href="https://example.de/ueber/"/>' in text
    assert "localhost" not in text
    assert main(["check", str(site), "--base-url", "https://example.com/"]) == 0
    assert "no problems" in capsys.readouterr().out


def test_check_counts_in_words(tmp_path: Path, capsys) -> None:
    """One URL and one problem are said in the singular, as build says "Listed 1 URL"."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html><head><title>t</title></head></html>", "utf-8")
    assert main(["-q", "build", str(site), "--base-url", BASE]) == 0
    assert main(["check", str(site), "--base-url", BASE]) == 0
    assert capsys.readouterr().out == "Checked 1 URL: no problems\n"
    (site / "sitemap.txt").write_text(f"{BASE}\n{BASE}\n", "utf-8")
    assert main(["check", str(site), "--base-url", BASE]) == 1
    assert capsys.readouterr().out.endswith("Checked 1 URL: 1 problem\n")
    (site / "sitemap.txt").write_text("https://example.org/other\n", "utf-8")
    assert main(["check", str(site), "--base-url", BASE]) == 1
    out = capsys.readouterr().err
    assert ("sitemap.txt: does not list the XML sitemap's URLs: 1 URL not in the XML sitemap "
            "(first: 'https://example.org/other'); 1 URL of the XML sitemap missing (first: "
            "'https://example.org/')") in out


def test_summary_counts_are_plural_only_past_one() -> None:
    """Every count in a summary goes through one spelling: "1 video", "16 pages left out:
    i18n fallback copy of an untranslated page (16)", never "1 videos" or "16 ... copy"."""
    from collections import Counter  # noqa: PLC0415

    from sitemap_plugins.products.build.pipeline import Result  # noqa: PLC0415

    result = Result("https://example.org/sitemap.xml", listed=1, images=2, videos=1,
                    excluded=Counter({"i18n fallback copy of an untranslated page": 16}),
                    files=["sitemap.xml"])
    assert result.summary_line() == (
        "1 URL listed in https://example.org/sitemap.xml; 16 pages left out: i18n fallback "
        "copy of an untranslated page (16); 2 images, 1 video; wrote sitemap.xml")
    assert "Media: 2 images, 1 video" in result.summary()


def test_long_paths_are_shortened_in_messages(traps: Path, capsys) -> None:
    """The trap site's 2,049-character page path is shown by its start and end around "…" in
    its warning: a terminal line, not a screenful (any path or URL in a message, alike)."""
    assert main(["build", str(traps), "--base-url", BASE]) == 0
    err = capsys.readouterr().err
    long_lines = [line for line in err.splitlines() if "URL has 2,049 characters" in line]
    assert len(long_lines) == 1
    assert len(long_lines[0]) < 320
    assert long_lines[0].startswith("warning: 'long/2049/aaa")
    assert "a…a" in long_lines[0]
    assert "/index.html': URL has 2,049 characters" in long_lines[0]
    assert max(map(len, err.splitlines())) < 400


# pydata-sphinx-theme's _static/webpack-macros.html, a Jinja macro file copied into every site.
WEBPACK_MACROS = """<!--
  AUTO-GENERATED from webpack.config.js, do **NOT** edit by hand.
  These are re-used in layout.html
-->
{# Load FontAwesome icons #}
{% macro head_pre_icons() %}
  <link href="{{ pathto('_static/vendor/fontawesome/6.5.2/css/all.min.css', 1) }}" rel="stylesheet" />
{% endmacro %}

{% macro head_pre_assets() %}
  <!-- Loaded before other Sphinx assets -->
  <link href="{{ pathto('_static/styles/theme.css', 1) }}?digest=dfe6caa3a7d6" rel="stylesheet" />
{% endmacro %}
"""
# Material's and Zensical's redirect.html: the refresh inside a <noscript> of the head.
MATERIAL_REDIRECT = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>'
                     'Redirecting...</title><noscript><meta http-equiv="refresh" content="0; '
                     'url=../new/"></noscript><script>location.replace(new URL("../new/", '
                     "location))</script></head></html>")


def test_templates_and_noscript_redirects_are_not_listed(tmp_path: Path, sitemap_urls,
                                                         capsys) -> None:
    """A theme's template file copied as is and a redirect page are left out, each said why."""
    site = tmp_path / "site"
    home = "<!doctype html><html><body><main><p>Home.</p></main></body></html>"
    for name, text in (("index.html", home),
                       ("_static/webpack-macros.html", WEBPACK_MACROS),
                       ("old/index.html", MATERIAL_REDIRECT)):
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, "utf-8")
    assert main(["build", str(site), "--base-url", "https://example.org/"]) == 0
    assert sitemap_urls(site) == ["https://example.org/"]
    out = capsys.readouterr().out
    assert "1  template file (not a page)" in out
    assert "1  redirect stub" in out


OUTPUTS_GONE = {"stdout closed": ">&-", "both closed": ">&- 2>&-", "stdout full": ">/dev/full",
                "both full": ">/dev/full 2>/dev/full", "json to a full stdout": "--json >/dev/full"}


@pytest.mark.integration
@pytest.mark.parametrize("redirect", OUTPUTS_GONE.values(), ids=OUTPUTS_GONE.keys())
def test_a_closed_or_full_output_never_stops_the_work(tmp_path: Path, redirect: str) -> None:
    """`build`, `check` and `merge` with stdout closed (cron's `>&-`) or on a full device:
    the files are written, the exit status is the work's, and no traceback is printed."""
    site = tmp_path / "site"
    (site / "a").mkdir(parents=True)
    for page in (site / "index.html", site / "a" / "index.html"):
        page.write_text("<html><head><title>x</title></head><body>hi</body></html>")
    log = tmp_path / "stderr.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for command in ("build", "check", "merge"):
        done = subprocess.run(
            ["sh", "-c", (f'"$0" -m sitemap_plugins {command} "$1" --base-url {BASE} '
                          f'2>>"$2" {redirect}'), sys.executable, str(site), str(log)],
            check=False, env=env, timeout=120)
        assert (command, done.returncode) == (command, 0)
        assert "Traceback" not in log.read_text()
        assert "Exception" not in log.read_text()
        assert (site / "sitemap.xml").is_file()
    # The closed descriptors never became the run's own files: no text in a sitemap.
    assert (site / "sitemap.txt").read_text() == f"{BASE}\n{BASE}a/\n"


@pytest.mark.parametrize("path", [
    "sitemap.xml/", "sitemap.txt/", "sitemap.xml.gz/", "robots.txt/", "sitemap-news.xml/a.html",
    "sitemap-1.xml/", "Sitemap-Txt-Index.XML/", "robots-sitemap.txt/", "keykeykey.txt/",
    "pages.xml/", "llms.txt/"])
def test_an_html_sitemap_over_the_tools_own_files_is_refused(tmp_path: Path, capsys,
                                                             path: str) -> None:
    """--html-sitemap naming a folder where a file of the run is written (a sitemap file, a
    numbered part, the news sitemap, robots.txt, the fragment, llms.txt, KEY.txt): exit 2
    with one line before anything is written (the build rewrote the sitemaps, then failed)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html><head><title>x</title></head></html>")
    code = main(["build", str(site), "--base-url", BASE, "--indexnow-key", "keykeykey",
                 "--sitemap-name", "pages" if path == "pages.xml/" else "sitemap",
                 "--llms-txt", "--html-sitemap", path])
    assert (code, capsys.readouterr().err) == (2, (
        "error: --html-sitemap: Expected a path clear of the files the build writes at the site "
        f"root but received: {path!r} (str)\n"))
    assert sorted(p.name for p in site.iterdir()) == ["index.html"]
    assert main(["-q", "build", str(site), "--base-url", BASE, "--html-sitemap",
                 "docs/sitemap.xml/"]) == 0  # not at the root: no file of the run stands there


def _lastmods(site: Path) -> dict[str, str | None]:
    """Each URL of the site's sitemap.xml with its lastmod (None: it has none)."""
    import re  # noqa: PLC0415

    found = re.findall(r"<loc>([^<]*)</loc>\s*(?:<lastmod>([^<]*)</lastmod>)?",
                       (site / "sitemap.xml").read_text("utf-8"))
    return {loc: lastmod or None for loc, lastmod in found}


_ELEVENTY_POST = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>{title}</title></head><body><header><a href="/" class="home-link">My site</a>
<nav><ul class="nav"><li class="nav-item"><a href="/">Home</a></li></ul></nav></header>
<main id="skip"><heading-anchors><h1>{title}</h1>
<ul class="post-metadata"><li><time datetime="{day}">{day}</time></li>
<li><a href="/tags/second-tag/" class="post-tag">second tag</a></li></ul>
<p>Leverage agile frameworks to provide a robust synopsis.</p></heading-anchors>
<ul class="links-nextprev"><li class="links-nextprev-next">Next<br><a href="/blog/x/">X</a></li>
</ul></main><footer><p><em>Built with Eleventy</em></p></footer></body></html>"""


def test_first_build_dates_eleventy_posts_by_the_time_they_state(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each post of an Eleventy base blog gets the date beside its heading, on a first build."""
    monkeypatch.chdir(tmp_path)  # in no git work tree
    site = tmp_path / "_site"
    days = {"firstpost": "2018-05-01", "secondpost": "2018-07-04", "thirdpost": "2018-08-24"}
    for slug, day in days.items():
        (site / "blog" / slug).mkdir(parents=True)
        (site / "blog" / slug / "index.html").write_text(
            _ELEVENTY_POST.format(title=slug, day=day), "utf-8")
    items = "".join(f'<li class="postlist-item"><a href="/blog/{slug}/" class="postlist-link">'
                    f'{slug}</a><time class="postlist-date" datetime="{day}">{day}</time></li>'
                    for slug, day in days.items())
    (site / "index.html").write_text(
        f'<html><body><main><h1>Latest 3 Posts</h1><ol reversed class="postlist">{items}</ol>'
        "</main></body></html>", "utf-8")
    assert not (tmp_path / ".sitemap-cache").exists()
    assert main(["-q", "build", str(site), "--base-url", BASE]) == 0
    assert _lastmods(site) == {
        BASE: None,  # the home page lists posts: their dates are not its own
        **{f"{BASE}blog/{slug}/": day for slug, day in days.items()}}


def _git(repo: Path, *args: str, when: str = "") -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.org",
           "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@example.org",
           "GIT_AUTHOR_DATE": "2000-01-01T00:00:00+00:00", "GIT_CONFIG_GLOBAL": os.devnull}
    if when:
        env["GIT_COMMITTER_DATE"] = when
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def _commit(repo: Path, path: str, text: str, when: str) -> None:
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(text, "utf-8")
    _git(repo, "add", path)
    _git(repo, "commit", "-q", "-m", f"change {path}", when=when)


@pytest.mark.parametrize("inside", [True, False], ids=["site-in-repo", "cwd-in-repo"])
def test_edit_links_date_pages_by_their_sources_commits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, inside: bool) -> None:
    """In a git work tree, a page whose edit link names a tracked file gets its last commit."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _commit(repo, "docs/a.md", "# A", "2021-03-04T05:06:07+00:00")
    _commit(repo, "docs/b.md", "# B", "2022-01-01T00:00:00+00:00")
    _commit(repo, "docs/b.md", "# B, again", "2022-07-08T09:10:11+02:00")
    _commit(repo, "README.md", "# R", "2023-01-01T00:00:00+00:00")
    site = repo / "site" if inside else tmp_path / "site"
    monkeypatch.chdir(tmp_path if inside else repo)
    links = {
        "a.html": '<a href="https://github.com/o/r/edit/main/docs/a.md" rel="edit">Edit</a>',
        "b/index.html": ('<a class="theme-edit-this-page" href="https://gitlab.com/o/r/-/blob/'
                         'feature/x/docs/b.md">Edit this page</a>'),
        "gone.html": '<a href="https://github.com/o/r/edit/main/docs/gone.md" rel="edit">e</a>',
        "plain.html": "<p>No edit link.</p>",
    }
    for rel, link in links.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(f"<html><body><main><h1>{rel}</h1>{link}<p>Text.</p></main>"
                                "</body></html>", "utf-8")
    assert main(["-q", "build", str(site), "--base-url", BASE]) == 0
    assert _lastmods(site) == {
        f"{BASE}a.html": "2021-03-04T05:06:07Z",  # its only commit, the one that added it
        f"{BASE}b/": "2022-07-08T09:10:11+02:00",
        f"{BASE}gone.html": None, f"{BASE}plain.html": None}
    plain = site.with_name("plain")  # the same pages, git dates turned off
    for rel in links:
        (plain / rel).parent.mkdir(parents=True, exist_ok=True)
        (plain / rel).write_bytes((site / rel).read_bytes())
    assert main(["-q", "build", str(plain), "--base-url", BASE, "--no-git-dates"]) == 0
    assert set(_lastmods(plain).values()) == {None}
