"""The native walk (load/_chtml5_walk.pxi: find/walk.raw_links over lexbor's own nodes, no lxml
tree made) against the walks over the lxml tree the same parse is copied into: the same
RawLinks, the same first <base href>, and the same records out of the pipeline, on the fixtures
and on mutated pages (a fixed seed); where it declines, the walk over the copy answers."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from baselinks import extract_links
from baselinks.base.layers import _base_elements
from baselinks.find import native, walk
from baselinks.find.linktable import PLACEMENT_HOLDERS
from baselinks.load import document, html5
from conftest import FIXTURES, compared

compared(html5.engine() is not None and walk._cwalk is not None, "the native walk")

PAGES = sorted(
    path
    for folder in ("html", "browser", "saved", "discovery")
    for path in (FIXTURES / folder).rglob("*")
    if path.suffix.lower() in (".html", ".htm")
)


def _parsed(data: bytes) -> Any:
    """lexbor's parse as the pipeline keeps it (decoded as load decodes a page)."""
    parsed = document.load(data, parser="html5").native
    assert parsed is not None
    return parsed


def _compare(data: bytes) -> list[Any] | None:
    """The native walk's RawLinks, checked against both walks over the copy; and its base."""
    parsed = _parsed(data)
    found = native.native_links(parsed)
    tree = parsed.tree()
    if found is not None:
        assert found == walk.raw_links(tree)
        assert found == walk.raw_links(tree, pure=True)
    first = next(_base_elements(tree), None)
    assert parsed.base_href() == (None if first is None else first.get("href"))
    return found


def test_the_fixtures_have_pages_to_walk() -> None:
    assert len(PAGES) >= 30


@pytest.mark.parametrize("path", PAGES, ids=[p.name for p in PAGES])
def test_each_page_walks_the_same_over_lexbors_nodes(path: Path) -> None:
    assert _compare(path.read_bytes()) is not None  # none of them is declined


# What the mutations write into a page: each rule's edge (placement, foreign content, the first
# <base>, conditions, kind rules, text rows, anchors' texts, lines)
_PIECES = [
    b"<a href=m1>t<b>u</b></a>",
    b"<a href=m2><img alt=' q  r ' src=i.png></a>",
    b"<noscript><img src=ns.png><a href=ns>x</a></noscript>",
    b"<template><a href=tp>y</a><base href=/tb/></template>",
    b"<svg><a xlink:href=sv>z</a><image href=si.png /><use href=#u /><base href=/sb/></svg>",
    b"<math><mi href=mh>w</mi></math>",
    b"<base href=/b1/>",
    b"<base target=_x>",
    b"<style>p{background:url(st.png)}@import 'im.css';</style>",
    b'<script type="application/ld+json">{"@id": "ld", "url": "u2"}</script>',
    b"<meta property=og:image content=og.png><meta name=twitter:image content=tw.png>",
    b"<meta http-equiv=Refresh content='0; url=rf'>",
    b"<link rel='StyleSheet  icon' href=l.css><link rel=next href=n>",
    b"<img srcset='a.png 1x, b.png 2q' data-src=d.png>",
    b"<form><button formaction=fa>b</button></form><input type=IMAGE src=in.png>",
    b"<object data=o codebase=/cb/ archive='a1 a2'></object><applet code=c archive=x,y>",
    b"<my-el src=ce href=ch></my-el><div style='background:url(ds.png)' itemtype='t1 t2'>",
    b"<iframe srcdoc='<a href=sd>s</a>'></iframe><area href=ar alt=' al '>",
    b"<table background=tb.png><tr><td><a href=ft>f</a></table>",
    b"\n\n\n",
    b"</a>",
    b"<a href=outer><div><a href=inner>i</a></div></a>",
]


def _mutated(data: bytes, rng: random.Random) -> bytes:
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(data))
        how = rng.random()
        if how < 0.6:
            data = data[:at] + rng.choice(_PIECES) + data[at:]
        elif how < 0.8:
            data = data[:at] + data[at + rng.randint(1, 64) :]
        else:
            data = data[:at] + bytes([rng.randint(0, 255)]) + data[at + 1 :]
    return data


@pytest.mark.slow  # ~10 s: 300 mutated pages, each walked three ways
def test_mutated_pages_walk_the_same_over_lexbors_nodes() -> None:
    rng = random.Random(35)
    seeds = [path.read_bytes() for path in PAGES]
    walked = declined = 0
    for _ in range(300):
        data = _mutated(rng.choice(seeds), rng)
        if _compare(data) is None:
            declined += 1
        else:
            walked += 1
    assert walked > 200 and declined > 0  # the nested anchors are declined


def test_an_anchor_inside_an_anchor_is_left_to_the_copy() -> None:
    # foreign content keeps an <a> inside an <a>: anchor.py's texts of nested anchors
    data = b"<a href=x>o<svg><a xlink:href=y>i</a></svg></a>"
    assert _compare(data) is None
    links = extract_links(data)
    assert [(link.url, link.text) for link in links] == [("x", "oi"), ("y", "i")]


def test_a_line_past_libxml2s_is_left_to_the_copy() -> None:
    data = b"\n" * 70_000 + b"<a href=far>x</a>"
    assert _compare(data) is None
    assert [link.line for link in extract_links(data)] == [65535]


def _without_native(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(document, "_NATIVE", False)


@pytest.mark.parametrize("path", PAGES[:20], ids=[p.name for p in PAGES[:20]])
def test_the_records_are_the_copys(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = "http://example.com/dir/page.html"
    native = extract_links(path, url=url)
    _without_native(monkeypatch)
    assert extract_links(path, url=url) == native


def test_select_walks_the_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"<div id=k><a href=in>x</a></div><a href=out>y</a>"

    def refused(*args: object) -> None:
        raise AssertionError("the native walk ran for --select")

    monkeypatch.setattr("baselinks.pipeline.native_links", refused)
    assert [link.raw for link in extract_links(data, select="#k")] == ["in"]


def test_the_tree_is_copied_only_when_asked() -> None:
    loaded = document.load(b"<a href=x>y</a>", parser="html5")
    assert loaded.root is None and loaded.native is not None
    assert loaded.tree.find(".//a").get("href") == "x"  # copied now, and kept
    assert loaded.root is loaded.tree


def test_a_walk_inside_a_walk_keeps_its_own_state() -> None:
    # find/'s Python, called in the middle of a walk, may walk another document with the same
    # Walker (another thread, or as here the metadata names' lookup): each walk keeps its own
    # open elements
    engine = html5.engine()
    inner = _parsed(b"<div><div><div><img src=deep.png></div></div></div>")
    names = native.walker_names()
    by_names = names["metadata_names"]
    nested: list[Any] = []
    walker: Any = None

    def walking(property_: str | None, name: str | None) -> Any:
        nested.append(inner.links(walker))
        return by_names(property_, name)

    walker = engine.Walker(walk._table(()), PLACEMENT_HOLDERS, {**names, "metadata_names": walking})
    parsed = _parsed(b"<p><span><meta property=og:image content=og.png></span><a href=x>x</a></p>")
    assert parsed.links(walker) == walk.raw_links(parsed.tree())
    assert nested and all(found is not None and found[0].raw == "deep.png" for found in nested)


def test_no_row_of_the_table_is_decided_by_a_call_of_python() -> None:
    # every condition and kind rule of find/linktable.py's rows is a record of find/rules.py
    # the native walk decides in C; a caller's attributes= pair may add one it calls
    native.native_links(_parsed(b"<a href=x>y</a>"))
    assert walk._table(()).native.python == []
    added = walk._table((("a", "href"),))  # the table reads a's href: the pair applies nowhere
    native.native_links(_parsed(b"<a href=x>y</a>"), (("a", "href"),))
    assert added.native.python == []
    pairs = (("*", "href"),)
    parsed = _parsed(b"<div href=x>y</div><svg><g href=z /></svg>")
    found = native.native_links(parsed, pairs)
    assert walk._table(pairs).native.python != []  # _none_applies: a function, called
    assert found == walk.raw_links(parsed.tree(), attributes=pairs)
    assert [link.raw for link in found or ()] == ["x", "z"]
