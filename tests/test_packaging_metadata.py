"""The package's metadata says each thing once: the version, the oldest supported releases."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import sitemap_plugins

ROOT = Path(__file__).resolve().parents[1]
# An editable install records the metadata when installed: after editing pyproject.toml or
# the version, run bash scripts/setup.sh again.
REQUIRES = importlib.metadata.requires("sitemap-plugins") or []


def _lower_bounds() -> dict[str, str]:
    bounds = {}
    for requirement in REQUIRES:
        match = re.fullmatch(r"""([A-Za-z0-9_.-]+)>=([0-9.]+)(; extra == ["']\w+["'])?""",
                             requirement)
        assert match, f"{requirement!r}: a lower bound only, in the form name>=version"
        bounds[match[1].lower()] = match[2]
    return bounds


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
