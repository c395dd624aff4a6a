"""The Jinja2 environment for the XML templates.

The templates live in the project's top-level ``templates/`` folder and are mapped into the
wheel as ``sitemap_plugins/templates`` (hatch ``force-include``); a source checkout finds them
beside the package instead.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import jinja2

_PACKAGE_DIR = Path(__file__).resolve().parent.parent
TEMPLATE_DIRS = (_PACKAGE_DIR / "templates", _PACKAGE_DIR.parent / "templates")


def template_path(name: str) -> Path:
    """Where template ``name`` is.

    Raises:
        FileNotFoundError: when it is missing from the installation.
    """
    for folder in TEMPLATE_DIRS:
        if (folder / name).is_file():
            return folder / name
    searched = ", ".join(str(d) for d in TEMPLATE_DIRS)
    msg = f"template {name!r} is missing from the installation (looked in {searched})"
    raise FileNotFoundError(msg)


def template_environment(*extra_folders: str) -> jinja2.Environment:
    """The one Jinja2 set-up of every output: ``extra_folders`` first, then the shipped ones.

    Every template escapes everything: select_autoescape() would go by file suffix.
    """
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader([*extra_folders, *(str(d) for d in TEMPLATE_DIRS)]),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,
    )


@cache
def template_module(name: str) -> Any:  # noqa: ANN401  # Jinja's TemplateModule is untyped
    """The macros of template ``name`` (``urlset.xml``, ``sitemapindex.xml``)."""
    template_path(name)
    return template_environment().get_template(name).module
