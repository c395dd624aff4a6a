"""``python -m sitemap_plugins`` and the ``sitemap-plugins`` command: one entry, :func:`main`.

The command line's modules are imported inside :func:`main`, not by the script that calls
it: a Ctrl-C while they load (the first quarter of a second) was a ``KeyboardInterrupt``
traceback, before ``cli.main`` could say it in one line.
"""

from __future__ import annotations

import sys

# 128 + SIGINT, as sitemap_plugins.cli says a run stopped by Ctrl-C (not imported from there:
# that import is what may be interrupted).
_EXIT_INTERRUPTED = 130


def main(argv: list[str] | None = None) -> int:
    """Run the command line (:func:`sitemap_plugins.cli.main`); returns the exit code."""
    try:
        from sitemap_plugins.cli import main as run  # noqa: PLC0415  # see the module's doc
    except KeyboardInterrupt:
        sys.stderr.write("interrupted: stopped while starting; nothing was read or written\n")
        return _EXIT_INTERRUPTED
    return run(argv)


if __name__ == "__main__":
    sys.exit(main())
