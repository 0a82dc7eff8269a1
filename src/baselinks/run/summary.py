"""summary: what a run read, counted: files, documents, links, skips, warnings, failures, and
the revisits whose original is not in the inputs (named). One line, the command line's last.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .revisits import UNRESOLVED_NAMED, unresolved_text

if TYPE_CHECKING:
    from ..write.stats import Stats

__all__ = ["Summary", "counted", "skipped_text"]


def counted(n: int, what: str) -> str:
    """``1 file``, ``2 files``, ``1,000 links``: how every count is written."""
    return f"{n:,} {what}{'' if n == 1 else 's'}"


@dataclass
class Summary:
    """What a run read: pass one to :func:`iter_links` (or many calls) and it is counted into.

    ``no_base``: the links left relative for want of a base (problem ``no-base``).
    ``warnings``: oddities repaired, the input read in full (:class:`~baselinks.InputWarning`),
    counted apart from ``failed``, where something could not be read. ``stats``:
    given a :class:`~baselinks.write.stats.Stats`, the links are counted into it too (by kind, base
    source, problem code and host), in the worker that extracts them with ``workers``.
    """

    files: int = 0
    documents: int = 0
    links: int = 0
    failed: int = 0
    skipped: Counter[str] = field(default_factory=Counter)  # by reason, e.g. "request record"
    no_base: int = 0
    stats: Stats | None = None
    warnings: int = 0
    read: int = 0  # bytes of the inputs read, where a stream tells its position (not a pipe)
    # revisits without their original in the inputs: how many, the first ones' names
    unresolved: int = 0
    unresolved_names: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return self.line()

    def line(self, no_base_hint: str = "") -> str:
        """The summary as one line; ``no_base_hint`` follows the count of links without a
        base, when there are any (the CLI's ``: give --url or --root-url``)."""
        text = ", ".join(
            (
                counted(self.files, "file"),
                counted(self.documents, "document"),
                counted(self.links, "link"),
            )
        )
        if self.no_base:
            text += f"; {counted(self.no_base, 'link')} without a base (relative, as written)"
            text += no_base_hint
        if self.skipped:
            text += f"; {skipped_text(self.skipped)}"
        if self.warnings:
            text += f"; {counted(self.warnings, 'warning')}"
        if self.unresolved:
            text += f"; {unresolved_text(self.unresolved, self.unresolved_names)}"
        return text + f"; {self.failed:,} failed"

    def revisit_unresolved(self, name: str) -> None:
        self.unresolved += 1
        if len(self.unresolved_names) < UNRESOLVED_NAMED:
            self.unresolved_names.append(name)


def skipped_text(skipped: Mapping[str, int]) -> str:
    """``skipped 3 (2 request record, 1 not HTML)``: the skips by reason, as the summary says
    them ("not HTML (image/png)" and "not HTML (text/css)" add up under "not HTML")."""
    grouped: Counter[str] = Counter()
    for reason, n in skipped.items():
        grouped[reason.split(" (")[0]] += n
    reasons = ", ".join(f"{n:,} {reason}" for reason, n in grouped.most_common())
    return f"skipped {sum(grouped.values()):,} ({reasons})"
