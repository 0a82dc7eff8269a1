"""The command line, run in-process through main(argv) -> int."""

from __future__ import annotations

import json
import subprocess
import sys

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
    assert record["problems"] == ["scheme-relative-loophole"]
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
    }
    assert second["netloc"] == "" and second["has_netloc"] is True


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
