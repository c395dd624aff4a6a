"""Shared fixtures: XSD validation against the official schemas and independent read-back.

The schemas are the project's own copies in tests/schemas/ (their sources and hashes are in
its README). If they are missing the tests fail with a clear message instead of skipping.
"""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import xml.dom.minidom
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from lxml import etree

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

ROOT = Path(__file__).resolve().parents[1]

# -- The same environment wherever the suite runs ------------------------------------------
# The hosts' logs are read by the tests, and a CI runner's environment changes them: with
# FORCE_COLOR set, Sphinx wraps "writing output..." in colour codes and Pelican's rich console
# draws a spinner into its piped output. So the suite runs, and starts every host, without the
# variables that force colour, a terminal width or a git repository on it. (Our own output has
# no colour; tests/test_cli*.py read it as it is.)
ENVIRONMENT_SET_BY_THE_CALLER = (
    "FORCE_COLOR", "FORCE_COLOUR", "PY_COLORS", "CLICOLOR_FORCE", "TTY_COMPATIBLE",
    "COLUMNS", "LINES", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
    "GIT_CEILING_DIRECTORIES", "SOURCE_DATE_EPOCH",
)
for _name in ENVIRONMENT_SET_BY_THE_CALLER:
    os.environ.pop(_name, None)
os.environ["NO_COLOR"] = "1"

# -- The fast part of the suite ------------------------------------------------------------
# `pytest -m "not integration and not slow"` runs in seconds: it leaves out every test marked
# `integration`, that is, slow by nature: a real host (MkDocs, Pelican), Chromium, another
# process (a worker pool, a killed or signalled build, a lock holder, the command line in a
# subprocess), a wheel build, or a large input (50,000 URLs, 50 MiB, 10,000 folders). CI
# runs them all. Most carry the mark in their own file; these are marked here:

# Tests that use one of these fixtures (each starts other processes or a real host).
INTEGRATION_FIXTURES = {
    "sections": "three builds in separate processes (test_merge)",
}
# Whole modules, and single tests, of files that do not mark themselves (yet).
INTEGRATION_MODULES = {
    "test_robustness_crash": "builds killed and failed at every write point",
    "test_special_files": "pipes, sockets and devices, with the command line in a subprocess",
    "test_cache_tamper": "property-based tampering, one build per example",
    "test_cli_progress": "the command line in a terminal of its own",
    "test_site_lock": "processes that hold the site while a build waits",
    "test_docs_site": "the documentation built by MkDocs",
}
INTEGRATION_TESTS = {
    "test_render": {"test_50000_urls_give_one_file", "test_50001_urls_give_index_and_two_parts",
                     "test_part_past_50_mib_splits"},
    "test_owned": {"test_files_we_did_not_write_are_never_removed",
                       "test_sitemap_name_never_collides"},
    "test_site": {"test_every_listed_url_serves_exactly_one_file"},
    "test_cli": {"test_source_date_epoch_does_not_leak_build_time",
                 "test_python_m_is_the_same_program"},
    "test_history": {"test_a_briefly_held_manifest_is_waited_for",
                      "test_a_held_manifest_stops_the_build_and_keeps_the_dates",
                      "test_sibling_folders_never_share_a_manifest"},
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests named above ``integration``; a name that no longer exists is an error,
    so that a renamed test cannot slip into the fast part unnoticed."""
    del config
    loaded: dict[str, object] = {}
    for item in items:
        module = item.path.stem
        name = getattr(item, "originalname", item.name)
        if (module in INTEGRATION_MODULES or name in INTEGRATION_TESTS.get(module, ())
                or INTEGRATION_FIXTURES.keys() & set(getattr(item, "fixturenames", ()))):
            item.add_marker(pytest.mark.integration)
        loaded.setdefault(module, getattr(item, "module", None))
    missing = sorted(f"{module}.py::{name}" for module, names in INTEGRATION_TESTS.items()
                     if loaded.get(module) is not None
                     for name in names if not hasattr(loaded[module], name))
    if missing:
        msg = f"tests/conftest.py marks tests that do not exist: {', '.join(missing)}"
        raise pytest.UsageError(msg)

# Another process holding a site folder (as a build does) or an SQLite file in a write.
HOLD_FOLDER = """
import sys, time
from pathlib import Path
from sitemap_plugins.disk.locks import site_lock
with site_lock(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""
HOLD_DATABASE = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("COMMIT")
"""


def hold(path: Path, seconds: float, script: str = HOLD_FOLDER) -> subprocess.Popen[str]:
    """A real process that holds ``path`` for ``seconds``, once it says it holds it."""
    holder = subprocess.Popen([sys.executable, "-c", script, str(path), str(seconds)],
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "held"
    return holder


def release(holder: subprocess.Popen[str], *, kill: bool = False) -> None:
    """Wait for a holder to end (killed first with ``kill``)."""
    if kill:
        holder.kill()
    holder.wait(timeout=60)
    if holder.stdout is not None:
        holder.stdout.close()
SCHEMAS = ROOT / "tests" / "schemas"
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
_REMOTE = {
    "http://www.w3.org/2001/xml.xsd": "xml.xsd",
    "http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd": "sitemap.xsd",
    "http://www.w3.org/2002/08/xhtml/xhtml1-strict.xsd": "xhtml1-strict.xsd",
}


class _LocalSchemas(etree.Resolver):
    """Maps the official remote schema URLs to the local copies; refuses any other URL."""

    def resolve(self, system_url, public_id, context):  # type: ignore[no-untyped-def]
        if system_url in _REMOTE:
            return self.resolve_filename(str(SCHEMAS / _REMOTE[system_url]), context)
        if system_url.startswith(("http://", "https://")):
            msg = f"refusing to fetch {system_url} during schema validation"
            raise OSError(msg)
        return None


# Google's extensions, imported beside sitemap.xsd: its <url> takes any element of another
# namespace with processContents="strict", so each one found must validate against its own.
EXTENSIONS = {
    "http://www.w3.org/1999/xhtml": "xhtml1-strict.xsd",
    "http://www.google.com/schemas/sitemap-image/1.1": "sitemap-image.xsd",
    "http://www.google.com/schemas/sitemap-video/1.1": "sitemap-video.xsd",
    "http://www.google.com/schemas/sitemap-news/0.9": "sitemap-news.xsd",
}


def _load_schema(main: str, *, with_xhtml: bool) -> etree.XMLSchema:
    missing = [n for n in ("sitemap.xsd", "siteindex.xsd", "xml.xsd", *EXTENSIONS.values())
               if not (SCHEMAS / n).is_file()]
    if missing:
        pytest.fail(
            f"The official sitemap schemas are missing from {SCHEMAS} ({', '.join(missing)}). "
            "They are part of the project: restore them with git (tests/schemas/README.md).",
            pytrace=False)
    parser = etree.XMLParser(no_network=True)
    parser.resolvers.add(_LocalSchemas())
    imports = [f'<xs:import namespace="{SITEMAP_NS}" schemaLocation="{(SCHEMAS / main).as_uri()}"/>']
    if with_xhtml:
        imports.extend(f'<xs:import namespace="{namespace}" '
                       f'schemaLocation="{(SCHEMAS / file_name).as_uri()}"/>'
                       for namespace, file_name in EXTENSIONS.items())
    wrapper = ('<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">'
               + "".join(imports) + "</xs:schema>")
    return etree.XMLSchema(etree.fromstring(wrapper.encode(), parser))


@pytest.fixture(scope="session")
def xsd() -> dict[str, etree.XMLSchema]:
    """The urlset schema (with xhtml:link, image, video and news) and the index schema."""
    return {
        "urlset": _load_schema("sitemap.xsd", with_xhtml=True),
        "sitemapindex": _load_schema("siteindex.xsd", with_xhtml=False),
    }


def _locs_minidom(data: bytes, tag: str) -> list[str]:
    document = xml.dom.minidom.parseString(data)  # our own test output
    return [
        "".join(node.data for node in loc.childNodes if node.nodeType == node.TEXT_NODE).strip()
        for loc in document.getElementsByTagNameNS(SITEMAP_NS, "loc")
        if loc.parentNode.localName == tag
    ]


def validate_sitemap_file(path: Path, xsd: dict[str, etree.XMLSchema]) -> tuple[str, list[str]]:
    """Validate one XML sitemap file; return its kind and its locs, read by two parsers."""
    data = path.read_bytes()
    assert data.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n'), path
    document = etree.fromstring(data, etree.XMLParser(no_network=True, resolve_entities=False))
    kind = etree.QName(document).localname
    assert kind in xsd, f"{path.name}: unexpected root {kind}"
    schema = xsd[kind]
    assert schema.validate(document), f"{path.name}: {schema.error_log}"
    child = "url" if kind == "urlset" else "sitemap"
    by_lxml = [e.text for e in document.iterfind(f"{{{SITEMAP_NS}}}{child}/{{{SITEMAP_NS}}}loc")]
    by_minidom = _locs_minidom(data, child)
    assert by_lxml == by_minidom, f"{path.name}: lxml and minidom disagree"
    packed = path.with_name(path.name + ".gz")
    if packed.exists():
        assert gzip.decompress(packed.read_bytes()) == data, f"{packed.name} differs"
    return kind, [str(u) for u in by_lxml]


def read_sitemap(site: Path, xsd: dict[str, etree.XMLSchema], name: str = "sitemap") -> list[str]:
    """Validate every sitemap file of ``site`` and return the listed URLs in order.

    Follows an index to its parts, checks the ``.gz`` copies, and checks that the text
    sitemap (single file or parts) lists the same URLs in the same order.
    """
    kind, locs = validate_sitemap_file(site / f"{name}.xml", xsd)
    urls: list[str] = []
    if kind == "urlset":
        urls = locs
    else:
        for loc in locs:
            part_kind, part_locs = validate_sitemap_file(site / loc.rsplit("/", 1)[1], xsd)
            assert part_kind == "urlset"
            urls.extend(part_locs)
    for extra in sorted(site.glob(f"{name}*.xml")):
        validate_sitemap_file(extra, xsd)
    text_file = site / f"{name}.txt"
    text_index = site / f"{name}-txt-index.xml"
    if text_file.exists():
        assert text_file.read_bytes().decode("utf-8").splitlines() == urls
    elif text_index.exists():
        _, parts = validate_sitemap_file(text_index, xsd)
        lines: list[str] = []
        for loc in parts:
            lines.extend((site / loc.rsplit("/", 1)[1]).read_text("utf-8").splitlines())
        assert lines == urls
    return urls


@pytest.fixture
def sitemap_urls(xsd: dict[str, etree.XMLSchema]) -> Callable[..., list[str]]:
    """``sitemap_urls(site_dir)``: validate all sitemap files and return the URLs listed."""

    def read(site: Path | str, name: str = "sitemap") -> list[str]:
        return read_sitemap(Path(site), xsd, name)

    return read


def tree_bytes(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes, for byte-identical comparisons."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()
    }


@pytest.fixture
def snapshot() -> Callable[[Path], dict[str, bytes]]:
    """``snapshot(folder)``: all files and their bytes."""
    return tree_bytes


UPDATE_GOLDENS = os.environ.get("SITEMAP_UPDATE_GOLDENS") == "1"


@pytest.fixture
def golden() -> Callable[[Path, Path, list[str]], None]:
    """``golden(actual_dir, expected_dir, names)``: compare files byte for byte.

    With ``SITEMAP_UPDATE_GOLDENS=1`` the expected files are rewritten instead; review the
    diff like code. Regenerate all goldens with:
    ``SITEMAP_UPDATE_GOLDENS=1 python -m pytest -m golden``.
    """

    def compare(actual_dir: Path, expected_dir: Path, names: list[str]) -> None:
        if UPDATE_GOLDENS:
            expected_dir.mkdir(parents=True, exist_ok=True)
            for old in expected_dir.iterdir():
                if old.is_file() and old.name not in names:
                    old.unlink()
        for name in names:
            actual = (actual_dir / name).read_bytes()
            target = expected_dir / name
            if UPDATE_GOLDENS:
                target.write_bytes(actual)
                continue
            assert target.exists(), f"no golden {target}; run SITEMAP_UPDATE_GOLDENS=1"
            assert actual == target.read_bytes(), (
                f"{name} differs from the golden {target} "
                "(if the change is intended: SITEMAP_UPDATE_GOLDENS=1 python -m pytest -m golden)")

    return compare


def clean_ctrl_c() -> None:
    """Take Ctrl-C the default way in this thread: the handler Python starts with, unblocked.

    A process started from here inherits both: a SIGINT left ignored or blocked by a test
    that ran the pool in this process would make every later build ignore Ctrl-C.
    """
    if signal.getsignal(signal.SIGINT) in (signal.SIG_IGN, signal.SIG_DFL, None):
        signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@pytest.fixture(autouse=True)
def _ctrl_c_as_it_was() -> Iterator[None]:
    """Whatever a test does to SIGINT (its handler, this thread's mask) is undone after it."""
    handler = signal.getsignal(signal.SIGINT)
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, set())
    yield
    if handler is not None:
        signal.signal(signal.SIGINT, handler)
    signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
