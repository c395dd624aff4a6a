"""``llms_txt`` (products/html_map/llms_txt.py): llms.txt beside the sitemap, in every host."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from sitemap_plugins.cli import main
from sitemap_plugins.products.html_map.llms_txt import render_llms_txt
from sitemap_plugins.products.html_map.plan import HtmlEntry, NavNode
from sitemap_plugins.vocab.errors import ConfigError
from sitemap_plugins.vocab.options import SitemapConfig
from tests.test_adapter_mkdocs import make_site, run_host
from tests.test_adapter_pelican import copy_site, pelican
from tests.test_adapter_sphinx import sample, sphinx_build
from tests.test_cli import BASE, make_traps

if TYPE_CHECKING:
    from collections.abc import Callable

BAD_BOOL = "Expected a boolean but received: 'sometimes' (str)"
_LINK = re.compile(r"^- \[(?:[^\]\\]|\\.)*\]\((\S+?)\)(?::|$)", re.MULTILINE)


def links(text: str) -> list[str]:
    """The URLs an llms.txt links, as the sitemap spells them."""
    return [url.replace("%28", "(").replace("%29", ")") for url in _LINK.findall(text)]


def test_the_file_is_llmstxt_org_shaped() -> None:
    """H1 site name, the home page's description quoted, top pages, an H2 per section."""
    entries = [
        HtmlEntry(BASE, "index.html", "Welcome", notes="All about\n  widgets.",
                  site="Welcome - Widget Docs"),
        HtmlEntry(f"{BASE}about.html", "about.html", "About [us]"),
        HtmlEntry(f"{BASE}guide/", "guide/index.html", "Guide", notes="Start here"),
        HtmlEntry(f"{BASE}guide/a(b.html", "guide/a(b.html", "Odd"),
        HtmlEntry(f"{BASE}api/x.html", "api/x.html", "X"),
    ]
    text = render_llms_txt(entries, BASE, depth=0)
    assert text == (
        "# Widget Docs\n\n> All about widgets.\n\n"
        f"- [Welcome]({BASE}): All about widgets.\n- [About \\[us\\]]({BASE}about.html)\n\n"
        f"## api\n\n- [X]({BASE}api/x.html)\n\n"
        f"## Guide\n\n- [Guide]({BASE}guide/): Start here\n- [Odd]({BASE}guide/a%28b.html)\n\n"
        "<!-- sitemap-plugins: llms.txt -->\n")
    # The host's navigation names and orders the sections, as in the HTML site map.
    outline = (NavNode("Reference", None, (NavNode(None, "api/x.html"),)),)
    assert "## Reference\n\n- [X]" in render_llms_txt(entries, BASE, depth=0, outline=outline)
    # No home page: the site is named by its host.
    assert render_llms_txt(entries[1:2], BASE, depth=0).startswith("# example.org\n\n- [")


def test_cli_lists_exactly_the_sitemaps_urls_and_keeps_a_users_file(
        tmp_path: Path, sitemap_urls: Callable[..., list[str]], capsys) -> None:
    """llms.txt links every URL the sitemap lists (the HTML site map's under Optional); a
    build without the option removes its own file; a user's llms.txt is never replaced."""
    site = make_traps(tmp_path / "site")
    assert main(["-q", "build", str(site), "--base-url", BASE, "--llms-txt",
                 "--html-sitemap", "sitemap/"]) == 0
    text = (site / "llms.txt").read_text("utf-8")
    assert sorted(links(text)) == sorted(sitemap_urls(site))
    assert "\n## Optional\n\n- [Site map](https://example.org/sitemap/)" in text
    assert main(["-q", "build", str(site), "--base-url", BASE]) == 0
    assert not (site / "llms.txt").exists()
    (site / "llms.txt").write_text("# Mine\n", "utf-8")
    capsys.readouterr()
    assert main(["-q", "build", str(site), "--base-url", BASE, "--llms-txt"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "llms.txt: is already in the site and was not written by sitemap-plugins" in err
    assert (site / "llms.txt").read_text("utf-8") == "# Mine\n"
    assert main(["-q", "build", str(site), "--base-url", BASE, "--llms-txt"]) == 1
    assert main(["-q", "build", str(site), "--base-url", BASE]) == 0  # not ours: it stays
    assert (site / "llms.txt").read_text("utf-8") == "# Mine\n"
    assert main(["-q", "build", str(site), "--base-url", BASE, "--llms-txt",
                 "--replace-files"]) == 0
    assert links((site / "llms.txt").read_text("utf-8"))


def test_a_bad_value_has_the_option_tables_words() -> None:
    """A value that is no boolean stops the build, in the words of every other bool option."""
    with pytest.raises(ConfigError) as caught:
        SitemapConfig.from_mapping({"base_url": BASE, "llms_txt": "sometimes"})
    with pytest.raises(ConfigError) as other:
        SitemapConfig.from_mapping({"base_url": BASE, "gzip": "sometimes"})
    assert caught.value.option == "llms_txt"
    assert caught.value.message == other.value.message == BAD_BOOL


def test_a_sitemap_name_whose_text_sitemap_is_llms_txt_is_refused() -> None:
    """sitemap_name 'llms' would write its text sitemap where llms.txt goes: one clear error."""
    with pytest.raises(ConfigError) as caught:
        SitemapConfig.from_mapping({"base_url": BASE, "llms_txt": True, "sitemap_name": "LLMS"})
    assert (caught.value.option, caught.value.message) == ("sitemap_name", (
        "Expected a name whose files are not llms.txt (llms_txt is on) but received: 'LLMS' "
        "(str)"))
    assert SitemapConfig.from_mapping({"base_url": BASE, "sitemap_name": "llms"}).text


def test_it_is_never_listed_and_goes_with_the_last_page(tmp_path: Path, capsys) -> None:
    """llms.txt is not a page of the site even where .txt files are listed, and a build that
    lists nothing removes it (it would name pages that are gone)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<title>Home</title><h1>Home</h1>", "utf-8")
    (site / "notes.txt").write_text("notes\n", "utf-8")
    assert main(["-q", "build", str(site), "--base-url", BASE, "--llms-txt",
                 "--extension", ".html", "--extension", ".txt"]) == 0
    assert (site / "sitemap.txt").read_text("utf-8") == f"{BASE}\n{BASE}notes.txt\n"
    assert links((site / "llms.txt").read_text("utf-8")) == [BASE, f"{BASE}notes.txt"]
    (site / "index.html").unlink()
    (site / "notes.txt").unlink()
    assert main(["-q", "build", str(site), "--base-url", BASE, "--llms-txt"]) == 0
    assert not (site / "llms.txt").exists()


@pytest.mark.integration
def test_mkdocs_writes_it_named_by_site_name(
        tmp_path: Path, sitemap_urls: Callable[..., list[str]]) -> None:
    """A real MkDocs build: the site's name heads it and every listed URL is linked once."""
    project = make_site(tmp_path / "project", (
        "site_name: Widget Docs\nsite_url: https://example.org/\ntheme: mkdocs\n"
        "plugins:\n  - sitemap:\n      llms_txt: true\n"),
        {"index.md": "# Home\n", "guide/index.md": "# Guide\n", "guide/install.md": "# Install\n"})
    build = run_host(project, "--strict")
    assert build.returncode == 0, build.log
    text = (build.site / "llms.txt").read_text("utf-8")
    assert text.startswith("# Widget Docs\n")
    assert sorted(links(text)) == sorted(sitemap_urls(build.site))
    bad = make_site(tmp_path / "bad", "site_name: B\nsite_url: https://example.org/\n"
                    "plugins:\n  - sitemap:\n      llms_txt: sometimes\n", {"index.md": "# H\n"})
    failed = run_host(bad)
    assert failed.returncode != 0
    assert f"Plugin 'sitemap' option 'llms_txt': {BAD_BOOL}" in failed.log, failed.log


@pytest.mark.integration
def test_pelican_writes_it_grouped_by_category(
        tmp_path: Path, sitemap_urls: Callable[..., list[str]]) -> None:
    """A real Pelican build: named by SITENAME, sections as the HTML site map's (the blog,
    categories with their articles, then pages)."""
    out = tmp_path / "out"
    build = pelican(copy_site(tmp_path / "source"), out, 'SITEMAP_PLUGINS={"llms_txt": true}')
    assert build.returncode == 0, build.log
    text = (out / "llms.txt").read_text("utf-8")
    assert text.startswith("# Example Blog\n")  # SITENAME
    assert sorted(links(text)) == sorted(sitemap_urls(out))
    headings = re.findall(r"^## (.*)$", text, re.MULTILINE)
    assert headings[:4] == ["Example Blog", "Code", "Food & Drink", "Travel"]
    failed = pelican(copy_site(tmp_path / "bad"), tmp_path / "bad-out",
                     'SITEMAP_PLUGINS={"llms_txt": "sometimes"}')
    assert failed.returncode != 0
    assert (f"SITEMAP_PLUGINS['llms_txt']: {BAD_BOOL}") in failed.log, failed.log


@pytest.mark.integration
def test_sphinx_writes_it(tmp_path: Path, sitemap_urls: Callable[..., list[str]]) -> None:
    """A real Sphinx build: llms.txt beside the sitemap, linking exactly its URLs."""
    out = tmp_path / "out"
    build = sphinx_build(sample(tmp_path, "sitemap_plugins['llms_txt'] = True"), out)
    assert build.returncode == 0, build.log
    text = (out / "llms.txt").read_text("utf-8")
    assert text.startswith("# Sample Docs\n")  # the project's name
    assert sorted(links(text)) == sorted(sitemap_urls(out))
    failed = sphinx_build(sample(tmp_path / "bad", "sitemap_plugins['llms_txt'] = 'sometimes'"),
                          tmp_path / "bad-out")
    assert failed.returncode == 1
    assert f"ERROR: sitemap_plugins['llms_txt']: {BAD_BOOL}" in failed.log, failed.log
