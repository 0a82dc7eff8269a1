"""The compiled walk (_cwalk.pyx) against the pure one (walk.py), record for record.

walk.raw_links(..., pure=True) is the reference. The comparisons need the compiled scan built
and in use: where it is not (no C compiler at install, or BASELINKS_PURE=1 for the suite's
pure run), they are skipped with that reason; CI's first run sets BASELINKS_REQUIRE_COMPILED,
and there a missing build fails instead.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from baselinks import BaselinksError, compiled, extract_links
from baselinks.find import native, walk
from baselinks.find.linktable import LINK_SOURCES, PLACEMENT_HOLDERS
from baselinks.load.document import parse_html
from conftest import FIXTURES, PARSERS, compared

compared(walk._cwalk is not None, "the compiled walk")


def _both(tree: Any, within: list[Any] | None = None, attributes: Any = ()) -> list[Any]:
    """The links of the compiled walk, after checking they are the pure walk's."""
    fast = walk.raw_links(tree, within, attributes)
    pure = walk.raw_links(tree, within, attributes, pure=True)
    assert fast == pure
    return fast


def _scanner() -> Any:
    walk.raw_links(parse_html("<p>"))  # the table's compiled walk is made on first use
    return walk._TABLE.scanner


def _documents() -> Iterator[Path]:
    return (path for path in sorted(FIXTURES.rglob("*")) if path.is_file())


@pytest.mark.parametrize("parser", PARSERS)
def test_every_fixture(monkeypatch: pytest.MonkeyPatch, parser: str) -> None:
    # Each document of every fixture (HTML, MHTML, WARC, HTTP, srcdoc inside them) walked both
    # ways where the pipeline walks it, on the trees of both parsers; the counts show the
    # comparison is not blind.
    walked: list[int] = []

    def compare(tree: Any, within: Any = None, attributes: Any = ()) -> list[Any]:
        found = _both(tree, within, attributes)
        walked.append(len(found))
        return found

    def compare_native(parsed: Any, attributes: Any = ()) -> list[Any] | None:
        # the walk over lexbor's own nodes (load/_chtml5_walk.pxi) against both over the copy
        found = native.native_links(parsed, attributes)
        if found is not None:
            assert found == _both(parsed.tree(), None, attributes)
            walked.append(len(found))
        return found

    monkeypatch.setattr("baselinks.pipeline.raw_links", compare)
    monkeypatch.setattr("baselinks.pipeline.native_links", compare_native)
    for path in _documents():
        try:
            extract_links(path, strict=False, on_error=lambda error: None, parser=parser)
        except (BaselinksError, TypeError, ValueError):
            continue  # not an input (a README, an expected output)
    assert len(walked) >= 70  # 78 documents, 484 links when this was written
    assert sum(walked) >= 400


def test_select_roots_and_added_attributes() -> None:
    # within: roots inside a <template> carry its code from above; attributes=: a second table
    page = (
        "<div id=a><template><p id=b><a href=1 data-u=2>x</a><noscript><img src=3>"
        "</noscript></p></template></div><p data-u=4><style>p{background:url(5)}</style>"
    )
    tree = parse_html(page)
    inner = tree.xpath("//p[@id='b']")
    links = _both(tree, inner, (("*", "data-u"),))
    assert [(r.raw, r.problems) for r in links] == [
        ("1", ("inert-template",)),
        ("2", ("nonstandard-attribute", "inert-template")),
        ("3", ("inert-template", "in-noscript")),
    ]
    assert [r.raw for r in _both(tree, None, (("*", "data-u"),))] == ["1", "2", "3", "4", "5"]


def test_xml_and_namespaces_are_left_to_the_pure_walk() -> None:
    # an XML tree (attributes from a DTD), a namespaced node: the compiled walk declines
    tree = etree.fromstring(
        b'<html xmlns="http://www.w3.org/1999/xhtml"><body><a href="x">y</a>'
        b'<img src="z"/></body></html>'
    )
    assert _scanner().links([tree]) is None
    _both(tree)
    html = parse_html("<p><a href=y>z</a></p>")
    etree.SubElement(html.find(".//p"), "{urn:q}a", href="x")
    assert _scanner().links([html]) is None
    assert [r.raw for r in _both(html)] == ["y"]
    html = parse_html("<p><a href=y>z</a></p>")
    html.find(".//a").set("{urn:q}href", "x")
    assert _scanner().links([html]) is None
    assert [r.raw for r in _both(html)] == ["y"]


def test_an_attribute_named_like_a_namespace() -> None:
    # attributes=("*", "{urn:q}x"): element.get reads a namespace there; left to the pure walk
    tree = parse_html("<p><a href=y>z</a></p>")
    assert [r.raw for r in _both(tree, None, (("*", "{urn:q}x"),))] == ["y"]


def test_anchor_texts() -> None:
    # the compiled walk's own cases (area alt, an anchor without children, a text past the
    # cap) and anchor_text's (children, anchors in anchors, an img alt)
    long = "w " * 400
    page = (
        f"<map><area href=1 alt=' a  b '></map><a href=2> c\n d </a><a href=3>{long}</a>"
        "<a href=4><b>e</b> f<a href=5>g</a></a><a href=6><img alt=h></a><a href=7></a>"
    )
    texts = [r.text for r in _both(parse_html(page)) if r.tag in ("a", "area")]
    assert texts[:3] == ["a b", "c d", ("w " * 250)[:499].rstrip() + "\u2026"]
    assert texts[3:] == ["e f", "g", "h", ""]


def test_a_comment_chosen_as_a_root() -> None:
    tree = parse_html("<p><!-- c --><a href=x>y</a></p>")
    assert _both(tree, tree.xpath("//comment()")) == []


def test_deep_holders_grow_the_scan_stack() -> None:
    # more nested <template>s than the scan's first allocation (64), and links after them
    depth = 300
    page = "<template><a href=t>" * depth + "</a></template>" * depth + "<a href=out>o</a>"
    links = _both(parse_html(page))
    assert links[0].problems == ("inert-template",)
    assert links[-1].raw == "out" and links[-1].problems == ()


# Generated documents: the table's own tags and attributes, the holders, <base>, <style>,
# anchors inside anchors, custom elements and attributes no row reads, in any nesting.
_TAGS = [
    *sorted({tag for s in LINK_SOURCES if s.tags for tag in s.tags}),
    *(tag for tag, _ in PLACEMENT_HOLDERS),
    *("base", "div", "span", "x-widget", "svg"),
]
_ATTRS = [*sorted({s.attr for s in LINK_SOURCES}), "class", "data-x", "id", "rel", "codebase"]
_VALUES = st.sampled_from(["a", "b c", "x 1x, y 2w", "0; url=z", "url(q)", "", " h "])


@st.composite
def _element(draw: st.DrawFn, depth: int = 0) -> str:
    tag = draw(st.sampled_from(_TAGS))
    attrs = draw(st.dictionaries(st.sampled_from(_ATTRS), _VALUES, max_size=4))
    written = "".join(f' {name}="{value}"' for name, value in attrs.items())
    inside = draw(st.lists(st.text("ab url(x)", max_size=6), max_size=2))
    if depth < 4:
        inside += draw(st.lists(_element(depth + 1), max_size=3))
    return f"<{tag}{written}>{''.join(inside)}</{tag}>"


@pytest.mark.parametrize("parser", PARSERS)
@given(elements=st.lists(_element(), min_size=1, max_size=6))
def test_generated_documents(elements: list[str], parser: str) -> None:
    tree = parse_html("<html><body>" + "".join(elements) + "</body></html>", parser)
    _both(tree)
    _both(tree, None, (("*", "data-x"), ("div", "href")))
    roots = tree.xpath("//template | //noscript | //div")
    if roots:
        _both(tree, walk.select_roots(tree, "template, noscript, div"))


def test_version_says_which_path() -> None:
    def version(**env: str) -> str:
        ran = subprocess.run(
            [sys.executable, "-m", "baselinks", "--version"],
            capture_output=True,
            text=True,
            env={**os.environ, "BASELINKS_PARSER": "", **env},
            check=True,
        )
        return ran.stdout.strip()

    # every module of compiled.COMPILED, in its order, is built here (as in the README)
    built = "_cdocument, _cwalk, _csyntax, _cresolve, _cjsonl"
    assert [name.rpartition(".")[2] for name in compiled.COMPILED] == built.split(", ")
    parser = "parser: html5 (lexbor)"  # built here too; BASELINKS_PURE leaves it on
    assert version(BASELINKS_PURE="") == f"baselinks 0.1.0 (compiled: {built}; {parser})"
    assert (
        version(BASELINKS_PURE="1") == f"baselinks 0.1.0 (pure Python: BASELINKS_PURE=1; {parser})"
    )
    assert version(BASELINKS_PARSER="lxml") == (
        f"baselinks 0.1.0 (compiled: {built}; parser: lxml, BASELINKS_PARSER=lxml)"
    )


def test_an_anchor_text_is_its_string_value() -> None:
    # comments and PIs are no text; a <script>'s and a <style>'s are (libxml2 makes them CDATA)
    page = "<a href=1>a<!-- no --><?pi no?><script>b()</script><style>c{}</style><b>d</b></a>"
    assert [r.text for r in _both(parse_html(page)) if r.tag == "a"] == ["ab()c{}d"]


def test_lines_past_what_a_node_holds() -> None:
    # libxml2 keeps a line in 16 bits; at 65535 the compiled walk asks lxml's sourceline, as
    # the pure walk does (which, without libxml2's big-lines option, says 65535 too)
    page = "\n" * 70_000 + "<p><a href=x>y</a>\n<img src=z></p>"
    assert [r.line for r in _both(parse_html(page))] == [65_535, 65_535]


def test_threads_walking_with_one_table() -> None:
    # The compiled walk calls Python (CSS, srcset, anchor texts), and another thread may then
    # walk with the same table: what a walk is inside (<template>, <noscript>) is its own.
    link = "<a href=t style='background:url(u)'>x</a>"
    template = f"<template>{link * 3}</template>{link}" * 30
    noscript = f"<p><noscript>{link * 3}</noscript>{link}</p>" * 30
    trees = [parse_html(template), parse_html(noscript)]
    expected = [walk.raw_links(tree, pure=True) for tree in trees]
    failures: list[int] = []

    def walk_often(index: int) -> None:
        for _ in range(40):
            if walk.raw_links(trees[index % 2]) != expected[index % 2]:
                failures.append(index)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # a thread switch at nearly every chance
    try:
        threads = [threading.Thread(target=walk_often, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
