"""keys: every key a WAT record's JSON holds, and every link ``path``, with where each comes from.

The WAT extractor is Java (webarchive-commons, and Common Crawl's fork ia-web-commons, which
writes Common Crawl's WAT files); its keys are string constants, most in one interface
(``ResourceConstants``), the link paths made in ``ExtractingParseObserver`` as ``TAG@/attr``
(the tag upper case, as htmlparser names it). This table is the one place baselinks writes a
key's name: the builders (envelope.py, html.py) take their names from it, the reference's
table is checked against it (tests/test_wat.py), and a record's keys are checked against it.

    KEYS          what the extractor writes: (JSON path, meaning, where in its source)
    LINK_SOURCES  the link paths it writes, the element and attribute each is read from, the
                  array it goes in and the attributes that go with it
    ADDITIONS     baselinks' own keys (``baselinks wat --additions``), all under a key named
                  ``Baselinks`` that no reader of Common Crawl's WATs looks up

A JSON path names an object's key after a dot, an array's items with ``[]``, and any name (an
HTTP header, a WARC header) with ``*``.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = [
    "ADDITIONS",
    "ADDITIONS_KEY",
    "KEYS",
    "LINK_SOURCES",
    "SOURCES",
    "Key",
    "LinkPlace",
    "paths_of",
]

# Where the names come from: the repositories and commits they were read in.
SOURCES = {
    "iipc": (
        "https://github.com/iipc/webarchive-commons",
        "3921259229850c20bf4ee8f6cd70d56f3bcc0c13",
    ),
    "cc": (
        "https://github.com/commoncrawl/ia-web-commons",
        "39b5c2225f0d0f601431834db182cdf71673305a",
    ),
}
_RC = "iipc: org/archive/resource/ResourceConstants.java"
_EPO = "iipc: org/archive/resource/html/ExtractingParseObserver.java"
_ARC = "iipc: org/archive/format/arc/ARCConstants.java"


class Key(NamedTuple):
    """One key of a WAT record's JSON: its path, what it holds, where its name is defined."""

    path: str
    meaning: str
    source: str


_HTTP = "Envelope.Payload-Metadata.HTTP-Response-Metadata"
_REQUEST = "Envelope.Payload-Metadata.HTTP-Request-Metadata"
_HTML = f"{_HTTP}.HTML-Metadata"

KEYS: tuple[Key, ...] = (
    Key("Container", "where the record is stored", f"{_RC} CONTAINER"),
    Key(
        "Container.Filename",
        "the WARC or ARC file's name, without its folder",
        f"{_RC} CONTAINER_FILENAME",
    ),
    Key(
        "Container.Compressed",
        "true for a .warc.gz (a gzip member per record)",
        f"{_RC} CONTAINER_COMPRESSED",
    ),
    Key(
        "Container.Offset",
        "the record's byte offset in the file, as a string (warcio index's offset)",
        f"{_RC} CONTAINER_OFFSET",
    ),
    Key("Container.Gzip-Metadata", "the record's gzip member (RFC 1952)", f"{_RC} GZIP"),
    Key(
        "Container.Gzip-Metadata.Deflate-Length",
        "the member's length as stored (warcio index's length)",
        f"{_RC} GZIP_DEFLATE_LENGTH",
    ),
    Key(
        "Container.Gzip-Metadata.Header-Length",
        "the member header's length, its optional fields included",
        f"{_RC} GZIP_HEADER_LENGTH",
    ),
    Key("Container.Gzip-Metadata.Footer-Length", "8: CRC32 and ISIZE", f"{_RC} GZIP_FOOTER_LENGTH"),
    Key(
        "Container.Gzip-Metadata.Inflated-CRC",
        "the footer's CRC-32, as Java's signed int",
        f"{_RC} GZIP_INFLATED_CRC",
    ),
    Key(
        "Container.Gzip-Metadata.Inflated-Length",
        "the footer's ISIZE: the record's length inflated",
        f"{_RC} GZIP_INFLATED_LENGTH",
    ),
    Key("Container.Gzip-Metadata.Filename", "the header's FNAME, when set", f"{_RC} GZIP_FILENAME"),
    Key(
        "Container.Gzip-Metadata.Comment-Length",
        "the length of the header's FCOMMENT, when set",
        f"{_RC} GZIP_COMMENT_LENGTH",
    ),
    Key(
        "Container.Gzip-Metadata.Header-CRC",
        "the header's FHCRC, when set",
        f"{_RC} GZIP_HEADER_CRC",
    ),
    Key("Container.Gzip-Metadata.F-Extra", "the header's FEXTRA subfields", f"{_RC} GZIP_FEXTRA"),
    Key(
        "Container.Gzip-Metadata.F-Extra[].Name",
        "a subfield's two-letter ID",
        f"{_RC} GZIP_FEXTRA_NAME",
    ),
    Key(
        "Container.Gzip-Metadata.F-Extra[].Value",
        "its data, in hexadecimal",
        f"{_RC} GZIP_FEXTRA_VALUE",
    ),
    Key("Envelope", "the record: its format, its header, its payload", f"{_RC} ENVELOPE"),
    Key("Envelope.Format", '"WARC" or "ARC"', f"{_RC} ENVELOPE_FORMAT, ENVELOPE_FORMAT_WARC"),
    Key(
        "Envelope.WARC-Header-Length",
        "the header block's length as written: version line to empty line",
        f"{_RC} WARC_HEADER_LENGTH",
    ),
    Key(
        "Envelope.WARC-Header-Metadata",
        "the WARC headers, as written (a repeated one: an array)",
        f"{_RC} WARC_HEADER_METADATA",
    ),
    Key("Envelope.WARC-Header-Metadata.*", "one WARC header", f"{_RC} WARC_HEADER_METADATA"),
    Key("Envelope.ARC-Header-Length", "the ARC header line's length", f"{_RC} ARC_HEADER_LENGTH"),
    Key(
        "Envelope.ARC-Header-Metadata", "the ARC header line's fields", f"{_RC} ARC_HEADER_METADATA"
    ),
    Key("Envelope.ARC-Header-Metadata.Target-URI", "the URL", f"{_ARC} URL_KEY"),
    Key("Envelope.ARC-Header-Metadata.IP-Address", "the IP address", f"{_ARC} IP_KEY"),
    Key(
        "Envelope.ARC-Header-Metadata.Date",
        "the archive date, 14 digits",
        f"{_ARC} DATE_STRING_KEY",
    ),
    Key("Envelope.ARC-Header-Metadata.Content-Type", "the content type", f"{_ARC} MIME_KEY"),
    Key(
        "Envelope.ARC-Header-Metadata.Content-Length",
        "the declared length",
        f"{_ARC} DECLARED_LENGTH_KEY",
    ),
    # where the extractor wrote the block's length and digest before 2015 (webarchive-commons
    # 6fcd096; Common Crawl's WATs of 2013 to mid-2019 hold them there): read, never written
    Key(
        "Envelope.Actual-Content-Length",
        "the block's length (older WATs: Payload-Metadata's now)",
        "iipc: org/archive/resource/warc/WARCResource.java notifyEOF, before 6fcd096",
    ),
    Key(
        "Envelope.Block-Digest",
        "the block's SHA-1 (older WATs: Payload-Metadata's now)",
        "iipc: org/archive/resource/warc/WARCResource.java notifyEOF, before 6fcd096",
    ),
    Key("Envelope.Payload-Metadata", "the record's block", f"{_RC} PAYLOAD_METADATA"),
    Key(
        "Envelope.Payload-Metadata.Actual-Content-Type",
        "what the block was read as",
        f"{_RC} PAYLOAD_CONTENT_TYPE",
    ),
    Key(
        "Envelope.Payload-Metadata.Actual-Content-Length",
        "the block's length as read",
        f"{_RC} PAYLOAD_LENGTH",
    ),
    Key(
        "Envelope.Payload-Metadata.Block-Digest",
        "sha1: and the block's SHA-1 in base32",
        f"{_RC} PAYLOAD_DIGEST",
    ),
    Key(
        "Envelope.Payload-Metadata.Trailing-Slop-Length",
        "the bytes after the block (4: CRLF CRLF)",
        f"{_RC} PAYLOAD_SLOP_BYTES",
    ),
    Key(
        "Envelope.Payload-Metadata.Headers-Corrupt",
        "true when a line of a warcinfo block is no field",
        f"{_RC} HTTP_HEADERS_CORRUPT",
    ),
    Key(
        "Envelope.Payload-Metadata.WARC-Info-Metadata",
        "a warcinfo record's fields",
        f"{_RC} WARCINFO_METADATA",
    ),
    Key("Envelope.Payload-Metadata.WARC-Info-Metadata.*", "one field", f"{_RC} WARCINFO_METADATA"),
    Key(
        "Envelope.Payload-Metadata.WARC-Metadata-Metadata",
        "a metadata record's fields",
        f"{_RC} WARC_META_FIELDS_METADATA",
    ),
    Key(
        "Envelope.Payload-Metadata.WARC-Metadata-Metadata.Metadata-Records",
        "its fields in order",
        f"{_RC} WARC_META_FIELDS_LIST",
    ),
    Key(
        "Envelope.Payload-Metadata.WARC-Metadata-Metadata.Metadata-Records[].Name",
        "a field's name",
        f"{_RC} METADATA_KV_NAME",
    ),
    Key(
        "Envelope.Payload-Metadata.WARC-Metadata-Metadata.Metadata-Records[].Value",
        "its value",
        f"{_RC} METADATA_KV_VALUE",
    ),
    Key(
        "Envelope.Payload-Metadata.WARC-Metadata-Metadata.FIELDS_CORRUPT",
        "true when a line is no field",
        f"{_RC} WARC_META_FIELDS_CORRUPT",
    ),
    Key(
        "Envelope.Payload-Metadata.Filedesc-Metadata",
        "an ARC file's filedesc record",
        f"{_RC} FILEDESC_METADATA",
    ),
    Key(
        "Envelope.Payload-Metadata.Filedesc-Metadata.Major-Version",
        "its version line's first number",
        f"{_RC} FILEDESC_MAJOR",
    ),
    Key(
        "Envelope.Payload-Metadata.Filedesc-Metadata.Minor-Version",
        "its second",
        f"{_RC} FILEDESC_MINOR",
    ),
    Key(
        "Envelope.Payload-Metadata.Filedesc-Metadata.Organization",
        "the rest of the version line",
        f"{_RC} FILEDESC_ORGANIZATION",
    ),
    Key(
        "Envelope.Payload-Metadata.Filedesc-Metadata.Format",
        "its second line: the header line's fields",
        f"{_RC} FILEDESC_FORMAT",
    ),
    Key(_REQUEST, "a request record's HTTP request", f"{_RC} HTTP_REQUEST_METADATA"),
    Key(f"{_REQUEST}.Request-Message", "its request line", f"{_RC} HTTP_REQUEST_MESSAGE"),
    Key(f"{_REQUEST}.Request-Message.Method", "GET, POST...", f"{_RC} HTTP_MESSAGE_METHOD"),
    Key(f"{_REQUEST}.Request-Message.Path", "the request target", f"{_RC} HTTP_MESSAGE_PATH"),
    Key(f"{_REQUEST}.Request-Message.Version", "HTTP/1.1...", f"{_RC} HTTP_MESSAGE_VERSION"),
    Key(
        f"{_REQUEST}.Headers-Length",
        "request line and headers, the empty line included",
        f"{_RC} HTTP_HEADERS_LENGTH",
    ),
    Key(
        f"{_REQUEST}.Headers-Corrupt",
        "true when a header line is no header",
        f"{_RC} HTTP_HEADERS_CORRUPT",
    ),
    Key(
        f"{_REQUEST}.Headers",
        "the headers as written (a repeated one: an array)",
        f"{_RC} HTTP_HEADERS_LIST",
    ),
    Key(f"{_REQUEST}.Headers.*", "one header", f"{_RC} HTTP_HEADERS_LIST"),
    Key(f"{_REQUEST}.Entity-Length", "the body's length, as stored", f"{_RC} HTTP_ENTITY_LENGTH"),
    Key(f"{_REQUEST}.Entity-Digest", "sha1: and its SHA-1 in base32", f"{_RC} HTTP_ENTITY_DIGEST"),
    Key(f"{_REQUEST}.Entity-Trailing-Slop-Length", "0", f"{_RC} HTTP_ENTITY_TRAILING_SLOP"),
    Key(_HTTP, "a response or revisit record's HTTP response", f"{_RC} HTTP_RESPONSE_METADATA"),
    Key(f"{_HTTP}.Response-Message", "its status line", f"{_RC} HTTP_RESPONSE_MESSAGE"),
    Key(f"{_HTTP}.Response-Message.Status", "the status code", f"{_RC} HTTP_MESSAGE_STATUS"),
    Key(f"{_HTTP}.Response-Message.Version", "HTTP/1.1...", f"{_RC} HTTP_MESSAGE_VERSION"),
    Key(f"{_HTTP}.Response-Message.Reason", "the reason phrase", f"{_RC} HTTP_MESSAGE_REASON"),
    Key(
        f"{_HTTP}.Headers-Length",
        "status line and headers, the empty line included",
        f"{_RC} HTTP_HEADERS_LENGTH",
    ),
    Key(
        f"{_HTTP}.Headers-Corrupt",
        "true when a header line is no header",
        f"{_RC} HTTP_HEADERS_CORRUPT",
    ),
    Key(
        f"{_HTTP}.Headers",
        "the headers as written (a repeated one: an array)",
        f"{_RC} HTTP_HEADERS_LIST",
    ),
    Key(f"{_HTTP}.Headers.*", "one header", f"{_RC} HTTP_HEADERS_LIST"),
    Key(
        f"{_HTTP}.Entity-Length",
        "the body's length as stored (chunked, coded)",
        f"{_RC} HTTP_ENTITY_LENGTH",
    ),
    Key(f"{_HTTP}.Entity-Digest", "sha1: and its SHA-1 in base32", f"{_RC} HTTP_ENTITY_DIGEST"),
    Key(f"{_HTTP}.Entity-Trailing-Slop-Length", "0", f"{_RC} HTTP_ENTITY_TRAILING_SLOP"),
    Key(_HTML, "an HTML page's head and links", f"{_RC} HTML_METADATA"),
    Key(f"{_HTML}.Head", "what the page's head says", f"{_RC} HTML_HEAD"),
    Key(
        f"{_HTML}.Head.Title",
        "the title, white space collapsed, at most 128 characters",
        f"{_RC} HTML_TITLE",
    ),
    Key(f"{_HTML}.Head.Base", "the <base href>, as written", f"{_RC} HTML_BASE"),
    Key(
        f"{_HTML}.Head.Metas",
        "each <meta> of two or more of the attributes below; the root's lang",
        f"{_RC} HTML_META_TAGS",
    ),
    Key(
        f"{_HTML}.Head.Metas[].name",
        "<meta name>; HTML@/lang for <html lang>",
        f"{_EPO} MetaTagExtractor; cc: HTMLTagExtractor",
    ),
    Key(f"{_HTML}.Head.Metas[].rel", "<meta rel>", f"{_EPO} MetaTagExtractor"),
    Key(f"{_HTML}.Head.Metas[].content", "<meta content>; the lang", f"{_EPO} MetaTagExtractor"),
    Key(f"{_HTML}.Head.Metas[].http-equiv", "<meta http-equiv>", f"{_EPO} MetaTagExtractor"),
    Key(
        f"{_HTML}.Head.Metas[].property", "<meta property> (Open Graph)", f"{_EPO} MetaTagExtractor"
    ),
    Key(f"{_HTML}.Head.Link", "each <link href>", f"{_RC} HTML_LINK_TAGS"),
    Key(f"{_HTML}.Head.Link[].path", "LINK@/href", f"{_EPO} LinkTagExtractor"),
    Key(f"{_HTML}.Head.Link[].url", "the href, as written", f"{_EPO} LinkTagExtractor"),
    Key(f"{_HTML}.Head.Link[].rel", "its rel", f"{_EPO} LinkTagExtractor"),
    Key(f"{_HTML}.Head.Link[].type", "its type", f"{_EPO} LinkTagExtractor"),
    Key(f"{_HTML}.Head.Scripts", "each <script src>", f"{_RC} HTML_SCRIPT_TAGS"),
    Key(f"{_HTML}.Head.Scripts[].path", "SCRIPT@/src", f"{_EPO} ScriptTagExtractor"),
    Key(f"{_HTML}.Head.Scripts[].url", "the src, as written", f"{_EPO} ScriptTagExtractor"),
    Key(f"{_HTML}.Head.Scripts[].type", "its type", f"{_EPO} ScriptTagExtractor"),
    Key(f"{_HTML}.Links", "every other link, in document order", f"{_RC} HTML_LINKS"),
    Key(
        f"{_HTML}.Links[].path",
        "where it was found: TAG@/attr, STYLE/#text",
        f"{_EPO} PATH, makePath",
    ),
    Key(
        f"{_HTML}.Links[].url",
        "the URL as written (a data: URL cut after its comma)",
        f"{_EPO} addBasicHrefs; cc: trimDataUrl",
    ),
    Key(f"{_HTML}.Links[].href", "a URL in <style> text, as written", f"{_EPO} patternCSSExtract"),
    Key(
        f"{_HTML}.Links[].text",
        "an anchor's text, white space collapsed, at most 128 characters",
        f"{_EPO} handleTagClose; cc: MAX_TEXT_LEN",
    ),
    Key(
        f"{_HTML}.Links[].target",
        "<a target>, <form target>",
        f"{_EPO} AnchorTagExtractor, FormTagExtractor",
    ),
    Key(
        f"{_HTML}.Links[].alt", "<a alt>, <img alt>", f"{_EPO} AnchorTagExtractor, ImgTagExtractor"
    ),
    Key(
        f"{_HTML}.Links[].title",
        "<a title>, <img title>",
        f"{_EPO} AnchorTagExtractor, ImgTagExtractor",
    ),
    Key(
        f"{_HTML}.Links[].rel",
        "<a rel>, <area rel>",
        f"{_EPO} AnchorTagExtractor, AreaTagExtractor",
    ),
    Key(f"{_HTML}.Links[].hreflang", "<a hreflang>", f"{_EPO} AnchorTagExtractor"),
    Key(f"{_HTML}.Links[].type", "<a type>", f"{_EPO} AnchorTagExtractor"),
    Key(f"{_HTML}.Links[].method", "<form method>", f"{_EPO} FormTagExtractor"),
)


class LinkPlace(NamedTuple):
    """A link source of the extractor: the element and attribute read, the array it goes in
    (``Links``, ``Head.Link``, ``Head.Scripts``), the key of the URL (``url``; ``href`` for
    style text), and the element's attributes written with it."""

    tag: str  # lower case, as baselinks' link records name it; "*" for any element
    attr: str
    array: str
    source: str
    with_attrs: tuple[str, ...] = ()
    key: str = "url"


_A = "Links"
LINK_SOURCES: tuple[LinkPlace, ...] = (
    LinkPlace(
        "a", "href", _A, "AnchorTagExtractor", ("target", "alt", "title", "rel", "hreflang", "type")
    ),
    LinkPlace("applet", "codebase", _A, "AppletTagExtractor"),
    LinkPlace("area", "href", _A, "AreaTagExtractor", ("rel",)),
    LinkPlace("button", "formaction", _A, "ButtonTagExtractor"),
    LinkPlace("embed", "src", _A, "EmbedTagExtractor"),
    LinkPlace("audio", "src", _A, "EmbedTagExtractor"),
    LinkPlace("track", "src", _A, "EmbedTagExtractor"),
    LinkPlace("source", "src", _A, "EmbedTagExtractor"),
    LinkPlace("video", "src", _A, "EmbedVideoTagExtractor"),
    LinkPlace("video", "poster", _A, "EmbedVideoTagExtractor"),
    LinkPlace("form", "action", _A, "FormTagExtractor", ("target", "method")),
    LinkPlace("frame", "src", _A, "FrameTagExtractor"),
    LinkPlace("iframe", "src", _A, "IFrameTagExtractor"),
    LinkPlace("img", "src", _A, "ImgTagExtractor", ("alt", "title")),
    LinkPlace("img", "longdesc", _A, "ImgTagExtractor"),
    LinkPlace("input", "src", _A, "InputTagExtractor"),
    LinkPlace("input", "formaction", _A, "InputTagExtractor"),
    LinkPlace("link", "href", "Head.Link", "LinkTagExtractor", ("rel", "type")),
    LinkPlace("object", "codebase", _A, "ObjectTagExtractor"),
    LinkPlace("object", "data", _A, "ObjectTagExtractor"),
    LinkPlace("q", "cite", _A, "QuotationLinkTagExtractor"),
    LinkPlace("blockquote", "cite", _A, "QuotationLinkTagExtractor"),
    LinkPlace("del", "cite", _A, "QuotationLinkTagExtractor"),
    LinkPlace("ins", "cite", _A, "QuotationLinkTagExtractor"),
    LinkPlace("script", "src", "Head.Scripts", "ScriptTagExtractor", ("type",)),
    LinkPlace("*", "background", _A, "globalHrefAttributes"),
    LinkPlace("*", "data-href", _A, "globalHrefAttributes"),
    LinkPlace("style", "url()", _A, "handleStyleNode: cssUrlPattern", key="href"),
    LinkPlace("style", "@import", _A, "handleStyleNode: cssImportNoUrlPattern", key="href"),
)
"""The extractor's link sources that are baselinks' too: a link baselinks finds there is
written where the extractor writes it. (Its other sources are no links to baselinks, and are
not written: ``onclick`` scripts, ``data-uri``, ``<applet cdata>``, ``<object cdata>``,
``<menuitem icon>``, ``background`` on elements other than ``body`` and the table's, ``src``
on an ``<input>`` that is no image; docs/guide/common-crawl.md.)"""

# The key every addition is under (``baselinks wat --additions``): a reader of Common Crawl's
# WATs looks up the keys it knows and passes over it.
ADDITIONS_KEY = "Baselinks"

_B = "Envelope.Payload-Metadata.Baselinks"
_LINK_ADDITIONS = (
    ("url", "the URL resolved against the document's base (RFC 1808, or --mode)"),
    ("base", "the base it was resolved against"),
    ("base_source", "which RFC 1808 §3 rule set that base (content, encapsulating...)"),
    ("kind", "link, resource, form, refresh, other"),
    ("problems", "baselinks' problem codes (docs/reference.md), when there are any"),
)
ADDITIONS: tuple[Key, ...] = (
    *(
        Key(f"{array}[].{ADDITIONS_KEY}.{name}", meaning, "baselinks")
        for array in (f"{_HTML}.Links", f"{_HTML}.Head.Link", f"{_HTML}.Head.Scripts")
        for name, meaning in (("", "what baselinks adds to the link"), *_LINK_ADDITIONS)
    ),
    Key(_B, "what baselinks adds to the record", "baselinks"),
    Key(f"{_B}.Base", "the document's base URL, resolved", "baselinks"),
    Key(f"{_B}.Base-Source", "which RFC 1808 §3 rule set it", "baselinks"),
    Key(
        f"{_B}.Revisit-Of",
        "a revisit's original: its WARC-Record-ID (its links are the original's)",
        "baselinks",
    ),
    Key(
        f"{_B}.Revisit-Unresolved",
        "a revisit whose original is not in the inputs: why",
        "baselinks",
    ),
    Key(
        f"{_B}.Links",
        "the links with no place in the extractor's keys (srcset, lazy loading, headers...)",
        "baselinks",
    ),
    Key(
        f"{_B}.Links[].path",
        "TAG@/attr: baselinks' tag and attr fields, the tag upper case",
        "baselinks",
    ),
    Key(f"{_B}.Links[].raw", "the URL as written", "baselinks"),
    *(Key(f"{_B}.Links[].{name}", meaning, "baselinks") for name, meaning in _LINK_ADDITIONS),
)
# (the link objects' additions are one key each: strip the empty name's trailing dot)
ADDITIONS = tuple(key._replace(path=key.path.rstrip(".")) for key in ADDITIONS)


def paths_of(value: object, prefix: str = "") -> set[str]:
    """Every key path in a record's JSON ``value``, as :data:`KEYS` writes them (``[]`` for
    an array's items); the names under a ``*`` key are the caller's to fold."""
    found: set[str] = set()
    if isinstance(value, dict):
        for name, inner in value.items():
            path = f"{prefix}.{name}" if prefix else name
            found.add(path)
            found |= paths_of(inner, path)
    elif isinstance(value, list):
        for inner in value:
            if isinstance(inner, dict | list):
                found |= paths_of(inner, f"{prefix}[]")
    return found
