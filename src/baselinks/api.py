"""The pipeline, load → base → walk → resolve, in a few lines. Read this file first.

    document = load(source)                                  load.py
    base     = establish_base(document.tree, fallback)       base.py   (RFC 1808 §3)
    raw      = iter_raw_links(document.tree)                 walk.py   (never resolves)
    links    = resolve each raw link against base            here      (RFC 1808 §4)

The writers (write.py) turn :class:`Link` records into JSON Lines, CSV, TSV or text.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import asdict, dataclass
from typing import Any

from .base import Base, BaseSource, establish_base, retrieval_base
from .diagnose import diagnose
from .errors import BaselinksError, SelectError
from .load import Document, Source, load, load_text
from .microsyntax import ASCII_WHITESPACE
from .resolve import Resolver, check_mode
from .walk import RawLink, iter_raw_links, select_roots

__all__ = ["FIELDS", "KINDS", "Link", "SelectError", "extract_links", "iter_links"]

KINDS = ("link", "resource", "form", "refresh", "other")
# An iframe srcdoc may hold an iframe srcdoc...: nesting deeper than this is not followed.
MAX_SRCDOC_DEPTH = 8


@dataclass(frozen=True, slots=True)
class Link:
    """One link, absolute, with where it came from and which base made it so."""

    url: str
    raw: str
    base: str
    base_source: str
    tag: str
    attr: str
    line: int | None
    document: str
    text: str
    rel: str
    kind: str
    problems: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        record = asdict(self)
        record["problems"] = list(self.problems)
        return record


FIELDS: tuple[str, ...] = tuple(Link.__dataclass_fields__)


class _Linker:
    """The resolve stage for one document: raw links against its base, with problem codes."""

    def __init__(self, base: Base, mode: str, name: str) -> None:
        self.base = base
        self.mode = mode
        self.name = name
        self.resolver = Resolver(base.url, mode)
        self.codebases: dict[str, Resolver] = {}

    def _codebase(self, codebase: str) -> Resolver:
        # HTML 4 §13.3: codebase "specifies the base path used to resolve relative URIs
        # specified by the classid, data, and archive attributes".
        if codebase not in self.codebases:
            try:
                self.codebases[codebase] = Resolver(self.resolver.resolve(codebase), self.mode)
            except BaselinksError:
                self.codebases[codebase] = self.resolver
        return self.codebases[codebase]

    def link(self, raw: RawLink) -> Link:
        # "Attribute values are stripped of leading and trailing ASCII whitespace" (HTML: "a
        # valid URL potentially surrounded by spaces"); `raw` keeps them as written.
        value = raw.raw.strip(ASCII_WHITESPACE)
        resolver, source = self.resolver, self.base.source
        codebase = (raw.codebase or "").strip(ASCII_WHITESPACE)
        if codebase:
            resolver = self._codebase(codebase)
            if resolver is not self.resolver:
                source = BaseSource.CONTENT  # the codebase attribute is a base in the content
        try:
            url: str | None = resolver.resolve(value)
        except BaselinksError:
            url = None  # kept, with "unresolvable": never dropped, never fatal
        problems = diagnose(resolver.base, value, url)
        if raw.srcset_invalid:
            problems += ("invalid-srcset-descriptor",)
        return Link(
            value if url is None else url,
            raw.raw,
            resolver.base,
            source.value,
            raw.tag,
            raw.attr,
            raw.line,
            self.name,
            raw.text,
            raw.rel,
            raw.kind,
            problems,
        )


def _document_links(
    document: Document, fallback: Base, mode: str, select: str | None, depth: int = 0
) -> Iterator[Link]:
    """base → walk → resolve for one loaded document."""
    base = establish_base(document.tree, fallback, mode)  # RFC 1808 §3.1 over the fallback
    linker = _Linker(base, mode, document.name)
    for raw in iter_raw_links(document.tree, select_roots(document.tree, select)):
        if not raw.nested:
            yield linker.link(raw)
        elif depth < MAX_SRCDOC_DEPTH:
            # HTML §4.8.5: an iframe srcdoc document's fallback base is its container's base;
            # that is RFC 1808 §3.2, the base of the encapsulating entity. Its own <base> wins.
            nested = load_text(raw.raw, f"{document.name}#srcdoc@{raw.line}")
            inner = Base(base.url, BaseSource.ENCAPSULATING) if base.url else base
            yield from _document_links(nested, inner, mode, None, depth + 1)


def iter_links(
    source: Source,
    *,
    url: str | None = None,
    mode: str = "rfc1808",
    select: str | None = None,
    kinds: Collection[str] | None = None,
    unique: bool = False,
    charset: str | None = None,
    name: str | None = None,
) -> Iterator[Link]:
    """Every link of the document ``source`` (bytes, or a path), streamed in document order.

    ``url`` is the retrieval URL (RFC 1808 §3.3). ``select``: a CSS selector; only links inside
    matching elements. ``kinds``: keep only these kinds. ``unique``: the first link per URL.
    ``charset``: the transport's charset (HTTP ``Content-Type``), if known. ``name``: what the
    ``document`` field says (default: the path, or ``-`` for bytes).
    """
    check_mode(mode)
    if kinds is not None and not set(kinds) <= set(KINDS):
        raise ValueError(
            f"unknown kind(s) {sorted(set(kinds) - set(KINDS))}: expected {', '.join(KINDS)}"
        )
    document = load(source, charset=charset, name=name)
    links = _document_links(document, retrieval_base(url, document.text), mode, select)
    seen: set[str] = set()
    for link in links:
        if kinds is not None and link.kind not in kinds:
            continue
        if unique:
            if link.url in seen:
                continue
            seen.add(link.url)
        yield link


def extract_links(source: Source, **options: Any) -> list[Link]:
    """:func:`iter_links` as a list; the same keyword options."""
    return list(iter_links(source, **options))
