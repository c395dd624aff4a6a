"""The package's metadata says each thing once: the version, the oldest supported releases."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import sitemap_plugins

ROOT = Path(__file__).resolve().parents[1]
# An editable install records the metadata when installed: after editing pyproject.toml or
# the version, run bash scripts/setup.sh again.
REQUIRES = importlib.metadata.requires("sitemap-plugins") or []


def _lower_bounds() -> dict[str, str]:
    bounds = {}
    for line in REQUIRES:
        requirement = Requirement(line)
        lower = [s.version for s in requirement.specifier if s.operator == ">="]
        assert len(lower) == 1, f"{line!r}: one lower bound (name>=version)"
        assert {s.operator for s in requirement.specifier} <= {">=", "<"}, line
        bounds[requirement.name.lower()] = lower[0]
    return bounds


def _extras() -> dict[str, list[Requirement]]:
    """pyproject.toml's extras, as pip reads their requirements."""
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    section = pyproject.split("[project.optional-dependencies]\n", 1)[1].split("\n[", 1)[0]
    return {name: [Requirement(r) for r in re.findall(r'"([^"]+)"', value)]
            for name, value in re.findall(r"^(\w+) = \[(.*)\]$", section, re.MULTILINE)}


@pytest.mark.parametrize(("extra", "host", "version", "allowed"), [
    ("mkdocs", "mkdocs", "1.6.1", True),
    ("mkdocs", "mkdocs", "2.0.0.dev6", False),  # MkDocs 2.0 has no plugins
    ("mkdocs", "mkdocs", "2.0.0", False),
    ("mkdocs", "mkdocs", "1.5.3", False),
    ("properdocs", "properdocs", "1.6.7", True),
    ("pelican", "pelican", "4.11.0", True),
    ("sphinx", "sphinx", "9.0.4", True),
], ids=str)
def test_extras_bound_the_host_versions_the_adapters_are_written_for(
        extra: str, host: str, version: str, allowed: bool) -> None:
    """Each extra installs its host, in the releases its adapter works with: ``pip install
    --pre "sitemap-plugins[mkdocs]"`` never picks MkDocs 2.0's pre-release."""
    (requirement,) = [r for r in _extras()[extra] if r.name == host]
    assert requirement.specifier.contains(version, prereleases=True) is allowed


def test_lower_bounds_are_the_tested_minimum_versions() -> None:
    """pyproject's lower bounds of MkDocs, Pelican, Jinja2 and selectolax are exactly the
    releases scripts/min_versions.sh installs and tests."""
    pins = dict(line.strip().split("==") for line in
                (ROOT / "scripts" / "minimum-versions.txt").read_text("utf-8").splitlines()
                if line.strip() and not line.startswith("#"))
    assert sorted(pins) == ["jinja2", "mkdocs", "pelican", "selectolax"]
    bounds = _lower_bounds()
    assert {name: bounds[name] for name in pins} == pins


def test_the_version_is_written_once() -> None:
    """The version lives in sitemap_plugins/__init__.py; the metadata and --version read it."""
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert not re.search(r"^version\s*=", pyproject, re.MULTILINE)
    assert 'dynamic = ["version"]' in pyproject
    assert '[tool.hatch.version]\npath = "sitemap_plugins/__init__.py"' in pyproject
    assert importlib.metadata.version("sitemap-plugins") == sitemap_plugins.__version__
    done = subprocess.run([sys.executable, "-m", "sitemap_plugins", "--version"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == f"sitemap-plugins {sitemap_plugins.__version__}"


def test_the_changelog_has_this_version_and_an_unreleased_section() -> None:
    """CHANGELOG.md opens with Unreleased, then a section for the package's version."""
    headings = re.findall(r"^## \[([^\]]+)\]", (ROOT / "CHANGELOG.md").read_text("utf-8"),
                          re.MULTILINE)
    assert headings[0] == "Unreleased"
    assert sitemap_plugins.__version__ in headings
