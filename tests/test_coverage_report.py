"""The HTML report: one self-contained page (nothing fetched), its numbers the JSON report's
and the records', opened in headless Chromium without a console message, its tables sorted
by a click on a heading."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from lxml import html as lxml_html

from baselinks.cli import main
from conftest import FIXTURES, chromium, chromium_dom

SITE = FIXTURES / "coverage" / "site.warc.gz"
INDEX = FIXTURES / "coverage" / "site.cdxj"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("report")
    page, data, records = folder / "report.html", folder / "report.json", folder / "links.jsonl"
    for report in (page, data):
        args = [str(SITE), "--index", str(INDEX), "--report", str(report), "-o", str(records)]
        assert main(["coverage", *args, "-q"]) == 0
    lines = records.read_text(encoding="utf-8").splitlines()
    return {
        "page": page,
        "data": json.loads(data.read_text(encoding="utf-8")),
        "records": [json.loads(line) for line in lines],
    }


def _numbers(document: Any) -> dict[str, Any]:
    """What the page shows: each total, each page's (replay, loads), each wanted URL's pages."""
    totals = {
        row.get("id"): int(row.xpath("./td[2]/@data-value")[0])
        for row in document.xpath('//table[@id="totals"]/tbody/tr')
    }
    pages = {
        row.xpath("string(./td[1])"): (
            int(row.xpath("./td[3]/@data-value")[0]),
            int(row.xpath("./td[4]/@data-value")[0]),
        )
        for row in document.xpath('//table[@id="pages"]/tbody/tr')
    }
    wanted = {
        row.xpath("string(./td[1])"): int(row.xpath("./td[2]/@data-value")[0])
        for row in document.xpath('//table[@id="wanted"]/tbody/tr')
    }
    fragments = len(document.xpath('//table[@id="fragments"]/tbody/tr'))
    return {"totals": totals, "pages": pages, "wanted": wanted, "fragments": fragments}


def _expected(data: dict[str, Any], records: list[dict[str, Any]]) -> dict[str, Any]:
    """The same numbers from the JSON report, the totals counted again from the records."""
    by_capture = {name: sum(r["capture"] == name for r in records) for name in data["captures"]}
    assert by_capture == data["captures"]  # the JSON's counts are the records'
    fragments = [r["fragment"] for r in records if r["fragment"]]
    assert data["fragments"] == {f: fragments.count(f) for f in ("ok", "missing")}
    totals = {
        "total-links": len(records),
        **{f"total-capture-{name}": n for name, n in by_capture.items()},
        **{
            f"total-out-of-scope-{why.replace(':', '').replace(' ', '-')}": n
            for why, n in data["out_of_scope"].items()
        },
        "total-fragments-found": fragments.count("ok"),
        "total-fragments-missing": fragments.count("missing"),
        "total-pages": data["pages"],
        "total-complete-pages": data["complete_pages"],
        "total-resources-the-pages-load": data["loads"],
        "total-of-which-replay": data["replayed"],
        "total-missing-URLs": data["missing_urls"],
        "total-redirect-loops": data["redirect_loop_count"],
        "total-captures": data["captures_kept"],
    }
    pages = {p["url"]: (p["replayed"], p["loads"]) for p in data["completeness"]}
    wanted = {w["url"]: w["pages"] for w in data["most_wanted"]}
    assert data["broken_fragments"] == fragments.count("missing")  # every one listed
    return {
        "totals": totals,
        "pages": pages,
        "wanted": wanted,
        "fragments": len(data["broken_fragment_list"]),
    }


def test_the_page_fetches_nothing(made: dict[str, Any]) -> None:
    text = made["page"].read_text(encoding="utf-8")
    document = lxml_html.fromstring(text)
    policy = document.xpath('//meta[@http-equiv="Content-Security-Policy"]/@content')
    assert policy and policy[0].startswith("default-src 'none';")
    assert document.xpath("//script/@src | //img/@src | //iframe | //object | //embed") == []
    assert document.xpath("//link/@href") == ["data:,"]  # the icon: no /favicon.ico asked for
    assert document.xpath("//a") == []  # URLs are text: nothing followed by accident
    assert "url(" not in text and "@import" not in text


def test_the_page_shows_the_json_numbers(made: dict[str, Any]) -> None:
    document = lxml_html.fromstring(made["page"].read_text(encoding="utf-8"))
    assert _numbers(document) == _expected(made["data"], made["records"])
    embedded = document.xpath('//script[@id="coverage-data"]/text()')[0]
    assert json.loads(embedded) == made["data"]


def test_chromium_opens_it_without_a_console_message(made: dict[str, Any]) -> None:
    dom, console = chromium_dom(chromium(), made["page"].as_uri())
    assert console == []
    assert _numbers(lxml_html.fromstring(dom)) == _expected(made["data"], made["records"])


# Clicks a heading of the pages table twice (ascending, then descending), and records the
# order of the column each time.
_CLICKS = """<script>
const table = document.getElementById("pages");
const order = (i) => Array.from(table.tBodies[0].rows, (r) => r.cells[i].dataset.value);
const out = {};
for (const [i, name] of [[3, "loads"], [4, "complete"]]) {
  table.tHead.rows[0].cells[i].click();
  out[name + "-down"] = order(i);
  table.tHead.rows[0].cells[i].click();
  out[name + "-up"] = order(i);
}
document.body.setAttribute("data-sorted", JSON.stringify(out));
</script>"""


def test_chromium_sorts_a_table_by_a_click(made: dict[str, Any], tmp_path: Path) -> None:
    browser = chromium()
    copy = tmp_path / "clicked.html"
    copy.write_text(
        made["page"].read_text(encoding="utf-8").replace("</body>", _CLICKS + "</body>")
    )
    dom, console = chromium_dom(browser, copy.as_uri())
    assert console == []
    found = re.search(r'data-sorted="([^"]*)"', dom)
    assert found is not None
    sorted_by = json.loads(html.unescape(found.group(1)))
    for name in ("loads", "complete"):
        down = [float(v) for v in sorted_by[f"{name}-down"]]
        assert down == sorted(down) and len(set(down)) > 1, name
        assert [float(v) for v in sorted_by[f"{name}-up"]] == sorted(down, reverse=True)


def test_a_hostile_url_stays_text(made: dict[str, Any]) -> None:
    from baselinks.coverage.report import html_report

    data = json.loads(json.dumps(made["data"]))
    hostile = 'http://e.com/</script><!--<script>alert(1)</script>"\x1b[31m\u202e'
    data["most_wanted"] = [{"url": hostile, "pages": 3}]
    document = lxml_html.fromstring(html_report(data))
    assert len(document.xpath("//script")) == 2  # the data block and the sorting script
    assert json.loads(document.xpath('//script[@id="coverage-data"]/text()')[0]) == data
    shown = document.xpath('string(//table[@id="wanted"]/tbody/tr/td[1])')
    assert "\x1b" not in shown and "\u202e" not in shown and "</script>" in shown
