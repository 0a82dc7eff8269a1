"""What the pipeline does around its stages, made cheaper (issue 20, round 2): an input read
whole by its file's size, the saved-copy test skipped for a page that mentions no saved
folder, a MIME header parsed once per value, an HTTP head found and split without its body.
Each shortcut gives the answers the long way gives."""

from __future__ import annotations

import gzip
from dataclasses import replace
from importlib import import_module
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baselinks import InputError, extract_links
from baselinks.load import containers as containers_module
from baselinks.load.containers import httpmsg
from baselinks.load.containers import mimeheaders as mime_module
from baselinks.url.diagnose import mentions_saved_folder, saved_copy

URL = "http://e.example/dir/page.html"
# a page whose last link comes after 200 KB of text that compresses to almost nothing
PAGE = b'<a href="first.html"></a>' + b"<p>" + b"x" * 200_000 + b'<a href="last.html">'


def test_a_stream_longer_than_its_files_size_is_read_whole(tmp_path: Path) -> None:
    """A GzipFile's fileno is its compressed file's, far smaller than what it reads: the
    size is a first guess, never where the reading stops (nor is /proc's size 0)."""
    packed = tmp_path / "page.html.gz"
    packed.write_bytes(gzip.compress(PAGE))
    assert packed.stat().st_size < 1000
    with gzip.open(packed, "rb") as stream:
        urls = [link.url for link in extract_links(stream, url=URL)]
    assert urls == ["http://e.example/dir/first.html", "http://e.example/dir/last.html"]


def test_the_size_limit_holds_for_a_stream_longer_than_its_files_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(containers_module, "MAX_INPUT_BYTES", 100_000)
    packed = tmp_path / "page.html.gz"
    packed.write_bytes(gzip.compress(PAGE))
    errors: list[InputError] = []
    with gzip.open(packed, "rb") as stream:
        assert extract_links(stream, url=URL, on_error=errors.append) == []
    assert [error.message for error in errors] == ["input larger than 100000 bytes: not read"]


def test_a_file_read_from_where_it_was_left(tmp_path: Path) -> None:
    """An open file handed over part-read: its rest, sized from where it stands."""
    path = tmp_path / "page.html"
    path.write_bytes(b'<a href="skipped.html">' + PAGE)
    with open(path, "rb") as stream:
        stream.read(len(b'<a href="skipped.html">'))
        urls = [link.url for link in extract_links(stream, url=URL)]
    assert urls == ["http://e.example/dir/first.html", "http://e.example/dir/last.html"]


def test_a_file_at_the_size_limit_is_read_one_byte_past_it_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(containers_module, "MAX_INPUT_BYTES", 1000)
    at, past = tmp_path / "at.html", tmp_path / "past.html"
    at.write_bytes(b'<a href="at.html">'.ljust(1000))
    past.write_bytes(b'<a href="past.html">'.ljust(1001))
    assert [link.raw for link in extract_links(at)] == ["at.html"]
    errors: list[InputError] = []
    assert extract_links(past, on_error=errors.append) == []
    assert [error.message for error in errors] == ["input larger than 1000 bytes: not read"]


@pytest.mark.parametrize(
    "reference",
    ["./A Post_files/x.png", "page_FILES/a.css", " \tPage_Files/", "a_files/b_files/c"],
)
def test_a_reference_into_a_saved_folder_is_mentioned(reference: str) -> None:
    assert mentions_saved_folder(["https://e.example/", reference])


_PIECE = st.text(alphabet=st.sampled_from("_fFiIlLeEsS/.:%a \u017fK"), max_size=6)
_REFERENCE = st.builds(
    lambda *pieces: "".join(pieces),
    st.sampled_from(["", "./", " ", "http:"]),
    _PIECE,
    st.sampled_from(["", "_files", "_FILES", "_Files", "_file\u017f", "files", "_fi"]),
    _PIECE,
)


@given(st.lists(_REFERENCE))
def test_no_reference_saved_copy_would_mark_goes_unmentioned(references: list[str]) -> None:
    """The search of all references together is a first pass only: when it finds nothing,
    the reference by reference test marks nothing either (here with a folder of every
    name: any reference ending its first segment in ``_files`` would be marked)."""
    marks = _saved_copy_everywhere(references)
    if not mentions_saved_folder(references):
        assert not any(marks)


def _saved_copy_everywhere(references: list[str]) -> list[bool]:
    """saved_copy's marks were every folder there on disk."""
    with pytest.MonkeyPatch.context() as patch:
        # the module (the package's name "diagnose" is its function)
        patch.setattr(import_module("baselinks.url.diagnose"), "_is_folder", lambda d, n: True)
        return saved_copy("/nowhere/page.html", references)


def test_saved_copies_with_a_folder_in_upper_case_are_marked(tmp_path: Path) -> None:
    (tmp_path / "Page_FILES").mkdir()
    page = tmp_path / "page.html"
    page.write_bytes(b'<a href="Page_FILES/a.png">x</a><a href="other/b.png">y</a>')
    marked = [(link.raw, "saved-copy" in link.problems) for link in extract_links(page)]
    assert marked == [("Page_FILES/a.png", True), ("other/b.png", False)]


def _message(content_type: str, location: str) -> bytes:
    return (
        f"MIME-Version: 1.0\r\nContent-Type: {content_type}\r\n"
        f"Content-Location: {location}\r\n\r\n<a href=b.html>b</a>"
    ).encode()


def test_a_mime_header_is_parsed_once_per_value_the_answers_the_same() -> None:
    """The parser and the walker read an entity's Content-Type a dozen times: each value is
    parsed into its header object once, and kept in a bounded cache."""
    mime_module._fetched.cache_clear()
    message = _message("text/html; charset=utf-8", "http://e.example/dir/a.html")
    first = [(link.url, link.base) for link in extract_links(message)]
    assert first == [("http://e.example/dir/b.html", "http://e.example/dir/a.html")]
    assert mime_module._fetched.cache_info().hits > 0
    mime_module._fetched.cache_clear()
    assert [(link.url, link.base) for link in extract_links(message)] == first


def test_the_mime_header_cache_is_bounded_and_keeps_no_long_value() -> None:
    mime_module._fetched.cache_clear()
    for n in range(600):
        extract_links(_message("text/html", f"http://e.example/{n}.html"))
    assert mime_module._fetched.cache_info().currsize == 512
    sizes = []
    for location in ("http://e.example/a.html", "http://e.example/" + "x" * 1100 + ".html"):
        mime_module._fetched.cache_clear()
        assert [link.base for link in extract_links(_message("text/html", location))] == [location]
        sizes.append(mime_module._fetched.cache_info().currsize)
    assert sizes[1] == sizes[0] - 1  # the long Content-Location was read, not kept


def _head_end_scanning_all(data: bytes) -> tuple[int, int]:
    """httpmsg._head_end as it was, each pair looked for in all of ``data``."""
    crlf, lf = data.find(b"\r\n\r\n"), data.find(b"\n\n")
    if crlf >= 0 and (lf < 0 or crlf < lf):
        return crlf, crlf + 4
    if lf >= 0:
        return lf, lf + 2
    return len(data), len(data)


@given(st.lists(st.sampled_from([b"\r", b"\n", b"\r\n", b"a", b": "]), max_size=30))
def test_the_head_ends_where_it_did_when_both_pairs_were_looked_for_everywhere(
    pieces: list[bytes],
) -> None:
    data = b"".join(pieces)
    assert httpmsg._head_end(data) == _head_end_scanning_all(data)


def test_a_response_head_alone_has_no_body() -> None:
    data = b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG..."
    head = httpmsg.parse_response(data, with_body=False)
    assert head == replace(httpmsg.parse_response(data), body=b"")
