"""The ``graph`` and ``ranks`` commands: their grammar and wiring (graph/ does the work).

    baselinks graph PATH... -o DIR [--level page|host|domain] [--format tsv|parquet]
                    [--layout baselinks|common-crawl --name NAME] [--www keep|strip]
                    [--weights] [--kind KIND] [--scheme S,T] [--same-host | --external]
                    [--url URL | --root-url URL] [--private-domains]
                    [--multipart-suffixes] [--resume] [-j N] [-q]
    baselinks ranks DIR [--layout baselinks|common-crawl] [--name NAME] [--top N]
                    [--harmonic-limit N]

``graph`` reads its inputs as ``extract`` does (directories recursively, damage an error line
and the rest read; extract's own JSON Lines or Parquet too) and ends with the extraction's
summary line and the graph's (vertices, edges, what was dropped and why) on stderr; exit status
1 when an input failed, the graph made of the others all the same, or when the folder cannot be
written (one line: a file, a device, another run writing in it).
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
    from ..graph.names import LEVELS

    graph = commands.add_parser(
        "graph",
        help="build the link graph of documents and archives: page, host or domain level",
        description="Build a link graph from every document of the inputs (all that extract "
        "reads, WARC and WACZ included, and extract's own JSON Lines or Parquet): vertices "
        "named by SURT key (page), reversed host (host) or reversed registered domain "
        "(domain), IDs 0..n-1 in name order; each edge once, from a document to each target "
        "named in it; a document without links still a vertex; links that name no vertex "
        "(no web host, an IP address, one label) dropped and counted.",
    )
    graph.add_argument("paths", metavar="PATH", nargs="+", help="files or directories")
    graph.add_argument(
        "-o", "--output-dir", required=True, metavar="DIR", dest="directory",
        help="the folder to write the graph in (made if missing)",
    )  # fmt: skip
    graph.add_argument("--level", choices=LEVELS, default="host", help="default: host")
    _add_layout(graph)
    _add_filters(graph)
    graph.add_argument(
        "--url", metavar="URL",
        help="the retrieval URL of inputs that have none of their own (a saved page)",
    )  # fmt: skip
    graph.add_argument(
        "--root-url", metavar="URL",
        help="the URL of each directory given: a mirrored site (wget -m), its files' URLs "
        "made from their paths",
    )  # fmt: skip
    graph.add_argument(
        "--resume", action="store_true",
        help="checkpoint in DIR as the run goes; the same command started again after an "
        "interruption goes on after the last input checkpointed (the same files in the end)",
    )  # fmt: skip
    graph.add_argument("-j", "--jobs", type=_number, default=1, metavar="N", help="processes")
    graph.add_argument("-q", "--quiet", action="store_true", help="no summary lines")
    _add_ranks(commands)


def _add_layout(graph: argparse.ArgumentParser) -> None:
    from ..graph.files import FORMATS, LAYOUTS

    graph.add_argument(
        "--format",
        choices=FORMATS,
        default="tsv",
        help="tsv (default: vertices.tsv id<TAB>name, edges.tsv src<TAB>dst, no header) or "
        "parquet (with the parquet extra)",
    )
    graph.add_argument(
        "--layout", choices=LAYOUTS, default="baselinks",
        help="common-crawl: NAME-vertices.txt.gz and NAME-edges.txt.gz as Common Crawl "
        "releases its web graphs (the domain graph's vertices with n_hosts)",
    )  # fmt: skip
    graph.add_argument(
        "--name",
        metavar="NAME",
        help="--layout common-crawl: the files' prefix (default: DIR's name)",
    )
    graph.add_argument(
        "--www", choices=("keep", "strip"), default="keep",
        help="a host's leading www.: kept (default, as Common Crawl's graphs since 2026) or "
        "stripped (as its graphs until 2025)",
    )  # fmt: skip
    graph.add_argument("--keep-www", action="store_true", help=argparse.SUPPRESS)  # 0.2's
    graph.add_argument(
        "--weights", action="store_true",
        help="each edge with two more columns: how many links and how many pages join the pair",
    )  # fmt: skip
    graph.add_argument(
        "--private-domains", action="store_true",
        help="domain level: the Public Suffix List's private section too (a.blogspot.com)",
    )  # fmt: skip
    graph.add_argument(
        "--multipart-suffixes", action="store_true",
        help="domain level: a host that is a public suffix of two labels or more (gov.uk) "
        "its own domain, as cc-webgraph's --multipart-suffixes-as-domains",
    )  # fmt: skip


def _add_filters(graph: argparse.ArgumentParser) -> None:
    """extract's link filters, the same grammar (run/options.add_filters) and meaning."""
    from ..api import KINDS
    from ..run.options import _schemes

    graph.add_argument(
        "--kind", action="append", choices=KINDS, dest="kinds",
        help="only links of this kind (repeatable; default: all)",
    )  # fmt: skip
    graph.add_argument(
        "--scheme", type=_schemes, dest="schemes", metavar="S,T",
        help="only links whose resolved URL has one of these schemes, each naming its host "
        "(default: the links Common Crawl's graph takes: http, https, ftp..., no app: links)",
    )  # fmt: skip
    hosts = graph.add_mutually_exclusive_group()
    hosts.add_argument(
        "--same-host", action="store_true", help="only links to the document's own host"
    )
    hosts.add_argument(
        "--external", action="store_true", help="only links to another host than the document's"
    )


def _add_ranks(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..graph.files import LAYOUTS

    ranks = commands.add_parser(
        "ranks",
        help="PageRank and harmonic centrality of a graph's vertices (the ranks extra)",
        description="Rank the vertices of a graph baselinks graph wrote: harmonic centrality "
        "and PageRank by igraph, written to DIR/ranks.tsv (or, --layout common-crawl, "
        "DIR/NAME-ranks.txt.gz as Common Crawl releases them), the top ones printed.",
    )
    ranks.add_argument("directory", metavar="DIR", help="the graph's folder")
    ranks.add_argument(
        "--layout", choices=LAYOUTS, default=None,
        help="the graph's layout (default: the one found in DIR)",
    )  # fmt: skip
    ranks.add_argument("--name", metavar="NAME", help="common-crawl: the graph's name")
    ranks.add_argument("--top", type=_number, default=10, metavar="N", help="rows shown (10)")
    ranks.add_argument(
        "--harmonic-limit", type=_number, default=None, metavar="N",
        help="no harmonic centrality above N vertices (default 100,000: it costs O(n·m))",
    )  # fmt: skip


def _number(value: str) -> int:
    number = int(value) if value.isdigit() else -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"expected a number (0 or more): {value!r}")
    return number


def _options(args: argparse.Namespace) -> Any:
    import os

    from ..graph.build import GraphOptions

    form = "common-crawl" if args.layout == "common-crawl" else args.format
    name = args.name
    if form == "common-crawl" and name is None:
        name = os.path.basename(os.path.normpath(args.directory))
    return GraphOptions(
        level=args.level, form=form, name=name, weights=args.weights,
        keep_www=args.www == "keep" or args.keep_www, private_domains=args.private_domains,
        multipart=args.multipart_suffixes, kinds=args.kinds, schemes=args.schemes,
        same_host=args.same_host, external=args.external, url=args.url,
    ).checked()  # fmt: skip


def graph_command(args: argparse.Namespace, out: TextIO, walk: Walk, teller: Any) -> int:
    """``baselinks graph``: ``walk`` and ``teller`` are the extract command's (app.py)."""
    from ..graph.build import graph_of
    from ..graph.folder import FolderError
    from ..run.batch import Summary

    _error = say
    if args.format == "parquet" and args.layout != "common-crawl":
        from ..write.parquet import available

        if not available():
            _error("--format parquet needs pyarrow: pip install 'baselinks[parquet]'")
            return 2
    try:
        options = _options(args)
        root_url = _root_url(args)
    except ValueError as exc:
        _error(f"graph: {exc}")
        return 2
    summary = Summary()
    tell = teller(out, summary, _error, args.quiet)
    walked = walk(args.paths, tell.unlisted, root_url)
    inputs = ((path, name, named, url) for name, path, named, url in walked)
    try:
        made = graph_of(
            inputs,  # type: ignore[arg-type]  # a path, never stdin: PATH is required
            args.directory,
            options,
            workers=args.jobs,
            resume=args.resume,
            on_error=tell.failed,
            unreadable=tell.unreadable,
            summary=summary,
        )
    except FolderError as exc:
        _error(str(exc))
        return 1
    if not args.quiet:
        if made.resumed:  # as extract --resume says it
            _error(f"--resume: going on after input {made.resumed:,} ({made.resumed_after})")
        _error(summary.line())
        _error(made.line())
    return 1 if summary.failed else 0


def _root_url(args: argparse.Namespace) -> str | None:
    if args.root_url is None:
        return None
    if args.url is not None:
        raise ValueError("--url and --root-url exclude each other: --url gives the URL itself")
    from ..base.mirror import root_url

    checked: str = root_url(args.root_url)
    return checked


def ranks_command(args: argparse.Namespace, out: TextIO) -> int:
    from ..graph.folder import FolderError
    from ..graph.ranks import HARMONIC_LIMIT, GraphError, available, compute_ranks

    _error = say
    if not available():
        _error("ranks need igraph: pip install 'baselinks[ranks]'")
        return 2
    limit = HARMONIC_LIMIT if args.harmonic_limit is None else args.harmonic_limit
    try:
        ranks = compute_ranks(
            args.directory, harmonic_limit=limit, layout=args.layout, name=args.name
        )
    except (GraphError, FolderError) as exc:
        _error(str(exc))
        return 1
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        _error(f"{args.directory}: {reason}")
        return 1
    out.write(ranks.table(args.top))
    if not ranks.harmonic:
        _error(f"harmonic centrality left out: over {limit:,} vertices (--harmonic-limit)")
    return 0
