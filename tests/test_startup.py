"""Start-up: a command imports what it uses and nothing more (issue 20, item 4).

Each probe runs a fresh interpreter and lists what it loaded. Times are measured on demand
(docs/benchmarks.md, "Start-up"), never asserted here: these are the imports that made them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "fixtures" / "html" / "base-first-wins.html"
WARC = ROOT / "fixtures" / "containers" / "crawl.warc.gz"
MHTML = ROOT / "fixtures" / "containers" / "document.mht"
CSS = next((ROOT / "fixtures").rglob("*.css"))  # a style sheet: its encoding by tinycss2

# What one of the commands below may do without: the archive readers (warcio, and the
# email package for MIME), the process pool (concurrent.futures, multiprocessing, pickle),
# the temporary file's random name (secrets), the progress bar (tqdm: a terminal only),
# tinycss2 (a style sheet's encoding, and CSS the scanner of css.py hands over).
_HEAVY = (
    "warcio",
    "email.parser",
    "baselinks.load.containers.warc",
    "baselinks.load.containers.mime",
    "concurrent.futures",
    "multiprocessing",
    "pickle",
    "secrets",
    "tqdm",
    "baselinks.api",
    "baselinks.url.resolve",
    "baselinks.url.diagnose",
    "lxml",
    "tinycss2",
    "cssselect",
)


def _loaded(argv: list[str]) -> set[str]:
    """Which of _HEAVY the command line ``argv`` has loaded once it is done."""
    probe = (
        "import sys\n"
        "from baselinks.cli import main\n"
        f"status = main({argv!r})\n"
        f"print(sorted(set({_HEAVY!r}) & set(sys.modules)), file=sys.stderr)\n"
        "sys.exit(status)\n"
    )
    ran = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    loaded: list[str] = ast.literal_eval(ran.stderr.splitlines()[-1])
    return set(loaded)


def test_version_loads_neither_the_pipeline_nor_the_url_engine() -> None:
    # baselinks/__init__ used to import resolve and diagnose (the URL engine: 65 ms)
    assert _loaded(["--version"]) == set()


def test_one_html_file_loads_no_archive_reader_no_pool_no_temporary_file() -> None:
    assert _loaded(["extract", "-q", str(PAGE)]) == {
        "baselinks.api",
        "baselinks.url.resolve",
        "baselinks.url.diagnose",
        "lxml",
    }


@pytest.mark.parametrize(
    ("given", "loads"),
    [
        (WARC, {"warcio", "baselinks.load.containers.warc"}),
        (MHTML, {"email.parser", "baselinks.load.containers.mime"}),
        (CSS, {"tinycss2"}),
    ],
    ids=["warc", "mhtml", "css"],
)
def test_an_archive_loads_its_reader(given: Path, loads: set[str]) -> None:
    # the probe is not blind: the readers load when an input needs them
    assert loads <= _loaded(["extract", "-q", str(given)])


def test_a_pool_and_an_output_file_load_what_they_use(tmp_path: Path) -> None:
    # 55 files: two units of work, so a pool of two (one unit would be read here)
    argv = ["extract", "-q", "-j", "2", "-o", str(tmp_path / "out"), str(PAGE.parent)]
    assert {"concurrent.futures", "multiprocessing", "secrets"} <= _loaded(argv)


def test_cssselect_loads_with_select_only() -> None:
    # one HTML file without --select ran above without it (test_one_html_file_...)
    assert "cssselect" in _loaded(["extract", "-q", "--select", "a", str(PAGE)])
