"""Every example in the README and in docs/ is run, so that none can go stale.

* ```` ```console ```` blocks hold ``$ command`` lines, each followed by its expected output
  (stdout and stderr together). ``baselinks`` runs as ``python -m baselinks`` of this
  interpreter, from the repository root.
* ```` ```pycon ```` blocks are doctests, run from the repository root as a reader pastes them:
  in a namespace that starts empty (nothing imported for them), each page's blocks in order. A block that uses the
  ``spark``, ``scrapy`` or ``parquet`` extra is skipped, with the reason, where the extra is not installed
  (never in CI, which installs both and requires their tests).
* ```` ```sh ```` lines are install, benchmark and cluster commands: each must match one of
  :data:`SH_COMMANDS`, which says how it is checked, or why it cannot be run here.
* Plain blocks: the CLI synopsis (every option in it exists) and the architecture's file list
  (it names every module, and only modules that exist).
* The table of differences from ``urljoin``, lxml and Scrapy is recomputed by running each of
  them, and so is the table of the RFC's examples.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import ada_url
import lxml.html
import pytest

import baselinks
from conftest import FIXTURES, extra

ROOT = FIXTURES.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


class Block(NamedTuple):
    where: str  # file:line, the test id
    lang: str
    text: str


def _blocks() -> list[Block]:
    """Every fenced block of every page; a MyST directive (```{toctree}, ```{eval-rst}) is
    the site's, not an example: left out."""
    blocks = []
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"(?m)^```(\{[\w-]+\}|\w*)[^\n]*\n(.*?)^```$", text, re.DOTALL):
            if match[1].startswith("{"):
                continue
            line = text.count("\n", 0, match.start()) + 1
            blocks.append(Block(f"{path.relative_to(ROOT)}:{line}", match[1], match[2]))
    return blocks


BLOCKS = _blocks()
# Every page's text, one after the other: a table or a heading is looked for in all of them.
PAGES = "\n".join(path.read_text(encoding="utf-8") for path in DOCUMENTS)


def _of(lang: str) -> list[Block]:
    return [block for block in BLOCKS if block.lang == lang]


def test_every_block_is_of_a_kind_this_file_runs_or_checks() -> None:
    assert {block.lang for block in BLOCKS} <= {"console", "pycon", "sh", "sql", ""}, (
        "a ```python block is not run: write it as ```pycon with its output"
    )
    assert len(_of("console")) >= 5 and len(_of("pycon")) >= 6


# --- console ----------------------------------------------------------------------------------


def _console_examples() -> list[tuple[str, str, str]]:
    examples = []
    for block in _of("console"):
        command, expected = None, []
        for line in block.text.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    examples.append((block.where, command, "\n".join(expected)))
                command, expected = line[2:], []
            else:
                expected.append(line)
        if command is not None:
            examples.append((block.where, command, "\n".join(expected)))
    return examples


CONSOLE = _console_examples()


def _shell(command: str, stderr: str = "2>&1") -> subprocess.CompletedProcess[str]:
    """``command`` (starting ``baselinks ``) run by bash from the root, stderr into stdout;
    the tools installed beside this Python (``warcio``) found first on the PATH."""
    assert command.startswith("baselinks ")
    runnable = f"{shlex.quote(sys.executable)} -m {command}"
    path = os.pathsep.join((str(Path(sys.executable).parent), os.environ.get("PATH", "")))
    return subprocess.run(
        ["bash", "-c", f"set -o pipefail; {{ {runnable} ; }} {stderr}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PATH": path},
    )


@pytest.mark.parametrize(("where", "command", "expected"), CONSOLE, ids=[c for _, c, _ in CONSOLE])
def test_console_example(where: str, command: str, expected: str) -> None:
    if "| jq " in command and shutil.which("jq") is None:
        pytest.skip("jq is not installed here: the example pipes the links to it")
    if "baselinks ranks " in command:
        extra("ranks")  # igraph: skipped, saying which pip install adds it, where it is not
    assert _shell(command).stdout.rstrip("\n") == expected, where


# --- pycon ------------------------------------------------------------------------------------


def _needs(text: str) -> list[str]:
    names = ("spark", "scrapy", "parquet", "ranks")  # ranks: the igraph extra
    return [name for name in names if re.search(rf"\b(py)?{name}\b", text)]


def _page_so_far(block: Block) -> list[Block]:
    """The ```pycon blocks of ``block``'s page up to it, in order: what a reader has pasted
    into one interpreter by then."""
    page = block.where.rpartition(":")[0]
    blocks = [each for each in _of("pycon") if each.where.rpartition(":")[0] == page]
    return blocks[: blocks.index(block) + 1]


@pytest.mark.parametrize("block", _of("pycon"), ids=[b.where for b in _of("pycon")])
def test_pycon_example(block: Block, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run as pasted: in a namespace with nothing in it (no ``baselinks`` given) but what the
    page's blocks before it made, each block importing what it names first."""
    so_far = _page_so_far(block)
    for name in {need for each in so_far for need in _needs(each.text)}:
        extra(name)
    monkeypatch.chdir(ROOT)
    namespace: dict[str, Any] = {}
    for each in so_far:
        test = doctest.DocTestParser().get_doctest(each.text, namespace, each.where, each.where, 0)
        output: list[str] = []
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test, out=output.append, clear_globs=False)
        namespace = test.globs  # (a DocTest runs in a copy of the namespace it is given)
    assert runner.failures == 0, "".join(output)
    assert runner.tries > 0


# --- sql --------------------------------------------------------------------------------------


@pytest.mark.parametrize("block", _of("sql"), ids=[b.where for b in _of("sql")])
def test_sql_example(block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ```sql block is a query of ``links.parquet`` as `--format parquet` writes it: run by
    DuckDB on the fixtures' links, where DuckDB is installed."""
    duckdb = extra("duckdb")  # pyarrow too, for --format parquet
    from baselinks.cli import main

    argv = [str(FIXTURES / "containers" / "crawl.warc.gz"), "--format", "parquet", "-q"]
    assert main(["extract", *argv, "-o", str(tmp_path / "links.parquet")]) == 0
    monkeypatch.chdir(tmp_path)
    assert duckdb.sql(block.text).fetchall(), block.where  # some rows


# --- sh ---------------------------------------------------------------------------------------


def _sh_commands() -> list[tuple[str, str]]:
    """Each command line of the ```sh blocks (continuations joined, comments dropped)."""
    commands = []
    for block in _of("sh"):
        for line in block.text.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#\s.*$", "", line).strip()
            if line:
                commands.append((block.where, line))
    return commands


def _run_first_command(command: str, tmp_path: Path) -> None:
    """The README's first command: its run part gives the JSON records of the library."""
    install, run = command.split(" && ", 1)
    assert install == "python -m pip install ."
    proc = _shell(run, stderr="2>/dev/null")
    assert proc.returncode == 0
    argv = shlex.split(run)
    expected = baselinks.extract_links(argv[2], url=argv[argv.index("--url") + 1])
    assert [json.loads(line)["url"] for line in proc.stdout.splitlines()] == [
        link.url for link in expected
    ]


def _run_the_test_command(command: str, tmp_path: Path) -> None:
    """Not run from inside the tests it runs: CI runs it, word for word (`.ci/run` checks)."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command in ci


def _check_benchmark(command: str, tmp_path: Path) -> None:
    """Benchmarks run for minutes on the project's shared corpus, which a clone has not: the
    script must exist and take every option the command gives it."""
    argv = shlex.split(command.split(" && ")[-1])
    if argv[1] == "benchmarks/run.py" and argv[2:3] != ["--list"]:
        # the runner's named case: the case's script takes the options
        from importlib.util import module_from_spec, spec_from_file_location

        spec = spec_from_file_location("run", ROOT / argv[1])
        assert spec is not None and spec.loader is not None
        runner = module_from_spec(spec)
        spec.loader.exec_module(runner)
        argv = [argv[0], f"benchmarks/{runner.CASES[argv[2]].script}", *argv[3:]]
    script = ROOT / argv[1]
    assert script.is_file(), argv[1]
    if "bench_spark" in argv[1]:
        extra("spark")
    proc = subprocess.run(
        [sys.executable, str(script), "--help"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    for option in (a.split("=")[0] for a in argv[2:] if a.startswith("--")):
        assert option in proc.stdout, (argv[1], option)


def _run_spark_driver(command: str, tmp_path: Path, where: str = "") -> None:
    """The driver on the fixtures, writing into a temporary folder: the exit status the
    fixtures' failures give (the README's: 0, and its output outside the repository, so that
    pasting it leaves the clone as it was), its count line giving every readable record's
    links, and a finished Parquet."""
    extra("spark")
    from baselinks.spark import main as spark_main

    # the arguments as the shell hands them over: each glob expanded from the root, sorted
    argv = [
        expanded
        for arg in shlex.split(command)[3:]
        for expanded in (
            [str(p.relative_to(ROOT)) for p in sorted(ROOT.glob(arg))] if "*" in arg else [arg]
        )
    ]
    output = argv.index("--output") + 1
    given = Path(argv[output])
    if where.startswith("README.md"):
        assert given.is_absolute() and not given.resolve().is_relative_to(ROOT.resolve())
    argv[output] = str(tmp_path / given.name)
    summary = baselinks.Summary()
    for path in (arg for arg in argv if arg.startswith("fixtures/")):
        list(baselinks.iter_links(ROOT / path, on_error=lambda e: None, summary=summary))
    failed = {p for p in argv if p.startswith("fixtures/") and _fails(ROOT / p)}
    assert not (where.startswith("README.md") and failed), failed  # a README example exits 0
    stderr = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stderr(stderr):
        patch.chdir(ROOT)
        assert spark_main(argv) == (1 if failed else 0)
    lines = stderr.getvalue().splitlines()
    assert f"{summary.links:,} links; " in lines[-1]  # the last line
    n = len(failed)
    assert (
        f"; {n} file{'' if n == 1 else 's'} failed ({n} error{'' if n == 1 else 's'}); "
        in lines[-1]
    )
    written = Path(argv[output])
    counters = json.loads((written / "_baselinks.json").read_text(encoding="utf-8"))
    assert (counters["links"], counters["failed_files"]) == (summary.links, len(failed))
    if "--graph" in argv:  # its two tables, each a folder of parts (tests/test_spark_graph.py)
        assert counters["graph"] == argv[argv.index("--graph") + 1]
        written = written / "vertices.parquet"
    assert (written / "_SUCCESS").is_file()
    parts = sorted(written.glob("part-*"))
    if "--num-output-partitions" in argv:
        assert len(parts) == int(argv[argv.index("--num-output-partitions") + 1])
    if "--output-compression" in argv:
        codec = argv[argv.index("--output-compression") + 1]
        assert all(part.name.endswith(f".{codec}.parquet") for part in parts)


def _fails(path: Path) -> bool:
    errors: list[baselinks.InputError] = []
    list(baselinks.iter_links(path, on_error=errors.append))
    return bool(errors)


def _url_input_parsed(command: str, tmp_path: Path) -> None:
    """A URL on the internet is not fetched here (no network; tests/test_inputs.py reads URLs
    from a server of its own on 127.0.0.1): its options must be the command's, its inputs
    URLs."""
    from baselinks.cli import arguments
    from baselinks.run.inputs import is_url

    argv = shlex.split(command)[1:]
    args = arguments.build_parser("baselinks").parse_args(argv)
    assert args.command == "extract" and args.paths and all(map(is_url, args.paths))


def _run_generate(command: str, tmp_path: Path) -> None:
    """``baselinks --generate KIND > FILE``: run into a file of its own, its shell's or man's
    syntax checked where that program is installed."""
    kind = shlex.split(command)[2]
    if kind in ("man", "complete-bash", "complete-zsh"):
        extra("shell")
    proc = _shell(f"baselinks --generate {kind}", stderr="")
    assert proc.returncode == 0 and proc.stdout
    script = tmp_path / "generated"
    script.write_text(proc.stdout, encoding="utf-8")
    checker = {
        "man": ["man", "-l", "--warnings", str(script)],
        "complete-bash": ["bash", "-n", str(script)],
        "complete-zsh": ["zsh", "-n", str(script)],
        "complete-fish": ["fish", "-n", str(script)],
    }[kind]
    if shutil.which(checker[0]) is not None:
        checked = subprocess.run(checker, capture_output=True, text=True, check=False)
        assert checked.returncode == 0, checked.stderr


def _not_runnable_here(command: str, tmp_path: Path) -> None:
    """Installs into the running environment, or needs a cluster (spark-submit on YARN): not
    run. The Spark driver and the packages they install are tested on their own."""


def _cc_pyspark(command: str, tmp_path: Path) -> None:
    """cc-pyspark's jobs (docs/guide/common-crawl.md), run in its own checkout on Spark: not
    baselinks' code, not run here (the guide says what its host job gave on baselinks' WATs)."""


SH_COMMANDS: list[tuple[str, Callable[[str, Path], None]]] = [
    (r"python -m pip install \. && baselinks extract \S+ .*", _run_first_command),
    (r'python -m pip install -e "\.\[test\]" && python -m pytest', _run_the_test_command),
    (
        r"(python -m pip install -e \"\.\[bench\]\" && )?python (benchmarks|fuzz)/\w+\.py .*",
        _check_benchmark,
    ),
    (r"python -m baselinks\.spark .*", _run_spark_driver),
    (r"baselinks extract [a-z0-9]+://\S+( .*)?", _url_input_parsed),
    (r"baselinks --generate [\w-]+ > \S+", _run_generate),
    (
        r'python -m pip install "\.\[[\w,]+\]"( [\w-]+)*( && venv-pack -o env\.tar\.gz)?',
        _not_runnable_here,
    ),
    (r"python -m venv env && \. env/bin/activate", _not_runnable_here),
    (r"spark-submit --master yarn .*", _not_runnable_here),
    (r'ls "\$PWD"/wat/\*\.warc\.wat\.gz .*', _cc_pyspark),
    (r"spark-submit \./(wat_extract_links|hostlinks_to_graph)\.py .*", _cc_pyspark),
]


@pytest.mark.parametrize(("where", "command"), _sh_commands(), ids=[c for _, c in _sh_commands()])
def test_sh_command(where: str, command: str, tmp_path: Path) -> None:
    checks = [check for pattern, check in SH_COMMANDS if re.fullmatch(pattern, command)]
    assert len(checks) == 1, f"{where}: {command!r} needs an entry in SH_COMMANDS"
    if checks[0] is _run_spark_driver:
        _run_spark_driver(command, tmp_path, where)
    else:
        checks[0](command, tmp_path)


def test_the_first_two_commands_are_the_contract() -> None:
    readme = [block.text.strip() for block in _of("sh") if block.where.startswith("README.md")]
    first, second = readme[:2]
    assert first.startswith("python -m pip install . && baselinks extract fixtures/")
    assert second == 'python -m pip install -e ".[test]" && python -m pytest'


def test_the_readme_is_a_front_door_to_every_page() -> None:
    # at most 250 lines: what baselinks is for, the two commands, an example per main use, and
    # a link to each page of the documentation (the site's pages are the same files)
    readme = DOCUMENTS[0].read_text(encoding="utf-8")
    assert readme.count("\n") <= 250
    linked = {ROOT / target for target in re.findall(r"\]\((docs/[\w./-]+\.md)", readme)}
    assert set(DOCUMENTS[1:]) - {ROOT / "docs" / "index.md"} <= linked


# --- plain blocks -----------------------------------------------------------------------------


def _plain(starting: str) -> str:
    [block] = [b.text for b in _of("") if b.text.startswith(starting)]
    return block


def test_the_synopsis_names_only_options_that_exist() -> None:
    synopsis = _plain("baselinks extract")
    for line in synopsis.replace("\n  ", " ").splitlines():
        command = line.split()[1]
        helptext = subprocess.run(
            [sys.executable, "-m", "baselinks", command, "--help"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for option in re.findall(r"\[(-[-\w]+)", line):
            assert option in helptext, (command, option)
        for choices in re.findall(r"\[--[\w-]+ (\w+(?:\|\w+)+)\]", line):
            assert all(choice in helptext for choice in choices.split("|")), (command, choices)


def test_the_architecture_lists_every_module() -> None:
    # each line is a name at its depth (two spaces a level): a folder ("x/") or a module in the
    # folder above it; every module and folder of the package is listed, once, in one list
    tree = _plain("src/baselinks/")
    listed, folders = set(), [""]
    for line in tree.splitlines()[1:]:
        depth = (len(line) - len(line.lstrip(" "))) // 2
        name = line.split()[0]
        del folders[depth:]
        if name.endswith("/"):
            listed.add(folders[-1] + name)
            folders.append(folders[-1] + name)
        elif name.endswith(".py"):
            listed.add(folders[-1] + name)
    package = ROOT / "src" / "baselinks"
    modules = {
        str(p.relative_to(package))
        for p in package.rglob("*.py")
        if p.name not in ("__main__.py", "__init__.py")
    }
    folders_found = {
        f"{p.relative_to(package)}/"
        for p in package.rglob("*")
        if p.is_dir() and p.name[0] != "_" and (p / "__init__.py").is_file()
    }
    assert listed == modules | folders_found


# --- the tables -------------------------------------------------------------------------------

PAGE_URL = "http://a/b/c/d;p?q"


def _table(heading: str) -> list[list[str]]:
    """The rows (cells stripped) of the first table after ``heading``."""
    section = PAGES.split(heading, 1)[1]
    lines = re.search(r"(?m)^\|.*(?:\n\|.*)*", section)
    assert lines is not None
    return [
        [cell.strip() for cell in row.strip("|").split(" | ")] for row in lines[0].splitlines()[2:]
    ]


def _page(cell: str) -> bytes:
    """``<title>`4 KB`</title>...``: code spans are the markup, plain ``N KB`` is N KiB of x."""
    pieces = cell.split("`")
    assert pieces[0] == pieces[-1] == ""
    text = "".join(
        piece if i % 2 else "x" * 1024 * int(piece.removesuffix(" KB") or 0)
        for i, piece in enumerate(pieces)
    )
    return text.encode()


def _urls(cell: str) -> list[str]:
    return [] if cell == "\N{EN DASH}" else re.findall(r"`([^`]*)`", cell)


def _with_baselinks(page: bytes) -> list[str]:
    return [link.url for link in baselinks.extract_links(page, url=PAGE_URL)]


def _with_urljoin(page: bytes) -> list[str]:
    hrefs = lxml.html.document_fromstring(page).xpath("//a/@href")
    return [urllib.parse.urljoin(PAGE_URL, href) for href in hrefs]


def _with_lxml(page: bytes) -> list[str]:
    document = lxml.html.document_fromstring(page)
    document.make_links_absolute(PAGE_URL)
    return [link for _, _, link, _ in document.iterlinks()]


def _with_scrapy(page: bytes) -> list[str]:
    http = extra("scrapy")
    from scrapy.linkextractors import LinkExtractor

    response = http.HtmlResponse(PAGE_URL, body=page, encoding="utf-8")
    return [link.url for link in LinkExtractor().extract_links(response)]


TOOLS: dict[str, Callable[[bytes], list[str]]] = {
    "baselinks": _with_baselinks,
    "urljoin": _with_urljoin,
    "lxml": _with_lxml,
    "scrapy": _with_scrapy,
}
DIFFERENCES = "## Where we differ from `urljoin`, lxml and Scrapy"


@pytest.mark.parametrize("column", range(4), ids=list(TOOLS))
def test_the_table_of_differences_is_what_each_tool_does(column: int) -> None:
    rows = _table(DIFFERENCES)
    assert len(rows) >= 10
    tool = list(TOOLS.values())[column]
    table = [(row[0], _urls(row[1 + column])) for row in rows]
    assert [(page, tool(_page(page))) for page, _ in table] == table


def test_every_row_of_differences_differs() -> None:
    for row in _table(DIFFERENCES):
        assert len(set(row[1:])) > 1, row[0]


def test_the_table_of_the_rfc_examples() -> None:
    base = "http://a/b/c/d;p?q#f"
    rows = _table("The RFC's own examples")
    assert len(rows) >= 10
    resolvers: list[Callable[[str], Any]] = [
        lambda ref: baselinks.resolve(base, ref),
        lambda ref: urllib.parse.urljoin(base, ref),
        lambda ref: baselinks.resolve(base, ref, mode="rfc3986"),
        lambda ref: ada_url.join_url(base, ref),
    ]
    for row in rows:
        ref = _urls(row[0])[0]
        assert [resolve(ref) for resolve in resolvers] == [_urls(c)[0] for c in row[1:]], ref
        assert baselinks.resolve(base, ref, mode="whatwg") == _urls(row[4])[0]


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_between_the_documents_arrives() -> None:
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        for target, anchor in re.findall(r"\]\(([\w./-]*)(?:#([\w-]+))?\)", text):
            if target.startswith(("http:", "https:")):
                continue
            goal = (path.parent / target) if target else path
            assert goal.is_file(), (path.name, target)
            if anchor:
                headings = re.findall(r"(?m)^#+ (.*)$", goal.read_text(encoding="utf-8"))
                assert anchor in {_slug(h) for h in headings}, (path.name, target, anchor)
