"""The resolution modes: one registry in resolve.py, and everything else derived from it."""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest

import baselinks
from baselinks import MODES, Resolver, URLError
from baselinks.url.resolve import check_mode, resolver_class

SRC = Path(baselinks.__file__).resolve().parent

# What the pipeline asks of a mode: (mode, serialises, query_in_document_encoding)
PROPERTIES = [
    ("rfc1808", False, False),
    ("rfc3986", False, False),
    ("whatwg", True, True),
]


def test_every_mode_has_one_row_here_and_one_class() -> None:
    assert tuple(mode for mode, _, _ in PROPERTIES) == MODES
    for mode in MODES:
        assert check_mode(mode) == mode
        resolver = Resolver("http://a/b/c", mode)
        assert type(resolver) is resolver_class(mode)
        assert resolver.mode == mode
    with pytest.raises(URLError, match="expected one of rfc1808, rfc3986, whatwg"):
        resolver_class("rfc2396")


def test_the_mode_type_names_the_registry_s_modes() -> None:
    # Mode, the Literal type of mode= (a type checker's and an editor's), is written out in the
    # registry's module: it must name MODES, in their order
    assert typing.get_args(baselinks.Mode) == MODES
    hints = typing.get_type_hints(baselinks.iter_links)
    assert hints["mode"] == baselinks.Mode == typing.get_type_hints(baselinks.resolve)["mode"]


@pytest.mark.parametrize(("mode", "serialises", "query_encoding"), PROPERTIES)
def test_what_a_mode_does_is_a_property_of_its_class(
    mode: str, serialises: bool, query_encoding: bool
) -> None:
    assert resolver_class(mode).serialises is serialises
    assert resolver_class(mode).query_in_document_encoding is query_encoding


def _mode_literals_outside_defaults(path: Path) -> list[int]:
    """Lines where a mode's name is written other than as a default value."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defaults: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            defaults |= {id(d) for d in [*args.defaults, *args.kw_defaults] if d is not None}
        elif isinstance(node, ast.keyword) and node.arg == "default":
            defaults.add(id(node.value))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in MODES and id(node) not in defaults
    ]


def test_no_module_but_resolve_tests_or_lists_a_mode_by_name() -> None:
    # `mode == "whatwg"` or a hand-written tuple of the three would miss a new mode silently:
    # the registry's MODES and the Resolver class attributes say it instead
    # (_moved.py's table names the modules rfc3986.py and whatwg.py, whose names are modes')
    registry, moved = SRC / "url" / "resolve.py", SRC / "_moved.py"
    found = {
        str(path.relative_to(SRC)): lines
        for path in SRC.rglob("*.py")
        if path not in (registry, moved) and (lines := _mode_literals_outside_defaults(path))
    }
    assert found == {}
