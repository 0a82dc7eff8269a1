"""Containers: recognising an input by its first bytes (containers/sniff.py), gzip around a
document, and an input that is no document."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from baselinks import InputError, iter_links
from baselinks.cli import main
from baselinks.load.containers.sniff import Kind, sniff


@pytest.mark.parametrize(
    ("head", "name", "kind"),
    [
        (b"WARC/1.0\r\n", "", Kind.WARC),
        (b"filedesc://x.arc 0.0.0.0 2014 text/plain 75\n", "", Kind.ARC),
        (b"\x1f\x8b\x08\x00", "", Kind.GZIP),
        (b"HTTP/1.1 200 OK\r\n", "", Kind.HTTP),
        (b"HTTP/2 301\r\n", "", Kind.HTTP),
        (b"From: a@b\r\nMIME-Version: 1.0\r\n\r\n", "", Kind.MIME),
        (b"From a@b Mon Jan 1\nSubject: x\nContent-Type: text/html\n\n<p>", "", Kind.MIME),
        (b"Subject: no MIME header\n\nhello", "", Kind.TEXT),
        (b"  <!doctype html>", "", Kind.HTML),
        (b"<p>para", "", Kind.HTML),
        (b"<?xml version='1.0'?><html>", "", Kind.HTML),
        (b"\xef\xbb\xbfanything", "", Kind.HTML),
        (b"\x89PNG\r\n\x1a\n", "a.html", Kind.BINARY),
        (b"%PDF-1.4", "", Kind.BINARY),
        (b"function x() {}", "app.js", Kind.TEXT),
        (b"just text", "page.htm", Kind.HTML),
        (b"broken header", "x.warc", Kind.WARC),
    ],
)
def test_sniff(head: bytes, name: str, kind: Kind) -> None:
    assert sniff(head, name) is kind


def test_a_named_file_that_is_no_document_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = tmp_path / "photo.html"
    image.write_bytes(b"\x89PNG\r\n\x1a\n\0\0")
    assert main(["extract", str(image), "-q"]) == 1
    assert capsys.readouterr().err == f"baselinks: {image}: not a document: PNG image\n"


def test_a_cut_gzip_page_gives_what_arrived_then_an_error() -> None:
    data = gzip.compress(b"<p><a href=x>text</a> <a href=yy")[:-12]
    errors: list[InputError] = []
    assert [link.url for link in iter_links(data, on_error=errors.append)] == ["x"]
    assert [str(e) for e in errors] == [
        f"-: offset {len(data)}: gzip data cut short after 22 bytes uncompressed"
    ]
