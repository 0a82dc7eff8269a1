"""jsonld: a ``<script type="application/ld+json">`` block → the URL-valued properties in it.

JSON-LD 1.1 (https://www.w3.org/TR/json-ld11/) as pages write it for schema.org: an object, an
array of them, or an ``@graph``, nested as deep as the author likes. A value is a link when its
property is one schema.org gives the type URL (:data:`PROPERTIES`): ``url``, ``image``,
``logo``, ``sameAs``, ``contentUrl``, ``embedUrl``, ``thumbnailUrl``, ``mainEntityOfPage``,
a breadcrumb's ``item``..., at any depth, in arrays; and ``@id`` when it names a document (not a
blank node ``_:b0``, not a fragment of this one, ``#org``). A property of text (``name``,
``description``, ``headline``) is never a link, whatever its value looks like; nor are
``@context`` and ``@type``, which name vocabularies. A property is read by its name alone, the
``schema:`` prefix or ``https://schema.org/`` IRI of an expanded one taken off (a ``@context``
that renames ``url`` is not followed).

Kinds: a property whose value is a thing to load (an image, a logo, a video's file) gives a
``resource``; an ``@id`` (a node's identifier, not a link to follow) ``other``; the rest a
``link``; the ``url`` of an object that is an ``image`` or a ``logo`` (an ``ImageObject``) is
a ``resource`` too.

A block that is no JSON (a trailing comma, a stray quote, an unescaped line break is allowed:
``strict=False``; nesting deeper than Python's JSON parser goes) costs none of its links: its
strings are scanned in order, each value taken with the last name before it, and every link of
the block carries :data:`INVALID`. ``<!-- -->`` and CDATA wrappers around a block are taken off
first, as parsers of structured data do.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from ..errors import scalar

__all__ = ["INVALID", "PROPERTIES", "Found", "jsonld_urls"]

INVALID = "invalid-json-ld"

# schema.org properties whose expected type includes URL (https://schema.org/URL), with the
# kind of link their value is.
PROPERTIES: dict[str, str] = {
    **dict.fromkeys(
        (
            "url",
            "sameAs",
            "mainEntityOfPage",
            "item",  # ListItem (BreadcrumbList): "Thing or URL"
            "relatedLink",
            "significantLink",
            "discussionUrl",
            "hasMap",
            "codeRepository",
            "installUrl",
            "license",
            "isBasedOn",
            "isBasedOnUrl",
            "archivedAt",
            "acquireLicensePage",
            "publishingPrinciples",
            "serviceUrl",
        ),
        "link",
    ),
    **dict.fromkeys(
        (
            "image",
            "logo",
            "thumbnailUrl",
            "thumbnail",
            "contentUrl",
            "embedUrl",
            "downloadUrl",
            "screenshot",
            "photo",
        ),
        "resource",
    ),
    # JSON-LD 1.1 §3.3: "@id ... uniquely identifies a node": a name for the thing described,
    # which need not be a page (a publisher's "https://site/#organization" is most of them):
    # other, not a link to follow (3,990 of a 5,000-page crawl's links were such ids)
    "@id": "other",
}
# The url of an object held by one of these is the thing loaded (an ImageObject's).
_HOLDS_A_RESOURCE = frozenset(key for key, kind in PROPERTIES.items() if kind == "resource")
_PREFIXES = ("schema:", "http://schema.org/", "https://schema.org/")
# What pages wrap a block in (for browsers older than <script> itself): taken off its ends.
_OPENERS = ("<!--", "//<![CDATA[", "/*<![CDATA[*/", "<![CDATA[")
_CLOSERS = ("-->", "//]]>", "/*]]>*/", "]]>")
_COLON = re.compile(r"[ \t\n\r]*:")


class Found(NamedTuple):
    """One URL of a block: as written, the property it is the value of, its kind."""

    url: str
    key: str
    kind: str


# A block larger than this is walked as it is read (:func:`_streamed`), never made Python
# objects whole: json.loads made a 30 MB block of ten million empty arrays 1.5 GB of lists.
# The corpus's largest block is 52 KB.
MAX_PARSED_BYTES = 1 << 20


def jsonld_urls(text: str) -> tuple[list[Found], bool]:
    """The URLs of a JSON-LD block, in order; and whether the block was broken (not JSON)."""
    text = _unwrapped(text)
    if len(text) > MAX_PARSED_BYTES:
        streamed = _streamed(text)
        if streamed is not None:
            return streamed, False
        return list(_scanned(text)), True
    try:
        data = json.loads(text, strict=False)
    except (ValueError, RecursionError):
        return list(_scanned(text)), True
    return list(_walked(data)), False


def _name(key: str) -> str:
    if ":" not in key:  # most: "url", "@id"
        return key
    for prefix in _PREFIXES:
        if key.startswith(prefix):
            return key[len(prefix) :]
    return key


def _walked(data: Any) -> Iterator[Found]:
    # A stack, not recursion: a block nests as deep as the JSON parser read it. Each entry:
    # (value, its property, the kind a "url" in it has). Only what may hold a link is pushed:
    # a string of a URL property, an object, an array (a block's names, dates and texts not).
    stack: list[tuple[Any, str, str]] = [(data, "", "link")]
    push, pop = stack.append, stack.pop
    while stack:
        value, key, inherited = pop()
        if type(value) is str:
            found = _link(value, key, inherited)
            if found is not None:
                yield found
        elif type(value) is list:
            for item in reversed(value):
                if type(item) in _HOLDERS or (type(item) is str and key in PROPERTIES):
                    push((item, key, inherited))
        elif type(value) is dict:
            inner = "resource" if key in _HOLDS_A_RESOURCE else "link"
            for name, item in reversed(value.items()):
                name = _name(name)
                if type(item) in _HOLDERS or (type(item) is str and name in PROPERTIES):
                    push((item, name, inner))


_HOLDERS = (dict, list)


# One step of a block read as it comes (_streamed): a run of what holds no URL (white space,
# separators, numbers, literals, empty arrays and objects) in one match; else a string; else
# a bracket. Each alternative starts with characters the others do not, each repetition is
# possessive: linear. Commas and colons are not checked where they stand (a block missing one
# is read as if it were there, as the scanner of broken blocks reads it).
_SCALAR = (
    r"-?+(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][+-]?+[0-9]++)?+"
    r"|true|false|null|NaN|-?+Infinity"
)
_STEP = re.compile(
    r"((?:[ \t\n\r,:]++|\[[ \t\n\r]*+\]|\{[ \t\n\r]*+\}|" + _SCALAR + r")++)"
    r'|("(?:[^"\\]++|\\.)*+")'
    r"|([\[\]{}])",
    re.DOTALL,
)


def _streamed(text: str) -> list[Found] | None:
    """:func:`_walked` of a block, read as it comes: what the walk would push is kept as a
    stack of the open arrays and objects, each with the property it is the value of and the
    kind a ``url`` in it has; strings are decoded only as names and as values of a URL
    property. None when the block is no JSON (a bracket unmatched, something no JSON token
    starts with). One difference: of a name repeated in one object, every value is read
    (json.loads keeps the last)."""
    found: list[Found] = []
    # each open container: (an object?, its property, the kind a "url" in it has, its member)
    stack: list[list[Any]] = []
    position, end = 0, len(text)
    while position < end:
        step = _STEP.match(text, position)
        if step is None:
            return None
        position = step.end()
        if step.lastindex == 1:
            continue
        top = stack[-1] if stack else None
        if top is None:
            key, kind = "", "link"
        elif top[0]:
            key, kind = top[3], ("resource" if top[1] in _HOLDS_A_RESOURCE else "link")
        else:
            key, kind = top[1], top[2]
        if step.lastindex == 2:
            written = step.group(2)
            if top is not None and top[0] and _COLON.match(text, position):
                top[3] = _name(_decoded(written))
            elif key in PROPERTIES:
                link = _link(_decoded(written), key, kind)
                if link is not None:
                    found.append(link)
            continue
        bracket = step.group(3)
        if bracket in "[{":
            stack.append([bracket == "{", key, kind, ""])
        elif not stack or stack.pop()[0] != (bracket == "}"):
            return None
    return None if stack else found


def _decoded(written: str) -> str:
    try:
        return str(json.loads(written, strict=False))
    except ValueError:
        return written[1:-1]  # a bad escape: as written


def _link(value: str, key: str, inherited: str) -> Found | None:
    kind = PROPERTIES.get(key)
    if kind is None or not value.strip():
        return None
    if key == "@id" and value.strip().startswith(("_:", "#")):
        return None  # a blank node, a node of this document: no document named
    # JSON's "\ud800" is a lone surrogate to json.loads (RFC 8259 §8.2 leaves such strings to
    # the parser): U+FFFD, as a browser's JSON.parse then TextEncoder give
    return Found(scalar(value), key, inherited if key == "url" else kind)


def _unwrapped(text: str) -> str:
    text = text.strip()
    for opener in _OPENERS:
        if text.startswith(opener):
            text = text[len(opener) :].lstrip()
            break
    for closer in _CLOSERS:
        if text.endswith(closer):
            text = text[: -len(closer)].rstrip()
            break
    return text


def _scanned(text: str) -> Iterator[Found]:
    """The values of a broken block, each with the last property name before it."""
    key = ""
    for written, end in _strings(text):
        try:
            string = json.loads(f'"{written}"', strict=False)
        except ValueError:
            string = written  # a bad escape: as written
        if _COLON.match(text, end):  # followed by ":": a property's name
            key = _name(string)
            continue
        found = _link(string, key, "link")
        if found is not None:
            yield found


def _strings(text: str) -> Iterator[tuple[str, int]]:
    """Each JSON string of ``text`` (its content, as written, and where it ends), in order;
    an unterminated one ends the scan. Each quote is looked at once, and the backslashes
    before it: linear, where a regular expression restarting at every quote of an unclosed
    string of escaped quotes was not."""
    position = 0
    while (start := text.find('"', position)) >= 0:
        close = start
        while True:
            close = text.find('"', close + 1)
            if close < 0:
                return
            before = close - 1
            while before > start and text[before] == "\\":
                before -= 1
            if (close - 1 - before) % 2 == 0:  # not escaped: the string ends here
                break
        yield text[start + 1 : close], close + 1
        position = close + 1
