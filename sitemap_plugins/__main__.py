"""``python -m sitemap_plugins``: the same program as ``sitemap-plugins``."""

from __future__ import annotations

import sys

from sitemap_plugins.cli import main

sys.exit(main())
