"""page_url: the URL of the page a link was found on, before any <base> (issue 30, item 1).

One value per document, in its shared Origin: a WARC record's target URI, a MIME part's base
headers resolved, the URL given (``url=``, a file's under ``root_url=``, a saved page's
comment); None when none is known. Every format writes it; the filters compare with it.
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from baselinks import FIELDS, extract_links
from baselinks.cli import main
from baselinks.dataflow import ROW_FIELDS, iter_warc_links
from baselinks.resolve.link import DEFAULT_FIELDS, ORIGIN_FIELDS
from conftest import FIXTURES, warc

PAGE = b'<base href="http://cdn.example/assets/"><a href="a.html">a</a><img src="/i.png">'


def test_a_warc_record_s_page_url_is_its_target_uri_not_its_base() -> None:
    data = warc([("http://site.example/dir/page.html", "text/html", PAGE)])
    links = extract_links(data)
    assert [link.url for link in links] == [
        "http://cdn.example/assets/a.html",
        "http://cdn.example/i.png",
    ]
    assert {link.base for link in links} == {"http://cdn.example/assets/"}
    assert {link.page_url for link in links} == {"http://site.example/dir/page.html"}
    assert {link.origin.page_url for link in links} == {"http://site.example/dir/page.html"}


def test_the_url_given_is_the_page_url_and_none_when_nothing_says_it() -> None:
    given = extract_links(PAGE, url="http://given.example/p")
    assert {link.page_url for link in given} == {"http://given.example/p"}
    assert {link.page_url for link in extract_links(PAGE)} == {None}


def test_a_saved_page_s_comment_and_a_mirrored_file_s_path() -> None:
    saved = b"<!-- saved from url=(0024)http://saved.example/a/ -->\n<a href=b>b</a>"
    assert {link.page_url for link in extract_links(saved)} == {"http://saved.example/a/"}
    root = FIXTURES / "mirror" / "example.com"
    links = extract_links(root / "docs" / "index.html", root_url="https://e.example/", root=root)
    assert {link.page_url for link in links} == {"https://e.example/docs/"}


def test_a_redirect_s_header_links_have_the_page_url_too() -> None:
    links = extract_links(FIXTURES / "containers" / "redirect.http", url="http://r.example/old")
    assert links and {link.page_url for link in links} == {"http://r.example/old"}


def test_it_is_an_origin_field_written_by_jsonl_always_and_csv_when_asked(
    capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    assert ORIGIN_FIELDS[-2:] == FIELDS[-2:] == ("page_url", "revisit_of")
    assert "page_url" not in DEFAULT_FIELDS  # CSV and TSV keep their twelve columns
    path = str(FIXTURES / "html" / "base-late.html")
    url = "http://example.com/dir/page.html"
    assert main(["extract", path, "--url", url, "--format", "jsonl", "-q"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["base"], r["page_url"]) for r in records] == [
        ("https://mirror.example.com/docs/", url)
    ] * 2
    assert main(["extract", path, "--url", url, "--format", "csv", "-q"]) == 0
    assert "page_url" not in capsys.readouterr().out.splitlines()[0]
    argv = ["extract", path, "--url", url, "--format", "csv", "--fields", "page_url,url", "-q"]
    assert main(argv) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out, newline="")))
    assert rows[0] == ["page_url", "url"] and rows[1] == [url, records[0]["url"]]
    assert main([*argv[:-3], "--fields", "page_url", "--format", "tsv", "-q"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [url, url]


def test_a_page_without_a_url_writes_it_empty_in_csv_and_null_in_jsonl(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(FIXTURES / "html" / "no-base.html")
    assert main(["extract", path, "--fields", "url,page_url", "--format", "csv", "-q"]) == 0
    assert {row[1] for row in csv.reader(capsys.readouterr().out.splitlines()[1:])} == {""}
    assert main(["extract", path, "--fields", "page_url", "--format", "jsonl", "-q"]) == 0
    assert {line for line in capsys.readouterr().out.splitlines()} == {'{"page_url": null}'}


def test_same_host_compares_with_the_page_url_not_the_base() -> None:
    data = warc([("http://site.example/dir/page.html", "text/html", PAGE)])
    # every link goes to cdn.example, the <base>'s host: external to the page
    assert extract_links(data, same_host=True) == []
    assert len(extract_links(data, external=True)) == 2


def test_dataflow_rows_carry_it(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "one.warc.gz"
    path.write_bytes(warc([("http://site.example/p", "text/html", PAGE)]))
    rows = list(iter_warc_links(path))
    at = ROW_FIELDS.index("page_url")
    assert {row[at] for row in rows} == {"http://site.example/p"}


def test_iter_warc_links_yields_named_rows(tmp_path: object) -> None:
    from pathlib import Path

    from baselinks.dataflow import LinkRow

    path = Path(str(tmp_path)) / "one.warc.gz"
    path.write_bytes(warc([("http://site.example/p", "text/html", PAGE)]))
    row = next(iter_warc_links(path))
    assert isinstance(row, LinkRow) and isinstance(row, tuple)
    assert row._fields == ROW_FIELDS
    assert (row.url, row.page_url, row.warc) == (
        "http://cdn.example/assets/a.html",
        "http://site.example/p",
        str(path),
    )
    assert row.problems == [] and row.offset == 0
