"""--root-url and root_url=: a mirrored site's files at the URLs they were served from (mirror.py),
and the rule of --url for a directory or an archive (never silent)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from baselinks import extract_links
from baselinks.base.mirror import MirroredURL, mirrored_url, root_url
from baselinks.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SITE = FIXTURES / "mirror" / "example.com"
ROOT = "https://example.com/"

# (path under the mirror, the URL it was served from): the conventions of mirror.py's docstring
MAPPING = [
    pytest.param("a.html", "https://example.com/a.html", id="a file"),
    pytest.param("docs/a.html", "https://example.com/docs/a.html", id="a file in a folder"),
    pytest.param("index.html", "https://example.com/", id="index.html: the directory"),
    pytest.param("docs/index.html", "https://example.com/docs/", id="a folder's index.html"),
    pytest.param("docs/index.htm", "https://example.com/docs/index.htm", id="only wget's name"),
    pytest.param("docs/x/index.html/a", "https://example.com/docs/x/index.html/a", id="a folder"),
    pytest.param("a b.html", "https://example.com/a%20b.html", id="a space"),
    pytest.param("café/été.html", "https://example.com/caf%C3%A9/%C3%A9t%C3%A9.html", id="UTF-8"),
    pytest.param("100%.html", "https://example.com/100%25.html", id="a percent sign"),
    pytest.param("a#b.html", "https://example.com/a%23b.html", id="a number sign"),
    pytest.param("a.php?x=1&y=a b", "https://example.com/a.php?x=1&y=a%20b", id="wget's query"),
    pytest.param("index.html?p=2", "https://example.com/?p=2", id="an index's query"),
    pytest.param("a?b/c", "https://example.com/a%3Fb/c", id="a folder's ? is no query"),
    pytest.param("d/a?b?c", "https://example.com/d/a?b?c", id="a query keeps its ?"),
    pytest.param("a.html@x=1", "https://example.com/a.html@x=1", id="windows names: kept"),
    pytest.param("a.php?x=1.html", "https://example.com/a.php?x=1.html", id="adjust-extension"),
    pytest.param("~u/(1);v=2,3:!$'*+", "https://example.com/~u/(1);v=2,3:!$'*+", id="pchars"),
]


@pytest.mark.parametrize(("relative", "url"), MAPPING)
def test_a_file_s_path_under_the_mirror_gives_its_url(relative: str, url: str) -> None:
    mapped = mirrored_url(ROOT, relative)
    assert mapped == url
    assert isinstance(mapped, MirroredURL)


def test_a_file_name_that_is_not_utf8_is_its_own_bytes_percent_encoded() -> None:
    name = os.fsdecode(b"caf\xe9.html")  # Latin-1 bytes, held as a lone surrogate
    assert mirrored_url(ROOT, name) == "https://example.com/caf%E9.html"


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("https://example.com", "https://example.com/"),
        ("https://example.com/site", "https://example.com/site/"),
        ("https://example.com/site/", "https://example.com/site/"),
    ],
)
def test_the_root_url_is_a_directory(given: str, used: str) -> None:
    assert root_url(given) == used


@pytest.mark.parametrize(
    "bad", ["example.com/", "/docs/", "https://example.com/?q=1", "https://example.com/#f", "x:y"]
)
def test_a_root_url_is_absolute_with_a_host_and_nothing_after_its_path(bad: str) -> None:
    with pytest.raises(ValueError, match="root URL"):
        root_url(bad)


def _tsv(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[list[str]], str]:
    status = main(["extract", *argv, "--format", "tsv", "--fields", "url,base,document"])
    captured = capsys.readouterr()
    return status, [line.split("\t") for line in captured.out.splitlines()[1:]], captured.err


def test_the_fixture_mirror_resolves_as_it_was_served(capsys: pytest.CaptureFixture[str]) -> None:
    status, rows, err = _tsv(capsys, "--root-url", ROOT, str(SITE))
    assert status == 0
    assert err == "baselinks: 3 files, 3 documents, 6 links; 0 failed\n"
    index, docs, notes = (
        str(SITE / "index.html"),
        str(SITE / "docs" / "index.html"),
        str(SITE / "docs" / "release notes.html"),
    )
    assert rows == [
        ["https://example.com/docs/", "https://example.com/", index],
        # the empty form action: the document's own URL, the directory's
        ["https://example.com/", "https://example.com/", index],
        ["https://example.com/docs/guide.html", "https://example.com/docs/", docs],
        ["https://example.com/", "https://example.com/docs/", docs],
        [
            "https://example.com/docs/release%20notes.html?page=2",
            "https://example.com/docs/release%20notes.html",
            notes,
        ],
        [
            "https://example.com/img/logo.png",
            "https://example.com/docs/release%20notes.html",
            notes,
        ],
    ]


def test_the_root_url_s_path_is_the_directory_s(capsys: pytest.CaptureFixture[str]) -> None:
    status, rows, _ = _tsv(capsys, "--root-url", "https://example.com/old", str(SITE / "docs"))
    assert status == 0
    assert [row[1] for row in rows] == ["https://example.com/old/"] * 2 + [
        "https://example.com/old/release%20notes.html"
    ] * 2


def _page(path: Path, body: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(body)
    return path


SAVED = b"<!-- saved from url=(0025)http://saved.example/a/b/ -->\n<a href=g>g</a>"


def test_a_page_s_saved_from_comment_wins_over_its_place_in_the_mirror(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _page(tmp_path / "site" / "x" / "saved.html", SAVED)
    _page(tmp_path / "site" / "x" / "plain.html", b'<a href="g">g</a>')
    _page(tmp_path / "site" / "x" / "based.html", b'<base href="/b/"><a href="g">g</a>')
    status, rows, _ = _tsv(capsys, "--root-url", ROOT, str(tmp_path / "site"))
    assert status == 0
    assert [row[:2] for row in rows] == [
        ["https://example.com/b/g", "https://example.com/b/"],  # <base>, over the mirror's URL
        ["https://example.com/x/g", "https://example.com/x/plain.html"],
        ["http://saved.example/a/b/g", "http://saved.example/a/b/"],  # the page's own record
    ]
    # --url is a URL given: it wins over the comment, as it always did
    status, rows, _ = _tsv(capsys, "--url", "http://given.example/", str(tmp_path / "site" / "x"))
    assert [row[1] for row in rows][-1] == "http://given.example/"


def test_an_mhtml_snapshot_s_location_wins_over_its_place_in_the_mirror(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    message = (
        b"MIME-Version: 1.0\r\nSnapshot-Content-Location: http://snap.example/p/\r\n"
        b'Content-Type: multipart/related; boundary="b"\r\n\r\n--b\r\n'
        b"Content-Type: text/html\r\n\r\n<a href=g>g</a>\r\n--b--\r\n"
    )
    _page(tmp_path / "site" / "snap.mhtml", message)
    _page(tmp_path / "site" / "plain.mhtml", message.replace(b"Snapshot-", b"X-"))
    status, rows, _ = _tsv(capsys, "--root-url", ROOT, str(tmp_path / "site"))
    assert status == 0
    assert [row[0] for row in rows] == ["https://example.com/g", "http://snap.example/p/g"]


def test_a_query_in_a_saved_name_is_the_document_s_query(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _page(tmp_path / "site" / "list.php?page=2", b'<a href="">this</a><a href="?page=3">next</a>')
    status, rows, _ = _tsv(capsys, "--root-url", ROOT, str(tmp_path / "site"))
    assert status == 0
    assert [row[0] for row in rows] == [
        "https://example.com/list.php?page=2",
        "https://example.com/list.php?page=3",
    ]


def test_the_mirror_and_workers_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    _page(site / "x" / "saved.html", SAVED)
    one = _tsv(capsys, "--root-url", ROOT, str(site))
    two = _tsv(capsys, "--root-url", ROOT, str(site), "-j", "2")
    assert one == two
    assert len(one[1]) == 7


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--root-url", ROOT, str(SITE / "index.html")], "index.html is none"),
        (["--root-url", ROOT, str(SITE), "-"], "- is none"),
        (["--root-url", ROOT], "- is none"),
        (["--root-url", "example.com", str(SITE)], "a root URL is absolute"),
        (["--root-url", ROOT, "--url", ROOT, str(SITE)], "not allowed with argument"),
    ],
)
def test_root_url_maps_directories_only(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["extract", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err


def test_url_with_a_directory_says_every_file_gets_that_one_url(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, rows, err = _tsv(capsys, "--url", "http://e.com/a/", str(SITE))
    assert status == 0
    assert {row[1] for row in rows} == {"http://e.com/a/"}
    assert err == (
        f"baselinks: {SITE}: --url gives every file under it the same URL, http://e.com/a/ "
        "(a mirrored site: --root-url gives each file its own)\n"
        "baselinks: 3 files, 3 documents, 6 links; 0 failed\n"
    )


WARC = FIXTURES / "containers" / "crawl.warc"


def test_url_with_a_warc_says_it_is_not_used(capsys: pytest.CaptureFixture[str]) -> None:
    status, rows, err = _tsv(capsys, str(WARC), "--url", "http://given.example/")
    plain = _tsv(capsys, str(WARC))
    assert status == 0
    assert rows == plain[1]  # the records' own URLs, as without --url
    assert "http://given.example/" not in {row[1] for row in rows}
    lines = err.splitlines()
    assert lines[0] == (
        f"baselinks: {WARC}: --url not used: the records of an archive carry the URL each was "
        "retrieved from (WARC-Target-URI, RFC 1808 §3.3), which no option overrides"
    )
    assert lines[1:] == plain[2].splitlines()  # the summary, unchanged: no failure


def test_url_with_a_warc_is_said_once_per_archive_with_workers_too(
    capsys: pytest.CaptureFixture[str],
) -> None:
    gz = FIXTURES / "containers" / "crawl.warc.gz"
    argv = ["extract", str(WARC), str(gz), "--url", "http://g.example/", "--format", "text"]
    assert main([*argv, "-j", "2"]) == 0
    err = capsys.readouterr().err
    assert err.count("--url not used") == 2
    assert f"{gz}: --url not used" in err


def test_url_with_html_mime_or_http_is_used_and_nothing_said(
    capsys: pytest.CaptureFixture[str],
) -> None:
    inputs = [
        FIXTURES / "containers" / "mail-no-base.eml",
        FIXTURES / "containers" / "redirect.http",
        SITE / "index.html",
    ]
    status = main(["extract", *map(str, inputs), "--url", "http://g.example/", "--format", "text"])
    assert status == 0
    assert "not used" not in capsys.readouterr().err


def test_the_library_s_url_is_not_used_for_a_warc_either() -> None:
    assert extract_links(WARC, url="http://given.example/") == extract_links(WARC)


def test_quiet_leaves_the_notes_on_url_out(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", str(WARC), str(SITE), "--url", "http://g.example/", "-q"]) == 0
    assert capsys.readouterr().err == ""


def test_the_library_maps_a_file_of_a_mirror() -> None:
    links = extract_links(SITE / "docs" / "index.html", root_url=ROOT, root=SITE)
    assert [(link.url, link.base) for link in links] == [
        ("https://example.com/docs/guide.html", "https://example.com/docs/"),
        ("https://example.com/", "https://example.com/docs/"),
    ]
    assert type(links[0].base) is str  # the marker type stays inside


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"root_url": ROOT}, "give the path and root="),
        ({"root": SITE}, "give both"),
        ({"root_url": ROOT, "root": SITE / "docs"}, "no file under"),
        ({"root_url": ROOT, "root": SITE / "index.html"}, "no file under"),
        ({"root_url": ROOT, "root": SITE, "url": ROOT}, "exclude each other"),
    ],
)
def test_the_library_s_root_url_needs_a_file_under_root(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        extract_links(SITE / "index.html", **options)


def test_the_summary_counts_the_links_left_without_a_base(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(["extract", str(SITE), "--format", "text"])
    assert status == 0
    assert capsys.readouterr().err == (
        "baselinks: 3 files, 3 documents, 6 links; 5 links without a base (relative, as "
        "written): give --url or --root-url; 0 failed\n"
    )
    # the empty form action is no link without a base: it is the document itself
    assert main(["extract", str(SITE), "--format", "jsonl", "-q"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert sum("no-base" in record["problems"] for record in records) == 5


def test_a_mirrored_page_s_own_host_is_its_url_s(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["extract", str(SITE), "--root-url", ROOT, "--format", "text", "-q"]
    assert main([*argv, "--external"]) == 0
    assert capsys.readouterr().out == ""  # every link of the fixture is to example.com
    assert main([*argv, "--same-host", "--unique=run"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "https://example.com/docs/",
        "https://example.com/",
        "https://example.com/docs/guide.html",
        "https://example.com/docs/release%20notes.html?page=2",
        "https://example.com/img/logo.png",
    ]
    # without a URL a page has no host: its links are neither same-host nor external
    assert main(["extract", str(SITE), "--format", "text", "-q", "--same-host"]) == 0
    assert capsys.readouterr().out == ""
