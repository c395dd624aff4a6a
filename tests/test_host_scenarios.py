"""Honest lastmod across rebuilds: one table of scenarios, run by real MkDocs and real Pelican.

A scenario is a small site (its pages, with or without a date of their own), the edits made
between builds, and what each build's sitemap must say: every page's lastmod, the
``changes_file`` report, and whether the "no manifest" note was logged. Each host has a
driver that writes the same pages in its own source format (MkDocs front matter, Pelican
metadata) at the same URLs (``/``, ``/about/``...), runs the real host, and reads back what
it wrote; the expectations are the same for both hosts, so the two cannot drift apart.

Every build gets its own ``SOURCE_DATE_EPOCH``, so a build time that leaks into the sitemap
shows up. Sample-site specifics (MkDocs i18n, Pelican listings) are in
``test_lastmod_hosts.py``; the CLI-level checks of the same feature in ``test_history.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import pytest
from hosts import ABOUT, DRIVERS, FAQ, NEWS, PAGES, TUNING, Edit, Page, run_step, url_of

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

pytestmark = pytest.mark.integration

NOTE = "no lastmod manifest from an earlier build in"
# One SOURCE_DATE_EPOCH per build, a day apart, later than every date of the pages.
EPOCHS = tuple(1_750_000_000 + day * 86_400 for day in range(8))


def w3c(epoch: int) -> str:
    """A SOURCE_DATE_EPOCH as the sitemap writes a build time."""
    return datetime.fromtimestamp(epoch, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# -- The table ------------------------------------------------------------------------------

# What a page's lastmod is expected to be, symbolically: the driver knows the text.
OWN = "own date"  # its date or lastmod, as the host writes it
NONE = "no lastmod"


def built(step: int) -> str:
    """The build time of build number ``step`` (0 is the first build)."""
    return f"build {step}"


@dataclass(frozen=True)
class Step:
    """One build: the edit before it, then what its sitemap and report must say."""

    edit: Edit
    lastmods: dict[str, str]
    """Page name -> OWN, NONE or built(n), for every page listed (and only those)."""
    added: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    baseline: bool = True
    """Whether the build had a manifest to compare with; without one, it says so (NOTE)."""


FIRST = Step(Edit(write=PAGES), {"home": NONE, "about": NONE, "news": OWN, "tuning": OWN},
             added=("home", "about", "news", "tuning"), baseline=False)
FIRST_DATES = FIRST.lastmods


@dataclass(frozen=True)
class Scenario:
    """A site built once per step, in order."""

    id: str
    steps: tuple[Step, ...]


SCENARIOS = [
    Scenario("unchanged-rebuild", (
        FIRST,
        Step(Edit(touch=True), FIRST_DATES),
    )),
    Scenario("edited-text", (
        FIRST,
        # A page with no date of its own takes the build that saw it change.
        Step(Edit(write=(replace(ABOUT, text="Who we are, and why."),)),
             {**FIRST_DATES, "about": built(1)}, changed=("about",)),
        # A published date is overruled by a later change; the author's lastmod is not.
        Step(Edit(write=(replace(NEWS, text="A dated page, edited."),
                         replace(TUNING, text="How to tune it, better."))),
             {**FIRST_DATES, "about": built(1), "news": built(2)},
             changed=("news", "tuning")),
        Step(Edit(touch=True), {**FIRST_DATES, "about": built(1), "news": built(2)}),
    )),
    Scenario("title-edit", (
        FIRST,
        Step(Edit(write=(replace(ABOUT, title="About us"),)),
             {**FIRST_DATES, "about": built(1)}, changed=("about",)),
    )),
    Scenario("page-added-and-removed", (
        FIRST,
        # The new page is in every page's navigation now, yet no other page moves.
        Step(Edit(write=(FAQ,)), {**FIRST_DATES, "faq": built(1)}, added=("faq",)),
        Step(Edit(remove=("faq",)), FIRST_DATES, removed=("faq",)),
    )),
    Scenario("lost-cache", (
        FIRST,
        Step(Edit(write=(replace(ABOUT, text="Who we are, and why."),)),
             {**FIRST_DATES, "about": built(1)}, changed=("about",)),
        # The manifest's dates are gone with it: the host's own dates stay, a note says why.
        Step(Edit(drop_cache=True), FIRST_DATES, added=("about", "home", "news", "tuning"),
             baseline=False),
        Step(Edit(touch=True), FIRST_DATES),
    )),
]


# -- The tests ---------------------------------------------------------------------------------

@pytest.mark.parametrize("host", DRIVERS)
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda scenario: scenario.id)
def test_scenario(host: str, scenario: Scenario, tmp_path: Path,
                  sitemap_urls: Callable[..., list[str]]) -> None:
    """Each build of the scenario passes, writes a valid sitemap, dates every page as the
    table says (a build time only where that build saw a change), and reports the changes."""
    driver = DRIVERS[host](tmp_path / "project")
    pages: dict[str, Page] = {}
    for number, step in enumerate(scenario.steps):
        where = f"{scenario.id}, build {number}"
        pages.update((page.name, page) for page in step.edit.write)
        for name in step.edit.remove:
            del pages[name]
        run = run_step(driver, step.edit, EPOCHS[number])
        assert run.returncode == 0, f"{where}: {run.log}"
        assert sorted(sitemap_urls(driver.output)) == sorted(url_of(name) for name in pages)
        expected = {}
        for name, value in step.lastmods.items():
            if value == OWN:
                expected[url_of(name)] = driver.own_date(pages[name])
            elif value == NONE:
                expected[url_of(name)] = None
            else:
                expected[url_of(name)] = w3c(EPOCHS[int(value.removeprefix("build "))])
        assert run.lastmods() == expected, where
        assert run.changes == {
            "baseline": step.baseline,
            "added": sorted(url_of(name) for name in step.added),
            "changed": sorted(url_of(name) for name in step.changed),
            "removed": sorted(url_of(name) for name in step.removed),
        }, where
        notes = [line for line in run.log.splitlines() if NOTE in line]
        assert len(notes) == (0 if step.baseline else 1), f"{where}: {notes}"
        if not step.baseline:
            assert f"{NOTE} {driver.project / '.sitemap-cache'} " in notes[0], where
        assert list((driver.project / ".sitemap-cache").glob("lastmod-manifest-*.sqlite"))
        assert not list(driver.output.rglob("*.sqlite")), where
