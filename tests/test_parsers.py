"""The two parsers (load/html5.py, docs/guide/parsers.md): the same links from both outside the
documented classes of difference; the HTML5 parser's checks, its warning and its fallback to
lxml's; its limits; lxml's own losses made visible; a fuzz round of the C parser."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from baselinks import BaselinksError, Link, extract_links
from baselinks.cli import main
from baselinks.load import document as document_module
from baselinks.load import html5
from baselinks.load.document import _is_utf8, parse_utf8
from conftest import FIXTURES, PARSERS

ROOT = FIXTURES.parent
URL = "http://e.example/dir/page.html"
WHY = html5.unavailable()
needs_html5 = pytest.mark.skipif(
    bool(WHY) and not os.environ.get("BASELINKS_REQUIRE_COMPILED"),
    reason=f"the HTML5 parser cannot be used: {WHY}",
)

# The fixtures whose links differ between the parsers, each by a documented class (the
# reference's "HTML5 parsing" classes, docs/guide/parsers.md); every other input gives the
# same records under both.
DIFFERENT = {
    "html/lazy-load.html": "a <tr> outside any table is no element to HTML's parser",
    "html/sources-embedded.html": "a <frame> outside <frameset> is dropped; <image> is <img>",
    "html/parser-raw-text-self-closing.html": "<title/>, <iframe/>, <script/> hold the rest",
    "html/parser-nested-forms.html": "a form in a form is no element",
    "html/parser-adoption-agency.html": "adoption-agency clones",
    "html/parser-foster-parenting.html": "foster parenting moves the <img> before the table",
}


def _inputs() -> Iterator[Path]:
    return (path for path in sorted(FIXTURES.rglob("*")) if path.is_file())


def _records(path: Path | bytes, parser: str) -> list[tuple[Any, ...]] | None:
    """Every field of every link (None: not an input at all), and each error line."""
    errors: list[str] = []
    try:
        links = extract_links(
            path, strict=False, on_error=lambda e: errors.append(str(e)), parser=parser
        )
    except (BaselinksError, TypeError, ValueError):
        return None  # a README, an expected output
    return [*(link.values() for link in links), *errors]


@needs_html5
def test_every_fixture_gives_the_same_links_under_both_outside_the_documented_classes() -> None:
    compared = differing = 0
    for path in _inputs():
        name = path.relative_to(FIXTURES).as_posix()
        ours, theirs = _records(path, "html5"), _records(path, "lxml")
        if ours is None:
            continue
        compared += 1
        if name in DIFFERENT:
            differing += 1
            assert ours != theirs, f"{name} is listed as different and is not: {DIFFERENT[name]}"
        else:
            assert ours == theirs, name
    assert differing == len(DIFFERENT)
    assert compared >= 100  # 180 inputs when this was written


# Generated documents: well-formed markup of the elements and attributes of the link-source
# table, nested as HTML allows (no <a> in an <a>, no form in a form, no block in a <p>, table
# content in cells), across lines: nothing that a documented class is about.
_BLOCKS = ["div", "section", "article", "blockquote", "ul", "form", "table", "p", "video"]
_PHRASING = ["span", "b", "em", "a", "img", "br", "q", "del", "area", "input", "button"]
_ATTRS = {
    "a": ["href", "ping"],
    "img": ["src", "srcset", "longdesc"],
    "form": ["action"],
    "blockquote": ["cite"],
    "q": ["cite"],
    "del": ["cite"],
    "video": ["src", "poster"],
    "input": ["src", "formaction"],
    "button": ["formaction"],
    "area": ["href"],
    "*": ["style", "data-src", "data-href", "class"],
}
_VALUES = st.sampled_from(["a.html", "b c", "x 1x, y 2w", "url(q.png)", "", " h ", "/p?q=1#f"])
_TEXT = st.text("ab \n", max_size=5)
_VOID = {"img", "br", "area", "input"}


_NOT_NESTED = frozenset({"a", "button"})  # HTML's parser closes the open one first


@st.composite
def _phrasing(draw: st.DrawFn, depth: int = 0, inside: frozenset[str] = frozenset()) -> str:
    tag = draw(st.sampled_from([t for t in _PHRASING if t not in inside]))
    names = draw(st.lists(st.sampled_from(_ATTRS.get(tag, []) + _ATTRS["*"]), max_size=3))
    attrs = "".join(f' {name}="{draw(_VALUES)}"' for name in dict.fromkeys(names))
    if tag in _VOID:
        return f"<{tag}{attrs}>{draw(_TEXT)}"
    within = inside | ({tag} & _NOT_NESTED)
    children = draw(st.lists(_phrasing(depth + 1, within), max_size=2)) if depth < 3 else []
    return f"<{tag}{attrs}>{draw(_TEXT)}{''.join(children)}</{tag}>{draw(_TEXT)}"


@st.composite
def _block(draw: st.DrawFn, depth: int = 0, in_form: bool = False) -> str:
    tag = draw(st.sampled_from([t for t in _BLOCKS if not (in_form and t == "form")]))
    names = draw(st.lists(st.sampled_from(_ATTRS.get(tag, []) + _ATTRS["*"]), max_size=3))
    attrs = "".join(f' {name}="{draw(_VALUES)}"' for name in dict.fromkeys(names))
    phrasing = "".join(draw(st.lists(_phrasing(), max_size=3)))
    if tag in ("p", "video"):
        return f"<{tag}{attrs}>{phrasing}</{tag}>\n"
    if tag == "table":
        return f"<table{attrs}><tbody><tr><td>{phrasing}</td></tr></tbody></table>\n"
    if tag == "ul":
        return f"<ul{attrs}><li>{phrasing}</li></ul>\n"
    blocks = draw(st.lists(_block(depth + 1, in_form or tag == "form"), max_size=2))
    return f"<{tag}{attrs}>{phrasing}{''.join(blocks) if depth < 3 else ''}</{tag}>\n"


@needs_html5
@settings(max_examples=300, deadline=None)
@given(st.lists(_block(), min_size=1, max_size=5), st.booleans())
def test_generated_documents_give_the_same_links(blocks: list[str], wrapped: bool) -> None:
    body = "".join(blocks)
    page = f"<!DOCTYPE html>\n<html><head><title>t</title></head>\n<body>\n{body}</body></html>"
    data = (page if wrapped else body).encode()
    assert _records(data, "html5") == _records(data, "lxml")


@needs_html5
def test_lines_past_what_a_node_holds_are_the_same_under_both() -> None:
    # libxml2 keeps a line in 16 bits: 65535 stands for any line past it, in both trees
    page = b"\n" * 70_000 + b"<p><a href=x>y</a>\n<img src=z></p>"
    for parser in html5.PARSERS:
        assert [link.line for link in extract_links(page, parser=parser)] == [65_535, 65_535]


# The parser chosen, its checks, its warning


def test_lxml_asked_for_is_lxml() -> None:
    assert html5.choose("lxml") == "lxml"


def test_an_unknown_parser_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="unknown parser 'lexbor': expected html5 or lxml"):
        extract_links(b"<a href=x>", parser="lexbor")
    monkeypatch.setenv(html5.ENV, "gumbo")
    with pytest.raises(ValueError, match="unknown BASELINKS_PARSER 'gumbo'"):
        html5.choose(None)


@needs_html5
def test_the_environment_chooses_when_the_caller_does_not(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(html5.ENV, "lxml")
    assert html5.choose(None) == "lxml"
    assert html5.choose("html5") == "html5"  # the caller's choice wins
    monkeypatch.delenv(html5.ENV)
    assert html5.choose(None) == "html5"  # the default where it can be used


def _unavailable(monkeypatch: pytest.MonkeyPatch, why: str) -> None:
    monkeypatch.delenv(html5.ENV, raising=False)  # CI's run with BASELINKS_PARSER=lxml
    monkeypatch.setattr(html5, "_bound", lambda: (None, why))
    monkeypatch.setattr(html5, "_warned", set())


def test_asked_for_and_not_there_one_warning_then_lxml(monkeypatch: pytest.MonkeyPatch) -> None:
    _unavailable(monkeypatch, "not built (no C compiler at install, or BASELINKS_PURE=1 then)")
    page = b'<html/><a href="x">x</a>'
    with pytest.warns(html5.ParserWarning) as said:
        links = extract_links(page, url=URL, parser="html5")
        extract_links(page, url=URL, parser="html5")  # said once
    assert [str(w.message) for w in said] == [
        "the HTML5 parser cannot be used: not built (no C compiler at install, or "
        "BASELINKS_PURE=1 then); lxml's parser reads the documents instead "
        "(docs/guide/parsers.md)"
    ]
    assert links == extract_links(page, url=URL, parser="lxml")


def test_not_built_and_not_asked_for_is_lxml_without_a_word(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _unavailable(monkeypatch, "not built (no C compiler at install, or BASELINKS_PURE=1 then)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert html5.choose(None) == "lxml"


def test_built_but_failing_its_checks_is_said_even_unasked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _unavailable(monkeypatch, "its self-test gave another tree")
    with pytest.warns(html5.ParserWarning, match="its self-test gave another tree"):
        assert html5.choose(None) == "lxml"


def _checked(monkeypatch: pytest.MonkeyPatch) -> str:
    """What the import-time checks say now (not cached), the binding put back after."""
    try:
        return html5._bound.__wrapped__()[1]  # type: ignore[attr-defined, no-any-return]
    finally:
        engine = sys.modules.get(html5._ENGINE)
        if engine is not None:
            monkeypatch.undo()
            engine.bind(str(etree.__file__))


@needs_html5
@pytest.mark.parametrize(
    ("where", "name", "value", "said"),
    [
        (sys, "platform", "win32", "lxml exports no libxml2 function on Windows"),
        (etree, "LXML_VERSION", (7, 0, 0, 0), "lxml 7.0.0 is not a version it was tested with"),
        (etree, "LIBXML_VERSION", (2, 8, 0), "lxml runs libxml2 2.8.0; the copy knows"),
        (etree, "__file__", "/proc/self/no-such.so", "/proc/self/no-such.so is not loaded"),
        (html5, "_PROBE_TREE", b"<html/>", "its self-test gave another tree"),
    ],
)
def test_each_check_at_import_names_what_failed(
    monkeypatch: pytest.MonkeyPatch, where: Any, name: str, value: Any, said: str
) -> None:
    monkeypatch.setattr(where, name, value)
    assert _checked(monkeypatch).startswith(said)


@needs_html5
def test_a_shared_object_without_libxml2_is_refused_by_name() -> None:
    # dlsym in a loaded library that exports no libxml2 (the C library): the first missing
    # function is named, and the binding is left as it was
    engine = sys.modules[html5._ENGINE]
    libc = next(p for p in Path("/proc/self/maps").read_text().split() if "/libc.so" in p)
    assert engine.bind(libc) == "lxml.etree exports no xmlNewDocNodeEatName"
    assert html5.tree(b"<a href=x>") is not None


_WITHOUT_ENGINE = (
    "import sys; sys.modules['baselinks.load._chtml5'] = None\n"  # an import that fails
    "from baselinks.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def test_the_command_line_says_the_fallback_in_one_line(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(b'<html/><a href="x">x</a>')
    ran = subprocess.run(
        [sys.executable, "-c", _WITHOUT_ENGINE, "extract", "--parser", "html5", "--url", URL,
         "--format", "text", str(page)],
        capture_output=True, text=True, env={**os.environ, "BASELINKS_PURE": ""},
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == "http://e.example/dir/x\n"
    assert ran.stderr.splitlines() == [
        "baselinks: the HTML5 parser cannot be used: not built (no C compiler at install, or "
        "BASELINKS_PURE=1 then); lxml's parser reads the documents instead "
        "(docs/guide/parsers.md)",
        "baselinks: 1 file, 1 document, 1 link; 0 failed",
    ]


def test_the_command_line_takes_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    page = str(FIXTURES / "html" / "parser-nested-forms.html")
    for parser, actions in (("lxml", 4), *((("html5", 3),) if not WHY else ())):
        assert main(["extract", "--parser", parser, "--format", "text", "-q", page]) == 0
        assert len(capsys.readouterr().out.splitlines()) == actions
    assert main(["extract", "--parser", "gumbo", page]) == 2
    assert "invalid choice: 'gumbo'" in capsys.readouterr().err


@needs_html5
def test_threads_parse_at_once() -> None:
    # the GIL is let go during the parse and the copy: each thread builds in its own tree
    pages = [path.read_bytes() for path in sorted((FIXTURES / "html").glob("*.html"))]
    expected = [etree.tostring(parse_utf8(page, "html5")) for page in pages]
    failures: list[str] = []

    def parse_often() -> None:
        for _ in range(5):
            for page, tree in zip(pages, expected, strict=True):
                if etree.tostring(parse_utf8(page, "html5")) != tree:
                    failures.append(page[:40].decode("utf-8", "replace"))

    threads = [threading.Thread(target=parse_often) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


@needs_html5
@given(
    st.binary(max_size=40) | st.text(max_size=20).map(lambda t: t.encode("utf-8", "surrogatepass"))
)
def test_the_utf8_check_is_pythons_decoder(data: bytes) -> None:
    expected = _is_utf8(data)
    assert html5.valid_utf8(data) is expected
    assert html5.valid_utf8(b"a" * 13 + data + b"b" * 9) is expected  # the eight-byte steps


@needs_html5
@pytest.mark.parametrize(
    "data",
    [b"\xc0\x80", b"\xe0\x9f\xbf", b"\xed\xa0\x80", b"\xf0\x8f\xbf\xbf", b"\xf4\x90\x80\x80",
     b"\xf5", b"\xc3", b"\xe2\x82", b"\x80", b"\xc3\xa9", b"\xef\xbf\xbf", b"\xf4\x8f\xbf\xbf"],
)  # fmt: skip
def test_the_utf8_check_at_each_boundary_of_unicodes_table(data: bytes) -> None:
    assert html5.valid_utf8(data) is _is_utf8(data)


# lxml's own losses: repaired, or said


@pytest.mark.parametrize(
    "page",
    [
        b'<html/><body><a href="a">a</a>',
        b'<!DOCTYPE html>\n<!-- c --> <?pi?>\n<HTML lang="en"/>\n<p><a href="a">a</a>',
        b'<html manifest="m.appcache" />\n<a href="a">a</a>',
    ],
)
def test_lxml_reads_past_a_self_closing_html(page: bytes) -> None:
    links = extract_links(page, url=URL, parser="lxml")
    assert links and links[-1].raw == "a"


def test_a_slash_that_ends_an_unquoted_value_is_no_self_closing() -> None:
    # <html manifest=m/> is manifest "m/" to HTML's tokenizer: left as it is
    [manifest, link] = extract_links(b"<html manifest=m/><a href=a>a</a>", url=URL, parser="lxml")
    assert (manifest.raw, link.raw) == ("m/", "a")


def test_what_libxml2_puts_beside_the_root_is_an_error_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the safety net under the repair: without it, the page's links are lost, and said to be
    monkeypatch.setattr(document_module, "_open_root", lambda data: data)
    errors: list[str] = []
    links = extract_links(
        b'<html/>\n<a href="a">a</a>',
        url=URL,
        parser="lxml",
        on_error=lambda e: errors.append(str(e)),
    )
    assert links == []
    assert errors == ["-: libxml2 ended the document at line 1: the rest is not read"]


# A fuzz round of the C parser: mutated real pages, a fixed seed, in a process of its own (a
# crash is a finding, not the end of the test run)

_FUZZ = """
import random, sys
from baselinks.load.document import parse_utf8
from baselinks.find.walk import raw_links
seeds = [open(path, "rb").read() for path in sys.argv[2:]]
pieces = [b"<", b">", b"</", b"/>", b"<template>", b"<noscript>", b"</noscript>", b"<table>",
          b"<svg>", b"<math>", b"<a href=x>", b"<p>", b"<form>", b"\\x00", b"<!--", b"-->",
          b"<select>", b"<frameset>", b"<html/>", b"<plaintext>", b"\\n", b"&#", b"\\xff"]
rng = random.Random(int(sys.argv[1]))
for n in range(600):
    data = bytearray(rng.choice(seeds))
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(data) + 1)
        how = rng.random()
        if how < 0.4:
            data[at:at] = rng.choice(pieces)
        elif how < 0.7:
            del data[at : at + rng.randint(1, 50)]
        else:
            data[at:at] = data[rng.randrange(len(data) + 1):][: rng.randint(1, 200)]
    raw_links(parse_utf8(bytes(data), "html5"))
print("ok", n + 1)
"""


@needs_html5
@pytest.mark.slow  # ~5 s: 600 mutated pages
def test_a_fixed_seed_fuzz_round_of_the_html5_parser() -> None:
    seeds = sorted(str(p) for p in (FIXTURES / "html").glob("*.html"))
    seeds += [str(FIXTURES / "browser" / "pages" / "browser-quirks.html")]
    ran = subprocess.run(
        [sys.executable, "-c", _FUZZ, "31", *seeds], capture_output=True, text=True, timeout=300
    )
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "ok 600\n", "")


def test_both_parsers_are_asked_by_the_suites_parameters() -> None:
    assert [param.values[0] for param in PARSERS] == ["html5", "lxml"]
    assert html5.PARSERS == ("html5", "lxml")
    assert isinstance(random.Random(31).random(), float)  # the fuzz round's seed is fixed


def _link_fields(links: list[Link]) -> list[tuple[Any, ...]]:
    return [link.values() for link in links]


# The integrations take the parser too


_CLONED = b'<a href="x.html">one<p>two</a></p>'  # HTML's parser: two <a>, libxml2's: one


def test_dataflow_rows_take_the_parser(tmp_path: Path) -> None:
    from baselinks.dataflow import iter_warc_links
    from conftest import warc

    path = tmp_path / "crawl.warc.gz"
    path.write_bytes(warc([("http://w.example/", "text/html", _CLONED)]))
    rows = {parser: list(iter_warc_links(path, parser=parser)) for parser in PARSER_NAMES}
    assert len(rows["lxml"]) == 1
    if "html5" in rows:
        assert len(rows["html5"]) == 2


def test_the_scrapy_extractor_takes_the_parser() -> None:
    scrapy_http = pytest.importorskip("scrapy.http", reason="the scrapy extra is not installed")
    from baselinks.scrapy import LinkExtractor

    response = scrapy_http.HtmlResponse("http://s.example/", body=_CLONED, encoding="utf-8")
    texts = {
        parser: [
            link.text for link in LinkExtractor(unique=False, parser=parser).extract_links(response)
        ]
        for parser in PARSER_NAMES
    }
    assert texts["lxml"] == ["onetwo"]
    if "html5" in texts:
        assert texts["html5"] == ["one", "two"]


def test_the_spark_driver_takes_the_parser(tmp_path: Path) -> None:
    pytest.importorskip("pyspark.sql", reason="the spark extra is not installed")
    import baselinks.spark.driver as spark_driver
    import baselinks.spark.links as spark_links
    from conftest import warc

    path = tmp_path / "crawl.warc.gz"
    path.write_bytes(warc([("http://w.example/", "text/html", _CLONED)]))
    args = spark_driver._parser().parse_args(["--output", "o", "--parser", "lxml", str(path)])
    assert args.parser == "lxml"
    rows = list(
        spark_links._file_rows(
            str(path),
            spark_links.Filters("rfc1808", None, False, None, False, False, "lxml"),
            None,
        )
    )
    assert len(rows) == 1


PARSER_NAMES = ["lxml"] if WHY else ["html5", "lxml"]
