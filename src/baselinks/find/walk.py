"""walk: the walker over the link-source table, giving a RawLink for each URL; never resolves.

What is found is data, in linktable.py (:data:`LINK_SOURCES`, :data:`HEADER_LINK_SOURCES`, the
conditions and kind rules rows name); this module is how: :func:`raw_links` gives a
:class:`RawLink` for each URL of a parsed document, in document order, with where it lives
(INERT_TEMPLATE, IN_NOSCRIPT), and :func:`header_links` those of an HTTP response's headers.
The two are split so that adding a link attribute is one row in a module with no lxml and no
loop, and the hot loop here is read without the table's 400 lines around it. Python visits
each element once and reads no further than its attribute names unless one of them is in
the table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache, partial
from typing import Any, NamedTuple

from lxml import etree

from ..base.layers import BASE_ELEMENT, CODEBASE, codebase_applies
from ..compiled import load as load_compiled
from ..load.tokens import ASCII_WHITESPACE
from .anchor import anchor_text
from .css import css_urls
from .jsonld import INVALID, jsonld_urls
from .linktable import (
    COMMA_URLS,
    CONDITIONS,
    CSS,
    CSS_TEXT,
    HEADER_CONDITIONS,
    HEADER_LINK_SOURCES,
    KIND_RULES,
    LINK_HEADER,
    LINK_SOURCES,
    NONSTANDARD,
    PLACEMENT_HOLDERS,
    PLACEMENTS,
    REFRESH,
    REL_ELEMENTS,
    SRCDOC,
    SRCSET,
    TAG_CONDITIONS,
    TEXT_ELEMENTS,
    TEXT_SYNTAXES,
    URL,
    URLS,
    VALUE_CONDITIONS,
    LinkSource,
)
from .microsyntax import (
    parse_link_header,
    parse_refresh,
    parse_srcset,
    split_urls,
)
from .select import XPath, select_roots  # the walk's roots (re-exported: callers import here)

# The table's own names (LINK_SOURCES, KINDS, PLACEMENTS...) are imported from linktable.py,
# where they are defined; this module exports only the walker's.
__all__ = [
    "RawLink",
    "XPath",
    "attribute_pairs",
    "header_links",
    "raw_links",
    "select_roots",
]

# The walker's plan for one tag: for each attribute name, its rows as plain tuples (row number,
# attr, syntax, kind, its kind rule or None, condition or None, whether `codebase` applies, the
# row's problem codes, what an absent attribute stands for), with the conditions that depend on the
# tag alone already decided. Built on first sight of a tag, then looked up; the walker looks up
# the element's own attribute names (two or three) instead of trying every row of the tag (ten
# for <img>), and sorts by row number to keep the table's order. Rows read even when their
# attribute is absent (form action) are under the key _MISSING too.
_Rule = Callable[[Any, str, str], str] | None
_Step = tuple[
    int, str, str, str, _Rule, Callable[[Any], bool] | None, bool, tuple[str, ...], str | None
]
_Plan = dict[str, tuple[_Step, ...]]
_MISSING = ""
# A pair given with `attributes=`: its spec, which tells it from the table's own rows.
_ADDED = "added by the caller"
# How many plans of tags the table does not name are kept (beside one per tag it names). Such
# a tag's plan is that of every tag with the same answers to TAG_CONDITIONS, so a page of a
# million distinct custom element names builds few plans and keeps at most this many entries.
_UNNAMED_PLANS = 1024
# How many (tag, attribute names) sets keep their steps. The corpus has 3,475 distinct ones
# over 88,000 elements with a link attribute.
_STEP_SETS = 8192

# The compiled walk (_cwalk.pyx), or None: not built, or BASELINKS_PURE=1 (compiled.py); it
# calls _csyntax.pyx's CSS and srcset where that is built, this module's names for the rest.
_cwalk = load_compiled("baselinks.find._cwalk")
_csyntax = load_compiled("baselinks.find._csyntax")
_SYNTAX = {"css_urls": _csyntax.css_urls, "parse_srcset": _csyntax.parse_srcset} if _csyntax else {}


class _Table:
    """Link sources as the walker reads them: each tag's plan, built on first sight."""

    def __init__(self, sources: tuple[LinkSource, ...]) -> None:
        self.sources = sources
        self.plans: dict[str, _Plan] = {}
        # the plans of tags no row names, by their answers to TAG_CONDITIONS
        self.by_class: dict[tuple[bool, ...], _Plan] = {}
        self.named = frozenset(tag for s in sources if s.tags for tag in s.tags)
        self.limit = len(self.named) + _UNNAMED_PLANS
        # Every attribute name some row reads: an element without one of them is passed over,
        # unless its tag has a row read when the attribute is absent, or one that reads its text.
        self.attrs = frozenset(s.attr for s in sources if s.syntax not in TEXT_SYNTAXES)
        self.always = frozenset(
            tag for s in sources if s.missing is not None and s.tags for tag in s.tags
        )
        # the steps of an element, by its tag and attribute names (see _element_links)
        self.steps: dict[tuple[str, ...], tuple[_Step, ...]] = {}
        self.text: dict[str, LinkSource] = {
            tag: s for s in sources if s.syntax in TEXT_SYNTAXES and s.tags for tag in s.tags
        }
        # a text row's condition, on one attribute's value (linktable.VALUE_CONDITIONS), or None
        self.text_needs = {tag: VALUE_CONDITIONS.get(s.when) for tag, s in self.text.items()}
        # the compiled walk of this table (_cwalk.Scanner), made on first use (raw_links)
        self.scanner: Any = None
        # the native walk of this table (load/_chtml5's Walker), made on first use (native.py)
        self.native: Any = None

    def steps_of(self, tag: str, keys: list[str], names: tuple[str, ...]) -> tuple[_Step, ...]:
        """The steps of an element ``tag`` with the attribute names ``keys``, in row order;
        kept under ``names`` (the tag and the keys) in :attr:`steps`."""
        plan = self.plans.get(tag)
        if plan is None:
            plan = self.plan(tag)
        steps: list[_Step] = []
        for key in keys:
            rows = plan.get(key)
            if rows is not None:
                steps.extend(rows)
        missing = plan.get(_MISSING)
        if missing is not None:
            steps.extend(step for step in missing if step[1] not in keys)
        steps.sort(key=_row_number)
        if len(self.steps) >= _STEP_SETS:
            self.steps.clear()  # a bound: pages of ever new attribute names (data-*) keep few
        found = self.steps[names] = tuple(steps)
        return found

    def plan(self, tag: str) -> _Plan:
        if tag in self.named:
            plan = self._build(tag)
        else:
            key = tuple(on_tag(tag) for on_tag in TAG_CONDITIONS.values())
            found = self.by_class.get(key)
            plan = self.by_class[key] = self._build(tag) if found is None else found
            if len(self.plans) >= self.limit:
                return plan
        self.plans[tag] = plan
        return plan

    def _build(self, tag: str) -> _Plan:
        plan: _Plan = {}
        for number, source in enumerate(self.sources):
            if source.tags is not None and tag not in source.tags:
                continue
            if source.syntax in TEXT_SYNTAXES:
                continue  # the element's text, read before its attributes (raw_links)
            on_tag = TAG_CONDITIONS.get(source.when)
            if on_tag is not None and not on_tag(tag):
                continue
            when = CONDITIONS.get(source.when)
            added = source.spec == _ADDED
            if added and source.attr in plan:
                # The table reads this attribute of this tag already: the pair adds it only
                # where none of those rows applies (href on a <div> outside SVG).
                conditions = [step[5] for step in plan[source.attr]]
                if None in conditions:
                    continue
                when = partial(_none_applies, tuple(c for c in conditions if c is not None))
            # a row names the codebase rule; a caller's pair gets it where base/layers.py says
            codebase = (added or source.base == CODEBASE) and codebase_applies(tag, source.attr)
            codes: tuple[str, ...] = (source.problem,) if source.problem else ()
            step: _Step = (
                number,
                source.attr,
                source.syntax,
                source.kind,
                KIND_RULES.get(source.kind),
                when,
                codebase,
                codes,
                source.missing,
            )
            plan[source.attr] = (*plan.get(source.attr, ()), step)
            if source.missing is not None:
                plan[_MISSING] = (*plan.get(_MISSING, ()), step)
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
    # the element's hreflang (a, area, link; a Link header's parameter), as written, stripped:
    # the language of the linked resource (#attr-hyperlink-hreflang, RFC 8288 §3.4.1)
    hreflang: str = ""


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
    hreflang = ""
    if tag in REL_ELEMENTS:
        written = element.get("rel")
        if written:
            rel = " ".join(written.lower().split())
        written = element.get("hreflang")
        if written:
            hreflang = written.strip(ASCII_WHITESPACE)
        if tag in TEXT_ELEMENTS:
            text = anchor_text(element, nested)
    # The steps depend on the tag and its attribute names alone, and a page repeats both
    # (<a href class>, <img src alt>): one lookup instead of one per attribute and a sort.
    names = (tag, *keys)
    steps = table.steps.get(names)
    if steps is None:
        steps = table.steps_of(tag, keys, names)
    for _, attr, syntax, kind, rule, when, by_codebase, codes, absent in steps:
        if when is not None and not when(element):
            continue
        value = element.get(attr, absent)
        if placed:
            codes += placed
        if rule is not None:  # the row's kind names a rule of KIND_RULES ("rel", "foreign")
            kind = rule(element, tag, rel)
        if syntax == URL:
            codebase = element.get(CODEBASE) if by_codebase else None
            out.append(
                new(
                    RawLink,
                    (value, tag, attr, kind, line, text, rel, codebase, codes, False, hreflang),
                )
            )
        elif syntax in (URLS, COMMA_URLS):
            codebase = element.get(CODEBASE) if by_codebase else None
            for token in split_urls(value, "," if syntax == COMMA_URLS else None):
                link = (token, tag, attr, kind, line, text, rel, codebase, codes, False, hreflang)
                out.append(new(RawLink, link))
        elif syntax == SRCSET:
            for candidate in parse_srcset(value):
                found = codes if candidate.valid else _INVALID_SRCSET + codes
                link = (candidate.url, tag, attr, kind, line, "", rel, None, found, False, hreflang)
                out.append(new(RawLink, link))
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


_HOLDERS = dict(PLACEMENT_HOLDERS)  # <template>: INERT_TEMPLATE, <noscript>: IN_NOSCRIPT


def _placements(roots: list[Any]) -> dict[Any, tuple[str, ...]]:
    """The elements inside a ``<template>`` or a ``<noscript>``, each with its codes.

    Each subtree is marked once (a template inside a template is inside the outer one's), so
    the work is linear in the elements marked; a document with neither costs one search.
    """
    placed: dict[Any, tuple[str, ...]] = {}
    for root in roots:
        # a root chosen by `select` may itself be inside one
        above = {_HOLDERS[holder.tag] for holder in root.iterancestors(*_HOLDERS)}
        if above:
            codes = tuple(c for c in PLACEMENTS if c in above)
            placed.update((element, codes) for element in root.iter())
        for holder in root.iter(*_HOLDERS):
            code = _HOLDERS[holder.tag]
            if code in placed.get(holder, ()):
                continue  # inside an outer one of its kind: marked with it
            for element in holder.iterdescendants():
                codes = placed.get(element, ())
                if code not in codes:
                    # in a fixed order, whichever holder is outside the other
                    codes = tuple(c for c in PLACEMENTS if c in codes or c == code)
                    placed[element] = codes
    return placed


def _text_links(
    element: Any, tag: str, source: LinkSource, placed: tuple[str, ...], out: list[RawLink]
) -> None:
    # A row of the element's text, its condition tested by the walker (_Table.text_needs):
    # <style>'s url(), image-set(), @import, each at its line, its syntax the attr; a JSON-LD
    # <script>'s URLs at the element's line, the property the attr.
    codes = ((source.problem,) if source.problem else ()) + placed
    base_line = element.sourceline or 1
    if source.syntax != CSS_TEXT:  # JSON_LD (jsonld.py); a broken block's links carry INVALID
        urls, broken = jsonld_urls(element.text or "")
        codes = (INVALID, *codes) if broken else codes
        out.extend(
            RawLink(url, tag, key, kind, base_line, problems=codes) for url, key, kind in urls
        )
        return
    for found in css_urls(element.text or ""):
        line = base_line + found.line - 1
        out.append(RawLink(found.url, tag, found.syntax, source.kind, line, problems=codes))


def raw_links(
    tree: Any,
    within: list[Any] | None = None,
    attributes: tuple[tuple[str, str], ...] = (),
    *,
    pure: bool = False,
) -> list[RawLink]:
    """Every link in ``tree`` (or only inside the ``within`` elements), in document order.

    ``attributes``: (tag, attribute) pairs read besides the table (see :func:`attribute_pairs`).
    ``pure``: walk in Python even where the compiled scan is built (the tests compare both).
    A list, not a generator: the document is the unit that is held in memory anyway (its tree),
    and appending was measured faster than a chain of generators, one resumption per link.
    """
    table = _table(attributes)
    roots = [tree] if within is None else within
    if _cwalk is not None and not pure:
        if table.scanner is None:
            table.scanner = _cwalk.Scanner(table, PLACEMENT_HOLDERS, {**globals(), **_SYNTAX})
        found: list[RawLink] | None = table.scanner.links(roots)
        if found is not None:  # None: left to the loop below (an XML tree: _cwalk.pyx)
            return found
    # Python visits every element, but looks no further than its attribute names unless one of
    # them is a link attribute. Measured on the corpus: one compiled XPath selecting the
    # elements with any link attribute (30 "@x or" tests) took 8 times as long as this loop.
    link_attrs, always, text_rows, text_needs = (
        table.attrs,
        table.always,
        table.text,
        table.text_needs,
    )
    base_element = BASE_ELEMENT
    placements = _placements(roots)
    placed: tuple[str, ...] = ()
    out: list[RawLink] = []
    nested: dict[Any, str] = {}  # the texts of anchors inside anchors (see anchor_text)
    for root in roots:
        for element in root.iter(etree.Element):
            tag = element.tag
            if placements:
                placed = placements.get(element, ())
            if tag in text_rows:
                needs = text_needs[tag]
                if needs is None or needs[1](element.get(needs[0]) or ""):
                    _text_links(element, tag, text_rows[tag], placed, out)
            keys = element.keys()
            if tag == base_element:
                continue  # <base href> is the base (base/layers.py), not a link
            if (not keys or link_attrs.isdisjoint(keys)) and tag not in always:
                continue  # no link attribute
            _element_links(element, tag, keys, table, placed, out, nested)
    return out


# The header rows by header name (lower case), each with the one tag its links carry.
_HEADER_ROWS: dict[str, list[tuple[str, LinkSource]]] = {}
for _source in HEADER_LINK_SOURCES:
    for _tag in _source.tags or ():
        _HEADER_ROWS.setdefault(_source.attr, []).append((_tag, _source))


def header_links(status: int | None, headers: Iterable[tuple[str, str]]) -> Iterator[RawLink]:
    """The links an HTTP response's headers carry, in header order, by the rows of
    :data:`HEADER_LINK_SOURCES` (tag ``http``); resolved against the retrieval URL, never the
    document's ``<base>``: the header is not in it."""
    for key, value in headers:
        for tag, source in _HEADER_ROWS.get(key.lower(), ()):
            condition = HEADER_CONDITIONS.get(source.when)
            if condition is None or condition(status):
                yield from _header_values(value, tag, source)


def _header_values(value: str, tag: str, source: LinkSource) -> Iterator[RawLink]:
    rule = KIND_RULES.get(source.kind)
    if source.syntax == URL:
        yield RawLink(value, tag, source.attr, source.kind, None)
    elif source.syntax == LINK_HEADER:
        for found in parse_link_header(value):
            kind = source.kind if rule is None else rule(None, tag, found.rel)
            yield RawLink(
                found.url, tag, source.attr, kind, None, rel=found.rel, hreflang=found.hreflang
            )
    else:  # REFRESH: the header rows are checked against linktable.HEADER_SYNTAXES
        url = parse_refresh(value)
        if url is not None:
            yield RawLink(url, tag, source.attr, source.kind, None)
