"""The ``extract`` command's options on where documents came from (``--url``, ``--root-url``)
and on what a run reports at its end (``--stats``): their arguments, their rule against the
paths given, and the report. app.py wires them; argparse and printing only, no pipeline.

    --url URL         the retrieval URL of every input (RFC 1808 §3.3): absolute, with a
                      scheme (base/layers.py, retrieval_url). An archive's records
                      carry their own, which it does not override: said once per archive
                      (batch.Unused). With a directory, every file under it gets that one
                      URL: said, suggesting --root-url.
    --root-url URL    the URL of each directory argument, a mirrored site: each file's URL is
                      its path under it (base/mirror.py); directories only, a usage error else.
    --stats[=json]    links per kind, base_source, problem code and host, on stderr at the
                      end, after the summary line (write/stats.py).
    --strict          a warning (an oddity repaired, nothing lost) makes the exit status 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..run.inputs import is_directory  # the library's test, without the pipeline

if TYPE_CHECKING:
    from ..run.batch import Summary

__all__ = ["add_stats", "add_urls", "is_directory", "print_stats", "url_rule"]


def add_urls(ext: argparse.ArgumentParser) -> None:
    urls = ext.add_mutually_exclusive_group()
    urls.add_argument(
        "--url",
        type=_retrieval_url,
        metavar="URL",
        help="the URL the document was retrieved from (RFC 1808 §3.3); not used for an "
        "archive's records, which carry their own",
    )
    urls.add_argument(
        "--root-url",
        type=_root_url,
        metavar="URL",
        help="the URL of the directory arguments, a mirrored site (wget -m): each file's URL is "
        "URL and its path under the directory (index.html: the directory's URL)",
    )


def _retrieval_url(value: str) -> str:
    from ..base.layers import retrieval_url

    try:
        return retrieval_url(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _root_url(value: str) -> str:
    from ..base.mirror import root_url

    try:
        return root_url(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_revisits(ext: argparse.ArgumentParser) -> None:
    ext.add_argument(
        "--no-revisits",
        action="store_true",
        help="skip WARC revisit records instead of reading their originals' links (the inputs "
        "are then read once, not looked through first: a crawl whose originals are elsewhere)",
    )


def add_stats(ext: argparse.ArgumentParser) -> None:
    # "--stats=json" is an option string of its own, as "--unique=run" is (cli._add_filters),
    # so that "--stats PATH" still reads PATH as a path
    ext.add_argument(
        "--stats",
        "--stats=table",
        action="store_const",
        const="table",
        dest="stats",
        help="at the end, links per kind, base_source, problem code and the top 10 hosts, as a "
        "table on stderr",
    )
    ext.add_argument(
        "--stats=json",
        action="store_const",
        const="json",
        dest="stats",
        help="the same as one JSON object, the last line on stderr",
    )
    # what the run's end says: its exit status too
    ext.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 for a warning too (an oddity repaired, the input read in full: a WARC "
        "record split over gzip members, a MIME header line without a colon)",
    )


def url_rule(args: argparse.Namespace, say: Callable[[str], None]) -> bool:
    """``--url`` and ``--root-url`` against the paths: False after a usage error (said).
    ``--url`` with a directory gives each of its files that one URL: said, as a mirror wants
    ``--root-url`` (unless ``--quiet``); ``--root-url`` maps files under directories only."""
    paths = args.paths or ["-"]
    if args.root_url is not None:
        others = [path for path in paths if not is_directory(path)]
        if others:
            say(
                f"--root-url maps the files under a directory: {others[0]} is none "
                "(give a file's URL with --url, in a run of its own)"
            )
            return False
    elif args.url and not args.quiet:
        for path in filter(is_directory, paths):
            say(
                f"{path}: --url gives every file under it the same URL, {args.url}"
                " (a mirrored site: --root-url gives each file its own)"
            )
    return True


def print_stats(summary: Summary, how: str) -> None:
    """``--stats``: the table (``how`` "table") or the JSON object ("json", one line) on
    stderr, after the summary line; hosts come from input and are escaped in both."""
    import json

    from ..run.batch import counted

    stats = summary.stats
    if stats is None:
        return
    if how == "json":
        counts = {
            "files": summary.files,
            "documents": summary.documents,
            "links": summary.links,
            "no_base": summary.no_base,
            "warnings": summary.warnings,
            "failed": summary.failed,
            "skipped": dict(summary.skipped.most_common()),
            **stats.as_dict(),
        }
        print(json.dumps(counts, ensure_ascii=True), file=sys.stderr)
        return
    lines = [
        f"{counted(summary.documents, 'document')}, {counted(summary.links, 'link')}, "
        + (f"{counted(summary.warnings, 'warning')}, " if summary.warnings else "")
        + f"{summary.failed:,} failed",
        *stats.table(),
    ]
    print("\n".join(lines), file=sys.stderr)
