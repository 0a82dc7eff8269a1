"""html5: which parser builds a document's tree, and the HTML5 one's Python side.

Two parsers give the walker its lxml tree (docs/guide/parsers.md says why, and how they differ):

* ``"html5"``: the HTML standard's tree construction, as a browser builds the DOM (§13.2.6), by
  lexbor 3.1.0 (vendored in vendor/lexbor, compiled into ``load/_chtml5``), copied into libxml2
  nodes in C. The default wherever it is built and binds.
* ``"lxml"``: lxml's HTML parser (libxml2's, which predates HTML5 tree construction), with the
  repairs load/document.py makes to it. Always there; what runs without a C compiler, on
  Windows, and where the HTML5 parser's checks below fail.

The HTML5 parser couples to one other package's binary interface, lxml's libxml2 (as the
compiled walk does), and checks it once, on first use: the platform; the extension built and
importable; lxml of a major version it was tested with; libxml2 2.x; each libxml2 function
found in lxml.etree's shared object; and a self-test document parsed to a known tree. Where one
fails, :func:`choose` says so in one warning (:class:`ParserWarning`) and gives ``"lxml"``.
``BASELINKS_PURE=1`` does not turn it off: it is not a faster copy of a pure-Python module but
another parser, whose output differs from lxml's by the documented classes.
"""

from __future__ import annotations

import importlib
import os
import sys
import warnings
from functools import cache
from types import ModuleType
from typing import Any

from .tokens import flatten

__all__ = [
    "ENV",
    "LEXBOR_VERSION",
    "MAX_DEPTH",
    "MAX_NAMES",
    "PARSERS",
    "ParserWarning",
    "choose",
    "engine",
    "parse_only",
    "parsed",
    "tree",
    "unavailable",
    "valid_utf8",
]

PARSERS = ("html5", "lxml")
# The environment variable that chooses the parser when the caller does not (CI runs the suite
# once more with BASELINKS_PARSER=lxml); a parser given by the caller wins over it.
ENV = "BASELINKS_PARSER"
LEXBOR_VERSION = "3.1.0"  # vendor/lexbor/version
# lxml's major versions the HTML5 parser was built and tested against (pyproject pins lxml<7):
# the copy writes libxml2's xmlNode and xmlAttr, which lxml 5 and 6 (libxml2 2.9 to 2.14) share.
LXML_MAJORS = (5, 6)

# The stack of open elements grows by one for each start tag not closed, and each start tag
# walks it to see what is in scope: the work of a document nested n deep grows as n squared
# (20,000 nested <div>: 1.1 s). Past MAX_DEPTH open elements (Blink's parser stops nesting at
# 512, kMaximumHTMLParserDOMTreeDepth) the document is parsed again with every element deeper
# than that closed at once (tokens.flatten, as the lxml path does past libxml2's limit); should
# the stack still grow past twice that, libxml2 parses it.
MAX_DEPTH = 512
# lexbor keeps the tag and attribute names it does not know in a hash of 128 buckets that never
# grows (core/hash.c): 200,000 distinct custom elements took 23 s. Past this many names of its
# own a document is given to libxml2, which is linear there. The shared corpus's most, for
# scale: between 128 and 256 (3 of its 316 pages have more than 128).
MAX_NAMES = 4096


class ParserWarning(RuntimeWarning):
    """The HTML5 parser cannot be used here: lxml's parses instead (the message says why)."""


_ENGINE = "baselinks.load._chtml5"
# The self-test: a document that takes each path of the copy (attributes, lines, a <noscript>
# read again as elements, <template> contents, an SVG name in lower case, an adoption-agency
# clone), and the tree it must give, as lxml writes it, with each element's line.
_PROBE = (
    b"<html lang=en><head><noscript><link href=n.css></noscript></head>\n"
    b"<template><a href=t>x</a></template><svg><foreignObject>\n"
    b"<a xlink:href=s>y</a></foreignObject></svg><a href=c><p>z</a>"
)
_PROBE_TREE = (
    b'<html lang="en"><head><noscript><link href="n.css"/></noscript><template><a href="t">x'
    b'</a></template></head>\n<body><svg><foreignobject>\n<a xlink:href="s">y</a>'
    b'</foreignobject></svg><a href="c"/><p><a href="c">z</a></p></body></html>'
)
_PROBE_LINES = (1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3)


@cache
def _bound() -> tuple[ModuleType | None, str]:
    """The extension, bound to lxml's libxml2 and self-tested; or None and why not."""
    if sys.platform == "win32":
        return None, "lxml exports no libxml2 function on Windows"
    try:
        engine = importlib.import_module(_ENGINE)
    except ImportError:
        return None, "not built (no C compiler at install, or BASELINKS_PURE=1 then)"
    except (ValueError, RuntimeError, RuntimeWarning) as exc:  # as compiled.load: another lxml
        return None, f"built against another lxml than this one ({exc}): reinstall baselinks"
    from lxml import etree

    if etree.LXML_VERSION[0] not in LXML_MAJORS:
        found = ".".join(map(str, etree.LXML_VERSION[:3]))
        return None, f"lxml {found} is not a version it was tested with (5.x, 6.x)"
    if not (2, 9) <= etree.LIBXML_VERSION < (3,):
        found = ".".join(map(str, etree.LIBXML_VERSION))
        return None, f"lxml runs libxml2 {found}; the copy knows libxml2 2.9 to 2.x"
    missing = engine.bind(str(etree.__file__))
    if missing:
        return None, missing
    return (engine, "") if _self_test(engine) else (None, "its self-test gave another tree")


def _self_test(engine: Any) -> bool:
    from lxml import etree

    root, _ = engine.tree(_PROBE, MAX_DEPTH, MAX_NAMES)
    if root is None:
        return False
    lines = tuple(element.sourceline for element in root.iter(etree.Element))
    return bool(etree.tostring(root) == _PROBE_TREE and lines == _PROBE_LINES)


def unavailable() -> str:
    """Why the HTML5 parser cannot be used here ("" when it can)."""
    return _bound()[1]


_warned: set[str] = set()


def choose(parser: str | None) -> str:
    """The parser to use: ``parser`` ("html5" or "lxml"); None: ``BASELINKS_PARSER``, else
    "html5" where it can be used, else "lxml".

    Where "html5" is asked for and cannot be used, one :class:`ParserWarning` says why (once per
    process) and "lxml" is given; so it is when nothing is asked for and the parser is built
    but fails its checks. Not built and not asked for, "lxml" is the default, said by
    ``baselinks --version`` alone.
    """
    asked = parser if parser is not None else os.environ.get(ENV) or None
    if asked is not None and asked not in PARSERS:
        where = "parser" if parser is not None else ENV
        raise ValueError(f"unknown {where} {asked!r}: expected {' or '.join(PARSERS)}")
    if asked == "lxml":
        return "lxml"
    why = unavailable()
    if not why:
        return "html5"
    if (asked == "html5" or not why.startswith("not built")) and why not in _warned:
        _warned.add(why)
        warnings.warn(
            f"the HTML5 parser cannot be used: {why}; lxml's parser reads the documents "
            "instead (docs/guide/parsers.md)",
            ParserWarning,
            stacklevel=2,
        )
    return "lxml"


def tree(data: bytes) -> Any | None:
    """The lxml root (``<html>``) of ``data`` (UTF-8 bytes) as a browser builds it; None when
    libxml2 must parse it instead: the parser is not there, or a limit above was passed."""
    engine = _bound()[0]
    if engine is None:
        return None
    root, why = engine.tree(data, MAX_DEPTH, MAX_NAMES)
    if why == engine.DEEP:
        root, why = engine.tree(flatten(data, MAX_DEPTH), 2 * MAX_DEPTH, MAX_NAMES)
    return root


def parsed(data: bytes) -> Any | None:
    """``data`` (UTF-8 bytes) as lexbor parsed it, kept as lexbor's own nodes
    (``_chtml5.Parsed``: its native walk, its first <base href>, its lxml tree when asked);
    None where :func:`tree` would give None. The limits are :func:`tree`'s."""
    engine = _bound()[0]
    if engine is None:
        return None
    found, why = engine.parse(data, MAX_DEPTH, MAX_NAMES)
    if why == engine.DEEP:
        found, why = engine.parse(flatten(data, MAX_DEPTH), 2 * MAX_DEPTH, MAX_NAMES)
    return found


def engine() -> ModuleType | None:
    """The HTML5 parser's extension, bound and self-tested; None where it cannot be used."""
    return _bound()[0]


def valid_utf8(data: bytes) -> bool:
    """Whether ``data`` is well-formed UTF-8 (lexbor reads any byte without a word)."""
    engine = _bound()[0]
    if engine is not None:
        return bool(engine.valid_utf8(data))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def parse_only(data: bytes) -> int:
    """lexbor's parse alone, with its lines and limits, and a pass over its nodes: their count
    (benchmarks/bench_peers.py's "the engine's parse alone")."""
    engine = _bound()[0]
    if engine is None:
        raise RuntimeError(f"the HTML5 parser cannot be used: {unavailable()}")
    return int(engine.parse_only(data, MAX_DEPTH, MAX_NAMES))
