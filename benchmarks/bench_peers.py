"""Speed and memory of link extraction: baselinks against its peers, each in its own process.

    python benchmarks/bench_peers.py CORPUS [--rounds 5] [--tools a,b,...] [--json FILE]
                                            [--profile] [--write-docs]

CORPUS is a directory. With an ``index.tsv`` (kind, relpath, retrieval_url, url_source; as in
``../shared/corpus``) its ``html`` rows are read, each with its retrieval URL; otherwise every
``*.html``/``*.htm`` file under it, each with its ``file:`` URL. Every tool gets the same
(bytes, url) pairs, loaded into memory before any clock starts.

Each tool runs in a fresh interpreter (``--worker``): it loads the documents, warms up on the
first ten (imports, caches), and runs once over all of them, between two timings of the bare
lxml parse over the same documents; it reports its time, that parse's mean time, the links it
found, and its peak RSS above the RSS it had once the documents were loaded. A round runs every
tool once; ``--rounds`` rounds are run. The machine is shared and its speed drifts within
minutes (the same parse took 0.45 s, then 0.77 s), so each time is divided by the parse timed
around it in the same process: the median of those multiples is the figure that counts. The
table also gives the median time, pages/s and links/s.

Tools (a peer that is not installed is reported as such; ``pip install -e ".[bench]"``):

    lxml-parse         lxml.etree.fromstring(bytes, HTMLParser()): the parse alone
    selectolax-parse   selectolax.lexbor.LexborHTMLParser(bytes): lexbor's parse alone (what a
                       faster parser would give)
    html5-parse        baselinks' HTML5 parser alone (load/html5.py parse_only: lexbor with its
                       line hook and limits, one pass over the nodes; no lxml tree)
    html5-tree         the same, its tree copied into lxml's (load/html5.py tree)
    baselinks-MODE     iter_links(bytes, url=url, mode=MODE): every link source, full records;
                       on the compiled path where it is built (BASELINKS_PURE unset), with the
                       default parser (html5 where it is built)
    baselinks-rfc1808-pure
                       the same in rfc1808 mode with BASELINKS_PURE=1 in the tool's
                       environment: the pure-Python path
    baselinks-rfc1808-lxml, baselinks-rfc1808-lxml-pure
                       the two above with parser="lxml" (libxml2's tree)
    baselinks-jsonl    the same in rfc1808 mode, each document's links written as JSON Lines
                       (write.utf8_render("jsonl"): UTF-8 bytes, as the command line writes them)
    lxml-iterlinks     lxml.html.document_fromstring, first <base href>, urljoin each iterlinks()
    lxml-absolute      document_fromstring, make_links_absolute(url), then iterlinks()
    scrapy             Scrapy's LinkExtractor over every tag and attribute baselinks knows,
                       deny_extensions=[], unique=False
    selectolax         selectolax (lexbor) [href], [src]; first <base href>; urljoin
    selectolax-ada     the same with ada_url.join_url instead of urljoin

``--profile`` adds a table of where baselinks' time goes, stage by stage, in units of the lxml
parse timed in the same process (median of the rounds), for the default path and for
BASELINKS_PURE=1: the library's functions called one stage at a time over all the documents
(load: decoding and the parse; base; walk; resolve and diagnose of each document's distinct
references; the records; JSON Lines), and what ``iter_links`` spends beyond their sum
(containers, batch, counting).

``--write-docs`` puts the tables (and the date, the machine, the rounds) in the guide's speed
section and in docs/benchmarks.md, between their ``<!-- bench_peers:NAME -->`` markers: the
one command that regenerates them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from common import Docs, load_corpus, lxml_parse

# --- the tools: each takes the documents and returns how many links it found ---------------


def baselinks_mode(mode: str, parser: str | None = None) -> Callable[[Docs], int]:
    def run(docs: Docs) -> int:
        from baselinks import iter_links

        errors: list[object] = []
        count = 0
        for data, url in docs:
            for _ in iter_links(data, url=url, mode=mode, on_error=errors.append, parser=parser):
                count += 1
        return count

    return run


def html5_parse(docs: Docs) -> int:
    from baselinks.load.html5 import parse_only

    for data, _ in docs:
        parse_only(data)
    return 0


def html5_tree(docs: Docs) -> int:
    from baselinks.load.html5 import tree

    for data, _ in docs:
        tree(data)
    return 0


def baselinks_jsonl(docs: Docs) -> int:
    from baselinks import iter_links
    from baselinks.write.formats import utf8_render

    # what the command line writes to a UTF-8 output: bytes from the compiled writer (a str
    # where it leaves a document to Python); the discarding stream takes either
    render = utf8_render("jsonl")
    errors: list[object] = []
    out: list[int] = []
    count = 0
    for data, url in docs:  # one document's links at a time, as the command line renders them
        links = list(iter_links(data, url=url, on_error=errors.append))
        out.append(len(render(links)))
        count += len(links)
    return count


def selectolax_parse(docs: Docs) -> int:
    from selectolax.lexbor import LexborHTMLParser

    for data, _ in docs:
        LexborHTMLParser(data)
    return 0


def _first_base(url: str | None, hrefs: list[str]) -> str:
    base = url or ""
    for href in hrefs:
        try:
            return urllib.parse.urljoin(base, href.strip())
        except ValueError:
            return base
    return base


def lxml_iterlinks(docs: Docs) -> int:
    import lxml.html

    count = 0
    for data, url in docs:
        try:
            tree = lxml.html.document_fromstring(data)
        except Exception:
            continue
        base = _first_base(url, [e.get("href") for e in tree.iter("base") if e.get("href")])
        for _, _, link, _ in tree.iterlinks():
            try:  # noqa: SIM105 (contextlib.suppress: a context manager per link, in a timed loop)
                urllib.parse.urljoin(base, link.strip())
            except ValueError:
                pass
            count += 1
    return count


def lxml_absolute(docs: Docs) -> int:
    import lxml.html

    count = 0
    for data, url in docs:
        try:
            tree = lxml.html.document_fromstring(data)
            tree.make_links_absolute(url or "", handle_failures="ignore")
        except Exception:
            continue
        count += sum(1 for _ in tree.iterlinks())
    return count


def scrapy(docs: Docs) -> int:
    from scrapy.http import HtmlResponse
    from scrapy.linkextractors import LinkExtractor

    from baselinks.find.linktable import LINK_SOURCES

    tags = sorted({t for s in LINK_SOURCES if s.tags for t in s.tags})
    attrs = sorted({s.attr for s in LINK_SOURCES if s.syntax != "css-text"})  # not <style> text
    extractor = LinkExtractor(tags=tags, attrs=attrs, deny_extensions=[], unique=False)
    count = 0
    for data, url in docs:
        response = HtmlResponse(url=url or "http://unknown.invalid/", body=data)
        try:
            count += len(extractor.extract_links(response))
        except Exception:
            continue
    return count


def selectolax_with(join: Callable[[str, str], str]) -> Callable[[Docs], int]:
    def run(docs: Docs) -> int:
        from selectolax.lexbor import LexborHTMLParser

        count = 0
        for data, url in docs:
            tree = LexborHTMLParser(data)
            base_hrefs = [n.attributes.get("href") or "" for n in tree.css("base[href]")]
            base = _first_base(url, base_hrefs[:1])
            for node in tree.css("[href], [src]"):
                attrs = node.attributes
                for name in ("href", "src"):
                    value = attrs.get(name)
                    if value is not None:
                        try:  # noqa: SIM105 (as above)
                            join(base, value.strip())
                        except ValueError:
                            pass
                        count += 1
        return count

    return run


def _ada_join(base: str, ref: str) -> str:
    import ada_url

    return str(ada_url.join_url(base, ref))


TOOLS: dict[str, Callable[[Docs], int]] = {
    "lxml-parse": lxml_parse,
    "selectolax-parse": selectolax_parse,
    "html5-parse": html5_parse,
    "html5-tree": html5_tree,
    "baselinks-rfc1808": baselinks_mode("rfc1808"),
    "baselinks-rfc1808-pure": baselinks_mode("rfc1808"),  # BASELINKS_PURE=1: see _environment
    "baselinks-rfc1808-lxml": baselinks_mode("rfc1808", "lxml"),
    "baselinks-rfc1808-lxml-pure": baselinks_mode("rfc1808", "lxml"),
    "baselinks-rfc3986": baselinks_mode("rfc3986"),
    "baselinks-whatwg": baselinks_mode("whatwg"),
    "baselinks-jsonl": baselinks_jsonl,
    "lxml-iterlinks": lxml_iterlinks,
    "lxml-absolute": lxml_absolute,
    "scrapy": scrapy,
    "selectolax": selectolax_with(urllib.parse.urljoin),
    "selectolax-ada": selectolax_with(_ada_join),
}


def _rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _timed(run: Callable[[Docs], int], docs: Docs) -> tuple[float, int]:
    start = time.perf_counter()
    links = run(docs)
    return time.perf_counter() - start, links


def worker(tool: str, corpus: Path) -> dict[str, object]:
    docs = load_corpus(corpus)
    loaded = _rss_kib()
    run = TOOLS[tool]
    try:
        run(docs[:10])  # warm-up: lazy imports, first-use caches
    except ImportError as exc:
        return {"tool": tool, "missing": str(exc)}
    floor = _timed(lxml_parse, docs)[0]
    seconds, links = _timed(run, docs)
    floor = (floor + _timed(lxml_parse, docs)[0]) / 2
    # The parses around the run hold one tree at a time, as every tool here does at least:
    # the peak is the tool's.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return {
        "tool": tool,
        "seconds": seconds,
        "floor_seconds": floor,
        "links": links,
        "pages": len(docs),
        "bytes": sum(len(d) for d, _ in docs),
        "peak_rss_mb": peak / 1024,
        "extra_rss_mb": max(0, peak - loaded) / 1024,
    }


def _machine() -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    from lxml import etree

    return {
        "load": f"{os.getloadavg()[0]:.1f}",  # the 1-minute load average when the run starts
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "cpu": f"{cpu}, {os.cpu_count()} cores",
        "python": platform.python_version(),
        "lxml": ".".join(map(str, etree.LXML_VERSION[:3])),
        "libxml2": ".".join(map(str, etree.LIBXML_VERSION)),
    }


FLOOR = "lxml-parse"


def summarise(rounds: list[dict[str, dict[str, object]]]) -> list[dict[str, object]]:
    """Per tool: median seconds, median multiple of the same round's floor, links, memory."""
    rows = []
    for tool in rounds[0]:
        runs = [r[tool] for r in rounds if tool in r]
        if "missing" in runs[0]:
            rows.append({"tool": tool, "missing": runs[0]["missing"]})
            continue
        seconds = [float(run["seconds"]) for run in runs]  # type: ignore[arg-type]
        ratios = [float(run["seconds"]) / float(run["floor_seconds"]) for run in runs]  # type: ignore[arg-type]
        rows.append(
            {
                "tool": tool,
                "seconds": statistics.median(seconds),
                "ratio": statistics.median(ratios) if ratios else None,
                "ratios": ratios,
                "links": runs[-1]["links"],
                "pages": runs[-1]["pages"],
                "peak_rss_mb": max(float(run["peak_rss_mb"]) for run in runs),  # type: ignore[arg-type]
                "extra_rss_mb": max(float(run["extra_rss_mb"]) for run in runs),  # type: ignore[arg-type]
            }
        )
    return rows


def table(rows: list[dict[str, object]]) -> str:
    lines = [
        "| tool | x lxml parse | median s | pages/s | links/s | links "
        "| peak RSS MB (+ above loaded) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        if "missing" in row:
            lines.append(f"| {row['tool']} | not installed: {row['missing']} | | | | | |")
            continue
        seconds = float(row["seconds"])  # type: ignore[arg-type]
        links = int(row["links"])  # type: ignore[call-overload]
        pages = int(row["pages"])  # type: ignore[call-overload]
        ratio = "-" if row["ratio"] is None else f"{row['ratio']:.2f}"
        lines.append(
            f"| {row['tool']} | {ratio} | {seconds:.2f} | {pages / seconds:,.0f} | "
            f"{links / seconds:,.0f} | {links:,} | {row['peak_rss_mb']:.0f} "
            f"(+{row['extra_rss_mb']:.0f}) |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--rounds", type=int, default=5, help="rounds of every tool (median)")
    parser.add_argument("--tools", default=",".join(TOOLS), help="comma-separated tool names")
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    parser.add_argument(
        "--profile", action="store_true", help="also where baselinks' time goes (bench_stages.py)"
    )
    parser.add_argument(
        "--write-docs",
        action="store_true",
        help="put the tables in docs/guide/speed.md and docs/benchmarks.md (between markers)",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        print(json.dumps(worker(args.worker, args.corpus)))
        return 0
    tools = [t for t in args.tools.split(",") if t]
    unknown = [t for t in tools if t not in TOOLS]
    if unknown:
        parser.error(f"unknown tool(s) {unknown}; known: {', '.join(TOOLS)}")
    if FLOOR not in tools:
        tools.insert(0, FLOOR)  # its own row: the check that the multiples are ~1.00 for it
    docs = load_corpus(args.corpus)
    machine = _machine()
    print(
        f"{len(docs)} documents, {sum(len(d) for d, _ in docs) / 1e6:.1f} MB; "
        f"{args.rounds} rounds; {machine['date']}; {machine['cpu']}; Python "
        f"{machine['python']}, lxml {machine['lxml']}, libxml2 {machine['libxml2']}",
        file=sys.stderr,
    )
    del docs
    rounds: list[dict[str, dict[str, object]]] = []
    for number in range(1, args.rounds + 1):
        results: dict[str, dict[str, object]] = {}
        for tool in tools:
            command = [sys.executable, __file__, str(args.corpus), "--worker", tool]
            done = subprocess.run(
                command, capture_output=True, text=True, check=False, env=_environment(tool)
            )
            if done.returncode != 0:
                print(f"{tool}: failed\n{done.stderr}", file=sys.stderr)
                continue
            results[tool] = json.loads(done.stdout)
        rounds.append(results)
        print(
            f"round {number}: "
            + ", ".join(
                f"{tool} {float(r['seconds']) / float(r['floor_seconds']):.2f}"  # type: ignore[arg-type]
                for tool, r in results.items()
                if "seconds" in r
            ),
            file=sys.stderr,
        )
    machine["load"] += f" to {os.getloadavg()[0]:.1f}"  # at the start, and at the end
    rows = summarise(rounds)
    print(table(rows))
    profile = None
    if args.profile:
        from bench_stages import measure
        from bench_stages import table as stage_table

        profile = stage_table(
            {
                path: measure(args.corpus, args.rounds, _environment(tool))
                for path, tool in (("default", "baselinks"), ("BASELINKS_PURE=1", "-pure"))
            }
        )
        print(profile)
    if args.json:
        args.json.write_text(
            json.dumps({"machine": machine, "rounds": rounds, "summary": rows}, indent=1)
        )
    if args.write_docs:
        from bench_docs import write_docs

        write_docs(machine, args.rounds, rows, profile)
    return 0


def _environment(tool: str) -> dict[str, str]:
    """The tool's environment: BASELINKS_PURE=1 for a ``-pure`` row (the compiled modules
    disabled), unset for the others, whatever the caller's."""
    env = {key: value for key, value in os.environ.items() if key != "BASELINKS_PURE"}
    if tool.endswith("-pure"):
        env["BASELINKS_PURE"] = "1"
    return env


if __name__ == "__main__":
    sys.exit(main())
