"""baselinks coverage on the fixtures of fixtures/coverage (make_coverage.py says how each was
made): every link of the crawl, the mirrors and the index as it must come out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from baselinks.cli import main
from baselinks.coverage import check_coverage
from baselinks.errors import InputError
from conftest import FIXTURES, extra

HERE = FIXTURES / "coverage"
SITE = HERE / "site.warc.gz"
INDEX = HERE / "site.cdxj"
HOME = "http://site.example/"
ABOUT = "http://site.example/about.html"

# The links of http://site.example/ by what they are written as: capture, status, final_url,
# fragment, record_type
EXPECTED: dict[str, tuple[str, int | None, str | None, str, str | None]] = {
    "/css/site.css": ("captured", 200, "http://site.example/css/site.css", "", "response"),
    "favicon.ico": ("missing", None, None, "", None),
    "/fonts/pre.woff2": ("missing", None, None, "", None),
    "//site.example/js/app.js": ("captured", 200, "http://site.example/js/app.js", "", "response"),
    # every form of a link to a captured page: captured
    "about.html": ("captured", 200, ABOUT, "", "response"),
    "./docs/../about.html": ("captured", 200, ABOUT, "", "response"),
    "HTTP://SITE.EXAMPLE:80/about.html": ("captured", 200, ABOUT, "", "response"),
    "http://www.site.example/about.html": ("captured", 200, ABOUT, "", "response"),
    "https://site.example/about.html": ("captured", 200, ABOUT, "", "response"),
    "about.html#": ("captured", 200, ABOUT, "ok", "response"),
    "http://site.example/www-only.html": (
        "captured", 200, "http://www.site.example/www-only.html", "", "response"
    ),
    # fragments
    "about.html#team": ("captured", 200, ABOUT, "ok", "response"),
    "about.html#history": ("captured", 200, ABOUT, "ok", "response"),
    "about.html#Team": ("captured", 200, ABOUT, "missing", "response"),
    "about.html#gone": ("captured", 200, ABOUT, "missing", "response"),
    "about.html#caf%C3%A9": ("captured", 200, ABOUT, "ok", "response"),
    "about.html#top": ("captured", 200, ABOUT, "ok", "response"),
    "about.html#tpl": ("captured", 200, ABOUT, "missing", "response"),
    "about.html#ns": ("captured", 200, ABOUT, "missing", "response"),
    "about.html#divname": ("captured", 200, ABOUT, "missing", "response"),
    "about.html#:~:text=About": ("captured", 200, ABOUT, "ok", "response"),
    "#main": ("captured", 200, HOME, "ok", "response"),
    "#nowhere": ("captured", 200, HOME, "missing", "response"),
    # redirects: followed to where they end
    "old": ("redirected", 200, "http://site.example/new", "", "response"),
    "chain1": ("redirected", 200, "https://site.example/final", "", "response"),
    "loop-a": ("redirected", 301, "http://site.example/loop-a", "", "response"),
    "loop-b": ("redirected", 301, "http://site.example/loop-b", "", "response"),
    "secure": ("redirected", None, "https://site.example/secure", "", None),
    # errors, a retry, revisits
    "broken": ("error", 404, "http://site.example/broken", "", "response"),
    "flaky": ("captured", 200, "http://site.example/flaky", "", "response"),
    "missing.html": ("missing", None, None, "", None),
    "revisited.html": ("captured", 200, "http://site.example/revisited.html", "", "response"),
    "orphan.html": ("missing", 200, "http://site.example/orphan.html", "", "revisit"),
    # the index's captures (only with --index)
    "indexed.html": ("captured", 200, "http://site.example/indexed.html", "", "response"),
    "indexed-redirect": ("redirected", 302, None, "", "response"),
    # scope
    "mailto:info@site.example": ("out-of-scope", None, None, "", None),
    "http://other.example/": ("out-of-scope", None, None, "", None),
    "http://cdn.example/page.html": ("missing", None, None, "", None),
    "img/logo.png": ("captured", 200, "http://site.example/img/logo.png", "", "response"),
    "img/missing.png": ("missing", None, None, "", None),
    "http://cdn.example/lib/pic.png": (
        "captured", 200, "http://cdn.example/lib/pic.png", "", "response"
    ),
    "http://cdn.example/lib/gone.png": ("missing", None, None, "", None),
    "data:image/gif;base64,R0lGODlhAQABAAAAACw=": ("out-of-scope", None, None, "", None),
    "frame.html": ("captured", 200, "http://site.example/frame.html", "", "response"),
    "tpl.png": ("missing", None, None, "", None),
}  # fmt: skip


def _by_raw(covered: list[Any], page: str) -> dict[str, tuple[Any, ...]]:
    found = {}
    for one in covered:
        if one.link.page_url == page:
            c = one.coverage
            found[one.link.raw] = (c.capture, c.status, c.final_url, c.fragment, c.record_type)
    return found


@pytest.fixture(scope="module")
def site() -> tuple[list[Any], Any]:
    return check_coverage([SITE], index=[INDEX])


def test_every_link_of_the_crawl(site: tuple[list[Any], Any]) -> None:
    covered, _ = site
    assert _by_raw(covered, HOME) == EXPECTED


def test_without_the_index_its_captures_are_missing() -> None:
    covered, _ = check_coverage([SITE])
    found = _by_raw(covered, HOME)
    assert found["indexed.html"][0] == found["indexed-redirect"][0] == "missing"
    assert {raw: v for raw, v in found.items() if not raw.startswith("indexed")} == {
        raw: v for raw, v in EXPECTED.items() if not raw.startswith("indexed")
    }


def test_the_summary(site: tuple[list[Any], Any]) -> None:
    covered, made = site
    data = made.as_dict()
    counts: dict[str, int] = {}
    for one in covered:
        counts[one.coverage.capture] = counts.get(one.coverage.capture, 0) + 1
    assert {k: v for k, v in data["captures"].items() if v} == counts
    assert data["links"] == len(covered)
    assert data["out_of_scope"] == {
        "data: never captured": 1,
        "host never captured": 1,
        "mailto: never captured": 1,
    }
    fragments = [one.coverage.fragment for one in covered if one.coverage.fragment]
    assert data["fragments"] == {"ok": fragments.count("ok"), "missing": fragments.count("missing")}
    assert data["broken_fragments"] == fragments.count("missing") == 6
    # the loop, once, however many links lead into it (both links of the page, and the
    # Location of each of its two records)
    assert data["redirect_loops"] == [
        {
            "loop": "http://site.example/loop-a -> http://site.example/loop-b -> "
            "http://site.example/loop-a",
            "links": 4,
        }
    ]


def test_completeness_counts_what_pages_load_with_their_style_sheets(
    site: tuple[list[Any], Any],
) -> None:
    _, made = site
    pages = {page.url: (page.replayed, page.loads) for page in made.least_complete}
    # the home page loads site.css, favicon.ico, app.js, logo.png, missing.png, pic.png,
    # gone.png, frame.html (not the preload, the data: image, the template's image); site.css
    # loads print.css, a.woff2, bg.png; print.css site.css again and b.woff2
    assert pages[HOME] == (5 + 2 + 1, 8 + 3 + 2)
    assert pages[ABOUT] == (1 + 2 + 1, 1 + 3 + 2)  # site.css and what it loads
    assert made.least_complete[0].url == HOME  # the least complete first
    assert pages["http://site.example/new"] == (0, 0)  # a page that loads nothing
    assert made.pages == len(pages) == 8  # not the 404's nor the 503's page
    assert made.complete_pages == sum(r == n for r, n in pages.values())


def test_most_wanted_counts_pages_through_their_style_sheets(site: tuple[list[Any], Any]) -> None:
    _, made = site
    wanted = {w.url: w.pages for w in made.most_wanted}
    assert wanted["http://site.example/fonts/b.woff2"] == 2  # via site.css -> print.css
    assert wanted["http://site.example/img/bg.png"] == 2
    assert wanted["https://site.example/secure"] == 1  # where a redirect ends, not captured
    assert wanted["http://site.example/orphan.html"] == 1
    assert "http://site.example/tpl.png" not in wanted  # in a template: never fetched
    assert "http://other.example/" not in wanted  # out of scope
    assert made.most_wanted[0].pages == 2


MIRROR_EXPECTED = {
    "css/site.css": ("captured", None, "http://site.example/css/site.css", "", "file"),
    "about.html": ("captured", None, ABOUT, "", "file"),
    "about.html#team": ("captured", None, ABOUT, "ok", "file"),
    "about.html#gone": ("captured", None, ABOUT, "missing", "file"),
    "docs/index.html": ("captured", None, "http://site.example/docs/index.html", "", "file"),
    "docs/": ("captured", None, "http://site.example/docs/", "", "file"),
    "http://site.example/absent.html": ("missing", None, None, "", None),
    "http://site.example/": ("captured", None, HOME, "", "file"),
    "img/logo.png": ("captured", None, "http://site.example/img/logo.png", "", "file"),
    "img/none.png": ("missing", None, None, "", None),
}


@pytest.mark.parametrize(
    ("folder", "query_page"),
    [
        ("mirror", ("page.php%3Fid=1.html", "http://site.example/page.php?id=1.html")),
        ("httrack", ("page4b2a.html", "http://site.example/page4b2a.html")),
    ],
)
def test_a_mirrored_site(folder: str, query_page: tuple[str, str]) -> None:
    covered, made = check_coverage([HERE / folder], root_url=HOME)
    raw, url = query_page
    expected = {**MIRROR_EXPECTED, raw: ("captured", None, url, "", "file")}
    assert _by_raw(covered, HOME) == expected
    assert {one.link.page_url for one in covered} == {
        HOME,
        ABOUT,
        "http://site.example/css/site.css",
        "http://site.example/docs/",
        url,
    }  # HTTrack's project index.html and log are no page of the site
    assert made.unplaced == (2 if folder == "httrack" else 0)


def test_a_mirror_beside_other_hosts_folders(tmp_path: Path) -> None:
    site = tmp_path / "site.example"
    (tmp_path / "cdn.example" / "lib").mkdir(parents=True)
    site.mkdir()
    (tmp_path / "cdn.example" / "lib" / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (site / "index.html").write_text(
        '<img src="http://cdn.example/lib/a.png"><img src="http://cdn.example/lib/b.png">'
    )
    covered, _ = check_coverage([tmp_path], root_url="https://site.example/")
    assert [(one.link.url, one.coverage.capture) for one in covered] == [
        ("http://cdn.example/lib/a.png", "captured"),
        ("http://cdn.example/lib/b.png", "missing"),
    ]


def test_a_damaged_index_line_is_an_error_and_the_others_count(tmp_path: Path) -> None:
    index = tmp_path / "bad.cdxj"
    index.write_text(INDEX.read_text() + "not a line\n", encoding="utf-8")
    errors: list[InputError] = []
    covered, _ = check_coverage([SITE], index=[index], on_error=errors.append)
    assert [str(e) for e in errors] == [f"{index}: line 3: not a CDXJ or CDX line: 'not a line'"]
    assert _by_raw(covered, HOME)["indexed.html"][0] == "captured"


def test_a_classic_cdx_index(tmp_path: Path) -> None:
    index = tmp_path / "site.cdx"
    index.write_text(
        " CDX N b a m s k r M S V g\n"
        "com,site)/indexed-redirect 20251201000000 http://site.example/indexed-redirect "
        "text/html 302 AAAA http://site.example/indexed.html - 300 0 older.warc.gz\n"
        "com,site)/indexed.html 20251201000000 http://site.example/indexed.html text/html "
        "200 BBBB - - 900 300 older.warc.gz\n"
    )
    covered, _ = check_coverage([SITE], index=[index])
    found = _by_raw(covered, HOME)
    # a CDX line's redirect field is its Location: followed
    assert found["indexed-redirect"] == (
        "redirected",
        200,
        "http://site.example/indexed.html",
        "",
        "response",
    )


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["coverage", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seeds, report = tmp_path / "seeds.txt", tmp_path / "report.json"
    status, out, err = _cli(
        [str(SITE), "--index", str(INDEX), "--seeds", str(seeds), "--report", str(report)], capsys
    )
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert {r["raw"]: r["capture"] for r in records if r["page_url"] == HOME} == {
        raw: value[0] for raw, value in EXPECTED.items()
    }
    data = json.loads(report.read_text())
    assert data["links"] == len(records)
    assert seeds.read_text().splitlines() == [w["url"] for w in data["most_wanted"]]
    captured = sum(r["capture"] == "captured" for r in records)
    assert err.splitlines()[1].startswith(
        f"baselinks: coverage: {len(records)} links ({captured} captured, "
    )


def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli(["-"], capsys)[0] == 2
    status, _, err = _cli([str(SITE), "--report", str(tmp_path / "r.txt")], capsys)
    assert status == 2 and "--report" in err
    assert not (tmp_path / "r.txt").exists()


def test_a_damaged_archive_is_said_and_the_rest_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cut = tmp_path / "cut.warc.gz"
    data = SITE.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    status, out, err = _cli([str(cut), str(SITE), "-q"], capsys)
    assert status == 1
    assert sum(f"{cut}" in line for line in err.splitlines()) == 1
    whole = len(check_coverage([SITE])[0])
    assert sum(json.loads(line)["file"] == str(SITE) for line in out.splitlines()) == whole


def test_every_format_holds_the_same_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import csv

    pq = extra("parquet")

    fields = "url,raw,page_url,problems,line,page_date,capture,status,final_url,date,fragment"
    found = {}
    for form in ("jsonl", "csv", "tsv", "parquet"):
        out = tmp_path / f"records.{form}"
        argv = [str(SITE), "--format", form, "--fields", fields, "-o", str(out), "-q"]
        assert main(["coverage", *argv]) == 0
        if form == "jsonl":
            rows = [json.loads(line) for line in out.read_text().splitlines()]
        elif form == "parquet":
            rows = pq.read_table(out).to_pylist()
        else:
            with out.open(newline="") as opened:
                rows = list(csv.DictReader(opened, delimiter="\t" if form == "tsv" else ","))
        found[form] = [_as_text(row) for row in rows]
    assert found["jsonl"] == found["csv"] == found["tsv"] == found["parquet"]
    assert len(found["jsonl"]) == 68 and list(found["jsonl"][0]) == fields.split(",")


def _as_text(row: dict[str, Any]) -> dict[str, str]:
    """A record's values as CSV writes them: null empty, a list space-separated, a timestamp
    in the WARC-Date form."""
    texts = {}
    for name, value in row.items():
        if value is None:
            texts[name] = ""
        elif isinstance(value, list):
            texts[name] = " ".join(value)
        elif hasattr(value, "strftime"):
            texts[name] = value.strftime("%Y-%m-%dT%H:%M:%SZ")
        else:
            texts[name] = str(value)
    return texts


def test_a_wacz_is_its_warc() -> None:
    containers = FIXTURES / "containers"
    plain, _ = check_coverage([containers / "crawl.warc.gz"])
    packed, _ = check_coverage([containers / "crawl.wacz"])
    assert [one.coverage for one in packed] == [one.coverage for one in plain]
    assert len(plain) == 10  # its Content-Location header a link too


def test_an_arc_file() -> None:
    covered, made = check_coverage([FIXTURES / "containers" / "example.arc"])
    assert made.captures_kept == 1 and made.pages == 1
    assert [(one.link.url, one.coverage.capture) for one in covered] == [
        ("http://www.iana.org/domains/example", "out-of-scope")  # nothing of iana.org captured
    ]
