"""revisits: the revisit records' originals of all the files of a Spark job, found by Spark.

One task per file reads it for what names its records (run/revisits.py, blocks passed over):
each revisit's keys (its original's record ID, URI and date, payload digest: ranked) and each
response's. Spark joins them, keeps for each revisit its best-ranked original first in input
order, and brings the driver one row per revisit: each file's task is then handed the index of
its own revisits (:class:`~baselinks.run.revisits.RevisitIndex`), so that a revisit whose
original is in another file gives that original's links, as on one machine.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from pyspark.sql import SparkSession

from baselinks.run.batch import display_name
from baselinks.run.revisits import (
    Original,
    RevisitIndex,
    names,
    original,
    records_of,
    revisit_of,
    wanted,
)

__all__ = ["revisit_indexes"]

Place = tuple[str, int]  # a revisit: its file's label and its offset


def _keys(numbered: tuple[int, str]) -> Iterator[tuple[str, Any]]:
    """One file's rows: ("revisit", place), ("wants", key, rank, place), ("names", key,
    order, original): what its revisits want and what its records are named by."""
    number, path = numbered
    label = display_name(path)
    for keyed in records_of(path, label, remote=True):
        if keyed.rec_type == "revisit":
            place = (keyed.file, keyed.offset)
            yield ("revisit", (label, place))
            for rank, key in wanted(revisit_of(keyed)):
                yield ("wants", (key, rank, place))
        else:
            for key in names(keyed):
                yield ("names", (key, (number, keyed.offset), original(path, label, keyed)))


def _best(
    one: tuple[int, tuple[int, int], Original], other: tuple[int, tuple[int, int], Original]
) -> tuple[int, tuple[int, int], Original]:
    return min(one, other, key=lambda found: (found[0], found[1]))


def revisit_indexes(spark: SparkSession, paths: Sequence[str]) -> dict[str, RevisitIndex]:
    """Each file's :class:`RevisitIndex` (by its label, ``display_name(path)``; a file that
    holds no revisit has none): its revisits and their originals, found in all ``paths``."""
    context = spark.sparkContext
    rows = context.parallelize(list(enumerate(paths)), max(1, len(paths))).flatMap(_keys)
    rows = rows.persist()
    revisits = rows.filter(lambda row: row[0] == "revisit").map(lambda row: row[1]).collect()
    indexes: dict[str, RevisitIndex] = {}
    label_of: dict[Place, str] = {}
    for label, (file, offset) in revisits:
        index = indexes.setdefault(label, RevisitIndex())
        index.originals[(file, offset)] = None
        index.files.add(file)
        label_of[(file, offset)] = label
    if revisits:
        wants = rows.filter(lambda row: row[0] == "wants").map(
            lambda row: (row[1][0], (row[1][1], row[1][2]))
        )
        named = rows.filter(lambda row: row[0] == "names").map(
            lambda row: (row[1][0], (row[1][1], row[1][2]))
        )
        found = (
            wants.join(named)
            .map(lambda pair: (pair[1][0][1], (pair[1][0][0], pair[1][1][0], pair[1][1][1])))
            .reduceByKey(_best)
            .collect()
        )
        for place, (_, _, the_original) in found:
            indexes[label_of[place]].originals[place] = the_original
    rows.unpersist()
    return indexes
