"""envelope: a framed record → its WAT JSON's ``Container`` and ``Envelope``, as the WAT
extractor writes them (their keys: keys.py).

    Container      the file's name, whether it is gzipped, the record's offset, its gzip member
    Envelope       Format, the header block's length, the WARC headers as written (ARC: the
                   header line's fields), and Payload-Metadata: what the block was read as
                   (an HTTP request or response, warcinfo or metadata fields, a filedesc),
                   its length, SHA-1 and trailing bytes

Numbers are written as strings, as the extractor's ``MetaData.putLong`` writes them
(``"Offset":"479"``); booleans as booleans. A name given twice (``Set-Cookie``, a repeated
WARC header) holds an array of its values in order, as ``MetaData.putString`` accumulates
them. Objects are filled in the order the extractor fills them (Common Crawl's WATs, written
through openjson, keep that order): a reader must not rely on it, as the older WATs written
through org.json (a hash map) show.

The extractor's choices kept here: a ``revisit`` record's block is read as an HTTP response
(``ExtractingResourceFactoryMapper`` maps revisits to its HTTP response factory); a
``resource`` record's block is read as nothing (no factory: only its length and digest).
An ARC record's Envelope holds its ``ARC-Header-Metadata``, as the extractor writes it, and also
the ``WARC-Header-Metadata`` warcio's ``arc2warc`` gives it (cc-pyspark's WAT jobs look up
``WARC-Header-Metadata.WARC-Type`` in every record, and fail on a KeyError without it).
``Envelope.Format`` is ``"WARC"``, what Common Crawl's WATs hold (webarchive-commons' constant
``ENVELOPE_FORMAT_WARC``; its newer code writes ``WARC/1.0``, which no published WAT shows).
"""

from __future__ import annotations

from typing import Any

from ..load.containers.httpmsg import parse_headers
from ..load.containers.warcframes import FramedRecord

__all__ = ["container", "envelope", "fields_object", "http_metadata"]

JSON = dict[str, Any]

# Payload-Metadata.Actual-Content-Type, by what the block was read as (ResourceConstants)
HTTP_RESPONSE = "application/http; msgtype=response"
HTTP_REQUEST = "application/http; msgtype=request"
WARC_FIELDS = "application/warc-fields"
METADATA_FIELDS = "application/metadata-fields"
FILEDESC = "alexa/filedesc"


def put(target: JSON, name: str, value: Any) -> None:
    """``value`` under ``name``; a name met again holds an array of its values in order."""
    if name not in target:
        target[name] = value
    elif isinstance(target[name], list):
        target[name].append(value)
    else:
        target[name] = [target[name], value]


def fields_object(pairs: tuple[tuple[str, str], ...]) -> JSON:
    """Headers or fields as the WAT writes them: by name as written, repeated ones an array."""
    found: JSON = {}
    for name, value in pairs:
        put(found, name, value)
    return found


def container(record: FramedRecord, filename: str, gzipped: bool) -> JSON:
    """``Container``: the file (its name without folder), compression, offset, gzip member."""
    found: JSON = {"Filename": filename, "Compressed": gzipped}
    if record.offset is not None:
        found["Offset"] = str(record.offset)
    member = record.member
    if member is not None:
        gzip: JSON = {}
        if member.filename is not None:
            gzip["Filename"] = member.filename
        if member.comment_length is not None:
            gzip["Comment-Length"] = str(member.comment_length)
        if member.header_crc is not None:
            gzip["Header-CRC"] = str(member.header_crc)
        if member.extra:
            gzip["F-Extra"] = [{"Name": name, "Value": value} for name, value in member.extra]
        gzip["Deflate-Length"] = str(member.length)
        gzip["Header-Length"] = str(member.header_length)
        gzip["Footer-Length"] = "8"
        gzip["Inflated-CRC"] = str(member.crc)
        gzip["Inflated-Length"] = str(member.inflated_length)
        found["Gzip-Metadata"] = gzip
    return found


def envelope(record: FramedRecord) -> JSON:
    """``Envelope``: ``Payload-Metadata`` first (the extractor makes it first), then the
    format, the header's length and its fields."""
    payload = _payload(record)
    payload["Actual-Content-Length"] = str(record.block_length)
    payload["Block-Digest"] = record.block_digest
    payload["Trailing-Slop-Length"] = str(record.slop)
    found: JSON = {"Payload-Metadata": payload}
    if record.arc is not None:
        url, ip, date, mime, length = record.arc
        found["Format"] = "ARC"
        found["ARC-Header-Length"] = str(record.header_length)
        found["ARC-Header-Metadata"] = {
            "Target-URI": url,
            "IP-Address": ip,
            "Date": date,
            "Content-Type": mime,
            "Content-Length": length,
        }
        # and the WARC headers warcio's arc2warc gives the record: a reader of WARC WATs
        # (cc-pyspark's, which looks up WARC-Header-Metadata.WARC-Type) reads it too
        found["WARC-Header-Metadata"] = fields_object(record.rec_headers.headers)
    else:
        found["Format"] = "WARC"
        found["WARC-Header-Length"] = str(record.header_length)
        found["WARC-Header-Metadata"] = fields_object(record.rec_headers.headers)
    return found


def _payload(record: FramedRecord) -> JSON:
    """What the block was read as, by the record's type and Content-Type, as the extractor's
    ``ExtractingResourceFactoryMapper`` chooses."""
    kind = (record.content_type or "").lower().replace(" ", "")
    rec_type = record.rec_type.lower()
    head = record.head
    if record.arc is not None:
        if record.arc[0].startswith("filedesc:"):
            return {"Actual-Content-Type": FILEDESC, "Filedesc-Metadata": _filedesc(head)}
        if record.arc[0].lower().startswith(("http:", "https:")):
            return _http_payload(record, response=True)
        return {}
    if rec_type == "warcinfo":
        fields, corrupt = _fields(head)
        found: JSON = {"Actual-Content-Type": WARC_FIELDS, "WARC-Info-Metadata": fields}
        if corrupt:
            found["Headers-Corrupt"] = True
        return found
    if rec_type == "metadata" and kind.startswith(WARC_FIELDS):
        fields, corrupt = _fields(head, as_list=True)
        inner: JSON = {"Metadata-Records": fields} if fields else {}
        if corrupt:
            inner["FIELDS_CORRUPT"] = True
        return {"Actual-Content-Type": METADATA_FIELDS, "WARC-Metadata-Metadata": inner}
    if rec_type == "request" and kind.startswith("application/http"):
        return _http_payload(record, response=False)
    if (rec_type == "response" and kind.startswith("application/http")) or rec_type == "revisit":
        return _http_payload(record, response=True)
    return {}


def _http_payload(record: FramedRecord, response: bool) -> JSON:
    metadata = http_metadata(record, response)
    if metadata is None:
        return {}
    name = "HTTP-Response-Metadata" if response else "HTTP-Request-Metadata"
    return {"Actual-Content-Type": HTTP_RESPONSE if response else HTTP_REQUEST, name: metadata}


def http_metadata(record: FramedRecord, response: bool) -> JSON | None:
    """``HTTP-Response-Metadata`` (or ``-Request-``): the first line, the headers, the
    entity's length and digest; None when the block holds no HTTP message."""
    block = record.raw_stream
    head = block.head
    start = block.entity_start
    if start is None:
        if not head.strip():
            return None
        start = len(head)  # no empty line in it: all of it is the head
    first, _, rest = head[:start].partition(b"\n")
    words = first.strip().decode("latin-1").split(" ", 2)
    found: JSON = {}
    if response:
        if not words[0].upper().startswith("HTTP/") or len(words) < 2:
            return None
        found["Response-Message"] = {
            "Status": words[1],
            "Version": words[0],
            "Reason": words[2] if len(words) > 2 else "",
        }
    else:
        if len(words) < 3:
            return None
        found["Request-Message"] = {"Method": words[0], "Path": words[1], "Version": words[2]}
    found["Headers-Length"] = str(start)
    headers = parse_headers(rest)
    if _corrupt(rest):
        found["Headers-Corrupt"] = True
    found["Headers"] = fields_object(headers)
    found["Entity-Length"] = str(max(record.block_length - start, 0))
    digest = block.entity_digest()
    if digest is not None:
        found["Entity-Digest"] = digest
    found["Entity-Trailing-Slop-Length"] = "0"
    return found


def _corrupt(block: bytes) -> bool:
    """Whether a line of a header block is no ``name: value`` (nor a folded continuation)."""
    for raw in block.split(b"\n"):
        line = raw.rstrip(b"\r")
        if line and line[:1] not in b" \t" and b":" not in line:
            return True
    return False


def _fields(head: bytes, as_list: bool = False) -> tuple[Any, bool]:
    """A warcinfo or metadata record's ``name: value`` fields (WARC 1.1 §6.4), as an object
    (or a list of Name/Value objects), and whether a line was no field."""
    pairs = parse_headers(head)
    corrupt = _corrupt(head)
    text = tuple(
        (name, value.encode("latin-1").decode("utf-8", "replace")) for name, value in pairs
    )
    if as_list:
        return [{"Name": name, "Value": value} for name, value in text], corrupt
    return fields_object(text), corrupt


def _filedesc(head: bytes) -> JSON:
    """An ARC file's filedesc block: ``major minor organization``, then the format line."""
    lines = head.decode("latin-1").split("\n")
    version = lines[0].strip().split(" ", 2)
    found: JSON = {}
    if len(version) >= 2:
        found["Major-Version"] = version[0]
        found["Minor-Version"] = version[1]
        found["Organization"] = version[2] if len(version) > 2 else ""
    if len(lines) > 1:
        found["Format"] = lines[1].strip()
    return found
