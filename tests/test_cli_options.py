"""Issue 21: what a user trips on (markup as a str, a mistyped option, an unknown charset,
stdin on a terminal), and the output's fields and filters (--fields, --scheme, --same-host,
--external, --unique=run), on the command line and in the library."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import baselinks
from baselinks.cli import main

FIXTURES = Path(__file__).parent.parent / "fixtures"
PAGE = str(FIXTURES / "html" / "base-late.html")


# --- markup passed as a str -------------------------------------------------------------------


@pytest.mark.parametrize(
    "markup", ['<a href="x">x</a>', '  \n<html><a href="x">', "text\nwith a line break"]
)
def test_markup_as_a_str_says_to_pass_bytes(markup: str) -> None:
    with pytest.raises(TypeError, match=r"pass the document as bytes \(markup.encode\(\)"):
        baselinks.extract_links(markup)
    with pytest.raises(TypeError, match="pass the document as bytes"):
        list(baselinks.iter_links(markup, url="http://e.com/"))


def test_a_long_page_as_a_str_is_no_file_name_too_long() -> None:
    page = "<html>" + "<p>filler</p>" * 1000 + '<a href="x">'
    with pytest.raises(TypeError, match="pass the document as bytes"):
        baselinks.extract_links(page)


def test_a_str_naming_an_existing_file_is_a_path_even_with_a_less_than(tmp_path: Path) -> None:
    odd = tmp_path / "<odd.html"
    odd.write_bytes(b'<a href="x">')
    [link] = baselinks.extract_links(str(odd), url="http://e.com/")
    assert link.url == "http://e.com/x"


def test_a_str_that_is_no_markup_is_still_a_missing_path() -> None:
    with pytest.raises(baselinks.InputError, match="No such file"):
        baselinks.extract_links("no-such-page.html")


# --- usage errors -----------------------------------------------------------------------------


def test_a_mistyped_option_gets_the_subcommands_usage_and_a_suggestion(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["extract", "--fromat", "jsonl", PAGE]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: baselinks extract ")
    assert "unrecognized arguments: --fromat (did you mean --format?)" in err


def test_a_suggestion_for_an_option_given_with_its_value(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["resolve", "http://a/", "b", "--explian=1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: baselinks resolve ")
    assert "(did you mean --explain?)" in err


def test_nothing_near_is_suggested_as_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "http://a/", "--zzzzzzzz"]) == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --zzzzzzzz\n" in err and "did you mean" not in err


def test_an_unknown_charset_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", PAGE, "--charset", "bogus"]) == 2
    err = capsys.readouterr().err
    assert "argument --charset: unknown charset 'bogus'" in err
    assert main(["extract", PAGE, "--charset", " Latin1 ", "-q", "--format", "text"]) == 0
    assert capsys.readouterr().out.count("\n") == 2


class _Terminal(io.TextIOWrapper):
    def isatty(self) -> bool:
        return True


def test_stdin_on_a_terminal_says_it_is_read(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", _Terminal(io.BytesIO(b'<a href="x">')))
    assert main(["extract", "--url", "http://e.com/", "--format", "text", "-q"]) == 0
    out, err = capsys.readouterr()
    assert out == "http://e.com/x\n"
    assert err == "baselinks: reading standard input (end it with Ctrl-D; --help for the options)\n"


def test_stdin_from_a_pipe_says_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'<a href="x">')))
    assert main(["extract", "--url", "http://e.com/", "--format", "text", "-q"]) == 0
    assert capsys.readouterr() == ("http://e.com/x\n", "")
