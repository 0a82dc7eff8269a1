"""The architecture, checked: one-way dependencies and an honest public surface."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

import baselinks

SRC = Path(baselinks.__file__).resolve().parent

# What each module may import beyond the standard library and its own package.
ALLOWED_THIRD_PARTY = {
    "url": set(),
    "rfc1738": set(),
    "rfc1738.rules": set(),
    "rfc1738.grammar": set(),
    "rfc1738.schemes": set(),
    "rfc3986": set(),
    "diagnose": set(),
    "errors": set(),
    "compiled": set(),  # which compiled modules are built and in use: importlib only
    "resolve": {"ada_url"},
    "whatwg": set(),  # the URL Standard's rules beside ada-url: serialised shapes, the query
    "encoding": {"webencodings"},
    "microsyntax": set(),  # srcset, refresh, Link headers: the standard library only
    "css": {"tinycss2"},  # the CSS scanner and its reference
    "load": {"lxml"},
    "tokens": set(),  # hand-written scans of markup for load: the standard library only
    "base": set(),
    "walk": {"lxml"},
    "linktable": set(),  # the link-source table: data, no lxml
    "sheets": {"lxml", "tinycss2"},  # style sheets and SVG documents: decoded, parsed
    "anchor": {"lxml"},
    "containers": set(),
    "containers.entries": set(),
    "containers.doctypes": set(),
    "containers.sniff": set(),
    # brotli and zstd (the stdlib's from 3.14, else backports.zstd) are imported where used
    "containers.coding": {"brotli", "compression", "backports"},
    "containers.httpmsg": set(),
    "containers.resync": set(),
    "containers.mime": set(),
    "containers.warc": {"warcio"},
    "containers.warcrecord": set(),  # one record → its entries: read by attribute, no warcio
    "api": set(),
    "link": set(),
    "mirror": set(),  # a mirrored file's URL from its path: the standard library only
    "stats": set(),  # links counted by kind, base source, problem, host
    "batch": set(),
    "workers": set(),
    "write": set(),
    "jsonl": {"orjson"},  # JSON Lines; the standard library's json without it
    "output": set(),
    "schema": set(),  # the record's fields as typed columns: the standard library only
    "parquet": {"pyarrow"},  # the parquet extra, imported when a file is written
    "cli": {"tqdm"},  # the progress bar, imported only for a terminal
    "arguments": set(),  # the command line's grammar: argparse
    "extractoptions": set(),  # extract's --url, --root-url and --stats: argparse, printing
    "urlcommands": set(),  # baselinks resolve, parse, check: the URL engine only
    "dataflow": {"fsspec"},  # optional, imported when a path has another scheme than file://
    # the one module that knows Spark; the driver spark-submit runs, so it imports baselinks
    # by name. Nothing else imports it: the core never needs pyspark.
    # to_pandas: pandas and pyarrow (pyspark's sql extra); fsspec: a remote output's check
    "spark": {"pyspark", "baselinks", "pandas", "pyarrow", "fsspec"},
    # the scrapy extra: Scrapy's LinkExtractor options over baselinks' links
    "scrapy": {"scrapy", "w3lib", "parsel", "baselinks"},
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


def _path(module: str) -> Path:
    path = SRC.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _module(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_each_module_imports_only_what_its_stage_needs() -> None:
    modules = {_module(p) for p in SRC.rglob("*.py")} - {"", "__main__"}
    assert modules == set(ALLOWED_THIRD_PARTY), "a new module needs a row here"
    for module, allowed in ALLOWED_THIRD_PARTY.items():
        assert _third_party_imports(_path(module)) <= allowed, module


def test_containers_only_read_they_never_parse_html_or_resolve() -> None:
    # The load stage for archives hands bytes and raw header values onwards; the base stage
    # turns MIME headers into a base, the walk finds header links, link.py resolves.
    for path in (SRC / "containers").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 2:
                assert node.module == "errors", (path.name, node.module)


def _local_imports(module: str) -> set[str]:
    """The package's modules that ``module`` imports, by name ("" for the package itself),
    those imported for type checking only too: a cycle through them is a cycle in the design."""
    path = _path(module)
    parts = module.split(".") if module else []
    package = parts if path.name == "__init__.py" else parts[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.level or node.module == "baselinks"):
            # "from ..errors import x" in containers/warc.py: errors; "from baselinks import x": ""
            within = package[: len(package) - node.level + 1] if node.level else []
            relative = node.module if node.level else None
            named = ".".join([*within, *(relative.split(".") if relative else [])])
            if relative:
                found.add(named)
            else:  # "from . import rfc3986" names a module; "from . import __version__" not
                for alias in node.names:
                    child = f"{named}.{alias.name}" if named else alias.name
                    found.add(child if child in ALLOWED_THIRD_PARTY else named)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "baselinks":
                    found.add(alias.name.partition(".")[2])
    found.discard(module)
    return found


def _import_graph() -> dict[str, set[str]]:
    return {module: _local_imports(module) for module in [*ALLOWED_THIRD_PARTY, ""]}


def test_the_import_graph_has_no_cycle() -> None:
    graph = _import_graph()
    assert "link" in graph["write"] and "batch" in graph["api"]  # the graph is read right
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        if module in path:
            cycle = " -> ".join((*path[path.index(module) :], module))
            raise AssertionError(f"import cycle: {cycle}")
        if module in done:
            return
        for imported in sorted(graph[module]):
            visit(imported, (*path, module))
        done.add(module)

    for module in sorted(graph):
        visit(module, ())


def test_write_knows_nothing_of_html_and_the_engine_nothing_of_the_pipeline() -> None:
    def local_imports(module: str) -> set[str]:
        tree = ast.parse((SRC / f"{module}.py").read_text(encoding="utf-8"))
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                # "from .url import x" names url; "from . import rfc3986" names rfc3986
                found |= {node.module} if node.module else {alias.name for alias in node.names}
        return found

    # write: the Link record, and from errors the character classes its formats escape (the
    # ones diagnose flags) and the terminal escaping of its table (errors.printable); jsonl its
    # JSON Lines writers, which know the Link record and compiled (standard library only)
    assert local_imports("write") == {"link", "errors", "jsonl"}
    assert local_imports("jsonl") == {"link", "compiled"}
    assert local_imports("workers") == set()  # processes and order; nothing of links
    # batch drives inputs through a per-document function it is handed: it never parses,
    # never resolves (link and stats are imported for the Link and Stats types only)
    assert local_imports("batch") == {"containers", "errors", "workers", "link", "stats"}
    # the pipeline (api) is above them all: nothing below it imports it
    for below in ("batch", "write", "link", "output", "workers"):
        assert "api" not in _local_imports(below), below
    # (compiled: the switch to a compiled copy of a hot path, standard library only)
    for engine in ("url", "rfc3986", "resolve", "whatwg", "diagnose"):
        engine_modules = {"url", "rfc1738", "rfc3986", "whatwg", "errors", "compiled"}
        assert local_imports(engine) <= engine_modules, engine
    # the RFC 1738 grammar: its own modules, and url's login_bounds (one reading of a login)
    for path in (SRC / "rfc1738").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 2:
                assert node.module == "url", (path.name, node.module)


def test_only_spark_knows_spark_and_nothing_imports_it() -> None:
    for path in SRC.rglob("*.py"):
        module = _module(path)
        imports = _third_party_imports(path)
        assert ("pyspark" in imports) == (module == "spark"), module
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module not in ("spark", "baselinks.spark"), module
                names = {alias.name for alias in node.names}
                assert not (node.module in (None, "baselinks") and "spark" in names), module


def test_all_is_sorted_and_complete() -> None:
    exported = baselinks.__all__
    # ruff's RUF022 order: CONSTANTS, then Classes, then the rest, each alphabetical
    assert exported == sorted(
        exported, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n)
    )
    # dir() is what __getattr__ (PEP 562) can give plus what is bound already; modules aside
    # (baselinks.api once imported), every public name it lists is exported, and no other
    public = {
        name
        for name in dir(baselinks)
        if not name.startswith("_") and not isinstance(getattr(baselinks, name), types.ModuleType)
    }
    assert public - {"annotations"} == set(exported) - {"__version__"}
    for name in exported:
        assert getattr(baselinks, name) is not None
    assert set(baselinks._HOMES) | {"diagnose", "resolve", "__version__"} == set(exported)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        baselinks.nothing  # type: ignore[attr-defined]  # noqa: B018


def _loaded_by(statement: str) -> set[str]:
    """The third-party packages a fresh interpreter has loaded after ``statement``."""
    probe = f"import sys; {statement}; print(' '.join(sys.modules))"
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return {name.split(".")[0] for name in run.stdout.split()}


@pytest.mark.parametrize("module", ["baselinks.url", "baselinks.resolve", "baselinks.microsyntax"])
def test_the_url_engine_loads_no_html_archive_or_css_library(module: str) -> None:
    # baselinks/__init__.py is lazy (PEP 562): importing a module of the URL engine, or the
    # parsing of srcset and refresh, runs none of lxml, warcio or tinycss2
    assert not _loaded_by(f"import {module}") & {"lxml", "warcio", "tinycss2"}


def test_the_lazy_names_load_their_stage_when_used() -> None:
    # the probe above is not blind: the same fresh interpreter loads them once a name needs them
    # (warcio once an archive is read, tinycss2 once a style sheet is: tests/test_startup.py)
    assert {"lxml"} <= _loaded_by("import baselinks; baselinks.extract_links")


# What `baselinks --version` must not load: the pipeline and the libraries of its stages.
_PIPELINE = ("lxml", "warcio", "tinycss2", "ada_url", "baselinks.api", "baselinks.walk")


def _pipeline_loaded_by(code: str) -> list[str]:
    """The modules of _PIPELINE that a fresh interpreter running ``code`` has loaded."""
    probe = f"{code}\nimport sys\nprint(sorted(set({_PIPELINE!r}) & set(sys.modules)))"
    ran = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    loaded: list[str] = ast.literal_eval(ran.stdout.splitlines()[-1])
    return loaded


def test_version_imports_only_what_it_prints() -> None:
    # a lazy __init__ (PEP 562), and cli.py imports the pipeline only inside the commands
    assert _pipeline_loaded_by("from baselinks.cli import main\nmain(['--version'])") == []


def test_ci_refuses_to_regenerate_the_golden_files() -> None:
    env = {**os.environ, "CI": "1", "BASELINKS_REGENERATE": "1"}
    test = f"{Path(__file__).name}::test_all_is_sorted_and_complete"
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test],
        capture_output=True,
        text=True,
        env=env,
        cwd=Path(__file__).parent,
    )
    assert ran.returncode == pytest.ExitCode.USAGE_ERROR, ran.stdout + ran.stderr
    assert "BASELINKS_REGENERATE is set under CI" in ran.stderr
    ci = (Path(__file__).parents[1] / ".ci" / "run").read_text(encoding="utf-8")
    assert 'if [ -n "${BASELINKS_REGENERATE:-}" ]; then' in ci
