"""Dates of the last commit of every file under a folder, from one ``git log`` per site.

Every adapter uses it for page sources (:class:`GitLog`), MkDocs' also for included files.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
from typing import TYPE_CHECKING, NamedTuple

from sitemap_plugins.vocab.dates import Lastmod, latest, parse_w3c

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Mapping
    from concurrent.futures import Future

log = logging.getLogger(__name__)

_GIT_TIMEOUT = 300


def shallow_note(turn_off: str) -> str:
    """What a host says once when the clone is shallow (``turn_off``: git_dates false)."""
    return ("No git dates used for lastmod: the git clone is shallow, so the last commit of "
            "most pages is missing; dates come from the pages and the lastmod manifest. For "
            "git dates fetch the full history ('fetch-depth: 0' with actions/checkout), or "
            f"set {turn_off} to say you want none.")


def read_git_dates(docs_dir: str, added: set[str] | None = None,
                   ) -> tuple[dict[str, Lastmod], bool]:
    """When the last change of every file under ``docs_dir`` was published on this branch.

    The committer date of the last commit on ``HEAD``'s first-parent history. Returns
    ``(dates, shallow)``; a shallow clone, no git or no repository yields no dates.
    ``added`` receives the files whose only commit added them (no evidence of a change).
    """
    git = shutil.which("git")
    if git is None:
        log.debug("git is not installed: no git dates for lastmod")
        return {}, False
    probe = _run_git(git, docs_dir, "rev-parse", "--is-shallow-repository")
    if probe is None:
        return {}, False
    if probe.strip() == "true":
        return {}, True
    # %cI: strict ISO 8601; --diff-merges=first-parent: a merge lists what it brought in;
    # -z: paths exactly as stored.
    output = _run_git(
        git, docs_dir, "log", "--first-parent", "--diff-merges=first-parent",
        "--no-show-signature", "--format=%x01%cI", "--name-only", "-z", "--relative", "--", ".",
    )
    if output is None:
        return {}, False
    dates, touched = _last_commits(output)
    if added is not None:
        added.update(name for name, count in touched.items() if count == 1)
    log.debug("git dates for %d files under %s", len(dates), docs_dir)
    return dates, False


def latest_dates(start: str, sources: Mapping[str, Iterable[str]],
                 ) -> tuple[dict[str, Lastmod], bool]:
    """Each key's latest git date of its files, and whether shallow (outside the repo: none)."""
    top = os.path.abspath(start)
    while not os.path.exists(os.path.join(top, ".git")) and os.path.dirname(top) != top:
        top = os.path.dirname(top)
    inside = {key: found for key, paths in sources.items() if (found := [
        p for p in map(os.path.abspath, paths) if p.startswith(os.path.join(top, ""))])}
    if not inside:
        return {}, False
    root = os.path.commonpath([os.path.dirname(p) for ps in inside.values() for p in ps])
    dates, shallow = read_git_dates(root)
    return {key: last for key, paths in inside.items() if (last := latest(*(
        dates.get(os.path.relpath(p, root).replace(os.sep, "/")) for p in paths))) is not None
    }, shallow


class GitLog(NamedTuple):
    """What one ``git log`` of a folder says (see :func:`read_git_dates`)."""

    dates: dict[str, Lastmod]
    shallow: bool
    added: set[str]
    """Files whose only commit is the one that added them."""

    def commit(self, rel: str) -> tuple[Lastmod, bool] | None:
        """The last commit of ``rel``: its date, and whether it added the file (or None)."""
        when = self.dates.get(rel)
        return None if when is None else (when, rel in self.added)


NO_GIT_LOG = GitLog({}, shallow=False, added=set())


def read_git_log(folder: str) -> GitLog:
    """:func:`read_git_dates` of ``folder``, with the files that were only added."""
    added: set[str] = set()
    dates, shallow = read_git_dates(folder, added)
    return GitLog(dates, shallow, added)


def work_tree_commits(*folders: str) -> dict[str, tuple[Lastmod, bool]]:
    """The last commit of every file of the git work tree that holds the first of ``folders``.

    Paths from the work tree's top; none in a shallow clone or outside a work tree.
    """
    git = shutil.which("git")
    for folder in folders if git is not None else ():
        top = _run_git(git, folder, "rev-parse", "--show-toplevel")  # type: ignore[arg-type]
        if top and top.strip():
            found = read_git_log(top.strip())
            return {path: (when, path in found.added) for path, when in found.dates.items()}
    return {}


def start_git_log(folder: str) -> Future[GitLog]:
    """:func:`read_git_log` in a thread, while the host builds (git runs in its own process)."""
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415  # MkDocs only

    runner = ThreadPoolExecutor(1, thread_name_prefix="sitemap-git-log")
    try:
        return runner.submit(read_git_log, folder)
    finally:
        runner.shutdown(wait=False)


def _run_git(git: str, cwd: str, *args: str) -> str | None:
    try:
        done = subprocess.run(  # noqa: S603  # fixed arguments, no shell
            [git, *args], cwd=cwd, capture_output=True, check=False, timeout=_GIT_TIMEOUT,
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        log.debug("git %s failed: %s", args[0], err)
        return None
    if done.returncode != 0:
        log.debug("git %s: %s", args[0], done.stderr.decode("utf-8", "replace").strip())
        return None
    return done.stdout.decode("utf-8", "surrogateescape")


def included_commits(includes: Mapping[str, Iterable[str]],
                     ) -> dict[str, list[tuple[Lastmod, bool]]]:
    """By page, the last commit of each file it includes (they date the page too); one read."""
    wanted = {path for paths in includes.values() for path in paths}
    dates = read_file_dates(wanted) if wanted else {}
    return {page: [dates[path] for path in paths if path in dates]
            for page, paths in includes.items()}


def read_file_dates(paths: Collection[str]) -> dict[str, tuple[Lastmod, bool]]:
    """The last commit on this branch of each of ``paths`` (absolute), from one ``git log``.

    Each date comes with whether that commit only added the file. Files outside the
    repository, never committed, or in a shallow clone get none.
    """
    git = shutil.which("git")
    if git is None or not paths:
        return {}
    folder = os.path.dirname(min(paths))
    top = _run_git(git, folder, "rev-parse", "--show-toplevel", "--is-shallow-repository")
    if top is None:
        return {}
    lines = top.splitlines()
    if len(lines) != 2 or lines[1].strip() == "true":  # noqa: PLR2004  # two answers
        return {}
    root = os.path.realpath(lines[0].strip())
    wanted: dict[str, str] = {}
    for path in paths:
        rel = os.path.relpath(os.path.realpath(path), root)
        if not rel.startswith(os.pardir):
            wanted[rel.replace(os.sep, "/")] = path
    if not wanted:
        return {}
    output = _run_git(
        git, root, "log", "--first-parent", "--diff-merges=first-parent", "--no-show-signature",
        "--format=%x01%cI", "--name-only", "-z", "--", *sorted(wanted))
    if output is None:
        return {}
    found, touched = _last_commits(output)
    return {wanted[name]: (when, touched[name] == 1) for name, when in found.items()
            if name in wanted}


def _last_commits(output: str) -> tuple[dict[str, Lastmod], dict[str, int]]:
    """Each path's newest commit date in a ``git log`` (as run here), and its count of commits."""
    dates: dict[str, Lastmod] = {}
    touched: dict[str, int] = {}
    current: Lastmod | None = None
    for token in output.split("\0"):
        name = token.lstrip("\n")  # the first path after a commit header follows a newline
        if name.startswith("\x01"):
            current = parse_w3c(name[1:])
        elif name and current is not None:
            dates.setdefault(name, current)  # newest commit first: keep the first seen
            touched[name] = touched.get(name, 0) + 1
    return dates, touched
