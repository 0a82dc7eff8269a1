"""The speed tables of docs/guide/speed.md and docs/benchmarks.md, from a bench_peers.py run.

``python benchmarks/bench_peers.py ../shared/corpus --profile --write-docs`` calls
:func:`write_docs`: each table goes between its markers, ``<!-- bench_peers:NAME -->`` and
``<!-- /bench_peers:NAME -->``, and nothing else in either file changes.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMES = "\u00d7"  # the multiplication sign of "x lxml parse"

# What each tool is, as the speed page says it; a tool without a label is not on that page.
LABELS = {
    "lxml-parse": "lxml parse alone (the floor)",
    "selectolax-parse": "selectolax (lexbor) parse alone",
    "html5-parse": "baselinks' HTML5 parser (lexbor) alone, with lines",
    "html5-tree": "baselinks' HTML5 parser, its tree copied into lxml's",
    "baselinks-rfc1808": "**baselinks**, rfc1808 (every source, full records; HTML5 parser)",
    "baselinks-rfc1808-pure": "baselinks, rfc1808, pure Python (`BASELINKS_PURE=1`)",
    "baselinks-rfc1808-lxml": "baselinks, rfc1808, lxml's parser (`--parser lxml`)",
    "baselinks-rfc1808-lxml-pure": "baselinks, rfc1808, lxml's parser, pure Python",
    "baselinks-whatwg": "baselinks, whatwg",
    "baselinks-rfc3986": "baselinks, rfc3986",
    "baselinks-jsonl": "baselinks, rfc1808, written as JSON Lines",
    "lxml-iterlinks": "lxml `iterlinks()` + first `<base>` + `urljoin`",
    "lxml-absolute": "lxml `make_links_absolute()` + `iterlinks()`",
    "scrapy": "Scrapy `LinkExtractor` (every tag and attribute)",
    "selectolax": "selectolax + `urljoin` (`[href]`, `[src]` only)",
    "selectolax-ada": "selectolax + ada-url (`[href]`, `[src]` only)",
}


# The tools that only parse: no links, so no links/s, in their rows.
PARSE_ONLY = ("lxml-parse", "selectolax-parse", "html5-parse", "html5-tree")


def peers_table(rows: list[dict[str, object]]) -> str:
    lines = [
        f"| tool | {TIMES} lxml parse | pages/s | links/s | links found | peak RSS MB |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        label = LABELS.get(str(row["tool"]))
        if label is None or "missing" in row:
            continue
        seconds = float(row["seconds"])  # type: ignore[arg-type]
        links = int(row["links"])  # type: ignore[call-overload]
        pages = int(row["pages"])  # type: ignore[call-overload]
        ratio = float(row["ratio"])  # type: ignore[arg-type]
        counted = "\u2013" if row["tool"] in PARSE_ONLY else f"{links:,}"
        speed = "\u2013" if counted == "\u2013" else f"{links / seconds:,.0f}"
        strong = "**" if row["tool"] == "baselinks-rfc1808" else ""
        lines.append(
            f"| {label} | {strong}{ratio:.2f}{strong} | {pages / seconds:,.0f} | {speed} "
            f"| {counted} | {float(row['peak_rss_mb']):.0f} |"  # type: ignore[arg-type]
        )
    return "\n".join(lines)


def run_line(machine: dict[str, str], rounds: int, rows: list[dict[str, object]]) -> str:
    pages = next((int(row["pages"]) for row in rows if "pages" in row), 0)  # type: ignore[call-overload]
    return (
        f"Last run: {machine['date']}, {pages} pages, {machine['cpu']}, Python "
        f"{machine['python']}, lxml {machine['lxml']}, libxml2 {machine['libxml2']}; the "
        f"median of {rounds} rounds{_load(machine)}."
    )


def _load(machine: dict[str, str]) -> str:
    # a machine shared with other work: its load says how far the times (not the ratios) drift
    return f"; load average {machine['load']} while it ran" if machine.get("load") else ""


def _replace(path: Path, name: str, text: str) -> None:
    """The text between ``<!-- bench_peers:name -->`` and ``<!-- /bench_peers:name -->``."""
    source = path.read_text(encoding="utf-8")
    pattern = re.compile(
        rf"(<!-- bench_peers:{name} -->\n).*?(<!-- /bench_peers:{name} -->)", re.DOTALL
    )
    if pattern.search(source) is None:
        raise SystemExit(f"{path}: no <!-- bench_peers:{name} --> markers")
    path.write_text(pattern.sub(lambda m: m[1] + text + "\n" + m[2], source), encoding="utf-8")


def write_docs(
    machine: dict[str, str], rounds: int, rows: list[dict[str, object]], profile: str | None
) -> None:
    """The speed page's peers table, and docs/benchmarks.md's profile table (``--profile``)."""
    line = run_line(machine, rounds, rows)
    _replace(ROOT / "docs" / "guide" / "speed.md", "peers", f"{line}\n\n{peers_table(rows)}")
    if profile is not None:
        _replace(ROOT / "docs" / "benchmarks.md", "profile", f"{line}\n\n{profile}")
