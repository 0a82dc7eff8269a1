"""What compiling the pure URL modules would give: mypyc and Cython against the Python sources.

    python benchmarks/bench_compiled.py CORPUS [--variants pure,mypyc,cython] [--rounds 5]
        [--modes rfc1808,whatwg] [--callgrind PAGES] [--build-dir DIR]

The modules of the per-link work (:data:`MODULES`: url, resolve, rfc3986, diagnose, rfc1738,
microsyntax, link) are copied from this checkout into ``DIR/VARIANT/baselinks`` and built there:

    pure     the copy as it is (the reference every figure is divided by)
    mypyc    mypyc over MODULES, checked by mypy --strict as it compiles them
    cython   Cython over the same .py files, unchanged (no .pxd, no annotations added)

All three get the same small source changes that mypyc needs (:data:`MYPYC_PATCHES`, each with
its reason), so that only the compilation differs. Each measurement then runs in a fresh
interpreter with ``PYTHONPATH=DIR/VARIANT``, the variants' order reversed every other round so
that the shared machine's drift falls on each alike; the medians are printed:

* resolve: ns per (base, reference) pair, rfc1808, one ``Resolver`` per page, on the pairs
  ``bench_resolve.py`` collects; then resolve + ``diagnose`` per pair (what ``Linker`` does for
  each distinct reference).
* extraction: ``bench_peers.py``'s worker (``iter_links`` over the corpus's HTML pages, every
  link source, full records) in each mode, as a multiple of the lxml parse timed around it in
  the same process.
* ``--callgrind PAGES``: instructions (valgrind's callgrind, deterministic where the clock is
  not) of ``iter_links`` over the first PAGES pages, each variant: a run that extracts less a
  run that only imports, loads and warms up.
* equal answers: a digest of every link record of every page, per variant and mode.

It needs a C compiler and the Python headers, ``mypy`` (the lint extra) and ``Cython``
(``pip install cython``); a variant that cannot be built is reported and left out.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent / "src" / "baselinks"

# The pure-Python modules of the per-link work (issue 20: "url, resolve, diagnose, microsyntax,
# the linker"), with what they import of their kind (rfc3986 from resolve, rfc1738 from diagnose).
MODULES = (
    "url/parts.py",
    "url/resolve.py",
    "url/rfc3986.py",
    "url/whatwg.py",
    "url/explain.py",
    "url/diagnose.py",
    "find/microsyntax.py",
    "resolve/link.py",
    "url/rfc1738/__init__.py",
    "url/rfc1738/grammar.py",
    "url/rfc1738/rules.py",
    "url/rfc1738/schemes.py",
)

# (file, text, replacement, why): the changes mypyc 2.x needs in these modules. Each must apply
# exactly once; a source that has moved on makes the build say which no longer does.
MYPYC_PATCHES = (
    (
        "url/parts.py",
        "from typing import Any, NamedTuple\n",
        "from typing import Any, NamedTuple\n\nfrom mypy_extensions import mypyc_attr\n",
        "mypyc: 'Inheriting from most builtin types is unimplemented' (URLParts extends a "
        "NamedTuple): it stays a Python class (native_class=False), its methods compiled",
    ),
    (
        "url/parts.py",
        "class URLParts(_Components):",
        "@mypyc_attr(native_class=False)\nclass URLParts(_Components):",
        "(the decorator of the patch above)",
    ),
    (
        "url/parts.py",
        "self = super().__new__(cls, scheme,",
        "self = _Components.__new__(cls, scheme,",
        "mypyc: 'object.__new__() not supported for non-extension classes' (super() in the "
        "__new__ of a Python class)",
    ),
    (
        "url/resolve.py",
        "        if cls is Resolver:\n            cls = resolver_class(mode)\n"
        "        return object.__new__(cls)",
        "        if cls is Resolver:\n            chosen = resolver_class(mode)\n"
        "            return chosen.__new__(chosen, base, mode)\n"
        "        return object.__new__(cls)",
        "mypyc: 'Assignment to argument cls in __new__ method unsupported', and object.__new__ "
        "only of the first argument",
    ),
    (
        "url/resolve.py",
        "\n@lru_cache(maxsize=64)\ndef _cached(",
        '\ndef resolver_of(base: str, mode: str = "rfc1808") -> Resolver:\n'
        "    return resolver_class(mode)(base, mode)\n\n\n"
        "@lru_cache(maxsize=64)\ndef _cached(",
        "mypyc: a compiled Resolver(base, mode) whose __new__ returns a subclass skips __init__ "
        "(CPython calls it): compiled callers go through resolver_of (see _calls_patched)",
    ),
    (
        "url/rfc1738/schemes.py",
        "\nSCHEMES = {",
        "\nSCHEMES: dict[str, str] = {",
        "mypy, compiling these files without the rest: 'Cannot determine type of SCHEMES' "
        "(the package's import cycle through __init__)",
    ),
)


def _calls_patched(text: str, module: str) -> str:
    """Every call ``Resolver(...)`` in a compiled module's code (not its docstrings or strings)
    made ``resolver_of(...)``: found by ``ast``, so that it holds whatever the sources become."""
    calls = [
        node.func
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "Resolver"
    ]
    lines = text.splitlines(keepends=True)
    for func in sorted(calls, key=lambda f: (f.lineno, f.col_offset), reverse=True):
        line = lines[func.lineno - 1]
        lines[func.lineno - 1] = (
            line[: func.col_offset] + "resolver_of" + line[func.end_col_offset :]
        )
    text = "".join(lines)
    if calls and module != "url/resolve.py":
        text, count = re.subn(
            r"^from (\.|\.\.url\.)resolve import ",
            r"from \1resolve import resolver_of, ",
            text,
            flags=re.M,
        )
        if count != 1:
            raise SystemExit(f"{module}: no 'from .resolve import' line to add resolver_of to")
    return text


def prepare(root: Path) -> Path:
    """``root/baselinks``: this checkout's package, with MYPYC_PATCHES applied."""
    package = root / "baselinks"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(SOURCE, package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    for name, old, new, _ in MYPYC_PATCHES:
        path = package / name
        text = path.read_text(encoding="utf-8")
        if text.count(old) != 1:
            raise SystemExit(f"{name}: the mypyc patch for {old.strip()!r} no longer applies")
        path.write_text(text.replace(old, new), encoding="utf-8")
    for name in MODULES:
        path = package / name
        path.write_text(_calls_patched(path.read_text(encoding="utf-8"), name), encoding="utf-8")
    return package


def _mypy_config(root: Path) -> Path:
    """The checkout's [tool.mypy] settings (strict, the overrides), without its file list."""
    text = (HERE.parent / "pyproject.toml").read_text(encoding="utf-8")
    start = text.index("[tool.mypy]")
    end = text.find("\n[tool.", start + 1)  # the next table but [[tool.mypy.overrides]]
    config = re.sub(r"^files = .*\n", "", text[start : end if end >= 0 else None], flags=re.M)
    path = root / "mypy.toml"
    path.write_text(config, encoding="utf-8")
    return path


def build(variant: str, root: Path) -> str | None:
    """Build ``variant`` in ``root``; the error's last lines when it cannot be built."""
    prepare(root)
    modules = [f"baselinks/{name}" for name in MODULES]
    if variant == "pure":
        return None
    if variant == "mypyc":
        config = _mypy_config(root)
        script = f"""
            from setuptools import setup
            from mypyc.build import mypycify
            setup(name="bench", script_args=["build_ext", "--inplace"],
                  ext_modules=mypycify(["--config-file", {str(config)!r}, *{modules!r}]))
        """
    elif variant == "cython":
        script = f"""
            from setuptools import setup
            from Cython.Build import cythonize
            setup(name="bench", script_args=["build_ext", "--inplace"],
                  ext_modules=cythonize({modules!r}, quiet=True,
                                        compiler_directives={{"language_level": 3}}))
        """
    else:
        raise SystemExit(f"unknown variant {variant!r}")
    (root / "build_variant.py").write_text(textwrap.dedent(script), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "build_variant.py"], cwd=root, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        return "\n".join((done.stdout + done.stderr).splitlines()[-8:])
    built = sorted(p.name for p in (root / "baselinks").rglob("*.so"))
    if len(built) < len(MODULES):
        return f"only {len(built)} extension modules built: {built}"
    return None


# --- the workers, each in a fresh interpreter with PYTHONPATH=DIR/VARIANT --------------------


def _html_pages(corpus: Path) -> list[tuple[bytes, str | None]]:
    sys.path.insert(0, str(HERE))
    import bench_peers

    return bench_peers.load_corpus(corpus)


def worker_resolve(corpus: Path, mode: str, repeat: int, only: str = "") -> dict[str, object]:
    """ns a pair, the median of ``repeat`` runs; with ``repeat`` 0 (under callgrind), both
    runs once to warm up, then ``only`` once more ("none": nothing more)."""
    sys.path.insert(0, str(HERE))
    import bench_resolve

    from baselinks import diagnose
    from baselinks.errors import BaselinksError
    from baselinks.url.resolve import Resolver

    pages = bench_resolve.collect(corpus)
    count = sum(len(refs) for _, refs in pages)

    def resolve_only() -> None:
        for base, refs in pages:
            resolve = Resolver(base, mode).resolve
            for ref in refs:
                try:  # noqa: SIM105 (contextlib.suppress would be timed too, per pair)
                    resolve(ref)
                except BaselinksError:
                    pass

    def with_diagnose() -> None:
        for base, refs in pages:
            resolve = Resolver(base, mode).resolve
            for ref in refs:
                try:
                    url: str | None = resolve(ref)
                except BaselinksError:
                    url = None
                diagnose(base, ref, url)

    result: dict[str, object] = {"pairs": count}
    runs = {"resolve": resolve_only, "resolve+diagnose": with_diagnose}
    if repeat == 0:
        for run in runs.values():
            run()
        if only in runs:
            runs[only]()
        return result
    for name, run in runs.items():
        run()  # warm-up
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
        result[name] = statistics.median(times) / count * 1e9
    return result


def worker_count(corpus: Path, mode: str, pages: int, extract: bool) -> dict[str, object]:
    from baselinks import iter_links

    docs = _html_pages(corpus)[:pages]
    errors: list[object] = []
    for data, url in docs[:3]:  # warm-up: imports, first-use caches
        for _ in iter_links(data, url=url, mode=mode, on_error=errors.append):
            pass
    count = 0
    if extract:
        for data, url in docs:
            for _ in iter_links(data, url=url, mode=mode, on_error=errors.append):
                count += 1
    return {"links": count}


def worker_digest(corpus: Path, mode: str) -> dict[str, object]:
    import baselinks
    from baselinks import iter_links

    digest = hashlib.sha256()
    count = 0
    errors: list[object] = []
    for data, url in _html_pages(corpus):
        for link in iter_links(data, url=url, mode=mode, on_error=errors.append):
            digest.update(repr(tuple(link)).encode("utf-8", "surrogatepass") + b"\n")
            count += 1
    compiled = [
        name
        for name, module in sorted(sys.modules.items())
        if name.startswith("baselinks.") and str(getattr(module, "__file__", "")).endswith(".so")
    ]
    return {
        "links": count,
        "errors": len(errors),
        "sha256": digest.hexdigest(),
        "compiled": compiled,
        "package": str(Path(baselinks.__file__).parent),
    }


# --- the driver ------------------------------------------------------------------------------


def _run(root: Path, args: list[str], *, prefix: list[str] | None = None) -> str:
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0")
    env.pop("BASELINKS_PURE", None)
    done = subprocess.run(
        [*(prefix or []), sys.executable, *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} under {root} failed:\n{done.stderr[-2000:]}")
    return done.stdout + (done.stderr if prefix else "")


def _worker(root: Path, corpus: Path, *args: str) -> dict[str, object]:
    out = _run(root, [str(Path(__file__).resolve()), str(corpus), "--worker", *args])
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def _instructions(root: Path, corpus: Path, *worker: str) -> int:
    out = _run(
        root,
        [str(Path(__file__).resolve()), str(corpus), "--worker", *worker],
        prefix=["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"],
    )
    found = re.search(r"Collected : (\d+)", out)
    if found is None:
        raise SystemExit(f"no instruction count from callgrind:\n{out[-2000:]}")
    return int(found.group(1))


def _resolve_instructions(
    roots: dict[str, Path], corpus: Path
) -> dict[str, dict[str, list[float]]]:
    """Instructions a pair of resolve, and of resolve + diagnose, rfc1808, each variant."""
    rows: dict[str, dict[str, list[float]]] = {"resolve": {}, "resolve+diagnose": {}}
    for variant, root in roots.items():
        pairs = int(_worker(root, corpus, "resolve", "rfc1808", "0")["pairs"])  # type: ignore[call-overload]
        alone = _instructions(root, corpus, "resolve", "rfc1808", "0", "none")
        for name, row in rows.items():
            more = _instructions(root, corpus, "resolve", "rfc1808", "0", name)
            row[variant] = [(more - alone) / pairs]
    return rows


def _ordered(variants: list[str], round_: int) -> list[str]:
    return variants if round_ % 2 == 0 else variants[::-1]


def _row(name: str, runs: dict[str, list[float]], unit: str, lower: str = "pure") -> str:
    """Each variant's median (and range, when there are several runs), with its change from
    ``lower``'s median."""
    medians = {variant: statistics.median(values) for variant, values in runs.items()}
    cells = []
    for variant, value in medians.items():
        against = medians.get(lower)
        change = f" {(value / against - 1) * 100:+.1f}%" if against and variant != lower else ""
        values = runs[variant]
        spread = f" [{min(values):{unit}}-{max(values):{unit}}]" if len(values) > 1 else ""
        cells.append(f"{value:{unit}}{spread}{change}")
    return f"| {name} | " + " | ".join(cells) + " |"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--variants", default="pure,mypyc,cython")
    parser.add_argument("--modes", default="rfc1808,whatwg")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--callgrind", type=int, default=0, metavar="PAGES")
    parser.add_argument("--build-dir", type=Path, help="kept afterwards (default: a temp dir)")
    parser.add_argument("--no-build", action="store_true", help="use --build-dir as built")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        kind, mode, *rest = args.worker
        if kind == "resolve":
            result = worker_resolve(args.corpus, mode, int(rest[0]), *rest[1:])
        elif kind == "count":
            result = worker_count(args.corpus, mode, int(rest[0]), rest[1] == "extract")
        else:
            result = worker_digest(args.corpus, mode)
        print(json.dumps(result))
        return 0

    corpus = args.corpus.resolve()
    modes = args.modes.split(",")
    top = args.build_dir or Path(tempfile.mkdtemp(prefix="bench_compiled-"))
    roots: dict[str, Path] = {}
    for variant in args.variants.split(","):
        root = (top / variant).resolve()
        if not args.no_build:
            started = time.perf_counter()
            error = build(variant, root)
            if error is not None:
                print(f"# {variant}: not built:\n{error}", file=sys.stderr)
                continue
            print(f"# {variant}: built in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        roots[variant] = root
    variants = list(roots)
    header = "| | " + " | ".join(variants) + " |\n|---|" + "---:|" * len(variants)

    print("## Equal answers (every link record of every HTML page)\n")
    print(header)
    for mode in modes:
        found = {v: _worker(roots[v], corpus, "digest", mode) for v in variants}
        print(
            f"| {mode} | "
            + " | ".join(
                f"{r['links']:,} links, {r['errors']} errors, {str(r['sha256'])[:12]}, "
                f"{len(r['compiled'])} compiled"  # type: ignore[arg-type]
                for r in found.values()
            )
            + " |"
        )
        if len({str(r["sha256"]) for r in found.values()}) != 1:
            print(f"\n**The variants disagree in {mode} mode.**")

    resolve: dict[str, dict[str, list[float]]] = {v: {} for v in variants}
    ratios: dict[str, dict[str, list[float]]] = {v: {m: [] for m in modes} for v in variants}
    for round_ in range(args.rounds):
        for variant in _ordered(variants, round_):
            timed = _worker(roots[variant], corpus, "resolve", "rfc1808", "3")
            for name in ("resolve", "resolve+diagnose"):
                resolve[variant].setdefault(name, []).append(float(timed[name]))  # type: ignore[arg-type]
            for mode in modes:
                peers = [str(HERE / "bench_peers.py"), str(corpus), "--worker", f"baselinks-{mode}"]
                run = json.loads(_run(roots[variant], peers))
                ratios[variant][mode].append(run["seconds"] / run["floor_seconds"])
        print(f"# round {round_ + 1} of {args.rounds} done", file=sys.stderr)

    if args.rounds:
        print(f"\n## Wall clock: medians of {args.rounds} alternating rounds [range]\n")
        print(header)
    for name in ("resolve", "resolve+diagnose") if args.rounds else ():
        print(_row(f"{name}, rfc1808, ns a pair", {v: resolve[v][name] for v in variants}, ".0f"))
    for mode in modes if args.rounds else ():
        print(
            _row(f"extraction {mode}, x lxml parse", {v: ratios[v][mode] for v in variants}, ".2f")
        )

    if args.callgrind:
        print(
            f"\n## Instructions (callgrind): resolution of every pair, and iter_links over the "
            f"first {args.callgrind} pages\n"
        )
        print(header)
        for name, per_pair in _resolve_instructions(roots, corpus).items():
            print(_row(f"{name}, rfc1808, instructions a pair", per_pair, ",.0f"))
        pages = str(args.callgrind)
        for mode in modes:
            counts = {
                v: [
                    (
                        _instructions(roots[v], corpus, "count", mode, pages, "extract")
                        - _instructions(roots[v], corpus, "count", mode, pages, "dry")
                    )
                    / 1e6
                ]
                for v in variants
            }
            print(_row(f"extraction {mode}, million instructions", counts, ",.0f"))
    if not args.build_dir:
        shutil.rmtree(top, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
