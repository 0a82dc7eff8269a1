"""classify: one link → its coverage record: is its target captured, and how.

    link ──scope──► out-of-scope (a scheme never captured, no base; a hyperlink to a host of
         │          which nothing was captured)
         └─follow.py──► captured / redirected / error / missing, the capture's status, URL and
                        date ──fragments.py──► the fragment found or not in the page landed on

The record (:class:`Covered`) is the link as extract writes it, then :data:`COVERAGE_FIELDS`.
The link's own ``date`` (its page's WARC-Date) is written ``page_date`` in it: ``date`` is the
date of the capture the link lands on.

Which links a page *loads* (:func:`loads`: its completeness counts them) is decided here: what a
browser fetches to show the page, kind ``resource`` (style sheets, scripts, images, frames,
media, CSS's ``url()`` and ``@import``; lazy-loading attributes too, which the page's script
turns into what a browser fetches as it scrolls), but not what it does not fetch to show it: a
resource hint (``preload``, ``modulepreload``, ``prefetch``, ``prerender``; a preloaded font is
counted where the style sheet that uses it names it), a web app ``manifest``, an Open Graph or
Twitter card image (for other sites), a ``codebase`` (a base, not a resource), anything inside a
``<template>`` or a ``<noscript>`` (never fetched with scripting on). A resource a page loads is
needed wherever it is hosted (a CDN's style sheet is as needed as the site's own), so it is out
of scope only by its scheme (``data:`` is in the page already); a hyperlink is out of scope
when nothing of its host was captured (the crawl's scope left it out).
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

from ..find.linktable import IN_NOSCRIPT, INERT_TEMPLATE, METADATA
from ..resolve.link import COMPUTED_FIELDS, FIELDS, Link
from .follow import Follower, Outcome
from .fragments import indicated
from .keys import host_key, scheme_family, split_fragment, target_key
from .store import CACHED_KEYS, CaptureStore

__all__ = [
    "CHOOSABLE",
    "COVERAGE_FIELDS",
    "OUTPUT_FIELDS",
    "WANTED_KINDS",
    "Checked",
    "Classifier",
    "Coverage",
    "Covered",
    "landed",
    "loads",
    "loads_sheet",
    "needed",
    "out_of_scope",
    "outside",
]


class Coverage(NamedTuple):
    """What coverage adds to a link: ``capture`` (captured, redirected, error, missing,
    out-of-scope), the HTTP ``status`` and URL (``final_url``) and ``date`` of the capture the
    link lands on (after any redirects), ``fragment`` (``ok``, ``missing``, or ``""`` where the
    link has none or its target is no captured HTML page), and ``record_type``: the record that
    holds that capture (``response``, ``revisit``, ``resource``; ``file`` in a mirror)."""

    capture: str
    status: int | None
    final_url: str | None
    date: str | None
    fragment: str
    record_type: str | None


COVERAGE_FIELDS: tuple[str, ...] = Coverage._fields
# The link's fields as extract writes them (its `date`, the page's, as `page_date`), then these
OUTPUT_FIELDS: tuple[str, ...] = (
    *("page_date" if name == "date" else name for name in FIELDS),
    *COVERAGE_FIELDS,
)
CHOOSABLE: tuple[str, ...] = OUTPUT_FIELDS + COMPUTED_FIELDS


class Covered(NamedTuple):
    """One link and its coverage: a record of :data:`OUTPUT_FIELDS`."""

    link: Link
    coverage: Coverage

    def values(self, fields: tuple[str, ...] = OUTPUT_FIELDS) -> tuple[Any, ...]:
        """The values of ``fields`` (of :data:`CHOOSABLE`), in order."""
        if fields == OUTPUT_FIELDS:
            return self.link.values() + self.coverage
        return tuple(_value(self, name) for name in fields)


def _value(covered: Covered, name: str) -> Any:
    if name in COVERAGE_FIELDS:
        return getattr(covered.coverage, name)
    return getattr(covered.link, "date" if name == "page_date" else name)


class Checked(NamedTuple):
    """A link's record, and what the tallies want of it: whether what it lands on replays
    (a capture that is no error), the URL a patch crawl should fetch (the target, or where its
    redirects ended, not captured), the redirect loop met, why it is out of scope."""

    covered: Covered
    replays: bool = False
    wanted: str | None = None
    loop: tuple[str, ...] = ()
    out_of_scope: str | None = None


# <link rel> tokens of things a page does not fetch to be shown (resource hints, a manifest)
_NOT_LOADED_RELS = frozenset(
    {"preload", "modulepreload", "prefetch", "prerender", "dns-prefetch", "preconnect", "manifest"}
)
_SHOWN_RELS = frozenset({"stylesheet", "icon", "shortcut", "apple-touch-icon", "mask-icon"})
_PLACED = frozenset({INERT_TEMPLATE, IN_NOSCRIPT})
_NOT_SHOWN = _PLACED | frozenset(METADATA)
# The kinds of link whose missing target a page needs (what a patch crawl should fetch): not a
# form's action (a POST target), nor `other` (microdata types, ping URLs, a profile)
WANTED_KINDS = frozenset({"link", "resource", "refresh"})


def loads(link: Link) -> bool:
    """Whether the page fetches what ``link`` points to to show itself (the module's rule)."""
    if link.kind != "resource" or link.attr in ("codebase", "manifest"):
        return False
    if _NOT_SHOWN.intersection(link.problems):
        return False
    if link.rel:
        tokens = set(link.rel.split())
        if tokens & _NOT_LOADED_RELS and not tokens & _SHOWN_RELS:
            return False
    return True


def needed(link: Link) -> bool:
    """Whether a page needs what ``link`` points to when it is missing (the most wanted URLs,
    the seed list): a hyperlink, a resource, a refresh, but not one in a ``<template>`` or a
    ``<noscript>`` (never followed nor fetched)."""
    return link.kind in WANTED_KINDS and not _PLACED.intersection(link.problems)


def loads_sheet(link: Link) -> bool:
    """Whether ``link`` loads a style sheet (``<link rel=stylesheet>``, ``@import``), whose
    own loads (fonts, images) are the page's too."""
    return loads(link) and (link.attr == "@import" or "stylesheet" in link.rel.split())


class Classifier:
    """Links checked against the captures of ``store``."""

    def __init__(self, store: CaptureStore) -> None:
        self.store = store
        self.follower = Follower(store.rows)
        # outcomes by target alone where no choice among captures was made (nearly all: one
        # capture a key), else by target and the linking page's date; LRUs of CACHED_KEYS
        self.cached: OrderedDict[tuple[str, bool, str | None], Outcome] = OrderedDict()

    def follow(self, target: str, date: str | None) -> Outcome:
        """Where ``target`` ends, from a page captured at ``date`` (cached)."""
        for key in ((target, True, None), (target, False, date)):
            found = self.cached.get(key)
            if found is not None:
                self.cached.move_to_end(key)
                return found
        self.follower.ranked = False
        outcome = self.follower.follow(target, date)
        ranked = self.follower.ranked
        self.cached[(target, not ranked, date if ranked else None)] = outcome
        if len(self.cached) > CACHED_KEYS:
            self.cached.popitem(last=False)
        return outcome

    def check(self, link: Link) -> Checked:
        """The coverage of ``link``."""
        reason = out_of_scope(link, self.store.has_scheme, self.store.has_host)
        if reason is not None:
            return outside(link, reason)
        outcome = self.follow(split_fragment(link.url)[0], link.date)
        return landed(link, outcome, self.store.has_anchor)


def out_of_scope(
    link: Link, has_scheme: Callable[[str], bool], has_host: Callable[[str], bool]
) -> str | None:
    """Why ``link`` is out of scope (the module's rule), or None: ``has_scheme`` and
    ``has_host`` tell whether anything of a scheme (keys.scheme_family) or a host
    (keys.host_key) was captured."""
    target, _ = split_fragment(link.url)
    family = scheme_family(target)
    if not family:
        return "no base"  # left relative: nothing to look for
    if not has_scheme(family):
        return f"{family}: never captured"
    key = target_key(target)
    if key is None:
        return "no valid host"
    if not loads(link) and not has_host(host_key(key)):
        return "host never captured"
    return None


def outside(link: Link, reason: str) -> Checked:
    """The record of a link out of scope, for ``reason``."""
    coverage = Coverage("out-of-scope", None, None, None, "", None)
    return Checked(Covered(link, coverage), out_of_scope=reason)


def landed(link: Link, outcome: Outcome, has_anchor: Callable[[int, str], bool]) -> Checked:
    """The record of a link whose target ends as ``outcome``; its fragment looked for with
    ``has_anchor`` (a capture's id, a name) in the page it lands on."""
    fragment = split_fragment(link.url)[1]
    found = ""
    if fragment is not None and outcome.page is not None:
        has = functools.partial(has_anchor, outcome.page)
        found = "ok" if indicated(fragment, has) else "missing"
    coverage = Coverage(
        outcome.capture,
        outcome.status,
        outcome.final_url,
        outcome.date,
        found,
        outcome.record_type,
    )
    return Checked(Covered(link, coverage), _replays(outcome), outcome.end, outcome.loop)


def _replays(outcome: Outcome) -> bool:
    """Whether the link lands on a capture that replays: no error, no end left uncaptured,
    no loop, a redirect's end known (an index line's Location is not)."""
    if outcome.capture == "captured":
        return True
    return (
        outcome.capture == "redirected"
        and outcome.end is None
        and not outcome.loop
        and outcome.record_type is not None
        and outcome.final_url is not None
        and (outcome.status is None or outcome.status < 400)
    )
