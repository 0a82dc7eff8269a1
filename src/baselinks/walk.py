"""walk: the table of link sources (data), and a walker that finds links and never resolves.

:data:`LINK_SOURCES` lists every place the HTML standard (and HTML 4, for the legacy
attributes real pages still carry) puts a URL, and the lazy-load attributes real pages use
(marked NONSTANDARD). :func:`raw_links` gives a :class:`RawLink` for each URL found, in document
order, with where it lives (INERT_TEMPLATE, IN_NOSCRIPT). Python visits each element once and
reads no further than its attribute names unless one of them is in the table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache, partial
from typing import Any, NamedTuple

from lxml import etree
from lxml.cssselect import CSSSelector, SelectorError

from .anchor import anchor_text
from .css import css_urls
from .errors import SelectError
from .microsyntax import (
    ASCII_WHITESPACE,
    parse_link_header,
    parse_refresh,
    parse_srcset,
    split_urls,
)

__all__ = [
    "HEADER_LINK_SOURCES",
    "INERT_TEMPLATE",
    "IN_NOSCRIPT",
    "LINK_SOURCES",
    "NONSTANDARD",
    "PLACEMENTS",
    "LinkSource",
    "RawLink",
    "XPath",
    "attribute_pairs",
    "header_links",
    "raw_links",
    "select_roots",
]

# How an attribute's value holds URLs.
URL = "url"  # the whole value is one URL
URLS = "urls"  # space-separated URLs
COMMA_URLS = "comma-urls"  # comma-separated URLs (applet archive)
SRCSET = "srcset"  # the srcset micro-syntax
REFRESH = "refresh"  # <meta http-equiv=refresh content>
CSS = "css"  # a style attribute's CSS
SRCDOC = "srcdoc"  # a whole nested document


class LinkSource(NamedTuple):
    """One row of the table: which elements, which attribute, how it holds URLs, what for."""

    tags: frozenset[str] | None  # None: any element
    attr: str
    syntax: str
    kind: str  # "link" | "resource" | "form" | "refresh" | "other"; "rel" for <link>, by rel
    when: str = ""  # a condition: a key of _TAG_CONDITIONS and/or _CONDITIONS
    spec: str = ""
    problem: str = ""  # a code every link of this row carries (NONSTANDARD)
    missing: str | None = None  # what an absent attribute stands for (None: no link)


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
PLACEMENTS = (INERT_TEMPLATE, IN_NOSCRIPT)  # in the order a link's problems give them


def _tags(*names: str) -> frozenset[str]:
    return frozenset(names)


LINK_SOURCES: tuple[LinkSource, ...] = (
    LinkSource(_tags("a", "area"), "href", URL, "link", spec="HTML §4.6 hyperlinks"),
    LinkSource(_tags("link"), "href", URL, "rel", spec="HTML §4.2.4; kind from rel"),
    LinkSource(_tags("a", "area"), "ping", URLS, "other", spec="HTML §4.6.6 hyperlink auditing"),
    LinkSource(
        _tags("img", "iframe", "frame", "embed", "audio", "video", "source", "track", "script"),
        "src",
        URL,
        "resource",
        spec="HTML embedded content",
    ),
    LinkSource(_tags("img", "source"), "srcset", SRCSET, "resource", spec="HTML §4.8.4.3"),
    LinkSource(_tags("link"), "imagesrcset", SRCSET, "resource", spec="HTML §4.2.4 preload"),
    LinkSource(_tags("input"), "src", URL, "resource", when="type=image", spec="HTML §4.10.5.1.20"),
    LinkSource(
        _tags("image"),
        "src",
        URL,
        "resource",
        when="not-svg",
        spec="HTML §13.2.6.4.7: <image> is <img>",
    ),
    LinkSource(_tags("video"), "poster", URL, "resource", spec="HTML §4.8.9"),
    LinkSource(_tags("object"), "data", URL, "resource", spec="HTML §4.8.7; HTML 4 codebase"),
    LinkSource(_tags("object", "applet"), "codebase", URL, "resource", spec="HTML 4 §13.3"),
    LinkSource(_tags("object", "applet"), "classid", URL, "resource", spec="HTML 4 §13.3"),
    LinkSource(_tags("object"), "archive", URLS, "resource", spec="HTML 4 §13.3 (space-separated)"),
    LinkSource(
        _tags("applet"), "archive", COMMA_URLS, "resource", spec="HTML 4 §13.4 (comma-separated)"
    ),
    LinkSource(_tags("applet"), "code", URL, "resource", spec="HTML 4 §13.4"),
    # https://html.spec.whatwg.org/#form-submission-algorithm: "If action is the empty string,
    # let action be the URL of the form document" (an absent action is the empty string too).
    LinkSource(
        _tags("form"), "action", URL, "form", missing="", spec="HTML #form-submission-algorithm"
    ),
    LinkSource(
        _tags("button", "input"), "formaction", URL, "form", spec="HTML #attr-fs-formaction"
    ),
    LinkSource(
        _tags("blockquote", "q", "del", "ins"),
        "cite",
        URL,
        "link",
        spec="HTML §4.4.4, §4.5.7, §4.7",
    ),
    LinkSource(_tags("img", "frame", "iframe"), "longdesc", URL, "link", spec="HTML 4 §13.2"),
    LinkSource(_tags("img"), "lowsrc", URL, "resource", spec="Netscape extension"),
    LinkSource(_tags("img"), "dynsrc", URL, "resource", spec="Internet Explorer extension"),
    LinkSource(_tags("img", "input", "object"), "usemap", URL, "other", spec="HTML §4.8.15"),
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
        spec="HTML #tables-2, #the-page (obsolete, still rendered)",
    ),
    LinkSource(_tags("head"), "profile", URLS, "other", spec="HTML 4 §7.4.4.3"),
    LinkSource(_tags("html"), "manifest", URL, "resource", spec="HTML (obsolete appcache)"),
    LinkSource(None, "itemtype", URLS, "other", spec="HTML §5.2.2 microdata"),
    LinkSource(None, "itemid", URL, "other", spec="HTML §5.2.2 microdata"),
    LinkSource(
        _tags("param"), "value", URL, "resource", when="valuetype=ref", spec="HTML 4 §13.3.2"
    ),
    LinkSource(
        _tags("meta"),
        "content",
        REFRESH,
        "refresh",
        when="http-equiv=refresh",
        spec="HTML §4.2.5.3",
    ),
    LinkSource(None, "style", CSS, "resource", spec="CSS url(), image-set() in style attributes"),
    LinkSource(
        _tags("iframe"),
        "srcdoc",
        SRCDOC,
        "other",
        spec="HTML §4.8.5: its links, its container's base",
    ),
    LinkSource(
        None, "href", URL, "other", when="custom-element", spec="HTML §4.13 custom elements"
    ),
    LinkSource(None, "src", URL, "other", when="custom-element", spec="HTML §4.13 custom elements"),
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
"""Every link source; `<style>` element text (CSS ``url()`` and ``@import``) is walked too."""

# The HTML elements whose own href rows are above; the foreign rows skip them.
_HTML_HREF = frozenset({"a", "area", "link", "base"})
# The <base> element's href is the base, not a link.

# A row's condition has a part on the tag alone, decided once when the tag's plan is built,
# and a part on the element, checked for each element. A condition missing from a table holds.
_TAG_CONDITIONS: dict[str, Callable[[str], bool]] = {
    # href on a/area/link/base has its own HTML rows (or is the base): not counted twice here
    "foreign-href": lambda tag: tag not in _HTML_HREF,
    "custom-element": lambda tag: _is_custom_element(tag),
}
_CONDITIONS: dict[str, Callable[[Any], bool]] = {
    "type=image": lambda el: (el.get("type") or "").strip(ASCII_WHITESPACE).lower() == "image",
    "valuetype=ref": lambda el: (
        (el.get("valuetype") or "").strip(ASCII_WHITESPACE).lower() == "ref"
    ),
    "http-equiv=refresh": lambda el: (
        (el.get("http-equiv") or "").strip(ASCII_WHITESPACE).lower() == "refresh"
    ),
    "svg-or-math": lambda el: _in_svg_or_math(el),
    "foreign-href": lambda el: _in_svg_or_math(el),
    "not-svg": lambda el: next(el.iterancestors("svg"), None) is None,
}

# HTML §4.13.2 "valid custom element name": a lower-case ASCII letter first, a hyphen inside,
# and not one of the SVG/MathML names below. (<lazy-image src>, <phoenix-super-link href>:
# URLs a page's scripts load; kind "other" as their meaning is the page's own.)
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


_FOREIGN_ROOTS = ("svg", "math")


def _in_svg_or_math(element: Any) -> bool:
    # The <svg> or <math> element itself is in its namespace too: 'A start tag whose tag name
    # is "svg"': "Insert a foreign element for the token, with SVG namespace" (and "math",
    # MathML's; https://html.spec.whatwg.org/#parsing-main-inbody). Its href is SVG's or
    # MathML's; lxml's HTML parser gives it no namespace, so the tag tells.
    if element.tag in _FOREIGN_ROOTS:
        return True
    return next(element.iterancestors(*_FOREIGN_ROOTS), None) is not None


def _in_math(element: Any) -> bool:
    return element.tag == "math" or next(element.iterancestors("math"), None) is not None


def _is_custom_element(tag: str) -> bool:
    return "-" in tag and "a" <= tag[0] <= "z" and ":" not in tag and tag not in _RESERVED_CUSTOM


# <link rel> tokens that make the linked thing a resource the page loads.
_RESOURCE_RELS = frozenset(
    {
        "stylesheet",
        "icon",
        "shortcut",
        "apple-touch-icon",
        "apple-touch-icon-precomposed",
        "mask-icon",
        "preload",
        "modulepreload",
        "prefetch",
        "prerender",
        "manifest",
    }
)

# The walker's plan for one tag: for each attribute name, its rows as plain tuples (row number,
# attr, syntax, kind, condition or None, whether `codebase` applies, the row's problem codes,
# what an absent attribute stands for), with the conditions that depend on the tag alone
# already decided. Built on first sight of a tag, then looked up; the walker looks up the
# element's own attribute names (two or three) instead of trying every row of the tag (ten for
# <img>), and sorts by row number to keep the table's order. Rows read even when their attribute
# is absent (form action) are under the key _MISSING too.
_Step = tuple[int, str, str, str, Callable[[Any], bool] | None, bool, tuple[str, ...], str | None]
_MISSING = ""
# HTML 4 §13.3: codebase is the base of these attributes of <object> and <applet>.
_CODEBASE_ATTRS = frozenset({"data", "classid", "archive", "code"})
# A pair given with `attributes=`: its spec, which tells it from the table's own rows.
_ADDED = "added by the caller"


class _Table:
    """Link sources as the walker reads them: each tag's plan, built on first sight."""

    def __init__(self, sources: tuple[LinkSource, ...]) -> None:
        self.sources = sources
        self.plans: dict[str, dict[str, tuple[_Step, ...]]] = {}
        # Every attribute name some row reads: an element without one of them is passed over,
        # unless its tag has a row read when the attribute is absent.
        self.attrs = frozenset(s.attr for s in sources)
        self.always = frozenset(
            tag for s in sources if s.missing is not None and s.tags for tag in s.tags
        )

    def plan(self, tag: str) -> dict[str, tuple[_Step, ...]]:
        plan: dict[str, tuple[_Step, ...]] = {}
        for number, source in enumerate(self.sources):
            if source.tags is not None and tag not in source.tags:
                continue
            on_tag = _TAG_CONDITIONS.get(source.when)
            if on_tag is not None and not on_tag(tag):
                continue
            when = _CONDITIONS.get(source.when)
            if source.spec == _ADDED and source.attr in plan:
                # The table reads this attribute of this tag already: the pair adds it only
                # where none of those rows applies (href on a <div> outside SVG).
                conditions = [step[4] for step in plan[source.attr]]
                if None in conditions:
                    continue
                when = partial(_none_applies, tuple(c for c in conditions if c is not None))
            codebase = tag in ("object", "applet") and source.attr in _CODEBASE_ATTRS
            codes: tuple[str, ...] = (source.problem,) if source.problem else ()
            step: _Step = (
                number,
                source.attr,
                source.syntax,
                source.kind,
                when,
                codebase,
                codes,
                source.missing,
            )
            plan[source.attr] = (*plan.get(source.attr, ()), step)
            if source.missing is not None:
                plan[_MISSING] = (*plan.get(_MISSING, ()), step)
        self.plans[tag] = plan
        return plan


def _none_applies(conditions: tuple[Callable[[Any], bool], ...], element: Any) -> bool:
    return not any(condition(element) for condition in conditions)


_TABLE = _Table(LINK_SOURCES)


@lru_cache(maxsize=32)
def _table(attributes: tuple[tuple[str, str], ...]) -> _Table:
    """The table with the caller's (tag, attribute) pairs after its own rows (tag "*": any).

    A pair's attribute is read as one URL, or as a srcset when its name ends in "srcset"; its
    kind is "other" (what the page does with it is the page's own), and its links carry
    NONSTANDARD. Where a row of the table reads that attribute of that tag, the pair adds
    nothing: no link is found twice.
    """
    if not attributes:
        return _TABLE
    added = tuple(
        LinkSource(
            None if tag == "*" else frozenset({tag}),
            attr,
            SRCSET if attr.endswith("srcset") else URL,
            "other",
            problem=NONSTANDARD,
            spec=_ADDED,
        )
        for tag, attr in attributes
    )
    return _Table(LINK_SOURCES + added)


def attribute_pairs(attributes: Iterable[tuple[str, str]] | None) -> tuple[tuple[str, str], ...]:
    """``attributes=`` checked and lower-cased: ``(tag, attribute)`` pairs, ``"*"`` for any tag.

    HTML's parser lower-cases tag and attribute names, so ``("DIV", "data-URL")`` is
    ``("div", "data-url")``. Raises ValueError for what is not such a pair.
    """
    pairs: list[tuple[str, str]] = []
    for pair in attributes or ():
        if not isinstance(pair, tuple | list) or len(pair) != 2:
            raise ValueError(f"attributes: expected (tag, attribute) pairs, got {pair!r}")
        tag, attr = pair
        if not (isinstance(tag, str) and isinstance(attr, str) and tag.strip() and attr.strip()):
            raise ValueError(f"attributes: expected (tag, attribute) pairs, got {pair!r}")
        pairs.append((tag.strip().lower(), attr.strip().lower()))
    return tuple(dict.fromkeys(pairs))


class RawLink(NamedTuple):
    """A URL as found, before any resolution."""

    raw: str  # as written in the attribute or text (after entity decoding)
    tag: str
    attr: str  # the attribute, or the micro-syntax ("url()", "@import") in <style> text
    kind: str
    line: int | None
    text: str = ""
    rel: str = ""
    codebase: str | None = None  # HTML 4: resolve against the element's codebase first
    # what the walker knows is odd: "invalid-srcset-descriptor", NONSTANDARD, where it lives
    problems: tuple[str, ...] = ()
    nested: bool = False  # raw is a whole document (iframe srcdoc)


def _row_number(step: _Step) -> int:
    return step[0]


_INVALID_SRCSET = ("invalid-srcset-descriptor",)


def _element_links(
    element: Any,
    tag: str,
    keys: list[str],
    table: _Table,
    placed: tuple[str, ...],
    out: list[RawLink],
    nested: dict[Any, str],
) -> None:
    # The hot loop of the walk (one call per element with a link attribute): plain tuples and
    # local names. RawLinks are built with tuple.__new__, skipping NamedTuple's Python-level
    # __new__ (0.16 µs against 0.39 µs), so every field is given, in order.
    new = tuple.__new__
    line = element.sourceline
    rel = ""
    text = ""
    if tag in ("a", "area", "link"):
        written = element.get("rel")
        if written:
            rel = " ".join(written.lower().split())
        if tag != "link":
            text = anchor_text(element, nested)
    plan = table.plans.get(tag)
    if plan is None:
        plan = table.plan(tag)
    steps: list[_Step] = []
    for key in keys:
        rows = plan.get(key)
        if rows is not None:
            steps.extend(rows)
    missing = plan.get(_MISSING)
    if missing is not None:
        steps.extend(step for step in missing if step[1] not in keys)
    if len(steps) > 1:
        steps.sort(key=_row_number)
    for _, attr, syntax, kind, when, codebase_applies, codes, absent in steps:
        if when is not None and not when(element):
            continue
        value = element.get(attr, absent)
        if placed:
            codes += placed
        if kind == "rel":
            kind = "resource" if _RESOURCE_RELS.intersection(rel.split()) else "link"
        elif kind == "foreign":
            # SVG <a> and MathML href are hyperlinks; other SVG hrefs (use, image...) load things.
            in_math = tag != "a" and _in_math(element)
            kind = "link" if tag == "a" or in_math else "resource"
        if syntax == URL:
            codebase = element.get("codebase") if codebase_applies else None
            out.append(
                new(RawLink, (value, tag, attr, kind, line, text, rel, codebase, codes, False))
            )
        elif syntax in (URLS, COMMA_URLS):
            codebase = element.get("codebase") if codebase_applies else None
            for token in split_urls(value, "," if syntax == COMMA_URLS else None):
                out.append(RawLink(token, tag, attr, kind, line, text, rel, codebase, codes))
        elif syntax == SRCSET:
            for candidate in parse_srcset(value):
                found = codes if candidate.valid else _INVALID_SRCSET + codes
                out.append(RawLink(candidate.url, tag, attr, kind, line, "", rel, None, found))
        else:
            _other_syntax(value, syntax, tag, attr, kind, line, codes, out)


def _other_syntax(
    value: str,
    syntax: str,
    tag: str,
    attr: str,
    kind: str,
    line: int | None,
    codes: tuple[str, ...],
    out: list[RawLink],
) -> None:
    if syntax == REFRESH:
        url = parse_refresh(value)
        if url is not None:
            out.append(RawLink(url, tag, attr, kind, line, problems=codes))
    elif syntax == CSS:
        for found in css_urls(value):
            out.append(RawLink(found.url, tag, attr, kind, line, problems=codes))
    elif syntax == SRCDOC:
        out.append(RawLink(value, tag, attr, kind, line, problems=codes, nested=True))


def _placements(roots: list[Any]) -> dict[Any, tuple[str, ...]]:
    """The elements inside a ``<template>`` or a ``<noscript>``, each with its codes.

    Each subtree is marked once (a template inside a template is inside the outer one's), so
    the work is linear in the elements marked; a document with neither costs one search.
    """
    placed: dict[Any, tuple[str, ...]] = {}
    for root in roots:
        # a root chosen by `select` may itself be inside one
        above = {_code(holder) for holder in root.iterancestors("template", "noscript")}
        if above:
            codes = tuple(c for c in PLACEMENTS if c in above)
            placed.update((element, codes) for element in root.iter())
        for holder in root.iter("template", "noscript"):
            code = _code(holder)
            if code in placed.get(holder, ()):
                continue  # inside an outer one of its kind: marked with it
            for element in holder.iterdescendants():
                codes = placed.get(element, ())
                if code not in codes:
                    # in a fixed order, whichever holder is outside the other
                    codes = tuple(c for c in PLACEMENTS if c in codes or c == code)
                    placed[element] = codes
    return placed


def _code(holder: Any) -> str:
    return INERT_TEMPLATE if holder.tag == "template" else IN_NOSCRIPT


def raw_links(
    tree: Any,
    within: list[Any] | None = None,
    attributes: tuple[tuple[str, str], ...] = (),
) -> list[RawLink]:
    """Every link in ``tree`` (or only inside the ``within`` elements), in document order.

    ``attributes``: (tag, attribute) pairs read besides the table (see :func:`attribute_pairs`).
    A list, not a generator: the document is the unit that is held in memory anyway (its tree),
    and appending was measured faster than a chain of generators, one resumption per link.
    """
    # Python visits every element, but looks no further than its attribute names unless one of
    # them is a link attribute. Measured on the corpus: one compiled XPath selecting the
    # elements with any link attribute (30 "@x or" tests) took 8 times as long as this loop.
    table = _table(attributes)
    link_attrs, always = table.attrs, table.always
    roots = [tree] if within is None else within
    placements = _placements(roots)
    placed: tuple[str, ...] = ()
    out: list[RawLink] = []
    nested: dict[Any, str] = {}  # the texts of anchors inside anchors (see anchor_text)
    for root in roots:
        for element in root.iter(etree.Element):
            tag = element.tag
            if placements:
                placed = placements.get(element, ())
            if tag == "style":
                # <style> element text: url(), image-set() and @import
                text = element.text or ""
                base_line = element.sourceline or 1
                for found in css_urls(text):
                    line = base_line + found.line - 1
                    out.append(
                        RawLink(found.url, "style", found.syntax, "resource", line, problems=placed)
                    )
            keys = element.keys()
            if tag == "base" or ((not keys or link_attrs.isdisjoint(keys)) and tag not in always):
                continue  # no link attribute; <base href> is the base (base.py), not a link
            _element_links(element, tag, keys, table, placed, out, nested)
    return out


# Links in HTTP response headers (of a WARC record, a raw response file, or `headers=`). They
# are resolved against the retrieval URL, never the document's <base>: the header is not in it.
HEADER_LINK_SOURCES: tuple[LinkSource, ...] = (
    LinkSource(
        _tags("http"), "location", URL, "link", when="3xx", spec="RFC 9110 §10.2.2, redirects"
    ),
    LinkSource(_tags("http"), "link", URL, "rel", spec="RFC 8288 §3; kind from rel"),
    LinkSource(_tags("http"), "refresh", REFRESH, "refresh", spec="HTML §7.11.1, Refresh header"),
)


def header_links(status: int | None, headers: Iterable[tuple[str, str]]) -> Iterator[RawLink]:
    """The links an HTTP response's headers carry, in header order (tag ``http``)."""
    for key, value in headers:
        name = key.lower()
        if name == "location" and status is not None and 300 <= status < 400:
            yield RawLink(value, "http", "location", "link", None)
        elif name == "link":
            for found in parse_link_header(value):
                kind = "resource" if _RESOURCE_RELS.intersection(found.rel.split()) else "link"
                yield RawLink(found.url, "http", "link", kind, None, rel=found.rel)
        elif name == "refresh":
            url = parse_refresh(value)
            if url is not None:
                yield RawLink(url, "http", "refresh", "refresh", None)


class XPath(str):
    """``select=XPath("//div[@id='main']")``: an XPath 1.0 expression instead of a CSS selector
    (Scrapy's ``restrict_xpaths``). What it selects besides elements is passed over."""

    __slots__ = ()


def select_roots(tree: Any, select: str | None) -> list[Any] | None:
    """The outermost elements matching ``select``, a CSS selector or an :class:`XPath`
    (``None``: the whole tree)."""
    if select is None:
        return None
    try:
        if isinstance(select, XPath):
            found = tree.xpath(str(select))
            matches = (
                [m for m in found if isinstance(m, etree._Element)]
                if isinstance(found, list)
                else []
            )
        else:
            matches = CSSSelector(select)(tree)
    except SelectorError as exc:
        raise SelectError(f"invalid CSS selector {select!r}: {exc}") from None
    except etree.XPathError as exc:
        raise SelectError(f"invalid XPath {str(select)!r}: {exc}") from None
    # Walk each outermost match once, so a link inside two matches is reported once. The
    # matches come in document order, so one is inside an earlier one exactly when it is inside
    # the last outermost one: a set of that one's descendants answers, and the outermost
    # matches are disjoint, so each element is put in such a set once at most. (Asking each
    # match's ancestors took the depth per match: select="a" under 1000 <div>s, 40,000 links,
    # 4.7 s against 0.5 s without select.)
    roots: list[Any] = []
    inside: set[Any] = set()
    for match in matches:
        if match not in inside:
            roots.append(match)
            inside = set(match.iterdescendants())
    return roots
