"""The architecture, checked: one-way dependencies and an honest public surface."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import baselinks

SRC = Path(baselinks.__file__).resolve().parent

# What each module may import beyond the standard library and its own package.
ALLOWED_THIRD_PARTY = {
    "url": set(),
    "rfc3986": set(),
    "diagnose": set(),
    "errors": set(),
    "resolve": {"ada_url"},
}


def _third_party_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            if top not in sys.stdlib_module_names and top != "__future__":
                found.add(top)
    return found


def test_the_url_engine_imports_only_the_standard_library() -> None:
    for module, allowed in ALLOWED_THIRD_PARTY.items():
        assert _third_party_imports(SRC / f"{module}.py") <= allowed, module


def test_all_is_sorted_and_complete() -> None:
    exported = baselinks.__all__
    # ruff's RUF022 order: CONSTANTS, then Classes, then the rest, each alphabetical
    assert exported == sorted(
        exported, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n)
    )
    public = {name for name in vars(baselinks) if not name.startswith("_")}
    modules = {name for name, value in vars(baselinks).items() if type(value).__name__ == "module"}
    assert public - modules - {"annotations"} == set(exported) - {"__version__"}
    for name in exported:
        assert getattr(baselinks, name) is not None
