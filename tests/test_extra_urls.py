"""``extra_urls`` and ``extra_sitemaps``: what another tool publishes under the base URL."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from sitemap_plugins.cli import main
from tests.test_adapter_mkdocs import _fetch, _free_port, _serve, _stop, make_site, run_host
from tests.test_adapter_pelican import copy_site, pelican
from tests.test_adapter_sphinx import sample, sphinx_build

if TYPE_CHECKING:
    from pathlib import Path

BASE = "https://example.org/"
API = f"{BASE}api/sitemap.xml"


def _locs(path: Path) -> list[str]:
    return re.findall(r"<loc>(.*?)</loc>", path.read_text("utf-8"))


def _site(folder: Path) -> Path:
    for rel in ("index.html", "guide.html"):
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(f"<html><head><title>{rel}</title></head></html>", "utf-8")
    (folder / "robots.txt").write_text("User-agent: *\nDisallow:\n", "utf-8")
    return folder


def test_extra_urls_are_listed_after_the_pages_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each extra URL escaped, with its lastmod, after the pages; one naming a built page is
    listed once, as the page, with a warning."""
    site = _site(tmp_path / "site")
    assert main(["build", str(site), "--base-url", BASE, "--extra-url",
                 f"{BASE}api/café.html 2024-05-06", "--extra-url", f"{BASE}app/",
                 "--extra-url", f"{BASE}guide.html 2020-01-01"]) == 0
    err = capsys.readouterr().err
    assert (f"warning: extra_urls names {BASE}guide.html, a page this build lists: listed "
            "once, as the page (remove it from extra_urls)") in err
    text = (site / "sitemap.xml").read_text("utf-8")
    assert _locs(site / "sitemap.xml") == [BASE, f"{BASE}guide.html",
                                           f"{BASE}api/caf%C3%A9.html", f"{BASE}app/"]
    assert ("<loc>https://example.org/api/caf%C3%A9.html</loc>\n    "
            "<lastmod>2024-05-06</lastmod>") in text
    assert "2020-01-01" not in text
    assert (site / "sitemap.txt").read_text("utf-8").splitlines() == _locs(site / "sitemap.xml")


def test_extra_sitemaps_make_an_index_and_robots_lines(tmp_path: Path) -> None:
    """The build writes an index naming its own part and the other tool's sitemap, names
    that sitemap in robots.txt too; without the option it goes back to one sitemap.xml."""
    site = _site(tmp_path / "site")
    assert main(["-q", "build", str(site), "--base-url", BASE, "--extra-sitemap", API]) == 0
    assert _locs(site / "sitemap.xml") == [f"{BASE}sitemap-1.xml", API]
    assert _locs(site / "sitemap-1.xml") == [BASE, f"{BASE}guide.html"]
    assert (site / "sitemap.txt").exists()  # the text sitemap names only our URLs
    assert (site / "robots.txt").read_text("utf-8") == (
        f"User-agent: *\nDisallow:\n\nSitemap: {BASE}sitemap.xml\nSitemap: {API}\n")
    assert main(["-q", "build", str(site), "--base-url", BASE]) == 0
    assert _locs(site / "sitemap.xml") == [BASE, f"{BASE}guide.html"]
    assert not (site / "sitemap-1.xml").exists()


def test_merge_names_other_tools_sitemaps_in_the_root_index(tmp_path: Path) -> None:
    """``merge --extra-sitemap`` names the other tool's sitemap after the builds'."""
    root = tmp_path / "root"
    _site(root / "v1")
    assert main(["-q", "build", str(root / "v1"), "--base-url", f"{BASE}v1/",
                 "--cache-dir", str(tmp_path / "cache")]) == 0
    assert main(["-q", "merge", str(root), "--base-url", BASE, "--extra-sitemap", API]) == 0
    assert _locs(root / "sitemap.xml") == [f"{BASE}v1/sitemap.xml", API]


@pytest.mark.integration
def test_mkdocs_takes_both_from_mkdocs_yml(tmp_path: Path) -> None:
    """A real MkDocs build: extra_urls as {url, lastmod} mappings, extra_sitemaps named in
    the index; a bad one has the command line's words."""
    config = (f"site_name: E\nsite_url: {BASE}\ntheme: mkdocs\nplugins:\n  - sitemap:\n"
              f"      extra_urls:\n        - {{url: '{BASE}app/', lastmod: 2024-05-06}}\n"
              f"      extra_sitemaps: ['{API}']\n")
    build = run_host(make_site(tmp_path / "good", config, {"index.md": "# Home\n"}), "--strict")
    assert build.returncode == 0, build.log
    assert _locs(build.site / "sitemap.xml") == [f"{BASE}sitemap-1.xml", API]
    assert _locs(build.site / "sitemap-1.xml") == [BASE, f"{BASE}app/"]
    bad = run_host(make_site(tmp_path / "bad", config.replace(f"{BASE}app/", "app/"),
                             {"index.md": "# Home\n"}))
    assert bad.returncode != 0
    assert ("Plugin 'sitemap' option 'extra_urls': Item 0: expected an absolute http(s) URL "
            "such as 'https://example.org/api/' (then a space and an optional lastmod) but "
            "received: 'app/' (str)") in bad.log, bad.log


@pytest.mark.integration
def test_mkdocs_serve_lists_only_the_dev_servers_urls(tmp_path: Path) -> None:
    """The dev server's base URL is not the site's: its sitemap leaves both options out
    instead of stopping the server."""
    project = make_site(tmp_path / "p", (
        f"site_name: S\nsite_url: {BASE}\ntheme: mkdocs\nplugins:\n  - sitemap:\n"
        f"      extra_urls: ['{BASE}app/']\n      extra_sitemaps: ['{API}']\n"),
        {"index.md": "# Home\n"})
    port = _free_port()
    server = _serve(project, port)
    try:
        served = _fetch(f"http://127.0.0.1:{port}/sitemap.xml").decode("utf-8")
    finally:
        log = _stop(server)
    assert re.findall(r"<loc>(.*?)</loc>", served) == [f"http://127.0.0.1:{port}/"], log


@pytest.mark.integration
def test_pelican_and_sphinx_take_both(tmp_path: Path) -> None:
    """SITEMAP_PLUGINS and sitemap_plugins take the same values and give the same words."""
    out = tmp_path / "pelican-out"
    build = pelican(copy_site(tmp_path / "pelican"), out, (
        'SITEMAP_PLUGINS={"extra_urls": ["https://blog.example.org/app/ 2024-05-06"], '
        '"extra_sitemaps": ["https://blog.example.org/api/sitemap.xml"]}'))
    assert build.returncode == 0, build.log
    assert _locs(out / "sitemap.xml") == ["https://blog.example.org/sitemap-1.xml",
                                          "https://blog.example.org/api/sitemap.xml"]
    assert _locs(out / "sitemap-1.xml")[-1] == "https://blog.example.org/app/"
    failed = sphinx_build(sample(tmp_path / "sphinx", (
        "sitemap_plugins['extra_sitemaps'] = ['https://docs.example.org/sample/sitemap.xml']")),
        tmp_path / "sphinx-out")
    assert failed.returncode == 1
    assert ("ERROR: sitemap_plugins['extra_sitemaps']: Item 0: expected another tool's sitemap, "
            "not one this build writes (an index names no index), but received: "
            "'https://docs.example.org/sample/sitemap.xml' (str)") in failed.log, failed.log
