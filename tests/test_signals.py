"""SIGTERM in the middle of a build: clean up as Ctrl-C does, exit 143, one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from sitemap_plugins.vocab.options import TEMP_PREFIX

ROOT = Path(__file__).resolve().parents[1]
BASE = "https://example.org/"
PAGES = 3000  # enough that the sitemap parts are written for a second or more

# Real builds in other processes, stopped by signals: integration, not the fast part.
pytestmark = [pytest.mark.skipif(os.name != "posix", reason="POSIX signals"),
              pytest.mark.integration]


@pytest.fixture(scope="module")
def big_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated site large enough to be caught while its sitemap parts are written."""
    out = tmp_path_factory.mktemp("signals") / "site"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "make_site.py"), "--pages",
                    str(PAGES), "--out", str(out), "--body-kb", "4"],
                   check=True, capture_output=True)
    return out


def temp_files(site: Path) -> list[str]:
    return sorted(str(p.relative_to(site)) for p in site.rglob(f"{TEMP_PREFIX}*"))


def terminate_while_writing(command: list[str], site: Path) -> subprocess.CompletedProcess[str]:
    """Start ``command``, send SIGTERM the moment a temporary file appears in ``site``."""
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    seen = False
    while process.poll() is None and time.monotonic() < deadline:
        if any(name.startswith(TEMP_PREFIX) for name in os.listdir(site)):
            seen = True
            process.send_signal(signal.SIGTERM)
            break
        time.sleep(0.0005)
    out, err = process.communicate(timeout=120)
    assert seen, f"the build ended before it wrote anything: {err}"
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def test_sigterm_during_a_cli_build_cleans_up_and_exits_143(big_site: Path,
                                                            tmp_path: Path) -> None:
    """`build` sent SIGTERM while writing: no temporary file left, exit 143, one line."""
    stopped = terminate_while_writing(
        [sys.executable, "-m", "sitemap_plugins", "build", str(big_site), "--base-url", BASE,
         "--cache-dir", str(tmp_path / "cache")], big_site)
    assert temp_files(big_site) == []
    assert stopped.returncode == 143
    assert stopped.stderr == ("terminated (SIGTERM): build stopped; files it had not finished "
                              "writing were left as they were\n")
    # The next build runs as if nothing happened.
    done = subprocess.run([sys.executable, "-m", "sitemap_plugins", "-q", "build",
                           str(big_site), "--base-url", BASE, "--cache-dir",
                           str(tmp_path / "cache")], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert (done.returncode, done.stderr) == (0, "")


def test_sigterm_inside_a_host_cleans_up_and_still_ends_the_host(big_site: Path,
                                                                tmp_path: Path) -> None:
    """generate() in a host process (SIGTERM left at its default): cleaned, then killed."""
    script = tmp_path / "host.py"
    script.write_text(textwrap.dedent(f"""
        from sitemap_plugins.products.build.pipeline import generate
        from sitemap_plugins.vocab.options import SitemapConfig

        if __name__ == "__main__":
            config = SitemapConfig.from_mapping({{"base_url": {BASE!r},
                                                  "cache_dir": {str(tmp_path / "cache")!r}}})
            generate({str(big_site)!r}, config)
            print("host went on")
        """), "utf-8")
    stopped = terminate_while_writing([sys.executable, str(script)], big_site)
    assert temp_files(big_site) == []
    # The host ends by SIGTERM as it would have without the plugin, and prints nothing more.
    assert stopped.returncode == -signal.SIGTERM
    assert "host went on" not in stopped.stdout
    assert "Traceback" not in stopped.stderr


def test_a_host_handler_for_sigterm_is_left_alone() -> None:
    """A SIGTERM handler already set (by the host) is kept during and after a build."""
    from sitemap_plugins.products.build.interrupt import sigterm_cleans_up  # noqa: PLC0415

    def host_handler(_signum: int, _frame: object) -> None:
        pass

    previous = signal.signal(signal.SIGTERM, host_handler)
    try:
        with sigterm_cleans_up():
            assert signal.getsignal(signal.SIGTERM) is host_handler
        assert signal.getsignal(signal.SIGTERM) is host_handler
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_ctrl_c_while_the_command_starts_is_one_line() -> None:
    """Ctrl-C while the command line's modules load (a quarter of a second at each start): one
    line and exit 130, as later (it was a KeyboardInterrupt traceback)."""
    script = textwrap.dedent("""
        import builtins, sys
        real_import = builtins.__import__
        def interrupted(name, *args, **kwargs):
            if name == "sitemap_plugins.cli":
                raise KeyboardInterrupt
            return real_import(name, *args, **kwargs)
        builtins.__import__ = interrupted
        from sitemap_plugins.__main__ import main
        sys.exit(main(["--version"]))
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=False, timeout=60)
    assert run.returncode == 130
    assert run.stderr == "interrupted: stopped while starting; nothing was read or written\n"
    assert run.stdout == ""


def test_the_command_and_python_m_run_the_same_entry() -> None:
    """``sitemap-plugins`` is ``sitemap_plugins.__main__:main``, which ``python -m`` runs."""
    import re  # noqa: PLC0415  # tomllib is Python 3.11+

    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert re.findall(r'^sitemap-plugins = "(.*)"$', pyproject, re.MULTILINE) == [
        "sitemap_plugins.__main__:main"]
    run = subprocess.run([sys.executable, "-m", "sitemap_plugins", "--version"],
                         capture_output=True, text=True, check=False, timeout=60)
    assert run.returncode == 0
    assert run.stdout.strip()
