"""The whatwg mode against WHATWG urltestdata.json (web-platform-tests, via ada-url's copy)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from baselinks import URLError, resolve
from conftest import CONFORMANCE

_DATA = json.loads((CONFORMANCE / "whatwg_urltestdata.json").read_text(encoding="utf-8"))
_TESTS: list[dict[str, Any]] = [entry for entry in _DATA if isinstance(entry, dict)]


def _param(case: dict[str, Any]) -> Any:
    return pytest.param(
        case["base"] or "", case["input"], case.get("href"), id=repr(case["input"])[:60]
    )


WITH_BASE = [_param(c) for c in _TESTS if c["base"] is not None and not c.get("failure")]
FAILURES = [_param(c) for c in _TESTS if c.get("failure")]
ABSOLUTE = [_param(c) for c in _TESTS if c["base"] is None and not c.get("failure")]


def test_the_suite_is_whole() -> None:
    assert (len(_TESTS), len(WITH_BASE), len(FAILURES)) == (891, 274, 267)


@pytest.mark.parametrize(("base", "ref", "href"), WITH_BASE)
def test_every_case_with_a_base(base: str, ref: str, href: str) -> None:
    assert resolve(base, ref, mode="whatwg") == href


@pytest.mark.parametrize(("base", "ref", "href"), ABSOLUTE)
def test_every_case_without_a_base(base: str, ref: str, href: str) -> None:
    assert resolve(base, ref, mode="whatwg") == href


@pytest.mark.parametrize(("base", "ref", "href"), FAILURES)
def test_every_failure_raises_a_url_error(base: str, ref: str, href: None) -> None:
    with pytest.raises(URLError) as info:
        resolve(base, ref, mode="whatwg")
    assert repr(ref) in str(info.value)
    assert isinstance(info.value, ValueError)
