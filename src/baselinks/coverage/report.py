"""report: the coverage summary as one self-contained HTML page (``--report FILE.html``), or as
JSON (``--report FILE.json``): the same numbers, from :meth:`~.summary.CoverageSummary.as_dict`.

The page fetches nothing: its style and its script are inline, its Content-Security-Policy
(``default-src 'none'``) forbids any other, its icon is a ``data:`` URL (a browser asks a page
with none for ``/favicon.ico``), and the URLs it lists are text, not links. Each table sorts by
the column whose heading is clicked (a small inline script; a number sorts as one). Every number
shown carries its value in a ``data-value`` attribute, for a program to read back
(tests/test_coverage_report.py reads them in Chromium and compares them with the JSON).
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import printable

__all__ = ["html_report", "json_report"]

_POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border-bottom: 1px solid #ddd; padding: .25em .6em; text-align: left;
  vertical-align: top; }
th { background: #f4f4f4; cursor: pointer; user-select: none; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
code { word-break: break-all; }
progress { width: 10em; }
.note { color: #666; }
"""

# Sorting: a click on a heading sorts its table's body by that column, again the other way.
_SCRIPT = """
"use strict";
for (const table of document.querySelectorAll("table.sortable")) {
  const heads = table.tHead.rows[0].cells;
  for (let i = 0; i < heads.length; i++) {
    heads[i].addEventListener("click", () => {
      const body = table.tBodies[0];
      const down = heads[i].dataset.order !== "down";
      for (const h of heads) delete h.dataset.order;
      heads[i].dataset.order = down ? "down" : "up";
      const key = (row) => {
        const cell = row.cells[i];
        const value = cell.dataset.value ?? cell.textContent;
        const number = Number(value);
        return value !== "" && !Number.isNaN(number) ? number : value;
      };
      const rows = Array.from(body.rows);
      rows.sort((a, b) => {
        const x = key(a), y = key(b);
        const order = typeof x === "number" && typeof y === "number"
          ? x - y : String(x).localeCompare(String(y));
        return down ? order : -order;
      });
      body.append(...rows);
    });
  }
}
"""


def _text(value: object) -> str:
    return html.escape(printable(str(value)), quote=True)


def _cell(value: object, numeric: bool = False, code: bool = False) -> str:
    if value is None:
        return "<td></td>"
    if numeric:
        return f'<td class="n" data-value="{_text(value)}">{value:,}</td>'
    inner = f"<code>{_text(value)}</code>" if code else _text(value)
    return f"<td>{inner}</td>"


def _table(name: str, heads: Sequence[tuple[str, bool]], rows: Iterable[str]) -> str:
    head = "".join(f"<th{' class=n' if numeric else ''}>{_text(h)}</th>" for h, numeric in heads)
    body = "".join(rows)
    return (
        f'<table class="sortable" id="{name}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )


def _totals(data: dict[str, Any]) -> str:
    rows = [("links", data["links"])]
    rows += [(f"capture: {name}", n) for name, n in data["captures"].items()]
    rows += [(f"out of scope: {why}", n) for why, n in data["out_of_scope"].items()]
    rows += [
        ("fragments found", data["fragments"]["ok"]),
        ("fragments missing", data["fragments"]["missing"]),
        ("pages", data["pages"]),
        ("complete pages", data["complete_pages"]),
        ("resources the pages load", data["loads"]),
        ("of which replay", data["replayed"]),
        ("missing URLs", data["missing_urls"]),
        ("redirect loops", data["redirect_loop_count"]),
        ("captures", data["captures_kept"]),
    ]
    body = (
        f'<tr id="total-{_text(name.replace(" ", "-").replace(":", ""))}">'
        f"<td>{_text(name)}</td>{_cell(n, numeric=True)}</tr>"
        for name, n in rows
    )
    return _table("totals", (("what", False), ("how many", True)), body)


def _pages(data: dict[str, Any]) -> str:
    rows = []
    for page in data["completeness"]:
        loads, replayed = page["loads"], page["replayed"]
        share = replayed / loads if loads else 1.0
        bar = f'<progress max="{loads}" value="{replayed}"></progress> {share:.0%}'
        if not loads:
            bar = "loads nothing"
        rows.append(
            "<tr>"
            + _cell(page["url"] or page["document"], code=True)
            + _cell(page["date"])
            + _cell(replayed, numeric=True)
            + _cell(loads, numeric=True)
            + f'<td class="n" data-value="{share:.6f}">{bar}</td>'
            + "</tr>"
        )
    heads = (
        ("page", False),
        ("date", False),
        ("replay", True),
        ("loads", True),
        ("complete", True),
    )
    return _table("pages", heads, rows)


_FRAGMENT_HEADS = (("page", False), ("link", False), ("fragment", False), ("line", True))


def html_report(data: dict[str, Any], title: str = "baselinks coverage") -> str:
    """The HTML page of a summary's :meth:`~.summary.CoverageSummary.as_dict`."""
    wanted = (
        f"<tr>{_cell(w['url'], code=True)}{_cell(w['pages'], numeric=True)}</tr>"
        for w in data["most_wanted"]
    )
    fragments = (
        f"<tr>{_cell(f['page_url'], code=True)}{_cell(f['url'], code=True)}"
        f"{_cell(f['fragment'], code=True)}{_cell(f['line'], numeric=True)}</tr>"
        for f in data["broken_fragment_list"]
    )
    loops = (
        f"<tr>{_cell(loop['loop'], code=True)}{_cell(loop['links'], numeric=True)}</tr>"
        for loop in data["redirect_loops"]
    )
    listed = len(data["completeness"])
    more = "" if listed >= data["pages"] else f" (the {listed:,} least complete)"
    # "<" only occurs inside the JSON's strings: escaped there, no "</script" nor "<!--" can
    # end the data block or change how it is tokenized (#script-data-escaped-state)
    embedded = json.dumps(data, ensure_ascii=True).replace("<", "\\u003c")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{_POLICY}">
<link rel="icon" href="data:,">
<title>{_text(title)}</title><style>{_STYLE}</style></head>
<body><h1>{_text(title)}</h1>
<p class="note">Every link of every page, matched to the archive's captures by SURT key;
completeness counts what a page loads (its style sheets' loads too). Click a heading to sort.</p>
<h2>Totals</h2>{_totals(data)}
<h2>Pages by completeness{more}</h2>{_pages(data)}
<h2>Most wanted missing URLs</h2>{_table("wanted", (("URL", False), ("pages", True)), wanted)}
<h2>Broken fragments</h2>{_table("fragments", _FRAGMENT_HEADS, fragments)}
<h2>Redirect loops</h2>{_table("loops", (("loop", False), ("links", True)), loops)}
<script type="application/json" id="coverage-data">{embedded}</script>
<script>{_SCRIPT}</script>
</body></html>
"""


def json_report(data: dict[str, Any]) -> str:
    """The summary as JSON, one object, indented."""
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
