"""The rough edges of a week of use (issue 30, items 5 and 6): --root-url given wget -m's
folder, check's exit status, URLs read from stdin with -, the valid values on a bad one, a
--scheme no link has, and --help's fields, exit codes and examples."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

import baselinks
from baselinks.cli import main
from conftest import FIXTURES

SITE = FIXTURES / "mirror" / "example.com"


def test_root_url_given_the_folder_wget_m_ran_in_maps_under_its_host_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(SITE, tmp_path / "mirror" / "example.com")
    mirror = tmp_path / "mirror"
    argv = ["--root-url", "https://example.com/", "--fields", "url,page_url", "--format", "tsv"]
    assert main(["extract", str(SITE), *argv, "-q"]) == 0
    direct = capsys.readouterr().out
    assert main(["extract", str(mirror), *argv]) == 0
    captured = capsys.readouterr()
    assert captured.out == direct  # never https://example.com/example.com/...
    assert "example.com/docs/" in direct and "example.com/example.com" not in direct
    assert captured.err.splitlines()[0] == (
        f"baselinks: {mirror}: --root-url https://example.com/ is the host folder "
        f"{mirror / 'example.com'}'s URL (wget -m)"
    )
    links = baselinks.extract_links(
        mirror / "example.com" / "docs" / "index.html", root_url="https://example.com/", root=mirror
    )
    assert {link.page_url for link in links} == {"https://example.com/docs/"}


@pytest.mark.parametrize(
    ("url", "status"),
    [("not a url", 1), ("", 1), ("www.example.com/x", 1), ("http://e.example/", 0)],
)
def test_check_exits_1_for_what_is_no_absolute_url(url: str, status: int) -> None:
    assert main(["check", url, "--json"]) == status


def test_a_dash_reads_one_url_per_line_of_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("g\n../x\r\n"))
    assert main(["resolve", "http://a/b/c", "-"]) == 0
    assert capsys.readouterr().out == "http://a/b/g\nhttp://a/x\n"
    monkeypatch.setattr("sys.stdin", io.StringIO("http://a/\nb c\n"))
    assert main(["check", "-", "--json"]) == 1  # "b c" is no absolute URL
    assert len(capsys.readouterr().out.splitlines()) == 2
    monkeypatch.setattr("sys.stdin", io.StringIO("http://a/p\n"))
    assert main(["parse", "-", "--json"]) == 0
    assert '"path": "/p"' in capsys.readouterr().out


@pytest.mark.parametrize(
    ("given", "valid"), [("--unique=all", "document, run"), ("--stats=csv", "json, table")]
)
def test_a_bad_value_lists_the_valid_ones(
    given: str, valid: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["extract", given, str(SITE)]) == 2
    name, _, value = given.partition("=")
    assert (
        f"argument {name}: invalid choice: '{value}' (choose from {valid})"
        in capsys.readouterr().err
    )


def test_a_scheme_no_link_has_is_a_note(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", str(SITE), "--scheme", "htp", "--format", "text"]) == 0
    assert capsys.readouterr().err.splitlines()[-1] == (
        "baselinks: note: --scheme htp: no link has it"
    )


def test_extract_help_has_the_fields_the_exit_codes_and_examples(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["extract", "--help"]) == 0
    text = capsys.readouterr().out
    for name in baselinks.FIELDS:
        assert name in text
    assert "exit status:" in text and "  2  a usage error" in text
    assert "baselinks extract crawl.warc.gz -o links.jsonl.gz" in text
