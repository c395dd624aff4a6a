"""The sitemap step keeps the caller's heap out of its garbage collections, and gives it back."""

from __future__ import annotations

import gc
import sys
from typing import TYPE_CHECKING

import pytest

from sitemap_plugins import ScanError, SitemapConfig, generate

if TYPE_CHECKING:
    from pathlib import Path

GENERATE = sys.modules["sitemap_plugins.generate"]


def test_the_callers_objects_sit_out_the_step_and_come_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_bytes(b"<html><head><title>t</title></head><body>x</body></html>")
    config = SitemapConfig.from_mapping({"base_url": "https://example.org/",
                                         "cache_dir": str(tmp_path / "cache")})
    frozen_during: list[int] = []
    real = GENERATE._generate

    def watching(*args: object, **kwargs: object) -> object:
        frozen_during.append(gc.get_freeze_count())
        return real(*args, **kwargs)

    monkeypatch.setattr(GENERATE, "_generate", watching)
    assert gc.get_freeze_count() == 0
    generate(site, config)
    assert frozen_during[0] > 1000  # the interpreter's and pytest's objects, at least
    assert gc.get_freeze_count() == 0
    with pytest.raises(ScanError):
        generate(tmp_path / "missing", config)
    assert gc.get_freeze_count() == 0
