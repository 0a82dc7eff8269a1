"""The compiled resolve stage (_cresolve.pyx) against the pure one, answer for answer.

diagnose.pure_diagnose and resolve._RFC1808 are the references; the compiled diagnose and
RFC 1808 resolver must give the same answer on every input: the RFC's tables, every fixture's
references, tables of near misses, and generated text. Each C scanner is also held against the
regular expression it stands for. Where the compiled module is not in use (no C compiler at
install, or BASELINKS_PURE=1 for the suite's pure run) there is nothing to compare and the
module is skipped; CI's first run sets BASELINKS_REQUIRE_COMPILED, and there that fails.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from baselinks import MODES, BaselinksError, extract_links
from baselinks.url import rfc1738
from baselinks.url.parts import SCHEME_RE
from conftest import FIXTURES, compared
from test_rfc1808 import ABNORMAL, BASE, DECISIONS, NO_NEW_NETLOC, NORMAL

diagnosis = importlib.import_module("baselinks.url.diagnose")
resolution = importlib.import_module("baselinks.url.resolve")
linking = importlib.import_module("baselinks.resolve.link")

compared(
    (
        diagnosis._cresolve is not None
        and resolution._cresolve is not None
        and linking._cresolve is not None
    ),
    "the compiled resolve stage",
)

SCANNERS = diagnosis._cresolve.scanners()
Pure = resolution._RFC1808
Compiled = resolution._CompiledRFC1808


def _both(base: str, embedded: str) -> str:
    """The compiled resolution and diagnosis of ``embedded``, after checking both are the pure
    code's (the problem codes both of the result and of a failed resolution)."""
    result = Compiled(base).resolve(embedded)
    assert result == Pure(base).resolve(embedded), (base, embedded)
    for answer in (result, None):
        assert diagnosis.diagnose(base, embedded, answer) == diagnosis.pure_diagnose(
            base, embedded, answer
        ), (base, embedded, answer)
    return result


def test_the_compiled_code_is_what_runs() -> None:
    assert type(resolution.Resolver("http://a/", "rfc1808")) is Compiled
    assert linking._CompiledLinker is not None
    assert linking.Linker.link is not linking._CompiledLinker.link
    assert diagnosis.diagnose is not diagnosis.pure_diagnose
    assert diagnosis.diagnose.__module__ == "baselinks.url._cresolve"


@pytest.mark.parametrize(("embedded", "expected"), NORMAL + ABNORMAL)
def test_the_rfc_examples(embedded: str, expected: str) -> None:
    assert _both(BASE, embedded) == expected


@pytest.mark.parametrize(("base", "embedded", "expected"), DECISIONS + NO_NEW_NETLOC)
def test_the_decisions_where_the_rfc_is_silent(base: str, embedded: str, expected: str) -> None:
    assert _both(base, embedded) == expected


def test_a_trace_is_written_by_the_pure_steps() -> None:
    # explain() hands a trace list: the compiled resolver gives it to the pure _explain
    for embedded, expected in NORMAL + ABNORMAL:
        compiled_trace: list[resolution.Step] = []
        pure_trace: list[resolution.Step] = []
        assert Compiled(BASE).resolve(embedded, compiled_trace) == expected
        assert Pure(BASE).resolve(embedded, pure_trace) == expected
        assert compiled_trace == pure_trace
        assert compiled_trace[-1].rule in ("Step 7", "Step 2a", "Step 2b")


def _documents() -> Iterator[Path]:
    return (path for path in sorted(FIXTURES.rglob("*")) if path.is_file())


def test_every_fixture() -> None:
    # Every (base, reference) the fixtures hold, as the pipeline resolved them.
    pairs: set[tuple[str, str]] = set()
    for path in _documents():
        try:
            links = extract_links(path, strict=False, on_error=lambda error: None)
        except (BaselinksError, TypeError, ValueError):
            continue  # not an input (a README, an expected output)
        pairs |= {(link.base, link.raw.strip("\t\n\x0c\r ")) for link in links}
    for base, embedded in sorted(pairs):
        _both(base, embedded)
    assert len(pairs) >= 350  # 384 when this was written


@pytest.mark.parametrize("mode", MODES)
def test_every_fixture_gives_the_same_records_both_ways(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The records of the compiled Linker.link against the pure one's, in every mode (whatwg:
    # the document's encoding for the query, and ada-url's failures, "unresolvable"): every
    # field, the codebase and empty-form-action paths, the memo, the walker's codes.
    def extract(path: Path) -> list[object] | None:
        try:
            return list(extract_links(path, mode=mode, strict=False, on_error=lambda e: None))
        except (BaselinksError, TypeError, ValueError):
            return None  # not an input (a README, an expected output)

    count = 0
    for path in _documents():
        fast = extract(path)
        with monkeypatch.context() as patch:
            patch.setattr(linking, "_CompiledLinker", None)
            assert type(linking.Linker.__new__(linking.Linker)) is linking.Linker
            pure = extract(path)
        assert fast == pure, path
        count += len(fast or ())
    assert count >= 450  # 520 in each mode when this was written


# Near misses of each scanner's expression: the host grammar's corners (a trailing "-" or
# ".", a toplabel that begins with a digit), ports, the path sets of http and https (a "?" in
# an http query, "/" after it), escapes at the end, and U+017F (long s), which the
# expression's (?i:https) takes as "s".
NEAR_MISSES = [
    "http://a",
    "http://a.b.c",
    "http://a-b--c.d-1.e",
    "http://a-.b",
    "http://a.-b",
    "http://a.1b",
    "http://1.2.3.4/",
    "http://1a.b2/",
    "http://a..b/",
    "http://a./",
    "http://.a/",
    "http://a-/",
    "http://a:/",
    "http://a:80",
    "http://a:80x/",
    "http://a:8/0",
    "http://a/b?c",
    "http://a/b?c?d",
    "http://a/b?c/d",
    "http://a/b#c d",
    "http://a?b",
    "http://a#b",
    "https://a/b?c?d/e",
    "https://a?b",
    "HtTpS://A.B/C",
    "http\u017f://a/",
    "http\u017f://a/b c",
    "h\u017ftp://a/",
    "http:/a/",
    "http//a/",
    "https:/",
    "https",
    "http://",
    "https://",
    "http://a/%",
    "http://a/%4",
    "http://a/%4g",
    "http://a/%41%",
    "http://a/%41%4",
    "http://a/%%41",
    "%",
    "%41",
    "a%4",
    "http://a/b c",
    "http://a/\x7f",
    "http://a/é",
    "http://a/\u2028",
    "http://user@a/",
    "http://a/[x]",
    "http://a/~x",
    "http://a/{x}",
    "a:b",
    "1a:b",
    "+:x",
    ":x",
    "a#b:c",
    "a/b:c",
    "a?b:c",
    "a;b:c",
    "this:that",
    "mailto:x",
    "//a/b:c",
    "http:g",
    "HTTP:g",
    "http://a/../g",
    "http://a/g/../h",
    "http:/.//x",
    "",
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_each_scanner_is_its_expression(text: str) -> None:
    _scanners_agree(text)


def _scanners_agree(text: str) -> None:
    fast = SCANNERS["fast"](text)
    assert fast in (-1, (rfc1738.FAST.fullmatch(text) is not None)), text
    match = SCHEME_RE.match(text)
    assert SCANNERS["scheme_end"](text) == (match.end() if match else 0), text
    assert SCANNERS["colon_first"](text) == (diagnosis._COLON_IN_FIRST.match(text) is not None), (
        text
    )
    assert SCANNERS["invalid"](text) == (diagnosis._INVALID.search(text) is not None), text
    assert SCANNERS["bad_escape"](text) == (diagnosis._BAD_ESCAPE.search(text) is not None), text


def test_only_a_non_ascii_scheme_is_left_to_the_expression() -> None:
    assert SCANNERS["fast"]("http\u017f://a/") == -1
    # (?i:https) takes U+017F as "s"
    assert rfc1738.FAST.fullmatch("http\u017f://a/") is not None
    assert diagnosis.diagnose("", "http\u017f://a/", "http\u017f://a/") == ()
    assert diagnosis.pure_diagnose("", "http\u017f://a/", "http\u017f://a/") == ()


# Text built from the pieces that steer each scanner and each Step, in any order.
PIECES = st.lists(
    st.sampled_from(
        [
            "http",
            "https",
            "HTTP",
            "\u017f",
            "://",
            ":",
            "/",
            "//",
            ".",
            "..",
            "./",
            "../",
            "/.//",
            "?",
            "#",
            ";",
            "%",
            "%4",
            "%41",
            "%zz",
            "a",
            "b-",
            "-",
            "1",
            "x.y",
            ":80",
            "@",
            "[::1]",
            "é",
            " ",
            "\x00",
            "\x7f",
            "\u2028",
            "mailto:",
            "data:",
            "www.",
            "com",
        ]
    ),
    max_size=12,
).map("".join)
TEXT = st.one_of(PIECES, st.text(max_size=20))
BASES = st.one_of(
    st.sampled_from(
        [
            "",
            BASE,
            "http://a",
            "http://a/b/./c",
            "http:/b/c",
            "http:b",
            "file:///a/b",
            "mailto:x",
            "foo:bar",
            "HTTP://A/b",
        ]
    ),
    PIECES,
)


@given(TEXT)
@settings(max_examples=1500)
def test_each_scanner_is_its_expression_on_any_text(text: str) -> None:
    _scanners_agree(text)


@given(BASES, TEXT)
@settings(max_examples=1500)
@example("http://a/b/c", "..//x")
@example("http:/b/c", "////x")
@example("http://a/./b/", "g?q#f")
@example("file:///a/b", "//")
def test_both_paths_agree_on_any_reference(base: str, embedded: str) -> None:
    _both(base, embedded)


def test_the_base_remembered_between_calls_is_never_stale() -> None:
    # The compiled diagnose keeps the facts of the last base it saw (one per document); bases
    # that alternate, equal by value but not the same object, and from threads, each get theirs.
    bases = ["http://a/b", "mailto:x", "".join(["http://a/", "b"]), "foo:bar", ""]
    embedded = ["g", "http:g", "mailto:y", "//h/i"]

    def run(errors: list[tuple[str, str]]) -> None:
        for _ in range(200):
            for base in bases:
                for ref in embedded:
                    result = resolution.resolve(base, ref)
                    if diagnosis.diagnose(base, ref, result) != diagnosis.pure_diagnose(
                        base, ref, result
                    ):
                        errors.append((base, ref))

    errors: list[tuple[str, str]] = []
    threads = [threading.Thread(target=run, args=(errors,)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_the_scanner_table_is_the_grammar() -> None:
    # Every ASCII character, alone and inside an http URL's path, query and host.
    for code in range(160):
        char = chr(code)
        for text in (char, f"http://a/{char}", f"http://a/b?{char}", f"https://a{char}b/"):
            _scanners_agree(text)


def test_a_raw_link_of_any_tuple_shape_reads_as_the_pure_linker_reads_it() -> None:
    # The compiled link reads a RawLink's ten fields in place: a plain tuple, a list, a
    # RawLink, each the pure Linker's record; a wrong length a ValueError, as in the pure Linker.
    from baselinks.base.layers import Base, BaseSource
    from baselinks.find.walk import RawLink

    base = Base("http://a/b/c", BaseSource.RETRIEVAL)
    raw = RawLink(" g ", "a", "href", "hyperlink", 3, "t", "r", None, ("nonstandard-attribute",))
    compiled_linker = linking.Linker(base, "rfc1808", "doc")
    pure_linker = object.__new__(linking.Linker)
    pure_linker.__init__(base, "rfc1808", "doc")
    assert type(compiled_linker) is linking._CompiledLinker
    assert type(pure_linker) is linking.Linker
    expected = pure_linker.link(raw)
    assert expected.url == "http://a/b/g"
    for shape in (raw, tuple(raw), list(raw)):
        assert compiled_linker.link(shape) == expected
    for wrong in (tuple(raw)[:9], (*raw, None)):
        with pytest.raises(ValueError, match="values to unpack"):  # Cython words it its way
            pure_linker.link(wrong)
        with pytest.raises(ValueError, match="values to unpack"):
            compiled_linker.link(wrong)
