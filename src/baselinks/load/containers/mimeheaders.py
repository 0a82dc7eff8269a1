"""MIME headers as the walker reads them: the email package's default policy, bounded against
hostile values, and the base headers of an entity (mime.py's table, RFC 2110 §4.2, RFC 1808
§3.1, RFC 2557 §4.2). The body's walk and its repairs are mime.py's.
"""

from __future__ import annotations

import functools
import re
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.policy import EmailPolicy
from typing import Any

__all__ = ["LONG_HEADER", "MAX_BOUNDARY", "WHITESPACE", "base_header", "parse"]

_BASE_HEADERS = ("content-base", "base", "content-location")
# RFC 1808 §3.1: "Base: <URL:http://...>"; RFC 1738 Appendix: whitespace inside the brackets
# is ignored. Also the bare forms, quoted or not. Anchored at the start, on one header
# value: the lazy group grows one character at a time and each step tests two characters.
_URL_WRAPPER = re.compile(r"^<?(?:URL:)?(.*?)>?$", re.IGNORECASE | re.DOTALL)
WHITESPACE = re.compile(r"\s+")


class _Policy(EmailPolicy):
    """``policy.default``, except for a header value longer than :data:`LONG_HEADER`.

    The default policy parses a header into an object on every access, and the parser itself
    reads the Content-Type about 13 times per entity: a Content-Type of n parameters took
    super-linear time (2,000 parameters: 1.7 s; 8,000: 11 s), a Content-Location folded n
    times quadratic time. A value that long is hostile or broken: it is unfolded (linear) and
    given as a plain string, a Content-Type reduced to its type and the parameters read here
    (charset, boundary, type, start). Shorter values, every real one, are parsed as before.
    """

    def header_fetch_parse(self, name: str, value: str) -> Any:
        if self is _POLICY and len(value) <= LONG_HEADER and not hasattr(value, "name"):
            return _fetched(name, value)
        return self.fetch(name, value)

    def fetch(self, name: str, value: str) -> Any:
        """A header's value as :meth:`header_fetch_parse` gives it, parsed each time."""
        if name.lower() in _BASE_HEADERS and _UNDECODABLE.search(value):
            # Bytes that are not UTF-8 in a URL header (a Latin-1 "é" written raw): the default
            # policy makes each a U+FFFD, and the base loses them without a word. They are
            # kept, percent-encoded, as a URL carries bytes (RFC 3986 §2.1).
            text = value.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
            return _UNDECODABLE.sub(lambda m: f"%{ord(m.group()) - 0xDC00:02X}", text).strip()
        if len(value) <= LONG_HEADER or hasattr(value, "name"):
            return super().header_fetch_parse(name, value)
        unfolded = _FOLD.sub(" ", value).strip()
        if name.lower() != "content-type":
            return unfolded
        media_type = unfolded.partition(";")[0].strip()
        kept = (
            match.group()
            for match in _KEPT_PARAMETER.finditer(unfolded)
            # a boundary (or another value) over the limit: none
            if len(match.group().partition("=")[2].strip(' \t"')) <= MAX_BOUNDARY
        )
        return "; ".join((media_type, *kept))


# Longer than any real header value: RFC 5322 §2.1.1 lines are at most 998 characters.
LONG_HEADER = 1024
# RFC 2046 §5.1.1: "boundary := 0*69<bchars> bcharnospace", 70 characters at most; mail that
# breaks the rule is read up to the length of a header value that is not hostile. A longer
# boundary parameter is dropped where such a value is read (_Policy.fetch), and one found in
# the body (its first delimiter line) is not used.
MAX_BOUNDARY = LONG_HEADER
_FOLD = re.compile(r"\r?\n[ \t]*")  # literal, then one class: linear
_UNDECODABLE = re.compile("[\udc80-\udcff]")  # bytes the parser kept as surrogates
# A parameter the walker reads, after a ";": quoted-pairs inside quotes, or a plain token.
# The alternatives start with different characters: no backtracking. Possessive, and the
# quoted string's loop unrolled: "(?:[^"\\]|\\.)*" kept a mark per character for backtracking
# (40 MB for a quoted boundary of 300,000 characters).
_KEPT_PARAMETER = re.compile(
    r"(?<=;)[ \t]*+(?:charset|boundary|type|start)[ \t]*+=[ \t]*+"
    r'(?:"[^"\\]*+(?:\\.[^"\\]*+)*+"|[^;\s]*+)',
    re.IGNORECASE,
)
_POLICY = _Policy()


@functools.lru_cache(maxsize=512)
def _fetched(name: str, value: str) -> Any:
    """``_POLICY``'s reading of a header value, made once per (name, value): the parser and the
    walker ask for the same header again and again (an entity's Content-Type about 13 times,
    each a parse into an object: a third of the time of reading the corpus MHTML). The header
    objects are immutable. Bounded: 512 values, each at most LONG_HEADER characters."""
    return _POLICY.fetch(name, value)


def parse(data: bytes) -> EmailMessage:
    """A message parsed by the email package under the bounded policy (:class:`_Policy`)."""
    message = BytesParser(policy=_POLICY).parsebytes(data)
    assert isinstance(message, EmailMessage)
    return message


def base_header(entity: Message) -> str | None:
    """The base an entity's own headers give (see the table above), unwrapped, or ``None``."""
    for name in _BASE_HEADERS:
        value = entity.get(name)
        if value is None:
            continue
        # RFC 2557 §4.4.2: a long URI may be folded; the whitespace is not part of it.
        url = WHITESPACE.sub("", str(value)).strip("\"'")
        match = _URL_WRAPPER.match(url)
        url = match.group(1) if match else url
        if url:
            return url
    return None
