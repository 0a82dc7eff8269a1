"""The command line's grammar: each subcommand, its options, and their types (app.py runs
them). Imported when a command is parsed, never by ``baselinks --version``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..errors import printable
from . import coveragecommand, graphcommand, watcommand
from .generate import GENERATE


def build_parser(version: str) -> argparse.ArgumentParser:
    """The parser of every subcommand; ``version`` is what ``--version`` prints."""
    parser = argparse.ArgumentParser(
        prog="baselinks",
        description="Resolve links against their base URL exactly as RFC 1808 defines it.",
    )
    parser.add_argument("--version", action="version", version=version)
    parser.add_argument(
        "--generate",
        metavar="KIND",
        choices=GENERATE,
        help=f"print the manual page or a shell's completion ({', '.join(GENERATE)}; the "
        "shell extra) and exit",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    _add_extract(commands)
    graphcommand.add_graph(commands)
    watcommand.add_wat(commands)
    coveragecommand.add_coverage(commands)
    _add_url_commands(commands)
    _add_check(commands)
    parser.set_defaults(subparsers=commands.choices)
    return parser


def _add_extract(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    # The pipeline (lxml among it) loaded here, before an output file exists: a SIGINT in lxml's
    # import is lost (its init swallows the KeyboardInterrupt), Ctrl-C did nothing (test_hostile)
    from .. import api  # noqa: F401
    from ..run.options import add_filters
    from ..url.resolve import MODES
    from ..write.formats import COLUMNAR, FORMATS
    from . import extractoptions, resuming

    ext = commands.add_parser(
        "extract",
        help="extract every link from documents and archives, made absolute",
        description="Extract every link from each document, resolved against its base URL "
        "(RFC 1808 §3: <base href>; then a MIME part's Content-Location; then the retrieval "
        "URL: a WARC record's target URI, --url, a 'saved from url' comment, or the file's "
        "path under --root-url; then none). "
        "Inputs are recognised by content: HTML, MHTML and MIME messages, WARC and ARC, raw "
        "HTTP responses, and gzip of any of these.",
        epilog=_extract_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ext.add_argument(
        "paths",
        metavar="PATH",
        nargs="*",
        help="files, directories (recursive), URLs (https://, file://, s3://: the fsspec "
        "extra), or - for stdin (default)",
    )
    extractoptions.add_urls(ext)
    ext.add_argument(
        "--format",
        choices=sorted([*FORMATS, *COLUMNAR]),
        help="output format (default: jsonl when piped, an aligned table on a terminal; "
        "parquet to -o FILE or a pipe, with the parquet extra)",
    )
    ext.add_argument(
        "--mode", choices=MODES, default="rfc1808", help="resolution rules (default rfc1808)"
    )
    ext.add_argument(
        "--select", metavar="CSS", help="only links inside elements matching this CSS selector"
    )
    ext.add_argument(
        "--parser", choices=("html5", "lxml"), help="html5: a browser's tree (default), or lxml"
    )
    add_filters(ext, "jsonl, csv, tsv, parquet; tsv by default on a terminal")
    ext.add_argument(
        "--attr",
        action="append",
        type=_attr_pair,
        dest="attributes",
        metavar="TAG:ATTR",
        help="also read this attribute of this element as a URL (TAG * for any; repeatable); "
        "its links have kind other and the problem code nonstandard-attribute",
    )
    ext.add_argument(
        "--charset",
        type=_charset,
        help="the transport's charset (as an HTTP Content-Type would give it): an Encoding "
        "Standard label",
    )
    ext.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress bar, no summary line, no note on --url on stderr (errors only)",
    )
    extractoptions.add_stats(ext)
    extractoptions.add_revisits(ext)
    ext.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of stdout"
    )
    resuming.add_resume(ext)
    ext.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="extract documents in N processes (0: one per CPU); output order is unchanged",
    )


def _extract_epilog() -> str:
    """What ``extract --help`` ends with: the fields, the exit status, examples."""
    import textwrap

    from ..resolve.link import COMPUTED_FIELDS, DEFAULT_FIELDS, ORIGIN_FIELDS, OWN_FIELDS

    def wrapped(text: str) -> str:
        return textwrap.fill(text, 78, initial_indent="  ", subsequent_indent="  ")

    return "\n".join(
        [
            "fields (--fields; jsonl writes all, csv and tsv the first twelve):",
            wrapped(", ".join(DEFAULT_FIELDS)),
            wrapped("then " + ", ".join(OWN_FIELDS[len(DEFAULT_FIELDS) :])),
            wrapped(
                "then where the document is stored and its own URL: " + ", ".join(ORIGIN_FIELDS)
            ),
            wrapped("computed when named: " + ", ".join(COMPUTED_FIELDS)),
            "",
            "exit status:",
            "  0  every input read (warnings, an oddity repaired, are said and allowed)",
            "  1  an input or a part of one could not be read (or a warning, with --strict)",
            "  2  a usage error",
            "  130, 128+N  interrupted (Ctrl-C), stopped by signal N",
            "",
            "examples:",
            "  baselinks extract page.html --url https://example.com/dir/page.html",
            "  baselinks extract crawl.warc.gz -o links.jsonl.gz",
            "  baselinks extract mirror/ --root-url https://example.com/ --format csv",
            "  baselinks extract crawl.warc.gz --external --unique=run --format text",
            "  baselinks extract crawl.warc.gz | jq -r '[.page_url, .url] | @tsv'",
            "  baselinks extract https://example.com/ --kind link --format text  (fsspec extra)",
            "",
            "man page and completion: baselinks --generate man|complete-bash|complete-zsh|"
            "complete-fish",
        ]
    )


def _add_url_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..url.resolve import MODES

    res = commands.add_parser(
        "resolve",
        help="resolve references against a base URL",
        description="Resolve each REF against BASE and print one absolute URL per line.",
    )
    res.add_argument("base", metavar="BASE", help="the base URL ('' for none)")
    res.add_argument(
        "refs", metavar="REF", nargs="+", help="embedded (relative) URLs; - reads one per line"
    )
    res.add_argument(
        "--mode", choices=MODES, default="rfc1808", help="resolution rules (default rfc1808)"
    )
    res.add_argument(
        "--explain", action="store_true", help="print every step and the problems found"
    )
    res.add_argument("--json", action="store_true", help="one JSON object per reference")

    par = commands.add_parser(
        "parse",
        help="split URLs into their RFC 1808 components",
        description="Print the six RFC 1808 §2.4 components and the RFC 1738 §3.1 login parts.",
    )
    par.add_argument("urls", metavar="URL", nargs="+", help="- reads one URL per line of stdin")
    par.add_argument("--json", action="store_true", help="JSON lines (the default when piped)")


def _add_check(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    chk = commands.add_parser(
        "check",
        help="check URLs against the RFC 1738 syntax of their scheme",
        description="Read each URL against the RFC 1738 §5 production of its scheme (httpurl, "
        "ftpurl, ...; genericurl for the others) and print the production, each component, "
        "and every rule it breaks with the RFC's words.",
    )
    chk.add_argument(
        "urls",
        metavar="URL",
        nargs="+",
        help="- reads one URL per line of stdin; exit 1 when one breaks a rule or is no "
        "absolute URL",
    )
    chk.add_argument("--json", action="store_true", help="JSON lines (the default when piped)")


def _jobs(value: str) -> int:
    from ..run.workers import MAX_WORKERS

    try:
        jobs = int(value)
    except ValueError:
        jobs = -1
    if not 0 <= jobs <= MAX_WORKERS:  # -j 99999999999999999999: was a traceback (islice)
        raise argparse.ArgumentTypeError(
            f"expected a number of processes from 0 (one per CPU) to {MAX_WORKERS:,}: "
            f"{printable(value)!r}"
        )
    return jobs


def _charset(value: str) -> str:
    from ..load.encoding import lookup  # webencodings: the Encoding Standard's labels

    if lookup(value) is None:
        raise argparse.ArgumentTypeError(
            f"unknown charset {printable(value)!r}: not an Encoding Standard label "
            "(utf-8, windows-1252, shift_jis, ...)"
        )
    return value


def _attr_pair(value: str) -> tuple[str, str]:
    tag, colon, attr = value.partition(":")
    if not colon or not tag.strip() or not attr.strip():
        raise argparse.ArgumentTypeError(f"expected TAG:ATTR (e.g. div:data-url): {value!r}")
    return tag.strip(), attr.strip()


def explicit_choices(parser: argparse.ArgumentParser, argv: Sequence[str]) -> None:
    """``--unique=all``, ``--stats=csv``: an option whose values are option strings of their
    own (``--unique=run``) given one it has not. argparse would say "ignored explicit
    argument"; this says the valid values, as a choice's error does (exits 2)."""
    commands = parser.get_default("subparsers") or {}
    command = next((commands[arg] for arg in argv if arg in commands), None)
    if command is None:
        return
    known = {opt for action in command._actions for opt in action.option_strings}
    for arg in argv:
        name, equals, value = arg.partition("=")
        if not equals or arg in known or not name.startswith("--"):
            continue
        values = sorted(opt.partition("=")[2] for opt in known if opt.startswith(name + "="))
        if values:
            command.error(
                f"argument {name}: invalid choice: {printable(value)!r} (choose from "
                f"{', '.join(values)})"
            )


def unrecognized(command: argparse.ArgumentParser, unknown: Sequence[str]) -> None:
    """A usage error in the subcommand's own words: its usage line, what it did not know, and
    the nearest option it has for each (``--fromat``: did you mean ``--format``?). argparse
    on Python 3.11 prints the top-level usage and suggests nothing (3.14 has suggest_on_error)."""
    import difflib

    known = [opt for action in command._actions for opt in action.option_strings]
    guesses = []
    for given in unknown:
        if given.startswith("-"):
            guesses += difflib.get_close_matches(given.partition("=")[0], known, n=1)
    message = f"unrecognized arguments: {' '.join(unknown)}"
    if guesses:
        message += f" (did you mean {' or '.join(dict.fromkeys(guesses))}?)"
    command.error(message)  # exits 2
