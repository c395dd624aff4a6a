"""What a run tells its user: one level for each diagnostic, and the JSON summary.

:func:`log_level` is every front-end's one policy. The JSON summary shares one envelope across
commands, versioned by ``"schema"``. Writes and prints nothing itself.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from sitemap_plugins.vocab.errors import Level

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from sitemap_plugins.products.build.pipeline import Result
    from sitemap_plugins.products.check.checker import Problem
    from sitemap_plugins.products.diff import Diff
    from sitemap_plugins.products.merge.builds import Merged
    from sitemap_plugins.products.submit import Submission
    from sitemap_plugins.vocab.errors import Diagnostic

SCHEMA = "sitemap-plugins/report/1"


def log_level(diagnostic: Diagnostic) -> int:
    """The ``logging`` level a diagnostic is reported at, by every front-end."""
    if diagnostic.level is Level.WARNING:
        return logging.WARNING
    return logging.DEBUG if diagnostic.path else logging.INFO


def dropped_line(dropped: int) -> str:
    """The note that stands for the diagnostics past the cap (reported at info)."""
    return f"{dropped:,} more diagnostics not shown"


def shown(diagnostics: Iterable[Diagnostic], threshold: int) -> Iterator[tuple[int, Diagnostic]]:
    """The diagnostics at ``threshold`` or above, with their level, in the run's order."""
    for diagnostic in diagnostics:
        level = log_level(diagnostic)
        if level >= threshold:
            yield level, diagnostic


def log_result(log: logging.Logger | logging.LoggerAdapter[Any], result: Result,
               prefix: str = "", show: Callable[[str], None] | None = None, *,
               level: Callable[[Diagnostic], int] = log_level,
               extra: Callable[[Diagnostic], dict[str, object]] | None = None) -> None:
    """Log a build's diagnostics by :func:`log_level`, then its one summary line (info).

    ``show`` takes the summary line when the log would not show info; ``level``: the host's
    exceptions to :func:`log_level`; ``extra``: a diagnostic's host fields (Sphinx's type).
    """
    for diagnostic in result.diagnostics:
        log.log(level(diagnostic), "%s%s", prefix, diagnostic,
                extra=extra(diagnostic) if extra is not None else None)
    if result.dropped_diagnostics:
        log.info("%s%s", prefix, dropped_line(result.dropped_diagnostics))
    line = f"Sitemap: {result.summary_line()}"
    if show is not None and not log.isEnabledFor(logging.INFO):
        show(line)
    else:
        log.info("%s", line)
    log.debug("Sitemap: %d page records came from the cache (same bytes)", result.cached)


def _diagnostic(diagnostic: Diagnostic) -> dict[str, str]:
    return {"level": diagnostic.level.value, "code": diagnostic.code,
            "path": diagnostic.path, "message": diagnostic.message}


def envelope(command: str, *, ok: bool, seconds: float,
             diagnostics: Iterable[Diagnostic] = (), dropped: int = 0) -> dict[str, Any]:
    """The keys every command's summary has; a command adds its own after them."""
    shown = [_diagnostic(d) for d in diagnostics]
    return {
        "schema": SCHEMA,
        "command": command,
        "ok": ok,
        "seconds": round(seconds, 3),
        "warnings": sum(1 for d in shown if d["level"] == "warning"),
        "diagnostics": shown,
        "diagnostics_not_shown": dropped,
    }


def build_report(result: Result, seconds: float) -> dict[str, Any]:
    """``sitemap-plugins build``: what was listed, left out by reason, written and removed."""
    report = envelope("build", ok=True, seconds=seconds, diagnostics=result.diagnostics,
                      dropped=result.dropped_diagnostics)
    changes = result.changes
    report.update({
        "sitemap_url": result.sitemap_url,
        "split": result.split,
        "listed": result.listed,
        "left_out": dict(sorted(result.excluded.items(),
                                key=lambda item: (item[0].lower(), item[0]))),
        "left_out_total": sum(result.excluded.values()),
        "cached": result.cached,
        "media": {
            "images": result.images,
            "videos": result.videos,
            "videos_left_out": dict(sorted(result.videos_skipped.items())),
        },
        "news": result.news,
        "files": list(result.files),
        "removed": list(result.removed),
        "changes": None if changes is None or not changes.baseline else {
            "added": changes.added_count,
            "changed": changes.changed_count,
            "removed": changes.removed_count,
        },
    })
    return report


def check_report(problems: list[Problem], checked: int, seconds: float) -> dict[str, Any]:
    """``sitemap-plugins check``: the URLs checked and each problem by file."""
    report = envelope("check", ok=all(p.warning for p in problems), seconds=seconds)
    report.update({
        "checked": checked,
        "problems": [{"file": p.file, "message": p.message,
                      "level": "warning" if p.warning else "error"} for p in problems],
    })
    return report


def merge_report(merged: Merged, seconds: float) -> dict[str, Any]:
    """``sitemap-plugins merge``: the builds offered, the sitemaps and URLs they hold."""
    report = envelope("merge", ok=True, seconds=seconds, diagnostics=merged.diagnostics)
    report.update({
        "index_urls": list(merged.index_urls),
        "builds": [b.folder for b in merged.builds],
        "not_offered": list(merged.not_offered),
        "sitemaps": merged.sitemaps,
        "urls": merged.urls,
        "files": list(merged.files),
        "removed": list(merged.removed),
    })
    return report


def submit_report(submission: Submission, seconds: float, *, dry_run: bool) -> dict[str, Any]:
    """``sitemap-plugins submit``: the batches, what each got, what stays pending."""
    failed = submission.failed
    report = envelope("submit", ok=failed is None, seconds=seconds)
    if failed is not None:
        report["errors"] = [failed.error]
    report.update({
        "endpoint": submission.endpoint,
        "host": submission.host,
        "key_location": submission.key_location,
        "dry_run": dry_run,
        "pending": submission.pending,
        "sent": submission.sent,
        "kept": submission.pending - submission.sent,
        "out_of_scope": len(submission.out_of_scope),
        "batches": [{"urls": len(batch.urls), "status": batch.status,
                     "attempts": batch.attempts,
                     **({"url_list": list(batch.urls)} if dry_run else {})}
                    for batch in submission.batches],
    })
    return report


def diff_report(diff: Diff, failed_on: list[str], seconds: float) -> dict[str, Any]:
    """``sitemap-plugins diff``: the URLs added and removed, the lastmods moved."""
    report = envelope("diff", ok=not failed_on, seconds=seconds)
    report.update({
        "old": {"source": diff.old, "urls": diff.old_urls},
        "new": {"source": diff.new, "urls": diff.new_urls},
        "counts": diff.counts(),
        "failed_on": failed_on,
        "added": diff.added,
        "removed": diff.removed,
        "redated": [{"url": url, "old": old, "new": new} for url, old, new in diff.redated],
    })
    return report


def error_report(command: str, messages: list[str], seconds: float) -> dict[str, Any]:
    """A run that stopped: its messages, so a script sees ``ok: false`` and why."""
    report = envelope(command, ok=False, seconds=seconds)
    report["errors"] = messages
    return report


def dumps(report: dict[str, Any]) -> str:
    """One line of JSON (ASCII-safe, so any file name prints on any terminal)."""
    return json.dumps(report, ensure_ascii=True, separators=(",", ":"))
