"""The documentation site: built by MkDocs with this project's own plugin, its sitemap checked."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from lxml import html as lxml_html

from sitemap_plugins.products.check.checker import check_site
from sitemap_plugins.vocab.options import OPTIONS, SitemapConfig

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
BASE = "https://sitemap-plugins.example.org/"


@pytest.fixture(scope="module")
def docs_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("docs") / "site"
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
         "-d", str(site)],
        capture_output=True, text=True, check=False, cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert run.returncode == 0, run.stdout + run.stderr
    return site


@pytest.mark.integration
def test_docs_sitemap_lists_exactly_the_pages(docs_site: Path, sitemap_urls) -> None:
    """The docs' sitemap is XSD-valid and lists one URL per Markdown page and the HTML site
    map, and nothing else."""
    expected = sorted([
        *(BASE + ("" if page.stem == "index" else page.with_suffix("").name + "/")
          for page in DOCS.glob("*.md")), BASE + "sitemap/"])
    assert sorted(sitemap_urls(docs_site)) == expected


@pytest.mark.integration
def test_docs_html_sitemap_follows_the_nav(docs_site: Path) -> None:
    """The docs' own HTML site map (dogfooding) links every page once, in mkdocs.yml's nav
    order and with its titles, inside the Material page."""
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))["nav"]
    titles = [next(iter(item)) for item in nav]
    page = lxml_html.fromstring((docs_site / "sitemap" / "index.html").read_bytes())
    shown = page.xpath('//*[@class="sitemap-plugins-html-sitemap"]/ul/li/a/text()')
    assert shown == [title for title in titles if title != "Site map"]
    assert page.xpath('//header[contains(@class, "md-header")]')
    home = lxml_html.fromstring((docs_site / "index.html").read_bytes())
    assert home.xpath('//nav[contains(@class, "md-nav")]//a[@href="sitemap/"]')


@pytest.mark.integration
def test_docs_sitemap_passes_check(docs_site: Path) -> None:
    """sitemap-plugins check finds no problem in the docs site's own sitemap files."""
    problems, checked = check_site(docs_site, SitemapConfig.from_mapping({"base_url": BASE}))
    assert problems == []
    assert checked == len(list(DOCS.glob("*.md"))) + 1  # and the HTML site map


@pytest.mark.integration
def test_docs_options_page_is_the_option_table(docs_site: Path) -> None:
    """The options page shows every option of config.OPTIONS with its flag."""
    html = (docs_site / "options" / "index.html").read_text("utf-8")
    for option in OPTIONS:
        assert f"<code>{option.name}</code>" in html
        if option.cli:
            assert f"<code>{option.cli_flag}</code>" in html
    assert "options-table" not in html


def test_github_actions_recipe_builds_checks_caches_then_deploys() -> None:
    """The recipe restores the cache before building, checks after, and deploys last."""
    workflow = yaml.safe_load((DOCS / "recipes" / "github-actions-mkdocs.yml").read_text("utf-8"))
    steps = workflow["jobs"]["build"]["steps"]
    said = [step.get("uses", "") + step.get("run", "") for step in steps]

    def position(text: str) -> int:
        return next(i for i, step in enumerate(said) if text in step)

    assert (position("actions/checkout") < position("actions/cache") < position("mkdocs build")
            < position("sitemap-plugins check") < position("upload-pages-artifact"))
    cache = steps[position("actions/cache")]["with"]
    assert cache["path"] == ".sitemap-cache"
    assert "run_id" in cache["key"]
    assert cache["restore-keys"]
    assert workflow["jobs"]["deploy"]["needs"] == "build"


def test_recipes_submit_after_the_deploy_with_the_cache() -> None:
    """Both recipes run ``sitemap-plugins submit`` in a job after the deploy, with the cache."""
    github = yaml.safe_load((DOCS / "recipes" / "github-actions-mkdocs.yml").read_text("utf-8"))
    submit = github["jobs"]["submit"]
    assert submit["needs"] == "deploy"
    said = [step.get("uses", "") + step.get("run", "") for step in submit["steps"]]
    cache = next(i for i, step in enumerate(said) if step.startswith("actions/cache"))
    run = next(i for i, step in enumerate(said) if "sitemap-plugins submit site" in step)
    assert cache < run
    restore = submit["steps"][cache]["with"]
    assert restore["path"] == ".sitemap-cache"
    # This run's build cache comes back; the updated list is saved under a new key.
    assert restore["key"].startswith(restore["restore-keys"])
    assert restore["key"] != github["jobs"]["build"]["steps"][3]["with"]["key"]
    gitlab = yaml.safe_load((DOCS / "recipes" / "gitlab-ci.yml").read_text("utf-8"))
    assert gitlab["submit"]["stage"] == ".post"
    assert gitlab["submit"]["needs"] == ["pages"]
    assert any("sitemap-plugins submit public" in line for line in gitlab["submit"]["script"])
    assert gitlab["default"]["cache"]["paths"] == [".sitemap-cache/"]


# The published schemas of each CI service, as check-jsonschema vendors them (no network).
RECIPE_SCHEMAS = {"github": "vendor.github-workflows", "gitlab": "vendor.gitlab-ci"}


def _validate_recipe(path: Path) -> subprocess.CompletedProcess[str]:
    schema = RECIPE_SCHEMAS[path.name.split("-")[0]]
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema,
                           str(path)], capture_output=True, text=True, check=False)


@pytest.mark.parametrize("recipe", sorted((DOCS / "recipes").glob("*.yml")), ids=lambda p: p.name)
def test_ci_recipe_validates_against_the_published_schema(recipe: Path, tmp_path: Path) -> None:
    """Each recipe passes its CI service's schema, and the check would catch a broken one."""
    result = _validate_recipe(recipe)
    assert result.returncode == 0, result.stdout + result.stderr
    broken = tmp_path / recipe.name
    workflow = yaml.safe_load(recipe.read_text("utf-8"))
    # GitHub: a job without runs-on. GitLab's schema allows a job without script (a template),
    # but not a misspelt key.
    job = next(value for value in (workflow.get("jobs") or workflow).values()
               if isinstance(value, dict) and ("runs-on" in value or "script" in value))
    if "runs-on" in job:
        del job["runs-on"]
    else:
        job["scrpt"] = job.pop("script")
    broken.write_text(yaml.safe_dump(workflow), "utf-8")
    assert _validate_recipe(broken).returncode != 0
