"""summary: what a coverage run found, as numbers: the lines said on stderr, the JSON report,
and what the HTML report shows (report.py draws it from :meth:`CoverageSummary.as_dict`, so
that both show the same numbers)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..errors import printable
from ..run.batch import counted

__all__ = ["CoverageSummary", "PageCompleteness", "Wanted"]

# The order the capture values are said in
_CAPTURE_ORDER = ("captured", "redirected", "error", "missing", "out-of-scope")
# Lines of each list said on stderr (the report and --seeds have them all)
_SAID = 5


class PageCompleteness(NamedTuple):
    """A page and how many of the resources it loads replay (its style sheets' too)."""

    url: str | None
    date: str | None
    document: str
    loads: int
    replayed: int

    @property
    def completeness(self) -> float | None:
        """The share of its loads that replay, 0 to 1; None for a page that loads nothing."""
        return self.replayed / self.loads if self.loads else None


class Wanted(NamedTuple):
    """A URL not captured, and how many pages need it (link to it, or load it)."""

    url: str
    pages: int


@dataclass
class CoverageSummary:
    """What a coverage run found. ``captures``: links by their ``capture`` value;
    ``out_of_scope``: those out of scope, by reason; ``fragments``: the links with a fragment
    by ``ok``/``missing``; ``loads``, ``replayed``: the resources the pages load (each page's
    own once each, its style sheets' counted as its own), and how many of those replay."""

    documents: int = 0
    links: int = 0
    pages: int = 0
    sheets: int = 0
    captures: Counter[str] = field(default_factory=Counter)
    out_of_scope: Counter[str] = field(default_factory=Counter)
    fragments: Counter[str] = field(default_factory=Counter)
    loads: int = 0
    replayed: int = 0
    complete_pages: int = 0
    least_complete: list[PageCompleteness] = field(default_factory=list)
    missing_urls: int = 0
    most_wanted: list[Wanted] = field(default_factory=list)
    broken_fragments: int = 0
    fragment_list: list[tuple[str | None, str, str, int | None]] = field(default_factory=list)
    loops: list[tuple[str, int]] = field(default_factory=list)
    loop_count: int = 0
    captures_kept: int = 0
    unplaced: int = 0  # files neither archive nor mirrored (no URL): not read
    unplaced_example: str = ""

    def lines(self) -> list[str]:
        """The summary as lines for stderr (each list's first few)."""
        by_capture = ", ".join(
            f"{self.captures[name]:,} {name}" for name in _CAPTURE_ORDER if self.captures[name]
        )
        said = [f"coverage: {counted(self.links, 'link')} ({by_capture or 'none'})"]
        if self.unplaced:
            said.insert(
                0,
                f"coverage: {counted(self.unplaced, 'file')} neither an archive nor a mirrored "
                f"site's (no --root-url, or beside its host folder), not read: "
                f"{printable(self.unplaced_example)}{' ...' if self.unplaced > 1 else ''}",
            )
        if self.out_of_scope:
            reasons = ", ".join(f"{n:,} {why}" for why, n in sorted(self.out_of_scope.items()))
            said.append(f"coverage: out of scope: {reasons}")
        share = f"{self.replayed / self.loads:.1%}" if self.loads else "-"
        said.append(
            f"coverage: {counted(self.pages, 'page')}, {self.complete_pages:,} complete; "
            f"{self.replayed:,} of the {counted(self.loads, 'resource')} they load replay ({share})"
        )
        for page in self.least_complete[:_SAID]:
            if page.loads and page.replayed < page.loads:
                said.append(
                    f"coverage: least complete: {page.replayed} of {page.loads} replay: "
                    f"{printable(page.url or page.document)}"
                )
        if self.missing_urls:
            said.append(
                f"coverage: {counted(self.missing_urls, 'URL')} missing that pages need; "
                "the most wanted (pages, URL):"
            )
        for wanted in self.most_wanted[:_SAID]:
            said.append(f"coverage: {wanted.pages:>6,} {printable(wanted.url)}")
        if self.fragments:
            said.append(
                f"coverage: fragments: {self.fragments['ok']:,} found, "
                f"{self.fragments['missing']:,} missing"
            )
        for cycle, links in self.loops[:_SAID]:
            said.append(f"coverage: redirect loop ({counted(links, 'link')}): {printable(cycle)}")
        return said

    def as_dict(self) -> dict[str, Any]:
        """The summary as JSON types: what ``--report FILE.json`` writes, and what the HTML
        report shows."""
        return {
            "documents": self.documents,
            "links": self.links,
            "captures": {name: self.captures[name] for name in _CAPTURE_ORDER},
            "out_of_scope": dict(sorted(self.out_of_scope.items())),
            "fragments": {"ok": self.fragments["ok"], "missing": self.fragments["missing"]},
            "pages": self.pages,
            "style_sheets": self.sheets,
            "complete_pages": self.complete_pages,
            "loads": self.loads,
            "replayed": self.replayed,
            "completeness": [
                {
                    "url": page.url,
                    "date": page.date,
                    "document": page.document,
                    "loads": page.loads,
                    "replayed": page.replayed,
                }
                for page in self.least_complete
            ],
            "missing_urls": self.missing_urls,
            "most_wanted": [{"url": w.url, "pages": w.pages} for w in self.most_wanted],
            "broken_fragments": self.broken_fragments,
            "broken_fragment_list": [
                {"page_url": page, "url": url, "fragment": fragment, "line": line}
                for page, url, fragment, line in self.fragment_list
            ],
            "redirect_loops": [{"loop": cycle, "links": links} for cycle, links in self.loops],
            "redirect_loop_count": self.loop_count,
            "captures_kept": self.captures_kept,
            "unplaced": self.unplaced,
        }
