"""store: the captures, by key, on disk: the one thing a coverage run keeps of an archive.

    captures   one row per capture: its key (keys.target_key), URL, date, status, record type,
               a redirect's Location, media type, payload digest, a revisit's original
    hosts      the host of every key captured (what is in scope: keys.host_key)
    schemes    the scheme of every URL captured (https as http: keys.scheme_family)
    anchors    the ids and <a name>s of each captured HTML page (fragments.anchors_of)

An SQLite database in a temporary file (the standard library's sqlite3), not a dict: a crawl of
millions of records keeps its keys on disk, and memory holds SQLite's page cache
(:data:`CACHE_KIB`; its whole heap under :data:`HEAP_KIB`) and the last :data:`CACHED_KEYS` keys
looked up, whatever the archive's size (benchmarks/bench_coverage.py measures it). Rows are
added while the inputs are scanned, the index on the key built once at the end
(:meth:`CaptureStore.finish`), then only read.
"""

from __future__ import annotations

import functools
import os
import sqlite3
from collections.abc import Iterable
from typing import NamedTuple

from ..load.containers.captures import Capture
from .keys import host_key, scheme_family, target_key

__all__ = ["CACHED_KEYS", "CACHE_KIB", "HEAP_KIB", "CaptureStore", "Stored", "digest_key"]

# SQLite's page cache, in KiB (its default is 2 MiB), and the most SQLite's heap may hold
# (page cache, sorters: PRAGMA soft_heap_limit): the memory the store may take. A 16 MiB cache
# grew a run's peak by 27 MiB from 12,500 records to 100,000 (a sorter beside the cache, each
# filling as the database grew), for no CPU time saved against 4 MiB (25,000 records: 35.6 s
# and 35.8 s): benchmarks/bench_coverage.py.
CACHE_KIB = 4 * 1024
HEAP_KIB = 8 * 1024
# Keys whose captures are kept in memory once looked up (a site's style sheet is asked for by
# every page): an LRU of this many, small enough that memory is flat once it is full (the
# other caches of coverage/ are of this size too).
CACHED_KEYS = 4_096  # keys.py's _CACHED too

_SCHEMA = """
CREATE TABLE captures (
    id INTEGER PRIMARY KEY, key TEXT NOT NULL, url TEXT NOT NULL, date TEXT,
    record TEXT NOT NULL, status INTEGER, location TEXT, mime TEXT, digest TEXT,
    refers_key TEXT, refers_date TEXT, source TEXT NOT NULL, page INTEGER NOT NULL,
    file TEXT, offset INTEGER);
CREATE TABLE hosts (host TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE schemes (scheme TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE anchors (capture INTEGER NOT NULL, name TEXT NOT NULL,
    PRIMARY KEY (capture, name)) WITHOUT ROWID;
"""


class Stored(NamedTuple):
    """A capture as the store holds it. ``page``: it is an HTML page whose anchors are known
    (its ids were read); ``source``: ``archive``, ``mirror`` or ``index``; ``file`` and
    ``offset``: where its record is (a document's links name the same)."""

    id: int
    key: str
    url: str
    date: str | None
    record: str
    status: int | None
    location: str | None
    mime: str | None
    digest: str | None
    refers_key: str | None
    refers_date: str | None
    source: str
    page: bool
    file: str | None = None
    offset: int | None = None


class CaptureStore:
    """The captures of a run, in the SQLite file ``path`` (made; removed by the caller)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.db = sqlite3.connect(os.fspath(path), isolation_level=None)
        for pragma in ("journal_mode = OFF", "synchronous = OFF", "temp_store = FILE"):
            self.db.execute(f"PRAGMA {pragma}")
        self.db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        self.db.execute(f"PRAGMA soft_heap_limit = {HEAP_KIB * 1024}")
        self.db.executescript(_SCHEMA)
        self.db.execute("BEGIN")
        self.count = 0
        self.rows = functools.lru_cache(maxsize=CACHED_KEYS)(self._rows)
        self.has_host = functools.lru_cache(maxsize=CACHED_KEYS)(self._has_host)
        self.has_scheme = functools.lru_cache(maxsize=CACHED_KEYS)(self._has_scheme)

    def add(
        self, capture: Capture, source: str, anchors: Iterable[str] | None = None
    ) -> int | None:
        """Keep ``capture`` (from ``source``), with the anchors of its page when they were
        read; its row's id, or None when its URL has no key (nothing can be matched to it)."""
        key = target_key(capture.url)
        if key is None:
            return None
        refers_key = None if capture.refers_to is None else target_key(capture.refers_to)
        cursor = self.db.execute(
            "INSERT INTO captures (key, url, date, record, status, location, mime, digest,"
            " refers_key, refers_date, source, page, file, offset)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                key,
                capture.url,
                capture.date,
                capture.record,
                capture.status,
                capture.location,
                capture.mime,
                digest_key(capture.digest),
                refers_key,
                capture.refers_date,
                source,
                anchors is not None,
                capture.file,
                capture.offset,
            ),
        )
        row = cursor.lastrowid
        self.db.execute("INSERT OR IGNORE INTO hosts VALUES (?)", (host_key(key),))
        self.db.execute("INSERT OR IGNORE INTO schemes VALUES (?)", (scheme_family(capture.url),))
        if anchors is not None:
            self.db.executemany(
                "INSERT OR IGNORE INTO anchors VALUES (?, ?)", ((row, name) for name in anchors)
            )
        self.count += 1
        return row

    def finish(self) -> None:
        """The rows all added: the key's index built, the rows committed."""
        self.db.execute("CREATE INDEX captures_key ON captures (key)")
        self.db.execute("COMMIT")

    def _rows(self, key: str) -> tuple[Stored, ...]:
        found = self.db.execute(
            "SELECT id, key, url, date, record, status, location, mime, digest, refers_key,"
            " refers_date, source, page, file, offset FROM captures WHERE key = ? ORDER BY id",
            (key,),
        )
        return tuple(Stored._make((*row[:12], bool(row[12]), *row[13:])) for row in found)

    def _has_host(self, host: str) -> bool:
        return self.db.execute("SELECT 1 FROM hosts WHERE host = ?", (host,)).fetchone() is not None

    def _has_scheme(self, scheme: str) -> bool:
        found = self.db.execute("SELECT 1 FROM schemes WHERE scheme = ?", (scheme,))
        return found.fetchone() is not None

    def has_anchor(self, capture: int, name: str) -> bool:
        """Whether the page of the capture ``capture`` holds the anchor ``name``."""
        found = self.db.execute(
            "SELECT 1 FROM anchors WHERE capture = ? AND name = ?", (capture, name)
        )
        return found.fetchone() is not None

    def close(self) -> None:
        self.db.close()


def digest_key(digest: str | None) -> str | None:
    """A payload digest as CDX and WARC headers both write it: ``sha1:B2LT...`` and
    ``B2LT...`` are one (the algorithm dropped, upper case: base32)."""
    if not digest or digest == "-":
        return None
    return digest.rpartition(":")[2].strip().upper() or None
