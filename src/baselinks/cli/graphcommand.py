"""The ``graph`` and ``ranks`` commands: their grammar and wiring (graph/ does the work).

    baselinks graph PATH... -o DIR [--level page|host|domain] [--format tsv|parquet]
                    [--kind KIND] [-j N] [--keep-www] [--private-domains] [-q]
    baselinks ranks DIR [--top N] [--harmonic-limit N]

``graph`` reads its inputs as ``extract`` does (directories recursively, damage an error line
and the rest read) and ends with the extraction's summary line and the graph's (vertices,
edges, what was dropped and why) on stderr; exit status 1 when an input failed, the graph made
of the others all the same.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..errors import say

if TYPE_CHECKING:
    from pathlib import Path
    from typing import TextIO

# app.py's walk of the inputs (name, path, named, URL), given the error handler for a
# directory that cannot be listed; and its teller of failures (report.Teller)
Walk = Callable[..., Iterator[tuple[str, "Path | str | None", bool, Any]]]

__all__ = ["add_graph", "graph_command", "ranks_command"]


def add_graph(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..api import KINDS
    from ..graph.files import FORMATS
    from ..graph.names import LEVELS

    graph = commands.add_parser(
        "graph",
        help="build the link graph of documents and archives: page, host or domain level",
        description="Build a link graph from every document of the inputs (all that extract "
        "reads, WARC and WACZ included): vertices named by SURT key (page), reversed host "
        "(host) or reversed registered domain (domain), IDs 0..n-1 in name order; each edge "
        "once, from a document to each target named in it; a document without links still a "
        "vertex; links that name no valid vertex dropped and counted.",
    )
    graph.add_argument("paths", metavar="PATH", nargs="+", help="files or directories")
    graph.add_argument(
        "-o", "--output-dir", required=True, metavar="DIR", dest="directory",
        help="the folder to write vertices and edges in (made if missing)",
    )  # fmt: skip
    graph.add_argument("--level", choices=LEVELS, default="host", help="default: host")
    graph.add_argument(
        "--format",
        choices=FORMATS,
        default="tsv",
        help="tsv (default: vertices.tsv id<TAB>name, edges.tsv src<TAB>dst, no header) or "
        "parquet (with the parquet extra)",
    )
    graph.add_argument(
        "--kind", action="append", choices=KINDS, dest="kinds",
        help="only links of this kind (repeatable; default: all)",
    )  # fmt: skip
    graph.add_argument(
        "--keep-www", action="store_true",
        help="keep a leading www. in host names (Common Crawl strips it: the default)",
    )  # fmt: skip
    graph.add_argument(
        "--private-domains", action="store_true",
        help="domain level: the Public Suffix List's private section too (a.blogspot.com)",
    )  # fmt: skip
    graph.add_argument("-j", "--jobs", type=_jobs, default=1, metavar="N", help="processes")
    graph.add_argument("-q", "--quiet", action="store_true", help="no summary lines")
    ranks = commands.add_parser(
        "ranks",
        help="PageRank and harmonic centrality of a graph's vertices (the ranks extra)",
        description="Rank the vertices of a graph baselinks graph wrote: harmonic centrality "
        "and PageRank by igraph, written to DIR/ranks.tsv, the top ones printed.",
    )
    ranks.add_argument("directory", metavar="DIR", help="the graph's folder")
    ranks.add_argument("--top", type=_jobs, default=10, metavar="N", help="rows shown (10)")
    ranks.add_argument(
        "--harmonic-limit", type=_jobs, default=None, metavar="N",
        help="no harmonic centrality above N vertices (default 100,000: it costs O(n·m))",
    )  # fmt: skip


def _jobs(value: str) -> int:
    number = int(value) if value.isdigit() else -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"expected a number (0 or more): {value!r}")
    return number


def graph_command(args: argparse.Namespace, out: TextIO, walk: Walk, teller: Any) -> int:
    """``baselinks graph``: ``walk`` and ``teller`` are the extract command's (app.py)."""
    from ..graph.build import graph_of
    from ..run.batch import Summary

    _error = say
    if args.format == "parquet":
        from ..write.parquet import available

        if not available():
            _error("--format parquet needs pyarrow: pip install 'baselinks[parquet]'")
            return 2
    summary = Summary()
    tell = teller(out, summary, _error, args.quiet)
    inputs = ((path, name, named) for name, path, named, _ in walk(args.paths, tell.unlisted))
    made = graph_of(
        inputs,  # type: ignore[arg-type]  # a path, never stdin: PATH is required
        args.directory,
        level=args.level,
        form=args.format,
        kinds=args.kinds,
        workers=args.jobs,
        keep_www=args.keep_www,
        private_domains=args.private_domains,
        on_error=tell.failed,
        unreadable=tell.unreadable,
        summary=summary,
    )
    if not args.quiet:
        _error(summary.line())
        _error(made.line())
    return 1 if summary.failed else 0


def ranks_command(args: argparse.Namespace, out: TextIO) -> int:
    from ..graph.ranks import HARMONIC_LIMIT, available, compute_ranks

    _error = say
    if not available():
        _error("ranks need igraph: pip install 'baselinks[ranks]'")
        return 2
    limit = HARMONIC_LIMIT if args.harmonic_limit is None else args.harmonic_limit
    try:
        ranks = compute_ranks(args.directory, harmonic_limit=limit)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        _error(f"{args.directory}: {reason}")
        return 1
    out.write(ranks.table(args.top))
    if not ranks.harmonic:
        _error(f"harmonic centrality left out: over {limit:,} vertices (--harmonic-limit)")
    return 0
