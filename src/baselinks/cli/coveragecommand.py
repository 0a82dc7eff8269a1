"""The ``coverage`` command: its grammar and wiring (coverage/ does the work).

    baselinks coverage PATH... [--root-url URL] [--index CDXJ] [--report FILE.html|FILE.json]
                       [--seeds FILE] [-o FILE] [--format jsonl|csv|tsv|parquet]
                       [--fields A,B] [--mode MODE] [--parser P] [-j N] [-q]

Every link of every page of the inputs (WARC, ARC, WACZ files; a mirrored site's folder with
``--root-url``), one record each with extract's fields and the coverage's, on standard output
or ``-o``; the summary on stderr; ``--report`` and ``--seeds`` written whole or not at all.
Exit status 1 when an input failed (its damage said, the rest checked), 2 for a usage error.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ..errors import say

if TYPE_CHECKING:
    from typing import TextIO

__all__ = ["add_coverage", "coverage_command"]


def add_coverage(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..coverage.classify import CHOOSABLE
    from ..coverage.output import FORMATS
    from ..load.html5 import PARSERS
    from ..url.resolve import MODES

    cover = commands.add_parser(
        "coverage",
        help="which links of an archive or a mirror point to what it did not capture",
        description="Check every link of every page of WARC, ARC and WACZ files (or of a "
        "mirrored site's folder, with --root-url) against what they captured, matched by "
        "SURT key as replay tools match: captured, redirected (followed to where the chain "
        "ends), error, missing, or out-of-scope; a fragment's anchor looked for in the page "
        "it lands on. One record per link; the summary on stderr.",
    )
    cover.add_argument("paths", metavar="PATH", nargs="+", help="archives, or folders")
    cover.add_argument(
        "--root-url", type=_root_url, metavar="URL",
        help="the URL of the folder arguments, mirrored sites (wget -m, httrack): each file "
        "is captured at URL and its path under the folder",
    )  # fmt: skip
    cover.add_argument(
        "--index", action="append", default=[], metavar="CDXJ",
        help="a CDXJ or CDX index (pywb, cdxj-indexer; gzipped too) whose captures count too "
        "(repeatable)",
    )  # fmt: skip
    cover.add_argument(
        "--report", metavar="FILE",
        help="write the report: one self-contained HTML page (FILE.html), or JSON (FILE.json)",
    )  # fmt: skip
    cover.add_argument(
        "--seeds", metavar="FILE",
        help="write the missing URLs, one a line, the most needed first (a patch crawl's seeds)",
    )  # fmt: skip
    cover.add_argument("-o", "--output", metavar="FILE", help="write the records to FILE")
    cover.add_argument("--format", choices=FORMATS, default="jsonl", help="default: jsonl")
    cover.add_argument(
        "--fields", type=_fields, metavar="A,B",
        help=f"only these fields, in this order (of {', '.join(CHOOSABLE)})",
    )  # fmt: skip
    cover.add_argument(
        "--mode", choices=MODES, default="whatwg",
        help="how links resolve (default whatwg: as the browser that replays them)",
    )  # fmt: skip
    cover.add_argument("--parser", choices=PARSERS, help="the HTML parser (default: html5)")
    cover.add_argument("-j", "--jobs", type=_jobs, default=1, metavar="N", help="processes")
    cover.add_argument("-q", "--quiet", action="store_true", help="no summary lines")


def _root_url(value: str) -> str:
    from ..base.mirror import root_url

    try:
        return root_url(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _fields(value: str) -> tuple[str, ...]:
    from ..coverage.output import check_fields

    try:
        return check_fields(part.strip() for part in value.split(","))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _jobs(value: str) -> int:
    number = int(value) if value.isdigit() else -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"expected a number (0 or more): {value!r}")
    return number


def _report_kind(path: str | None) -> str | None:
    if path is None:
        return None
    lowered = path.lower()
    return (
        "json"
        if lowered.endswith(".json")
        else "html"
        if lowered.endswith((".html", ".htm"))
        else ""
    )


def coverage_command(args: argparse.Namespace, out: TextIO, teller: Any) -> int:
    """``baselinks coverage``: ``teller`` is the extract command's (app.py: report.Teller)."""
    from ..run.batch import Summary

    _error = say
    if "-" in args.paths:
        _error("coverage reads its inputs twice: give files or folders, not standard input")
        return 2
    if _report_kind(args.report) == "":
        _error(f"--report {args.report}: give a name ending .html or .json")
        return 2
    if args.format == "parquet":
        from ..write.parquet import available

        if not available():
            _error("--format parquet needs pyarrow: pip install 'baselinks[parquet]'")
            return 2
        if out.isatty():
            _error("--format parquet writes a binary file: give -o FILE, or redirect the output")
            return 2
    from ..coverage.inputs import coverage_inputs

    summary = Summary()
    tell = teller(out, summary, _error, args.quiet)
    inputs = list(coverage_inputs(args.paths, args.root_url, tell.unlisted))
    return _run(args, out, inputs, summary, tell)


def _run(args: argparse.Namespace, out: TextIO, inputs: list[Any], summary: Any, tell: Any) -> int:
    from ..coverage.build import coverage_of
    from ..coverage.output import CoverageSink, write_seeds
    from ..coverage.report import html_report, json_report
    from ..write.output import binary, open_output

    _error = say
    sink = (
        CoverageSink("parquet", args.fields, binary=binary(out))
        if args.format == "parquet"
        else CoverageSink(args.format, args.fields, text=out)
    )
    seeds = None if args.seeds is None else open_output(args.seeds)
    report = None if args.report is None else open_output(args.report)
    try:
        made = coverage_of(
            inputs,
            sink.write,
            index=args.index,
            mode=args.mode,
            parser=args.parser,
            workers=args.jobs,
            on_error=tell.failed,
            unreadable=tell.unreadable,
            summary=summary,
            seeds=None if seeds is None else (lambda wanted: write_seeds(wanted, seeds.stream)),
        )
        sink.close()
        if report is not None:
            data = made.as_dict()
            kind = _report_kind(args.report)
            report.stream.write(json_report(data) if kind == "json" else html_report(data))
        for written in (seeds, report):
            if written is not None:
                written.commit()
    finally:
        for written in (seeds, report):
            if written is not None:
                written.discard()
    if not args.quiet:
        out.flush()
        _error(summary.line())
        for line in made.lines():
            _error(line)
    return 1 if summary.failed else 0
