"""Every exception baselinks raises on purpose derives from one root.

    BaselinksError                  the root: ``except baselinks.BaselinksError`` catches them all
     ├── URLError (ValueError)      a URL the chosen mode cannot parse or resolve (whatwg failures),
     │                              or an unknown resolution mode; the message names the input
     ├── SelectError (ValueError)   a ``select`` CSS selector that cannot be parsed
     └── InputError                 a file, archive record or MIME part that cannot be read (whole):
          │                         truncated, damaged, over a size or nesting limit, not a document
          └── InputWarning          an oddity repaired, the input read in full: nothing lost
              (also a UserWarning)  (a WARC record split over gzip members, a MIME header line
                                    without a colon); the library hands it to ``on_warning``, or
                                    issues it with ``warnings.warn``; never raised after a read

Messages say where: the offending input with ``repr()``, and the file, offset or line when known.
"""

from __future__ import annotations

import codecs
import contextlib
import re
import sys

__all__ = [
    "BIDI",
    "CONTROLS",
    "SCALAR",
    "BaselinksError",
    "InputError",
    "InputWarning",
    "SelectError",
    "URLError",
    "describe",
    "internal",
    "out_of_memory",
    "printable",
    "raise_first",
    "say",
    "scalar",
]


class BaselinksError(Exception):
    """Root of every error baselinks raises deliberately."""


class URLError(BaselinksError, ValueError):
    """A URL could not be parsed or resolved in the requested mode.

    It is a :class:`ValueError`, so code written against ``urllib.parse`` or ada-url keeps working.
    """


class SelectError(BaselinksError, ValueError):
    """The ``select`` CSS selector could not be parsed; the message quotes it."""


class InputError(BaselinksError):
    """An input, or a part of one, could not be read completely.

    ``name`` is what the ``document`` field would say (the file, plus the WARC record's target
    URI or the MIME part); ``offset`` the byte offset in the file where the damage was met, when
    known. ``str()`` gives the one line the command line prints.
    """

    def __init__(self, message: str, name: str = "", offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.name = name
        self.offset = offset

    def located(self, name: str, offset: int | None = None) -> InputError:
        """The same error (a warning stays one), naming ``name`` when it had no name yet, and
        ``offset`` when it had none."""
        if self.name and (offset is None or self.offset is not None):
            return self
        where = self.offset if self.offset is not None else offset
        return type(self)(self.message, self.name or name, where)

    def __str__(self) -> str:
        where = self.name or "-"
        if self.offset is not None:
            where += f": offset {self.offset}"
        return f"{where}: {self.message}"


class InputWarning(InputError, UserWarning):
    """An oddity of an input that was repaired, the input read in full: nothing was lost.

    A WARC record split over gzip members (read across them), a MIME header line without a
    colon (skipped, the headers after it read), a MIME boundary that never occurs (the first
    delimiter line's used)... The command line prints it as ``baselinks: warning: ...``, counts
    it apart from failures and exits 0 for it unless ``--strict``; the library hands it to
    ``on_warning``, else issues it with :func:`warnings.warn` (it is a :class:`UserWarning`),
    and never raises it after a read. Where data may have been lost it is an
    :class:`InputError` instead: the classification is docs/reference.md's table.
    """


def internal(exc: BaseException) -> str:
    """The message for an exception no input should cause: a bug, reported and passed over.
    Running out of memory is no bug: said as such (it was "internal error (a bug ...)")."""
    if out_of_memory(exc):
        return "out of memory: not read"
    return f"internal error (a bug in baselinks, please report it): {type(exc).__name__}: {exc}"


# libxml2's error code for an allocation that failed (xmlerror.h: XML_ERR_NO_MEMORY).
_XML_ERR_NO_MEMORY = 2


def out_of_memory(exc: BaseException) -> bool:
    """Whether ``exc`` says memory ran out: Python's MemoryError, or lxml's parse error for
    libxml2's failed allocation, which lxml words "unknown error" (``XMLSyntaxError: unknown
    error``, from a 50 MB page under a 700 MB address-space limit: it was reported as a bug).
    lxml is not imported here: its error is known by its code and its log."""
    if isinstance(exc, MemoryError):
        return True
    if not isinstance(exc, SyntaxError) or not type(exc).__module__.startswith("lxml"):
        return False
    log = getattr(exc, "error_log", None) or ()
    return getattr(exc, "code", None) == _XML_ERR_NO_MEMORY or any(
        getattr(entry, "type", None) == _XML_ERR_NO_MEMORY for entry in log
    )


def describe(exc: BaseException) -> str:
    """What an exception met while reading an input says: the system's words for an OSError
    (``No such file or directory``), an :class:`InputError`'s message (a URL that needs the
    fsspec extra), else that it is a bug (:func:`internal`)."""
    if isinstance(exc, InputError):
        return exc.message
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return internal(exc)


def raise_first(errors: list[InputError]) -> None:
    """Raise the first of ``errors``, the others attached as notes (nothing when none): how a
    stream without ``on_error`` reports its damage after its last link."""
    if errors:
        first = errors[0]
        for other in errors[1:]:
            first.add_note(str(other))
        raise first


# The character classes every escaping agrees on, as regex class bodies (one source: the
# control-character code in url/diagnose.py, the text and tsv formats in write/formats.py, and
# printable() below). CONTROLS: the C0 controls, DEL, the C1 controls (U+009B is a one-character CSI
# to some terminals) and the line and paragraph separators (U+2028, U+2029: str.splitlines() splits
# there). BIDI: the bidirectional embeddings, overrides and isolates, which reorder what a person
# reads ("Trojan Source", CVE-2021-42574).
CONTROLS = r"\x00-\x1f\x7f-\x9f\u2028\u2029"
BIDI = r"\u202a-\u202e\u2066-\u2069"

# What a terminal must not receive from an input: the C0 controls (ESC starts "ESC]0;title BEL"
# and "ESC[2J"), DEL, the C1 controls (U+009B is a one-character CSI to some terminals), the
# line and paragraph separators, the bidirectional overrides and isolates (they reorder what a
# person reads: "Trojan Source", CVE-2021-42574), and lone surrogates (a file name that is not
# UTF-8, decoded with surrogateescape, cannot even be encoded for output). One character
# class: a search is linear.
_UNPRINTABLE = re.compile(rf"[{CONTROLS}{BIDI}\ud800-\udfff]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the byte that was not UTF-8
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    r"""``text`` for a terminal: each control character written as an escape, as Python's
    ``repr`` writes it (``\n``, ``\x1b``, ``\u2028``); everything else as it is.

    Every line baselinks prints on stderr, and the ``table`` format, go through it: a URL or a
    ``WARC-Target-URI`` holding ``ESC]0;...BEL`` cannot retitle the terminal, nor a newline
    forge a second error line. For a person to read: a backslash is not doubled.
    """
    if _UNPRINTABLE.search(text) is None:
        return text
    return _UNPRINTABLE.sub(_escape, text)


# A lone surrogate (U+D800-U+DFFF) is a code point but no Unicode scalar value: no UTF-8 holds
# one, and every writer's encoder refuses it (a UnicodeEncodeError that ended the run). Python
# makes them of what escapes spell (a CSS "url(\D800)" through tinycss2, JSON's "\ud800"), and
# of bytes that are not UTF-8 (a command-line argument, decoded with surrogateescape).
_SURROGATE = re.compile("[\ud800-\udfff]")


def scalar(text: str) -> str:
    """``text`` as valid Unicode: each lone surrogate replaced by U+FFFD, as CSS Syntax
    ("consume an escaped code point": "if this number is zero, or is for a surrogate, or is
    greater than the maximum allowed code point, return U+FFFD") and the Encoding Standard
    (an invalid byte sequence decodes to U+FFFD) make it. What a reader hands on is made so
    where it enters the pipeline; the writers write what is left so too (write/output.py).
    Noncharacters (U+FDD0, U+FFFE...) are scalar values, and kept."""
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub("\ufffd", text)


def _scalar_encoding(error: UnicodeError) -> tuple[bytes, int]:
    if not isinstance(error, UnicodeEncodeError) or error.encoding not in ("utf-8", "utf8"):
        raise error
    # U+FFFD as bytes: the UTF-8 encoder takes a str replacement only when it is ASCII
    return "\ufffd".encode() * (error.end - error.start), error.end


# The error handler of every UTF-8 stream the writers encode into (``errors=SCALAR``): what no
# UTF-8 holds (a lone surrogate, in a Link made by a program rather than by the pipeline) is
# written U+FFFD, never refused. Registered once, under a name of ours.
SCALAR = "baselinks.scalar"
codecs.register_error(SCALAR, _scalar_encoding)


def say(message: str) -> None:
    """``baselinks: message`` on stderr, one line, its control characters escaped
    (:func:`printable`); when stderr is gone (a hung-up terminal), nothing, never a crash."""
    with contextlib.suppress(OSError):
        print(f"baselinks: {printable(message)}", file=sys.stderr)
