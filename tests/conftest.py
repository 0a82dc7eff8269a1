"""Shared helpers: where fixtures live and how a conformance suite is read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CONFORMANCE = FIXTURES / "conformance"


def suite(name: str) -> list[dict[str, Any]]:
    """The ``cases`` of ``fixtures/conformance/<name>.json`` (provenance: SOURCES.md there)."""
    data = json.loads((CONFORMANCE / f"{name}.json").read_text(encoding="utf-8"))
    cases: list[dict[str, Any]] = data["cases"]
    return cases
