"""Shared helpers: where fixtures live and how a conformance suite is read."""

from __future__ import annotations

import importlib
import io
import json
import os
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

# No deadline: the machine is shared and noisy, and speed is measured in benchmarks/, not here.
# Under CI the examples are derandomized, so a red run is reproducible and never a coin toss.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.register_profile("thorough", deadline=None, max_examples=20_000)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
)


def pytest_configure(config: pytest.Config) -> None:
    # The golden tests write what they see instead of comparing when BASELINKS_REGENERATE is
    # set: they cannot fail then. Under CI that is never what is meant.
    if os.environ.get("CI") and os.environ.get("BASELINKS_REGENERATE"):
        raise pytest.UsageError(
            "BASELINKS_REGENERATE is set under CI: the golden tests would pass whatever the "
            "output; regenerate on a developer's machine and commit the reviewed diff"
        )


def assert_golden(expected: Path, name: str, links: str, errors: str) -> None:
    """``links`` and ``errors`` (text) equal ``expected/name.jsonl`` and ``expected/name.errors``
    (no such file: no error); with BASELINKS_REGENERATE they are written first (none: the
    .errors file removed)."""
    links_path = expected / f"{name}.jsonl"
    errors_path = expected / f"{name}.errors"
    if os.environ.get("BASELINKS_REGENERATE"):
        expected.mkdir(exist_ok=True)
        links_path.write_text(links, encoding="utf-8")
        if errors:
            errors_path.write_text(errors, encoding="utf-8")
        elif errors_path.exists():
            errors_path.unlink()
    assert links == links_path.read_text(encoding="utf-8")
    assert errors == (errors_path.read_text(encoding="utf-8") if errors_path.exists() else "")


FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CONFORMANCE = FIXTURES / "conformance"


EXTRAS = {
    "spark": "pyspark.sql",
    "scrapy": "scrapy.http",
    "parquet": "pyarrow.parquet",
    "fsspec": "fsspec",
    "docs": "myst_parser",
    "ranks": "igraph",
    "shell": "shtab",  # and argparse_manpage
    "duckdb": "duckdb",
}


def extra(name: str) -> Any:
    """The module that marks the ``name`` extra as installed, or a skip with the reason.

    CI installs the extras and sets ``BASELINKS_REQUIRE_<NAME>``: there a missing extra (or,
    for Spark, a missing Java) fails instead of skipping. A new user's ``pip install -e
    ".[test]"`` has none of them, and their tests are skipped with the line to install them.
    """
    required = bool(os.environ.get(f"BASELINKS_REQUIRE_{name.upper()}"))
    if name == "spark" and shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        assert not required, "Spark needs Java, and BASELINKS_REQUIRE_SPARK is set"
        pytest.skip(
            "Spark needs Java (17 for pyspark 4): none is installed", allow_module_level=True
        )
    if required:
        return importlib.import_module(EXTRAS[name])
    reason = f"the {name} extra is not installed: pip install -e '.[{name}]'"
    return pytest.importorskip(EXTRAS[name], reason=reason)


def compared(in_use: bool, what: str) -> None:
    """Skip the calling test module when ``what`` (a compiled module, named as its tests say it)
    is not in use: nothing to compare it with. Not built, or ``BASELINKS_PURE=1`` (the suite's
    pure run). CI's compiled run sets ``BASELINKS_REQUIRE_COMPILED``: there it fails instead."""
    if in_use:
        return
    from baselinks import compiled

    assert not os.environ.get("BASELINKS_REQUIRE_COMPILED"), (
        f"BASELINKS_REQUIRE_COMPILED is set, but {what} is not in use: {compiled.status()}"
    )
    pytest.skip(
        f"{what} is not in use ({compiled.status()}): nothing to compare", allow_module_level=True
    )


def _parsers() -> list[Any]:
    """Both parsers, as parameters: "html5" skipped, with the reason, where it cannot be used
    (not built: no C compiler at install). Under BASELINKS_REQUIRE_COMPILED (CI) it is not
    skipped, and a test run with it fails there on the warning that it cannot be used."""
    from baselinks.load.html5 import unavailable

    why = unavailable()
    skip = why and not os.environ.get("BASELINKS_REQUIRE_COMPILED")
    marks = [pytest.mark.skip(reason=f"the HTML5 parser cannot be used: {why}")] if skip else []
    return [pytest.param("html5", marks=marks), pytest.param("lxml")]


# Every test that reads a document with both parsers takes them from here.
PARSERS = _parsers()


def suite(name: str) -> list[dict[str, Any]]:
    """The ``cases`` of ``fixtures/conformance/<name>.json`` (provenance: SOURCES.md there)."""
    data = json.loads((CONFORMANCE / f"{name}.json").read_text(encoding="utf-8"))
    cases: list[dict[str, Any]] = data["cases"]
    return cases


def warc(
    records: Iterable[tuple[str, str, bytes]],
    *headers: tuple[str, str],
    gzip: bool = True,
) -> bytes:
    """A WARC of HTTP responses (url, content type, body), one gzip member per record when
    ``gzip``; ``headers`` are added to every response."""
    out = io.BytesIO()
    writer = WARCWriter(out, gzip=gzip)
    for url, content_type, body in records:
        http = StatusAndHeaders("200 OK", [("Content-Type", content_type), *headers], "HTTP/1.1")
        writer.write_record(
            writer.create_warc_record(
                # the length given: without it warcio buffers into a temporary file it never
                # closes (a ResourceWarning)
                url,
                "response",
                payload=io.BytesIO(body),
                length=len(body),
                http_headers=http,
            )
        )
    return out.getvalue()


# Where headless Chromium is looked for (Debian's package is `chromium`; Google's build and
# Ubuntu's snap are named as they are).
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium() -> str:
    """The path of a Chromium to run headless, or a skip saying how to install one. CI installs
    it and sets ``BASELINKS_REQUIRE_CHROMIUM``: there a missing Chromium fails instead."""
    found = os.environ.get("BASELINKS_CHROMIUM") or next(
        (path for name in CHROMIUM_NAMES if (path := shutil.which(name))), None
    )
    if found is None:
        assert not os.environ.get("BASELINKS_REQUIRE_CHROMIUM"), (
            "BASELINKS_REQUIRE_CHROMIUM is set, but no Chromium is installed"
        )
        pytest.skip(
            "no Chromium to check against: apt-get install chromium (or set BASELINKS_CHROMIUM)"
        )
    return found


def chromium_dom(browser: str, url: str, budget_ms: int = 3000) -> tuple[str, list[str]]:
    """The DOM headless Chromium serialises for ``url`` once its scripts ran (a virtual-time
    budget: no waiting on the clock), and the console messages it logged (one a line, each
    "CONSOLE" line of its log: an error, a warning or a log call alike)."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="baselinks-chromium-") as profile:
        done = subprocess.run(
            [
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-extensions",
                f"--user-data-dir={profile}",
                "--enable-logging=stderr",
                "--v=0",
                f"--virtual-time-budget={budget_ms}",
                "--dump-dom",
                url,
            ],
            capture_output=True,
            timeout=180,
            check=False,
        )
    log = done.stderr.decode("utf-8", "replace").splitlines()
    return done.stdout.decode("utf-8", "replace"), [line for line in log if "CONSOLE" in line]
