"""``--json``: one JSON object on stdout per run, its counts matching the files written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sitemap_plugins.cli import main

ROOT = Path(__file__).resolve().parents[1]
TRAPS = ROOT / "sample_sites" / "traps"
BASE = "https://example.org/"
ENVELOPE = ["schema", "command", "ok", "seconds", "warnings", "diagnostics",
            "diagnostics_not_shown"]


def _traps(folder: Path) -> Path:
    subprocess.run([sys.executable, str(TRAPS / "make_site.py"), "--out", str(folder)],
                   check=True, capture_output=True)
    return folder


def _one_object(out: str) -> dict[str, object]:
    lines = out.splitlines()
    assert len(lines) == 1, out  # nothing else on stdout: a script can parse it whole
    report = json.loads(lines[0])
    assert isinstance(report, dict)
    assert list(report)[:len(ENVELOPE)] == ENVELOPE
    assert report["schema"] == "sitemap-plugins/report/1"
    return report


def test_build_json_counts_match_the_sitemap(tmp_path: Path, sitemap_urls, capsys) -> None:
    """build --json reports as many URLs as sitemap.xml holds, the left-out reasons and files."""
    site = _traps(tmp_path / "site")
    assert main(["build", str(site), "--base-url", BASE, "--json"]) == 0
    out, err = capsys.readouterr()
    report = _one_object(out)
    urls = sitemap_urls(site)
    assert report["command"] == "build"
    assert report["ok"] is True
    assert report["listed"] == len(urls)
    assert report["sitemap_url"] == BASE + "sitemap.xml"
    left_out = report["left_out"]
    assert isinstance(left_out, dict)
    assert left_out["noindex"] == 3
    assert left_out["redirect stub"] == 2
    assert report["left_out_total"] == sum(left_out.values())
    assert "sitemap.xml" in report["files"]
    for name in report["files"]:
        assert (site / name).is_file()
    diagnostics = report["diagnostics"]
    assert isinstance(diagnostics, list)
    assert report["warnings"] == sum(1 for d in diagnostics if d["level"] == "warning") > 0
    assert any("points off the site" in d["message"] for d in diagnostics)
    assert "points off the site" in err  # the human lines still go to stderr
    assert isinstance(report["seconds"], float)


def test_check_json_lists_problems(tmp_path: Path, capsys) -> None:
    """check --json says ok with the URLs checked, then ok false with each problem by file."""
    site = _traps(tmp_path / "site")
    assert main(["-q", "build", str(site), "--base-url", BASE]) == 0
    capsys.readouterr()
    assert main(["check", str(site), "--base-url", BASE, "--json"]) == 0
    report = _one_object(capsys.readouterr().out)
    listed = (site / "sitemap.xml").read_text("utf-8").count("<loc>")
    assert (report["command"], report["ok"], report["problems"]) == ("check", True, [])
    assert report["checked"] == listed
    sitemap = site / "sitemap.xml"
    sitemap.write_text(sitemap.read_text("utf-8").replace(
        "<loc>https://example.org/", "<loc>https://elsewhere.example/", 1), "utf-8")
    assert main(["check", str(site), "--base-url", BASE, "--json"]) == 1
    out, err = capsys.readouterr()
    report = _one_object(out)
    assert report["ok"] is False
    problems = report["problems"]
    assert isinstance(problems, list)
    assert problems
    assert any(p["file"] == "sitemap.xml" and "elsewhere.example" in p["message"]
               for p in problems)
    assert problems[0]["message"] in err


def test_json_on_a_bad_option_says_why(tmp_path: Path, capsys) -> None:
    """A bad option under --json gives exit 2, ok false and the same message as stderr."""
    (tmp_path / "index.html").write_text("<title>x</title>", "utf-8")
    assert main(["build", str(tmp_path), "--base-url", BASE, "--max-urls", "lots",
                 "--json"]) == 2
    out, err = capsys.readouterr()
    report = _one_object(out)
    assert report["ok"] is False
    assert report["errors"] == [err.strip()]
    assert report["errors"][0].startswith("error: --max-urls:")
