"""``entry_hook``: a user's function called with each page's :class:`~.entry.rules.Entry`.

It is imported by ``module:function`` (so that each worker process imports it too), and what
it returns passes the checks every entry passes. A hook that fails stops the run before
anything is written.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from sitemap_plugins.entry.media import VideoEntry
from sitemap_plugins.entry.rules import Alternate, Entry
from sitemap_plugins.vocab.dates import coerce_lastmod, sort_key
from sitemap_plugins.vocab.errors import ConfigError, SitemapError, received
from sitemap_plugins.vocab.options import check_changefreq, check_priority
from sitemap_plugins.vocab.urls import is_within, resolve_href, url_problem
from sitemap_plugins.vocab.values import FUTURE_SLACK

if TYPE_CHECKING:
    from collections.abc import Callable

    from sitemap_plugins.vocab.options import EntryHook, SitemapConfig

_LOADED: dict[EntryHook, Callable[[Entry], object]] = {}


def load_hook(hook: EntryHook, *, fresh: bool = False) -> Callable[[Entry], object]:
    """The hook's function, imported from its folder or sys.path once per process.

    ``fresh``: imported again (as a build starts: a dev server's rebuild takes the edited
    module, and another folder's module of the same name is not taken for it).

    Raises:
        ConfigError: when the module cannot be imported or has no such function.
    """
    found = None if fresh else _LOADED.get(hook)
    if found is not None:
        return found
    if fresh:
        sys.modules.pop(hook.module, None)
    if hook.folder:  # first: the config's own module wins over one of the same name
        if hook.folder in sys.path:
            sys.path.remove(hook.folder)
        sys.path.insert(0, hook.folder)
    try:
        module = importlib.import_module(hook.module)
    except Exception as err:  # a user's module: any error it raises while imported
        msg = f"Cannot import {hook.module!r} (from {hook.folder} or sys.path): {err}"
        raise ConfigError("entry_hook", msg) from err
    function: Callable[[Entry], object] | None = getattr(module, hook.function, None)
    if not callable(function):
        msg = (f"Expected a function {hook.function!r} in {module.__file__} but received: "
               f"{received(function)}")
        raise ConfigError("entry_hook", msg)
    _LOADED[hook] = function
    return function


def apply_hook(entry: Entry, config: SitemapConfig) -> Entry | None:
    """What ``entry_hook`` makes of ``entry``: checked as any entry; None leaves it out.

    Raises:
        SitemapError: one line naming the hook and the page, when it raises or returns
            something that is no sitemap entry.
    """
    assert config.entry_hook is not None
    where = f"entry_hook {config.entry_hook}: {entry.rel_path}"
    try:
        value = load_hook(config.entry_hook)(entry)
    except Exception as err:  # the user's code: any error stops the run, in one line
        msg = f"{where}: raised {type(err).__name__}: {err}"
        raise SitemapError(msg) from err
    if value is None or value is entry:
        return value
    if type(value) is not Entry:
        msg = (f"{where}: expected the entry, a copy (dataclasses.replace) or None but "
               f"received: {received(value)}")
        raise SitemapError(msg)
    try:
        return _checked(value, config)
    except ConfigError as err:
        raise SitemapError(f"{where}: returned a bad entry: {err.option}: {err.message}") from err
    except TypeError as err:
        raise SitemapError(f"{where}: returned a bad entry: {err}") from err


def _checked(entry: Entry, config: SitemapConfig) -> Entry:
    """``entry`` as every entry is: its URLs escaped and under the base, its values in range."""
    loc = resolve_href(entry.loc, entry.loc) if isinstance(entry.loc, str) else None
    if loc is None or url_problem(loc) is not None or not is_within(loc, config.base_url):
        msg = f"loc is not a URL under {config.base_url}: {received(entry.loc)}"
        raise TypeError(msg)
    lastmod = None if entry.lastmod is None else coerce_lastmod(entry.lastmod)
    if entry.lastmod is not None and (lastmod is None or sort_key(lastmod) > datetime.now(
            timezone.utc) + FUTURE_SLACK):
        msg = f"lastmod is not a past date or timezone-aware datetime: {received(entry.lastmod)}"
        raise TypeError(msg)
    images = tuple(entry.images)
    for image in images:
        if not isinstance(image, str) or url_problem(image) is not None:
            raise TypeError(f"images hold no absolute http(s) URL: {received(image)}")
    for kind, items, item_type in (("videos", entry.videos, VideoEntry),
                                   ("alternates", entry.alternates, Alternate)):
        for item in items:
            if type(item) is not item_type:
                raise TypeError(f"{kind} hold no {item_type.__name__}: {received(item)}")
    return replace(
        entry, loc=loc, lastmod=lastmod, images=images, videos=tuple(entry.videos),
        alternates=tuple(entry.alternates),
        changefreq=None if entry.changefreq is None else check_changefreq(
            "changefreq", entry.changefreq),
        priority=None if entry.priority is None else check_priority("priority", entry.priority))
