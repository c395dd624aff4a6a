"""A host's settings as the core's options, read the same way by every adapter.

Each host keeps the options in its own place (MkDocs' ``plugins:`` entry, Pelican's
``SITEMAP_PLUGINS``, Sphinx's ``sitemap_plugins``) and shows a bad one in its own words. The
keys are checked, paths taken relative to the host's config file, the cache folder placed
beside it and the values checked here, once for all of them, so that a bad option gets the
same message everywhere.

A product is imported only when an option needs it checked before the host renders.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sitemap_plugins.vocab.errors import ConfigError, received
from sitemap_plugins.vocab.options import BUILD_OPTIONS, SitemapConfig, check_keys

PLACEHOLDER_URL = "https://example.invalid/"
"""The base URL the options are checked with when the host has none: a bad option then stops
the build even though no sitemap will be written."""
CACHE_DIR_NAME = ".sitemap-cache"
RELATIVE_TO_CONFIG = ("cache_dir", "changes_file", "html_sitemap_template")
"""Options naming a path, which in a host's config file is relative to it, as its own are."""


def read_options(raw: object, setting: str, *, base_url_from: str, key_noun: str,
                 misplaced: Mapping[str, str] | None = None) -> dict[str, Any]:
    """A host's dict of options as given, its keys checked (the core checks the values).

    ``setting`` is the dict's name in the host's config file; ``base_url_from`` the host's
    own setting of the base URL, which the dict may not repeat; ``key_noun`` what the host
    calls a key of it (``"a setting"``); ``misplaced``: keys of another plugin's settings,
    each with what to do instead.

    Raises:
        ConfigError: whose ``option`` is the place (``SITEMAP_PLUGINS['gzip']``).

    """
    if not isinstance(raw, Mapping):
        msg = f"Expected a dict of sitemap options but received: {received(raw)}"
        raise ConfigError(setting, msg)
    if "base_url" in raw:
        msg = (f"Not {key_noun} here: the base URL is {base_url_from}. "
               f"Set {base_url_from} instead.")
        raise ConfigError(f"{setting}['base_url']", msg)
    for key in raw:
        if misplaced is not None and key in misplaced:
            raise ConfigError(f"{setting}[{key!r}]", misplaced[key])
    try:
        check_keys(raw, [o.name for o in BUILD_OPTIONS if o.name != "base_url"])
    except ConfigError as err:
        raise ConfigError(f"{setting}[{err.option!r}]", err.message) from err
    return dict(raw)


def relative_to_config(name: str, value: object, config_dir: str) -> object:
    """An option's value as the core takes it, a path joined to the config file's folder.

    A path (:data:`RELATIVE_TO_CONFIG`) given in the host's config file is relative to that
    file's folder, ``config_dir``, as the host's own paths are.
    """
    if name in RELATIVE_TO_CONFIG and isinstance(value, str) and value.strip():
        return os.path.join(config_dir, value)
    return value


def host_config(options: Mapping[str, Any], *, base_url: str | None, config_dir: str,
                check_products: bool = True) -> SitemapConfig:
    """The core's config from a host's options, its base URL and its config file's folder.

    Without a base URL the options are checked with :data:`PLACEHOLDER_URL`. The cache folder
    is ``.sitemap-cache`` in ``config_dir`` unless the options name one. ``check_products``:
    also run the checks that need a product (compiling a user's HTML site map template), so
    that a typo stops the host before it renders.

    Raises:
        ConfigError: naming the option (``base_url`` for the host's base URL).

    """
    mapping = dict(options)
    mapping.setdefault("cache_dir", os.path.join(config_dir, CACHE_DIR_NAME))
    mapping["base_url"] = base_url or PLACEHOLDER_URL
    config = SitemapConfig.from_mapping(mapping)
    if config.entry_hook is not None:  # imported from the config file's folder, before a build
        from sitemap_plugins.products.build.hook import load_hook  # noqa: PLC0415

        hook = replace(config.entry_hook, folder=config_dir)
        load_hook(hook, fresh=True)
        config = replace(config, entry_hook=hook)
    if check_products and config.html_sitemap_template is not None:
        # Only a user's template needs a product now: the pipeline is imported when it runs.
        from sitemap_plugins.products.build.pipeline import check_products as check  # noqa: PLC0415

        check(config)
    return config


def preview_config(config: SitemapConfig) -> SitemapConfig:
    """``config`` for a host's dev server, whose sitemap lists the server's own URLs.

    It keeps no history (a manifest of localhost URLs would replace the site's dates), records
    nothing for IndexNow and asks git nothing, so a rebuild on every edit stays cheap.
    """
    return replace(config, fingerprint=False, changes_file=None, git_dates=False,
                   indexnow_key=None)
