"""The Steps of RFC 1808 §4 as a resolution takes them, for ``explain()`` and ``baselinks
resolve --explain``: :class:`Step` (the rule, what it did, the components after it) and
:class:`Explanation`, and the rfc1808 resolver's own trace (:func:`trace_rfc1808`). The rfc3986
and whatwg resolvers record their Steps as they go (rfc3986.py, resolve.py); RFC 1808's fast
path records nothing, and this is its traced twin.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from .parts import SCHEME_RE, URLParts, has_dot_segment, parse, remove_dot_segments

__all__ = ["Explanation", "ParsedBase", "Step", "trace_rfc1808"]


class Step(NamedTuple):
    """One step of a resolution: the rule applied, what it did, the components after it."""

    rule: str
    action: str
    parts: URLParts


class Explanation(NamedTuple):
    """What :func:`explain` returns: the result and the steps that led to it."""

    base: str
    embedded: str
    mode: str
    result: str
    steps: tuple[Step, ...]


class ParsedBase(Protocol):
    """What the trace reads of an rfc1808 resolver: its base, parsed once (resolve.py)."""

    base: str
    _base_parts: URLParts
    _netloc: str | None
    _prefix: str
    _dir: str
    _dir_dotty: bool


def trace_rfc1808(resolver: ParsedBase, embedded: str, trace: list[Step]) -> str:
    """The rfc1808 resolver's ``resolve`` again, Step by Step on whole :class:`URLParts`, each
    Step recorded in ``trace``: the path of ``explain()``, beside the fast one rather than
    threaded through it (the figures are at ``_RFC1808.resolve``). Both must reach the same URL
    on every input: ``tests/test_properties.py`` checks it on arbitrary text,
    ``test_rfc1808.py`` on the RFC's examples."""

    def step(rule: str, action: str, url: URLParts) -> URLParts:
        trace.append(Step(rule, action, url))
        return url

    if not resolver.base:
        step(
            "Step 1",
            "the base is empty: the embedded URL is taken as absolute",
            parse(embedded),
        )
        return embedded
    b = resolver._base_parts
    if not embedded:
        step("Step 2a", "the embedded URL is empty: it is the entire base URL", b)
        return resolver.base
    if SCHEME_RE.match(embedded) is not None:
        absolute = parse(embedded)
        step("Step 2b", "the embedded URL has a scheme: it is absolute, unchanged", absolute)
        return embedded
    url = step("Step 2", "parsed by §2.4", parse(embedded))
    url = step("Step 2c", f"inherits the base's scheme {b.scheme!r}", url._replace(scheme=b.scheme))
    if url.netloc:
        step("Step 3", "the net_loc is non-empty: skip to Step 7", url)
        return _step7(str(url), trace)
    netloc = resolver._netloc
    url = step(
        "Step 3",
        f"inherits the base's net_loc {netloc!r}",
        URLParts(*url._replace(netloc=netloc or ""), netloc_present=netloc is not None),
    )
    if url.path[:1] == "/":
        step("Step 4", "the path begins with '/': skip to Step 7", url)
        # as resolve writes it: the base's scheme and net_loc, then the path as it is
        rest = URLParts("", "", "", url.params, url.query, url.fragment)
        dot = "/." if url.path[:2] == "//" and resolver._netloc is None else ""  # decision (e)
        return _step7(resolver._prefix + dot + url.path + str(rest), trace)
    if not url.path:
        return _step7(str(step(*_step5(url, b))), trace)
    path = url.path
    merged = resolver._dir + path
    url = step(
        "Step 6", f"base directory {resolver._dir!r} + path {path!r}", url._replace(path=merged)
    )
    if resolver._dir_dotty or has_dot_segment(path):
        if merged[:1] == "/":
            merged = "/" + remove_dot_segments(merged[1:])
        else:
            merged = remove_dot_segments(merged)
        url = step(
            "Step 6a-d",
            f"'.' and '<segment>/..' removed: {merged!r}",
            url._replace(path=merged),
        )
    return _step7(str(url), trace)


def _step5(url: URLParts, base: URLParts) -> tuple[str, str, URLParts]:
    """Step 5 for :func:`trace_rfc1808`: the rule, what it did, the components after it."""
    if url.params:
        action = "the path is empty: inherits the base's path; params non-empty"
        return "Step 5a", action, url._replace(path=base.path)
    if url.query:
        action = "the path is empty: inherits the base's path and params; query non-empty"
        return "Step 5b", action, url._replace(path=base.path, params=base.params)
    action = "the path is empty: inherits the base's path, params and query"
    return "Step 5b", action, url._replace(path=base.path, params=base.params, query=base.query)


def _step7(result: str, trace: list[Step]) -> str:
    trace.append(Step("Step 7", f"recombined: {result}", parse(result)))
    return result
