"""What the container readers yield: a document to extract, an input skipped, or an error.

Readers never resolve anything: a :class:`Part` carries the raw header values that the base
stage (:func:`baselinks.base.encapsulating_base`) turns into a base by RFC 1808 §3.2 and §3.3.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from .doctypes import HTML_TYPES, DocType

__all__ = ["HTML_TYPES", "Entry", "Part", "Skipped"]


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
    doctype: DocType = DocType.HTML  # how the body is loaded: HTML, a style sheet, SVG


@dataclass(frozen=True, slots=True)
class Skipped:
    """An input, record or part that holds no document, and why (counted, never an error)."""

    name: str
    reason: str  # short and stable: "request record", "not HTML (image/png)", ...


Entry = Part | Skipped | InputError
