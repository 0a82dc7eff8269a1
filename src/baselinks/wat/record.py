"""record: a WAT file's records as the WAT extractor writes them (``WARCRecordWriter``), each
compressed as a gzip member of its own (ISO 28500 Annex D.2, as Common Crawl publishes WATs).

    WARC/1.0
    WARC-Type: warcinfo             the first record: the WAT's own file name, who made it, when
    WARC-Date, WARC-Filename, WARC-Record-ID, Content-Type: application/warc-fields

    WARC/1.0
    WARC-Type: metadata             one per record of the input
    WARC-Target-URI                 the record's (a warcinfo record's: its WARC-Filename)
    WARC-Date                       when the WAT was made (the extractor's: an ARC record's own)
    WARC-Record-ID                  this record's
    WARC-Refers-To                  the input record's ID (an ARC record's: <urn:arc:FILE:OFFSET>)
    Content-Type: application/json

Record IDs are UUIDs made from what the record describes and the WAT's date (RFC 9562 §5.5,
name-based): the same inputs at the same date give the same bytes (``SOURCE_DATE_EPOCH``, the
reproducible-builds variable, sets the date; else it is now). The extractor's are random; no
reader tells them apart. The gzip members carry no time (mtime 0) for the same reason.
"""

from __future__ import annotations

import datetime
import email.utils
import gzip
import json
import os
import uuid
from typing import Any

from .._version import __version__

__all__ = ["WatDate", "metadata_record", "warc_record", "warcinfo_record"]

_NAMESPACE = uuid.UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8")  # RFC 9562's URL namespace
_FORMAT = "WARC File Format 1.0"
_CONFORMS_TO = "http://bibnum.bnf.fr/WARC/WARC_ISO_28500_version1_latestdraft.pdf"


class WatDate:
    """The moment a WAT is made, in the forms its records write: ``SOURCE_DATE_EPOCH`` (the
    reproducible-builds variable: seconds since 1970) when it is set, else now."""

    def __init__(self, moment: datetime.datetime | None = None) -> None:
        if moment is None:
            epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
            moment = (
                datetime.datetime.fromtimestamp(int(epoch), datetime.UTC)
                if epoch.isdigit()
                else datetime.datetime.now(datetime.UTC)
            )
        self.moment = moment.replace(microsecond=0)

    @property
    def iso(self) -> str:
        """``2019-05-27T15:39:42Z``: a WARC-Date."""
        return self.moment.strftime("%Y-%m-%dT%H:%M:%SZ")

    @property
    def http(self) -> str:
        """``Mon, 27 May 2019 15:39:42 GMT``: the warcinfo record's Extracted-Date."""
        return email.utils.format_datetime(self.moment, usegmt=True)


def _record_id(*parts: str) -> str:
    return f"<urn:uuid:{uuid.uuid5(_NAMESPACE, chr(0).join(parts))}>"


def warc_record(headers: list[tuple[str, str]], block: bytes) -> bytes:
    """A WARC/1.0 record of these headers (Content-Length added) and block, gzipped."""
    head = "WARC/1.0\r\n" + "".join(f"{name}: {value}\r\n" for name, value in headers)
    head += f"Content-Length: {len(block)}\r\n\r\n"
    return gzip.compress(head.encode("utf-8") + block + b"\r\n\r\n", mtime=0)


def warcinfo_record(filename: str, date: WatDate) -> bytes:
    """The WAT's first record: its own name, the software, when it was made (Common Crawl's
    extractor's fields; the host's IP address and name left out)."""
    fields = (
        f"Software-Info: baselinks/{__version__}\r\n"
        f"Extracted-Date: {date.http}\r\n"
        f"format: {_FORMAT}\r\n"
        f"conformsTo: {_CONFORMS_TO}\r\n"
    )
    headers = [
        ("WARC-Type", "warcinfo"),
        ("WARC-Date", date.iso),
        ("WARC-Filename", filename),
        ("WARC-Record-ID", _record_id("warcinfo", filename, date.iso)),
        ("Content-Type", "application/warc-fields"),
    ]
    return warc_record(headers, fields.encode("utf-8"))


def metadata_record(
    payload: dict[str, Any],
    target: str | None,
    refers_to: str | None,
    date: WatDate,
    identity: tuple[str, ...],
) -> bytes:
    """One input record's WAT record: ``payload`` as JSON (UTF-8, as the extractor writes
    it), about the record ``refers_to`` at ``target``. ``identity`` (its file, offset...)
    makes this record's ID."""
    headers = [("WARC-Type", "metadata")]
    if target is not None:
        headers.append(("WARC-Target-URI", _one_line(target)))
    headers.append(("WARC-Date", date.iso))
    headers.append(("WARC-Record-ID", _record_id("metadata", *identity, date.iso)))
    if refers_to is not None:
        headers.append(("WARC-Refers-To", _one_line(refers_to)))
    headers.append(("Content-Type", "application/json"))
    block = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8", "backslashreplace"
    )
    return warc_record(headers, block)


def _one_line(value: str) -> str:
    """A header value that cannot end the header (a CR or LF from a damaged record)."""
    return (
        " ".join(value.replace("\r", " ").replace("\n", " ").split())
        if any(c in value for c in "\r\n")
        else value
    )
