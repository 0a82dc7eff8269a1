"""The ``baselinks`` command: argument parsing and wiring only.

    baselinks resolve BASE REF [REF ...] [--mode MODE] [--explain] [--json]
    baselinks parse URL [URL ...] [--json]

Exit status: 0 when everything succeeded, 1 when some input failed (one line on stderr each,
the rest still processed), 2 for a usage error, 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from . import __version__
from .diagnose import diagnose
from .errors import URLError
from .resolve import MODES, Explanation, Resolver, Step, check_mode
from .url import URLParts, parse


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="baselinks",
        description="Resolve links against their base URL exactly as RFC 1808 defines it.",
    )
    parser.add_argument("--version", action="version", version=f"baselinks {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    res = commands.add_parser(
        "resolve",
        help="resolve references against a base URL",
        description="Resolve each REF against BASE and print one absolute URL per line.",
    )
    res.add_argument("base", metavar="BASE", help="the base URL ('' for none)")
    res.add_argument("refs", metavar="REF", nargs="+", help="embedded (relative) URLs")
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
    par.add_argument("urls", metavar="URL", nargs="+")
    par.add_argument("--json", action="store_true", help="JSON lines (the default when piped)")
    return parser


def _error(message: str) -> None:
    print(f"baselinks: {message}", file=sys.stderr)


def _components(parts: URLParts) -> str:
    return " ".join(f"{name}={value!r}" for name, value in parts._asdict().items())


def _print_explanation(exp: Explanation, problems: Sequence[str], out: TextIO) -> None:
    width = max([len("embedded")] + [len(step.rule) for step in exp.steps])
    rows: list[tuple[str, str]] = [
        ("base", exp.base),
        ("embedded", exp.embedded),
        ("mode", exp.mode),
    ]
    for step in exp.steps:
        rows.append((step.rule, step.action))
        rows.append(("", "  " + _components(step.parts)))
    rows.append(("result", exp.result))
    rows.append(("problems", ", ".join(problems) or "-"))
    for label, text in rows:
        print(f"{label:<{width}}  {text}", file=out)


def _resolve(args: argparse.Namespace, out: TextIO) -> int:
    resolver = Resolver(args.base, check_mode(args.mode))
    status = 0
    for ref in args.refs:
        trace: list[Step] = []
        try:
            result: str | None = resolver.resolve(ref, trace if args.explain else None)
        except URLError as exc:
            _error(str(exc))
            result, status = None, 1
        problems = diagnose(args.base, ref, result)
        if args.json:
            record = {
                "base": args.base,
                "ref": ref,
                "url": result,
                "mode": args.mode,
                "problems": list(problems),
            }
            if args.explain:
                record["steps"] = [
                    {"rule": s.rule, "action": s.action, "parts": s.parts._asdict()} for s in trace
                ]
            print(json.dumps(record, ensure_ascii=False), file=out)
        elif args.explain:
            exp = Explanation(
                args.base,
                ref,
                args.mode,
                result if result is not None else "(failed)",
                tuple(trace),
            )
            _print_explanation(exp, problems, out)
            print(file=out)
        elif result is not None:
            print(result, file=out)
    return status


def _parse(args: argparse.Namespace, out: TextIO) -> int:
    as_json = args.json or not out.isatty()
    for url in args.urls:
        parts = parse(url)
        login = parts.login()
        if as_json:
            record = {
                "url": url,
                **parts._asdict(),
                "has_netloc": parts.has_netloc,
                **login._asdict(),
            }
            print(json.dumps(record, ensure_ascii=False), file=out)
            continue
        print(url, file=out)
        for name, value in {**parts._asdict(), **login._asdict()}.items():
            print(f"  {name:<9} {value!r}", file=out)
    return 0


_COMMANDS = {"resolve": _resolve, "parse": _parse}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status instead of exiting."""
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 for --help/--version
        return int(exc.code or 0)
    out = sys.stdout
    try:
        return _COMMANDS[args.command](args, out)
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python from complaining
        # again when it flushes stdout at exit (the recipe in CPython's signal docs).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
