"""The GitHub Actions recipes users copy run: each workflow's shell steps, in order, on a sample site.

A small stand-in for GitHub Actions runs the jobs in the order of their ``needs``, each in a
workspace of its own (as on separate runners), twice: a first run, then one after a page was
edited. Every ``run:`` step runs verbatim under ``bash -eo pipefail``, with two replacements
for what must not leave the machine: ``pip install`` (the packages come from this test's
environment) and ``sitemap-plugins submit``, which gets ``--endpoint`` pointing at a local
HTTP server that answers 200. The ``uses:`` steps are emulated: checkout copies the sample's
sources, the cache keeps folders by key (exact key or the newest under a restore-keys prefix;
saved at the end of a job that had no exact hit, never overwritten), the Pages artifact is
the same tar file, the deploy unpacks it. An unknown action or ``${{ }}`` expression fails the
test, so a recipe cannot change beyond what is run here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
import yaml
from local_server import serving
from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
RECIPES = ROOT / "docs" / "recipes"
KEY = "recipe-key-0042"
EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
# Two runs a month apart: the build's "now" (dates of pages that changed in a run).
EPOCHS = {1: 1704067200, 2: 1706745600}  # 2024-01-01, 2024-02-01 (UTC)

pytestmark = pytest.mark.integration


@dataclass
class Endpoint:
    """A local IndexNow endpoint that accepts everything and keeps each request's JSON body."""

    url: str = ""
    bodies: list[dict[str, Any]] = field(default_factory=list)


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    recorder = Endpoint()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            recorder.bodies.append(json.loads(self.rfile.read(length)))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    with serving(Handler) as url:
        recorder.url = url
        yield recorder


@dataclass
class Sample:
    """A sample site standing in for a user's repository, and what the recipe needs of it."""

    recipe: str
    sample: str
    base_url: str  # the workflow's BASE_URL, set to the sample's own URL
    site: str  # the built site's folder in the workspace
    edit: str  # a source file without a stated date, edited between the two runs
    edited_url: str


SAMPLES = [
    Sample("github-actions-mkdocs.yml", "mkdocs", "https://example.org/project/", "site",
           "docs/guide/install.md", "https://example.org/project/guide/install/"),
    Sample("github-actions-pelican.yml", "pelican", "https://blog.example.org/", "output",
           "content/pages/contact.md", "https://blog.example.org/pages/contact.html"),
]


def _repository(sample: Sample, folder: Path) -> Path:
    """The sample's sources with what the recipe's header comment asks the user to add."""
    shutil.copytree(ROOT / "sample_sites" / sample.sample / "source", folder,
                    ignore=shutil.ignore_patterns("site", "output", ".sitemap-cache",
                                                  "__pycache__"))
    if sample.sample == "mkdocs":
        config = folder / "mkdocs.yml"
        text = config.read_text("utf-8")
        assert text.endswith("  - sitemap\n")
        config.write_text(text.removesuffix("  - sitemap\n")
                          + "  - sitemap:\n      indexnow_key: !ENV INDEXNOW_KEY\n", "utf-8")
    else:  # publishconf.py as pelican-quickstart writes it, plus the recipe's line
        (folder / "publishconf.py").write_text(
            "import os\nimport sys\n\nsys.path.append(os.curdir)\nfrom pelicanconf import *\n\n"
            'SITEMAP_PLUGINS = {**SITEMAP_PLUGINS, "indexnow_key": os.environ["INDEXNOW_KEY"]}\n',
            "utf-8")
    return folder


class Runner:
    """Runs a workflow's jobs as GitHub Actions would, with the emulated actions above."""

    def __init__(self, workflow: dict[str, Any], sample: Sample, repository: Path, tmp: Path,
                 endpoint: str) -> None:
        self.workflow = workflow
        self.sample = sample
        self.repository = repository
        self.tmp = tmp
        self.endpoint = endpoint
        self.caches: list[tuple[str, Path]] = []  # (key, folder), oldest first
        self.restored: dict[tuple[int, str], str | None] = {}
        self.outputs: dict[tuple[int, str], list[str]] = {}
        self.replaced = {"pip install": 0, "sitemap-plugins submit": 0}

    def expand(self, text: str, run: int) -> str:
        known = {"github.ref_name": "main", "github.run_id": str(run),
                 "secrets.INDEXNOW_KEY": KEY,
                 "steps.deployment.outputs.page_url": self.sample.base_url}

        def value(match: re.Match[str]) -> str:
            if match.group(1) not in known:
                pytest.fail(f"{self.sample.recipe}: the test does not know ${{{{ "
                            f"{match.group(1)} }}}}")
            return known[match.group(1)]

        return EXPRESSION.sub(value, text)

    def env(self, run: int, *scopes: dict[str, Any] | None) -> dict[str, str]:
        env = {name: value for name, value in os.environ.items()
               if name not in {"SOURCE_DATE_EPOCH", "INDEXNOW_KEY", "PYTHONPATH"}}
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
        env.update(NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true",
                   GIT_CEILING_DIRECTORIES=str(self.tmp), SOURCE_DATE_EPOCH=str(EPOCHS[run]))
        for scope in scopes:
            env.update({name: self.expand(str(value), run)
                        for name, value in (scope or {}).items()})
        return env

    def order(self) -> list[str]:
        jobs = self.workflow["jobs"]
        done: list[str] = []
        while len(done) < len(jobs):
            ready = [name for name, job in jobs.items() if name not in done
                     and all(need in done for need in _needs(job))]
            assert ready, f"{self.sample.recipe}: jobs wait on each other"
            done.append(ready[0])
        return done

    def run(self, run: int) -> None:
        for name in self.order():
            self.run_job(run, name, self.workflow["jobs"][name])

    def run_job(self, run: int, name: str, job: dict[str, Any]) -> None:
        workspace = self.tmp / f"run{run}" / name
        workspace.mkdir(parents=True)
        # The workflow's BASE_URL is the user's URL: here the sample's.
        env = self.env(run, self.workflow.get("env"), job.get("env"),
                       {"BASE_URL": self.sample.base_url})
        saves: list[tuple[str, Path]] = []
        output = self.outputs.setdefault((run, name), [])
        for step in job["steps"]:
            if "uses" in step:
                self.use(run, name, step, workspace, saves)
                continue
            script = self.replace(step["run"])
            done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                                   script], cwd=workspace, env={**env, **self.env(run, step.get(
                                       "env"))}, capture_output=True, text=True, timeout=300,
                                  check=False)
            output.append(done.stdout + done.stderr)
            assert done.returncode == 0, (f"{self.sample.recipe}, run {run}, job {name}: "
                                          f"{step['run']!r} failed:\n{done.stdout}{done.stderr}")
        for key, path in saves:  # the cache's post step, after a job that succeeded
            if path.is_dir() and all(saved != key for saved, _ in self.caches):
                kept = self.tmp / "caches" / key
                shutil.copytree(path, kept)
                self.caches.append((key, kept))

    def replace(self, script: str) -> str:
        lines = []
        for line in script.splitlines():
            if line.startswith("pip install "):
                self.replaced["pip install"] += 1
                lines.append("true  # " + line)
            elif line.startswith("sitemap-plugins submit "):
                self.replaced["sitemap-plugins submit"] += 1
                lines.append(f"{line} --endpoint {self.endpoint}")
            else:
                lines.append(line)
        return "\n".join(lines)

    def use(self, run: int, job: str, step: dict[str, Any], workspace: Path,
            saves: list[tuple[str, Path]]) -> None:
        action, _, _version = step["uses"].partition("@")
        given = {name: self.expand(str(value), run) for name, value in
                 (step.get("with") or {}).items()}
        artifact = self.tmp / f"run{run}" / "artifact.tar"
        if action == "actions/checkout":
            shutil.copytree(self.repository, workspace, dirs_exist_ok=True)
        elif action == "actions/setup-python":
            pass
        elif action == "actions/cache":
            key = given["key"]
            found = next((folder for saved, folder in self.caches if saved == key), None)
            name = key if found is not None else None
            for prefix in given.get("restore-keys", "").splitlines():
                if found is None and prefix:
                    newest = [(saved, folder) for saved, folder in self.caches
                              if saved.startswith(prefix)]
                    if newest:
                        name, found = newest[-1]
            if found is not None:
                shutil.copytree(found, workspace / given["path"])
            self.restored[run, job] = name
            if name != key:
                saves.append((key, workspace / given["path"]))
        elif action == "actions/upload-pages-artifact":
            with tarfile.open(artifact, "w") as tar:
                tar.add(workspace / given["path"], arcname=".")
        elif action == "actions/download-artifact":
            assert given["name"] == "github-pages"
            (workspace / given["path"]).mkdir(parents=True)
            shutil.copy(artifact, workspace / given["path"] / "artifact.tar")
        elif action == "actions/deploy-pages":
            with tarfile.open(artifact) as tar:
                tar.extractall(self.tmp / f"run{run}" / "deployed", filter="data")
        else:
            pytest.fail(f"{self.sample.recipe}: the test does not know the action {action}")


def _needs(job: dict[str, Any]) -> list[str]:
    needs = job.get("needs", [])
    return [needs] if isinstance(needs, str) else list(needs)


def _lastmods(site: Path) -> dict[str, str | None]:
    tree = etree.parse(str(site / "sitemap.xml"))
    return {url.findtext(f"{SITEMAP_NS}loc"): url.findtext(f"{SITEMAP_NS}lastmod")
            for url in tree.iter(f"{SITEMAP_NS}url")}


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.sample for s in SAMPLES])
def test_recipe_runs_on_the_sample_site(sample: Sample, tmp_path: Path,
                                        endpoint: Endpoint) -> None:
    """Two runs of the recipe build, check, diff, deploy and submit the sample site; the second
    restores the first's cache, so unchanged pages keep their dates, the diff against the last
    deploy names the one page redated, and only what changed is sent, with the key from the
    secret."""
    workflow = yaml.safe_load((RECIPES / sample.recipe).read_text("utf-8"))
    repository = _repository(sample, tmp_path / "repository")
    runner = Runner(workflow, sample, repository, tmp_path, endpoint.url)

    runner.run(1)
    assert runner.restored[1, "build"] is None  # a first run has no cache
    assert runner.restored[1, "submit"] == "sitemap-main-1"  # this run's build
    deployed = tmp_path / "run1" / "deployed"
    assert (deployed / f"{KEY}.txt").read_text("ascii") == KEY
    first = _lastmods(deployed)
    assert sample.edited_url in first
    assert "Nothing to submit" in runner.outputs[1, "submit"][-1]
    assert endpoint.bodies == []  # a first build knows of no change

    page = repository / sample.edit
    page.write_text(page.read_text("utf-8") + "\nA paragraph added in the second run.\n",
                    "utf-8")
    runner.run(2)
    # The newest cache: the first run's, saved again after its submit.
    assert runner.restored[2, "build"] == "sitemap-main-1-submitted"
    assert runner.restored[2, "submit"] == "sitemap-main-2"
    second = _lastmods(tmp_path / "run2" / "deployed")
    assert first[sample.edited_url] != second[sample.edited_url] == "2024-02-01T00:00:00Z"
    assert second[sample.base_url] == first[sample.base_url]  # the home page did not change
    # The build says what this deploy changes against the last one's sitemap, kept in the cache.
    diff = next(out for out in runner.outputs[2, "build"] if " redated\n" in out)
    was = first[sample.edited_url] or "(none)"  # a first build dates no page it cannot
    assert f"~ {sample.edited_url} {was} -> 2024-02-01T00:00:00Z" in diff
    assert diff.endswith(f"{len(first):,} URLs -> {len(second):,} URLs: 0 added, 0 removed, "
                         "1 redated\n")
    sent = [url for body in endpoint.bodies for url in body["urlList"]]
    assert sample.edited_url in sent
    assert sample.base_url not in sent
    assert {body["key"] for body in endpoint.bodies} == {KEY}
    assert all(body["keyLocation"] == f"{sample.base_url}{KEY}.txt" for body in endpoint.bodies)
    assert runner.replaced["pip install"] == 4  # two jobs install, in each of the two runs
    assert runner.replaced["sitemap-plugins submit"] == 2
