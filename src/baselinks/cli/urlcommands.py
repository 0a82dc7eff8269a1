"""``baselinks resolve``, ``parse`` and ``check``: the URL engine at the command line.

Each takes the parsed arguments and the output stream and returns the exit status; app.py does
the wiring. They import what they use when they run (the URL engine only: no HTML parser).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator, Sequence

from ..errors import URLError, printable, scalar
from ..errors import say as _error

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any, TextIO

    from ..url.parts import URLParts
    from ..url.resolve import Explanation

__all__ = ["check_command", "parse_command", "resolve_command"]


def _given(values: Sequence[str]) -> Iterator[str]:
    """The URLs given, ``-`` read as one URL per line of standard input (its line break
    stripped; an empty line is the empty URL), as ``xargs`` would hand them over. Bytes that
    are not UTF-8 (Python's lone surrogates) are U+FFFD, as in every text baselinks reads
    (errors.scalar)."""
    import sys

    for value in values:
        if value != "-":
            yield scalar(value)
            continue
        stream = sys.stdin
        if stream is None:
            return
        for line in stream:
            yield scalar(line.rstrip("\r\n") if line.endswith("\n") else line)


# What JSON leaves raw in a string but a line splitter breaks at or a terminal acts on: DEL,
# the C1 controls (U+0085 is NEL, a line end to str.splitlines()), U+2028 and U+2029. Written
# as \uXXXX, as the jsonl format writes them (write/jsonl.py): one record, one line.
_JSON_UNSAFE = re.compile(r"[\x7f-\x9f\u2028\u2029]")


def _json_line(record: dict[str, Any]) -> str:
    import json

    text = json.dumps(record, ensure_ascii=False)
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


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
        print(f"{label:<{width}}  {printable(text)}", file=out)


def resolve_command(args: argparse.Namespace, out: TextIO) -> int:
    from ..url.diagnose import diagnose
    from ..url.resolve import Explanation, Resolver, Step, check_mode

    base = scalar(args.base)
    resolver = Resolver(base, check_mode(args.mode))
    status = 0
    for ref in _given(args.refs):
        trace: list[Step] = []
        try:
            result: str | None = resolver.resolve(ref, trace if args.explain else None)
        except URLError as exc:
            _error(str(exc))
            result, status = None, 1
        problems = diagnose(base, ref, result)
        if args.json:
            record: dict[str, Any] = {
                "base": base,
                "ref": ref,
                "url": result,
                "mode": args.mode,
                "problems": list(problems),
            }
            if args.explain:
                record["steps"] = [
                    {"rule": s.rule, "action": s.action, "parts": s.parts._asdict()} for s in trace
                ]
            print(_json_line(record), file=out)
        elif args.explain:
            exp = Explanation(
                base,
                ref,
                args.mode,
                result if result is not None else "(failed)",
                tuple(trace),
            )
            _print_explanation(exp, problems, out)
            print(file=out)
        elif result is not None:
            # one URL a line: a newline (or ESC) in an argument, kept by rfc1808 mode, was
            # printed raw, a second line or a terminal's escape sequence
            print(printable(result), file=out)
    return status


def parse_command(args: argparse.Namespace, out: TextIO) -> int:
    from ..url.parts import parse

    as_json = args.json or not out.isatty()
    for url in _given(args.urls):
        parts = parse(url)
        # the login's parts as written (strings), then what urllib's SplitResult calls hostname
        # and port: the host in lower case, and the port as an int (the scheme's RFC 1738
        # default when none is written); "port_number" because "port" is the written string
        fields = {
            **parts._asdict(),
            "has_netloc": parts.has_netloc,
            **parts.login()._asdict(),
            "hostname": parts.hostname,
            "port_number": parts.port,
        }
        if as_json:
            print(_json_line({"url": url, **fields}), file=out)
            continue
        print(printable(url), file=out)
        for name, value in fields.items():
            print(f"  {name:<11} {value!r}", file=out)
    return 0


def check_command(args: argparse.Namespace, out: TextIO) -> int:
    """1 when some URL breaks a rule, or is no absolute URL at all (``""``, ``-``'s lines,
    ``www.example.com/x``: a relative reference), as a linter exits, so that a script can
    test it."""
    from ..url.rfc1738 import analyse

    as_json = args.json or not out.isatty()
    broken = False
    for url in _given(args.urls):
        found = analyse(url)
        broken = broken or bool(found.problems) or not found.production
        if as_json:
            record = {
                "url": url,
                "production": found.production,
                "components": [
                    {"name": c.name, "text": url[c.start : c.end], "start": c.start, "end": c.end}
                    for c in found.components
                ],
                "problems": [p._asdict() for p in found.problems],
            }
            print(_json_line(record), file=out)
            continue
        print(url if url.isprintable() else repr(url), file=out)
        production = found.production or "- (a relative reference: not an RFC 1738 URL)"
        print(f"  {'production':<14} {production}", file=out)
        for c in found.components:
            print(f"  {c.name:<14} {url[c.start : c.end]!r}", file=out)
        for p in found.problems:
            print(f"  ! {p.code} in {p.component} [{p.span[0]}:{p.span[1]}]: {p.rule}", file=out)
        if found.production and not found.problems:
            print("  ok: no rule broken", file=out)
    return 1 if broken else 0
