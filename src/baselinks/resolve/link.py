"""link: the resolve stage of one document, and the record it makes.

    RawLink (find/walk.py) ──Linker.link──► Link    against the document's Base (base/layers.py)

:class:`Link` is the record every later stage handles (run/batch.py counts and filters it,
write/formats.py formats it, dataflow.py and spark.py hand it on); :data:`FIELDS` are its field
names, in the order every format writes them: its own (:data:`OWN_FIELDS`: the twelve of
:data:`DEFAULT_FIELDS`, what CSV, TSV write unless asked, then ``nofollow`` and ``hreflang``),
then its document's :class:`~.containers.entries.Origin` flattened
(:data:`ORIGIN_FIELDS`: file, offset, length, record ID, date, MIME part, page URL).

:class:`Linker` resolves a document's raw links against its base (url/resolve.py, RFC 1808 §4 or
the other modes) and adds the problem codes of url/diagnose.py, then the walker's own. The codes
this stage adds beside diagnose's: the placement of an iframe srcdoc's container
(:func:`with_problems`) and ``saved-copy`` (:func:`saved_copies`).
"""

from __future__ import annotations

import codecs
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..base.layers import Base, BaseSource
from ..compiled import load as load_compiled
from ..errors import BaselinksError
from ..load.containers.entries import Origin
from ..load.tokens import ASCII_WHITESPACE
from ..url import canonical as _canonical
from ..url import surt as _surt
from ..url.diagnose import diagnose, mentions_saved_folder, saved_copy
from ..url.resolve import Resolver, encoding_parse

if TYPE_CHECKING:
    from ..find.walk import RawLink

__all__ = [
    "CHOOSABLE",
    "COMPUTED_FIELDS",
    "DEFAULT_FIELDS",
    "FIELDS",
    "ORIGIN_AT",
    "ORIGIN_FIELDS",
    "OWN_FIELDS",
    "URL_FORMS",
    "Link",
    "Linker",
    "Origin",
    "computed",
    "saved_copies",
    "with_problems",
]

_NOWHERE = Origin()  # a Link made by hand: no document it came from


class Link(NamedTuple):
    """One link, absolute, with where it came from and which base made it so.

    An immutable record. A named tuple rather than a frozen dataclass: building one took 2.3 µs
    against 0.4 µs, for every link; and it pickles small, for ``workers``.

    Its twelve fields and ``nofollow``, ``hreflang``, then ``origin``: where its document is
    stored and the page's own URL,
    one :class:`Origin` shared by all the links of a document (no work per link), read as eight
    fields of the link (``link.offset``, ``link.page_url``...) and written flattened, as the
    fields of :data:`ORIGIN_FIELDS`. ``page_url`` is there, not among the twelve, because it is
    the document's (one value per page, as ``file`` is), and so that CSV and TSV keep their
    default twelve columns.
    """

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
    # Whether the page asks a crawler not to follow it: a rel="nofollow" on its element (or
    # its Link header), or the page's own robots directives (find/directives.py): <meta
    # name=robots content=nofollow>, an X-Robots-Tag header, each also by "none".
    nofollow: bool = False
    # The element's hreflang (a, area, link; a Link header's), as written, stripped: the
    # language of what it links to (#attr-hyperlink-hreflang); "" when none.
    hreflang: str = ""
    origin: Origin = _NOWHERE

    # The origin's fields, read as the link's own (the names of ORIGIN_FIELDS).
    @property
    def file(self) -> str | None:
        """The input the document was read from, as named (``-`` for stdin or bytes)."""
        return self.origin.file

    @property
    def offset(self) -> int | None:
        """The byte offset of its WARC or ARC record in ``file`` (a .warc.gz: its member's)."""
        return self.origin.offset

    @property
    def length(self) -> int | None:
        """The length of that record as stored (a .warc.gz: its member's, compressed)."""
        return self.origin.length

    @property
    def record_id(self) -> str | None:
        """The record's ``WARC-Record-ID``."""
        return self.origin.record_id

    @property
    def date(self) -> str | None:
        """The record's ``WARC-Date`` (an ARC record's date, in the same form)."""
        return self.origin.date

    @property
    def part(self) -> str | None:
        """The MIME part's path in its message, as IMAP numbers parts (``1.2``)."""
        return self.origin.part

    @property
    def page_url(self) -> str | None:
        """The URL of the page the link was found on, before any ``<base>`` (None: unknown)."""
        return self.origin.page_url

    @property
    def revisit_of(self) -> str | None:
        """For a link of a ``revisit`` record's page, found in its original's payload: that
        record's ``WARC-Record-ID``; None for a link of a record's own payload."""
        return self.origin.revisit_of

    # Canonical forms of the URL (url/canonical.py, url/surt.py), computed when read, never
    # stored: extraction without them costs nothing (:data:`COMPUTED_FIELDS`).
    @property
    def host(self) -> str | None:
        """The URL's host, normalised as a browser contacts it (:func:`~.canonical.host`)."""
        return _canonical.host(self.url)

    @property
    def domain(self) -> str | None:
        """The host's registered domain by the Public Suffix List, ICANN section
        (:func:`~.canonical.domain`); None for an IP address."""
        return _canonical.domain(self.url)

    @property
    def surt(self) -> str | None:
        """The URL's SURT key, as CDX indexes write it (:func:`~.surt.surt`)."""
        return _surt.surt(self.url)

    @property
    def canonical(self) -> str | None:
        """The URL normalised for deduplication (:func:`~.canonical.canonical`)."""
        return _canonical.canonical(self.url)

    @property
    def page_host(self) -> str | None:
        """The host of the page the link was found on (of ``page_url``), as :attr:`host`."""
        return None if self.page_url is None else _canonical.host(self.page_url)

    @property
    def page_domain(self) -> str | None:
        """The registered domain of the page the link was found on, as :attr:`domain`."""
        return None if self.page_url is None else _canonical.domain(self.page_url)

    def values(self) -> tuple[Any, ...]:
        """The values of :data:`FIELDS`, in order: the link's own, then the origin's eight (and
        the computed fields, on a record :func:`computed` made)."""
        return self[:-1] + self[-1]

    def as_dict(self) -> dict[str, Any]:
        """The record as JSON types, keyed by :data:`FIELDS`: every field a str, an int or
        None; problems a list."""
        record: dict[str, Any] = dict(zip(FIELDS, self.values(), strict=True))
        record["problems"] = list(self.problems)
        return record


# The link's own fields, in the order written: the twelve, then nofollow and hreflang.
OWN_FIELDS: tuple[str, ...] = Link._fields[:-1]
# What CSV, TSV (and the text and table layouts) write by default: the twelve of the contract
# (the columns a script reading CSV by position has always had; the rest with --fields).
DEFAULT_FIELDS: tuple[str, ...] = OWN_FIELDS[:12]
# Where its document is stored, after them (JSON Lines writes them always, null where a field
# does not apply; CSV and TSV with --fields).
ORIGIN_FIELDS: tuple[str, ...] = Origin._fields
# Every field a record can be written with, in the order written.
FIELDS: tuple[str, ...] = OWN_FIELDS + ORIGIN_FIELDS
# A Link's item at this index is its Origin; its own fields come before it.
ORIGIN_AT = len(OWN_FIELDS)
# Forms of the URL computed from it when asked for (--fields, --unique-by, a graph), written
# after FIELDS; no format writes them unless they are chosen. page_host and page_domain are the
# host and domain of the page's own URL (page_url; None where it is not known).
URL_FORMS: tuple[str, ...] = ("host", "domain", "surt", "canonical")
COMPUTED_FIELDS: tuple[str, ...] = (*URL_FORMS, "page_host", "page_domain")
# Every field a format can be asked to write.
CHOOSABLE: tuple[str, ...] = FIELDS + COMPUTED_FIELDS


class _Computed(NamedTuple):
    """An Origin with the computed fields after it: the last item of a record
    :func:`computed` made, so that a field's index in :data:`CHOOSABLE` finds it as the
    origin's fields are found (the writers read ``record[ORIGIN_AT][index - ORIGIN_AT]``)."""

    file: str | None
    offset: int | None
    length: int | None
    record_id: str | None
    date: str | None
    part: str | None
    page_url: str | None
    revisit_of: str | None
    host: str | None
    domain: str | None
    surt: str | None
    canonical: str | None
    page_host: str | None
    page_domain: str | None


def _of_page(make: Any) -> Any:
    # a form of the page's own URL, the origin's page_url (None: not known)
    return lambda link: None if link.origin.page_url is None else make(link.origin.page_url)


def _of_url(make: Any) -> Any:
    return lambda link: make(link.url)


# each computed field: Link -> its value
_COMPUTE = {
    "host": _of_url(_canonical.host),
    "domain": _of_url(_canonical.domain),
    "surt": _of_url(_surt.surt),
    "canonical": _of_url(_canonical.canonical),
    "page_host": _of_page(_canonical.host),
    "page_domain": _of_page(_canonical.domain),
}


def computed(fields: tuple[str, ...], links: Sequence[Link]) -> list[Link]:
    """``links`` as records that also hold the computed ``fields`` among theirs (the others of
    :data:`COMPUTED_FIELDS` None), for a writer asked for them: the same Link, its origin an
    Origin with those values after it. Run where the links are rendered (a worker)."""
    makers = [_COMPUTE[name] if name in fields else None for name in COMPUTED_FIELDS]
    made = []
    for link in links:
        extra = tuple(None if make is None else make(link) for make in makers)
        made.append(_new(Link, (*link[:ORIGIN_AT], _new(_Computed, link.origin + extra))))
    return made


# The distinct references a Linker keeps resolved (its memo): a document handed on as it is
# read (a sitemap of a million URLs) kept every one to its end, half of what it held (issue
# 36); past this many, the memo starts again (a repeated reference is resolved once more).
MEMO_KEPT = 1 << 16


class Linker:
    """The resolve stage for one document: raw links against its base, with problem codes.

    Where the compiled module is built, ``Linker(...)`` is a :class:`_CompiledLinker`, the
    same class with :meth:`link` in C; this one is the reference it is tested against.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Linker:
        return object.__new__(cls if _CompiledLinker is None else _CompiledLinker)

    def __init__(
        self,
        base: Base,
        mode: str,
        name: str,
        query_codec: codecs.CodecInfo | None = None,
        document_url: Base | None = None,
        origin: Origin | None = None,
        nofollow: bool = False,
    ) -> None:
        self.base = base
        # the page's own robots directives say nofollow (find/directives.py): every link
        self.nofollow = nofollow
        self.origin = Origin(name) if origin is None else origin  # shared by every link
        # the document's own URL (its base without <base>: §3.2 or §3.3), for an empty action
        self.document_url = base if document_url is None else document_url
        self.source = base.source.value
        self.mode = mode
        self.name = name
        self.query_codec = query_codec
        self.resolver = Resolver(base.url, mode)
        self.codebases: dict[str, Resolver] = {}
        # reference as written (stripped) -> (url, problems), against the document's base;
        # at most MEMO_KEPT, then it starts again
        self.memo: dict[str, tuple[str, tuple[str, ...]]] = {}
        # the document's own URL resolved (an empty form action), once a document
        self.form_document: tuple[str, tuple[str, ...]] | None = None

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
        # The hot path (once per link): a tuple unpacked, one dictionary lookup when the
        # document repeats a reference (a quarter of the corpus's links), and the record built
        # with tuple.__new__, skipping NamedTuple's Python-level __new__.
        written, tag, attr, kind, line, text, rel, codebase, found_problems, _, hreflang = raw
        # "Attribute values are stripped of leading and trailing ASCII whitespace" (HTML: "a
        # valid URL potentially surrounded by spaces"); `raw` keeps them as written.
        value = written.strip(ASCII_WHITESPACE)
        if codebase and codebase.strip(ASCII_WHITESPACE):
            url, problems, base, source = self._against_codebase(value, codebase)
        elif not value and kind == "form":
            url, problems, base, source = self._form_document()
        else:
            found = self.memo.get(value)
            if found is None:
                if len(self.memo) >= MEMO_KEPT:
                    self.memo.clear()
                found = self.memo[value] = self._resolve(self.resolver, value)
            url, problems = found
            base, source = self.resolver.base, self.source
        if found_problems:
            problems += found_problems  # the walker's: after the resolver's, in a fixed order
        # https://html.spec.whatwg.org/#link-type-nofollow: "the link is not endorsed by the
        # original author or publisher of the page" (rel is lower case, single spaces)
        nofollow = self.nofollow or ("nofollow" in rel and "nofollow" in rel.split())
        return _new(
            Link,
            (
                url,
                written,
                base,
                source,
                tag,
                attr,
                line,
                self.name,
                text,
                rel,
                kind,
                problems,
                nofollow,
                hreflang,
                self.origin,
            ),
        )

    def _resolve(self, resolver: Resolver, value: str) -> tuple[str, tuple[str, ...]]:
        codec = self.query_codec
        try:
            # without a codec (UTF-8, or a mode that has none) encoding_parse is resolve: called
            # directly, one Python call fewer for each distinct reference
            url: str | None = (
                resolver.resolve(value) if codec is None else encoding_parse(resolver, value, codec)
            )
        except BaselinksError:
            url = None  # kept, with "unresolvable": never dropped, never fatal
        problems = diagnose(resolver.base, value, url)
        return value if url is None else url, problems

    def _form_document(self) -> tuple[str, tuple[str, ...], str, str]:
        # https://html.spec.whatwg.org/#form-submission-algorithm: "If action is the empty
        # string, let action be the URL of the form document", then encoding-parsed: the
        # document's URL as the mode writes it, whatever <base> says. An action (or formaction)
        # of spaces only is the document's URL too: the standard's letter would parse it, as
        # "", against the base, but Blink and WebKit strip it first (FormSubmission::
        # Attributes::ParseAction) and submit to the document, and where the form goes is
        # the link (fixture: form-action-document-url.html; `form.action` in Chromium agrees).
        document = self.document_url
        if self.form_document is None:
            self.form_document = self._resolve(Resolver(document.url, self.mode), document.url)
        return (*self.form_document, document.url, document.source.value)

    def _against_codebase(self, value: str, codebase: str) -> tuple[str, tuple[str, ...], str, str]:
        resolver = self._codebase(codebase.strip(ASCII_WHITESPACE))
        # the codebase attribute is a base in the content
        source = self.source if resolver is self.resolver else BaseSource.CONTENT.value
        return (*self._resolve(resolver, value), resolver.base, source)


_new = tuple.__new__

# The compiled Linker.link (url/_cresolve.pyx), or None: not built, or BASELINKS_PURE=1
# (compiled.py). Linker.link above is the reference (tests/test_compiled_resolve.py).
_cresolve: Any = load_compiled("baselinks.url._cresolve")
_CompiledLinker: type[Linker] | None = None
if _cresolve is not None:
    _cresolve.bind_link(globals())

    class _Compiled(Linker):
        """:class:`Linker` with :meth:`link` in C, step for step; its rare paths (a codebase,
        an empty form action) call the methods above."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._c = _cresolve.Records(self)

        link = _cresolve.link_raw

    _CompiledLinker = _Compiled


def with_problems(link: Link, codes: tuple[str, ...]) -> Link:
    """``link`` with ``codes`` added, those it lacks, after its own: the placement codes
    (linktable.PLACEMENTS) of an iframe in <template> or <noscript> on its srcdoc document's
    links."""
    added = tuple(code for code in codes if code not in link.problems)
    return link._replace(problems=link.problems + added) if added else link


def saved_copies(links: list[Link], path: str) -> list[Link]:
    """The links of the file ``path`` that point into the folder a browser saved beside it,
    marked ``saved-copy`` (see diagnose.saved_copy); the others as they are."""
    references = [link.raw for link in links]
    if not mentions_saved_folder(references):  # most pages (22 against 8 ms on the corpus)
        return links
    marks = saved_copy(path, references)
    return [
        link._replace(problems=(*link.problems, "saved-copy")) if marked else link
        for link, marked in zip(links, marks, strict=True)
    ]
