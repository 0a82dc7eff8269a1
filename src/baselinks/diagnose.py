"""Short, stable problem codes for a reference and its resolution (the ``problems`` field).

Each code names one thing a careful reader of the RFCs would point out. The order of the returned
tuple is the order of :data:`CODES`, so output is stable.

============================  ==============================================================
``no-base``                   a relative reference with no base (RFC 1808 §3.4: the base is
                              the empty string), reported as written
``unresolvable``              the mode could not resolve it (a WHATWG URL parser failure)
``invalid-character``         a character the RFC 1808 / RFC 1738 grammar says must be escaped:
                              space, ``< > " { } | \\ ^ ```, controls, non-ASCII (RFC 1738
                              §2.2). ``~ [ ]`` are *not* flagged: RFC 3986 made ``~``
                              unreserved and ``[ ]`` delimit IPv6 literals (RFC 2732)
``bad-escape``                a ``%`` not followed by two hex digits (RFC 1738 §2.2)
``scheme-relative-loophole``  ``http:g`` against an ``http`` base: the scheme is repeated
                              without a net_loc, which old parsers resolved relatively;
                              "should be avoided by future parsers" (RFC 1808 §5.2)
``colon-in-first-segment``    a relative path whose first segment holds a ``:``, or a scheme
                              RFC 3986 would not accept (``1a:b``): parsers disagree on whether
                              it is a scheme; write ``./this:that`` (RFC 1808 §5.3)
``unsuitable-base``           a relative reference against a base that does not use the
                              generic-RL syntax (``mailto:``, ``news:``, ``data:``...; RFC 1808
                              §2 and §2.3: relative URLs apply only to those schemes)
``dot-segments-above-root``   a ``..`` segment left in the result: more ``..`` than the base
                              has levels (RFC 1808 §5.2)
``control-character``         the result holds a control character (C0, DEL, C1) or a line
                              separator (U+2028, U+2029), from the reference or the base:
                              ``--format text`` writes it percent-encoded (RFC 1738 §2.2:
                              controls "are not printable")
============================  ==============================================================
"""

from __future__ import annotations

import re
from functools import lru_cache

from .url import SCHEME_RE, split

__all__ = ["CODES", "CONTROL_CHARACTERS", "diagnose"]

CODES = (
    "no-base",
    "unresolvable",
    "invalid-character",
    "bad-escape",
    "scheme-relative-loophole",
    "colon-in-first-segment",
    "unsuitable-base",
    "dot-segments-above-root",
    "control-character",
)

# What control-character flags, and what --format text percent-encodes (write.py): one line per
# URL for every reader, including those that split at U+0085, U+2028 and U+2029.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")

# One character class each: a search is linear in the input, no backtracking possible.
_INVALID = re.compile(r'[\x00-\x20\x7f-\U0010ffff<>"{}|\\^`]')
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_RFC3986_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_DOTDOT = re.compile(r"(?:^|/)\.\.(?:/|$)")

# Schemes that do not use the generic-RL syntax (RFC 1808 §2.3 names mailto and news; the rest
# are later schemes with the same opaque shape). A base with one of these cannot anchor a
# relative reference.
_OPAQUE_SCHEMES = frozenset(
    {"mailto", "news", "data", "javascript", "urn", "tel", "sms", "about", "cid", "mid", "blob"}
)


@lru_cache(maxsize=256)
def _base_facts(base: str) -> tuple[str, bool]:
    """The base's scheme in lower case, and whether it is unsuitable for relative references.

    Cached: a document's links all share one base, and diagnose runs once per link.
    """
    scheme, netloc, path, _, _, _ = split(base)
    scheme = scheme.lower()
    # Any scheme without "//" and without an absolute path is opaque too ("foo:bar").
    opaque = bool(scheme) and netloc is None and not path.startswith("/")
    return scheme, scheme in _OPAQUE_SCHEMES or opaque


# Relative reference: the path is what precedes the first "#", "?" or ";" (RFC 1808 §2.4.1,
# §2.4.4, §2.4.5), unless "//" starts a net_loc, and its first segment runs to the first "/".
# So a ":" in the first segment is a ":" before any of "/?#;". One character class: linear.
_COLON_IN_FIRST = re.compile(r"[^/?#;]*:")


def diagnose(base: str, embedded: str, result: str | None) -> tuple[str, ...]:
    """Return the problem codes for ``embedded`` resolved against ``base``.

    ``result`` is what the resolver returned, or ``None`` when it failed (``unresolvable``).
    """
    # Runs once per link, so each test is one C-level call on the string; the components are
    # never split out. tests/test_diagnose.py checks it against a literal reading of the table
    # above that splits everything (RFC 1808 §2.4).
    no_base = loophole = colon = unsuitable = False
    match = SCHEME_RE.match(embedded)
    if match is not None:
        # "http:g": a scheme, and no "//" after it (the net_loc is absent)
        if base and not embedded.startswith("//", match.end()):
            loophole = embedded[: match.end() - 1].lower() == _base_facts(base)[0]
        colon = _RFC3986_SCHEME.match(embedded) is None
    else:
        colon = ":" in embedded and _COLON_IN_FIRST.match(embedded) is not None
        if not base:
            no_base = bool(embedded)
        else:
            unsuitable = _base_facts(base)[1]
    invalid = _INVALID.search(embedded) is not None
    bad_escape = "%" in embedded and _BAD_ESCAPE.search(embedded) is not None
    above_root = (
        result is not None and ".." in result and _DOTDOT.search(split(result)[2]) is not None
    )
    control = result is not None and CONTROL_CHARACTERS.search(result) is not None
    if not (
        no_base
        or result is None
        or invalid
        or bad_escape
        or loophole
        or colon
        or unsuitable
        or above_root
        or control
    ):
        return ()
    flags = (
        no_base, result is None, invalid, bad_escape, loophole, colon, unsuitable, above_root,
        control,
    )  # fmt: skip
    return tuple(code for code, on in zip(CODES, flags, strict=True) if on)
