"""Option validation: one message per bad value, in the MkDocs message grammar."""

from __future__ import annotations

import re
from datetime import date

import pytest

from sitemap_plugins.vocab.errors import ConfigError, PageValueError, unknown_key
from sitemap_plugins.vocab.options import (
    DEFAULTS,
    FRONT_MATTER_KEYS,
    PAGE_VALUES,
    PageValues,
    SitemapConfig,
    check_page_values,
)

BASE = {"base_url": "https://example.org/"}


def test_defaults_round_trip() -> None:
    """Every default passes validation unchanged."""
    config = SitemapConfig.from_mapping({**BASE, **DEFAULTS})
    assert config == SitemapConfig.from_mapping(BASE)
    assert config.changefreq == ()
    assert config.priority == ()


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("gzip", "yes", "Expected a boolean but received: 'yes' (str)"),
        ("exclude", "docs/*", "Expected a list of glob patterns but received: 'docs/*' (str)"),
        ("exclude", ["ok/*", 3], "Item 1: expected a glob pattern but received: 3 (int)"),
        ("exclude", [""], "Item 0: Expected a non-empty glob pattern but received: ''"),
        ("extensions", ["html"], "Item 0: expected an extension starting with '.' but received: 'html' (str)"),
        ("extensions", [], "Expected a non-empty list of file extensions such as ['.html', '.pdf'] but received: [] (list)"),
        ("changefreq", {"*": "sometimes"}, "Key '*': expected one of: 'always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never' but received: 'sometimes' (str)"),
        ("changefreq", "daily", "Expected a mapping of glob pattern to value but received: 'daily' (str)"),
        ("priority", {"blog/**": 1.5}, "Key 'blog/**': expected a number from 0.0 to 1.0 but received: 1.5 (float)"),
        ("priority", {"blog/**": "high"}, "Key 'blog/**': expected a number from 0.0 to 1.0 but received: 'high' (str)"),
        ("priority", {"blog/**": True}, "Key 'blog/**': expected a number from 0.0 to 1.0 but received: True (bool)"),
        ("robots_txt", "append", "Expected one of: 'merge', 'create', 'fragment', 'off' but received: 'append' (str)"),
        ("max_urls", 50_001, "Expected a whole number from 1 to 50,000 but received: 50001 (int)"),
        ("max_urls", "10", "Expected a whole number from 1 to 50,000 but received: '10' (str)"),
        ("max_bytes", 100, "Expected a whole number from 16,384 to 52,428,800 but received: 100 (int)"),
        ("sitemap_name", "site map", "Expected a plain file name without extension such as 'sitemap' but received: 'site map' (str)"),
        ("sitemap_name", "../x", "Expected a plain file name without extension such as 'sitemap' but received: '../x' (str)"),
        ("sitemap_name", "robots", "Expected a name whose files are not robots.txt or robots-sitemap.txt but received: 'robots' (str)"),
        ("sitemap_name", "Robots-Sitemap", "Expected a name whose files are not robots.txt or robots-sitemap.txt but received: 'Robots-Sitemap' (str)"),
        ("workers", -1, "Expected a whole number from 0 to 64 but received: -1 (int)"),
        ("cache_dir", "", "Expected a folder path but received: '' (str)"),
        ("base_url", "example.org", "Expected an absolute http(s) URL such as 'https://example.org/' but received: 'example.org'"),
        ("base_url", 42, "Expected a URL string but received: 42 (int)"),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 20 else None,
)
def test_bad_values_are_config_errors(key: str, value: object, message: str) -> None:
    """A bad value raises ConfigError naming the option, with a pinned message."""
    with pytest.raises(ConfigError, match="^" + re.escape(message) + "$") as caught:
        SitemapConfig.from_mapping({**BASE, key: value})
    assert caught.value.option == key


def test_unknown_key_suggests_close_match() -> None:
    """A misspelt option is an error with a suggestion."""
    with pytest.raises(ConfigError, match=r"^Unrecognised option\. Did you mean 'exclude'\?$"):
        SitemapConfig.from_mapping({**BASE, "exclud": []})


def test_base_url_required() -> None:
    """Without a base URL there is nothing to build absolute URLs from."""
    with pytest.raises(ConfigError, match=r"^Required: the public URL of the site root\.$"):
        SitemapConfig.from_mapping({})


def test_rules_keep_order_and_accept_pairs() -> None:
    """Rules are ordered: the first matching glob wins, so order is kept."""
    config = SitemapConfig.from_mapping(
        {**BASE, "priority": [("blog/**", 0.8), ("**", 0.5)], "changefreq": {"news/**": "daily"}})
    assert config.priority == (("blog/**", 0.8), ("**", 0.5))
    assert config.changefreq == (("news/**", "daily"),)


def test_extensions_are_normalised() -> None:
    """Extensions are compared case-insensitively and de-duplicated."""
    config = SitemapConfig.from_mapping({**BASE, "extensions": [".HTML", ".html", ".pdf"]})
    assert config.extensions == (".html", ".pdf")


# --- Page values: one check for MkDocs front matter and Pelican metadata -----------------


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"sitemap": False}, PageValues(sitemap=False)),
        ({"sitemap": "no"}, PageValues(sitemap=False)),  # Pelican's metadata are text
        ({"sitemap": None, "priority": None}, PageValues()),
        ({"priority": "0.8", "changefreq": " Weekly "}, PageValues(priority=0.8, changefreq="weekly")),
        ({"priority": 1}, PageValues(priority=1.0)),
        ({"lastmod": "2024-05-06"}, PageValues(lastmod=date(2024, 5, 6))),
        ({"lastmod": date(2024, 5, 6)}, PageValues(lastmod=date(2024, 5, 6))),
        ({"private": "True"}, PageValues(private=True)),
    ],
    ids=["false", "no-text", "unset", "pelican-text", "int-priority", "lastmod-text",
         "lastmod-date", "private"],
)
def test_page_values_accept_each_hosts_spelling(values: dict[str, object],
                                                expected: PageValues) -> None:
    """A YAML value and a Pelican text value of the same meaning are the same page value."""
    assert check_page_values(values, "blog/post.md") == expected


@pytest.mark.parametrize(
    ("values", "keys", "message"),
    [
        ({"priority": "high"}, None, ("Page 'a.md' sitemap value 'priority': Expected a "
         "number from 0.0 to 1.0 but received: 'high' (str)")),
        ({"priority": 1.5}, None, ("Page 'a.md' sitemap value 'priority': Expected a number "
         "from 0.0 to 1.0 but received: 1.5 (float)")),
        ({"priority": True}, None, ("Page 'a.md' sitemap value 'priority': Expected a number "
         "from 0.0 to 1.0 but received: True (bool)")),
        ({"changefreq": "sometimes"}, None, ("Page 'a.md' sitemap value 'changefreq': Expected "
         "one of: 'always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never' but "
         "received: 'sometimes' (str)")),
        ({"lastmod": "soon"}, None, ("Page 'a.md' sitemap value 'lastmod': Expected a date "
         "such as 2024-05-06 or 2024-05-06T10:00:00+02:00 but received: 'soon' (str)")),
        ({"sitemap": "maybe"}, None, ("Page 'a.md' sitemap value 'sitemap': Expected true or "
         "false but received: 'maybe' (str)")),
        ({"prio": 0.5}, FRONT_MATTER_KEYS, ("Page 'a.md' sitemap value 'prio': Unrecognised "
         "key. Did you mean 'priority'?")),
        ({"private": True}, FRONT_MATTER_KEYS,
         "Page 'a.md' sitemap value 'private': Unrecognised key."),
    ],
    ids=["priority-word", "priority-range", "priority-bool", "changefreq", "lastmod",
         "sitemap", "unknown-key", "pelican-only-key"],
)
def test_a_bad_page_value_names_the_page_and_the_key(
    values: dict[str, object], keys: tuple[str, ...] | None, message: str,
) -> None:
    """Each bad page value is one PageValueError whose message both hosts show as it is."""
    with pytest.raises(PageValueError) as caught:
        check_page_values(values, "a.md", *([keys] if keys is not None else []))
    assert str(caught.value) == message


def test_every_page_value_is_declared_once() -> None:
    """The page-value table names each key once, and MkDocs' mapping takes only its values."""
    names = [value.name for value in PAGE_VALUES]
    assert len(names) == len(set(names))
    assert set(FRONT_MATTER_KEYS) == {"lastmod", "changefreq", "priority"}


@pytest.mark.parametrize(("key", "known", "expected"), [
    ("prio", ["priority", "changefreq"], "Unrecognised option. Did you mean 'priority'?"),
    ("zzz", ["priority", "changefreq"], "Unrecognised option."),
], ids=["close", "none-close"])
def test_unknown_key_suggests_the_closest(key: str, known: list[str], expected: str) -> None:
    """The one "did you mean" helper offers the closest known key, or none."""
    assert unknown_key(key, known) == expected




def test_every_front_end_refuses_an_html_sitemap_over_an_own_file() -> None:
    """The refusal is the core's (SitemapConfig.from_mapping, which every host calls): the same
    words in the CLI, MkDocs, Pelican and Sphinx."""
    with pytest.raises(ConfigError) as caught:
        SitemapConfig.from_mapping({"base_url": "https://example.org/",
                                    "html_sitemap": "sitemap.xml/"})
    assert (caught.value.option, caught.value.message) == ("html_sitemap", (
        "Expected a path clear of the files the build writes at the site root but received: "
        "'sitemap.xml/' (str)"))
