"""The package's floors and its door, read from the source with ``ast`` (issues 31 and 39).

Folders are floors: ``vocab/`` (the vocabulary), ``page/`` (one page, pure), ``entry/`` (what
is listed, pure), ``disk/`` (the door: the only modules that touch disk), ``products/`` and
``hosts/``; the front doors users name stand at the top level. An import may point to its own
folder or a lower one, never up, and no import cycle is allowed, counting every import:
type-only (``TYPE_CHECKING``) and function-local ones included, since each is a dependency a
reader has to follow. A module gets its floor from the folder it is put in.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "sitemap_plugins"
NAME = "sitemap_plugins"

# The floors, lowest first: a folder of the package each. The front doors are the top.
FLOORS = ("vocab", "page", "entry", "disk", "products", "hosts")
TOP = len(FLOORS)
DOOR = "disk"
# The only modules that may write, rename or delete anything on disk, all behind the door.
MAX_WRITERS = 3
FRONT_DOORS = {"__init__", "__main__", "cli", "mkdocs", "pelican", "sphinx"}


def floor_of(module: str) -> int:
    """The floor of a module, by the folder it stands in (top-level modules are the top)."""
    folder = module.split(".", maxsplit=1)[0] if "." in module else ""
    return FLOORS.index(folder) if folder in FLOORS else TOP


def floor_name(floor: int) -> str:
    """What a floor is called in a report."""
    return FLOORS[floor] if floor < TOP else "top"


def module_names() -> list[str]:
    """Every module of the package, by its name inside the package (``__init__`` included)."""
    return sorted(".".join(path.relative_to(PACKAGE).with_suffix("").parts)
                  for path in PACKAGE.rglob("*.py"))


def parse(module: str) -> ast.Module:
    """The syntax tree of one module."""
    path = PACKAGE.joinpath(*module.split(".")).with_suffix(".py")
    return ast.parse(path.read_text("utf-8"), filename=str(path))


@dataclass(frozen=True)
class Import:
    """One import of a package module: who imports what, and on which line."""

    importer: str
    imported: str
    line: int

    def __str__(self) -> str:
        return f"{self.importer}.py:{self.line} imports {self.imported}"


def imports_of(module: str, known: set[str]) -> list[Import]:
    """Every import of a package module found anywhere in ``module``, at any depth.

    ``from sitemap_plugins import x`` is an import of module ``x`` when ``x`` is a module,
    else of ``__init__``; relative imports are resolved against the package.
    """
    found: list[Import] = []
    package_parts = module.split(".")[:-1]
    for node in ast.walk(parse(module)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package_parts[:len(package_parts) - node.level + 1]
                origin = ".".join([NAME, *base, *([node.module] if node.module else [])])
            else:
                origin = node.module or ""
            targets = [f"{origin}.{alias.name}" for alias in node.names]
            targets = [t if t.removeprefix(f"{NAME}.") in known else origin for t in targets]
        for target in targets:
            if target != NAME and not target.startswith(f"{NAME}."):
                continue
            inner = target.removeprefix(NAME).removeprefix(".") or "__init__"
            while inner not in known and "." in inner:  # import a.b.c of module a.b
                inner = inner.rsplit(".", 1)[0]
            found.append(Import(module, inner, node.lineno))
    return found


def import_graph() -> dict[str, list[Import]]:
    """Module -> its imports of other package modules."""
    known = set(module_names())
    return {module: sorted({i for i in imports_of(module, known) if i.imported != module},
                           key=lambda i: (i.line, i.imported))
            for module in sorted(known)}


def cycles(graph: dict[str, list[Import]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for edge in graph.get(module, []):
            if edge.imported not in index:
                visit(edge.imported)
                low[module] = min(low[module], low[edge.imported])
            elif edge.imported in on_stack:
                low[module] = min(low[module], index[edge.imported])
        if low[module] == index[module]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(found)


# -- What writes on disk ----------------------------------------------------------------------

OS_WRITES = {"replace", "rename", "renames", "unlink", "remove", "removedirs", "rmdir", "mkdir",
             "makedirs", "write", "truncate", "ftruncate", "link", "symlink", "chmod", "utime",
             "mkfifo", "mknod"}
OS_WRITE_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"}
PATH_WRITES = {"write_bytes", "write_text", "unlink", "mkdir", "rmdir", "touch", "symlink_to",
               "hardlink_to", "chmod"}
PATH_WRITES_ONE_ARG = {"rename", "replace"}  # str.replace takes two: not a path
SHUTIL_READS = {"which", "get_terminal_size", "disk_usage"}
TEMPFILE_READS = {"gettempdir", "gettempdirb", "gettempprefix"}


def _mode_writes(call: ast.Call, position: int) -> bool:
    """Whether an ``open``-like call's mode (positional ``position`` or ``mode=``) can write.

    A mode that is not a literal counts as writing: the reader cannot tell it does not.
    """
    mode: ast.expr | None = call.args[position] if len(call.args) > position else None
    for keyword in call.keywords:
        if keyword.arg == "mode":
            mode = keyword.value
    if mode is None:
        return False
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str):
        return any(flag in mode.value for flag in "wax+")
    return True


def _dotted(node: ast.expr) -> str:
    """``a.b.c`` for a chain of names and attributes, else ''."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


def _writes_by_name(full: str, call: ast.Call) -> bool:
    """Whether a call of the function named ``full`` (``os.replace``) writes on disk."""
    module, _, function = full.rpartition(".")
    if full in {"open", "io.open", "builtins.open", "codecs.open", "os.fdopen",
                "gzip.open", "bz2.open", "lzma.open"}:
        return _mode_writes(call, 1)
    if full == "gzip.GzipFile":  # with a file name (not a file object already opened)
        has_name = bool(call.args) or any(k.arg == "filename" for k in call.keywords)
        return has_name and _mode_writes(call, 1)
    return ((module == "os" and function in OS_WRITES)  # os.open: by its flags, elsewhere
            or (module == "shutil" and function not in SHUTIL_READS)
            or (module == "tempfile" and function not in TEMPFILE_READS)
            or full in {"sqlite3.connect", "filelock.FileLock", "filelock.SoftFileLock"})


def _writing_call(full: str, call: ast.Call) -> str:
    """What a call that writes on disk is called in the report, or '' for any other call."""
    if _writes_by_name(full, call):
        return full
    if not isinstance(call.func, ast.Attribute) or full.startswith("os."):
        return ""
    method = call.func.attr
    one_arg = len(call.args) == 1 and not call.keywords
    if method in PATH_WRITES or (method in PATH_WRITES_ONE_ARG and one_arg):
        return f".{method}()"
    if method == "open" and _mode_writes(call, 0):
        return ".open() to write"
    return ""


def disk_writes(module: str) -> list[str]:
    """The calls in ``module`` that write, rename or delete on disk, as ``line: call``."""
    tree = parse(module)
    aliases: dict[str, str] = {}  # local name -> module.name, for ``from os import replace``
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                aliases[alias.asname or alias.name] = alias.name
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in OS_WRITE_FLAGS:
            if _dotted(node.value) in {"os", *(k for k, v in aliases.items() if v == "os")}:
                found.append((node.lineno, f"os.{node.attr}"))
            continue
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        head, _, rest = name.partition(".")
        full = f"{aliases[head]}.{rest}".rstrip(".") if head in aliases else name
        what = _writing_call(full, node)
        if what:
            found.append((node.lineno, what))
    return [f"{line}: {what}" for line, what in sorted(found)]


# -- The tests ---------------------------------------------------------------------------------

def test_every_module_stands_on_a_floor() -> None:
    """The top level holds only the front doors; every other module is in a floor's folder."""
    stray = [m for m in module_names()
             if m not in FRONT_DOORS and m.split(".")[0] not in FLOORS]
    assert not stray, f"modules outside the floors' folders ({', '.join(FLOORS)}): {stray}"


def test_the_diagram_draws_the_floors_in_order() -> None:
    """docs/how-it-works.md's Mermaid diagram draws the floors' folders, lowest first."""
    text = (PACKAGE.parent / "docs" / "how-it-works.md").read_text("utf-8")
    diagram = text[text.index("```mermaid"):]
    chain = next(line for line in diagram.split("\n") if " --> " in line)
    assert [n.strip() for n in chain.split("-->")] == [*FLOORS, "doors"]


def test_no_import_cycle() -> None:
    """No two modules import each other, directly or round a loop, counting every import."""
    graph = import_graph()
    found = cycles(graph)
    described = []
    for component in found:
        members = set(component)
        described.append(", ".join(
            str(i) for m in component for i in graph[m] if i.imported in members))
    assert not found, "import cycles:\n" + "\n".join(described)


def test_imports_point_down() -> None:
    """Every import points to the same floor or a lower one, and ``vocab.errors`` imports
    nothing of the package."""
    upward: list[str] = []
    for module, edges in import_graph().items():
        floor = floor_of(module)
        for edge in edges:
            target = floor_of(edge.imported)
            if module == "vocab.errors" and edge.imported != "vocab":
                upward.append(f"{edge} (errors imports nothing of the package)")
            elif target > floor:
                upward.append(f"{edge} ({floor_name(floor)} -> {floor_name(target)})")
    assert not upward, "imports that point up:\n" + "\n".join(upward)


def test_only_the_door_writes_on_disk() -> None:
    """At most three modules write, rename or delete on disk, all in the door's folder."""
    writers = {module: calls for module in module_names() if (calls := disk_writes(module))}
    outside = {module: calls for module, calls in writers.items()
               if floor_of(module) != FLOORS.index(DOOR)}
    assert not outside, "modules outside the door that write on disk:\n" + "\n".join(
        f"{module}.py: {', '.join(calls)}" for module, calls in sorted(outside.items()))
    assert len(writers) <= MAX_WRITERS, sorted(writers)


# The checks above must be able to fail: each is run on a small package made up here.

def test_the_checks_see_a_cycle_an_upward_import_and_a_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A made-up package with a stray module, a cycle, an upward import and a write outside
    the door is caught by each check (so a green run means something)."""
    package = tmp_path / NAME
    for folder in ("vocab", "page", "disk"):
        (package / folder).mkdir(parents=True)
        (package / folder / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "stray.py").write_text("")
    (package / "vocab" / "errors.py").write_text("")
    (package / "vocab" / "urls.py").write_text(
        "from __future__ import annotations\nfrom typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from sitemap_plugins.page.reader import PageRecord\n")
    (package / "page" / "reader.py").write_text(
        "def f():\n    from sitemap_plugins.vocab import urls\n"
        "    open('x', 'wb').close()\n    return urls\n")
    (package / "disk" / "site.py").write_text("import os\nos.replace('a', 'b')\n")
    (package / "page" / "extra.py").write_text("from pathlib import Path\n"
                                               "Path('x').write_text('y')\n"
                                               "'a b'.replace('a', 'b')\n")
    monkeypatch.setitem(globals(), "PACKAGE", package)
    assert "stray" in module_names()
    assert cycles(import_graph()) == [["page.reader", "vocab.urls"]]
    assert [str(i) for i in import_graph()["vocab.urls"]] == [
        "vocab.urls.py:4 imports page.reader"]
    assert disk_writes("page.reader") == ["3: open"]
    assert disk_writes("disk.site") == ["2: os.replace"]
    assert disk_writes("page.extra") == ["2: .write_text()"]
    for check in (test_every_module_stands_on_a_floor, test_no_import_cycle,
                  test_imports_point_down, test_only_the_door_writes_on_disk):
        with pytest.raises(AssertionError):
            check()


# -- What an adapter leaves to the core (issue 39) -------------------------------------------

ADAPTERS = ("mkdocs", "pelican", "sphinx")
# Walking a folder, opening a file, matching globs: the core's work (and hosts/ helpers').
CORE_WORK = {"walk", "scandir", "listdir", "glob", "iglob", "rglob", "iterdir", "open",
             "read_text", "read_bytes", "fnmatch", "fnmatchcase"}
CORE_WORK_MODULES = {"glob", "fnmatch"}


def core_work(module: str) -> list[str]:
    """``line: what`` for each call or import in ``module`` that does the core's work."""
    found: list[str] = []
    for node in ast.walk(parse(module)):
        name = ""
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else "")
            name = name if name in CORE_WORK else ""
        elif isinstance(node, ast.Import):
            name = next((a.name for a in node.names if a.name in CORE_WORK_MODULES), "")
        elif isinstance(node, ast.ImportFrom) and node.module in CORE_WORK_MODULES:
            name = f"from {node.module}"
        if name:
            found.append(f"{node.lineno}: {name}")
    return found


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_adapters_neither_walk_nor_open_nor_match(adapter: str) -> None:
    """An adapter hands the core what its host knows: it walks no folder, opens no file and
    matches no glob itself (the core scans the output; hosts/host_files reads sources)."""
    assert core_work(adapter) == []


def test_core_work_is_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each kind of the core's work in a made-up adapter is caught."""
    (tmp_path / NAME).mkdir()
    (tmp_path / NAME / "sphinx.py").write_text(
        "import os, fnmatch\nfrom glob import glob\nfrom pathlib import Path\n"
        "os.walk('.')\nos.listdir('.')\nopen('x')\nPath('x').read_text()\n"
        "fnmatch.fnmatch('a', '*')\nPath('.').rglob('*')\n", "utf-8")
    monkeypatch.setitem(globals(), "PACKAGE", tmp_path / NAME)
    assert core_work("sphinx") == [
        "1: fnmatch", "2: from glob", "4: walk", "5: listdir", "6: open", "7: read_text",
        "8: fnmatch", "9: rglob"]


def test_no_module_is_over_800_lines() -> None:
    """A module past 800 lines is two rooms: split it by what it does (issue 39's cap)."""
    sizes = {m: len(PACKAGE.joinpath(*m.split(".")).with_suffix(".py").read_text("utf-8")
                    .splitlines()) for m in module_names()}
    assert {m: n for m, n in sizes.items() if n > 800} == {}
