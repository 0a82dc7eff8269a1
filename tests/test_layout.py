"""The architecture, checked: the folders are the pipeline, dependencies point one way, and the
public surface is honest.

    url/ (the URL engine, under every stage)   errors.py, compiled.py
    load/ ─► base/ ─► find/ ─► resolve/ ─► write/ ─► run/ ─► api.py ─► dataflow, spark, scrapy, cli/
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import types
import warnings
from pathlib import Path

import pytest

import baselinks
from baselinks import _moved, compiled

SRC = Path(baselinks.__file__).resolve().parent

# Every place a module may live, in the order dependencies run: a module imports from its own
# place and from those before it, never from one after it. The URL engine (url/: RFC 1808
# §2.4 and §4, RFC 3986, WHATWG, RFC 1738, problem codes; strings in, strings out) comes before
# the stages: the base rules resolve a <base href> with it, the linker every link, the CLI's
# resolve/parse/check commands use it alone; it knows no stage's type. Then the stages in the
# pipeline's order; then what runs them: api.py (one input's pipeline), the integrations, the CLI.
ORDER = (
    "_version",
    "errors",
    "compiled",
    "_moved",
    "url",
    "load",
    "base",
    "find",
    "resolve",
    "write",
    "run",
    "pipeline",
    "api",
    "graph",
    "wat",
    "coverage",
    "dataflow",
    "spark",
    "scrapy",
    "cli",
)
STAGES = ("load", "base", "find", "resolve", "write", "run")

# What each module may import beyond the standard library and its own package, by folder.
ALLOWED_THIRD_PARTY: dict[str, set[str]] = {
    "errors": set(),
    "compiled": set(),  # which compiled modules are built and in use: importlib only
    "_moved": set(),  # the flat layout's module paths, for one release: importlib only
    "_version": set(),  # the version, written once
    # url/: the standard library, and ada-url for the whatwg mode
    "url": set(),
    "url.parts": set(),
    "url.resolve": {"ada_url"},
    "url.whatwg": set(),  # the URL Standard's rules beside ada-url: serialised shapes, the query
    "url.rfc3986": set(),
    # host, domain, canonical: ada-url's host parser, the Public Suffix List publicsuffixlist
    # ships, w3lib's canonicalize_url; each imported when its field is first asked for
    "url.canonical": {"ada_url", "publicsuffixlist", "w3lib"},
    "url.surt": set(),  # the SURT key, written here (its module docstring says why)
    "url.explain": set(),
    "url.diagnose": set(),
    "url.rfc1738": set(),
    "url.rfc1738.rules": set(),
    "url.rfc1738.grammar": set(),
    "url.rfc1738.schemes": set(),
    # load/: bytes → documents
    "load": set(),
    "load.containers": set(),
    "load.containers.entries": set(),
    "load.containers.doctypes": set(),
    "load.containers.sniff": set(),
    # brotli and zstd (the stdlib's from 3.14, else backports.zstd) are imported where used
    "load.containers.coding": {"brotli", "compression", "backports"},
    "load.containers.decoded": {"brotli", "compression", "backports"},  # coding.py's, streamed
    "load.containers.httpmsg": set(),
    "load.containers.resync": set(),
    "load.containers.mime": set(),
    "load.containers.mimeheaders": set(),  # the email package's policy, bounded; base headers
    "load.containers.warc": {"warcio"},  # its exceptions; the reading is warcreader.py's
    "load.containers.warcreader": {"warcio"},  # warcio's iterator, bounded, damage kept
    # an intact .warc.gz without warcio's reader (its record types only); zlib-ng inflates
    "load.containers.warcfast": {"warcio", "zlib_ng"},
    "load.containers.wacz": set(),  # zipfile: a WACZ's WARC members, read in place
    "load.containers.ziplocal": set(),  # zipfile's ZipInfo: members by their local headers
    "load.containers.warcrecord": set(),  # one record → its entries: read by attribute
    # each record with the facts stored around it (gzip member, digests), for a WAT: zlib
    "load.containers.warcframes": {"zlib_ng"},  # as warcfast.py: its inflater where installed
    "load.containers.gzipmember": set(),  # a gzip member's header and footer (RFC 1952)
    # a crawl's records by what names them, and one read again by its offset (revisits)
    "load.containers.originals": set(),
    "load.containers.captures": set(),  # one record → what it captured (a coverage scan)
    "load.encoding": {"webencodings"},
    "load.tokens": set(),  # hand-written scans of markup for load: the standard library only
    "load.document": {"lxml"},
    "load.html5": {"lxml"},  # the HTML5 parser's checks of lxml (its C half: load/_chtml5)
    # base/: the RFC 1808 §3 layers
    "base": set(),
    "base.layers": set(),  # reads the tree it is handed, imports no parser
    "base.mirror": set(),  # a mirrored file's URL from its path: the standard library only
    "base.xmlbase": set(),  # each element's xml:base chain → its base: the URL engine only
    # find/: documents → raw links
    "find": set(),
    "find.linktable": set(),  # the link-source table: data, no lxml
    "find.rules": set(),  # the conditions and kind rules rows name: records of data
    "find.microsyntax": set(),  # srcset, refresh, Link headers: the standard library only
    "find.css": {"tinycss2"},  # the CSS scanner and its reference
    "find.anchor": {"lxml"},
    "find.walk": {"lxml"},
    "find.native": set(),  # the walk over lexbor's nodes (compiled into load/_chtml5)
    "find.select": {"lxml"},  # --select: cssselect through lxml, or XPath
    "find.sheets": {"lxml", "tinycss2"},  # style sheets and SVG documents: decoded, parsed
    "find.metadata": set(),  # the <meta> names whose content is a URL: data, no lxml
    "find.jsonld": set(),  # JSON-LD blocks: the standard library's json
    "find.xmlparse": {"lxml"},  # feeds and sitemaps: lxml's pull parser, safely, streamed
    "find.feeds": set(),  # Atom and RSS: reads the elements xmlparse hands it
    "find.sitemaps": set(),  # sitemaps.org XML and text: the same
    "find.robots": set(),  # robots.txt Sitemap lines: the standard library only
    "find.directives": set(),  # a page's robots nofollow: reads the tree it is given
    # resolve/: raw links → Link
    "resolve": set(),
    "resolve.link": set(),
    # write/: links → bytes
    "write": set(),
    "write.formats": set(),
    "write.jsonl": {"orjson"},  # JSON Lines; the standard library's json without it
    "write.schema": set(),  # the record's fields as typed columns: the standard library only
    "write.parquet": {"pyarrow"},  # the parquet extra, imported when a file is written
    "write.stats": set(),  # links counted by kind, base source, problem, host
    "write.output": set(),
    "write.compress": {"backports", "compression"},  # -o NAME.zst: compression.zstd (3.14)
    "write.resumable": set(),  # -o FILE --resume: FILE.partial, made FILE at the end
    "write.rows": set(),  # records that are no Link (coverage's) in formats.py's formats
    # run/: inputs → units of work → results in order
    "run": set(),
    "run.batch": set(),
    "run.events": set(),  # the records a batch hands back: data
    # what an input is and how it is opened: a URL through fsspec (the fsspec extra), when given
    "run.inputs": {"fsspec"},
    "run.options": set(),  # the options, checked once: which links are kept, counted, unique
    "run.workers": set(),
    "run.resume": set(),  # --resume's journal: JSON Lines, the standard library only
    "run.revisits": set(),  # a revisit record's original, found in the inputs
    "run.summary": set(),  # what a run read, counted: Summary
    "pipeline": set(),  # one document through the stages: a Task's function
    "api": set(),
    # graph/: the documents' links → a link graph (after the pipeline: it runs api.iter_pages)
    "graph": set(),
    "graph.build": set(),
    "graph.names": set(),  # the URL engine's canonical forms, as vertex names
    "graph.hosts": {"idna"},  # cc-pyspark's host names: urllib's urlparse and IDNA 2008 (idna)
    "graph.folder": set(),  # the output folder: checked, locked (fcntl), resumable
    "graph.records": {"pyarrow"},  # extract's JSON Lines or Parquet read back as a graph's input
    "graph.sort": set(),  # the external sort: heapq.merge over temporary files
    "graph.files": {"pyarrow"},  # Parquet with the parquet extra; TSV by the standard library
    "graph.ranks": {"igraph", "pyarrow"},  # the ranks extra; a Parquet graph read with pyarrow
    # wat/: WARC records → a WAT file (after the pipeline: it runs part_links on each page)
    "wat": set(),
    "wat.keys": set(),  # every key and link path, with where it comes from: data
    "wat.envelope": set(),
    "wat.html": set(),  # reads the tree it is handed (lxml's), imports no parser
    "wat.record": set(),  # the WAT's WARC records, gzip and json of the standard library
    "wat.build": set(),
    # coverage/: every link against what the archive captured (after the pipeline: it runs
    # api.iter_pages, and reads the archives with load/containers/captures.py)
    "coverage": set(),
    "coverage.build": set(),
    "coverage.store": set(),  # the captures on disk: the standard library's sqlite3
    "coverage.scan": set(),
    "coverage.inputs": set(),  # the paths given: archives, a mirror's files and their URLs
    "coverage.index": set(),  # CDXJ and CDX lines: json, gzip
    "coverage.keys": set(),
    "coverage.follow": set(),
    "coverage.fragments": set(),  # the HTML standard's indicated part, over the lxml tree given
    "coverage.classify": set(),
    "coverage.tally": set(),
    "coverage.summary": set(),
    "coverage.output": {"pyarrow"},  # Parquet with the parquet extra
    "coverage.report": set(),  # the HTML report: html, json
    "dataflow": set(),  # a URL input is opened by run.inputs
    # the one folder that knows Spark; its driver is what spark-submit runs, so it imports
    # baselinks by name. Nothing else imports it: the core never needs pyspark.
    "spark": {"baselinks"},  # the public names, from the modules below
    "spark.links": {"pyspark", "baselinks", "pandas", "pyarrow"},  # to_pandas: pyspark's sql extra
    "spark.graph": {"pyspark", "baselinks"},
    "spark.revisits": {"pyspark", "baselinks"},  # the revisits' originals of a job's files
    "spark.wat": {"pyspark", "baselinks", "fsspec"},  # one WAT per WARC; fsspec: a remote folder
    "spark.coverage": {"pyspark", "baselinks"},  # coverage by joins, the one-machine rules
    "spark.driver": {"pyspark", "baselinks", "fsspec"},  # fsspec: a remote output's check
    # the scrapy extra: Scrapy's LinkExtractor options over baselinks' links
    "scrapy": {"scrapy", "w3lib", "parsel", "baselinks"},
    "cli": set(),
    "cli.app": set(),
    "cli.report": {"tqdm"},  # the progress bar, imported only for a terminal
    "cli.arguments": set(),  # the command line's grammar: argparse
    # --generate: the man page (argparse-manpage) and completions (shtab), the shell extra
    "cli.generate": {"argparse_manpage", "shtab"},
    "cli.extractoptions": set(),  # extract's --url, --root-url and --stats: argparse, printing
    "cli.urlcommands": set(),  # baselinks resolve, parse, check: the URL engine only
    "cli.graphcommand": set(),  # baselinks graph, ranks: their grammar and wiring
    "cli.resuming": set(),  # extract --resume: its rule, journal and output, wired
    "cli.watcommand": set(),  # baselinks wat: its grammar and wiring
    "cli.coveragecommand": set(),  # baselinks coverage: its grammar and wiring
}


def _module(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _path(module: str) -> Path:
    path = SRC.joinpath(*module.split(".")) if module else SRC
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


MODULES = sorted(
    _module(p) for p in SRC.rglob("*.py") if _module(p) and not _module(p).endswith("__main__")
)


def _tree(module: str) -> ast.Module:
    return ast.parse(_path(module).read_text(encoding="utf-8"))


def _third_party_imports(module: str) -> set[str]:
    found = set()
    for node in ast.walk(_tree(module)):
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


def _local_imports(module: str) -> set[str]:
    """The package's modules that ``module`` imports, by name ("" for the package itself),
    those imported for type checking or inside a function too: an import is a dependency."""
    parts = module.split(".") if module else []
    package = parts if _path(module).name == "__init__.py" else parts[:-1]
    found: set[str] = set()
    for node in ast.walk(_tree(module)):
        if isinstance(node, ast.ImportFrom) and (node.level or node.module == "baselinks"):
            within = package[: len(package) - node.level + 1] if node.level else []
            named = ".".join(
                [*within, *(node.module.split(".") if node.level and node.module else [])]
            )
            if node.level and node.module:
                found.add(named)
            elif not named and any(alias.name == "__version__" for alias in node.names):
                raise AssertionError(f"{module}: the version is _version.py's, not the package's")
            else:  # "from . import urlcommands" names a module; "from .. import __version__" not
                for alias in node.names:
                    child = f"{named}.{alias.name}" if named else alias.name
                    found.add(child if child in ALLOWED_THIRD_PARTY else named)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("baselinks."):
            found.add(node.module.partition(".")[2])  # type: ignore[union-attr]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "baselinks":
                    found.add(alias.name.partition(".")[2])
    found.discard(module)
    return found


def _place(module: str) -> str:
    return module.split(".")[0]


def test_every_module_has_a_place_and_a_row() -> None:
    assert set(MODULES) == set(ALLOWED_THIRD_PARTY), "a new module needs a row here"
    assert {_place(module) for module in MODULES} == set(ORDER)


def test_each_module_imports_only_what_its_stage_needs() -> None:
    for module, allowed in ALLOWED_THIRD_PARTY.items():
        assert _third_party_imports(module) <= allowed, module


def test_no_import_reaches_into_a_later_stage() -> None:
    rank = {place: i for i, place in enumerate(ORDER)}
    backwards = [
        f"{module} -> {imported}"
        for module in MODULES
        for imported in sorted(_local_imports(module))
        if imported and rank[_place(imported)] > rank[_place(module)]
    ]
    assert backwards == []


def test_the_import_check_is_not_blind() -> None:
    # the graph is read right: a relative import two folders up, one inside a function, one
    # of a module by "from . import" (api's stages; cli's commands; the linker's base)
    assert {"base.layers", "find.walk", "load.containers"} <= _local_imports("pipeline")
    assert {"pipeline", "run.batch"} <= _local_imports("api")
    assert "cli.urlcommands" in _local_imports("cli.app")
    assert "base.layers" in _local_imports("resolve.link")
    assert "errors" in _local_imports("load.containers.warc")


def test_the_import_graph_has_no_cycle() -> None:
    graph = {module: _local_imports(module) for module in MODULES}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        if module in path:
            cycle = " -> ".join((*path[path.index(module) :], module))
            raise AssertionError(f"import cycle: {cycle}")
        if module in done or module not in graph:
            return
        for imported in sorted(graph[module]):
            visit(imported, (*path, module))
        done.add(module)

    for module in MODULES:
        visit(module, ())


def test_containers_only_read_they_never_parse_html_or_resolve() -> None:
    # The load stage for archives hands bytes and raw header values onwards; the base stage
    # turns MIME headers into a base, the walk finds header links, the linker resolves.
    for module in MODULES:
        if module.startswith("load.containers"):
            outside = {m for m in _local_imports(module) if not m.startswith("load.containers")}
            # (compiled: BASELINKS_PURE=1 turns warc.py's fast reader off, as it does the
            # compiled modules)
            assert outside <= {"errors", "compiled"}, (module, outside)


def test_write_knows_nothing_of_html_and_the_engine_nothing_of_the_pipeline() -> None:
    # write: the Link record, and from errors the character classes its formats escape (the
    # ones diagnose flags) and the terminal escaping of its table (errors.printable); jsonl its
    # JSON Lines writers, which know the Link record and compiled (standard library only)
    assert _local_imports("write.formats") == {"resolve.link", "errors", "write.jsonl"}
    assert _local_imports("write.jsonl") == {"resolve.link", "compiled"}
    assert _local_imports("run.workers") == set()  # processes and order; nothing of links
    # batch drives inputs through a per-document function it is handed: it never parses,
    # never resolves (the Link and Stats types only, for type checking; from write.formats,
    # the budget a document's rendered records are held within; from run.resume, the mark of
    # an input's end that a journal keeps)
    assert _local_imports("run.batch") == {
        "load.containers",
        "errors",
        "run.events",
        "run.inputs",
        "run.resume",
        "run.revisits",  # a revisit's original found in the inputs, before they are read
        "run.summary",  # the run's counts (Summary), moved out of batch (500 lines)
        "run.workers",
        "resolve.link",
        "write.formats",
        "write.stats",
    }
    # inputs opens what it is given: a URL's retrieval URL is a base/mirror.MirroredURL, its
    # body decoded as it is read (load/containers/decoded.py)
    assert _local_imports("run.inputs") == {
        "base.mirror",
        "errors",
        "load.containers",
        "load.containers.decoded",
    }
    # the URL engine: its own modules, errors, compiled (the switch to a compiled copy); its
    # folder's __init__ the old module's names (_moved)
    for module in MODULES:
        if _place(module) == "url":
            allowed = {"url", "errors", "compiled", *(["_moved"] if module == "url" else [])}
            assert {_place(m) for m in _local_imports(module)} <= allowed, module


def test_each_folder_says_what_it_takes_gives_and_where_to_start() -> None:
    for folder in (*STAGES, "url", "cli", "load.containers", "url.rfc1738"):
        doc = ast.get_docstring(_tree(folder)) or ""
        assert len(doc.splitlines()) >= 3, folder
        if folder in STAGES:
            first = [line for line in doc.splitlines() if line.startswith("Open first: ")]
            assert len(first) == 1, folder
            name = first[0].removeprefix("Open first: ").split()[0].strip("`")
            assert (SRC / folder.replace(".", "/") / name).is_file(), (folder, name)


def test_each_compiled_module_sits_beside_the_module_it_mirrors() -> None:
    for name in compiled.COMPILED:
        folder, _, stem = name.removeprefix("baselinks.").rpartition(".")
        source = SRC / folder / f"{stem}.pyx"
        assert source.is_file(), name
        mirrored = SRC / folder / f"{stem.removeprefix('_c')}.py"
        assert mirrored.is_file() or stem == "_csyntax", name  # _csyntax: css.py, microsyntax.py
    assert not list(SRC.glob("*.pyx")), "a compiled module beside what it mirrors, in its stage"


# The bounds a reader keeps in mind (a file past them is a sign to restructure, not a rule of
# style): every function fits on a screen or two, every module is read in one sitting.
FUNCTION_LINES, MODULE_LINES = 80, 500


def test_no_function_over_80_lines_and_no_module_over_500() -> None:
    long = []
    for module in MODULES:
        path = _path(module)
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > MODULE_LINES:
            long.append(f"{path.relative_to(SRC)}: {lines} lines")
        for node in ast.walk(_tree(module)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > FUNCTION_LINES:
                    long.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name}: {length}")
    assert long == []


def test_only_spark_knows_spark_and_nothing_imports_it() -> None:
    for module in MODULES:
        spark = _place(module) == "spark"
        assert ("pyspark" in _third_party_imports(module)) == (spark and module != "spark"), module
        assert spark or not {m for m in _local_imports(module) if _place(m) == "spark"}, module


@pytest.mark.parametrize("old", sorted([*_moved.MOVED, "containers.warc", "rfc1738.grammar"]))
def test_a_module_of_the_flat_layout_still_imports_and_says_where_it_went(old: str) -> None:
    new = _moved.MOVED.get(old) or _moved.MOVED[old.partition(".")[0]] + "." + old.partition(".")[2]
    code = (
        "import importlib, warnings\n"
        "with warnings.catch_warnings(record=True) as said:\n"
        "    warnings.simplefilter('always')\n"
        f"    module = importlib.import_module('baselinks.{old}')\n"
        "print(module.__name__)\n"
        "print(said[-1].category.__name__, said[-1].message)\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert ran.stdout.splitlines() == [
        f"baselinks.{new}",
        f"DeprecationWarning baselinks.{old} moved to baselinks.{new}; the old path goes in 0.3",
    ]


@pytest.mark.parametrize(("old", "name"), [(old, "") for old in sorted(_moved.REPLACED)])
def test_a_folder_that_took_a_modules_name_hands_over_its_names(old: str, name: str) -> None:
    # the first public name of the old module (its __all__), from the folder, with a warning
    new = importlib_module(f"baselinks.{_moved.REPLACED[old]}")
    name = next(iter(getattr(new, "__all__", ["main"])))
    folder = importlib_module(f"baselinks.{old}")
    folder.__dict__.pop(name, None)  # as if asked for the first time
    with pytest.warns(DeprecationWarning, match=rf"baselinks\.{old}\.{name} moved to "):
        assert getattr(folder, name) is getattr(new, name)
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        folder.nothing  # noqa: B018


def importlib_module(name: str) -> types.ModuleType:
    import importlib

    return importlib.import_module(name)


# The modules of 0.1's flat layout (src/baselinks/*.py, containers/, rfc1738/), for the record.
FLAT = """anchor api arguments base batch cli compiled containers css dataflow diagnose encoding
errors extractoptions jsonl link linktable load microsyntax mirror output parquet resolve rfc1738
rfc3986 schema scrapy sheets spark stats tokens url urlcommands walk whatwg workers write"""
# where they stayed: the public surface (api, dataflow, scrapy, spark, errors), compiled, and
# cli, a folder now whose __init__ keeps main, the console script's entry point
STAYED = {"api", "compiled", "dataflow", "errors", "scrapy", "spark", "cli"}


def test_the_old_paths_are_exactly_the_flat_layouts_modules() -> None:
    # every module of 0.1 has a new home or stayed, each once, and every home exists
    moved = [*_moved.MOVED, *_moved.REPLACED, *STAYED]
    assert sorted(moved) == sorted(FLAT.split())
    for new in [*_moved.MOVED.values(), *_moved.REPLACED.values()]:
        assert _path(new).is_file(), new
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        import baselinks.api  # noqa: F401  (the new paths warn of nothing)


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
    assert set(baselinks._HOMES) | {"__version__"} == set(exported)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        baselinks.nothing  # type: ignore[attr-defined]  # noqa: B018


def test_the_public_functions_keep_their_names_over_the_folders() -> None:
    # baselinks.resolve is the function, though resolve/ is a folder of the package and the
    # import system binds a folder on the package when it is imported (__init__'s _Package)
    import baselinks.resolve.link
    import baselinks.url.diagnose

    assert baselinks.resolve("http://a/b/c/d;p?q", "../g") == "http://a/b/g"
    assert "no-base" in baselinks.diagnose("", "g", None)


def _loaded_by(statement: str) -> set[str]:
    """The third-party packages a fresh interpreter has loaded after ``statement``."""
    probe = f"import sys; {statement}; print(' '.join(sys.modules))"
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return {name.split(".")[0] for name in run.stdout.split()}


@pytest.mark.parametrize(
    "module", ["baselinks.url.parts", "baselinks.url.resolve", "baselinks.find.microsyntax"]
)
def test_the_url_engine_loads_no_html_archive_or_css_library(module: str) -> None:
    # baselinks/__init__.py is lazy (PEP 562): importing a module of the URL engine, or the
    # parsing of srcset and refresh, runs none of lxml, warcio or tinycss2
    assert not _loaded_by(f"import {module}") & {"lxml", "warcio", "tinycss2"}


def test_the_lazy_names_load_their_stage_when_used() -> None:
    # the probe above is not blind: the same fresh interpreter loads them once a name needs them
    # (warcio once an archive is read, tinycss2 once a style sheet is: tests/test_startup.py)
    assert {"lxml"} <= _loaded_by("import baselinks; baselinks.extract_links")


# What `baselinks --version` must not load: the pipeline and the libraries of its stages.
_PIPELINE = ("lxml", "warcio", "tinycss2", "ada_url", "baselinks.api", "baselinks.find.walk")


def _pipeline_loaded_by(code: str) -> list[str]:
    """The modules of _PIPELINE that a fresh interpreter running ``code`` has loaded."""
    probe = f"{code}\nimport sys\nprint(sorted(set({_PIPELINE!r}) & set(sys.modules)))"
    ran = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    loaded: list[str] = ast.literal_eval(ran.stdout.splitlines()[-1])
    return loaded


def test_version_imports_only_what_it_prints() -> None:
    # a lazy __init__ (PEP 562), and cli/app.py imports the pipeline only inside the commands
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
