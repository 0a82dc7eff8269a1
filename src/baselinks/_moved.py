"""Where the modules of the flat layout went (0.1), kept importable for one release.

Until 0.2 the package was one folder of modules; it is now one folder per stage of the pipeline
(the Architecture page of the documentation). A program that imported a module by its old path
(``from baselinks.walk import RawLink``, ``import baselinks.containers.warc``) still gets it,
with a :class:`DeprecationWarning` that names the new path. Five old modules had the name a
folder now has (``base``, ``load``, ``resolve``, ``write``, ``url``): those folders'
``__getattr__`` hand over the old module's names the same way (:func:`forward`).

The public surface never moved: ``import baselinks`` and its names, ``baselinks.scrapy``,
``baselinks.spark``, ``baselinks.api``, ``baselinks.dataflow``, ``baselinks.errors``, the CLI
(``baselinks.cli.main``, the console script's entry point: cli/ keeps it).

Standard library only, and cheap: ``import baselinks`` installs the finder below (a dict and a
class), which does nothing until an old path is imported.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

__all__ = ["MOVED", "REPLACED", "forward", "install"]

# Each old module (under baselinks.) and its new home: the one table of the move.
MOVED: dict[str, str] = {
    "anchor": "find.anchor",
    "arguments": "cli.arguments",
    "batch": "run.batch",
    "containers": "load.containers",
    "css": "find.css",
    "diagnose": "url.diagnose",
    "encoding": "load.encoding",
    "extractoptions": "cli.extractoptions",
    "jsonl": "write.jsonl",
    "link": "resolve.link",
    "linktable": "find.linktable",
    "microsyntax": "find.microsyntax",
    "mirror": "base.mirror",
    "output": "write.output",
    "parquet": "write.parquet",
    "rfc1738": "url.rfc1738",
    "rfc3986": "url.rfc3986",
    "schema": "write.schema",
    "sheets": "find.sheets",
    "stats": "write.stats",
    "tokens": "load.tokens",
    "urlcommands": "cli.urlcommands",
    "walk": "find.walk",
    "whatwg": "url.whatwg",
    "workers": "run.workers",
}

# Old modules whose name a stage folder took: the folder hands over the old module's names.
REPLACED: dict[str, str] = {
    "base": "base.layers",
    "load": "load.document",
    "resolve": "url.resolve",
    "url": "url.parts",
    "write": "write.formats",
}

_PACKAGE = __name__.rpartition(".")[0]


def _warn(old: str, new: str, stacklevel: int) -> None:
    # stacklevel: the frame of the user's import (the import system's own frames are skipped
    # by warnings, as _bootstrap's)
    warnings.warn(
        f"{_PACKAGE}.{old} moved to {_PACKAGE}.{new}; the old path goes in 0.3",
        DeprecationWarning,
        stacklevel=stacklevel,
    )


def _new_home(old: str) -> str | None:
    """``containers.warc`` → ``load.containers.warc``: an old module or one inside it."""
    head, dot, tail = old.partition(".")
    home = MOVED.get(head)
    return None if home is None else home + dot + tail


class _Loader:
    """Gives the module at its new home (imported once) for the old name."""

    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        return importlib.import_module(f"{_PACKAGE}.{self.new}")

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module ran at its new home."""


class _Finder:
    """A meta path finder (PEP 451) for the old paths only; every other import passes by."""

    @staticmethod
    def find_spec(fullname: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        package, dot, old = fullname.partition(".")
        if package != _PACKAGE or not dot:
            return None
        new = _new_home(old)
        if new is None:
            return None
        _warn(old, new, stacklevel=3)
        return ModuleSpec(fullname, _Loader(new))  # type: ignore[arg-type]


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once): ahead of the path finder, which would
    otherwise find ``containers/warc.py`` again under the old package's borrowed ``__path__``
    and run it a second time as ``baselinks.containers.warc``."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


def forward(package: str, name: str) -> Any:
    """A stage folder's ``__getattr__``: ``name`` from the old module the folder replaced
    (``from baselinks.base import Base``), with a warning; else the usual AttributeError."""
    old = package.rpartition(".")[2]
    new = REPLACED[old]
    if not name.startswith("__"):
        module = importlib.import_module(f"{_PACKAGE}.{new}")
        if hasattr(module, name):
            _warn(f"{old}.{name}", f"{new}.{name}", stacklevel=4)
            value = getattr(module, name)
            # once: ``from baselinks.base import Base`` asks twice (hasattr, then getattr)
            setattr(sys.modules[package], name, value)
            return value
    raise AttributeError(f"module {package!r} has no attribute {name!r}")
