"""The project carries the schemas its tests validate against, unchanged, and nothing else."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "tests" / "schemas"
ROW = re.compile(r"^\| `(?P<name>[^`]+\.xsd)` \|.*\| `(?P<sha>[0-9a-f]{64})` \|$", re.MULTILINE)


def test_every_schema_matches_the_hash_its_readme_gives() -> None:
    """Each XSD in tests/schemas has a README row whose SHA-256 is the file's, and vice versa."""
    rows = {m["name"]: m["sha"] for m in ROW.finditer((SCHEMAS / "README.md").read_text("utf-8"))}
    files = {path.name: hashlib.sha256(path.read_bytes()).hexdigest()
             for path in SCHEMAS.glob("*.xsd")}
    assert files == rows
    assert sorted(files) == ["siteindex.xsd", "sitemap-image.xsd", "sitemap-news.xsd",
                             "sitemap-video.xsd", "sitemap.xsd", "xhtml1-strict.xsd", "xml.xsd"]


def test_nothing_refers_to_a_folder_beside_the_project() -> None:
    """No text file points at the shared folder beside the project: a clone alone tests itself."""
    needle = "../" + "shared"
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        # Virtual environments, caches and build output are not the project's text.
        subfolders[:] = [name for name in subfolders
                         if not name.startswith(".") and name not in {"build", "dist", "out"}]
        found += [os.path.relpath(os.path.join(folder, name), ROOT) for name in files
                  if name.endswith((".py", ".md", ".sh", ".toml", ".yml", ".txt"))
                  and needle in Path(folder, name).read_text("utf-8", errors="replace")]
    found += [".ci/run"] * (needle in (ROOT / ".ci" / "run").read_text("utf-8"))
    assert found == []
