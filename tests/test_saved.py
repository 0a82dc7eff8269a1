"""Saved copies (issue 19, item 5): a page saved with "Save page, complete" points into the
folder its browser wrote beside it; against its "saved from url" those links are URLs that
never existed, so they carry ``saved-copy``, and the file on disk is found from the record."""

from __future__ import annotations

import os
import shutil
import urllib.parse
from pathlib import Path

import pytest

from baselinks import Link, extract_links
from baselinks.url.diagnose import CODES, saved_copy
from conftest import FIXTURES

SAVED = FIXTURES / "saved"
CHROME = SAVED / "chrome" / "A Post.html"
FIREFOX = SAVED / "firefox" / "post.html"


def _on_disk(link: Link) -> Path:
    """Where a saved-copy link's file is: its reference, path part, percent-decoded, beside
    the document (the recipe docs/reference.md gives)."""
    path = link.raw.strip().split("#")[0].split("?")[0]
    return Path(os.path.dirname(link.document), urllib.parse.unquote(path))


def test_chrome_links_into_the_saved_folder_are_marked_the_others_keep_the_saved_base() -> None:
    links = extract_links(str(CHROME))
    marked = [(link.raw, "saved-copy" in link.problems) for link in links]
    assert marked == [
        ("./A Post_files/site.css", True),
        ("./A Post_files/app.js", True),
        ("./A Post_files/cat.png", True),
        ("https://blog.example/2024/other.html", False),
        ("archive/", False),
        ("./A Post_files/", True),  # the folder itself is there too
        ("./Other_files/x.png", False),  # no such folder on disk: a link like any other
    ]
    # every link keeps the "saved from url" base: the record still says what the page meant
    assert {(link.base, link.base_source) for link in links} == {
        ("https://blog.example/2024/post.html", "retrieval")
    }
    assert links[0].url == "https://blog.example/2024/A Post_files/site.css"  # never existed
    assert links[4].url == "https://blog.example/2024/archive/"
    files = [_on_disk(link) for link in links if "saved-copy" in link.problems]
    assert [path.is_file() for path in files] == [True, True, True, False]
    assert files[2].read_bytes().startswith(b"\x89PNG")


def test_firefox_links_into_the_saved_folder_are_marked_with_the_url_given() -> None:
    # Firefox writes no "saved from url" comment: the caller gives the page's URL
    links = extract_links(str(FIREFOX), url="https://blog.example/2024/post.html")
    assert [(link.url, link.problems) for link in links] == [
        ("https://blog.example/2024/post_files/site.css", ("saved-copy",)),
        ("https://blog.example/2024/post_files/cat.png", ("saved-copy",)),
        ("https://blog.example/2024/other.html", ()),
    ]
    assert all(_on_disk(link).is_file() for link in links[:2])


def test_without_the_folder_on_disk_nothing_is_marked(tmp_path: Path) -> None:
    alone = tmp_path / "post.html"
    shutil.copy(FIREFOX, alone)  # the page, without its post_files/ folder
    assert [link.problems for link in extract_links(str(alone))] == [("no-base",)] * 3


def test_the_same_page_from_bytes_is_not_marked() -> None:
    # no file, so no folder beside it: whatever the current directory holds
    data = FIREFOX.read_bytes()
    assert not any("saved-copy" in link.problems for link in extract_links(data))


def test_a_percent_encoded_folder_name_is_found(tmp_path: Path) -> None:
    (tmp_path / "My Post_files").mkdir()
    page = tmp_path / "My Post.html"
    page.write_bytes(b'<img src="My%20Post_files/a.png"><img src="./My Post_files/b.png">')
    links = extract_links(str(page))
    assert ["saved-copy" in link.problems for link in links] == [True, True]


@pytest.mark.parametrize(
    "reference",
    ["..%2Fsecret_files/x", "..%2fsecret_files/x", "%2E%2E%2Fsecret_files/x",
     "..%5Csecret_files/x", "a%2F..%2F..%2Fsecret_files/x", "x%00_files/y"],
)  # fmt: skip
def test_a_decoded_folder_name_outside_the_input_is_not_looked_up(
    tmp_path: Path, reference: str
) -> None:
    # issue 29: "..%2F" inside the folder name was decoded and looked up on disk outside the
    # input, and whether that folder exists showed in the output (saved-copy)
    (tmp_path / "secret_files").mkdir()
    (tmp_path / "site").mkdir()
    page = tmp_path / "site" / "page.html"
    page.write_bytes(f'<img src="{reference}">'.encode())
    looked: list[str] = []
    isdir = os.path.isdir

    def watched(path: str) -> bool:
        looked.append(path)
        return isdir(path)

    original, os.path.isdir = os.path.isdir, watched
    try:
        [link] = extract_links(str(page))
    finally:
        os.path.isdir = original
    assert "saved-copy" not in link.problems
    assert all(os.path.dirname(path) == str(tmp_path / "site") for path in looked), looked


@pytest.mark.parametrize(
    "reference",
    ["/post_files/a.png", "../post_files/a.png", "https://x/post_files/a.png", "post_files",
     "#post_files/a", "?post_files/a", "files/a.png", "post_filesx/a.png"],
)  # fmt: skip
def test_what_is_not_a_link_into_the_saved_folder(reference: str) -> None:
    assert saved_copy(str(FIREFOX), [reference, "post_files/a.png"]) == [False, True]


def test_saved_copy_is_the_last_code() -> None:
    assert CODES[-1] == "saved-copy"
