"""Formats written as UTF-8 bytes (write.utf8_render) through output.byte_writer: the same bytes
on the stream as the text of write.output_format, and in the order given.

The command line writes JSON Lines as the compiled writer's UTF-8 bytes straight to the binary
stream under its output, where that stream is one of its own making in UTF-8 (not a test's
stand-in, not a terminal's line-buffered one); text still goes through the text layer (the
other formats, and a batch the compiled writer leaves to Python).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baselinks.cli import main
from baselinks.resolve.link import FIELDS, Link
from baselinks.write import formats as write
from baselinks.write import jsonl, output
from conftest import FIXTURES
from test_jsonl import links

FORMATS = [*write.FORMATS, *[f"{name}-fields" for name in write.FIELDED]]


@settings(max_examples=150)
@given(
    st.lists(links(), max_size=4),
    st.sampled_from(FORMATS),
    st.permutations(FIELDS),
    st.integers(1, len(FIELDS)),
)
def test_each_format_gives_its_texts_bytes(
    records: list[Link], name: str, order: list[str], count: int
) -> None:
    name, _, chosen = name.partition("-")
    fields = tuple(order[:count]) if chosen else None
    text = write.output_format(name, fields).render(records)
    written = write.utf8_render(name, fields)(records)
    if isinstance(written, bytes):
        assert name == "jsonl" and jsonl.compiled()  # only the compiled writer's
        assert written == text.encode("utf-8")
    else:
        assert written == text


def test_text_and_bytes_are_written_in_order(tmp_path: Path) -> None:
    target = tmp_path / "out"
    opened = output.open_output(str(target))
    write_ = output.byte_writer(opened.stream)
    assert write_ is not None  # a file of our own, in UTF-8
    opened.stream.write("header\n")  # written to the stream itself, as the command line does
    for data in (b"0\n", "a\n", b"b\n", "", "c\u00e9\n", "d\n", b"e\xc3\xa9\n", b"", "f\n", b"g\n"):
        write_(data)
    opened.commit()
    assert target.read_bytes() == "header\n0\na\nb\nc\u00e9\nd\ne\u00e9\nf\ng\n".encode()


def test_bytes_only_where_they_are_what_the_text_would_be(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a stand-in for standard output (a test's, an embedding's): text only
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert output.byte_writer(output.open_output(None).stream) is None
    # a text stream not from open_output
    assert output.byte_writer(io.StringIO()) is None
    # the text streams the command line might make: not UTF-8, line-buffered (a terminal)
    latin = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    assert output._utf8(latin) is None
    lines = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", line_buffering=True)
    assert output._utf8(lines) is None
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="UTF8")
    assert output._utf8(utf8) is utf8.buffer
    monkeypatch.setattr(os, "linesep", "\r\n")  # newlines translated, as on Windows
    assert output._utf8(utf8) is None


@pytest.mark.parametrize("fields", [[], ["--fields", "file,url,problems,line"]])
@pytest.mark.parametrize(
    "encoding", ["utf-8", "latin-1:backslashreplace", "ascii", "latin-1", "utf-16"]
)
def test_standard_output_of_its_own(fields: list[str], encoding: str) -> None:
    # the process's own stdout, not a terminal: UTF-8 whatever its encoding (issue 29: under
    # PYTHONIOENCODING=ascii or a C locale the first "é" was a UnicodeEncodeError traceback
    # and every link was lost; Latin-1 wrote JSON Lines no JSON reader takes), the bytes
    # "-o FILE" writes; the pure path's text, written as text, is the reference
    command = [sys.executable, "-m", "baselinks", "extract", "-q", *fields]
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    html = FIXTURES / "html"
    ran = subprocess.run([*command, str(html)], env=env, capture_output=True)
    assert ran.returncode in (0, 1), ran.stderr
    assert b"Traceback" not in ran.stderr
    pure = {**os.environ, "BASELINKS_PURE": "1"}  # text written as text, the reference
    to_file = subprocess.run(
        [*command, "-o", "/dev/stdout", str(html)], env=pure, capture_output=True
    )
    assert not to_file.stdout.isascii()  # characters Latin-1 writes otherwise, or cannot
    assert ran.stdout == to_file.stdout
    assert ran.stdout.count(b"\n") > 100


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal (os.openpty)")
def test_a_terminal_gets_its_encoding_and_escapes_for_what_it_cannot_show(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_bytes('<a href="/caf\u00e9">x</a>'.encode())
    master, slave = os.openpty()
    try:
        ran = subprocess.run(
            [sys.executable, "-m", "baselinks", "extract", "-q", "--format", "text",
             "--url", "http://e.com/", str(page)],
            env={**os.environ, "PYTHONIOENCODING": "ascii"}, stdout=slave, stderr=subprocess.PIPE,
        )  # fmt: skip
        written = os.read(master, 1000)
    finally:
        os.close(slave)
        os.close(master)
    assert (ran.returncode, ran.stderr) == (0, b"")
    assert written.replace(b"\r\n", b"\n") == b"http://e.com/caf\\xe9\n"


def test_workers_send_the_bytes(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert main(["extract", "-q", "-o", str(one), str(FIXTURES)]) in (0, 1)
    assert main(["extract", "-q", "-j", "2", "-o", str(two), str(FIXTURES)]) in (0, 1)
    assert one.read_bytes() == two.read_bytes()
    assert one.read_bytes().count(b"\n") > 400
