"""Run a real MkDocs or Pelican build and time what our plugin does inside it.

CPU-time differences between two whole builds are noisy on a shared machine (a few percent
from run to run); this measures the plugin's own share directly: the CPU time of the import
of the package and of every hook it runs in the host's process, plus the CPU time of every
process it waited for (our one ``git log``; the host starts none).

With ``--host-sitemap`` it times the host's own sitemap step instead, in a build that uses
it: MkDocs' rendering and gzipping of its ``sitemap.xml`` template, or pelican-sitemap's
import and signal handlers. Our plugin replaces that step, so what it adds to a build is its
own time less the host's.

Usage::

    python benchmarks/host_timer.py mkdocs build -q -f mkdocs.yml
    python benchmarks/host_timer.py pelican content -s pelicanconf.py -o output -q
    python benchmarks/host_timer.py --host-sitemap mkdocs build -q -f mkdocs-builtin.yml

Prints one JSON line at the end: ``{"import_cpu_s": ..., "hooks_cpu_s": {...},
"children_cpu_s": ..., "total_cpu_s": ..., "build_cpu_s": ...}``.
"""

from __future__ import annotations

import functools
import json
import resource
import sys
import time
from typing import Any

_TOTALS: dict[str, float] = {}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(name: str, function: Any) -> Any:
    @functools.wraps(function)
    def wrapper(*args: object, **kwargs: object) -> object:
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            _TOTALS[name] = _TOTALS.get(name, 0.0) + time.process_time() - start

    return wrapper


def _patch_mkdocs() -> None:
    from mkdocs.plugins import CombinedEvent  # noqa: PLC0415

    from sitemap_plugins import mkdocs as plugin  # noqa: PLC0415

    for name in dir(plugin.SitemapPlugin):
        if not name.startswith("on_"):
            continue
        # A CombinedEvent (several handlers under one event) is not callable: each of its
        # handlers is timed instead (MkDocs copies their event priorities from them).
        event = plugin.SitemapPlugin.__dict__.get(name, getattr(plugin.SitemapPlugin, name))
        if isinstance(event, CombinedEvent):
            timed = CombinedEvent(*(_timed(name, method)
                                    for method in event.methods))
        else:
            timed = _timed(name, event)
        setattr(plugin.SitemapPlugin, name, timed)


def _patch_pelican() -> None:
    from sitemap_plugins import pelican as plugin  # noqa: PLC0415

    # register() connects the module's globals when Pelican loads the plugin, after this.
    for name in dir(plugin):
        if name.startswith("on_"):
            setattr(plugin, name, _timed(name, getattr(plugin, name)))


def _patch_mkdocs_sitemap(label: str = "sitemap.xml template") -> None:
    from mkdocs.commands import build  # noqa: PLC0415

    render = build._build_theme_template  # noqa: SLF001
    timed = _timed(label, render)

    def choose(template_name: str, *args: Any, **kwargs: Any) -> None:
        chosen = timed if template_name == "sitemap.xml" else render
        chosen(template_name, *args, **kwargs)

    build._build_theme_template = choose  # noqa: SLF001


def _patch_pelican_sitemap() -> None:
    from pelican.plugins.sitemap import sitemap  # noqa: PLC0415

    # register() connects a new generator's bound methods, so the class is patched.
    for name in ("init", "queue_page", "finalize"):
        setattr(sitemap.SitemapGenerator, name,
                _timed(name, getattr(sitemap.SitemapGenerator, name)))


def main() -> int:
    host, *argv = sys.argv[1:]
    host_sitemap = host == "--host-sitemap"
    if host_sitemap:
        host, *argv = argv
    # The host's own modules first (Jinja2, Markdown...): importing them is not our cost.
    if host == "mkdocs":
        # Every build loads these before any plugin: its config schema (with the theme's
        # localization), the plugin base and the front-matter reader.
        import mkdocs.__main__  # noqa: PLC0415
        import mkdocs.commands.build  # noqa: PLC0415
        import mkdocs.config.defaults  # noqa: PLC0415
        import mkdocs.plugins  # noqa: PLC0415
        import mkdocs.utils.meta  # noqa: F401, PLC0415
    else:
        import pelican  # noqa: PLC0415
    start = time.process_time()
    if host_sitemap and host == "pelican":
        import pelican.plugins.sitemap  # noqa: F401, PLC0415
    elif host == "mkdocs" and not host_sitemap:
        import sitemap_plugins.mkdocs  # noqa: PLC0415
    elif not host_sitemap:
        import sitemap_plugins.pelican  # noqa: F401, PLC0415
    import_s = time.process_time() - start  # MkDocs' own sitemap needs no import
    if host_sitemap:
        (_patch_mkdocs_sitemap if host == "mkdocs" else _patch_pelican_sitemap)()
    else:
        (_patch_mkdocs if host == "mkdocs" else _patch_pelican)()
    if host == "mkdocs" and not host_sitemap:
        # MkDocs still loads its sitemap template when ours replaces it: what is left of
        # that step is ours to count (our hooks inside it are counted twice: microseconds).
        _patch_mkdocs_sitemap("sitemap.xml template, emptied")
    build_start = time.process_time()
    children_start = _children_cpu()
    code = 0
    try:
        if host == "mkdocs":
            from mkdocs.__main__ import cli  # noqa: PLC0415

            cli(argv, standalone_mode=False)
        else:
            from pelican import main as pelican_main  # noqa: PLC0415

            pelican_main(argv)
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    children = _children_cpu() - children_start
    build_s = time.process_time() - build_start + children
    hooks = sum(_TOTALS.values())
    print(json.dumps({"import_cpu_s": round(import_s, 4),
                      "hooks_cpu_s": {k: round(v, 4) for k, v in sorted(_TOTALS.items())},
                      "children_cpu_s": round(children, 4),
                      "total_cpu_s": round(import_s + hooks + children, 4),
                      "build_cpu_s": round(build_s, 4)}))
    return code


if __name__ == "__main__":
    sys.exit(main())
