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


# --- --fields and fields= ---------------------------------------------------------------------

LINKS = baselinks.extract_links(
    b'<a href="/x">x</a> <a href="http://Other.example/y">y</a> <a href="mailto:z@e.com">z</a>',
    url="http://e.com/a/",
    name="page",
)


def test_writers_take_the_chosen_fields_in_their_order() -> None:
    from baselinks.write.formats import WRITERS

    out = io.StringIO()
    assert WRITERS["csv"](LINKS[:1], out, fields=["line", "url"]) == 1
    assert out.getvalue() == "line,url\r\n1,http://e.com/x\r\n"
    out = io.StringIO()
    WRITERS["tsv"](LINKS[:2], out, fields=("url", "document"))
    assert out.getvalue() == "url\tdocument\nhttp://e.com/x\tpage\nhttp://Other.example/y\tpage\n"
    out = io.StringIO()
    WRITERS["jsonl"](LINKS[:1], out, fields=("problems", "url"))
    assert out.getvalue() == '{"problems": [], "url": "http://e.com/x"}\n'


def test_without_fields_the_writers_write_every_field() -> None:
    from baselinks.write.formats import FORMATS, WRITERS, output_format

    for name in FORMATS:
        out = io.StringIO()
        WRITERS[name](LINKS, out)
        header, render = FORMATS[name]
        assert out.getvalue() == header + "".join(render((link,)) for link in LINKS)
        assert output_format(name) is FORMATS[name]


@pytest.mark.parametrize(
    ("name", "fields", "message"),
    [
        ("csv", ["url", "bogus"], "unknown field.s. bogus: expected some of url, raw, base"),
        ("csv", [], "no field: expected some of url"),
        ("tsv", ["url", "url"], "a field named twice"),
        ("text", ["url"], "the text format has no fields to choose: use jsonl, csv, tsv"),
        ("table", ["url"], "the table format has no fields"),
    ],
)
def test_fields_that_cannot_be_written_are_refused(
    name: str, fields: list[str], message: str
) -> None:
    from baselinks.write.formats import WRITERS

    with pytest.raises(ValueError, match=message):
        WRITERS[name](LINKS, io.StringIO(), fields=fields)


def test_the_fields_option(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["extract", PAGE, "--url", "http://e.com/", "-q", "--fields", "line, url"]
    assert main([*argv, "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "line,url",
        "4,https://mirror.example.com/docs/before.html",
        "6,https://mirror.example.com/docs/after.html",
    ]
    assert main([*argv, "--format", "text"]) == 2
    assert "--fields: the text format has no fields to choose" in capsys.readouterr().err
    assert main([*argv[:-1], "url,nope"]) == 2
    assert "unknown field(s) nope: expected some of url, raw" in capsys.readouterr().err


# --- filters ----------------------------------------------------------------------------------

MIXED = (
    b'<a href="/x">same</a> <a href="HTTPS://E.COM:8443/z">same, other scheme and port</a>'
    b' <a href="http://other.example/y">external</a> <a href="mailto:m@e.com">no host</a>'
    b' <a href="javascript:void(0)">js</a> <a href="//cdn.example/c.js">external</a>'
)


def _urls(**options: object) -> list[str]:
    return [link.url for link in baselinks.extract_links(MIXED, **options)]  # type: ignore[arg-type]


def test_scheme_same_host_and_external_in_the_library() -> None:
    url = "http://e.com/a/"
    assert _urls(url=url, schemes={"http"}) == [
        "http://e.com/x",
        "http://other.example/y",
        "http://cdn.example/c.js",
    ]
    assert _urls(url=url, schemes=["HTTP", "https"]) == [
        "http://e.com/x",
        "HTTPS://E.COM:8443/z",
        "http://other.example/y",
        "http://cdn.example/c.js",
    ]
    assert _urls(url=url, same_host=True) == ["http://e.com/x", "HTTPS://E.COM:8443/z"]
    assert _urls(url=url, external=True) == ["http://other.example/y", "http://cdn.example/c.js"]
    assert _urls(url=url, external=True, schemes=["mailto"]) == []


def test_the_documents_own_url_is_its_url_not_its_base_element() -> None:
    page = b'<base href="http://cdn.example/"><a href="x">x</a><a href="http://e.com/y">y</a>'
    same = baselinks.extract_links(page, url="http://e.com/", same_host=True)
    assert [link.url for link in same] == ["http://e.com/y"]


def test_a_document_without_a_host_has_no_link_on_either_side() -> None:
    assert _urls(same_host=True) == []
    assert _urls(external=True) == []
    assert len(_urls(schemes=["http"])) == 1  # //cdn.example/c.js stays relative, no scheme


def test_same_host_and_external_exclude_each_other() -> None:
    with pytest.raises(ValueError, match="exclude each other"):
        _urls(same_host=True, external=True)
    with pytest.raises(ValueError, match="unknown unique scope 'site'"):
        _urls(unique="site")


def test_filters_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(MIXED)
    argv = ["extract", str(page), "--url", "http://e.com/", "--format", "text", "-q"]
    assert main([*argv, "--external"]) == 0
    assert capsys.readouterr().out == "http://other.example/y\nhttp://cdn.example/c.js\n"
    assert main([*argv, "--same-host", "--scheme", "HTTPS"]) == 0
    assert capsys.readouterr().out == "HTTPS://E.COM:8443/z\n"
    assert main([*argv, "--same-host", "--external"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


# --- --unique=run -----------------------------------------------------------------------------


def _site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    for n in range(40):  # enough documents for -j 2 to spread them over two workers
        body = f'<a href="/p{n % 7}">a</a><a href="/p{n % 5}">b</a><a href="/p{n % 7}">c</a>'
        (site / f"{n:02}.html").write_text(body)
    return site


def test_unique_run_gives_each_url_once_whatever_the_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = _site(tmp_path)
    argv = ["extract", str(site), "--url", "http://e.com/", "--format", "tsv"]
    outputs = []
    for jobs in ("1", "2"):
        assert main([*argv, "--fields", "url,document", "--unique=run", "-j", jobs]) == 0
        outputs.append(capsys.readouterr())
    assert outputs[0] == outputs[1]
    out, err = outputs[0]
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    assert [url for url, _ in rows] == [f"http://e.com/p{n}" for n in (0, 1, 2, 3, 4, 5, 6)]
    assert rows[0][1].endswith("00.html") and rows[-1][1].endswith("06.html")
    assert "40 documents, 7 links;" in err  # the links given
    assert main([*argv, "--unique"]) == 0
    per_document = sum(len({n % 7, n % 5}) for n in range(40))  # 70: one URL twice in 10
    assert f"40 documents, {per_document} links;" in capsys.readouterr().err


def test_unique_run_in_the_library(tmp_path: Path) -> None:
    site = _site(tmp_path)
    pages = sorted(site.iterdir())
    summary = baselinks.Summary()
    seen: list[str] = []
    for page in pages:  # one call per page: "run" is the call's, not the process's
        seen += [link.url for link in baselinks.iter_links(page, url="http://e.com/", unique="run")]
    assert len(seen) == sum(len({n % 7, n % 5}) for n in range(40))
    warc = str(FIXTURES / "containers" / "crawl.warc.gz")
    every = baselinks.extract_links(warc, summary=summary)
    once = baselinks.extract_links(warc, unique="run", workers=2)
    assert [link.url for link in once] == list(dict.fromkeys(link.url for link in every))


def test_unique_before_a_path_still_takes_no_value(capsys: pytest.CaptureFixture[str]) -> None:
    # "--unique=run" is an option string of its own: "--unique PATH" reads PATH as a path
    assert main(["extract", "--unique", PAGE, "--format", "text", "-q"]) == 0
    assert capsys.readouterr().out.count("\n") == 2
    assert main(["extract", "--unique=everywhere", PAGE]) == 2
    # the valid values said (was: "ignored explicit argument 'everywhere'")
    assert "invalid choice: 'everywhere' (choose from document, run)" in capsys.readouterr().err


# --url and url=: the retrieval URL (RFC 1808 §3.3) is absolute, with a scheme, as --root-url
# is; "example.com/page" resolved "a" to "example.com/a", exit 0, nothing said.
NOT_RETRIEVAL_URLS = [
    ("example.com/page", "with a scheme"),
    ("/page.html", "with a scheme"),
    ("//example.com/page", "with a scheme"),
    ("localhost:8000/page", "with a scheme"),  # a host and port, not the scheme "localhost"
    ("example.com:8080/page", "with a scheme"),
    ("https:page", "URL names a host"),
    ("http:/page", "URL names a host"),
    ("", "with a scheme"),
    (" http://example.com/", "with a scheme"),
]


@pytest.mark.parametrize(("url", "message"), NOT_RETRIEVAL_URLS)
def test_url_is_checked_as_root_url_is(
    url: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["extract", PAGE, "--url", url]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines()[-1].startswith("baselinks extract: error: argument --url: ")
    assert message in captured.err and repr(url) in captured.err
    with pytest.raises(ValueError, match=message):
        baselinks.extract_links(b'<a href="a">a</a>', url=url)


@pytest.mark.parametrize(
    "url", ["http://example.com/dir/page", "file:///home/user/page.html", "urn:isbn:0451450523"]
)
def test_url_with_a_scheme_is_taken(url: str) -> None:
    links = baselinks.extract_links(b'<a href="#top">a</a>', url=url)
    assert [link.url for link in links] == [url + "#top"]
