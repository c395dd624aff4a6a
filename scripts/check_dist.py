"""What scripts/package.sh built holds what a user needs, and nothing of the checkout's own.

Usage: python scripts/check_dist.py DIST_DIR. Exits 1 with one line per problem.
"""

from __future__ import annotations

import email.parser
import re
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VERSION = re.search(r'^__version__ = "([^"]+)"$',
                    (ROOT / "sitemap_plugins" / "__init__.py").read_text("utf-8"), re.MULTILINE)


def check_wheel(wheel: Path) -> list[str]:
    names = zipfile.ZipFile(wheel).namelist()
    problems = []
    templates = sorted(p.name for p in (ROOT / "templates").iterdir() if p.is_file())
    needed = ["sitemap_plugins/py.typed", "sitemap_plugins/__init__.py",
              "sitemap_plugins/mkdocs.py", "sitemap_plugins/pelican.py",
              *(f"sitemap_plugins/templates/{name}" for name in templates)]
    problems += [f"{wheel.name}: {name} is missing" for name in needed if name not in names]
    tops = {name.split("/")[0] for name in names}
    dist_info = {top for top in tops if top.endswith(".dist-info")}
    problems += [f"{wheel.name}: {top}/ does not belong in the wheel"
                 for top in sorted(tops - {"sitemap_plugins"} - dist_info)]
    problems += [f"{wheel.name}: {name} does not belong in the wheel" for name in names
                 if re.search(r"(^|/)(tests|sample_sites|benchmarks|scripts)/", name)]
    info = next(iter(dist_info))
    meta = email.parser.Parser().parsestr(
        zipfile.ZipFile(wheel).read(f"{info}/METADATA").decode("utf-8"))
    if VERSION is None or meta["Version"] != VERSION.group(1):
        problems.append(f"{wheel.name}: version {meta['Version']} is not __version__")
    if meta["License-Expression"] != "MIT":
        problems.append(f"{wheel.name}: License-Expression is {meta['License-Expression']!r}")
    if f"{info}/licenses/LICENSE" not in names:
        problems.append(f"{wheel.name}: the licence file is missing")
    extras = set(meta.get_all("Provides-Extra") or [])
    if not {"mkdocs", "pelican"} <= extras:
        problems.append(f"{wheel.name}: extras {sorted(extras)}, not mkdocs and pelican")
    if not meta.get_all("Project-URL"):
        problems.append(f"{wheel.name}: no project URLs")
    entry_points = zipfile.ZipFile(wheel).read(f"{info}/entry_points.txt").decode("utf-8")
    if "sitemap = sitemap_plugins.mkdocs:SitemapPlugin" not in entry_points:
        problems.append(f"{wheel.name}: the mkdocs.plugins entry point 'sitemap' is missing")
    return problems


def check_sdist(sdist: Path) -> list[str]:
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    needed = ["pyproject.toml", "LICENSE", "README.md", "CHANGELOG.md", "tests/conftest.py",
              "tests/schemas/README.md", "tests/schemas/sitemap.xsd", "templates/urlset.xml",
              "sitemap_plugins/py.typed"]
    return [f"{sdist.name}: {name} is missing" for name in needed if name not in names]


def main(dist: Path) -> int:
    wheels = sorted(dist.glob("sitemap_plugins-*.whl"))
    sdists = sorted(dist.glob("sitemap_plugins-*.tar.gz"))
    if len(wheels) != 1 or len(sdists) != 1:
        print(f"check_dist: expected one wheel and one sdist in {dist}")
        return 1
    problems = check_wheel(wheels[0]) + check_sdist(sdists[0])
    for problem in problems:
        print(f"check_dist: {problem}")
    if not problems:
        print(f"check_dist: {wheels[0].name} ({wheels[0].stat().st_size:,} bytes) and "
              f"{sdists[0].name} ({sdists[0].stat().st_size:,} bytes) hold what they should")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
