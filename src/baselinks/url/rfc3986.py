"""RFC 3986 §5.2 reference resolution: 5.2.2 transform, 5.2.3 merge, 5.2.4 remove_dot_segments.

The ``rfc3986`` mode. Written from the RFC, standard library only. It is the *strict* resolver
of §5.2.2 ("if (R.scheme == Base.scheme) then undefine(R.scheme)" is the non-strict option we do
not take), so ``http:g`` stays ``http:g``.

Components are ``None`` when undefined and ``""`` when defined but empty (§5.2.1 and §5.3
distinguish them: ``g?`` keeps its ``?``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["Components", "merge", "parse", "recompose", "remove_dot_segments", "transform"]

# RFC 3986 Appendix B, with the scheme held to §3.1 (``ALPHA *( ALPHA / DIGIT / "+" / "-" /
# "." )``) so that ``a_b:c`` or ``1.html:x`` is a relative path, not a scheme. Every group is a
# negated character class or a fixed literal, so the match is linear: no backtracking.
_REFERENCE = re.compile(
    r"(?:([A-Za-z][A-Za-z0-9+.\-]*):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?",
    re.DOTALL,
)


class Components(NamedTuple):
    """The five RFC 3986 components; ``None`` = undefined."""

    scheme: str | None
    authority: str | None
    path: str
    query: str | None
    fragment: str | None


def parse(reference: str) -> Components:
    """RFC 3986 Appendix B: split a URI reference into its five components."""
    match = _REFERENCE.fullmatch(reference)
    assert match is not None  # every group is optional and the path takes any other text
    scheme, authority, path, query, fragment = match.groups()
    return Components(scheme, authority, path, query, fragment)


def recompose(c: Components) -> str:
    """RFC 3986 §5.3 Component Recomposition.

    §3.3: "If a URI does not contain an authority component, then the path cannot begin with
    two slash characters ("//")". Dot-segment removal can make one (``http:/b/c`` +
    ``..//evil/x`` gives the path ``//evil/x``), which would read back as the authority
    ``evil``: it is written ``/.//evil/x``, as the WHATWG URL serializer does.
    """
    result = ""
    if c.scheme is not None:
        result += c.scheme + ":"
    if c.authority is not None:
        result += "//" + c.authority
    elif c.path[:2] == "//":
        result += "/."
    result += c.path
    if c.query is not None:
        result += "?" + c.query
    if c.fragment is not None:
        result += "#" + c.fragment
    return result


def merge(base: Components, ref_path: str) -> str:
    """RFC 3986 §5.2.3 Merge Paths."""
    # "If the base URI has a defined authority component and an empty path, then return a
    # string consisting of "/" concatenated with the reference's path"
    if base.authority is not None and base.path == "":
        return "/" + ref_path
    # "otherwise, return a string consisting of the reference's path component appended to all
    # but the last segment of the base URI's path"
    return base.path[: base.path.rfind("/") + 1] + ref_path


def remove_dot_segments(path: str) -> str:
    """RFC 3986 §5.2.4, rules A to E, on the path's segments: linear, one step per segment.

    The RFC's input buffer only ever starts without a "/" at the start of a relative path, so
    rules A and D act on the leading segments alone; after them, each segment is rule B
    (``.``), C (``..``: the last output segment removed) or E (moved to the output), and a
    final ``.`` or ``..`` leaves a "/". The output is a list of segments, each with its
    preceding "/", so that C is a pop. tests/test_linear.py checks it against the rules applied
    literally to an input buffer, on every path of up to 9 characters of ``./a``.
    """
    if "." not in path:
        return path
    segments = path.split("/")
    output: list[str] = []
    first = 0
    if segments[0]:  # a relative path
        # A. its leading "../" and "./" are removed
        while first < len(segments) - 1 and segments[first] in (".", ".."):
            first += 1
        # D. an input buffer of only "." or ".." (or nothing) is removed
        if first == len(segments) - 1 and segments[first] in ("", ".", ".."):
            return ""
        if segments[first]:
            output.append(segments[first])  # E. its first segment, with no "/" before it
    last = len(segments) - 1
    for index in range(first + 1, len(segments)):
        segment = segments[index]
        if segment == ".":
            # B. "/./" or a final "/." is replaced by "/"
            if index == last:
                output.append("/")
        elif segment == "..":
            # C. "/../" or a final "/.." is replaced by "/", and the last output segment removed
            if output:
                output.pop()
            if index == last:
                output.append("/")
        else:
            output.append("/" + segment)  # E. the next segment, with its "/"
    return "".join(output)


def transform(
    base: Components, ref: Components, trace: list[tuple[str, str]] | None = None
) -> Components:
    """RFC 3986 §5.2.2 Transform References (strict). ``trace`` collects (branch, reason)."""

    def note(branch: str, reason: str) -> None:
        if trace is not None:
            trace.append((branch, reason))

    if ref.scheme is not None:
        note("5.2.2 R.scheme defined", "the reference is absolute: T = R, dot segments removed")
        return Components(
            ref.scheme, ref.authority, remove_dot_segments(ref.path), ref.query, ref.fragment
        )
    if ref.authority is not None:
        note("5.2.2 R.authority defined", "T takes R's authority, path and query; B's scheme")
        return Components(
            base.scheme, ref.authority, remove_dot_segments(ref.path), ref.query, ref.fragment
        )
    if ref.path == "":
        query: str | None
        if ref.query is not None:
            note("5.2.2 R.path empty", "T takes B's path and R's query")
            query = ref.query
        else:
            note("5.2.2 R.path empty", "T takes B's path and B's query")
            query = base.query
        return Components(base.scheme, base.authority, base.path, query, ref.fragment)
    if ref.path.startswith("/"):
        note("5.2.2 R.path absolute", "T.path = remove_dot_segments(R.path)")
        path = remove_dot_segments(ref.path)
    else:
        merged = merge(base, ref.path)
        note("5.2.3 merge", f"merge(B.path, R.path) = {merged!r}")
        path = remove_dot_segments(merged)
        note("5.2.4 remove_dot_segments", f"T.path = {path!r}")
    return Components(base.scheme, base.authority, path, ref.query, ref.fragment)
