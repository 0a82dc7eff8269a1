"""Fragments: a link's fragment is "missing" exactly where a browser would not scroll to it.

fixtures/coverage/fragments.html holds every kind of anchor and of non-anchor (an id, an
<a name>, a div's and an img's name, SVG's <a name> and an id in SVG, HTML back inside a
foreignObject, MathML, template and noscript content, an empty id, ids that look escaped);
fixtures/coverage/fragments-chromium.json is what headless Chromium did for each fragment:
whether navigating to ``page#fragment`` set ``:target`` or scrolled to the top. The recorded
answers are checked on every run; with Chromium installed (CI requires it) they are made again
and must not have changed.
"""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

import pytest

from baselinks.coverage.fragments import anchors_of, indicated, url_fragment
from baselinks.load.document import load
from conftest import FIXTURES, PARSERS, chromium, chromium_dom

PAGE = FIXTURES / "coverage" / "fragments.html"
RECORDED = FIXTURES / "coverage" / "fragments-chromium.json"

# Each fragment as it follows "#" in a link's href, and why it is there
CASES = {
    "team": "an id",
    "Team": "an id's case differs: no match (ids are compared exactly)",
    "history": "an <a name>",
    "divname": "a <div name>: only an <a>'s name is an anchor",
    "imgname": "an <img name>",
    "caf%C3%A9": "escaped UTF-8: found once decoded",
    "café": "as written: the URL escapes it, then it is decoded",
    "a b": "a space: escaped by the URL, found once decoded",
    "a%20b": "escaped space",
    "%": "a lone percent sign",
    "%25": "an escaped percent sign, decoded to the id %",
    "50%25": "the id is 50%25 as written: found before decoding",
    "50%2525": "decoded once to 50%25",
    "dup": "two elements with the id: the first",
    "": "the empty fragment: the top of the document",
    "top": "top: the top of the document, no element needed",
    "TOP": "top, any ASCII case",
    "%74op": "top once decoded",
    "top-section": "an id that starts like top",
    "svga": "SVG's <a name>: not an HTML a element",
    "svgrect": "an id in SVG: any element's id",
    "inforeign": "an <a name> inside foreignObject: HTML again",
    "mi": "an id in MathML",
    "tpl": "inside <template>: not in the document tree",
    "ns": "inside <noscript>: text with scripting on",
    "Upper": "an id in upper case",
    "upper": "its lower case: no match",
    ":~:text=an%20id": "a text directive alone: removed, the empty fragment remains",
    "team:~:text=x": "an id, then a text directive",
    "gone:~:text=x": "no such id, then a text directive",
    "gone": "no such id",
    "x%FF": "an invalid UTF-8 byte decodes to U+FFFD, and the page has x\ufffd",
    "x%EF%BF%BD": "U+FFFD escaped",
}

# Chromium's navigation to each fragment, from a scroll position of 500: the element it set
# as :target, and where it scrolled (the top is 0; no scroll leaves 500)
HARNESS = """<script>
const cases = %s;
const base = location.href.split("#")[0];
const out = {};
for (const c of cases) {
  location.href = base + "#__reset__";
  window.scrollTo(0, 500);
  location.href = base + "#" + c;
  const target = document.querySelector(":target");
  out[c] = target !== null || window.scrollY === 0;
}
document.body.setAttribute("data-out", JSON.stringify(out));
</script>"""


def _anchors(parser: str) -> set[str]:
    return set(anchors_of(load(PAGE.read_bytes(), name=PAGE.name, parser=parser).tree))


def _recorded() -> dict[str, bool]:
    cases: dict[str, bool] = json.loads(RECORDED.read_text(encoding="utf-8"))["cases"]
    return cases


def test_every_case_recorded() -> None:
    assert set(_recorded()) == set(CASES)


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("fragment", sorted(CASES))
def test_missing_exactly_where_chromium_does_not_scroll(parser: str, fragment: str) -> None:
    anchors = _anchors(parser)
    assert indicated(fragment, anchors.__contains__) is _recorded()[fragment], CASES[fragment]


def test_chromium_scrolls_as_recorded(tmp_path: Path) -> None:
    browser = chromium()
    harness = tmp_path / "harness.html"
    script = HARNESS % json.dumps(sorted(CASES))
    harness.write_text(PAGE.read_text(encoding="utf-8").replace("</body>", script + "</body>"))
    dom, console = chromium_dom(browser, harness.as_uri())
    found = re.search(r'data-out="([^"]*)"', dom)
    assert found is not None, dom[-500:]
    answers = json.loads(html.unescape(found.group(1)))
    if os.environ.get("BASELINKS_REGENERATE"):
        RECORDED.write_text(json.dumps({"cases": answers}, indent=1, sort_keys=True) + "\n")
    assert answers == _recorded()
    assert not console


def test_url_fragment_escapes_as_the_url_parser() -> None:
    assert url_fragment('a b"<>`') == "a%20b%22%3C%3E%60"
    assert url_fragment("café") == "caf%C3%A9"
    assert url_fragment("%25/?#") == "%25/?#"  # neither % nor /?# is in the set
    assert url_fragment("\x7f\x01") == "%7F%01"


@pytest.mark.parametrize("parser", PARSERS)
def test_anchors_leave_out_what_is_not_in_the_document_tree(parser: str) -> None:
    tree = load(
        b"<p id=a></p><template><p id=t></p></template><noscript><p id=n></p></noscript>"
        b"<div id=''></div><a name=an></a><img name=img><svg><a name=s id=si></a></svg>",
        name="page",
        parser=parser,
    ).tree
    assert set(anchors_of(tree)) >= {"a", "an", "si"}
    assert not set(anchors_of(tree)) & {"t", "", "img"}
