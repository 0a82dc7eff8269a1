"""linktable: what the walk finds, as data: every link source, its condition, its kind.

The walk stage in two modules along the seam between *what* is found and *how*: this one is
the table a newcomer edits to add a link attribute (one row, no code), and it imports neither
lxml nor the walker; walk.py reads it and names no link attribute itself. Every name a row
gives (a ``when`` condition, a ``kind`` rule, a ``base`` rule) is a key of a registry below,
and :func:`check` (run at import) refuses a row whose name is in none: a mistyped key fails
when the package is imported, not silently as "always".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..base.layers import BASE_ELEMENT, CODEBASE, CODEBASE_ELEMENTS, codebase_applies
from .metadata import METADATA_URLS, MSAPPLICATION, OPEN_GRAPH, TWITTER_CARD
from .rules import (
    AttributeIs,
    Condition,
    ForeignKind,
    KindRule,
    MetadataFamily,
    MetadataKind,
    RelKind,
    ValueIs,
    Within,
    rel_kind,
)

__all__ = [
    "HEADER_LINK_SOURCES",
    "INERT_TEMPLATE",
    "IN_NOSCRIPT",
    "JSON_LD",
    "KINDS",
    "LINK_SOURCES",
    "METADATA",
    "NONSTANDARD",
    "PLACEMENTS",
    "LinkSource",
    "check",
    "rel_kind",
]

# The kinds of link, what a user filters on (--kind): the walk assigns them.
KINDS = ("link", "resource", "form", "refresh", "other")

# How an attribute's value holds URLs.
URL = "url"  # the whole value is one URL
URLS = "urls"  # space-separated URLs
COMMA_URLS = "comma-urls"  # comma-separated URLs (applet archive)
SRCSET = "srcset"  # the srcset micro-syntax
REFRESH = "refresh"  # <meta http-equiv=refresh content>, the Refresh header
CSS = "css"  # a style attribute's CSS
CSS_TEXT = "css-text"  # the element's text is a style sheet (<style>): url(), @import
SRCDOC = "srcdoc"  # a whole nested document
LINK_HEADER = "link-header"  # an HTTP Link header (RFC 8288 §3)
JSON_LD = "json-ld"  # the element's text is a JSON-LD block (find/jsonld.py)
SYNTAXES = frozenset(
    {URL, URLS, COMMA_URLS, SRCSET, REFRESH, CSS, CSS_TEXT, SRCDOC, LINK_HEADER, JSON_LD}
)
# The syntaxes that read the element's text, not an attribute.
TEXT_SYNTAXES = frozenset({CSS_TEXT, JSON_LD})
# The attribute of a row of TEXT_SYNTAXES: the element's text, which no attribute name can be.
TEXT = "#text"


class LinkSource(NamedTuple):
    """One row of the table: which elements, which attribute, how it holds URLs, what for."""

    tags: frozenset[str] | None  # None: any element
    attr: str
    syntax: str
    kind: str  # one of KINDS, or a key of KIND_RULES (the kind decided per element)
    when: str = ""  # a condition: a key of TAG_CONDITIONS and/or CONDITIONS (HEADER_CONDITIONS)
    spec: str = ""
    problem: str = ""  # a code every link of this row carries (NONSTANDARD)
    missing: str | None = None  # what an absent attribute stands for (None: no link)
    # "": the document's base; CODEBASE: the element's codebase first (base/layers.py)
    base: str = ""


# The code of a row outside the HTML standard and HTML 4 that real pages use for URLs (lazy
# loading), and of a pair added with `attributes=`: a user who wants the standard only drops it.
NONSTANDARD = "nonstandard-attribute"
# Where a link lives (problem codes, not a field: every output format, the Spark schema and the
# CONTRACT's record stay as they are, and a filter on `problems` is one a user already writes).
# https://html.spec.whatwg.org/#the-template-element: "Templates provide a method for declaring
# inert DOM subtrees": nothing in one is fetched, its <base> is no base.
INERT_TEMPLATE = "inert-template"
# https://html.spec.whatwg.org/#the-noscript-element: with scripting enabled (every browser
# by default) the parser reads its content as raw text: no element in it exists.
IN_NOSCRIPT = "in-noscript"
# The elements that place what is inside them, and the code each gives; in the order a link's
# problems give them.
PLACEMENT_HOLDERS: tuple[tuple[str, str], ...] = (
    ("template", INERT_TEMPLATE),
    ("noscript", IN_NOSCRIPT),
)
PLACEMENTS = tuple(code for _, code in PLACEMENT_HOLDERS)

# The codes of metadata for other sites (metadata.py), and of JSON-LD: not the HTML standard's
# links, as NONSTANDARD.
JSON_LD_CODE = "json-ld"
METADATA = (OPEN_GRAPH, TWITTER_CARD, MSAPPLICATION, JSON_LD_CODE)


def _tags(*names: str) -> frozenset[str]:
    return frozenset(names)


LINK_SOURCES: tuple[LinkSource, ...] = (
    LinkSource(_tags("a", "area"), "href", URL, "link", spec="#attr-hyperlink-href"),
    LinkSource(_tags("link"), "href", URL, "rel", spec="#attr-link-href; kind from rel"),
    LinkSource(_tags("a", "area"), "ping", URLS, "other", spec="#ping, hyperlink auditing"),
    LinkSource(
        _tags("img", "iframe", "frame", "embed", "audio", "video", "source", "track", "script"),
        "src",
        URL,
        "resource",
        spec="#attr-img-src, #attr-iframe-src, #attr-media-src... (embedded content)",
    ),
    LinkSource(_tags("img", "source"), "srcset", SRCSET, "resource", spec="#attr-img-srcset"),
    LinkSource(_tags("link"), "imagesrcset", SRCSET, "resource", spec="#attr-link-imagesrcset"),
    LinkSource(_tags("input"), "src", URL, "resource", when="type=image", spec="#attr-input-src"),
    LinkSource(
        _tags("image"),
        "src",
        URL,
        "resource",
        when="not-svg",
        spec='#parsing-main-inbody: "image": change the tag name to "img"',
    ),
    LinkSource(_tags("video"), "poster", URL, "resource", spec="#attr-video-poster"),
    LinkSource(
        _tags("object"),
        "data",
        URL,
        "resource",
        base=CODEBASE,
        spec="#attr-object-data; HTML 4 codebase",
    ),
    LinkSource(_tags("object", "applet"), "codebase", URL, "resource", spec="HTML 4 §13.3"),
    LinkSource(
        _tags("object", "applet"), "classid", URL, "resource", base=CODEBASE, spec="HTML 4 §13.3"
    ),
    LinkSource(
        _tags("object"),
        "archive",
        URLS,
        "resource",
        base=CODEBASE,
        spec="HTML 4 §13.3 (space-separated)",
    ),
    LinkSource(
        _tags("applet"),
        "archive",
        COMMA_URLS,
        "resource",
        base=CODEBASE,
        spec="HTML 4 §13.4 (comma-separated)",
    ),
    LinkSource(_tags("applet"), "code", URL, "resource", base=CODEBASE, spec="HTML 4 §13.4"),
    # https://html.spec.whatwg.org/#form-submission-algorithm: "If action is the empty string,
    # let action be the URL of the form document" (an absent action is the empty string too).
    LinkSource(_tags("form"), "action", URL, "form", missing="", spec="#form-submission-algorithm"),
    LinkSource(_tags("button", "input"), "formaction", URL, "form", spec="#attr-fs-formaction"),
    LinkSource(
        _tags("blockquote", "q", "del", "ins"),
        "cite",
        URL,
        "link",
        spec="#attr-blockquote-cite, #attr-q-cite, #attr-mod-cite",
    ),
    LinkSource(_tags("img", "frame", "iframe"), "longdesc", URL, "link", spec="HTML 4 §13.2"),
    LinkSource(_tags("img"), "lowsrc", URL, "resource", spec="Netscape extension"),
    LinkSource(_tags("img"), "dynsrc", URL, "resource", spec="Internet Explorer extension"),
    LinkSource(
        _tags("img", "input", "object"),
        "usemap",
        URL,
        "other",
        spec="#attr-hyperlink-usemap (input, object: obsolete)",
    ),
    LinkSource(
        # https://html.spec.whatwg.org/#tables-2: "When a table, thead, tbody, tfoot, tr, td,
        # or th element has a background attribute set to a non-empty value, the new value is
        # expected to be encoding-parsed relative to the element's node document, and if that
        # does not return failure, the user agent is expected to treat the attribute as a
        # presentational hint setting the element's 'background-image' property"
        _tags("body", "table", "thead", "tbody", "tfoot", "tr", "td", "th"),
        "background",
        URL,
        "resource",
        spec="#tables-2, #the-page (obsolete, still rendered)",
    ),
    LinkSource(_tags("head"), "profile", URLS, "other", spec="HTML 4 §7.4.4.3"),
    LinkSource(_tags("html"), "manifest", URL, "resource", spec="#non-conforming-features"),
    LinkSource(None, "itemtype", URLS, "other", spec="#attr-itemtype (microdata)"),
    LinkSource(None, "itemid", URL, "other", spec="#attr-itemid (microdata)"),
    LinkSource(
        _tags("param"), "value", URL, "resource", when="valuetype=ref", spec="HTML 4 §13.3.2"
    ),
    LinkSource(
        _tags("meta"),
        "content",
        REFRESH,
        "refresh",
        when="http-equiv=refresh",
        spec="#attr-meta-http-equiv-refresh",
    ),
    # Metadata for other sites, by the property or name of a <meta>: each family's URL-valued
    # names (METADATA_URLS), the kind by the name; an element that is of two families (a
    # property of one, a name of the other) gives its link once, by the first row
    *(
        LinkSource(_tags("meta"), "content", URL, "metadata", when=code, problem=code, spec=spec)
        for code, spec in (
            (OPEN_GRAPH, "https://ogp.me/"),
            (TWITTER_CARD, "developer.x.com Cards markup"),
            (MSAPPLICATION, "Internet Explorer 11 pinned sites (browserconfig)"),
        )
    ),
    LinkSource(
        _tags("script"),
        TEXT,
        JSON_LD,
        "link",
        when="type=application/ld+json",
        problem=JSON_LD_CODE,
        spec="JSON-LD 1.1 §7 (embedded in HTML); schema.org URL properties (find/jsonld.py)",
    ),
    LinkSource(None, "style", CSS, "resource", spec="CSS url(), image-set() in style attributes"),
    # <style> element text: url(), image-set() and @import (the syntax is the link's attr); in
    # SVG too, whose <style> holds CSS the same way
    LinkSource(_tags("style"), TEXT, CSS_TEXT, "resource", spec="#the-style-element"),
    LinkSource(
        _tags("iframe"),
        "srcdoc",
        SRCDOC,
        "other",
        spec="#attr-iframe-srcdoc: its links, against its container's base (#fallback-base-url)",
    ),
    LinkSource(
        None, "href", URL, "other", when="custom-element", spec="#valid-custom-element-name"
    ),
    LinkSource(None, "src", URL, "other", when="custom-element", spec="#valid-custom-element-name"),
    LinkSource(None, "href", URL, "foreign", when="foreign-href", spec="SVG 2 / MathML href"),
    LinkSource(None, "xlink:href", URL, "foreign", when="svg-or-math", spec="SVG 1.1 / XLink"),
    # Lazy loading: a page's script copies these into src/srcset (or a CSS background) when
    # the element scrolls into view. None is in a standard; each is read by web archivers'
    # extractors: Heritrix's ExtractorHTML (data-src, data-srcset, data-original,
    # data-original-set), Browsertrix's autofetch (data-src, data-srcset on img, video, audio,
    # source), lazysizes and its unveilhooks plugin (data-src, data-srcset, data-bg,
    # data-poster); data-lazy-src(set) is WordPress's lazy-load plugins', data-lazy slick's.
    *(
        LinkSource(None, attr, syntax, kind, problem=NONSTANDARD, spec="lazy loading")
        for attr, syntax, kind in (
            ("data-src", URL, "resource"),
            ("data-srcset", SRCSET, "resource"),
            ("data-original", URL, "resource"),
            ("data-original-set", SRCSET, "resource"),
            ("data-lazy-src", URL, "resource"),
            ("data-lazy-srcset", SRCSET, "resource"),
            ("data-bg", URL, "resource"),
            ("data-background", URL, "resource"),
            ("data-poster", URL, "resource"),
            # a clickable row or card (and Facebook's social plugins' page): a hyperlink
            ("data-href", URL, "link"),
        )
    ),
    # slick's: on other elements data-lazy is a flag ("true" on a <link>, in the corpus)
    LinkSource(
        _tags("img", "source", "iframe"),
        "data-lazy",
        URL,
        "resource",
        problem=NONSTANDARD,
        spec="lazy loading",
    ),
)
"""Every link source in a document; a ``spec`` starting with ``#`` is an anchor of the HTML
standard (https://html.spec.whatwg.org/)."""

# Links in HTTP response headers (of a WARC record, a raw response file, or `headers=`): the
# attr is the header's name, lower case. They are resolved against the retrieval URL, never the
# document's <base>: the header is not in it.
HEADER_LINK_SOURCES: tuple[LinkSource, ...] = (
    LinkSource(
        _tags("http"), "location", URL, "link", when="3xx", spec="RFC 9110 §10.2.2, redirects"
    ),
    LinkSource(_tags("http"), "link", LINK_HEADER, "rel", spec="RFC 8288 §3; kind from rel"),
    LinkSource(
        _tags("http"), "refresh", REFRESH, "refresh", spec="#shared-declarative-refresh-steps"
    ),
    # the representation's URL: a link Common Crawl's host graph counts (cc-pyspark), never
    # an HTTP body's base (RFC 2616's rule is gone); a MIME part's is its base (base/)
    LinkSource(_tags("http"), "content-location", URL, "other", spec="RFC 9110 §8.7"),
)


# --- the rules rows name -------------------------------------------------------------------

# The elements whose rel attribute a link records (#attr-hyperlink-rel, #attr-link-rel), and
# those whose text it records (anchor.py).
REL_ELEMENTS = frozenset({"a", "area", "link"})
TEXT_ELEMENTS = frozenset({"a", "area"})

# https://html.spec.whatwg.org/#parsing-main-inbody: 'A start tag whose tag name is "svg"':
# "Insert a foreign element for the token, with SVG namespace" (and "math", MathML's): the
# <svg> or <math> element itself is in its namespace too, and its href is SVG's or MathML's.
# lxml's HTML parser gives it no namespace, so the tag tells.
_IN_SVG_OR_MATH = Within(("svg", "math"), itself=True)

# A row's kind that is decided per link: (element, tag, normalised rel) -> a kind of KINDS.
KIND_RULES: dict[str, KindRule] = {
    "rel": RelKind(),  # <link href>, the Link header: by rel
    # SVG <a> and MathML href are hyperlinks; other SVG hrefs (use, image...) load things
    "foreign": ForeignKind(frozenset({"a"}), Within(("math",), itself=True), "link", "resource"),
    "metadata": MetadataKind("other"),  # <meta content>: by its property or name (METADATA_URLS)
}

# https://html.spec.whatwg.org/#valid-custom-element-name: a lower-case ASCII letter first, a
# hyphen inside, and not one of the SVG/MathML names below. (<lazy-image src>,
# <phoenix-super-link href>: URLs a page's scripts load; kind "other" as their meaning is the
# page's own.)
_RESERVED_CUSTOM = frozenset(
    {
        "annotation-xml",
        "color-profile",
        "font-face",
        "font-face-src",
        "font-face-uri",
        "font-face-format",
        "font-face-name",
        "missing-glyph",
    }
)


def _is_custom_element(tag: str) -> bool:
    return "-" in tag and "a" <= tag[0] <= "z" and ":" not in tag and tag not in _RESERVED_CUSTOM


# The HTML elements whose own href rows are above (or whose href is the base): the foreign
# rows skip them, so that no href is counted twice.
_HTML_HREF = frozenset({"a", "area", "link", BASE_ELEMENT})

# A row's condition has a part on the tag alone, decided once when the tag's plan is built,
# and a part on the element, checked for each element; a key is in one table or both.
TAG_CONDITIONS: dict[str, Callable[[str], bool]] = {
    "foreign-href": lambda tag: tag not in _HTML_HREF,
    "custom-element": _is_custom_element,
}


# The conditions on one attribute's value: (the attribute, the test of its value, "" when it is
# absent). A row that reads an element's text takes only these: the walkers test the value
# before anything else of the element (every <script> of a page reaches the JSON-LD row; the
# compiled walk reads a type without making the element's proxy).
VALUE_CONDITIONS: dict[str, tuple[str, ValueIs]] = {
    # JSON-LD 1.1 §7.1: "a script element having a type attribute of application/ld+json"
    # (its essence: a charset parameter does not make it another type)
    "type=application/ld+json": ("type", ValueIs("application/ld+json", essence=True)),
}


CONDITIONS: dict[str, Condition] = {
    "type=image": AttributeIs("type", ValueIs("image")),
    "valuetype=ref": AttributeIs("valuetype", ValueIs("ref")),
    "http-equiv=refresh": AttributeIs("http-equiv", ValueIs("refresh")),
    "svg-or-math": _IN_SVG_OR_MATH,
    "foreign-href": _IN_SVG_OR_MATH,
    "not-svg": Within(("svg",), negated=True),
    **{key: AttributeIs(attr, test) for key, (attr, test) in VALUE_CONDITIONS.items()},
    **{family: MetadataFamily(family) for family in METADATA_URLS},
}

# A header row's condition, on the response's status.
HEADER_CONDITIONS: dict[str, Callable[[int | None], bool]] = {
    "3xx": lambda status: status is not None and 300 <= status < 400,
}


def check(
    sources: tuple[LinkSource, ...], conditions: set[str], syntaxes: frozenset[str] = SYNTAXES
) -> None:
    """Refuse a row whose names are in no registry (run at import, on both tables).

    Raises ValueError naming the row: a mistyped ``when`` would otherwise hold always, a
    mistyped kind reach the output.
    """
    read_text: frozenset[str] = frozenset()  # the elements a text row reads
    for source in sources:
        wrong = []
        if source.when and source.when not in conditions:
            wrong.append(f"when {source.when!r}")
        if source.kind not in KINDS and source.kind not in KIND_RULES:
            wrong.append(f"kind {source.kind!r}")
        if source.syntax not in syntaxes:
            wrong.append(f"syntax {source.syntax!r}")
        if source.base not in ("", CODEBASE):
            wrong.append(f"base {source.base!r}")
        # base.codebase_applies is the rule; a row says which of its tags it governs: all
        # or none (the walker reads the row, and the rule only for pairs added by a caller)
        applies = {codebase_applies(tag, source.attr) for tag in source.tags or CODEBASE_ELEMENTS}
        if applies != {source.base == CODEBASE}:
            wrong.append(f"base {source.base!r} against base.codebase_applies")
        if (source.syntax in TEXT_SYNTAXES) != (source.attr == TEXT):
            wrong.append(f"attr {source.attr!r} for syntax {source.syntax!r}")
        if source.syntax in TEXT_SYNTAXES and (
            source.tags is None
            or source.missing is not None
            or (source.when and source.when not in VALUE_CONDITIONS)
        ):
            wrong.append("an element's text is read for named elements only, by element")
        if source.syntax in TEXT_SYNTAXES and source.tags and source.tags & read_text:
            wrong.append("one text row per element")
        if source.syntax in TEXT_SYNTAXES:
            read_text |= source.tags or frozenset()
        if wrong:
            raise ValueError(f"link source {source.tags} {source.attr!r}: {', '.join(wrong)}")


check(LINK_SOURCES, set(TAG_CONDITIONS) | set(CONDITIONS))
# what walk.header_links reads in a header's value
HEADER_SYNTAXES = frozenset({URL, LINK_HEADER, REFRESH})
check(HEADER_LINK_SOURCES, set(HEADER_CONDITIONS), HEADER_SYNTAXES)
