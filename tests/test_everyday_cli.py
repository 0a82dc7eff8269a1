"""The rough edges of a week of use (issue 30, items 5 and 6): --root-url given wget -m's
folder, check's exit status, URLs read from stdin with -, the valid values on a bad one, a
--scheme no link has, and --help's fields, exit codes and examples."""

from __future__ import annotations

import io
import os
import re
import shutil
from pathlib import Path

import pytest

import baselinks
from baselinks.cli import main
from conftest import FIXTURES, extra, warc

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
    assert "baselinks extract https://example.com/" in text and "--generate man" in text


# --- issue 30, item 6: the table's document, the progress bar's bytes, --generate ------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_table_has_a_document_column(capsys: pytest.CaptureFixture[str]) -> None:
    crawl = FIXTURES / "containers" / "crawl.warc.gz"
    page = FIXTURES / "html" / "base-late.html"
    assert main(["extract", str(crawl), str(page), "--format", "table", "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["KIND", "BASE", "DOCUMENT", "FROM", "URL"]
    # the file's name without its folders, then the record's URI; cut at the start
    assert lines[1][24:49] == "\u2026tp://example.com/a/page "
    assert lines[-1][24:49] == "base-late.html           "
    assert lines[-1].endswith("https://mirror.example.com/docs/after.html")


def test_progress_counts_bytes_inside_one_warc_against_its_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from baselinks.cli import report
    from baselinks.run import batch

    # 40 records of 32 KiB that gzip cannot shrink (random hex): over a reader's buffer
    crawl = tmp_path / "crawl.warc.gz"
    pages = [
        (
            f"http://e.example/{n}",
            "text/html",
            b'<a href="x">%s</a>' % os.urandom(16384).hex().encode(),
        )
        for n in range(40)
    ]
    crawl.write_bytes(warc(pages))
    seen: list[tuple[int, int | None, str]] = []
    advance = report.Progress.advance

    def spy(self: report.Progress) -> None:
        advance(self)
        seen.append((self.bar.n, self.bar.total, self.bar.postfix or ""))

    monkeypatch.setattr(report.Progress, "advance", spy)
    monkeypatch.setattr(report.Progress, "DELAY", 0)
    monkeypatch.setattr(batch, "_READ_EVERY", 1)  # a Read event after each record
    monkeypatch.setattr("sys.stderr", _Terminal())
    assert main(["extract", str(crawl), "--format", "text"]) == 0
    size = crawl.stat().st_size
    assert {total for _, total, _ in seen} == {size}  # the total: the file's size
    read = [n for n, _, _ in seen]
    assert read == sorted(read) and len({n for n in read if 0 < n < size}) > 5  # inside it
    assert seen[-1][2] == "40 documents, 1 file, 40 links"  # never "1 files"
    assert report.total_size([str(crawl), "-"]) is None  # stdin: no total, no time left
    assert report.total_size([str(FIXTURES / "mirror")]) == sum(
        path.stat().st_size for path in (FIXTURES / "mirror").rglob("*") if path.is_file()
    )


def test_generate_a_fish_completion_from_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--generate", "complete-fish"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert (
        "complete -c baselinks -n '__fish_seen_subcommand_from extract' -l format -r -f -a "
        "'csv jsonl parquet table text tsv' -d 'output format'"
    ) in lines
    assert "complete -c baselinks -n __fish_use_subcommand -f -a check -d 'check URLs against "
    "the RFC 1738 syntax of their scheme'" in lines or any(
        line.startswith("complete -c baselinks -n __fish_use_subcommand -f -a check ")
        for line in lines
    )
    fish = shutil.which("fish")
    if fish is not None:  # its own parser reads it (fish -n: syntax only)
        import subprocess

        script = "\n".join(lines) + "\n"
        ran = subprocess.run([fish, "-n"], input=script, text=True, capture_output=True)
        assert (ran.returncode, ran.stderr) == (0, "")


@pytest.mark.parametrize(
    ("kind", "start"), [("man", ".TH BASELINKS"), ("complete-bash", "# AUTOMATICALLY GENERATED by")]
)
def test_generate_a_man_page_and_bash_completion(
    kind: str, start: str, capsys: pytest.CaptureFixture[str]
) -> None:
    extra("shell")  # shtab; argparse-manpage comes with it
    pytest.importorskip("argparse_manpage", reason="pip install -e '.[shell]' adds it")
    assert main(["--generate", kind]) == 0
    out = capsys.readouterr().out
    assert out.startswith(start)
    for option in ("--root-url", "--unique=run", "--strict", "--generate"):
        assert option.replace("-", "\\-" if kind == "man" else "-") in out


def test_generate_without_the_extra_or_with_a_bad_kind_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(__import__("sys").modules, "argparse_manpage", None)
    monkeypatch.setitem(__import__("sys").modules, "argparse_manpage.manpage", None)
    assert main(["--generate=man"]) == 2
    assert capsys.readouterr().err == (
        "baselinks: --generate man needs argparse-manpage: pip install 'baselinks[shell]'\n"
    )
    assert main(["--generate", "complete-tcsh"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "baselinks: error: argument --generate: expected one of man, complete-bash, "
        "complete-zsh, complete-fish, alone: '--generate complete-tcsh'"
    )


# --- issue 37, item 12: the man page's sections, --fields completed ---------------------------


def test_the_man_page_has_the_sections_of_extracts_help(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    extra("shell")
    pytest.importorskip("argparse_manpage", reason="pip install -e '.[shell]' adds it")
    assert main(["--generate", "man"]) == 0
    page = capsys.readouterr().out
    assert main(["extract", "--help"]) == 0
    help_text = capsys.readouterr().out
    sections = [line.removeprefix(".SH ") for line in page.splitlines() if line.startswith(".SH ")]
    assert {"FIELDS", "EXIT STATUS", "EXAMPLES"} <= set(sections)
    fields = page.split(".SH FIELDS\n", 1)[1].split(".SH", 1)[0]
    from baselinks.resolve.link import CHOOSABLE

    for field in CHOOSABLE:
        assert re.search(rf"(?m)(^|[ ,]){field}(,|$| )", fields), field  # every field named
    status = page.split(".SH EXIT STATUS\n", 1)[1].split(".SH", 1)[0]
    assert ".B 0\nevery input read" in status and ".B 130, 128+N\n" in status
    examples = page.split(".SH EXAMPLES\n", 1)[1].split(".SH", 1)[0]
    for line in help_text.split("examples:\n", 1)[1].split("\n\n", 1)[0].splitlines():
        assert line.strip().replace("-", "\\-") in examples  # each of --help's examples
    if shutil.which("man") is not None:  # man's own check of the roff
        import subprocess

        (tmp_path / "baselinks.1").write_text(page, encoding="utf-8")
        checked = subprocess.run(
            ["man", "-l", "--warnings", str(tmp_path / "baselinks.1")],
            capture_output=True,
            text=True,
            env={**os.environ, "MANPAGER": "cat", "MANWIDTH": "80"},
        )
        assert (checked.returncode, checked.stderr) == (0, "")


def _completed(shell: list[str], script: str, line: str) -> list[str]:
    import subprocess

    ran = subprocess.run(
        [*shell, script.replace("@LINE@", line)], capture_output=True, text=True, check=True
    )
    return ran.stdout.split()


def test_fields_complete_after_the_last_comma_in_bash(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    extra("shell")
    assert main(["--generate", "complete-bash"]) == 0
    completion = tmp_path / "baselinks.bash"
    completion.write_text(capsys.readouterr().out, encoding="utf-8")
    script = (
        f"source {completion}; read -ra COMP_WORDS <<< '@LINE@'; COMP_LINE='@LINE@';"
        " COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_POINT=${#COMP_LINE}; _shtab_baselinks;"
        ' printf "%s\\n" "${COMPREPLY[@]}"'
    )
    assert _completed(["bash", "-c"], script, "baselinks extract --fields url,ba") == [
        "url,base",
        "url,base_source",
    ]
    assert _completed(["bash", "-c"], script, "baselinks extract --fields page_d") == [
        "page_domain"
    ]


def test_fields_complete_after_the_last_comma_in_fish_and_zsh(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["--generate", "complete-fish"]) == 0
    fish_script = tmp_path / "baselinks.fish"
    fish_script.write_text(capsys.readouterr().out, encoding="utf-8")
    if shutil.which("fish") is not None:  # fish's own completion of a typed line
        script = f"source {fish_script}; complete -C '@LINE@'"
        found = _completed(["fish", "-c"], script, "baselinks extract --fields url,ba")
        assert [word for word in found if word.startswith("url,")] == [
            "url,base",
            "url,base_source",
        ]
    else:  # the line fish would run
        assert "-l fields -r -f -a '(__fish_complete_list , __baselinks_fields)'" in (
            fish_script.read_text(encoding="utf-8")
        )
    extra("shell")
    assert main(["--generate", "complete-zsh"]) == 0
    zsh = capsys.readouterr().out
    assert ":A,B,C:_baselinks_fields" in zsh  # the option's values, from the function:
    assert "_values -s , field url raw base base_source " in zsh  # a list with commas


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_slow_path_is_said_once_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """An install without compiled modules (no C compiler, a py3-none-any wheel) runs the pure
    path, about half as fast: said on a terminal, the first time only (a mark in the cache)."""
    from baselinks import compiled

    page = str(FIXTURES / "html" / "base-late.html")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("BASELINKS_PURE", raising=False)
    monkeypatch.setattr(compiled, "_built", lambda name: False)  # as an install without them
    monkeypatch.setattr("sys.stdout", io.StringIO())
    said = []
    for stderr in (_Terminal(), _Terminal(), io.StringIO()):
        monkeypatch.setattr("sys.stderr", stderr)
        assert main(["extract", page, "--format", "text"]) == 0
        said.append([line for line in stderr.getvalue().splitlines() if "note:" in line])
    assert said[0] == [
        "baselinks: note: the pure-Python path runs, about half as fast (no compiled module was "
        "built at install: no C compiler, or a py3-none-any wheel); a wheel for this platform, "
        "or pip install with a C compiler, gives the compiled one (said once; baselinks "
        "--version tells the path)"
    ]
    assert said[1:] == [[], []]  # the second time; not on a terminal
    # asked for (BASELINKS_PURE), or built: nothing to say
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other"))
    monkeypatch.setenv("BASELINKS_PURE", "1")
    assert compiled.slow_path() is None
    monkeypatch.delenv("BASELINKS_PURE")
    monkeypatch.setattr(compiled, "_built", lambda name: True)
    assert compiled.slow_path() is None
