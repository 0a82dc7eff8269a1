"""Resolution throughput on real (base, reference) pairs: baselinks against urljoin and ada-url.

    python benchmarks/bench_resolve.py CORPUS_DIR [--repeat 5] [--min-pairs 100000]
    python benchmarks/bench_resolve.py CORPUS_DIR --against OLD_RESOLVE.py [...] [--repeat 15]

CORPUS_DIR holds ``index.tsv`` (kind, relpath, retrieval_url, ...) and the HTML pages it lists.
Pairs are collected from every ``href``/``src``/``action``/... attribute of every page, each
against that page's base (its first ``<base href>`` resolved against the retrieval URL, else the
retrieval URL). Pages are taken in index order and repeated until ``--min-pairs`` is reached.

Each contender runs over all pairs ``--repeat`` times; the median is reported. The machine is
shared and noisy: read the ratios to urljoin, not the absolute times.

``--against`` compares versions of ``resolve.py`` (``git show REV:src/baselinks/resolve.py >
old.py``) with this checkout's, rfc1808 mode, one Resolver per page: all loaded in one process,
their runs interleaved (the order reversed every other round), so that the machine's noise falls
on each alike; it prints the median and range in ns a pair.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import importlib.util
import platform
import statistics
import sys
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import ada_url
import lxml.html

import baselinks
from baselinks import Resolver

LINK_ATTRS = ("href", "src", "action", "poster", "data", "cite", "formaction", "background")


def collect(corpus: Path) -> list[tuple[str, list[str]]]:
    """One (base, [references]) entry per page."""
    pages = []
    with open(corpus / "index.tsv", encoding="utf-8") as index:
        for row in csv.DictReader(index, delimiter="\t"):
            if row["kind"] != "html":
                continue
            url = row["retrieval_url"] if row["url_source"] != "none" else ""
            tree = lxml.html.fromstring((corpus / row["relpath"]).read_bytes())
            base = url
            for element in tree.iter("base"):
                href = element.get("href")
                if href is not None:
                    base = urllib.parse.urljoin(url, href.strip())
                    break
            refs = [
                value.strip()
                for element in tree.iter()
                for attr in LINK_ATTRS
                if (value := element.get(attr)) is not None
            ]
            pages.append((base, refs))
    return pages


def timed(run: Callable[[], int], repeat: int) -> tuple[float, int]:
    times, count = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        count = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), count


def _variant(name: str, path: Path) -> ModuleType:
    """``path`` (a resolve.py) loaded as a module of the installed package, under ``name``."""
    spec = importlib.util.spec_from_file_location(f"baselinks._bench_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "baselinks"  # its relative imports: this checkout's url, rfc3986, ...
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def against(work: list[tuple[str, list[str]]], paths: list[Path], repeat: int) -> None:
    variants = {"this": _variant("this", Path(baselinks.__file__).parent / "resolve.py")}
    variants |= {f"{i}:{path.name}": _variant(f"v{i}", path) for i, path in enumerate(paths, 1)}
    count = sum(len(refs) for _, refs in work)
    times: dict[str, list[float]] = {name: [] for name in variants}
    for round_ in range(repeat):
        order = list(variants.items())
        for name, module in order if round_ % 2 == 0 else reversed(order):
            start = time.perf_counter()
            for base, refs in work:
                resolve = module.Resolver(base, "rfc1808").resolve
                for ref in refs:
                    resolve(ref)
            times[name].append(time.perf_counter() - start)
    print(f"# {count} pairs, rfc1808, one Resolver per page, {repeat} interleaved runs")
    for name, runs in times.items():
        low, mid, high = (t / count * 1e9 for t in (min(runs), statistics.median(runs), max(runs)))
        print(f"{name:<24} median {mid:6.0f} ns a pair  (range {low:.0f}-{high:.0f})")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--min-pairs", type=int, default=100_000)
    parser.add_argument("--against", type=Path, nargs="+", metavar="RESOLVE_PY")
    args = parser.parse_args()

    pages = collect(args.corpus)
    distinct = sum(len(refs) for _, refs in pages)
    work = list(pages)
    while sum(len(refs) for _, refs in work) < args.min_pairs:
        work += pages
    pairs = [(base, ref) for base, refs in work for ref in refs]
    if args.against:
        against(work, args.against, args.repeat)
        return 0

    def per_pair(fn: Callable[[str, str], object]) -> Callable[[], int]:
        def run() -> int:
            for base, ref in pairs:
                fn(base, ref)
            return len(pairs)

        return run

    def ada(base: str, ref: str) -> object:
        try:
            return ada_url.join_url(base, ref)
        except ValueError:
            return None

    def per_document(mode: str) -> Callable[[], int]:
        def run() -> int:
            for base, refs in work:
                resolve = Resolver(base, mode).resolve
                for ref in refs:
                    with contextlib.suppress(baselinks.URLError):
                        resolve(ref)
            return len(pairs)

        return run

    contenders: dict[str, Callable[[], int]] = {
        "urllib.parse.urljoin": per_pair(urllib.parse.urljoin),
        "ada_url.join_url": per_pair(ada),
        "baselinks.resolve rfc1808": per_pair(baselinks.resolve),
        "Resolver(base) rfc1808": per_document("rfc1808"),
        "Resolver(base) rfc3986": per_document("rfc3986"),
        "Resolver(base) whatwg": per_document("whatwg"),
    }
    print(
        f"# {len(pages)} pages, {distinct} distinct-page pairs, {len(pairs)} pairs timed, "
        f"median of {args.repeat}; Python {platform.python_version()}, {platform.machine()}"
    )
    results = {name: timed(run, args.repeat) for name, run in contenders.items()}
    reference = results["urllib.parse.urljoin"][0]
    print(f"{'contender':<28} {'seconds':>8} {'pairs/s':>12} {'vs urljoin':>10}")
    for name, (seconds, count) in results.items():
        print(f"{name:<28} {seconds:>8.3f} {count / seconds:>12,.0f} {reference / seconds:>9.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
