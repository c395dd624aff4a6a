"""``merge`` over Read the Docs' layout, ``<language>/<version>/``, with small CLI-built sites.

The same tree built by real ``sphinx-build`` runs is in ``test_adapter_sphinx.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_merge import BASE, build, page, run, write_pages


def tree(root: Path, folders: list[str]) -> Path:
    """A root with one small build in each folder, made for its own URL."""
    for folder in folders:
        write_pages(root / folder, {"index.html": page(folder)})
        build(root / folder, f"{BASE}{folder}/", root.parent / "cache" / folder)
    return root


def offered(root: Path) -> list[str]:
    index = (root / "sitemap.xml").read_text("utf-8")
    return [line.strip()[len("<loc>" + BASE):-len("/sitemap.xml</loc>")]
            for line in index.splitlines() if line.strip().startswith("<loc>")]


@pytest.mark.parametrize(("folders", "args", "expected"), [
    (["en/latest", "en/stable", "en/2.0", "pt-br/latest", "zh_CN/2.0"], [],
     ["en/latest", "pt-br/latest"]),
    (["en/latest", "en/stable", "en/2.0", "pt-br/latest"], ["--versions", "2.*",
                                                            "--versions", "stable"],
     ["en/2.0", "en/stable"]),
    (["en/latest", "blog/latest"], [], ["blog/latest", "en/latest"]),  # blog: no language
    (["en/latest", "en/guides/a"], [], ["en/guides/a", "en/latest"]),  # deeper: not the layout
    (["en/guides", "fr/guides"], [], ["en/guides", "fr/guides"]),  # no latest nor stable
], ids=["default", "chosen", "not-a-language", "deeper", "no-version-names"])
def test_read_the_docs_layout(tmp_path: Path, capsys, folders: list[str], args: list[str],
                              expected: list[str]) -> None:
    """Only builds all at ``<language>/<version>/``, one named latest or stable, are taken for
    Read the Docs' versions: the chosen ones are offered in every language, the others kept."""
    root = tree(tmp_path / "public", folders)
    code, out, err = run(["merge", str(root), "--base-url", BASE, *args], capsys)
    assert code == 0, err
    assert offered(root) == expected
    others = sorted(set(folders) - set(expected))
    assert ("Not offered to crawlers" in out) == bool(others)
    for folder in others:
        assert folder in out
        assert (root / folder / "sitemap.xml").is_file()


@pytest.mark.parametrize(("folders", "args", "line"), [
    (["en/stable", "fr/stable"], [],
     ("error: --versions: No <language>/<version>/ folder has the version 'latest'; name the "
     "versions to offer to crawlers with --versions (known: stable)")),
    (["en/latest", "en/1.0"], ["--versions", "3.*"],
     ("error: --versions: Expected versions of the <language>/<version>/ folders (1.0, latest) "
     "but received: '3.*'")),
    (["en/latest", "blog"], ["--versions", "latest"],
     ("error: --versions: Applies only to a folder with mike's versions.json or Read the Docs' "
     "<language>/<version>/ builds, and ")),
], ids=["no-latest", "unknown", "not-the-layout"])
def test_read_the_docs_bad_versions(tmp_path: Path, capsys, folders: list[str], args: list[str],
                                    line: str) -> None:
    """A version that names nothing is a usage error listing the versions; nothing written."""
    root = tree(tmp_path / "public", folders)
    code, _, err = run(["merge", str(root), "--base-url", BASE, *args], capsys)
    assert code == 2
    assert err.startswith(line), err
    assert not (root / "sitemap.xml").exists()
