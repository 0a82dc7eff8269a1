"""The command line, run in-process through main(argv) -> int."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from baselinks.cli import main

BASE = "http://a/b/c/d;p?q#f"


def test_resolve_prints_one_url_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", BASE, "g", "../../../g", ";x", "http:g"]) == 0
    assert capsys.readouterr().out == "http://a/b/c/g\nhttp://a/../g\nhttp://a/b/c/d;x\nhttp:g\n"


def test_resolve_in_each_mode(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", BASE, "../../../g", "--mode", "rfc3986"]) == 0
    assert main(["resolve", BASE, "../../../g", "--mode", "whatwg"]) == 0
    assert capsys.readouterr().out == "http://a/g\nhttp://a/g\n"


def test_explain_prints_the_steps_and_problems(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", BASE, "../../../g", "--explain"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "base       http://a/b/c/d;p?q#f",
        "embedded   ../../../g",
        "mode       rfc1808",
        "Step 2     parsed by §2.4",
        "             scheme='' netloc='' path='../../../g' params='' query='' fragment=''",
        "Step 2c    inherits the base's scheme 'http'",
        "             scheme='http' netloc='' path='../../../g' params='' query='' fragment=''",
        "Step 3     inherits the base's net_loc 'a'",
        "             scheme='http' netloc='a' path='../../../g' params='' query='' fragment=''",
        "Step 6     base directory '/b/c/' + path '../../../g'",
        "             scheme='http' netloc='a' path='/b/c/../../../g' params='' query='' fragment=''",
        "Step 6a-d  '.' and '<segment>/..' removed: '/../g'",
        "             scheme='http' netloc='a' path='/../g' params='' query='' fragment=''",
        "Step 7     recombined: http://a/../g",
        "             scheme='http' netloc='a' path='/../g' params='' query='' fragment=''",
        "result     http://a/../g",
        "problems   dot-segments-above-root",
        "",
    ]


def test_explain_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", BASE, "http:g", "--explain", "--json", "--mode", "rfc3986"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["url"] == "http:g"
    assert record["problems"] == ["scheme-relative-loophole", "missing-double-slash"]
    assert [s["rule"] for s in record["steps"]] == ["5.2.2 R.scheme defined", "5.3"]


def test_a_failure_is_one_line_and_the_rest_still_resolve(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["resolve", "http://a/", "http://[bad", "g", "--mode", "whatwg"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "http://a/g\n"
    assert (
        captured.err
        == "baselinks: cannot resolve 'http://[bad' against 'http://a/' (WHATWG URL parser)\n"
    )


def test_parse_as_json_when_piped(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "ftp://@host.com/", "file:///etc/hosts"]) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first == {
        "url": "ftp://@host.com/",
        "scheme": "ftp",
        "netloc": "@host.com",
        "path": "/",
        "params": "",
        "query": "",
        "fragment": "",
        "has_netloc": True,
        "user": "",
        "password": None,
        "host": "host.com",
        "port": None,
        "hostname": "host.com",
        "port_number": 21,  # RFC 1738 §3.2: FTP's default
    }
    assert second["netloc"] == "" and second["has_netloc"] is True
    assert second["hostname"] is None and second["port_number"] is None


def test_parse_gives_hostname_and_port_as_urllib_names_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["parse", "http://U:P@Example.COM:8080/", "http://[::1]/", "http://h:x/"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["host"], r["port"], r["hostname"], r["port_number"]) for r in rows] == [
        ("Example.COM", "8080", "example.com", 8080),
        ("[::1]", None, "::1", 80),
        ("h", "x", "h", None),  # not digits: no number (baselinks check says invalid-port)
    ]


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", BASE]) == 2
    assert main(["resolve", BASE, "g", "--mode", "rfc2396"]) == 2
    assert main([]) == 2
    assert "invalid choice: 'rfc2396'" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("baselinks 0.")


def test_python_dash_m_and_a_closed_pipe() -> None:
    # `| head -1` closes the pipe early: no traceback, a clean exit.
    refs = ["g"] * 20000
    proc = subprocess.run(
        f"{sys.executable} -m baselinks resolve http://a/b {' '.join(refs)} | head -1",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.stdout == "http://a/g\n"
    assert proc.stderr == ""


# --- extract ---------------------------------------------------------------------------------

HTML = b'<html><head><base href="/b/"></head><body><a href="x.html">X</a><img src="i.png"></body></html>'


def test_extract_a_file_as_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(HTML)
    assert main(["extract", str(page), "--url", "http://e.com/a/p.html"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["url"], r["base_source"], r["document"]) for r in records] == [
        ("http://e.com/b/x.html", "content", str(page)),
        ("http://e.com/b/i.png", "content", str(page)),
    ]


def test_extract_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(HTML)))
    assert main(["extract", "--url", "http://e.com/", "--format", "text"]) == 0
    assert capsys.readouterr().out == "http://e.com/b/x.html\nhttp://e.com/b/i.png\n"


def test_extract_a_directory_recursively_with_one_csv_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.html").write_bytes(b"<a href=a>")
    (tmp_path / "sub" / "b.htm").write_bytes(b"<a href=b>")
    # recognised by content, not by name: a page without a suffix is read, notes and an
    # image are skipped (counted, not failures)
    (tmp_path / "sub" / "page").write_bytes(b"<!DOCTYPE html><a href=c>")
    (tmp_path / "sub" / "notes.txt").write_bytes(b"see a href=d")
    (tmp_path / "sub" / "x.png").write_bytes(b"\x89PNG\r\n\x1a\n<a href=e>")
    assert main(["extract", str(tmp_path), "--url", "http://e.com/", "--format", "csv"]) == 0
    captured = capsys.readouterr()
    rows = list(csv.reader(io.StringIO(captured.out)))
    assert rows[0][:2] == ["url", "raw"]
    assert [row[0] for row in rows[1:]] == ["http://e.com/a", "http://e.com/b", "http://e.com/c"]
    assert captured.err == (
        f"baselinks: {tmp_path}: --url gives every file under it the same URL, http://e.com/ "
        "(a mirrored site: --root-url gives each file its own)\n"
        "baselinks: 5 files, 3 documents, 3 links; skipped 2 (2 not a document); 0 failed\n"
    )


def test_extract_tsv_and_kind_and_unique(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(b"<a href=x>1</a><a href=x>2</a><img src=i>")
    assert (
        main(
            [
                "extract",
                str(page),
                "--format",
                "tsv",
                "--kind",
                "link",
                "--unique",
                "--url",
                "http://e.com/",
            ]
        )
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("\t")[:3] == ["url", "raw", "base"]
    assert [line.split("\t")[0] for line in lines[1:]] == ["http://e.com/x"]


def test_extract_attr_adds_tag_attribute_pairs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(b'<div data-url="card.html"></div><p data-x="p.html"></p><a href="a">a</a>')
    argv = ["extract", str(page), "--url", "http://e.com/", "-q", "--format", "jsonl"]
    assert main([*argv, "--attr", "div:data-url", "--attr", "*:data-x"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["url"], r["tag"], r["attr"], r["kind"], r["problems"]) for r in records] == [
        ("http://e.com/card.html", "div", "data-url", "other", ["nonstandard-attribute"]),
        ("http://e.com/p.html", "p", "data-x", "other", ["nonstandard-attribute"]),
        ("http://e.com/a", "a", "href", "link", []),
    ]
    assert main([*argv, "--attr", "div"]) == 2
    assert "expected TAG:ATTR" in capsys.readouterr().err


def test_extract_goes_on_after_a_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(b"<a href=x>")
    missing = tmp_path / "missing.html"
    assert main(["extract", str(missing), str(page), "--format", "text"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "x\n"
    assert captured.err == (
        f"baselinks: {missing}: No such file or directory\n"
        "baselinks: 1 file, 1 document, 1 link; 1 link without a base (relative, as written): "
        "give --url or --root-url; 1 failed\n"
    )


def test_extract_output_file_is_written_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(HTML)
    out = tmp_path / "links.jsonl"
    assert main(["extract", str(page), "-o", str(out), "--url", "http://e.com/"]) == 0
    assert capsys.readouterr().out == ""
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".baselinks-")] == []


def test_extract_bad_selector_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(HTML)
    out = tmp_path / "links.jsonl"
    assert main(["extract", str(page), "--select", "a[", "-o", str(out)]) == 2
    assert "invalid CSS selector" in capsys.readouterr().err
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["p.html"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_an_aligned_table_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    page = str(Path(__file__).parent.parent / "fixtures" / "html" / "base-late.html")
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert main(["extract", page, "-q"]) == 0
    assert terminal.getvalue().splitlines() == [
        "KIND      BASE          DOCUMENT                 FROM                   URL",
        "link      content       base-late.html           a href :4              "
        "https://mirror.example.com/docs/before.html",
        "link      content       base-late.html           a href :6              "
        "https://mirror.example.com/docs/after.html",
    ]


def test_a_progress_bar_and_the_seconds_on_a_terminal_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for n in range(3):
        (tmp_path / f"{n}.html").write_bytes(b'<a href="x">')
    (tmp_path / "bad.html").write_bytes(b"\x89PNG\r\n\x1a\n")
    argv = ["extract", "--format", "text", "--url", "http://e.example/", str(tmp_path)]
    assert main(argv) == 0  # piped: no bar, no seconds
    assert capsys.readouterr().err.splitlines()[1:] == [
        "baselinks: 4 files, 3 documents, 3 links; skipped 1 (1 not a document); 0 failed"
    ]  # after the line on --url with a directory (test_mirror.py)

    stderr = _Terminal()
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr("baselinks.cli.report.Progress.DELAY", 0)  # shown at once, not after 0.5 s
    monkeypatch.setattr("baselinks.cli.report.Progress.EVERY", 0)  # and redrawn at every document
    assert main(argv) == 0
    err = stderr.getvalue()
    # the bar: bytes read of the total, then documents, files, links
    assert re.search(
        r"\rbaselinks: +\d+%\|.*\| [\d.]+/[\d.]+ \[.*, [1-3] documents?, [1-4] files?, [1-3] links?\]",
        err,
    )
    assert re.search(
        r"\rbaselinks: 4 files, 3 documents, 3 links; .*; 0 failed in \d+\.\d s\n$", err
    )
    stderr.truncate(0)
    assert main([*argv, "-q"]) == 0
    assert stderr.getvalue() == ""  # --quiet: neither


@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "PYTHONUNBUFFERED=1"])
def test_an_error_line_follows_the_links_written_before_it(unbuffered: str) -> None:
    # stdout and stderr into one pipe (2>&1): the damaged record's error comes after its link,
    # whether stdout is block-buffered or not (it came first when buffered)
    import os

    damaged = Path(__file__).parent.parent / "fixtures/containers/example-wrong-chunks.warc.gz.bad"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = unbuffered
    run = subprocess.run(
        [sys.executable, "-m", "baselinks", "extract", str(damaged), "--format", "text"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        text=True,
        check=False,
    )
    lines = run.stdout.splitlines()
    assert lines[0] == "http://www.iana.org/domains/example"
    assert lines[1].startswith("baselinks: warning: ")  # repaired: a warning line, exit 0
    assert "record split over gzip members" in lines[1]
    assert run.returncode == 0


# --- issue 29: crashes and misleading errors at the command line ------------------------------


@pytest.mark.parametrize(
    ("ref", "printed"),
    [("a\nb", "http://a/b/c/a\\nb"), ("a\x1b]0;x\x07b", "http://a/b/c/a\\x1b]0;x\\x07b")],
)
def test_resolve_writes_a_control_character_of_its_argument_escaped(
    ref: str, printed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # was printed raw: a second line, or a terminal's escape sequence (rfc1808 keeps it)
    assert main(["resolve", BASE, ref]) == 0
    assert capsys.readouterr().out == printed + "\n"
    assert main(["resolve", BASE, ref, "--explain"]) == 0
    assert f"embedded  {ref}" not in capsys.readouterr().out


def test_extract_with_standard_input_closed(tmp_path: Path) -> None:
    # `extract <&-`: was an AttributeError traceback
    page = tmp_path / "p.html"
    page.write_bytes(b"<a href=x>")
    command = [
        sys.executable,
        "-m",
        "baselinks",
        "extract",
        "--format",
        "text",
        "--url",
        "http://e/",
    ]
    for inputs, summary in (
        ([], "1 file, 0 documents, 0 links; 1 failed"),
        (["-", str(page)], "2 files, 1 document, 1 link; 1 failed"),
    ):
        ran = subprocess.run(
            [*command, *inputs], capture_output=True, text=True, preexec_fn=lambda: os.close(0)
        )
        assert (ran.returncode, ran.stdout) == (1, "http://e/x\n" if inputs else "")
        assert ran.stderr.splitlines() == [
            "baselinks: -: standard input is closed",
            f"baselinks: {summary}",
        ]


@pytest.mark.parametrize("jobs", ["99999999999999999999", "1025", "-1", "two"])
def test_a_number_of_processes_out_of_range_is_a_usage_error(
    jobs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # -j 99999999999999999999 was a ValueError traceback (islice)
    assert main(["extract", "-j", jobs, "x.html"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "baselinks extract: error: argument -j/--jobs: expected a number of processes from 0 "
        f"(one per CPU) to 1,024: {jobs!r}"
    )


def test_ctrl_c_while_the_command_loads_is_an_interruption(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # before main() sets its handlers a Ctrl-C was a KeyboardInterrupt traceback
    from baselinks.cli import arguments

    def interrupted(version: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(arguments, "build_parser", interrupted)
    assert main(["extract", "x.html"]) == 130
    assert capsys.readouterr().err == "baselinks: interrupted\n"


@pytest.mark.slow  # ~3 s: 64 MB of records, twice
def test_a_document_whose_records_would_pass_the_limit_is_cut_and_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 29: an 80 KB page, a 40 KB <base>, 4,000 links: each JSON Lines record repeats the
    # base, 320 MB of text for one document, held whole (483 MB); the library streams it
    from baselinks import iter_links
    from baselinks.write.formats import MIN_OUTPUT_BYTES, output_budget

    page = tmp_path / "p.html"
    page.write_bytes(
        b'<base href="http://e.com/' + b"a" * 40_000 + b'/">' + b"<a href=x>y</a>" * 4_000
    )
    assert sum(1 for _ in iter_links(str(page))) == 4_000
    assert output_budget(page.stat().st_size) == MIN_OUTPUT_BYTES
    assert main(["extract", "-q", str(page)]) == 1
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(out.encode()) <= MIN_OUTPUT_BYTES
    record = len(lines[0].encode()) + 1  # each the same length
    assert len(lines) == MIN_OUTPUT_BYTES // record  # as many as the limit holds, whole
    assert all(json.loads(line)["url"].endswith("/x") for line in lines)
    assert err == (
        f"baselinks: {page}: output over 16,777,216 bytes (the limit for a document of this "
        f"size): the last {4_000 - len(lines):,} links not written\n"
    )
    assert main(["extract", "-q", "-j", "2", str(page), str(page)]) == 1
    assert capsys.readouterr().out == out * 2


@pytest.mark.slow  # ~5 s: 200,000 links, 86 MB of records
def test_a_large_ordinary_document_is_written_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(b"".join(b"<a href=%d>\n" % i for i in range(200_000)))  # 2.3 MB
    assert main(["extract", "-q", "--url", "http://e.com/", str(page)]) == 0  # 86 MB out
    out, err = capsys.readouterr()
    assert (out.count("\n"), err) == (200_000, "")
