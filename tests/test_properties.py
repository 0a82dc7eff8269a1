"""Properties over arbitrary text (hypothesis), and the fast dot-segment code checked against
literal, slow transcriptions of the RFC text."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from baselinks import Resolver, explain, parse, resolve
from baselinks.url.resolve import _remove_dot_segments
from baselinks.url.rfc3986 import remove_dot_segments

# Text dense in the characters that matter to URL syntax, plus anything else.
URLISH = st.lists(
    st.sampled_from([*"ab:/.;?#@%[]1-+ é\x00", "..", "./", "//", "http:", "file:///"]), max_size=12
).map("".join)
ANY = st.one_of(URLISH, st.text(max_size=30))
MODES = st.sampled_from(["rfc1808", "rfc3986"])


@given(ANY, ANY, MODES)
@settings(max_examples=400)
def test_resolve_always_returns_a_string(base: str, ref: str, mode: str) -> None:
    assert isinstance(resolve(base, ref, mode=mode), str)


@given(ANY, ANY, MODES)
@settings(max_examples=300)
# rfc1808's explain is a path of its own beside resolve (resolve.py says why): a path that
# begins with "//" after a base without a net_loc, by Step 4 and by Step 6, and an empty
# net_loc written, then inherited
@example("http:/b/c", "////x", "rfc1808")
@example("http:/b/c", "..//x", "rfc1808")
@example("file:///a/b", "//", "rfc1808")
@example("http://a/./b/", "g?q#f", "rfc1808")
def test_explain_reaches_the_same_result(base: str, ref: str, mode: str) -> None:
    exp = explain(base, ref, mode=mode)
    assert exp.result == resolve(base, ref, mode=mode) == Resolver(base, mode).resolve(ref)
    assert exp.steps


@given(ANY, st.from_regex(r"[A-Za-z0-9+.\-]+:", fullmatch=True), ANY)
def test_rfc1808_leaves_a_reference_with_a_scheme_unchanged(
    base: str, scheme: str, rest: str
) -> None:
    ref = scheme + rest
    assert resolve(base, ref) == ref


def _delimiters_have_content(url: str) -> bool:
    """Is every delimiter in ``url`` followed by a non-empty component?"""
    parts = parse(url)
    if "#" in url and not parts.fragment:
        return False
    head = url.split("#", 1)[0]
    rest = head[len(parts.scheme) + 1 :] if parts.scheme else head
    if rest.startswith("//"):
        rest = rest[2 + len(parts.netloc) :]
    if "?" in rest and not parts.query:
        return False
    return not (";" in rest.split("?", 1)[0] and not parts.params)


@given(ANY)
@example("file:///a")
@example("//")
@settings(max_examples=500)
def test_parse_then_recombine_gives_back_the_url(url: str) -> None:
    parts = parse(url)  # never raises
    if _delimiters_have_content(url):
        assert str(parts) == url


def _rfc1808_step6_literal(path: str) -> str:
    """RFC 1808 §4 Step 6 a-d, as string rewriting, transcribed word for word."""
    segments = path.split("/")
    # a) All occurrences of "./", where "." is a complete path segment, are removed.
    segments = [s for s in segments[:-1] if s != "."] + segments[-1:]
    # b) If the path ends with "." as a complete path segment, that "." is removed.
    if segments[-1] == ".":
        segments[-1] = ""
    path = "/".join(segments)
    # c) "<segment>/../" removed, leftmost first, one per iteration, until none remains.
    pattern = re.compile(r"(?:^|(?<=/))(?!\.\./)[^/]*/\.\./")
    while True:
        match = pattern.search(path)
        if match is None:
            break
        path = path[: match.start()] + path[match.end() :]
    # d) If the path ends with "<segment>/..", that "<segment>/.." is removed.
    match = re.search(r"(?:^|(?<=/))(?!\.\./|\.\.$)[^/]*/\.\.$", path)
    if match is not None:
        path = path[: match.start()]
    return path


def _rfc3986_5_2_4_literal(path: str) -> str:
    """RFC 3986 §5.2.4, the input/output buffer loop exactly as written (quadratic)."""
    inp, out = path, ""
    while inp:
        if inp.startswith("../"):
            inp = inp[3:]
        elif inp.startswith("./"):
            inp = inp[2:]
        elif inp.startswith("/./"):
            inp = "/" + inp[3:]
        elif inp == "/.":
            inp = "/"
        elif inp.startswith("/../") or inp == "/..":
            inp = "/" + inp[4:] if inp.startswith("/../") else "/"
            out = out[: out.rfind("/")] if "/" in out else ""
        elif inp in (".", ".."):
            inp = ""
        else:
            start = 1 if inp.startswith("/") else 0
            slash = inp.find("/", start)
            segment = inp if slash < 0 else inp[:slash]
            out += segment
            inp = inp[len(segment) :]
    return out


SEGMENTS = st.lists(st.sampled_from(["a", "b", ".", "..", "", "...", ".a"]), max_size=9).map(
    "/".join
)


@given(SEGMENTS)
@settings(max_examples=1000)
def test_rfc1808_step6_equals_the_literal_rewriting(path: str) -> None:
    assert _remove_dot_segments(path) == _rfc1808_step6_literal(path)


@given(st.one_of(SEGMENTS, SEGMENTS.map(lambda p: "/" + p)))
@settings(max_examples=1000)
def test_rfc3986_remove_dot_segments_equals_the_literal_loop(path: str) -> None:
    assert remove_dot_segments(path) == _rfc3986_5_2_4_literal(path)
