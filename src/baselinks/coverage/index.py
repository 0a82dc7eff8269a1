"""index: a CDXJ or CDX index → captures, standing for the archive it indexes (``--index``).

CDXJ, as pywb and cdxj-indexer write it (and a WACZ's ``indexes/index.cdx.gz``), one capture a
line, sorted::

    com,example)/ 20140127171200 {"url": "http://example.com", "mime": "text/html",
        "status": "200", "digest": "B2LT...", "length": "1046", "offset": "334",
        "filename": "dupes.warc.gz"}

the SURT key, a 14-digit timestamp, and a JSON object: ``url``, ``mime`` (``warc/revisit`` for
a revisit record), ``status`` (absent for a revisit: its original's), ``digest``, where the
record is. The classic CDX (pywb's ``.cdx``, the Wayback Machine's) is the same facts in
space-separated fields named by its first line, `` CDX N b a m s k r M S V g`` (N the key, b
the timestamp, a the URL, m the type, s the status, k the digest, r a redirect's URL, M, S, V, g
the meta tags, length, offset and file); a file without that line is read as the 11 fields
(or 9: N b a m s k r V g) cdxj-indexer writes. gzip-compressed, one member or many (a ZipNum
index's blocks), it is read the same.

The key is computed again from the URL (keys.target_key), not taken from the line: indexers
canonicalise in slightly different ways, and one rule matches links and captures. A CDXJ line
keeps no ``Location`` (a redirect found only in the index is not followed: the record is not
read) and no page (its fragments are not checked); a CDX line's ``r`` is the Location when it
is given. A line that cannot be read is an error naming the file and the line, and the
others are read.
"""

from __future__ import annotations

import gzip
import io
import json
import os
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from ..errors import InputError
from ..load.containers.captures import Capture
from .store import CaptureStore

__all__ = ["CDX_FIELDS", "iter_index", "read_index"]

# The classic CDX's field letters (the Wayback Machine's "CDX legend") that a capture needs
CDX_FIELDS = {
    "N": "urlkey",
    "b": "timestamp",
    "a": "url",
    "m": "mime",
    "s": "status",
    "k": "digest",
    "r": "redirect",
    "V": "offset",
    "g": "filename",
}
# cdxj-indexer's CDX11 and CDX09 (no header line): N b a m s k r M S V g and N b a m s k r V g
_CDX11 = ["N", "b", "a", "m", "s", "k", "r", "M", "S", "V", "g"]
_CDX09 = ["N", "b", "a", "m", "s", "k", "r", "V", "g"]


def _iso(timestamp: str) -> str | None:
    """A CDX timestamp (YYYYMMDDhhmmss, or a prefix) as a WARC-Date (ISO 8601, UTC)."""
    digits = timestamp.strip()
    if not digits.isdigit() or len(digits) < 4:
        return None
    d = digits[:14].ljust(14, "0")
    return f"{d[:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{d[12:14]}Z"


def _capture(fields: dict[str, Any], timestamp: str, name: str) -> Capture | None:
    url = fields.get("url")
    if not isinstance(url, str) or not url:
        return None
    mime = str(fields.get("mime") or "") or None
    status_text = str(fields.get("status") or "")
    redirect = str(fields.get("redirect") or "")
    offset = str(fields.get("offset") or "")
    return Capture(
        url,
        _iso(timestamp),
        "revisit" if mime == "warc/revisit" else "response",
        int(status_text) if status_text.isdigit() else None,
        redirect if redirect not in ("", "-") else None,
        None if mime in (None, "-", "unk", "warc/revisit") else mime,
        str(fields.get("digest") or "") or None,
        file=str(fields.get("filename") or "") or name,
        offset=int(offset) if offset.isdigit() else None,
    )


def iter_index(stream: BinaryIO, name: str) -> Iterator[Capture | InputError]:
    """The captures of the index ``stream`` (CDXJ or CDX), and an error per line unread."""
    head = stream.peek(2)[:2] if hasattr(stream, "peek") else b""
    opened: Any = gzip.GzipFile(fileobj=stream) if head == b"\x1f\x8b" else stream
    text = io.TextIOWrapper(opened, encoding="utf-8", errors="replace", newline="\n")
    try:
        yield from _lines(text, name)
    finally:
        text.detach()  # the stream is the caller's to close


def _lines(text: io.TextIOWrapper, name: str) -> Iterator[Capture | InputError]:
    letters: list[str] | None = None
    number = 0
    try:
        for number, line in enumerate(text, 1):
            line = line.rstrip("\r\n")
            if not line.strip():
                continue
            if line.startswith((" CDX ", "CDX ")):
                letters = line.split()[1:]
                continue
            found = _line(line, letters)
            if found is None:
                yield InputError(f"line {number}: not a CDXJ or CDX line: {line[:80]!r}", name)
                continue
            capture = _capture(*found, name)
            if capture is not None:
                yield capture
    except (OSError, EOFError, ValueError) as exc:
        yield InputError(f"line {number + 1}: cannot read the index: {exc}", name)


def _line(line: str, letters: list[str] | None) -> tuple[dict[str, Any], str] | None:
    """A line's fields and timestamp; None when it is neither CDXJ nor CDX."""
    _key, _, rest = line.partition(" ")  # the key is computed again from the URL
    timestamp, _, data = rest.partition(" ")
    if data.startswith("{"):
        try:
            fields = json.loads(data)
        except ValueError:
            return None
        return (fields, timestamp) if isinstance(fields, dict) else None
    values = line.split(" ")
    names = letters or (_CDX11 if len(values) == len(_CDX11) else _CDX09)
    if len(values) != len(names):
        return None
    fields = {
        CDX_FIELDS[letter]: value for letter, value in zip(names, values, strict=True)
        if letter in CDX_FIELDS
    }  # fmt: skip
    return fields, str(fields.get("timestamp", ""))


def read_index(
    path: str | os.PathLike[str],
    store: CaptureStore,
    on_error: Callable[[InputError], None],
) -> int:
    """The captures of the index file ``path`` into ``store``; how many. An error (a line
    unread, a file that cannot be opened) goes to ``on_error``."""
    name = os.fspath(path)
    count = 0
    try:
        with open(path, "rb") as stream:
            for found in iter_index(stream, name):
                if isinstance(found, InputError):
                    on_error(found)
                else:
                    count += store.add(found, "index") is not None
    except OSError as exc:
        on_error(InputError(exc.strerror or str(exc), name))
    return count
