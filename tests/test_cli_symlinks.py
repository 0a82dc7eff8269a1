"""Symbolic links met in a directory walk (``baselinks extract DIR``).

A link to a directory is not followed, as ``grep -r``, ``find`` (without ``-L``) and ripgrep
(without ``-L``) do not follow one: a link back up the tree would loop, one to a sibling would
read its pages twice, one out of the tree would read what the user did not name. It is not
passed over in silence either: the summary counts it, skipped, ``symbolic link to a
directory``, so that a count lower than expected says why. A directory named on the command
line is walked even when the name is a link (``grep -r`` and ``find -H`` follow those too),
and a link to a file is read, as the file it names.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from baselinks.cli import main


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """site/a.html, site/sub/b.html; and links: to sub (a sibling), to site itself (a loop),
    to a directory outside the tree, to a file, and one to a directory that is gone."""
    site = tmp_path / "site"
    (site / "sub").mkdir(parents=True)
    (site / "a.html").write_bytes(b'<a href="http://e.example/a">')
    (site / "sub" / "b.html").write_bytes(b'<a href="http://e.example/b">')
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "c.html").write_bytes(b'<a href="http://e.example/c">')
    (site / "again").symlink_to(site / "sub")
    (site / "sub" / "up").symlink_to(site)
    (site / "elsewhere").symlink_to(outside)
    (site / "z.html").symlink_to(site / "a.html")
    (site / "removed").symlink_to(tmp_path / "no-such-directory")
    return site


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], list[str]]:
    status = main(["extract", "--format", "tsv", "--fields", "url,document", *args])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_links_to_directories_are_counted_not_followed(
    site: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    status, out, err = _run(capsys, str(site), "-j", jobs)
    assert out == [
        "url\tdocument",
        f"http://e.example/a\t{site / 'a.html'}",
        f"http://e.example/a\t{site / 'z.html'}",  # a link to a file: read as that file
        f"http://e.example/b\t{site / 'sub' / 'b.html'}",
    ]
    assert err == [
        # a link whose directory is gone is a dangling link like any other: named, failed
        f"baselinks: {site / 'removed'}: No such file or directory",
        "baselinks: 3 files, 3 documents, 3 links; "
        "skipped 3 (3 symbolic link to a directory); 1 failed",
    ]
    assert status == 1


def test_a_directory_named_through_a_link_is_walked(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = tmp_path / "named"
    named.symlink_to(site / "sub")
    status, out, err = _run(capsys, str(named))
    assert (status, out) == (0, ["url\tdocument", f"http://e.example/b\t{named / 'b.html'}"])
    # its own link up to site is not followed
    assert err == [
        "baselinks: 1 file, 1 document, 1 link; skipped 1 (1 symbolic link to a directory); "
        "0 failed"
    ]


def test_the_links_skipped_are_in_the_stats(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    main(["extract", str(site), "-o", os.devnull, "--stats=json"])
    counts = json.loads(capsys.readouterr().err.splitlines()[-1])
    assert counts["skipped"] == {"symbolic link to a directory (not followed)": 3}
    assert counts["files"] == 3
