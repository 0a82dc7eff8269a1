"""What the container readers yield: a document to extract, an input skipped, or an error.

Readers never resolve anything: a :class:`Part` carries the raw header values that the base
stage (:func:`baselinks.base.layers.encapsulating_base`) turns into a base by RFC 1808 §3.2
and §3.3.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ...errors import InputError
from .doctypes import HTML_TYPES, DocType

__all__ = ["HTML_TYPES", "Entry", "Origin", "Part", "Revisit", "Skipped"]


class Origin(NamedTuple):
    """Where a document is stored, for a program to find it again (the ``document`` field is
    its name for a person). One per document, shared by all its links; ``None`` where a field
    does not apply.

    - ``file``: the input as named (the path, ``-`` for stdin or bytes);
    - ``offset``, ``length``: a WARC or ARC record's bytes in the file as stored, what
      ``warcio index`` and a CDX line give and ``warcio extract FILE OFFSET`` takes: in a
      ``.warc.gz``, its gzip member's offset and compressed length. None when the file holds
      no such offsets: a gzip of a whole archive (one member for all records), an archive
      inside another gzip layer; and ``length`` for a record split over gzip members;
    - ``record_id``: its ``WARC-Record-ID`` (an ARC record has none);
    - ``date``: its ``WARC-Date`` (an ARC record: its archive-date, in the same ISO 8601 form);
    - ``part``: a MIME part's path in its message as IMAP numbers it (RFC 3501 §6.4.5, "BODY
      [section]"): ``2.1`` is the first part of the second; a message that is not multipart,
      and a ``message/rfc822`` whose message is not, have their body as part ``1``, and the
      parts of a ``message/rfc822``'s multipart are numbered under the part itself (``3.1``);
    - ``page_url``: the document's own URL, before any ``<base>``: a WARC record's target URI,
      a MIME part's location resolved (RFC 1808 §3.2), the URL given (``--url``, a file's
      under ``--root-url``, a saved page's ``saved from url`` comment); None where it is not
      known. Set by the pipeline (api.py), not by the readers: it is the document's base
      below its content, known once the base stage has read the document.
    """

    file: str | None = None
    offset: int | None = None
    length: int | None = None
    record_id: str | None = None
    date: str | None = None
    part: str | None = None
    page_url: str | None = None
    revisit_of: str | None = None


class Revisit(NamedTuple):
    """What a WARC ``revisit`` record says of its original (WARC 1.1 §6.7.2, §5.10-5.12): the
    record it refers to, by ID (``WARC-Refers-To``), by URI and date
    (``WARC-Refers-To-Target-URI``, ``WARC-Refers-To-Date``), by payload (its
    ``WARC-Payload-Digest``, the original's, under the identical-payload-digest profile)."""

    refers_to: str | None = None
    target: str | None = None
    date: str | None = None
    digest: str | None = None
    profile: str | None = None

    def names_original(self) -> bool:
        return any((self.refers_to, self.target and self.date, self.digest))


@dataclass(frozen=True, slots=True)
class Part:
    """One document inside an input, and what its containers say about where it came from."""

    name: str  # the `document` field: file, plus "#" and the record's URI or the part's label
    body: bytes | None  # the document's bytes, decoded from any transfer/content coding;
    #                     None when only the HTTP headers carry links (a redirect)
    charset: str | None = None  # the transport's charset (HTTP or MIME Content-Type)
    retrieval: str | None = None  # RFC 1808 §3.3: the URL it was retrieved from
    locations: tuple[str, ...] = ()  # RFC 1808 §3.2: base headers, outermost entity first
    status: int | None = None  # HTTP status, when the document came in an HTTP response
    headers: tuple[tuple[str, str], ...] = ()  # HTTP response headers (Location, Link, Refresh)
    doctype: DocType = DocType.HTML  # how the body is loaded: HTML, a style sheet, SVG, a feed...
    origin: Origin | None = None  # where it is stored (None: the file `name` alone)
    # a WARC revisit record: body None, its original's payload to be found (run/revisits.py)
    revisit: Revisit | None = None


@dataclass(frozen=True, slots=True)
class Skipped:
    """An input, record or part that holds no document, and why (counted, never an error)."""

    name: str
    reason: str  # short and stable: "request record", "not HTML (image/png)", ...


Entry = Part | Skipped | InputError
