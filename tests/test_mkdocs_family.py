"""MkDocs-family projects built without our plugin (Zensical, MkDocs 2.0, ProperDocs).

``sitemap-plugins build`` run in the project's folder after the host's own build reads the
config file, maps each built page to its Markdown source and dates it as the MkDocs plugin
does: the reference is ``mkdocs build`` with ``plugins: [sitemap]`` on the same project.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from sitemap_plugins.cli import main
from sitemap_plugins.hosts.mkdocs_family import page_sources, read_config

BASE = "https://example.org/demo/"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.org",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.org",
}
MKDOCS_YML = f"""site_name: Demo
site_url: {BASE}
markdown_extensions:
  - pymdownx.snippets:
      base_path: [snippets]
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
plugins:
  - sitemap
  - mkdocstrings:
      handlers:
        python:
          paths: [src]
"""


def _git(repo: Path, *args: str, when: str | None = None) -> None:
    env = {**os.environ, **GIT_ENV}
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = when
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, "utf-8")


def _commit(repo: Path, files: dict[str, str], when: str) -> None:
    _write(repo, files)
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", when, when=f"{when}T00:00:00+00:00")


def _project(root: Path, config: str = MKDOCS_YML, name: str = "mkdocs.yml") -> Path:
    """A project whose pages were committed on different days, in a repository of its own."""
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    _commit(root, {name: config, "docs/index.md": "# Home\n", "docs/about.md": "# About\n",
                   "docs/guide/README.md": "# Guide\n", "docs/guide/install.md": "# Install\n",
                   "docs/hidden.md": "---\nsitemap: false\n---\n# Hidden\n",
                   "docs/uses.md": '# Uses\n\n--8<-- "part.md"\n',
                   "snippets/part.md": "A part.\n", "docs/api.md": "# API\n\n::: pkg.mod\n",
                   "src/pkg/__init__.py": "", "src/pkg/mod.py": '"""Mod."""\n'}, "2023-01-01")
    _commit(root, {"docs/about.md": "# About\n\nMore.\n"}, "2023-03-05")
    _commit(root, {"docs/guide/install.md": "# Install\n\nSteps.\n"}, "2023-04-10")
    _commit(root, {"snippets/part.md": "A changed part.\n"}, "2023-06-20")  # dates uses.md
    _commit(root, {"src/pkg/mod.py": '"""Module."""\n'}, "2023-08-30")  # dates api.md
    return root


def _lastmods(site: Path) -> dict[str | None, str | None]:
    root = etree.parse(str(site / "sitemap.xml")).getroot()
    return {url.findtext("s:loc", namespaces=NS): url.findtext("s:lastmod", namespaces=NS)
            for url in root.iterfind("s:url", NS)}


def _host(tool: str, project: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    env.update(GIT_ENV, NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true",
               GIT_CEILING_DIRECTORIES=str(project.parent))
    done = subprocess.run([sys.executable, "-m", tool, "build", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


REFERENCE = {
    BASE: "2023-01-01T00:00:00Z",
    f"{BASE}about/": "2023-03-05T00:00:00Z",
    f"{BASE}guide/": "2023-01-01T00:00:00Z",
    f"{BASE}guide/install/": "2023-04-10T00:00:00Z",
    f"{BASE}uses/": "2023-06-20T00:00:00Z",
    f"{BASE}api/": "2023-08-30T00:00:00Z",
}


@pytest.mark.integration
def test_zensical_build_then_cli_gives_the_mkdocs_plugins_sitemap(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """``zensical build`` then ``sitemap-plugins build`` with no argument: exit 0, and the URLs
    and git lastmods that ``mkdocs build`` with the plugin gives, Zensical's sitemap replaced
    without --replace-files (it needs the core to know another generator's sitemap)."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("zensical")
    project = _project(tmp_path / "project")
    reference = tmp_path / "reference"
    _git(tmp_path, "clone", "-q", str(project), str(reference))  # same history, own cache
    _host("mkdocs", reference, "-q")
    assert _lastmods(reference / "site") == REFERENCE
    _host("zensical", project)
    assert (project / "site" / "sitemap.xml").read_bytes().count(b"<lastmod>") == 0
    monkeypatch.chdir(project)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    assert main(["build", "-q"]) == 0
    assert _lastmods(project / "site") == REFERENCE


@pytest.mark.integration
def test_properdocs_build_without_the_plugin_then_cli(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """ProperDocs (MkDocs 1.x) without the plugin writes its own sitemap with the build date;
    ``sitemap-plugins build`` replaces it with the plugin's URLs and git dates. properdocs.yml
    is read without importing its ``!!python/name:`` tags."""
    pytest.importorskip("properdocs")
    config = MKDOCS_YML.replace("  - sitemap\n", "") + "theme:\n  name: material\n"
    project = _project(tmp_path / "project", config, "properdocs.yml")
    _host("properdocs", project, "-q")
    assert b"<lastmod>" in (project / "site" / "sitemap.xml").read_bytes()  # the build date
    monkeypatch.chdir(project)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    assert main(["build", "-q"]) == 0
    assert _lastmods(project / "site") == REFERENCE


@pytest.mark.integration
def test_zensical_toml_names_site_url_folders_and_own_options(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """zensical.toml named with --config from another folder: site_dir, use_directory_urls
    and snippets' base_path (from the config's folder) from [project], our options from
    [project.plugins.sitemap]; pages ``a.html`` without directory URLs (listed as MkDocs lists
    them then, ``index.html`` included), with their git dates."""
    config = (f'[project]\nsite_name = "Demo"\nsite_url = "{BASE}"\nsite_dir = "public"\n'
              'use_directory_urls = false\n\n[project.plugins.sitemap]\ngzip = false\n\n'
              '[project.markdown_extensions.pymdownx.snippets]\nbase_path = ["snippets"]\n\n'
              '[project.plugins.mkdocstrings.handlers.python]\npaths = ["src"]\n')
    project = _project(tmp_path / "project", config, "zensical.toml")
    out = project / "public"
    _write(out, {"index.html": "<title>Home</title>", "about.html": "<title>About</title>",
                 "guide/index.html": "<title>Guide</title>",
                 "guide/install.html": "<title>Install</title>", "uses.html": "<title>U</title>",
                 "api.html": "<title>API</title>"})
    monkeypatch.chdir(tmp_path)  # elsewhere: snippets are found from the config's folder
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    assert main(["build", "-q", "--config", "project/zensical.toml"]) == 0, capsys.readouterr()
    assert _lastmods(out) == {
        f"{BASE}index.html": "2023-01-01T00:00:00Z", f"{BASE}about.html": "2023-03-05T00:00:00Z",
        f"{BASE}guide/index.html": "2023-01-01T00:00:00Z",
        f"{BASE}guide/install.html": "2023-04-10T00:00:00Z",
        f"{BASE}uses.html": "2023-06-20T00:00:00Z", f"{BASE}api.html": "2023-08-30T00:00:00Z"}
    assert not (out / "sitemap.xml.gz").exists()


@pytest.mark.integration
def test_mkdocs_2_without_config_takes_folders_as_options(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """MkDocs 2.0 has no config for us: ``--docs-dir`` and the site folder date the pages."""
    project = _project(tmp_path / "project")
    (project / "mkdocs.yml").unlink()
    out = tmp_path / "built"
    _write(out, {"index.html": "<title>Home</title>", "about/index.html": "<title>A</title>"})
    os.environ["GIT_CEILING_DIRECTORIES"] = str(tmp_path)
    try:
        code = main(["build", str(out), "--docs-dir", str(project / "docs"),
                     "--base-url", BASE, "-q", "--cache-dir", str(tmp_path / "cache")])
    finally:
        del os.environ["GIT_CEILING_DIRECTORIES"]
    assert code == 0, capsys.readouterr().err
    assert _lastmods(out) == {BASE: "2023-01-01T00:00:00Z",
                              f"{BASE}about/": "2023-03-05T00:00:00Z"}


@pytest.mark.parametrize(("directory_urls", "expected"), [
    (True, {"index.html": "index.md", "a/index.html": "a.md", "sub/index.html": "sub/index.md",
            "sub/b/index.html": "sub/b.markdown", "readme/index.html": "readme/README.md"}),
    (False, {"index.html": "index.md", "a.html": "a.md", "sub/index.html": "sub/index.md",
             "sub/b.html": "sub/b.markdown", "readme/index.html": "readme/README.md"}),
], ids=["directory-urls", "file-urls"])
def test_page_sources_name_outputs_as_mkdocs_does(
        tmp_path: Path, directory_urls: bool, expected: dict[str, str]):
    """index and README are their folder's page (index wins over README); dot names and
    files that are not Markdown have no page."""
    _write(tmp_path, dict.fromkeys((
        "index.md", "a.md", "sub/index.md", "sub/README.md", "sub/b.markdown",
        "readme/README.md", ".hidden.md", ".git/x.md", "image.png", "raw.html"), "# x\n"))
    assert page_sources(str(tmp_path), directory_urls=directory_urls) == expected


def test_yaml_config_is_read_without_importing_its_tags(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """properdocs.yml: ``!!python/name:`` of a module not installed is kept as text, ``!ENV``
    is resolved (its default when unset), INHERIT merges the parent's settings."""
    _write(tmp_path, {
        "base.yml": "site_dir: out\nplugins:\n  - sitemap:\n      gzip: false\n",
        "properdocs.yml": "INHERIT: base.yml\nsite_name: x\n"
                          "site_url: !ENV [NO_SUCH_VARIABLE_SET, 'https://fallback.example/']\n"
                          "markdown_extensions:\n  - pymdownx.emoji:\n"
                          "      emoji_index: !!python/name:not_installed_anywhere.twemoji\n"})
    monkeypatch.delenv("NO_SUCH_VARIABLE_SET", raising=False)
    family = read_config(str(tmp_path / "properdocs.yml"))
    assert family.site_url == "https://fallback.example/"
    assert family.site_dir == str(tmp_path / "out")
    assert family.options == {"gzip": False}
    assert family.mdx_configs["pymdownx.emoji"] == {
        "emoji_index": "!!python/name:not_installed_anywhere.twemoji"}


@pytest.mark.parametrize(("files", "args", "message"), [
    ({}, [], ("error: sitemap-plugins build: no SITE_DIR given, and no zensical.toml, "
              "mkdocs.yml, mkdocs.yaml, properdocs.yml in this folder")),
    ({"zensical.toml": '[project]\nsite_name = "x"\nsite_url = "https://e.org/"\n'
                       "[project.plugins.sitemap]\ngzipp = true\n"}, [],
     ("error: zensical.toml: [project.plugins.sitemap]['gzipp']: Unrecognised option. "
      "Did you mean 'gzip'?")),
    ({"mkdocs.yml": "site_name: x\nsite_url: https://e.org/\nplugins:\n  - sitemap:\n"
                    "      priority: high\n"}, [],
     "error: mkdocs.yml: plugins.sitemap['priority']: "),
    ({"mkdocs.yml": "site_name: x\n"}, [],
     "error: --base-url: required: the site's public URL (no site_url in mkdocs.yml)"),
    ({"mkdocs.yml": "site_name: [x\n"}, [], "error: mkdocs.yml: cannot be read: "),
    ({"conf/zensical.toml": "[project\n"}, ["--config", "conf/zensical.toml"],
     "error: zensical.toml: cannot be read: "),
], ids=["nothing", "unknown-option", "bad-value", "no-site-url", "bad-yaml", "bad-toml"])
def test_config_problems_are_one_line_and_exit_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        files: dict[str, str], args: list[str], message: str):
    """A missing or bad config file stops the build with one line naming the file and key."""
    _write(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    assert main(["build", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message), err
    assert err.count("\n") == 1


def test_yaml_config_without_pyyaml_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """Without PyYAML a YAML config gets one line saying what to install."""
    _write(tmp_path, {"mkdocs.yml": "site_name: x\n"})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "yaml", None)
    monkeypatch.setitem(sys.modules, "zensical.config", None)
    assert main(["build"]) == 2
    assert capsys.readouterr().err == (
        "error: mkdocs.yml: PyYAML is needed to read mkdocs.yml: pip install pyyaml\n")


def test_site_dir_argument_keeps_the_plain_folder_behaviour(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """With SITE_DIR and no --config the config file beside it is not read (as before)."""
    _write(tmp_path, {"mkdocs.yml": "site_name: x\nsite_url: https://other.example/\n",
                      "out/index.html": "<title>x</title>"})
    monkeypatch.chdir(tmp_path)
    assert main(["build", "out", "--base-url", BASE, "-q"]) == 0
    assert list(_lastmods(tmp_path / "out")) == [BASE]
    shutil.rmtree(tmp_path / "out")


def test_html_sitemap_follows_the_configs_nav(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """The HTML site map groups pages by the config's ``nav``: its section titles and order."""
    _write(tmp_path, {
        "mkdocs.yml": f"site_name: x\nsite_url: {BASE}\nnav:\n  - Start: index.md\n"
                      "  - Handbook:\n    - guide/install.md\n  - Elsewhere: https://e.org/\n"
                      "plugins:\n  - sitemap:\n      html_sitemap: map/\n",
        "docs/index.md": "# Home\n", "docs/guide/install.md": "# Install\n",
        "site/index.html": "<html><head><title>Home</title></head><body>Home</body></html>",
        "site/guide/install/index.html":
            "<html><head><title>Install</title></head><body>Install</body></html>"})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert main(["build", "-q", "--replace-files"]) == 0, capsys.readouterr()
    text = (tmp_path / "site" / "map" / "index.html").read_text("utf-8")
    assert "Handbook" in text
    assert text.index("Start") < text.index("Handbook") < text.index("Install")
