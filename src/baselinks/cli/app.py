"""The ``baselinks`` command: wiring only (its grammar is arguments.py).

    baselinks extract [PATH ...] [--url URL] [--format jsonl|csv|tsv|text|table] [--mode MODE]
                      [--select CSS] [--kind KIND] [--unique[=run]] [--charset CHARSET] [-q]
                      [-o FILE] [-j N] [--attr TAG:ATTR] [--fields A,B,C] [--scheme S,T]
                      [--same-host | --external] [--root-url URL] [--stats[=json]]
                      [--parser html5|lxml]
    baselinks resolve BASE REF [REF ...] [--mode rfc1808|rfc3986|whatwg] [--explain] [--json]
    baselinks parse URL [URL ...] [--json]
    baselinks check URL [URL ...] [--json]
    baselinks graph PATH ... -o DIR [--level page|host|domain] [--format tsv|parquet] [-j N]
    baselinks ranks DIR [--top N]
    baselinks wat PATH ... [-o FILE|DIR/] [--additions] [--mode MODE] [-j N]  (cli/watcommand.py)

Exit status: 0 when everything succeeded, 1 when some input failed (one line on stderr each,
the rest still processed; a repaired oddity is a ``warning:`` line and fails only with
``--strict``), 2 for a usage error, 130 on Ctrl-C, 128+N on signal N (SIGTERM 143,
SIGHUP 129). ``extract`` ends with a summary
line on stderr (files, documents, links, skipped, failed) unless ``--quiet``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from .. import compiled
from .._version import __version__
from ..errors import SelectError, printable, say
from . import coveragecommand, graphcommand, urlcommands, watcommand
from .report import Progress, Teller, on_terminal, slow_path_once, total_size

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any, TextIO

    from ..resolve.link import Link
    from ..run.batch import Summary
    from ..write.output import Output
    from ..write.parquet import ParquetSink as Sink
    from .resuming import Resumed

# The pipeline is imported by the command that runs it, inside its function: `baselinks
# --version` imports only this module and errors.py (python -X importtime -m baselinks
# --version), and `baselinks parse` no HTML parser.


def _version() -> str:
    # which path is in use: the compiled modules found (not imported: no lxml), or why none
    return f"baselinks {__version__} ({compiled.status()})"


_error = say  # one line on stderr, escaped (errors.say)


def _inputs(
    paths: Sequence[str],
    unlisted: Callable[[OSError], None],
    root_url: str | None = None,
    say: Callable[[str], None] = _error,
) -> Iterator[tuple[str, Path | str | None, bool, str | None]]:
    """(name, path, named, URL) for each input; path None means stdin, a str a URL (read
    through run/inputs.py). Directories recurse.

    ``named``: given on the command line, so it must be a document; a file found in a
    directory that is no document (an image in a saved page's ``_files/``) is skipped. A
    directory that cannot be listed goes to ``unlisted``, and the walk goes on. ``root_url``:
    each directory's URL, its files' URLs made from their paths under it (base/mirror.py).
    """
    from ..base.mirror import host_folder, mirrored_url
    from ..run.inputs import display_name, is_directory, is_url, walk

    for given in paths or ["-"]:
        if given == "-":
            yield "-", None, True, None
        elif is_url(given):
            yield display_name(given), given, True, None  # not a Path: "//" stays
        elif is_directory(given):
            path = Path(given)
            site = None if root_url is None else host_folder(path, root_url)
            if site is not None:
                say(f"{given}: --root-url {root_url} is the host folder {site}'s URL (wget -m)")
            for found in walk(path, unlisted):  # in name order; links to folders not followed
                url = None
                if root_url is not None:
                    under = site if site is not None and _under(found, site) else path
                    url = mirrored_url(root_url, os.path.relpath(found, under))
                yield display_name(found), Path(found), False, url
        else:
            yield display_name(given), Path(given), True, None


def _under(path: str, folder: str | os.PathLike[str]) -> bool:
    return os.path.commonpath([path, os.fspath(folder)]) == os.fspath(folder)


def _extract(args: argparse.Namespace, out: TextIO) -> int:
    from ..api import iter_rendered
    from ..run.batch import Summary
    from ..write.stats import Stats
    from . import extractoptions

    terminal = "table" if args.fields is None else "tsv"  # a table's columns are fixed
    name = args.format or (terminal if out.isatty() else "jsonl")
    writing = _writing(name, args.fields, out, args.output)
    if writing is None or not extractoptions.url_rule(args, _error):
        return 2
    header, render, write, sink = writing
    summary = Summary(stats=Stats() if args.stats else None)
    resumed = getattr(args, "resumed", None)  # --resume: what an interrupted run did
    started = time.monotonic()
    progress = None
    if sys.stderr.isatty() and not args.quiet:
        progress = Progress(summary, total_size(args.paths))
    tell = Teller(out, summary, _error if progress is None else progress.say, args.quiet)
    _stdin_note(args.paths)
    inputs: Iterator[tuple[Any, str, bool, str | None]] = (
        (_stdin() if path is None else path, name, named, url)
        for name, path, named, url in _inputs(
            args.paths, tell.unlisted, args.root_url, tell.note if not args.quiet else _silent
        )
    )
    revisits: Any = not args.no_revisits  # (going on: the index of all the inputs, done too)
    if resumed is not None:  # the inputs done skipped (checked unchanged), the counts theirs
        inputs, revisits = resumed.going_on_after(inputs, summary, tell.note, args.quiet, revisits)
    texts = None
    try:
        # One stream for the whole batch (one CSV header); a failed input is named, the rest go on.
        texts = iter_rendered(
            inputs,
            render,
            url=args.url,
            mode=args.mode,
            select=args.select,
            kinds=args.kinds,
            unique=args.unique or ("document" if args.unique_by != "url" else False),
            unique_by=args.unique_by,
            charset=args.charset,
            on_error=tell.failed,
            unreadable=tell.unreadable,
            summary=summary,
            workers=args.jobs,
            attributes=args.attributes,
            schemes=args.schemes,
            same_host=args.same_host,
            external=args.external,
            unused=tell.unused,
            parser=args.parser,
            on_warning=tell.warned,
            ended=None if resumed is None else resumed.ended(summary),
            revisits=revisits,
        )
        if resumed is None or not resumed.going_on:  # (an interrupted run wrote it)
            out.write(header)
        for text in texts:
            write(text)
            if progress is not None:
                progress.advance()
        if sink is not None:
            sink.close()  # the last row group and the footer
    except SelectError as exc:
        _error(str(exc))
        return 2
    except BrokenPipeError:
        _reader_gone()
        return _status(args, summary)  # a failure already told is not taken back
    finally:
        if texts is not None:  # its workers stopped now, not when it is collected
            texts.close()
        if progress is not None:
            progress.close()
    _summarise(args, summary, out, started)
    if args.schemes and not summary.links and not args.quiet:
        # `--scheme htp` wrote nothing: said, so that a typo is not taken for an empty crawl
        _error(f"note: --scheme {','.join(args.schemes)}: no link has it")
    return _status(args, summary)


def _silent(message: str) -> None:
    """What -q says of a note: nothing."""


def _stdin_note(paths: Sequence[str]) -> None:
    if (not paths or "-" in paths) and on_terminal(sys.stdin):
        _error("reading standard input (end it with Ctrl-D; --help for the options)")


def _status(args: argparse.Namespace, summary: Summary) -> int:
    """1 when something could not be read; a repaired oddity (a warning) only with --strict."""
    return 1 if summary.failed or (args.strict and summary.warnings) else 0


def _summarise(args: argparse.Namespace, summary: Summary, out: TextIO, started: float) -> None:
    """The summary line (unless ``-q``), then ``--stats``, after the links."""
    from . import extractoptions

    if not args.quiet:
        out.flush()  # the links first, then the summary, on a terminal too
        seconds = f" in {time.monotonic() - started:.1f} s" if sys.stderr.isatty() else ""
        _error(f"{summary.line(': give --url or --root-url')}{seconds}")
    if args.stats:
        out.flush()
        extractoptions.print_stats(summary, args.stats)


# the header, a document's links -> what is written, what writes it, a sink to close
_Writing = tuple[str, "Callable[[Sequence[Link]], Any]", "Callable[[Any], object]", "Sink | None"]


def _writing(
    name: str, fields: Sequence[str] | None, out: TextIO, output: str | None = None
) -> _Writing | None:
    """The header, what a document's links become, what writes that, and the sink to close at
    the end (a columnar format's: parquet, on ``out``'s bytes). None, said, when the format
    cannot be written: fields it has not, pyarrow missing, or the output a terminal (bytes no
    one can read there)."""
    from ..write.compress import compression
    from ..write.formats import COLUMNAR, FIELDED, output_format, utf8_render
    from ..write.output import binary, byte_writer

    if name in COLUMNAR and compression(output):
        _error(f"--format {name} compresses itself: -o {output}: give a name without .gz/.bz2/.zst")
        return None
    if fields is not None and name not in FIELDED + COLUMNAR:
        fielded = ", ".join(FIELDED + COLUMNAR)
        _error(f"--fields: the {name} format has no fields to choose; use {fielded}")
        return None
    if name not in COLUMNAR:
        header, render = output_format(name, fields)
        write = byte_writer(out)  # JSON Lines as UTF-8 bytes, where the stream takes them
        if write is not None:
            return header, utf8_render(name, fields), write, None
        return header, render, out.write, None
    from ..write.parquet import ParquetSink, available, parquet_render

    if not available():
        _error(f"--format {name} needs pyarrow: pip install 'baselinks[parquet]'")
        return None
    if out.isatty():
        _error(f"--format {name} writes a binary file: give -o FILE, or redirect the output")
        return None
    sink = ParquetSink(binary(out), fields)
    # the links themselves, from a worker too; with the computed fields chosen, made there
    return "", parquet_render(fields), sink.write, sink


def _stdin() -> Any:
    """Standard input's bytes; after ``<&-`` (Python sets ``sys.stdin`` to None, and a
    traceback lost the run), a stream whose reading fails: ``-: standard input is closed``,
    one input failed, the others read."""
    stdin = getattr(sys.stdin, "buffer", None)
    return _ClosedInput() if stdin is None else stdin


class _ClosedInput:
    """What stands for a closed standard input: it cannot seek, and cannot be read."""

    name = "-"

    def seekable(self) -> bool:
        return False

    def read(self, size: int = -1) -> bytes:
        import errno

        raise OSError(errno.EBADF, "standard input is closed")

    def close(self) -> None:
        pass


_COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO], int]] = {
    "extract": _extract,
    "resolve": urlcommands.resolve_command,
    "parse": urlcommands.parse_command,
    "check": urlcommands.check_command,
    "graph": lambda args, out: graphcommand.graph_command(args, out, _inputs, Teller),
    "ranks": graphcommand.ranks_command,
    "wat": lambda args, out: watcommand.wat_command(args, out, _inputs),
    "coverage": lambda args, out: coveragecommand.coverage_command(args, out, Teller),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status instead of exiting."""
    if (sys.argv[1:] if argv is None else list(argv))[:1] == ["--version"]:
        # What argparse would print (it acts on --version as soon as it reads it), before
        # anything else is imported.
        print(_version())
        return 0
    try:
        args = _parsed(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 for --help/--version
        return int(exc.code or 0)
    except KeyboardInterrupt:  # Ctrl-C while the pipeline loads: before the handlers
        _error("interrupted")
        return 130
    if isinstance(args, int):  # --generate: done, its status
        return args
    with _stoppable(), _warnings_said():
        return _run(args)


def _parsed(argv: Sequence[str] | None) -> argparse.Namespace | int:
    """The command line's arguments (a usage error exits, as argparse does); for
    ``--generate``, which runs no command, the status of writing what it asks for."""
    import logging

    from ..write.output import standard_error
    from . import arguments

    standard_error()
    parser = arguments.build_parser(_version())
    # warcio logs a warning when it repairs a target URI; the record is read all the same.
    logging.getLogger("warcio").setLevel(logging.ERROR)
    given = sys.argv[1:] if argv is None else list(argv)
    if given[:1] and given[0].partition("=")[0] == "--generate":
        return _generate(parser, given)  # no command: the parser would want one
    arguments.explicit_choices(parser, given)
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        arguments.unrecognized(args.subparsers[args.command], unknown)
    return args


def _generate(parser: argparse.ArgumentParser, given: list[str]) -> int:
    """``--generate KIND``: the manual page or a completion script on stdout (cli/generate.py)."""
    from .generate import GENERATE, MissingTool, generate

    _, equals, kind = given[0].partition("=")
    rest = given[1:] if equals else given[2:]
    if not equals:
        kind = given[1] if len(given) > 1 else ""
    if kind not in GENERATE or rest:
        parser.error(
            f"argument --generate: expected one of {', '.join(GENERATE)}, alone: "
            f"{' '.join(printable(arg) for arg in given)!r}"
        )
    try:
        sys.stdout.write(generate(kind, parser))
    except MissingTool as exc:
        _error(str(exc))
        return 2
    return 0


def _run(args: argparse.Namespace) -> int:
    from ..run.resume import ResumeError
    from ..run.workers import signals_held
    from ..write.output import OutputError, open_output
    from .resuming import open_resumed

    output: Output | None = None
    resumed: Resumed | None = None
    if args.command in ("extract", "graph") and not getattr(args, "quiet", False):
        slow_path_once()  # a terminal's one line, the first time the pure path runs
    try:
        with signals_held():  # a temporary file, once made, is known, to be removed
            if args.command == "extract" and args.resume:  # FILE.partial and a journal
                resumed = args.resumed = open_resumed(args)
                output = resumed.output
            else:
                output = open_output(getattr(args, "output", None))
        status = _COMMANDS[args.command](args, output.stream)
        if status != 2:  # a usage error leaves no output file
            (output if resumed is None else resumed).commit()  # never seen half-written
        return status
    except ResumeError as exc:
        _error(str(exc))
        return 2
    except OutputError as exc:
        _error(str(exc))
        return 1
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except _Stopped as exc:
        _error(f"stopped by {signal.Signals(exc.signum).name}")
        return 128 + exc.signum
    except BrokenPipeError:
        _reader_gone()
        return 0
    finally:
        if output is not None:
            output.discard()
        if resumed is not None:
            resumed.close()


def _reader_gone() -> None:
    # The reader went away (``| head``): stop quietly, and keep Python from complaining
    # again when it flushes stdout at exit (the recipe in CPython's signal docs).
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


@contextlib.contextmanager
def _warnings_said() -> Iterator[None]:
    """A warning of baselinks' (the HTML5 parser that cannot be used, load/html5.py) as one
    line on stderr, as an error is said, not Python's two lines with a file and a line number."""
    import warnings

    with warnings.catch_warnings():
        python = warnings.showwarning

        def show(message: Any, category: type[Warning], *where: Any, **more: Any) -> None:
            if category.__module__.startswith("baselinks."):
                _error(str(message))
            else:
                python(message, category, *where, **more)

        warnings.filterwarnings("always", module="baselinks")
        warnings.showwarning = show
        yield


class _Stopped(BaseException):
    """SIGTERM or SIGHUP: the run ends as Ctrl-C ends it (workers stopped, no output file)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _stoppable() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt, SIGTERM and SIGHUP :class:`_Stopped`, once: a second
    signal does not cut the cleanup short. The handlers before are put back at the end."""
    # Workers are forked with these signals held, and set their own before they take them.
    from ..run.workers import STOPPING

    def stop(signum: int, frame: object) -> None:
        for each in STOPPING:
            signal.signal(each, signal.SIG_IGN)
        raise KeyboardInterrupt if signum == signal.SIGINT else _Stopped(signum)

    previous: dict[int, Any] = {}
    try:
        for signum in STOPPING:
            previous[signum] = signal.signal(signum, stop)
    except ValueError:  # main() called in another thread than the main one: no handlers
        pass
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
