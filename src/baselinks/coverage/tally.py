"""tally: the links' coverage gathered into what matters first, on disk as the store is.

    each document's checked links ──► counts (links by capture, out-of-scope by reason,
        fragments), and in the store's database: the page's own loads (distinct targets,
        how many replay), the style sheets it loads, the URLs it needs that are missing, its
        broken fragments; a style sheet's own loads, imports and missing URLs
    finish ──► completeness per page, a style sheet's loads (and its imports', once each: a
        recursive query) counted as the page's; the missing URLs by how many pages need each

A page is an HTML document; a style sheet is a CSS document (its links' tag is ``css``, or it was
captured as ``text/css``); the others (feeds, sitemaps, a redirect's headers) are counted in the
links, in no page. Memory holds one document's links: every table is SQLite's, read back sorted
(the report's lists are bounded: :data:`LISTED`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from .classify import Checked, loads, loads_sheet, needed
from .keys import split_fragment, target_key
from .summary import CoverageSummary, PageCompleteness, Wanted

__all__ = ["LISTED", "Tally"]

# How many of each list the summary keeps (the least complete pages, the most wanted URLs,
# broken fragments, loops); --seeds writes every missing URL, from the database.
LISTED = 5_000

# The out-of-scope reasons counted apart (a scheme each): past these, one count for the rest
_REASONS = 64

_SCHEMA = """
CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT, date TEXT, document TEXT,
    loads INTEGER NOT NULL, replayed INTEGER NOT NULL);
CREATE TABLE page_sheets (page INTEGER NOT NULL, sheet TEXT NOT NULL);
CREATE TABLE sheets (key TEXT PRIMARY KEY, loads INTEGER NOT NULL, replayed INTEGER NOT NULL);
CREATE TABLE sheet_imports (sheet TEXT NOT NULL, child TEXT NOT NULL);
CREATE TABLE sheet_wanted (sheet TEXT NOT NULL, url TEXT NOT NULL);
CREATE TABLE wanted (page INTEGER NOT NULL, url TEXT NOT NULL, PRIMARY KEY (page, url))
    WITHOUT ROWID;
CREATE TABLE fragments (page_url TEXT, url TEXT NOT NULL, fragment TEXT NOT NULL,
    line INTEGER);
CREATE TABLE loops (cycle TEXT PRIMARY KEY, links INTEGER NOT NULL) WITHOUT ROWID;
"""

# A style sheet's loads, each page's own plus its sheets' (their imports' too, once each)
_COMPLETENESS = """
WITH RECURSIVE reach (page, sheet) AS (
    SELECT page, sheet FROM page_sheets
    UNION
    SELECT reach.page, sheet_imports.child FROM reach
    JOIN sheet_imports ON sheet_imports.sheet = reach.sheet
)
INSERT INTO via_sheets SELECT reach.page, SUM(sheets.loads), SUM(sheets.replayed)
FROM reach JOIN sheets ON sheets.key = reach.sheet GROUP BY reach.page
"""
_WANTED_VIA_SHEETS = """
WITH RECURSIVE reach (page, sheet) AS (
    SELECT page, sheet FROM page_sheets
    UNION
    SELECT reach.page, sheet_imports.child FROM reach
    JOIN sheet_imports ON sheet_imports.sheet = reach.sheet
)
INSERT OR IGNORE INTO wanted SELECT reach.page, sheet_wanted.url
FROM reach JOIN sheet_wanted ON sheet_wanted.sheet = reach.sheet
"""


class Tally:
    """The coverage of a run's documents, gathered in ``db`` (the store's database)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        db.executescript(_SCHEMA)
        db.execute("BEGIN")
        self.summary = CoverageSummary()

    def document(
        self, kind: str, page_url: str | None, name: str, checked: Sequence[Checked]
    ) -> None:
        """One document's checked links: ``kind`` is ``page``, ``sheet`` or ``other``."""
        made = self.summary
        made.documents += 1
        made.links += len(checked)
        for one in checked:
            made.captures[one.covered.coverage.capture] += 1
            if one.out_of_scope is not None:
                reason = one.out_of_scope
                if reason not in made.out_of_scope and len(made.out_of_scope) >= _REASONS:
                    reason = "another scheme: never captured"  # a page of made-up schemes
                made.out_of_scope[reason] += 1
            fragment = one.covered.coverage.fragment
            if fragment:
                made.fragments[fragment] += 1
            if one.loop:
                self._loop(one.loop)
        if kind == "page":
            self._page(page_url, name, checked)
        elif kind == "sheet" and page_url is not None:
            self._sheet(page_url, checked)

    def _loop(self, cycle: tuple[str, ...]) -> None:
        first = cycle.index(min(cycle))  # a loop named from its least URL: said once
        named = " -> ".join((*cycle[first:], *cycle[:first], cycle[first]))
        self.db.execute(
            "INSERT INTO loops VALUES (?, 1) ON CONFLICT (cycle) DO UPDATE SET links = links + 1",
            (named,),
        )

    def _page(self, page_url: str | None, name: str, checked: Sequence[Checked]) -> None:
        own, sheets, wanted = _loaded(checked)
        date = checked[0].covered.link.date if checked else None
        cursor = self.db.execute(
            "INSERT INTO pages (url, date, document, loads, replayed) VALUES (?,?,?,?,?)",
            (page_url, date, name, len(own), sum(own.values())),
        )
        page = cursor.lastrowid
        self.db.executemany("INSERT INTO page_sheets VALUES (?, ?)", ((page, s) for s in sheets))
        self.db.executemany(
            "INSERT OR IGNORE INTO wanted VALUES (?, ?)", ((page, url) for url in wanted)
        )
        for one in checked:
            if one.covered.coverage.fragment == "missing":
                link = one.covered.link
                fragment = split_fragment(link.url)[1] or ""
                self.db.execute(
                    "INSERT INTO fragments VALUES (?, ?, ?, ?)",
                    (page_url, link.url, fragment, link.line),
                )
        self.summary.pages += 1

    def _sheet(self, page_url: str, checked: Sequence[Checked]) -> None:
        key = target_key(split_fragment(page_url)[0])
        if key is None:
            return
        own, imports, wanted = _loaded(checked)
        found = self.db.execute(
            "INSERT OR IGNORE INTO sheets VALUES (?, ?, ?)", (key, len(own), sum(own.values()))
        )
        if not found.rowcount:
            return  # a sheet captured twice: its first capture counts
        self.db.executemany("INSERT INTO sheet_imports VALUES (?, ?)", ((key, c) for c in imports))
        self.db.executemany("INSERT INTO sheet_wanted VALUES (?, ?)", ((key, u) for u in wanted))
        self.summary.sheets += 1

    def finish(self, listed: int = LISTED) -> CoverageSummary:
        """Completeness and the most wanted URLs computed; the summary, with the first
        ``listed`` of each list."""
        db, made = self.db, self.summary
        db.execute("CREATE TEMP TABLE via_sheets (page INTEGER PRIMARY KEY, loads, replayed)")
        db.execute(_COMPLETENESS)
        db.execute(_WANTED_VIA_SHEETS)
        db.execute("CREATE INDEX wanted_url ON wanted (url)")
        db.execute(
            "CREATE TEMP VIEW completeness AS SELECT pages.id, url, date, document,"
            " pages.loads + COALESCE(via_sheets.loads, 0) AS loads,"
            " pages.replayed + COALESCE(via_sheets.replayed, 0) AS replayed"
            " FROM pages LEFT JOIN via_sheets ON via_sheets.page = pages.id"
        )
        loads, replayed, complete = db.execute(
            "SELECT COALESCE(SUM(loads), 0), COALESCE(SUM(replayed), 0),"
            " COALESCE(SUM(replayed = loads), 0) FROM completeness"
        ).fetchone()
        made.loads, made.replayed, made.complete_pages = loads, replayed, complete
        made.least_complete = [
            PageCompleteness(*row)
            for row in db.execute(
                "SELECT url, date, document, loads, replayed FROM completeness"
                " ORDER BY (loads = 0), CAST(replayed AS REAL) / MAX(loads, 1), loads DESC, id"
                " LIMIT ?",
                (listed,),
            )
        ]
        made.missing_urls = db.execute("SELECT COUNT(DISTINCT url) FROM wanted").fetchone()[0]
        made.most_wanted = [Wanted(*row) for row in self.wanted(listed)]
        made.broken_fragments = db.execute("SELECT COUNT(*) FROM fragments").fetchone()[0]
        made.fragment_list = list(
            db.execute("SELECT page_url, url, fragment, line FROM fragments ORDER BY rowid LIMIT ?",
                       (listed,))
        )  # fmt: skip
        made.loops = list(
            db.execute("SELECT cycle, links FROM loops ORDER BY cycle LIMIT ?", (listed,))
        )
        made.loop_count = db.execute("SELECT COUNT(*) FROM loops").fetchone()[0]
        db.execute("COMMIT")
        return made

    def wanted(self, limit: int = -1) -> sqlite3.Cursor:
        """The missing URLs, the most needed first: (url, how many pages need it)."""
        return self.db.execute(
            "SELECT url, COUNT(*) AS pages FROM wanted GROUP BY url ORDER BY pages DESC, url"
            " LIMIT ?",
            (limit,),
        )


def _loaded(checked: Sequence[Checked]) -> tuple[dict[str, bool], set[str], set[str]]:
    """A document's loads (each target's key once: whether it replays), the style sheets
    it loads (keys), and the missing URLs it needs (of WANTED_KINDS)."""
    own: dict[str, bool] = {}
    sheets: set[str] = set()
    wanted: set[str] = set()
    for one in checked:
        link = one.covered.link
        if one.wanted is not None and needed(link):
            wanted.add(one.wanted)
        if one.out_of_scope is not None or not loads(link):
            continue
        key = target_key(split_fragment(link.url)[0])
        if key is None:
            continue
        own[key] = own.get(key, False) or one.replays
        if loads_sheet(link):
            sheets.add(key)
    return own, sheets, wanted
