"""MkDocs-family projects built without our plugin: Zensical, MkDocs 2.0, ProperDocs.

Zensical has no plugin API (it drops ``plugins: [sitemap]`` and ``hooks:``) and MkDocs 2.0
has no plugins: the CLI reads the built folder, and this module tells it what the host knew.
It reads the config file (Zensical's own parser when installed, else a tolerant reader that
imports nothing), maps each built page to its Markdown source as MkDocs names them, and dates
it by the rules and the one ``git log`` of the MkDocs plugin, so both give the same lastmods.

It reads the config and the sources; it writes nothing.
"""

from __future__ import annotations

import os
import re
import sys
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sitemap_plugins.entry import page_values
from sitemap_plugins.entry.rules import PageHints
from sitemap_plugins.hosts import git_dates, markdown_includes
from sitemap_plugins.hosts.config import host_config, read_options, relative_to_config
from sitemap_plugins.vocab.errors import ConfigError
from sitemap_plugins.vocab.options import FRONT_MATTER_KEYS

if TYPE_CHECKING:
    from types import ModuleType

    import yaml

    from sitemap_plugins.products.html_map.plan import NavNode
    from sitemap_plugins.vocab.options import SitemapConfig

CONFIG_NAMES = ("zensical.toml", "mkdocs.yml", "mkdocs.yaml", "properdocs.yml")
"""Looked for in this order in the folder the CLI runs in."""
REASON_FRONT_MATTER = "front matter sitemap: false"
REASON_STATIC_HTML = "static HTML copied from docs_dir"
MARKDOWN = (".md", ".markdown", ".mdown", ".mkdn", ".mkd")
_INDEX_STEMS = ("index", "README")  # MkDocs: either is its folder's page; index wins
_FRONT = re.compile(r"\A-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.DOTALL)  # as MkDocs


@dataclass(frozen=True)
class FamilyConfig:
    """What a MkDocs-family config file says that the sitemap needs."""

    path: str
    site_dir: str
    docs_dir: str
    site_url: str | None = None
    directory_urls: bool = True
    options: dict[str, Any] = field(default_factory=dict)
    """Our own options: ``[project.plugins.sitemap]`` or ``plugins: - sitemap: {...}``."""
    setting: str = "plugins.sitemap"
    extensions: tuple[str, ...] = ()
    mdx_configs: dict[str, Any] = field(default_factory=dict)
    mkdocstrings: Mapping[str, Any] | None = None
    nav: object = None
    """``nav`` as written: the HTML site map follows it."""


def find_config(folder: str) -> str | None:
    """The first of :data:`CONFIG_NAMES` in ``folder``; None when it has none."""
    return next((os.path.join(folder, name) for name in CONFIG_NAMES
                 if os.path.isfile(os.path.join(folder, name))), None)


def read_config(path: str) -> FamilyConfig:
    """The config file at ``path`` (TOML for Zensical, else MkDocs' YAML).

    Raises:
        ConfigError: whose ``option`` names the file (and the setting), in one line.

    """
    name = os.path.basename(path)
    raw = _read_raw(path)
    project = raw.get("project", raw) if name.endswith(".toml") else raw
    if not isinstance(project, Mapping):
        raise ConfigError(name, "Expected a table of settings but received: "
                                f"{type(project).__name__}")
    setting = "[project.plugins.sitemap]" if name.endswith(".toml") else "plugins.sitemap"
    parsed = _zensical_view(path) if name != "properdocs.yml" else None
    view = parsed if parsed is not None else project
    root = os.path.dirname(os.path.abspath(path))
    extensions, mdx = ((list(view["markdown_extensions"]), dict(view["mdx_configs"]))
                       if parsed is not None else _extensions(view.get("markdown_extensions")))
    snippets = mdx.get("pymdownx.snippets")
    if isinstance(snippets, dict):  # relative to where the host ran: the config's folder
        bases = snippets.get("base_path", ["."])
        bases = [bases] if isinstance(bases, str) else bases if isinstance(bases, list) else []
        snippets["base_path"] = [os.path.join(root, b) for b in bases if isinstance(b, str)]
    # mkdocstrings: a Markdown extension in Zensical (zensical.extensions.mkdocstrings), else
    # MkDocs' plugin.
    autodoc_name = next((e for e in extensions if e.rpartition(".")[2] == "mkdocstrings"), None)
    autodoc = (mdx.get(autodoc_name) if autodoc_name is not None
               else _plugin_options(view.get("plugins"), "mkdocstrings") or None)
    site_url = view.get("site_url")
    return FamilyConfig(
        path=os.path.abspath(path),
        site_dir=os.path.join(root, str(view.get("site_dir") or "site")),
        docs_dir=os.path.join(root, str(view.get("docs_dir") or "docs")),
        site_url=site_url if isinstance(site_url, str) and site_url.strip() else None,
        directory_urls=view.get("use_directory_urls") is not False,
        options=_plugin_options(project.get("plugins"), "sitemap"), setting=setting,
        extensions=tuple(extensions), mdx_configs=mdx,
        mkdocstrings=autodoc if isinstance(autodoc, Mapping) else None, nav=project.get("nav"))


def file_options(family: FamilyConfig) -> dict[str, Any]:
    """Our options as the file gives them, checked as the MkDocs plugin checks them.

    Raises:
        ConfigError: naming the file and the setting.

    """
    name, folder = os.path.basename(family.path), os.path.dirname(family.path)
    try:
        given = read_options({k: v for k, v in family.options.items() if k != "enabled"},
                             family.setting, base_url_from="site_url", key_noun="an option here")
        options = {k: relative_to_config(k, v, folder) for k, v in given.items()}
        options.setdefault("directory_urls", family.directory_urls)
        host_config(options, base_url=family.site_url, config_dir=folder)
    except ConfigError as err:
        where = err.option if err.option.startswith(family.setting) else (
            "site_url" if err.option == "base_url" else f"{family.setting}[{err.option!r}]")
        raise ConfigError(f"{name}: {where}", err.message) from err
    options.setdefault("cache_dir", os.path.join(folder, ".sitemap-cache"))
    return options


def page_sources(docs_dir: str, *, directory_urls: bool) -> dict[str, str]:
    """Each page's output path (``a/b/index.html``) to its source under ``docs_dir`` (``a/b.md``).

    As MkDocs names them: ``index`` and ``README`` are their folder's page (``index`` wins), other
    pages ``a/b/index.html`` with directory URLs and ``a/b.html`` without; names starting
    with a dot are left out, as MkDocs leaves them.
    """
    sources: dict[str, str] = {}
    for folder, dirs, names in os.walk(docs_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        rel = os.path.relpath(folder, docs_dir).replace(os.sep, "/")
        prefix = "" if rel == "." else rel + "/"
        for name in sorted(names, key=lambda n: n.startswith("README")):  # index first
            stem, ext = os.path.splitext(name)
            if ext.lower() not in MARKDOWN or name.startswith("."):
                continue
            dest = (f"{prefix}index.html" if stem in _INDEX_STEMS
                    else f"{prefix}{stem}/index.html" if directory_urls else f"{prefix}{stem}.html")
            sources.setdefault(dest, prefix + name)
    return sources


def nav_outline(nav: object, dests: Mapping[str, str]) -> tuple[NavNode, ...]:
    """MkDocs' ``nav`` setting as the core's outline; ``dests``: each source's output path.

    ``- Title: page.md``, ``- page.md`` and ``- Section: [...]``; links elsewhere are left out.
    """
    from sitemap_plugins.products.html_map.plan import NavNode  # noqa: PLC0415  # the map's

    nodes: list[NavNode] = []
    for item in nav if isinstance(nav, list) else ():
        title, value = (next(iter(item.items())) if isinstance(item, Mapping) and len(item) == 1
                        else (None, item))
        if isinstance(value, list):
            nodes.append(NavNode(str(title), None, nav_outline(value, dests)))
        elif isinstance(value, str) and value in dests:
            nodes.append(NavNode(None if title is None else str(title), dests[value]))
    return tuple(nodes)


def front_values(meta: Mapping[str, Any], where: str) -> page_values.OwnValues:
    """A page's ``sitemap:`` key and ``date`` from its front matter (MkDocs' ``page.meta``).

    Raises:
        PageValueError: naming the page and the key, for an invalid ``sitemap:`` value.

    """
    if "sitemap" not in meta and "date" not in meta:
        return page_values.NO_OWN_VALUES  # most pages: nothing to check, nothing to make
    value, date = meta.get("sitemap"), meta.get("date")
    if isinstance(value, dict):  # sitemap: {lastmod: ..., changefreq: ..., priority: ...}
        return page_values.own_values(value, where, date_value=date, keys=FRONT_MATTER_KEYS)
    return page_values.own_values({"sitemap": value}, where, date_value=date)


def family_hints(site_dir: str, docs_dir: str, config: SitemapConfig,
                 family: FamilyConfig | None = None) -> tuple[dict[str, PageHints], list[str]]:
    """What the host knew of each built page, as the MkDocs plugin hands it to the core.

    Returns the hints by output path, and notes to show (a shallow clone).

    Raises:
        PageValueError: for a page's invalid ``sitemap:`` front matter.

    """
    sources = {dest: src for dest, src in page_sources(
        docs_dir, directory_urls=config.directory_urls).items()
        if os.path.isfile(os.path.join(site_dir, dest))}
    hints: dict[str, PageHints] = {}
    if not config.static_html:
        for folder, _, names in os.walk(docs_dir):
            for name in names:
                rel = os.path.relpath(os.path.join(folder, name), docs_dir).replace(os.sep, "/")
                if (name.lower().endswith((".html", ".htm", ".xhtml"))
                        and os.path.isfile(os.path.join(site_dir, rel))):
                    hints[rel] = PageHints(exclude=REASON_STATIC_HTML)
    fronts: dict[str, page_values.OwnValues] = {}
    includes: dict[str, tuple[str, ...]] = {}
    for dest, src in sorted(sources.items()):
        text = _read_text(os.path.join(docs_dir, src))
        fronts[dest] = front_values(_front_matter(text), src)
        if fronts[dest].exclude:
            hints[dest] = PageHints(exclude=REASON_FRONT_MATTER)
        elif family is not None and config.git_dates:
            includes[dest] = tuple(markdown_includes.page_includes(
                _FRONT.sub("", text), extensions=family.extensions,
                mdx_configs=family.mdx_configs, mkdocstrings=family.mkdocstrings,
                config_dir=os.path.dirname(family.path)))
    listed = {dest: front for dest, front in fronts.items() if not front.exclude}
    notes: list[str] = []
    log = git_dates.NO_GIT_LOG
    if config.git_dates and any(front.lastmod is None for front in listed.values()):
        log = git_dates.read_git_log(docs_dir)
        if log.shallow:
            notes.append(git_dates.shallow_note(
                "git_dates to false in the config file's sitemap options"))
    included = git_dates.included_commits({d: includes.get(d, ()) for d in listed})
    claims = page_values.with_listings(
        {dest: page_values.date_claims(front, [
            *([c] if (c := log.commit(sources[dest])) else []), *included[dest]])
         for dest, front in listed.items()}, {})
    for dest, front in listed.items():
        page_hints = PageHints(dates=claims[dest], changefreq=front.changefreq,
                               priority=front.priority, published=front.published)
        if page_hints != PageHints():
            hints[dest] = page_hints
    return hints, notes


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


def _front_matter(text: str) -> dict[str, Any]:
    """The YAML front matter of a Markdown source, read as MkDocs reads it; {} without."""
    match = _FRONT.match(text)
    if match is None:
        return {}
    yaml = _yaml("a page's front matter")
    try:
        data = yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}


def _yaml(what: str) -> ModuleType:
    try:
        import yaml  # noqa: PLC0415  # only for YAML configs and front matter
    except ImportError:
        raise ConfigError(what, f"PyYAML is needed to read {what}: pip install pyyaml") from None
    module: ModuleType = yaml
    return module


def _read_raw(path: str) -> Mapping[str, Any]:
    """The file as data, its tags kept as text (``!!python/name:``) and ``!ENV`` resolved."""
    name = os.path.basename(path)
    try:
        if name.endswith(".toml"):
            if sys.version_info >= (3, 11):
                import tomllib  # noqa: PLC0415
            else:  # Python 3.10
                import tomli as tomllib  # noqa: PLC0415
            with open(path, "rb") as handle:
                data: object = tomllib.load(handle)
            return data if isinstance(data, dict) else {}
        yaml = _yaml(name)
        with open(path, encoding="utf-8-sig") as handle:
            data = yaml.load(handle, Loader=_tolerant_loader(yaml))  # safe, see there
    except ConfigError:
        raise
    except ImportError:
        raise ConfigError(name, "tomli is needed to read TOML on Python 3.10: "
                                "pip install tomli") from None
    except Exception as err:  # noqa: BLE001  # OSError, TOMLDecodeError, YAMLError
        raise ConfigError(name, "cannot be read: " + " ".join(str(err).split())) from None
    data = data if isinstance(data, dict) else {}
    parent = data.pop("INHERIT", None)  # MkDocs: mappings merge, the rest is replaced
    if isinstance(parent, str):
        return _merged(dict(_read_raw(os.path.join(os.path.dirname(path), parent))), data)
    return data


def _merged(parent: dict[str, Any], child: Mapping[str, Any]) -> dict[str, Any]:
    for key, value in child.items():
        old = parent.get(key)
        parent[key] = (_merged(dict(old), value) if isinstance(old, dict)
                       and isinstance(value, dict) else value)
    return parent


def _tolerant_loader(lib: ModuleType) -> type[yaml.SafeLoader]:
    """A safe loader that keeps ``!!python/...`` tags as text and resolves ``!ENV``.

    It never imports what a tag names (a Zensical project need not have Material installed).
    """

    class Loader(lib.SafeLoader):  # type: ignore[name-defined,misc]  # untyped
        pass

    def python_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> str:
        del loader, node
        return f"!!python/{suffix}"

    def other_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> None:
        del loader, suffix, node  # !relative and the like: nothing we read

    def env(loader: yaml.SafeLoader, node: yaml.Node) -> object:
        names = ([loader.construct_scalar(node)] if isinstance(node, lib.ScalarNode)
                 else [loader.construct_object(child) for child in node.value])
        default = names.pop() if len(names) > 1 else None
        return next((lib.safe_load(os.environ[n]) for n in names if n in os.environ), default)

    Loader.add_multi_constructor("tag:yaml.org,2002:python/", python_tag)
    Loader.add_constructor("!ENV", env)
    Loader.add_multi_constructor("!", other_tag)
    return Loader


def _zensical_view(path: str) -> dict[str, Any] | None:
    """The config as Zensical's own parser reads it, when Zensical is installed; else None."""
    try:
        from zensical.config import parse_config  # noqa: PLC0415
    except ImportError:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parsed = parse_config(os.path.abspath(path))
    except Exception:  # noqa: BLE001  # Zensical refused it: the tolerant reading stands
        return None
    return parsed if isinstance(parsed, dict) else None


def _plugin_options(plugins: object, name: str) -> dict[str, Any]:
    """A plugin's options from ``plugins`` (a list or a table); {} when it is not there."""
    entries = (plugins.items() if isinstance(plugins, Mapping)
               else [next(iter(p.items())) if isinstance(p, Mapping) and len(p) == 1 else (p, {})
                     for p in plugins] if isinstance(plugins, list) else [])
    value = next((v for k, v in entries if k == name), None)
    return dict(value) if isinstance(value, Mapping) else {}


def _extensions(value: object) -> tuple[list[str], dict[str, Any]]:
    """MkDocs' ``markdown_extensions`` (a list, or Zensical's table) as names and settings."""
    if isinstance(value, Mapping):
        items = [(k, v) for k, v in value.items() if k != "pymdownx"]
        nested = value.get("pymdownx")
        if isinstance(nested, Mapping):
            items += [(f"pymdownx.{k}", v) for k, v in nested.items()]
    elif isinstance(value, list):
        items = [next(iter(v.items())) if isinstance(v, Mapping) and len(v) == 1 else (v, {})
                 for v in value]
    else:
        items = []
    names = [str(k) for k, _ in items]
    return names, {str(k): (dict(v) if isinstance(v, Mapping) else {}) for k, v in items}
