"""Shared helpers: where fixtures live and how a conformance suite is read."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import settings

# No deadline: the machine is shared and noisy, and speed is measured in benchmarks/, not here.
# Under CI the examples are derandomized, so a red run is reproducible and never a coin toss.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.register_profile("thorough", deadline=None, max_examples=20_000)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CONFORMANCE = FIXTURES / "conformance"


def suite(name: str) -> list[dict[str, Any]]:
    """The ``cases`` of ``fixtures/conformance/<name>.json`` (provenance: SOURCES.md there)."""
    data = json.loads((CONFORMANCE / f"{name}.json").read_text(encoding="utf-8"))
    cases: list[dict[str, Any]] = data["cases"]
    return cases
