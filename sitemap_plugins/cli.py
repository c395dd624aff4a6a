"""The command line: ``sitemap-plugins build``, ``merge``, ``check``, ``submit``, ``diff``...

Every option is a flag of the same name (``base_url`` is ``--base-url``). The only module that
prints or configures logging. Exit codes: 0 ok, 1 problems found or build failed, 2 usage.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
import typing
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from sitemap_plugins import __version__
from sitemap_plugins.disk.site import discard_unfinished, fill_closed_streams, stdout_to_nowhere
from sitemap_plugins.hosts.git_dates import work_tree_commits
from sitemap_plugins.hosts.mkdocs_family import (
    CONFIG_NAMES,
    family_hints,
    file_options,
    find_config,
    nav_outline,
    page_sources,
    read_config,
)
from sitemap_plugins.products.build.interrupt import Terminated, sigterm_as_interrupt
from sitemap_plugins.products.build.pipeline import generate
from sitemap_plugins.products.build.progress import Progress, Snapshot
from sitemap_plugins.products.build.targets import cache_folder
from sitemap_plugins.products.check.checker import check_site
from sitemap_plugins.products.diff import check_fail_on, diff_sitemaps
from sitemap_plugins.products.explain import explain_lines, explain_page
from sitemap_plugins.products.merge.builds import MergeError
from sitemap_plugins.products.merge.merger import merge
from sitemap_plugins.products.report import (
    build_report,
    check_report,
    diff_report,
    dropped_line,
    dumps,
    envelope,
    error_report,
    merge_report,
    shown,
    submit_report,
)
from sitemap_plugins.products.submit import (
    DEFAULT_ENDPOINT,
    RETRY_DELAYS,
    TIMEOUT,
    Submission,
    check_endpoint,
    check_key_file,
    key_location,
    pending_path,
    printable,
    submit,
)
from sitemap_plugins.vocab.errors import ConfigError, Diagnostic, ScanError, SitemapError
from sitemap_plugins.vocab.options import (
    BUILD_OPTIONS,
    CHECK_OPTIONS,
    MERGE_OPTIONS,
    OPTION_BY_NAME,
    OPTIONS,
    Option,
    SitemapConfig,
    check_key,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sitemap_plugins.entry.rules import PageHints
    from sitemap_plugins.products.html_map.plan import NavNode

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C
EXIT_TERMINATED = 143  # 128 + SIGTERM: a CI cancel, `timeout`, a container stop
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: the reader of the output went away, as shells say
SHOW_AFTER = 1.0  # seconds: a quicker run shows no progress at all
REFRESH = 0.25  # seconds between updates of the progress display
KEY_VARIABLE = "INDEXNOW_KEY"
SUBMIT_DELAYS = RETRY_DELAYS  # the tests make them short
SUBMIT_TIMEOUT = TIMEOUT  # seconds for one POST's whole exchange (the tests make it short)


def _flag(name: str) -> str:
    if not name.isidentifier():  # a place in a config file ("mkdocs.yml: site_url")
        return name
    option = OPTION_BY_NAME.get(name)
    return option.cli_flag if option is not None else "--" + name.replace("_", "-")


def _add_config_flags(
    parser: argparse.ArgumentParser, options: tuple[Option, ...] = BUILD_OPTIONS, *,
    base_url_required: bool = True,
) -> None:
    """One flag per option of the table; a flag not given leaves the option's default."""
    for option in options:
        if not option.cli:
            continue
        name, flag, doc = option.name, option.cli_flag, option.doc
        if name == "base_url":
            parser.add_argument(flag, dest=name, required=base_url_required, metavar="URL",
                                help=doc)
        elif option.kind == "bool":
            parser.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction,
                                default=None, help=f"{doc} (default: {option.default})")
        elif option.kind == "rules":
            parser.add_argument(flag, dest=name, action="append", default=None,
                                metavar="GLOB=VALUE", help=f"{doc} Repeatable.")
        elif option.kind == "mapping":
            parser.add_argument(flag, dest=name, action="append", default=None,
                                metavar="KEY=VALUE", help=f"{doc} Repeatable.")
        elif option.kind == "list":
            parser.add_argument(flag, dest=name, action="append", default=None,
                                metavar={"extensions": "EXT", "versions": "VERSION",
                                         "extra_sitemaps": "URL",
                                         "extra_urls": "'URL [LASTMOD]'"}.get(
                                    name, "GLOB"),
                                help=f"{doc} Repeatable.")
        else:  # the option's own check reads the text, as it reads YAML or Python values
            metavar = "N" if option.kind == "int" else "VALUE"
            parser.add_argument(flag, dest=name, default=None, metavar=metavar,
                                help=f"{doc} (default: {option.default})")


def _add_json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json", action="store_true",
        help="print the run's summary as one JSON object on stdout (shape: schema "
             "sitemap-plugins/report/1, see the docs); problems still go to stderr")


def _add_verbosity_flags(parser: argparse.ArgumentParser, *, default: object) -> None:
    """-v and -q; a command's own copies leave the values alone unless given (SUPPRESS)."""
    parser.add_argument("-v", "--verbose", action="store_true", default=default,
                        help="log debug details")
    parser.add_argument("-q", "--quiet", action="store_true", default=default,
                        help="print only problems")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for both subcommands."""
    parser = argparse.ArgumentParser(
        prog="sitemap-plugins",
        description="Correct, complete and honest sitemaps for any built static site.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _add_verbosity_flags(parser, default=False)
    # -q and -v also after the command (``build SITE -q``), where users put them most.
    verbosity = argparse.ArgumentParser(add_help=False)
    _add_verbosity_flags(verbosity, default=argparse.SUPPRESS)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    build = commands.add_parser(
        "build", parents=[verbosity],
        help="write sitemap.xml, .gz, sitemap.txt and the robots.txt line",
        description="Scan SITE_DIR and write the sitemap files into it. Without SITE_DIR, in "
                    "a Zensical, MkDocs or ProperDocs project: the site its config file names, "
                    "each page dated by its source (see the docs' Zensical page).")
    build.add_argument("site_dir", metavar="SITE_DIR", nargs="?")
    build.add_argument("--config", metavar="FILE", default=None,
                       help="the project's zensical.toml, mkdocs.yml or properdocs.yml (default: "
                            "the first of them in this folder, when SITE_DIR is not given)")
    build.add_argument("--docs-dir", metavar="DIR", default=None,
                       help="the Markdown sources of SITE_DIR's pages (MkDocs 2.0): pages are "
                            "dated by them (default: the config file's docs_dir)")
    _add_json_flag(build)
    _add_config_flags(build, base_url_required=False)
    merge_command = commands.add_parser(
        "merge", parents=[verbosity],
        help="write one sitemap index at ROOT over the builds below it",
        description="Find the sitemaps that sitemap-plugins wrote in builds below ROOT (mike "
                    "versions, sub-sites, sections built in parallel) and write one sitemap "
                    "index at ROOT naming them, with its Sitemap: line in ROOT's robots.txt. "
                    "Reads only the builds' sitemap files.")
    merge_command.add_argument("site_dir", metavar="ROOT")
    _add_json_flag(merge_command)
    _add_config_flags(merge_command, MERGE_OPTIONS)
    check = commands.add_parser(
        "check", parents=[verbosity],
        help="check the sitemap files in SITE_DIR against the protocol",
        description="Check the sitemap files already in SITE_DIR: one line per problem on "
                    "stderr (warnings, such as a byte order mark, do not fail the check), the "
                    "tally on stdout.")
    check.add_argument("site_dir", metavar="SITE_DIR")
    _add_json_flag(check)
    check.add_argument("--base-url", required=True, metavar="URL")
    check.add_argument("--sitemap-name", default="sitemap", metavar="NAME")
    _add_config_flags(check, CHECK_OPTIONS)
    submit = commands.add_parser(
        "submit", parents=[verbosity],
        help="after the deploy: send the URLs changed since the last submission to IndexNow",
        description="Send the URLs that builds recorded as added, changed or removed to an "
                    "IndexNow endpoint (Bing, Yandex, Seznam, Naver and others), in batches of "
                    "at most 10,000; run it after the deploy. The list is cleared only of what "
                    "the endpoint accepted.")
    submit.add_argument("site_dir", metavar="SITE_DIR",
                        help="the built (and deployed) site; it must hold the key file KEY.txt")
    _add_json_flag(submit)
    submit.add_argument("--base-url", required=True, metavar="URL",
                        help=OPTION_BY_NAME["base_url"].doc)
    submit.add_argument("--key", metavar="KEY", default=None,
                        help="the IndexNow key (default: the INDEXNOW_KEY environment variable)")
    submit.add_argument("--endpoint", metavar="URL", default=DEFAULT_ENDPOINT,
                        help=f"the IndexNow endpoint (default: {DEFAULT_ENDPOINT})")
    submit.add_argument("--cache-dir", metavar="DIR", default=None,
                        help="the build's cache folder, as given to build (default: "
                             ".sitemap-cache beside SITE_DIR)")
    submit.add_argument("--dry-run", action="store_true",
                        help="print the batches that would be sent; send and change nothing")
    diff = commands.add_parser(
        "diff", parents=[verbosity],
        help="compare two sitemaps: URLs added and removed, lastmods moved",
        description="Compare two sitemaps, each a built site's folder or a sitemap file (.xml, "
                    ".xml.gz, an index with its parts, .txt): one line per URL removed (-), "
                    "added (+) and redated (~), then the tally.")
    diff.add_argument("old", metavar="OLD")
    diff.add_argument("new", metavar="NEW")
    _add_json_flag(diff)
    diff.add_argument("--sitemap-name", default="sitemap", metavar="NAME",
                      help="the sitemap of a folder: NAME.xml, NAME.xml.gz or NAME.txt")
    diff.add_argument("--fail-on", default="", metavar="CHANGES",
                      help="exit 1 when any URL is one of these, comma-separated: removed, "
                           "added, redated (e.g. --fail-on removed)")
    explain = commands.add_parser(
        "explain", parents=[verbosity],
        help="why the last build listed PAGE or left it out, and where its lastmod came from",
        description="Tell what the last build (any front-end) decided about PAGE, from the "
                    "record in its cache: the rule, the lastmod and its sources, the file.")
    explain.add_argument("site_dir", metavar="SITE_DIR")
    explain.add_argument("page", metavar="PAGE",
                         help="a file of the site (a/b/index.html, a/b/) or a URL under the "
                              "base URL")
    _add_json_flag(explain)
    explain.add_argument("--cache-dir", metavar="DIR", default=None,
                         help="the build's cache folder (default: .sitemap-cache near SITE_DIR)")
    return parser


def _parse_rules(option: str, values: list[str]) -> list[tuple[str, Any]]:
    rules: list[tuple[str, Any]] = []
    for value in values:
        pattern, sep, setting = value.rpartition("=")
        if not sep or not pattern:
            raise ConfigError(option, f"Expected GLOB=VALUE but received: {value!r}")
        if option == "priority":
            try:
                rules.append((pattern, float(setting)))
            except ValueError:
                raise ConfigError(
                    option, f"Expected a number from 0.0 to 1.0 but received: {setting!r}"
                ) from None
        else:
            rules.append((pattern, setting))
    return rules


def config_from_args(args: argparse.Namespace,
                     given: dict[str, Any] | None = None) -> SitemapConfig:
    """Build the config mapping from the flags that were given and validate it.

    ``given``: options a config file gave, which the flags override.
    """
    mapping: dict[str, Any] = dict(given or {})
    for option in OPTIONS:
        value = getattr(args, option.name, None)
        if value is None:
            continue
        if option.kind == "rules":
            value = _parse_rules(option.name, value)
        elif option.kind == "mapping":
            value = _parse_mapping(option.name, value)
        elif option.kind == "int":
            value = _parse_int(value)
        mapping[option.name] = value
    return SitemapConfig.from_mapping(mapping)


def _parse_mapping(option: str, values: list[str]) -> dict[str, str]:
    """``KEY=VALUE`` flags as the mapping mkdocs.yml or pelicanconf.py would give."""
    mapping: dict[str, str] = {}
    for value in values:
        key, sep, setting = value.partition("=")
        if not sep or not key.strip():
            raise ConfigError(option, f"Expected KEY=VALUE but received: {value!r}")
        mapping[key.strip()] = setting
    return mapping


def _parse_int(value: str) -> object:
    """A whole number from the command line; other text goes to the option's own check."""
    try:
        return int(value)
    except ValueError:
        return value  # the check then says what it expected, as it does for mkdocs.yml


def _print(text: str, *, stream: typing.TextIO | None = None) -> None:
    # File names may hold anything; never let printing them fail. A closed output (None:
    # `cmd >&-` under cron) or a full one loses the text, never the work.
    stream = stream or sys.stdout
    if stream is None:
        return
    encoding = stream.encoding or "utf-8"
    try:  # flushed now: a full device fails here, not at exit
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding) + "\n")
        stream.flush()
    except BrokenPipeError:
        raise  # the reader went away: main stops with the shell's 141
    except (OSError, ValueError):
        stdout_to_nowhere(stream)


def _fail(args: argparse.Namespace, started: float, messages: list[str], code: int) -> int:
    """Print a stopped run's messages on stderr (and its JSON on stdout); returns ``code``."""
    for message in messages:
        _print(message, stream=sys.stderr)
    if args.json:
        _print(dumps(error_report(args.command, messages, time.perf_counter() - started)))
    return code


class _TerminalProgress:
    """Progress on stderr (rich, imported then), shown once the work took over a second."""

    def __init__(self, verb: str) -> None:
        self.verb = verb
        self._bar: Any = None
        self._task: Any = None

    def __call__(self, snapshot: Snapshot) -> None:
        if self._bar is None:
            if snapshot.finished or snapshot.seconds < SHOW_AFTER:
                return
            from rich.console import Console  # noqa: PLC0415  # only a long run on a terminal
            from rich.progress import (  # noqa: PLC0415
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
            )
            from rich.progress import Progress as Bar  # noqa: PLC0415
            self._bar = Bar(TextColumn("{task.description}"), BarColumn(),
                            MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
                            TimeElapsedColumn(), console=Console(file=sys.stderr),
                            auto_refresh=False, transient=False)
            self._bar.start()
            self._task = self._bar.add_task(self.verb, total=snapshot.found, rate="")
        self._bar.update(self._task, completed=snapshot.done, total=snapshot.found,
                         rate=f"{snapshot.rate:,.0f}/s")
        self._bar.refresh()
        if snapshot.finished:
            self._bar.stop()


def _progress(args: argparse.Namespace, verb: str) -> Progress | None:
    """A progress display for a run on a terminal; None under -q or off a terminal."""
    if args.quiet or not all(stream is not None and stream.isatty()
                             for stream in (sys.stdout, sys.stderr)):
        return None
    return Progress(_TerminalProgress(verb), interval=REFRESH)


def _show_diagnostics(args: argparse.Namespace, diagnostics: Iterable[Diagnostic],
                      dropped: int = 0) -> None:
    """On stderr, by the one level policy: -q shows warnings, -v everything, else notes too."""
    threshold = (logging.DEBUG if args.verbose else logging.WARNING if args.quiet
                 else logging.INFO)
    for level, diagnostic in shown(diagnostics, threshold):
        label = diagnostic.level.value if args.verbose or level >= logging.WARNING else "note"
        _print(f"{label}: {diagnostic}", stream=sys.stderr)
    if dropped and threshold <= logging.INFO:
        _print(f"note: {dropped_line(dropped)}", stream=sys.stderr)


class _Setup(NamedTuple):
    site_dir: str
    config: SitemapConfig
    hints: dict[str, PageHints] | None = None
    notes: tuple[str, ...] = ()
    outline: tuple[NavNode, ...] = ()


def _build_setup(args: argparse.Namespace) -> _Setup:
    """The site, the config and the pages' hints: from the flags, or a MkDocs-family project.

    Without SITE_DIR (or with ``--config``) the project's config file names the site, its
    base URL, its sources and options; ``--docs-dir`` dates the pages by their sources.
    """
    path = args.config or (find_config(os.getcwd()) if args.site_dir is None else None)
    if path is None and args.site_dir is None:
        raise ConfigError("sitemap-plugins build", "no SITE_DIR given, and no "
                          f"{', '.join(CONFIG_NAMES)} in this folder")
    given: dict[str, Any] = {}
    family = None
    if path is not None:
        family = read_config(path)
        given = file_options(family)
        if family.site_url is not None:
            given["base_url"] = family.site_url
    if args.base_url is None and "base_url" not in given:
        raise ConfigError("base_url", "required: the site's public URL"
                          + (f" (no site_url in {os.path.basename(path)})" if path else ""))
    config = config_from_args(args, given)
    site_dir = args.site_dir or (family.site_dir if family else "")
    docs_dir = args.docs_dir or (family.docs_dir if family else None)
    if docs_dir is None:
        return _Setup(site_dir, config)
    if not os.path.isdir(docs_dir):
        raise ConfigError("docs_dir", f"{docs_dir} is not a folder")
    hints, notes = family_hints(site_dir, docs_dir, config, family)
    outline = () if family is None or config.html_sitemap is None else nav_outline(
        family.nav, {src: dest for dest, src in page_sources(
            docs_dir, directory_urls=config.directory_urls).items()})
    return _Setup(site_dir, config, hints, tuple(notes), outline)


def _run_build(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    try:
        setup = _build_setup(args)
        # In a git work tree (the site's, else the current folder's), a page's edit link
        # names its source, dated by its last commit (unless --docs-dir dates the sources).
        commits = (work_tree_commits(setup.site_dir, os.getcwd())
                   if setup.config.git_dates and setup.hints is None else {})
        result = generate(setup.site_dir, setup.config, hints=setup.hints, outline=setup.outline,
                          progress=_progress(args, "Reading pages"), source_commits=commits)
    except ConfigError as err:
        return _fail(args, started, [f"error: {_flag(err.option)}: {err.message}"], EXIT_USAGE)
    except SitemapError as err:
        return _fail(args, started, [f"error: {err}"], EXIT_FAILED)
    if not args.quiet:
        for note in setup.notes:
            _print(f"note: {note}", stream=sys.stderr)
    _show_diagnostics(args, result.diagnostics, result.dropped_diagnostics)
    if args.json:
        _print(dumps(build_report(result, time.perf_counter() - started)))
    elif not args.quiet:
        for line in result.summary():
            _print(line)
    return EXIT_OK


def _run_merge(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    try:
        config = config_from_args(args)
        merged = merge(args.site_dir, config, versions_given=args.versions is not None,
                       progress=_progress(args, "Reading sitemaps"))
    except ConfigError as err:
        return _fail(args, started, [f"error: {_flag(err.option)}: {err.message}"], EXIT_USAGE)
    except MergeError as err:
        messages = [f"error: {problem}" for problem in err.problems]
        if err.more:
            messages.append(f"error: ... and {err.more:,} more problems")
        return _fail(args, started, [*messages, "Nothing was written."], EXIT_FAILED)
    except SitemapError as err:
        return _fail(args, started, [f"error: {err}"], EXIT_FAILED)
    _show_diagnostics(args, merged.diagnostics)
    if args.json:
        _print(dumps(merge_report(merged, time.perf_counter() - started)))
    elif not args.quiet:
        for line in merged.summary():
            _print(line)
    return EXIT_OK


def _run_check(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    try:
        config = SitemapConfig.from_mapping(
            {"base_url": args.base_url, "sitemap_name": args.sitemap_name,
             **{o.name: getattr(args, o.name) for o in CHECK_OPTIONS
                if getattr(args, o.name) is not None}})
        problems, checked = check_site(args.site_dir, config,
                                       _progress(args, "Checking URLs"))
    except ConfigError as err:
        return _fail(args, started, [f"error: {_flag(err.option)}: {err.message}"], EXIT_USAGE)
    except SitemapError as err:
        return _fail(args, started, [f"error: {err}"], EXIT_FAILED)
    # Problems on stderr, always: `check --json > report.json` still shows them in a CI log.
    for problem in problems:
        _print(f"warning: {problem}" if problem.warning else str(problem), stream=sys.stderr)
    failed = any(not problem.warning for problem in problems)
    if args.json:
        _print(dumps(check_report(problems, checked, time.perf_counter() - started)))
    elif not args.quiet:
        found = sum(not problem.warning for problem in problems)
        warned = len(problems) - found
        _print(f"Checked {checked:,} URL{'' if checked == 1 else 's'}: "
               + (f"{found:,} problem{'' if found == 1 else 's'}" if found else "no problems")
               + (f", {warned:,} warning{'' if warned == 1 else 's'}" if warned else ""))
    return EXIT_FAILED if failed else EXIT_OK


def _run_diff(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    try:
        fail_on = check_fail_on(args.fail_on)
        diff = diff_sitemaps(args.old, args.new, args.sitemap_name)
    except ConfigError as err:
        return _fail(args, started, [f"error: {_flag(err.option)}: {err.message}"], EXIT_USAGE)
    except SitemapError as err:  # a side that is no sitemap: named, with why
        return _fail(args, started, [f"error: {err}"], EXIT_USAGE)
    failed = [kind for kind in fail_on if diff.counts()[kind]]
    if args.json:
        _print(dumps(diff_report(diff, failed, time.perf_counter() - started)))
    elif not args.quiet:
        for sign, urls in (("-", diff.removed), ("+", diff.added)):
            for url in urls:
                _print(f"{sign} {url}")
        for url, old, new in diff.redated:
            _print(f"~ {url} {old or '(none)'} -> {new or '(none)'}")
        _print(diff.summary())
    if failed:
        found = ", ".join(f"{diff.counts()[kind]:,} {kind}" for kind in failed)
        _print(f"error: URLs {found} (--fail-on {args.fail_on})", stream=sys.stderr)
    return EXIT_FAILED if failed else EXIT_OK


def _run_explain(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    try:
        found = explain_page(args.site_dir, args.page, args.cache_dir)
    except SitemapError as err:
        return _fail(args, started, [f"error: {err}"], EXIT_USAGE)
    if args.json:
        report = envelope("explain", ok=found["recorded"],
                          seconds=time.perf_counter() - started)
        _print(dumps({**report, **found}))
    else:
        for line in explain_lines(args.page, found):
            _print(line)
    return EXIT_OK if found["recorded"] else EXIT_FAILED


def _submit_key(args: argparse.Namespace) -> str:
    """The key from --key, else INDEXNOW_KEY; ConfigError names where it came from."""
    if args.key is not None:
        return str(check_key("key", args.key))
    from_env = os.environ.get(KEY_VARIABLE)
    if from_env is None:
        raise ConfigError("key", f"Required: the IndexNow key the build published as KEY.txt "
                                 f"(give --key or set {KEY_VARIABLE})")
    return str(check_key(KEY_VARIABLE, from_env))


def _check_endpoint(endpoint: str) -> str:
    return check_endpoint("endpoint", endpoint)


def _urls(count: int) -> str:
    return f"{count:,} URL{'' if count == 1 else 's'}"


def _show_batches(submission: Submission, *, dry_run: bool) -> None:
    total = len(submission.batches)
    for number, batch in enumerate(submission.batches, start=1):
        count = _urls(len(batch.urls))
        if dry_run:
            _print(f"Batch {number} of {total}: {count} (host {submission.host}, keyLocation "
                   f"{submission.key_location})")
            for url in batch.urls:
                _print(f"  {url}")
        elif batch.attempts:
            answer = ("accepted" if batch.accepted else "not accepted")
            status = f"{batch.status}" if batch.status is not None else "no answer"
            _print(f"Batch {number} of {total}: {count}: {status}, {answer}")


def _run_submit(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    try:
        config = SitemapConfig.from_mapping(
            {"base_url": args.base_url, "cache_dir": args.cache_dir})
        key = _submit_key(args)
        endpoint = _check_endpoint(args.endpoint)
        site = Path(args.site_dir)
        if not site.is_dir():
            raise ScanError(str(site), "is not a folder (build the site first?)")
        check_key_file(site, key, key_location(config.base_url, key))
        cache = cache_folder(site, config)
        submission = submit(cache, config.base_url, key, endpoint=endpoint,
                            dry_run=args.dry_run, delays=SUBMIT_DELAYS, timeout=SUBMIT_TIMEOUT,
                            user_agent=f"sitemap-plugins/{__version__}",
                            progress=_progress(args, "Submitting URLs"))
    except ConfigError as err:
        where = err.option if err.option == KEY_VARIABLE else _flag(err.option)
        return _fail(args, started, [f"error: {where}: {err.message}"], EXIT_USAGE)
    except SitemapError as err:
        return _fail(args, started, [f"error: {err}"], EXIT_FAILED)
    if submission.out_of_scope:
        _print(f"warning: {len(submission.out_of_scope):,} pending URLs are not under "
               f"{config.base_url} (recorded for another base URL?) or not URLs (edited by "
               "hand?), e.g. "
               f"{printable(submission.out_of_scope[0])}: not sent, and kept on the list "
               f"{pending_path(cache)}", stream=sys.stderr)
    failed = submission.failed
    if not args.quiet and not args.json:
        _show_batches(submission, dry_run=args.dry_run)
    if failed is not None:
        kept = submission.pending - submission.sent
        message = (f"error: {failed.error}; nothing of this batch was taken, and {_urls(kept)} "
                   f"{'stays' if kept == 1 else 'stay'} pending for the next submit")
        _print(message, stream=sys.stderr)
    if args.json:
        _print(dumps(submit_report(submission, time.perf_counter() - started,
                                   dry_run=args.dry_run)))
    elif not args.quiet:
        _print(_submit_summary(submission, dry_run=args.dry_run))
    return EXIT_FAILED if failed is not None else EXIT_OK


def _submit_summary(submission: Submission, *, dry_run: bool) -> str:
    urls = sum(len(batch.urls) for batch in submission.batches)
    if not urls:
        return "Nothing to submit: no URL was added, changed or removed since the last submission"
    batches = f"{len(submission.batches):,} batch{'' if len(submission.batches) == 1 else 'es'}"
    if dry_run:
        return (f"Dry run: {_urls(urls)} in {batches} would go to {submission.endpoint}; "
                "nothing was sent or changed")
    accepted = sum(1 for batch in submission.batches if batch.accepted)
    if accepted < len(submission.batches):  # stopped: say how far it got, not the plan
        unsent = sum(1 for batch in submission.batches if not batch.attempts)
        return (f"Submitted {submission.sent:,} of {_urls(urls)} to {submission.endpoint}: "
                f"{accepted:,} of {batches} accepted"
                + (f"; {unsent:,} not sent" if unsent else ""))
    return (f"Submitted {submission.sent:,} of {_urls(urls)} in {batches} to "
            f"{submission.endpoint}")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    fill_closed_streams()
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    run = {"build": _run_build, "merge": _run_merge, "submit": _run_submit, "diff": _run_diff,
           "explain": _run_explain}.get(args.command, _run_check)
    try:
        with sigterm_as_interrupt():  # SIGTERM unwinds and cleans up as Ctrl-C does
            return run(args)
    except KeyboardInterrupt as stop:
        # Every file is written whole or not at all: what was there before stays.
        discard_unfinished()
        how = "terminated (SIGTERM)" if isinstance(stop, Terminated) else "interrupted"
        _print(f"{how}: {args.command} stopped; files it had not finished writing were "
               "left as they were", stream=sys.stderr)
        return EXIT_TERMINATED if isinstance(stop, Terminated) else EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of the output went away (`| head`): what was done stays done, and a
        # traceback said otherwise. Later writes (the flush at exit) go nowhere.
        discard_unfinished()
        stdout_to_nowhere()
        return EXIT_BROKEN_PIPE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
