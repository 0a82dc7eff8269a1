"""The ``wat`` command: its grammar and wiring (wat/ does the work).

    baselinks wat PATH... -o FILE.warc.wat.gz   one WAT of every input's records, in order
    baselinks wat PATH... -o DIR/               one WAT per input, named as Common Crawl names
                                                them (X.warc.gz → DIR/X.warc.wat.gz)
    baselinks wat PATH... > FILE                the WAT on standard output (not a terminal)
                  [--additions] [--mode MODE] [--parser html5|lxml] [-j N] [-q]

Why a command and not ``extract --format wat``: a format of ``extract`` writes each document's
links, one record per line; a WAT writes a record for every record of a WARC (requests,
warcinfo, images: none has a link), with the record's headers, digests and gzip member, each
record a gzip member of its own. It is made from the records as stored (warcframes.py), not
from the links.

A damaged input is an error line naming the file and the offset; the records around the
damage are written. Exit status 1 when something failed; the WAT holds everything read. A file
is written atomically: to a temporary file beside it, renamed at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, BinaryIO

from ..errors import say

if TYPE_CHECKING:
    from typing import TextIO

    from ..errors import InputError

__all__ = ["add_wat", "wat_command"]

Walk = Callable[..., Iterator[tuple[str, Any, bool, Any]]]


def add_wat(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..url.resolve import MODES

    wat = commands.add_parser(
        "wat",
        help="write a WAT file of WARC, ARC or WACZ inputs, as Common Crawl writes one",
        description="Write a WAT file: a warcinfo record, then a metadata record of JSON for "
        "every record of the inputs (WARC, ARC, WACZ; gzipped or not), with the keys, link "
        "paths and tag names the WAT extractor of webarchive-commons writes (Container, "
        "Envelope, HTML-Metadata with Head and Links), each record a gzip member. The links "
        "are baselinks' own, URLs as written; --additions adds what the extractor misses under "
        "keys named Baselinks, which other readers pass over.",
        epilog="examples:\n"
        "  baselinks wat crawl.warc.gz -o crawl.warc.wat.gz\n"
        "  baselinks wat crawl/*.warc.gz -o wat/ -j 4     (one WAT per WARC)\n"
        "  baselinks wat crawl.warc.gz --additions | zcat | head\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    wat.add_argument("paths", metavar="PATH", nargs="+", help="WARC, ARC or WACZ files, or URLs")
    wat.add_argument(
        "-o", "--output", dest="wat_output", metavar="FILE|DIR/",
        help="the WAT file (atomically), or a folder (ending in /, or one that exists) for one "
        "WAT per input; default: standard output, when it is not a terminal",
    )  # fmt: skip
    wat.add_argument(
        "--additions", action="store_true",
        help="add, under keys named Baselinks: each link resolved, its base and base source, "
        "kind and problem codes; the links the extractor has no place for (srcset, lazy "
        "loading, style attributes, HTTP headers, feeds...)",
    )  # fmt: skip
    wat.add_argument(
        "--mode", choices=MODES, default="rfc1808", help="resolution rules (default rfc1808)"
    )
    wat.add_argument(
        "--parser", choices=("html5", "lxml"), help="html5: a browser's tree (default), or lxml"
    )
    wat.add_argument("-j", "--jobs", type=_jobs, default=1, metavar="N", help="processes")
    wat.add_argument("-q", "--quiet", action="store_true", help="no summary line")


def _jobs(value: str) -> int:
    number = int(value) if value.isdigit() else -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"expected a number (0 or more): {value!r}")
    return number


def wat_command(args: argparse.Namespace, out: TextIO, walk: Walk) -> int:
    """``baselinks wat``: ``walk`` is the extract command's walk of its inputs (app.py)."""
    from ..load.html5 import choose
    from ..run.workers import resolve_workers
    from ..wat import WatOptions, WatSummary, wat_name, write_wat

    failed = 0

    def error(exc: InputError) -> None:
        nonlocal failed
        failed += 1
        say(str(exc) if exc.name else exc.message)

    def unlisted(exc: OSError) -> None:
        nonlocal failed
        failed += 1
        say(f"{exc.filename}: {exc.strerror or exc}")

    target = args.wat_output
    if target is None and out.isatty():
        say("a WAT is gzip data: give -o FILE (or a folder, -o DIR/) or pipe it")
        return 2
    from ..run.revisits import index_revisits

    workers = resolve_workers(args.jobs)
    inputs = [(path, name) for name, path, _, _ in walk(args.paths, unlisted)]
    # the revisits' originals, looked for in all the inputs (one WAT per input too)
    options = WatOptions(
        args.mode, choose(args.parser), args.additions, revisits=index_revisits(inputs)
    )
    summary = WatSummary()
    if target is not None and (target.endswith(os.sep) or os.path.isdir(target)):
        os.makedirs(target, exist_ok=True)
        for path, name in inputs:
            with _atomic(os.path.join(target, wat_name(name))) as stream:
                made = write_wat(
                    [(path, name)], stream, filename=wat_name(name), options=options,
                    workers=1, on_error=error,
                )  # fmt: skip
            summary.add(made)
    elif target is None or target == "-":
        from ..write.output import binary

        first = inputs[0][1] if inputs else "-"
        summary = write_wat(
            inputs, binary(out), filename=wat_name(first), options=options, workers=workers,
            on_error=error,
        )  # fmt: skip
    else:
        with _atomic(target) as stream:
            summary = write_wat(
                inputs, stream, filename=os.path.basename(target), options=options,
                workers=workers, on_error=error,
            )  # fmt: skip
    if not args.quiet:
        say(summary.line(args.additions))
    return 1 if failed else 0


@contextlib.contextmanager
def _atomic(path: str) -> Iterator[BinaryIO]:
    """A file written beside ``path`` and renamed over it when all of it was written (a
    reader never sees half a WAT); removed when the writing fails."""
    folder = os.path.dirname(path) or "."
    descriptor, temporary = tempfile.mkstemp(prefix=".baselinks-", dir=folder)
    try:
        with os.fdopen(descriptor, "wb") as stream:
            yield stream
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
