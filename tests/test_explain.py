"""``sitemap-plugins explain``: every reason a page is left out, every source of its date."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from typing import TYPE_CHECKING

import pytest

from sitemap_plugins.cli import main
from tests.test_cli import BASE, make_traps

if TYPE_CHECKING:
    from pathlib import Path

LONG = "long/2049/"


def _explain(capsys: pytest.CaptureFixture[str], site: Path, page: str,
             *args: str) -> tuple[int, dict[str, object]]:
    capsys.readouterr()
    code = main(["explain", str(site), page, "--json", *args])
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def traps(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = make_traps(tmp_path_factory.mktemp("explain") / "site")
    assert main(["build", str(site), "--base-url", BASE, "--exclude", "q&a.html", "-q"]) == 0
    return site


@pytest.mark.parametrize(("page", "reason", "rule", "target"), [
    (".git", "hidden", "", ""),
    ("404.html", "404 page", "", ""),
    ("guide/404.html", "404 page", "", ""),
    ("moved.html", "redirect stub", "", "guide/install.html"),
    ("old/", "redirect stub", "", "../guide/"),
    ("meta-robots/noindex-follow.html", "noindex", "", ""),
    ("meta-robots/googlebot-none.html", "noindex", "", ""),
    ("canonical/duplicate.html", "canonical elsewhere", "",
     "https://example.org/canonical/original.html"),
    ("canonical/other-host.html", "canonical off the site", "", "https://other.example.net/x/"),
    ("private/secret.html", "disallowed by robots.txt", "", ""),
    ("https://example.org/private/secret.html", "disallowed by robots.txt", "", ""),
    ("q&a.html", "excluded by config", "q&a.html", ""),
    (LONG, "URL longer than 2,048 characters", "", ""),
], ids=["hidden", "404", "404-deep", "redirect", "redirect-folder", "noindex", "none",
        "canonical", "canonical-off-site", "robots", "robots-by-url", "exclude-glob", "too-long"])
def test_explain_says_why_a_page_is_left_out(traps: Path, capsys: pytest.CaptureFixture[str],
                                             page: str, reason: str, rule: str,
                                             target: str) -> None:
    """Each reason the trap site leaves a page out is told, with the glob or URL behind it."""
    if page == LONG:  # the one page below it, 2,049 characters long
        page = next(traps.glob(f"{LONG}**/index.html")).relative_to(traps).as_posix()
    code, found = _explain(capsys, traps, page)
    assert code == 0
    assert (found["listed"], found["reason"], found["rule"], found["target"]) == (
        False, reason, rule, target)
    assert found["sitemap_file"] == ""


@pytest.mark.parametrize(("page", "url", "lastmod", "source", "dates"), [
    ("blog/2024/hello.htm", "https://example.org/blog/2024/hello.htm",
     "2024-03-05T10:20:30+01:00", "page",
     [["modified", "2024-03-05T10:20:30+01:00", "page"],
      ["published", "2024-03-01T09:00:00+01:00", "page: published"]]),
    ("blog/2023/new-year.html", "https://example.org/blog/2023/new-year.html", "2023-01-02",
     "page: published", [["published", "2023-01-02", "page: published"]]),
    ("guide/", "https://example.org/guide/", "", "", []),
    ("https://example.org/q&a.html", "", "", "", []),
], ids=["modified-meta", "published-meta", "folder-no-date", "url-left-out"])
def test_explain_tells_a_listed_page_and_its_dates(
        traps: Path, capsys: pytest.CaptureFixture[str], page: str, url: str, lastmod: str,
        source: str, dates: list[list[str]]) -> None:
    """A listed page: its URL, the file that holds it, its lastmod and every date offered."""
    _, found = _explain(capsys, traps, page)
    assert (found["url"], found["lastmod"], found["lastmod_source"]) == (url, lastmod, source)
    assert [[d["kind"], d["value"], d["source"]] for d in found["dates"]] == dates  # type: ignore[attr-defined,index]
    assert found["sitemap_file"] == ("sitemap.xml" if url else "")


def test_explain_prints_lines(traps: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --json: one line for the decision, then the details."""
    assert main(["explain", str(traps), "blog/2024/hello.htm"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "blog/2024/hello.htm: listed as https://example.org/blog/2024/hello.htm in sitemap.xml",
        "  lastmod: 2024-03-05T10:20:30+01:00 from page",
        "  date offered: modified 2024-03-05T10:20:30+01:00 (page)",
        "  date offered: published 2024-03-01T09:00:00+01:00 (page: published)"]
    assert main(["explain", str(traps), "moved.html"]) == 0
    assert capsys.readouterr().out == "moved.html: not listed: redirect stub -> guide/install.html\n"
    assert main(["explain", str(traps), "nowhere.html"]) == 1
    assert "recorded no decision about it" in capsys.readouterr().out


def test_explain_file_time_manifest_and_split(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """File time and the manifest's change as sources; a split sitemap names its part."""
    site = make_traps(tmp_path / "site")
    args = ["build", str(site), "--base-url", BASE, "--lastmod-file-time", "--max-urls", "10",
            "-q"]
    assert main(args) == 0
    _, found = _explain(capsys, site, "about.html")
    assert (found["lastmod"], found["lastmod_source"]) == ("2024-06-01T00:00:00Z", "file time")
    assert found["dates"] == [{"kind": "file time", "value": "2024-06-01T00:00:00Z",
                               "source": "file time"}]
    assert str(found["sitemap_file"]).startswith("sitemap-")
    page = site / "about.html"
    page.write_text(page.read_text("utf-8").replace("</main>", "<p>New words.</p></main>"),
                    "utf-8")
    os.utime(page, (1_717_200_000, 1_717_200_000))
    assert main(args) == 0
    _, found = _explain(capsys, site, "about.html")
    assert found["lastmod_source"] == "manifest: changed"
    assert found["changed"] == found["lastmod"]
    assert found["dates"][0]["kind"] == "file time"  # type: ignore[index]


def test_explain_without_a_record_says_what_to_do(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """No record (fingerprint off): one line on stderr, exit 2."""
    site = make_traps(tmp_path / "site")
    assert main(["build", str(site), "--base-url", BASE, "--no-fingerprint", "-q"]) == 0
    capsys.readouterr()
    assert main(["explain", str(site), "about.html"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "no build record" in err
    assert "build again with fingerprint on" in err


@pytest.mark.integration
def test_explain_after_a_real_mkdocs_build(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """After ``mkdocs build``: the host's reasons, front matter and git dates, media."""
    pytest.importorskip("mkdocs")
    from tests.test_adapter_mkdocs import copy_sample, run_host  # noqa: PLC0415

    project = copy_sample(tmp_path / "project")
    env = {**os.environ, "GIT_AUTHOR_DATE": "2024-02-03T04:05:06Z",
           "GIT_COMMITTER_DATE": "2024-02-03T04:05:06Z"}
    git = shutil.which("git") or "git"
    for command in (["init", "-q"], ["add", "."],
                    ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"]):
        subprocess.run([git, *command], cwd=project, env=env, check=True)
    build = run_host(project)
    assert build.returncode == 0, build.log
    site = build.site
    left_out = {
        "hidden/": "front matter sitemap: false",
        "private/": "noindex",
        "drafts/plan/": "disallowed by robots.txt",
        "fr/guide/install/": "i18n fallback copy of an untranslated page",
        "setup/": "redirect stub",
        "404.html": "404 page",
        "static/report.html": "static HTML copied from docs_dir",
    }
    for page, reason in left_out.items():
        _, found = _explain(capsys, site, page)
        assert (found["listed"], found["reason"]) == (False, reason), page
    _, tuning = _explain(capsys, site, "https://example.org/project/guide/advanced/tuning/")
    assert (tuning["lastmod"], tuning["lastmod_source"]) == ("2023-12-24", "explicit")
    kinds = {d["kind"] for d in tuning["dates"]}  # type: ignore[attr-defined]
    assert {"explicit", "git: added"} <= kinds
    _, news = _explain(capsys, site, "news/")
    assert news["lastmod"] == "2024-05-06"
    _, about = _explain(capsys, site, "about/")
    assert (about["lastmod"], about["lastmod_source"]) == ("2024-02-03T04:05:06Z", "host")
    assert [d["kind"] for d in about["dates"]] == ["git: added"]  # type: ignore[attr-defined]
    _, media = _explain(capsys, site, "media/")
    assert media["sitemap_file"] == "sitemap.xml"
    assert media["images"]
    assert media["videos_left_out"]


def test_explain_json_shape_is_documented(traps: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every key ``explain --json`` adds to the envelope is in docs/json-summary.md, in order."""
    from tests.test_cli import ROOT  # noqa: PLC0415

    text = (ROOT / "docs" / "json-summary.md").read_text("utf-8")
    table = text.split("`explain` (what the last build", 1)[1].split("\n\n", 2)[1]
    documented = [key for row in table.splitlines()[2:]
                  for key in row.split("|")[1].strip().strip("`").split("`, `")]
    _, found = _explain(capsys, traps, "about.html")
    assert list(found)[list(found).index("diagnostics_not_shown") + 1:] == documented


def test_explain_finds_a_hosts_cache_folders_up(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Sphinx keeps the cache beside conf.py, two folders above _build/html: found there,
    past a damaged manifest of another site."""
    site = make_traps(tmp_path / "docs" / "_build" / "html")
    cache = tmp_path / "docs" / ".sitemap-cache"
    assert main(["build", str(site), "--base-url", BASE, "--cache-dir", str(cache), "-q"]) == 0
    (cache / "lastmod-manifest-other-0123456789ab.sqlite").write_bytes(b"not SQLite")
    code, found = _explain(capsys, site, "404.html")
    assert (code, found["reason"]) == (0, "404 page")


def test_explain_template_include_rules_and_media_dropped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A template file, a page no include glob matches, a rule applied, media dropped to fit."""
    from tests.test_cli import WEBPACK_MACROS  # noqa: PLC0415

    site = tmp_path / "site"
    images = "".join(f'<img src="/img/{"x" * 150}-{n}.png" alt="{n}">' for n in range(120))
    for name, text in (
            ("docs/index.html", "<html><body><main><p>Docs.</p></main></body></html>"),
            ("docs/_static/webpack-macros.html", WEBPACK_MACROS),
            ("docs/gallery.html", f"<html><body><main><p>Gallery.</p>{images}</main></body></html>"),
            ("blog/post.html", "<html><body><main><p>Post.</p></main></body></html>")):
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, "utf-8")
    assert main(["build", str(site), "--base-url", BASE, "--include", "docs/**",
                 "--changefreq", "docs/**=weekly", "--max-bytes", "16384", "-q"]) == 0
    assert _explain(capsys, site, "docs/_static/webpack-macros.html")[1]["reason"] == (
        "template file (not a page)")
    assert _explain(capsys, site, "blog/post.html")[1]["reason"] == "not included by config"
    code, found = _explain(capsys, site, "sitemap.xml")  # not a page: nothing recorded
    assert (code, found["recorded"], found["ok"]) == (1, False, False)
    _, gallery = _explain(capsys, site, "docs/gallery.html")
    assert gallery["rules"] == [{"option": "changefreq", "glob": "docs/**", "value": "weekly"}]
    assert gallery["images"] == 0
    assert any("listed without them" in note for note in gallery["notes"])  # type: ignore[attr-defined]
