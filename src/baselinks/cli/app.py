"""The ``baselinks`` command: wiring only (its grammar is arguments.py).

    baselinks extract [PATH ...] [--url URL] [--format jsonl|csv|tsv|text|table] [--mode MODE]
                      [--select CSS] [--kind KIND] [--unique[=run]] [--charset CHARSET] [-q]
                      [-o FILE] [-j N] [--attr TAG:ATTR] [--fields A,B,C] [--scheme S,T]
                      [--same-host | --external] [--root-url URL] [--stats[=json]]
    baselinks resolve BASE REF [REF ...] [--mode rfc1808|rfc3986|whatwg] [--explain] [--json]
    baselinks parse URL [URL ...] [--json]
    baselinks check URL [URL ...] [--json]

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
import stat
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from .. import compiled
from .._version import __version__
from ..errors import InputError, InputWarning, SelectError, describe, printable, say
from . import urlcommands

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any, TextIO

    from ..resolve.link import Link
    from ..run.batch import Summary, Unused
    from ..write.parquet import ParquetSink as Sink

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
    started = time.monotonic()
    progress = None
    if sys.stderr.isatty() and not args.quiet:
        progress = _Progress(summary, _total_size(args.paths))
    tell = _Teller(out, summary, _error if progress is None else progress.say, args.quiet)
    _stdin_note(args.paths)
    inputs = (
        (sys.stdin.buffer if path is None else path, name, named, url)
        for name, path, named, url in _inputs(
            args.paths, tell.unlisted, args.root_url, tell.note if not args.quiet else _silent
        )
    )
    try:
        # One stream for the whole batch (one CSV header); an input that fails is named on
        # stderr and the batch goes on.
        texts = iter_rendered(
            inputs,
            render,
            url=args.url,
            mode=args.mode,
            select=args.select,
            kinds=args.kinds,
            unique=args.unique,
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
            on_warning=tell.warned,
        )
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
    if (not paths or "-" in paths) and _on_terminal(sys.stdin):
        _error("reading standard input (end it with Ctrl-D; --help for the options)")


def _status(args: argparse.Namespace, summary: Summary) -> int:
    """1 when something could not be read; a repaired oddity (a warning) only with --strict."""
    return 1 if summary.failed or (args.strict and summary.warnings) else 0


class _Teller:
    """What ``extract`` says on stderr while it runs: one line per failure, escaped."""

    def __init__(
        self, out: TextIO, summary: Summary, tell: Callable[[str], None], quiet: bool
    ) -> None:
        self.out, self.summary, self.tell, self.quiet = out, summary, tell, quiet

    def say(self, message: str) -> None:
        # the links written so far first: with 2>&1 an error line follows the links before it
        # whatever the buffering (a pipe's, or PYTHONUNBUFFERED's), so the order is the input's
        self.out.flush()
        self.tell(message)

    def failed(self, error: InputError) -> None:
        self.say(str(error) if error.name else error.message)  # nameless: the run's (a worker)

    def note(self, message: str) -> None:
        self.say(message)

    def warned(self, warning: InputWarning) -> None:
        # its own prefix: an oddity repaired, nothing lost (exit 0 unless --strict)
        self.say(f"warning: {warning}")

    def unlisted(self, exc: OSError) -> None:
        from ..run.batch import display_name

        self.say(f"{display_name(str(exc.filename))}: {exc.strerror or exc}")
        self.summary.failed += 1

    def unreadable(self, name: str, exc: Exception) -> None:
        self.say(f"{name}: {describe(exc)}")  # a bug is said to be one; the other inputs go on

    def unused(self, event: Unused) -> None:
        if not self.quiet:
            self.say(event.message("--url"))


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
    from ..write.formats import COLUMNAR, FIELDED, output_format, utf8_render
    from ..write.output import binary, byte_writer, compression

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
    from ..write.parquet import ParquetSink, available

    if not available():
        _error(f"--format {name} needs pyarrow: pip install 'baselinks[parquet]'")
        return None
    if out.isatty():
        _error(f"--format {name} writes a binary file: give -o FILE, or redirect the output")
        return None
    sink = ParquetSink(binary(out), fields)
    return "", list, sink.write, sink  # list: the links themselves, from a worker too


def _on_terminal(stream: object) -> bool:
    """Whether ``stream`` is a terminal: not when it is None (no stdin at all), closed, or
    an object that only has a ``buffer`` (as a caller may set ``sys.stdin`` to)."""
    isatty = getattr(stream, "isatty", None)
    try:
        return callable(isatty) and bool(isatty())
    except (OSError, ValueError):  # closed
        return False


def _total_size(paths: Sequence[str]) -> int | None:
    """The bytes the inputs hold, for the progress bar's total and time left: the sizes of the
    files named and of those under the directories; None when one is stdin, a URL, or no
    regular file (a FIFO: its size is no promise)."""
    from ..run.inputs import is_directory, is_url, walk

    total = 0
    for given in paths or ["-"]:
        if given == "-" or is_url(given):
            return None
        found = walk(given, lambda exc: None) if is_directory(given) else [given]
        for path in found:
            try:
                status = os.stat(path)
            except OSError:
                continue  # its error is said when it is read
            if not stat.S_ISREG(status.st_mode):
                if path == given:
                    return None
                continue  # a FIFO in a directory is skipped, not read
            total += status.st_size
    return total


class _Progress:
    """A tqdm bar on stderr (a terminal) of the bytes of the inputs read (inside a file too: a
    WARC's records as they are read), against their total where it is known, with the time
    left; documents, files and links beside. Shown only once a run has taken half a second, so
    a single page never flashes one."""

    DELAY = 0.5  # seconds before the bar shows
    EVERY = 0.1  # seconds between redraws at most

    def __init__(self, summary: Summary, total: int | None = None) -> None:
        from tqdm import tqdm  # only for a terminal: a pipe never pays the import

        self.summary = summary
        self.bar = tqdm(
            desc="baselinks",
            total=total,
            unit="B",
            unit_scale=True,
            unit_divisor=1024,
            delay=self.DELAY,
            mininterval=self.EVERY,
            leave=False,
            file=sys.stderr,
        )

    def advance(self) -> None:
        from ..run.batch import counted

        tally = self.summary
        counts = (counted(tally.documents, "document"), counted(tally.files, "file"))
        self.bar.set_postfix_str(f"{', '.join(counts)}, {counted(tally.links, 'link')}", False)
        self.bar.update(tally.read - self.bar.n)  # redrawn at most every EVERY seconds

    def say(self, message: str) -> None:
        self.bar.write(f"baselinks: {printable(message)}", file=sys.stderr)  # above the bar

    def close(self) -> None:
        self.bar.close()


_COMMANDS = {
    "extract": _extract,
    "resolve": urlcommands.resolve_command,
    "parse": urlcommands.parse_command,
    "check": urlcommands.check_command,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status instead of exiting."""
    if (sys.argv[1:] if argv is None else list(argv))[:1] == ["--version"]:
        # What argparse would print (it acts on --version as soon as it reads it), before
        # anything else is imported.
        print(_version())
        return 0
    import logging

    from ..write.output import standard_error
    from . import arguments

    standard_error()
    parser = arguments.build_parser(_version())
    # warcio logs a warning when it repairs a target URI; the record is read all the same.
    logging.getLogger("warcio").setLevel(logging.ERROR)
    given = sys.argv[1:] if argv is None else list(argv)
    try:
        if given[:1] and given[0].partition("=")[0] == "--generate":
            return _generate(parser, given)  # no command: the parser would want one
        arguments.explicit_choices(parser, given)
        args, unknown = parser.parse_known_args(argv)
        if unknown:
            arguments.unrecognized(args.subparsers[args.command], unknown)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 for --help/--version
        return int(exc.code or 0)
    with _stoppable():
        return _run(args)


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
    from ..run.workers import signals_held
    from ..write.output import OutputError, open_output

    output = None
    try:
        with signals_held():  # a temporary file, once made, is known, to be removed
            output = open_output(getattr(args, "output", None))
        status = _COMMANDS[args.command](args, output.stream)
        if status != 2:  # a usage error leaves no output file
            output.commit()  # a reader never sees a half-written file
        return status
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


def _reader_gone() -> None:
    # The reader went away (``| head``): stop quietly, and keep Python from complaining
    # again when it flushes stdout at exit (the recipe in CPython's signal docs).
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


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
