"""``sitemap-plugins explain SITE_DIR PAGE``: why the last build listed a page or not, and its date.

It reads only the build's record in its cache, and the sitemaps to name the one holding the URL.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from sitemap_plugins.disk.cache_keys import default_cache_dir
from sitemap_plugins.disk.history import decided
from sitemap_plugins.products.diff import DiffError, part_file, sitemap_entries
from sitemap_plugins.vocab.errors import PathError

NO_RECORD = ("no build record in {cache} (no cache yet, fingerprint off, or built before "
             "explain existed): build again with fingerprint on and keep that cache "
             "folder (or pass --cache-dir), then run explain")


class NoRecordError(PathError):
    """The build recorded nothing ``explain`` can read."""


def _candidates(page: str, base_url: str) -> list[str]:
    """The files a PAGE given as a path or URL may be, most likely first."""
    if page.startswith(("http://", "https://")):
        if not page.startswith(base_url):
            return []
        page = unquote(urlsplit(page[len(base_url):]).path)
    page = page.lstrip("/")
    if not page or page.endswith("/"):
        return [page + "index.html", page + "index.htm"]
    return [page, page + ".html", page + "/index.html", page + "/index.htm"]


def explain_page(site_dir: str, page: str, cache_dir: str | None = None) -> dict[str, Any]:
    """What the last build decided about ``page``, as ``explain --json`` prints it.

    Raises:
        NoRecordError: when there is no record of a build of ``site_dir`` to read.
    """
    site = Path(site_dir)
    # The hosts keep theirs beside their config file, which may be a few folders up (Sphinx).
    caches = [Path(cache_dir).absolute()] if cache_dir else [
        default_cache_dir(site), *(up / ".sitemap-cache" for up in site.resolve().parents[1:4])]
    meta: dict[str, str] = {}
    for cache in caches:
        try:
            meta, rel, text = decided(cache, site, lambda base: _candidates(page, base), page)
        except sqlite3.Error as err:
            raise NoRecordError(str(cache), f"cannot be read ({err})") from err
        if meta:
            break
    if not meta:
        raise NoRecordError(str(site), NO_RECORD.format(cache=caches[0]))
    found: dict[str, Any] = json.loads(text) if text else {}
    reason = found.get("reason", "")
    url = found.get("url", "")
    return {
        "page": rel, "recorded": bool(rel), "listed": bool(rel) and not reason,
        "reason": reason, "rule": found.get("rule", ""), "target": found.get("target", ""),
        "url": url, "sitemap_file": _holder(site, meta.get("sitemap_name", "sitemap"), url),
        "lastmod": found.get("lastmod", ""), "lastmod_source": found.get("source", ""),
        "changed": found.get("changed", ""),
        "dates": [{"kind": k, "value": v, "source": s} for k, v, s in found.get("dates", ())],
        "rules": [{"option": o, "glob": g, "value": v} for o, g, v in found.get("rules", ())],
        "images": found.get("images", 0), "videos": found.get("videos", 0),
        "videos_left_out": found.get("videos_left_out", []), "notes": found.get("notes", []),
    }


def _holder(site: Path, name: str, url: str) -> str:
    """The sitemap file of ``site`` that lists ``url`` (the index's parts looked through)."""
    index = site / f"{name}.xml"
    if not url or not index.is_file():
        return ""
    try:
        parts = []
        for kind, loc, _ in sitemap_entries(index):
            if kind == "urlset" and loc == url:
                return index.name
            parts.append(loc)
        for loc in parts if kind != "urlset" else ():
            path = part_file(site, index.name, loc)
            if any(listed == url for _, listed, _ in sitemap_entries(path)):
                return path.relative_to(site).as_posix()
    except DiffError:
        return ""  # not a sitemap now: nothing holds it
    return ""


def explain_lines(page: str, found: dict[str, Any]) -> list[str]:
    """``explain`` without ``--json``: what was decided, then the details, one per line."""
    if not found["recorded"]:
        return [(f"{page}: the last build recorded no decision about it (no such file then, "
                f"or not a page by its extension)")]
    rel = found["page"]
    if not found["listed"]:
        why = found["reason"] + (f" (glob {found['rule']!r})" if found["rule"] else "") + (
            f" -> {found['target']}" if found["target"] else "")
        return [f"{rel}: not listed: {why}", *(f"  note: {n}" for n in found["notes"])]
    held = f" in {found['sitemap_file']}" if found["sitemap_file"] else " (in no sitemap file now)"
    lines = [f"{rel}: listed as {found['url']}{held}",
             f"  lastmod: {found['lastmod'] or '(none: no date known)'}"
             + (f" from {found['lastmod_source']}" if found["lastmod_source"] else ""),
             *(f"  date offered: {d['kind']} {d['value']} ({d['source']})"
               for d in found["dates"])]
    if found["changed"]:
        lines.append(f"  content last seen changed: {found['changed']}")
    lines += [f"  {r['option']}: {r['value']} by glob {r['glob']!r}" for r in found["rules"]]
    if found["images"] or found["videos"] or found["videos_left_out"]:
        lines.append(f"  images: {found['images']}, videos: {found['videos']}" + "".join(
            f"; video left out: {why}" for why in found["videos_left_out"]))
    return lines + [f"  note: {note}" for note in found["notes"]]
