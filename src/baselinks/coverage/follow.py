"""follow: a target URL → the capture a replay tool would serve for it, through redirects.

    target ──key──► its captures (store.py) ──the best one (ranked)──► a redirect? its Location,
        again, to where the chain ends: a capture that is no redirect, a URL not captured, or a
        loop (a capture met twice), each hop counted (no more than MAX_REDIRECTS)

Which capture of a key is taken, in order (pywb's choices, made explicit):

1. one that replays: a 2xx (or no status: a resource record, a mirrored file) over a redirect,
   a redirect over a *self-redirect* (a 3xx whose Location has the capture's own key:
   ``http://e.com/`` to ``https://e.com/``; pywb's ``raise_on_self_redirect`` skips it for
   another capture of the key), that over a 4xx or 5xx, that over a revisit whose original is
   not in the archive (pywb cannot replay it: "Original for revisit could not be loaded");
2. one whose URL is the one asked for (the key matches ``https:`` and ``http:``, ``www.`` and
   not: the exact one first);
3. the nearest in time to the linking page's own capture (pywb's ``closest``); without dates,
   the latest;
4. a capture read from the inputs over an index line for the same (it knows its Location and
   its page's anchors, where a CDXJ line has neither);
5. the first by its file's name, then its offset in it (the same choice on one machine and on
   Spark, where captures come in no order).

A revisit record is a capture of its original's payload: the original is the capture at its
``WARC-Refers-To-Target-URI`` (else its own URL) with the same payload digest (else the nearest
to ``WARC-Refers-To-Date``), not itself a revisit, as pywb's ``ResolvingLoader`` finds it; the
status is the revisit's own (its HTTP head), the original's where it has none (a 304). A revisit
of a redirect needs no original: its own head holds the Location. The empty payload's digest
needs none either.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import NamedTuple

from ..errors import URLError
from ..url.resolve import resolve
from ..write.schema import utc_timestamp
from .keys import split_fragment, target_key
from .store import CACHED_KEYS, Stored

__all__ = ["CAPTURES", "EMPTY_DIGEST", "MAX_REDIRECTS", "Follower", "Outcome"]

# The values of the `capture` field a capture can give (and out-of-scope, classify.py's)
CAPTURES = ("captured", "redirected", "error", "missing")

# https://fetch.spec.whatwg.org/#http-redirect-fetch: "If request's redirect count is 20,
# then return a network error." Chromium's net::URLRequest stops at the same count.
MAX_REDIRECTS = 20

# The SHA-1 of no bytes, base32 (a revisit of an empty payload: nothing to find)
EMPTY_DIGEST = "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"

# The ranks of rule 1 above
_REPLAYS, _REDIRECT, _SELF_REDIRECT, _ERROR, _ORPHAN = range(5)
_SOURCES = {"archive": 0, "mirror": 0, "index": 1}


class Outcome(NamedTuple):
    """Where a target ends in the archive: ``capture`` (one of :data:`CAPTURES`), and the
    capture it ends at: its HTTP ``status``, URL (``final_url``), ``date`` and record type; the
    id of the capture whose page's anchors a fragment is looked for in (None: not an HTML page
    read); ``end``: the URL not captured where the chain ended (a URL to crawl); ``loop``: the
    URLs of the redirect loop met, each once, from the one first met (empty: none)."""

    capture: str
    status: int | None = None
    final_url: str | None = None
    date: str | None = None
    record_type: str | None = None
    page: int | None = None
    end: str | None = None
    loop: tuple[str, ...] = ()


class _Served(NamedTuple):
    """What replaying one capture gives: its rank (rule 1), status, absolute Location (a
    redirect's), and the capture whose page it serves (a revisit: its original's)."""

    rank: int
    status: int | None
    location: str | None
    page: int | None


@functools.lru_cache(maxsize=CACHED_KEYS)
def exact(url: str) -> str:
    """``url`` as the URL Standard serialises it, without its fragment: what rule 2 compares
    (``HTTP://E.com:80`` is ``http://e.com/``); as it is where it does not parse."""
    try:
        return resolve(url, "", mode="whatwg")
    except URLError:
        return split_fragment(url)[0]


@functools.lru_cache(maxsize=CACHED_KEYS)
def moment(date: str | None) -> float | None:
    """A WARC-Date (ISO 8601, write/schema.py's reading) or a CDX timestamp (14 digits, or a
    prefix of them) as seconds since 1970, UTC; None when it is neither."""
    if not date:
        return None
    if not date.isdigit():
        instant = utc_timestamp(date)
        return None if instant is None else instant.timestamp()
    digits = date[:14].ljust(14, "0")
    try:
        return datetime(
            int(digits[:4]),
            int(digits[4:6]) or 1,
            int(digits[6:8]) or 1,
            int(digits[8:10]),
            int(digits[10:12]),
            int(digits[12:14]),
            tzinfo=UTC,
        ).timestamp()
    except ValueError:
        return None


def _location(row: Stored) -> str | None:
    if row.location is None:
        return None
    try:
        return resolve(row.url, row.location.strip(), mode="whatwg")  # RFC 9110 §10.2.2
    except URLError:
        return row.location.strip() or None


class Follower:
    """Targets followed through captures: ``rows`` gives the captures of a key (the store's,
    or on Spark those gathered so far: spark/coverage.py)."""

    def __init__(self, rows: Callable[[str], Sequence[Stored]]) -> None:
        self.rows = rows
        # set when a choice was made among captures (the linking page's date may decide it):
        # an outcome made without one is the same from every page (classify.py caches it)
        self.ranked = False
        self.served = functools.lru_cache(maxsize=CACHED_KEYS)(self._served)

    def _served(self, row: Stored) -> _Served:
        status = row.status
        redirect = status is not None and 300 <= status < 400 and status != 304
        if row.record == "revisit" and not redirect and row.digest != EMPTY_DIGEST:
            original = self._original(row)
            if original is None:
                return _Served(_ORPHAN, status, None, None)
            if status is None or status == 304:
                status = original.status
            return _Served(_rank(status), status, None, original.id if original.page else None)
        if redirect and row.location is not None:
            location = _location(row)
            own = location is not None and target_key(location) == row.key
            return _Served(_SELF_REDIRECT if own else _REDIRECT, status, location, None)
        if redirect and row.source == "index":  # a CDXJ line keeps no Location
            return _Served(_REDIRECT, status, None, None)
        return _Served(_rank(status), status, None, row.id if row.page else None)

    def _original(self, revisit: Stored) -> Stored | None:
        pool = [
            row for row in self.rows(revisit.refers_key or revisit.key) if row.record != "revisit"
        ]
        if revisit.digest is not None:
            pool = [row for row in pool if row.digest == revisit.digest]
        if not pool:
            return None
        self.ranked = self.ranked or len(pool) > 1
        when = moment(revisit.refers_date) or moment(revisit.date)
        return min(pool, key=lambda row: _distance(row, when))

    def best(
        self, url: str, when: float | None, skip: frozenset[int] = frozenset()
    ) -> Stored | None:
        """The capture of ``url``'s key a replay tool would serve (the rules above), but those
        in ``skip``; None when there is none."""
        key = target_key(url)
        rows = () if key is None else self.rows(key)
        found = [row for row in rows if row.id not in skip]
        if len(found) <= 1:  # most keys have one capture: nothing to rank
            return found[0] if found else None
        self.ranked = True
        wanted = exact(url)
        return min(
            found,
            key=lambda row: (
                self.served(row).rank,
                exact(row.url) != wanted,
                _distance(row, when),
                _SOURCES.get(row.source, 1),
                row.file or "",
                -1 if row.offset is None else row.offset,
                row.url,
            ),
        )

    def follow(self, url: str, date: str | None = None) -> Outcome:
        """Where ``url`` (its fragment aside) ends, asked from a page captured at ``date``."""
        when = moment(date)
        current = split_fragment(url)[0]
        visited: list[Stored] = []
        while True:
            row = self.best(current, when, frozenset(one.id for one in visited))
            if row is None:
                return _not_found(current, visited)
            served = self.served(row)
            if served.rank not in (_REDIRECT, _SELF_REDIRECT):
                return _ended(row, served, bool(visited))
            visited.append(row)
            if served.location is None:  # an index line: a redirect it cannot follow
                return Outcome("redirected", row.status, None, row.date, row.record)
            if len(visited) > MAX_REDIRECTS:
                return _looped(visited, visited[0].url)
            current = split_fragment(served.location)[0]


def _rank(status: int | None) -> int:
    return _ERROR if status is not None and status >= 400 else _REPLAYS


def _distance(row: Stored, when: float | None) -> float:
    """How far the capture is from ``when`` (from now back, the latest first, without one)."""
    at = moment(row.date)
    if at is None:
        return float("inf")
    return abs(at - when) if when is not None else -at


def _ended(row: Stored, served: _Served, redirected: bool) -> Outcome:
    if served.rank == _ORPHAN:  # a revisit whose original is not there: nothing replays
        if redirected:
            return Outcome("redirected", None, row.url, row.date, row.record, end=row.url)
        return Outcome("missing", row.status, row.url, row.date, row.record, end=row.url)
    capture = "redirected" if redirected else ("error" if served.rank == _ERROR else "captured")
    return Outcome(capture, served.status, row.url, row.date, row.record, served.page)


def _not_found(current: str, visited: list[Stored]) -> Outcome:
    if not visited:
        return Outcome("missing", end=current)
    if any(exact(row.url) == exact(current) for row in visited):
        return _looped(visited, current)
    return Outcome("redirected", None, current, end=current)


def _looped(visited: list[Stored], back_to: str) -> Outcome:
    """The loop a chain closed by coming ``back_to`` a URL met (or that ran past
    MAX_REDIRECTS): its URLs from that one, each once."""
    urls = [row.url for row in visited]
    starts = [i for i, url in enumerate(urls) if exact(url) == exact(back_to)]
    cycle = tuple(dict.fromkeys(urls[starts[0] if starts else 0 :]))
    last = visited[-1]
    return Outcome("redirected", last.status, back_to, last.date, last.record, loop=cycle)
