"""Coverage on Spark: every link of many WARC files against what they captured, the same
records as ``baselinks coverage`` on one machine (tests/test_spark_coverage.py), by joins.

    files ──one task each──► links (api.iter_links)       captures (load/containers/captures:
                                                            each record; an HTML page's anchors)
    links ── scope: a join with the captured hosts (and the schemes, collected: a few)
    targets (distinct URL, page date) ── followed through the captures, a join a step: each
        step's target asks for the captures of one key more (a redirect's Location, a
        revisit's original), until it ends (coverage/follow.py decides, with the captures of
        the keys gathered so far)
    links ── join their target's outcome ── join the anchors of the page they land on

The follow rules, the scope and the fragment rules are the one-machine code's
(coverage/follow.py, classify.py, fragments.py), run in the tasks; only where the captures
come from differs (a dict of those gathered, not the store). An index (``--index``) and a
mirror are the one machine's only.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable, Iterator
from typing import Any

try:
    from pyspark import RDD
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructField, StructType
except ImportError as exc:  # an optional dependency: say how to get it
    raise ImportError(
        f"baselinks.spark needs pyspark: pip install 'baselinks[spark]' ({exc})"
    ) from exc

from baselinks import InputError, iter_links
from baselinks.coverage.classify import (
    OUTPUT_FIELDS,
    Checked,
    Coverage,
    landed,
    loads,
    out_of_scope,
    outside,
)
from baselinks.coverage.follow import MAX_REDIRECTS, Follower, Outcome
from baselinks.coverage.keys import host_key, scheme_family, split_fragment, target_key
from baselinks.coverage.scan import page_anchors
from baselinks.coverage.store import Stored, digest_key
from baselinks.dataflow import open_input
from baselinks.errors import describe, printable
from baselinks.load.containers.captures import Capture, iter_captures
from baselinks.resolve.link import Link
from baselinks.run.batch import display_name
from baselinks.spark.links import _SPARK_TYPES
from baselinks.url.resolve import check_mode
from baselinks.write.schema import SQL_NAMES, column_types, columns, utc_timestamp

__all__ = ["coverage_rows", "coverage_table"]

# Steps a target may take: each hop asks for its Location's key and its revisit's original's
_STEPS = 3 * (MAX_REDIRECTS + 2)


def _say(error: InputError) -> None:
    print(f"baselinks: {printable(str(error))}", file=sys.stderr, flush=True)


def _capture_id(capture: Capture) -> int:
    """A capture's id, the same in every task and run: a 63-bit hash of where it is."""
    where = f"{capture.file}\0{capture.offset}\0{capture.url}".encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(where, digest_size=8).digest(), "big") >> 1


def _file_captures(path: str, parser: str | None) -> Iterator[tuple[Stored, frozenset[str] | None]]:
    """One file's captures as the store holds them, and each HTML page's anchors."""
    try:
        with open_input(path) as stream:
            for capture in iter_captures(stream, display_name(path)):
                key = target_key(capture.url)
                if key is None:
                    continue
                found = page_anchors(capture.page, parser)
                anchors = None if found is None else frozenset(found)
                refers = None if capture.refers_to is None else target_key(capture.refers_to)
                yield (
                    Stored(
                        _capture_id(capture), key, capture.url, capture.date, capture.record,
                        capture.status, capture.location, capture.mime,
                        digest_key(capture.digest), refers, capture.refers_date, "archive",
                        anchors is not None, capture.file, capture.offset,
                    ),
                    anchors,
                )  # fmt: skip
    except Exception as exc:  # extraction says the file's damage; a scan never fails the job
        _say(InputError(f"captures not read: {describe(exc)}", path))


def _file_links(path: str, mode: str, parser: str | None) -> Iterator[Link]:
    try:
        with open_input(path) as stream:
            yield from iter_links(
                stream,
                name=display_name(path),
                mode=check_mode(mode),
                parser=parser,
                on_error=_say,
            )
    except Exception as exc:  # no such file, a read failing midway: never the job
        _say(InputError(describe(exc), path))


class _Need(Exception):
    """The captures of ``key`` are not gathered yet."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _attempt(
    target: str, date: str | None, gathered: dict[str, tuple[Stored, ...]]
) -> tuple[Outcome | None, str | None]:
    """Where ``target`` ends with the captures gathered, or the key it needs next."""

    def rows(key: str) -> tuple[Stored, ...]:
        if key not in gathered:
            raise _Need(key)
        return gathered[key]

    try:
        return Follower(rows).follow(target, date), None
    except _Need as need:
        return None, need.key


def _follow_all(
    targets: RDD[tuple[str, str | None]], by_key: RDD[tuple[str, tuple[Stored, ...]]]
) -> RDD[tuple[tuple[str, str | None], Outcome]]:
    """Each (target, date)'s outcome: a join with the captures of one key more per step."""
    state: Any = targets.map(lambda pair: (pair, {}))
    done: Any = None
    for _ in range(_STEPS):
        tried = state.map(lambda kv: (kv[0], kv[1], *_attempt(kv[0][0], kv[0][1], kv[1])))
        tried = tried.cache()
        finished = tried.filter(lambda t: t[2] is not None).map(lambda t: (t[0], t[2]))
        done = finished if done is None else done.union(finished)
        pending = tried.filter(lambda t: t[2] is None)
        if pending.isEmpty():
            return done  # type: ignore[no-any-return]  # pyspark's RDD methods are untyped
        asked = pending.map(lambda t: (t[3], (t[0], t[1])))
        answered = asked.leftOuterJoin(by_key).map(
            lambda kv: (kv[1][0][0], _with(kv[1][0][1], kv[0], kv[1][1] or ()))
        )
        state = answered
    raise RuntimeError("coverage: a redirect chain took more steps than MAX_REDIRECTS allows")


def _with(
    gathered: dict[str, tuple[Stored, ...]], key: str, rows: tuple[Stored, ...]
) -> dict[str, tuple[Stored, ...]]:
    return {**gathered, key: rows}


def coverage_rows(
    spark: SparkSession, paths: Iterable[str], *, mode: str = "whatwg", parser: str | None = None
) -> RDD[tuple[Any, ...]]:
    """Every link of the WARC files ``paths`` with its coverage: the values of
    :data:`~baselinks.coverage.classify.OUTPUT_FIELDS`, as ``baselinks coverage`` writes
    them (dates as text), one task per file for the links and for the captures."""
    paths = list(paths)
    files = spark.sparkContext.parallelize(paths, max(1, len(paths)))
    captured = files.flatMap(lambda path: _file_captures(path, parser)).cache()
    stored = captured.map(lambda pair: pair[0])
    anchors = captured.filter(lambda pair: pair[1] is not None).map(lambda p: (p[0].id, p[1]))
    schemes = set(stored.map(lambda row: scheme_family(row.url)).distinct().collect())
    hosts = stored.map(lambda row: (host_key(row.key), True)).distinct()
    by_key = stored.groupBy(lambda row: row.key).mapValues(_in_order).cache()
    links = files.flatMap(lambda path: _file_links(path, mode, parser)).zipWithIndex()
    # scope: the schemes here; whether a hyperlink's host had a capture, by a join
    host_of = links.map(lambda pair: (_host_asked(pair[0], schemes), pair))
    asked = host_of.filter(lambda kv: kv[0] is not None).leftOuterJoin(hosts)
    known = asked.map(lambda kv: (kv[1][0], kv[1][1] is not None))
    unasked = host_of.filter(lambda kv: kv[0] is None).map(lambda kv: (kv[1], True))
    scoped = known.union(unasked).map(lambda kv: (kv[0], _reason(kv[0][0], schemes, kv[1])))
    inside = scoped.filter(lambda kv: kv[1] is None).map(lambda kv: kv[0])
    keyed = inside.map(lambda pair: ((split_fragment(pair[0].url)[0], pair[0].date), pair))
    outcomes = _follow_all(keyed.keys().distinct(), by_key)
    followed = keyed.join(outcomes).map(lambda kv: (kv[1][1].page, (kv[1][0], kv[1][1])))
    landing = followed.leftOuterJoin(anchors).map(
        lambda kv: (kv[1][0][0][1], _landed(kv[1][0][0][0], kv[1][0][1], kv[1][1]))
    )
    outside_ = scoped.filter(lambda kv: kv[1] is not None).map(
        lambda kv: (kv[0][1], outside(kv[0][0], kv[1] or ""))
    )
    return landing.union(outside_).sortByKey().map(lambda kv: kv[1].covered.values())


def _in_order(rows: Iterable[Stored]) -> tuple[Stored, ...]:
    return tuple(sorted(rows, key=lambda row: (row.file or "", row.offset or -1, row.url)))


def _host_asked(link: Link, schemes: set[str]) -> str | None:
    """The host key whose captures decide ``link``'s scope, or None when none does."""
    target = split_fragment(link.url)[0]
    family = scheme_family(target)
    key = target_key(target) if family in schemes else None
    return None if key is None or loads(link) else host_key(key)


def _reason(link: Link, schemes: set[str], host_captured: bool) -> str | None:
    return out_of_scope(link, schemes.__contains__, lambda host: host_captured)


def _landed(link: Link, outcome: Outcome, names: frozenset[str] | None) -> Checked:
    return landed(link, outcome, lambda page, name: names is not None and name in names)


def _schema() -> StructType:
    """OUTPUT_FIELDS' columns: the link's (write/schema.py), then the coverage's."""
    own = column_types(Coverage)
    fields = []
    for name in OUTPUT_FIELDS:
        if name in own:
            kind, nullable = own[name]
        else:
            (column,) = columns(["date" if name == "page_date" else name])
            kind, nullable = column.type, column.nullable
        fields.append(StructField(SQL_NAMES.get(name, name), _SPARK_TYPES[kind], nullable))
    return StructType(fields)


def coverage_table(
    spark: SparkSession, paths: Iterable[str], *, mode: str = "whatwg", parser: str | None = None
) -> DataFrame:
    """:func:`coverage_rows` as a DataFrame: the columns ``--format parquet`` writes (the
    dates ``page_date`` and ``date`` timestamps, ``offset`` as ``record_offset``)."""
    dated = tuple(i for i, name in enumerate(OUTPUT_FIELDS) if name in ("page_date", "date"))

    def typed(values: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(utc_timestamp(v) if i in dated else v for i, v in enumerate(values))

    rows = coverage_rows(spark, paths, mode=mode, parser=parser).map(typed)
    return spark.createDataFrame(rows, _schema(), verifySchema=False)
