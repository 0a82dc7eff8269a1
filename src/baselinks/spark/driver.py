"""The job ``spark-submit`` runs (``python -m baselinks.spark``): cc-pyspark's options, the
CLI's filters, the links or the graph as Parquet, the counters as JSON beside them."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

try:
    from pyspark.sql import DataFrame, SparkSession
except ImportError as exc:  # an optional dependency: say how to get it
    raise ImportError(
        f"baselinks.spark needs pyspark: pip install 'baselinks[spark]' ({exc})"
    ) from exc

from baselinks import MODES
from baselinks.dataflow import local_path
from baselinks.errors import describe, printable
from baselinks.graph.build import GraphOptions
from baselinks.graph.files import LAYOUTS
from baselinks.graph.names import LEVELS
from baselinks.run.options import add_filters
from baselinks.spark.graph import build_graph, write_layout
from baselinks.spark.links import Counters, extract_links
from baselinks.spark.wat import write_wats


def _paths(given: list[str], manifest: str | None) -> list[str]:
    paths = list(given)
    if manifest:
        with open(manifest, encoding="utf-8") as lines:
            paths += [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    return paths


# cc-pyspark's options (its spellings with "_" too): --log_level, --num_output_partitions,
# --output_compression. Spark's Parquet codecs that need no native library of Hadoop's.
LOG_LEVELS = ("ALL", "DEBUG", "INFO", "WARN", "ERROR", "FATAL", "OFF")
COMPRESSIONS = ("none", "snappy", "gzip", "zstd", "lz4")
COUNTERS_FILE = "_baselinks.json"  # in the output folder: Spark and pyarrow skip "_" names


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="baselinks.spark",
        description="Every link of many WARC files, one Spark task per file, into Parquet.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="WARC files (path or URL)")
    parser.add_argument("--manifest", help="a file of paths, one per line ('#' comments)")
    parser.add_argument("--output", "-o", required=True, help="the Parquet directory to write")
    parser.add_argument("--mode", default="rfc1808", choices=MODES)
    add_filters(parser, "the Parquet columns, by field name")  # baselinks extract's filters
    parser.add_argument(
        "--parser", choices=("html5", "lxml"), help="html5 (the default where built) or lxml"
    )
    parser.add_argument(
        "--graph",
        choices=LEVELS,
        metavar="LEVEL",
        help="write the link graph at this level (page, host, domain) instead of the links: "
        "OUTPUT/vertices.parquet (id, name) and OUTPUT/edges.parquet (src, dst)",
    )
    parser.add_argument(
        "--wat",
        action="store_true",
        help="write a WAT file of each input instead of the links, as Common Crawl does: "
        "OUTPUT/X.warc.wat.gz for X.warc.gz (baselinks wat)",
    )
    parser.add_argument(
        "--additions", action="store_true", help="--wat: baselinks' additions (baselinks wat)"
    )
    _graph_options(parser)
    parser.add_argument(
        "--overwrite", action="store_true", help="replace an existing output (else: an error)"
    )
    parser.add_argument("--master", help="Spark master when not run by spark-submit (local[4])")
    parser.add_argument(
        "--log-level",
        "--log_level",
        type=str.upper,
        choices=LOG_LEVELS,
        help="Spark's log level (default WARN; a running session's is left as it is)",
    )
    parser.add_argument(
        "--num-output-partitions",
        "--num_output_partitions",
        type=int,
        metavar="N",
        help="write N files (coalesced; default: one per input file)",
    )
    parser.add_argument(
        "--output-compression",
        "--output_compression",
        default="snappy",
        type=str.lower,
        choices=COMPRESSIONS,
        help="the Parquet files' codec (default snappy)",
    )
    return parser


def _graph_options(parser: argparse.ArgumentParser) -> None:
    """--graph's options, as ``baselinks graph``'s (cli/graphcommand.py)."""
    parser.add_argument(
        "--layout", choices=LAYOUTS, default="baselinks",
        help="--graph: common-crawl writes OUTPUT/NAME-vertices.txt.gz and NAME-edges.txt.gz "
        "as Common Crawl releases its graphs (the driver writes them: a local OUTPUT)",
    )  # fmt: skip
    parser.add_argument("--name", help="--layout common-crawl: the files' prefix")
    parser.add_argument(
        "--www", choices=("keep", "strip"), default="keep", help="--graph: a host's www. (keep)"
    )
    parser.add_argument("--keep-www", action="store_true", help=argparse.SUPPRESS)  # 0.2's
    parser.add_argument(
        "--weights", action="store_true", help="--graph: how many links and pages per edge"
    )
    parser.add_argument(
        "--private-domains", action="store_true", help="--graph domain: the PSL's private section"
    )
    parser.add_argument(
        "--multipart-suffixes", action="store_true",
        help="--graph domain: a multi-part public suffix (gov.uk) its own domain",
    )  # fmt: skip


def _graph_of(args: argparse.Namespace) -> GraphOptions:
    form = "common-crawl" if args.layout == "common-crawl" else "parquet"
    name = args.name
    if form == "common-crawl" and name is None:
        name = os.path.basename(os.path.normpath(args.output))
    return GraphOptions(
        level=args.graph, form=form, name=name, weights=args.weights,
        keep_www=args.www == "keep" or args.keep_www, private_domains=args.private_domains,
        multipart=args.multipart_suffixes, kinds=None if args.kinds is None else tuple(args.kinds),
        schemes=args.schemes, same_host=args.same_host, external=args.external, mode=args.mode,
    ).checked()  # fmt: skip


def _exists(path: str) -> bool | None:
    """Whether the output exists; None when that cannot be known here (a remote path without
    fsspec and its driver: Spark's own check then says it, in one line too)."""
    local = local_path(path)
    if local is not None:
        return os.path.lexists(local)
    try:
        import fsspec

        filesystem, inner = fsspec.core.url_to_fs(path)
        return bool(filesystem.exists(inner))
    except Exception:  # no fsspec, no driver (s3fs...), no credentials: Spark will know
        return None


def _write_counters(output: str, record: dict[str, Any]) -> str | None:
    """The counters as JSON in the output folder; where, or None when it could not be."""
    target = f"{output.rstrip('/')}/{COUNTERS_FILE}"
    text = json.dumps(record, indent=2) + "\n"
    try:
        local = local_path(target)
        if local is not None:
            with open(local, "w", encoding="utf-8") as file:
                file.write(text)
        else:
            import fsspec

            with fsspec.open(target, "w", encoding="utf-8") as file:
                file.write(text)
    except Exception as exc:  # the links are written; the counters are said on stderr anyway
        print(
            f"baselinks: {printable(f'{target}: counters not written: {describe(exc)}')}",
            file=sys.stderr,
        )
        return None
    return target


def _session(args: argparse.Namespace) -> tuple[SparkSession, bool]:
    """A caller's running session (left running), or a new one: logging at ``--log-level``
    from its start, and no console progress bar (it would run into the summary)."""
    running = SparkSession.getActiveSession()
    if running is not None:
        if args.log_level is not None:  # else the caller's level stays
            running.sparkContext.setLogLevel(args.log_level)
        return running, False
    level = args.log_level or "WARN"
    builder: Any = (
        SparkSession.builder.appName("baselinks")
        .config("spark.log.level", level)
        .config("spark.ui.showConsoleProgress", "false")
    )
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel(level)  # a session spark-submit made has its own
    return spark, True


def main(argv: Sequence[str] | None = None) -> int:
    """``spark-submit baselinks/spark.py [PATH ...] [--manifest FILE] --output OUT.parquet``
    (or ``python -m baselinks.spark ... --master local[4]``), with cc-pyspark's options. Exit
    status 1 if a file failed; 2 for a usage error, an existing output among them (without
    ``--overwrite``), found before Spark starts. The summary is the last line on stderr; the
    counters are also written as JSON in the output folder (:data:`COUNTERS_FILE`)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        paths = _paths(args.paths, args.manifest)
    except (OSError, UnicodeDecodeError) as exc:  # missing, a directory, not text: one line
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        print(f"baselinks: {printable(f'--manifest {args.manifest}: {reason}')}", file=sys.stderr)
        return 2
    if not paths:
        parser.error("no input: give WARC paths or --manifest")
    if args.num_output_partitions is not None and args.num_output_partitions < 1:
        parser.error(f"--num-output-partitions: expected 1 or more: {args.num_output_partitions}")
    graph_options = None
    if args.graph is not None:
        if args.unique or args.fields:
            parser.error("--graph: --unique and --fields are the links' options, not the graph's")
        try:
            graph_options = _graph_of(args)
        except ValueError as exc:
            parser.error(f"--graph: {exc}")
        if graph_options.form == "common-crawl" and local_path(args.output) is None:
            parser.error("--layout common-crawl: the driver writes the files: a local --output")
    if not args.overwrite and _exists(args.output):
        print(
            f"baselinks: {printable(args.output)}: exists (--overwrite replaces it)",
            file=sys.stderr,
        )
        return 2
    spark, owned = _session(args)
    try:
        counters = Counters.of(spark)
        start = time.monotonic()
        if args.wat:  # one WAT per file, written by the tasks: no frame to write
            frames = _wats(spark, paths, args, counters)
        elif args.graph is None:
            frame = extract_links(
                spark, paths, mode=args.mode, counters=counters, kinds=args.kinds,
                unique=args.unique or False, schemes=args.schemes, same_host=args.same_host,
                external=args.external, fields=args.fields, parser=args.parser,
            )  # fmt: skip
            frames = {"": frame}
        else:
            assert graph_options is not None
            graph = build_graph(spark, paths, counters=counters, options=graph_options)
            frames = dict(zip(("vertices.parquet", "edges.parquet"), graph, strict=True))
        if graph_options is not None and graph_options.form == "common-crawl":
            failed = _write_layout(graph, args, graph_options)
        else:
            failed = _write(frames, args)
        if failed:
            return 1
        seconds = time.monotonic() - start
        record = {n: c.value for n, c in counters._asdict().items() if c is not None}
        if args.graph is None:
            del record["dropped"]  # the graph's: none here
        record.update(inputs=len(paths), seconds=round(seconds, 1))
        record.update({"graph": args.graph} if args.graph else {"wat": True} if args.wat else {})
        written = _write_counters(args.output, {**record, "mode": args.mode})
    finally:
        if owned:
            spark.stop()
    # after Spark has stopped, so that nothing of its own follows: the summary's lines last
    if written is not None:
        print(f"baselinks: counters in {written}", file=sys.stderr)
    if args.graph is not None and counters.dropped_text():  # what the graph left out, then
        print(f"baselinks: {args.graph} graph: {counters.dropped_text()}", file=sys.stderr)
    print(f"baselinks: {counters}; {seconds:.1f} s", file=sys.stderr)  # the summary: last
    return 1 if record["failed_files"] else 0


def _wats(
    spark: SparkSession, paths: list[str], args: argparse.Namespace, counters: Counters
) -> dict[str, DataFrame]:
    """``--wat``: each file's WAT written into the output folder (spark/wat.py)."""
    options = {"additions": args.additions, "mode": args.mode, "parser": args.parser}
    write_wats(spark, paths, args.output, counters=counters, **options)
    return {}


# Spark writes a timestamp as INT96 by default, a type Parquet deprecated, read back without
# its zone; as TIMESTAMP_MICROS it is what the CLI's Parquet has: timestamp[us, UTC].
_TIMESTAMPS = "spark.sql.parquet.outputTimestampType"


def _write(frames: dict[str, DataFrame], args: argparse.Namespace) -> bool:
    """Each frame written as Parquet (under OUTPUT, or in it by name), its dates as the CLI
    writes them (the session's setting put back after); True once one fails (said in one
    line)."""
    for name, frame in frames.items():
        if args.num_output_partitions is not None:
            frame = frame.coalesce(args.num_output_partitions)
        target = f"{args.output.rstrip('/')}/{name}" if name else args.output
        conf = frame.sparkSession.conf
        before = conf.get(_TIMESTAMPS, None)
        conf.set(_TIMESTAMPS, "TIMESTAMP_MICROS")
        try:
            writer = frame.write.mode("overwrite" if args.overwrite else "errorifexists")
            writer.option("compression", args.output_compression).parquet(target)
        except Exception as exc:  # AnalysisException: the output appeared meanwhile...
            print(f"baselinks: {printable(f'{target}: {_first_line(exc)}')}", file=sys.stderr)
            return True
        finally:
            if before is None:
                conf.unset(_TIMESTAMPS)
            else:
                conf.set(_TIMESTAMPS, before)
    return False


def _write_layout(
    graph: tuple[DataFrame, DataFrame], args: argparse.Namespace, options: GraphOptions
) -> bool:
    """The graph in Common Crawl's layout, written by the driver (spark/graph.py): True once
    it fails (said in one line)."""
    target = local_path(args.output)
    assert target is not None
    try:
        write_layout(*graph, os.fspath(target), options)
    except Exception as exc:  # a full disk, a job that failed on the executors
        print(f"baselinks: {printable(f'{args.output}: {_first_line(exc)}')}", file=sys.stderr)
        return True
    return False


def _first_line(exc: BaseException) -> str:
    """An exception's message without a Java stack trace: an AnalysisException's first line,
    a Py4JJavaError's Java exception ("An error occurred while calling o57.parquet" says
    nothing)."""
    java = getattr(exc, "java_exception", None)
    lines = str(exc if java is None else java.toString()).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
