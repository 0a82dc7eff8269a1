"""What the whatwg mode adds to resolution beside ada-url: the URL Standard's own rules.

* :data:`SERIALISED`: the shapes of reference that the URL Standard's parser writes back
  unchanged against an http(s) base, so that resolve._WHATWG answers them without the parser;
* :func:`encode_query`: HTML's "encoding-parse a URL", the query in the document's encoding.

Standard library only (ada-url is resolve.py's); split from resolve.py, which keeps the
resolvers.
"""

from __future__ import annotations

import codecs
import re

__all__ = ["SERIALISED", "encode_query"]

# The references that the URL Standard's parser writes back as they are, against an http(s)
# base (https://url.spec.whatwg.org/#concept-url-serializer): a scheme in lower case; a host of
# lower-case ASCII labels, the last beginning with a letter (so no IPv4 number: "ends in a
# number"), none beginning "xn--" (Punycode, which is checked); no userinfo, no port (a default
# one is removed); a path after the host; and only characters that no percent-encode set holds
# (https://url.spec.whatwg.org/#path-percent-encode-set, the special-query and fragment sets),
# ASCII and no backslash (a "/" in special URLs), no tab or newline (removed). Dot segments
# ("/./", "/..", "%2e") are refused by resolve() with three substring tests.
_LABEL = r"(?!xn--)[a-z0-9]++(?:-++[a-z0-9]++)*+"
_HOST = rf"(?:{_LABEL}\.)*+(?!xn--)[a-z][a-z0-9]*+(?:-++[a-z0-9]++)*+"
_PATH = r"(?:/[A-Za-z0-9\-._~!$&'()*+,;=:@%]*+)++"
_REST = r"(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*+)?+(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*+)?+"
SERIALISED = re.compile(
    rf"(?P<absolute>https?://{_HOST}{_PATH}{_REST})"
    rf"|(?P<netloc>//{_HOST}{_PATH}{_REST})"
    rf"|(?P<path>(?!//){_PATH}{_REST})"
    r"|(?P<fragment>#[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*+)"
)


# https://url.spec.whatwg.org/#special-query-percent-encode-set: C0 controls, space, '"', "#",
# "<", ">", "'" and everything above "~"; applied to the bytes the document's encoding gives.
_QUERY_KEEPS = frozenset(range(0x21, 0x7F)) - frozenset(b"\"#<>'")
_SPECIAL = ("http:", "https:", "ftp:", "file:")  # special schemes but ws and wss, which use UTF-8


def encode_query(reference: str, result: str, codec: codecs.CodecInfo) -> str:
    """``reference`` with the non-ASCII characters of its query percent-encoded in ``codec``,
    the document's encoding, when ``result`` (its resolution) is a special URL.

    https://url.spec.whatwg.org/#query-state: "If encoding is not UTF-8 and url is not
    special or url's scheme is "ws" or "wss", set encoding to UTF-8", then "percent-encode
    after encoding, given encoding, buffer, and queryPercentEncodeSet". A character the
    encoding cannot hold becomes ``%26%23`` + its code point in decimal + ``%3B`` (its numeric
    character reference, percent-encoded). By hand because ada-url, like every URL library,
    encodes a query in UTF-8 only; the encoders are Python's, which differ from the Encoding
    Standard's in a few corners (windows-1252's five unassigned bytes; Big5-HKSCS for Big5).
    The ASCII of the query is left to the URL parser, which applies the same set to it.
    """
    start = reference.find("?")
    hash_ = reference.find("#")
    if start < 0 or (0 <= hash_ < start) or not result.lower().startswith(_SPECIAL):
        return reference
    end = len(reference) if hash_ < 0 else hash_
    query = _NON_ASCII.sub(lambda run: _encoded(run[0], codec), reference[start:end])
    return reference[:start] + query + reference[end:]


# One character class, repeated: nothing to backtrack into.
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def _encoded(text: str, codec: codecs.CodecInfo) -> str:
    # A run of non-ASCII characters at a time, so that a stateful encoder (ISO-2022-JP) shifts
    # back at its end, as the Encoding Standard's does before the next ASCII character.
    out: list[str] = []
    while text:
        try:
            data, refs, text = codec.encode(text)[0], "", ""
        except UnicodeEncodeError as error:
            data = codec.encode(text[: error.start])[0]
            refs = "".join(f"%26%23{ord(c)}%3B" for c in text[error.start : error.end])
            text = text[error.end :]
        out.append("".join(chr(b) if b in _QUERY_KEEPS else f"%{b:02X}" for b in data) + refs)
    return "".join(out)
