"""Resolution of an embedded URL against a base: RFC 1808 §4 (default), RFC 3986, WHATWG.

``resolve(base, embedded)`` is RFC 1808 §4, Steps 1 to 7, exactly, including every abnormal
example of §5.2 (``../../../g`` gives ``http://a/../g``, ``http:g`` gives ``http:g``).
Where RFC 1808 is silent we decided, and each decision is tested:

(a) A relative path joined to a base with a net_loc and an empty path (``http://a`` + ``g``)
    gets the ``/`` that RFC 1738 §3.1 puts between host and url-path: ``http://a/g``. The
    ``/`` is the base's directory before Step 6 appends the path, so Steps 6a-d see it:
    ``http://a`` + ``.//x`` is ``/.//x``, then ``//x`` (6a), so ``http://a//x``.
(b) In Step 6, an empty segment (from ``//``) is a complete path segment (RFC 1808 §2.2:
    ``segment = *pchar``), so ``..`` removes it: ``a//../b`` becomes ``a/b``.
(c) An empty net_loc that was written (``file:///a/b``) is inherited as present, so
    ``file:///a/b`` + ``c`` is ``file:///a/c``, never ``file:/a/c``.
(d) Step 2a's "entirely empty" embedded URL is the empty string. ``#`` alone has empty
    components too, but it is not "entirely empty": it yields the base without its fragment.
(e) Step 6 may leave a path beginning with ``//`` where neither URL has a net_loc
    (``http:/b/c`` + ``..//evil/x``), and Step 4 may pass one on as written (``http:/b/c`` +
    ``////x``: the embedded net_loc is empty, so the base's absence of one is inherited); Step
    7 writes it ``/.//evil/x`` (``url.recombine``), as "the ".." syntax cannot be used to change
    the <net_loc> of a URL" (§5.2), and no resolution may create a host neither URL had.

Many links share one base, so :class:`Resolver` parses the base once; :func:`resolve` keeps a
small cache of resolvers.
"""

from __future__ import annotations

import codecs
from functools import lru_cache
from typing import Any, ClassVar, Literal, cast

from ..compiled import load as load_compiled
from ..errors import URLError
from . import rfc3986
from .explain import Explanation, Step, trace_rfc1808
from .parts import SCHEME_RE, parse, recombine, split
from .parts import has_dot_segment as _has_dot_segment
from .parts import remove_dot_segments as _remove_dot_segments
from .whatwg import SERIALISED, encode_query

__all__ = [
    "MODES",
    "Explanation",
    "Mode",
    "Resolver",
    "Step",
    "check_mode",
    "encode_query",
    "encoding_parse",
    "explain",
    "resolve",
    "resolver_class",
]


# The modes' names as a type, for ``mode=``: what a type checker checks and an editor offers.
# Written out, since a Literal cannot be made from the registry below (_RESOLVERS, the one
# place a mode is added); test_modes.py checks that the two name the same modes, in order.
Mode = Literal["rfc1808", "rfc3986", "whatwg"]


def check_mode(mode: str) -> Mode:
    """Return ``mode`` if it is one of :data:`MODES`; raise :class:`URLError` otherwise."""
    if mode not in _RESOLVERS:
        raise URLError(f"unknown mode {mode!r}: expected one of {', '.join(MODES)}")
    return cast(Mode, mode)


class Resolver:
    """Resolve many embedded URLs against one base, which is parsed once.

    ``Resolver(base, mode)`` returns the resolver for that mode; ``resolver.resolve(ref)`` is
    ``resolve(base, ref, mode=mode)``. A ``trace`` list, when given, receives each :class:`Step`.

    What the rest of the pipeline must know of a mode is a class attribute here, never a test
    of its name: :func:`resolver_class` gives the class of a mode.
    """

    __slots__ = ("base", "mode")

    #: The parser writes every URL in one normal form (a base too: ``written_base``). RFC 1808
    #: and RFC 3986 resolve components as written and have none.
    serialises: ClassVar[bool] = False
    #: HTML's "encoding-parse a URL" (https://html.spec.whatwg.org/#encoding-parsing-a-url)
    #: hands this parser the document's encoding for the query (:func:`encoding_parse`).
    query_in_document_encoding: ClassVar[bool] = False

    base: str
    mode: str

    def __new__(cls, base: str, mode: str = "rfc1808") -> Resolver:
        if cls is Resolver:
            cls = resolver_class(mode)
        return object.__new__(cls)

    def __init__(self, base: str, mode: str = "rfc1808") -> None:
        self.base = base
        self.mode = mode

    def resolve(self, embedded: str, trace: list[Step] | None = None) -> str:
        raise NotImplementedError  # each mode's subclass implements it

    def __repr__(self) -> str:
        return f"Resolver({self.base!r}, mode={self.mode!r})"


class _RFC1808(Resolver):
    """RFC 1808 §4, Steps 1 to 7."""

    __slots__ = ("_base_parts", "_dir", "_dir_dotty", "_netloc", "_prefix")

    def __init__(self, base: str, mode: str = "rfc1808") -> None:
        super().__init__(base, mode)
        self._base_parts = parts = parse(base)
        scheme, path = parts.scheme, parts.path
        netloc = parts.netloc if parts.has_netloc else None
        self._netloc = netloc
        # What every result that inherits scheme and net_loc begins with (Step 7).
        self._prefix = recombine(
            scheme, netloc or "", "", "", "", "", netloc_present=netloc is not None
        )
        # Step 6: "The last segment of the base URL's path ... is removed". Decision (a): a
        # base with a net_loc and an empty path has the RFC 1738 §3.1 "/" as its directory.
        directory = path[: path.rfind("/") + 1]
        if not directory and netloc is not None:
            directory = "/"
        self._dir = directory
        self._dir_dotty = _has_dot_segment(directory)

    def resolve(self, embedded: str, trace: list[Step] | None = None) -> str:
        # The explain trace takes a path of its own, _explain, chosen by measurement
        # (benchmarks/bench_resolve.py --against, the corpus's 129,396 pairs, 31 interleaved
        # runs; the quietest of five sessions): this code 1168 ns a pair (median; range
        # 1100-1220); with the trace threaded through as 16 "if trace is not None:" blocks,
        # 1232 (1179-1359); as a note() callback, a no-op when not tracing (rfc3986.transform's
        # way), 1442 (1379-1498), +17% (+6% to +22% over the five). tests/test_properties.py
        # keeps the two paths equal.
        if trace is not None:
            return trace_rfc1808(self, embedded, trace)
        # Step 1: "If the base URL is the empty string (unknown), the embedded URL is
        # interpreted as an absolute URL and we are done."
        if not self.base:
            return embedded
        # Step 2: "Both the base and embedded URLs are parsed into their component parts as
        # described in Section 2.4." (The base was parsed in __init__, the embedded URL below.)
        # Step 2a: "If the embedded URL is entirely empty, it inherits the entire base URL".
        if not embedded:
            return self.base
        # Step 2b: "If the embedded URL starts with a scheme name, it is interpreted as an
        # absolute URL and we are done." (A "#" before the colon would hide it, as §2.4.1
        # removes the fragment first; SCHEME_RE cannot match across a "#".)
        if SCHEME_RE.match(embedded) is not None:
            return embedded
        _, netloc, path, params, query, fragment = split(embedded)
        # Step 2c: "Otherwise, the embedded URL inherits the scheme of the base URL."
        scheme = self._base_parts.scheme
        # Step 3: "If the embedded URL's <net_loc> is non-empty, we skip to Step 7. Otherwise,
        # the embedded URL inherits the <net_loc> (if any) of the base URL."
        if netloc:
            return recombine(scheme, netloc, path, params, query, fragment)  # Step 7
        netloc = self._netloc
        # Step 4: "If the embedded URL path is preceded by a slash "/", the path is not
        # relative and we skip to Step 7."
        if path[:1] == "/":
            if params:
                path += ";" + params
            if query:
                path += "?" + query
            # Step 7, as recombine writes it: decision (e) for a "//" path with no net_loc
            prefix = (
                self._prefix + "/." if path[:2] == "//" and self._netloc is None else self._prefix
            )
            return prefix + path + (f"#{fragment}" if fragment else "")
        # Step 5: "If the embedded URL path is empty (and not preceded by a slash), then the
        # embedded URL inherits the base URL path, and
        if not path:
            path = self._base_parts.path
            # a) if the embedded URL's <params> is non-empty, we skip to step 7; otherwise, it
            #    inherits the <params> of the base URL (if any) and
            if not params:
                params = self._base_parts.params
                # b) if the embedded URL's <query> is non-empty, we skip to step 7; otherwise,
                #    it inherits the <query> of the base URL (if any) and we skip to step 7."
                if not query:
                    query = self._base_parts.query
        else:
            # Step 6: "The last segment of the base URL's path ... is removed and the embedded
            # URL's path is appended in its place." Then operations a) to d), in order.
            dotty = self._dir_dotty or _has_dot_segment(path)
            path = self._dir + path
            if dotty:
                if path[:1] == "/":
                    path = "/" + _remove_dot_segments(path[1:])
                else:
                    path = _remove_dot_segments(path)
        # Step 7: "The resulting URL components, including any inherited from the base URL, are
        # recombined to give the absolute form of the embedded URL."
        return recombine(
            scheme, netloc or "", path, params, query, fragment, netloc_present=netloc is not None
        )


# The compiled RFC 1808 resolver (_cresolve.pyx), or None: not built, or BASELINKS_PURE=1
# (compiled.py). _RFC1808 above is the reference it is tested against.
_cresolve: Any = load_compiled("baselinks.url._cresolve")
_RFC1808_CLASS: type[_RFC1808] = _RFC1808
if _cresolve is not None:
    _cresolve.bind_resolve(globals())

    class _CompiledRFC1808(_RFC1808):
        """:class:`_RFC1808` with :meth:`resolve` in C, step for step (``_explain`` stays
        Python): the base parsed here, then handed to the compiled ``RFC1808`` as ``_c``."""

        __slots__ = ("_c",)

        def __init__(self, base: str, mode: str = "rfc1808") -> None:
            super().__init__(base, mode)
            self._c = _cresolve.RFC1808(self)

        resolve = _cresolve.resolve_rfc1808

    _RFC1808_CLASS = _CompiledRFC1808


class _RFC3986(Resolver):
    """RFC 3986 §5.2 (strict); an empty base leaves a relative reference as it is."""

    __slots__ = ("_base",)

    def __init__(self, base: str, mode: str = "rfc3986") -> None:
        super().__init__(base, mode)
        self._base = rfc3986.parse(base)

    def resolve(self, embedded: str, trace: list[Step] | None = None) -> str:
        ref = rfc3986.parse(embedded)
        if not self.base and ref.scheme is None:
            if trace is not None:
                trace.append(
                    Step(
                        "5.1.4",
                        "no base URI is known: the reference stays as it is",
                        parse(embedded),
                    )
                )
            return embedded
        steps: list[tuple[str, str]] | None = [] if trace is not None else None
        result = rfc3986.recompose(rfc3986.transform(self._base, ref, steps))
        if trace is not None and steps is not None:
            trace.extend(Step(rule, why, parse(result)) for rule, why in steps)
            trace.append(Step("5.3", f"recomposed: {result}", parse(result)))
        return result


class _WHATWG(Resolver):
    """The URL Standard's basic URL parser (https://url.spec.whatwg.org/#concept-basic-url-parser),
    through ada-url; the references the parser would write back unchanged, without it."""

    __slots__ = ("_join", "_origin", "_plain", "_scheme", "_url", "_valid")
    serialises = True
    query_in_document_encoding = True

    def __init__(self, base: str, mode: str = "whatwg") -> None:
        super().__init__(base, mode)
        # Imported here, once per resolver: the other modes, and `baselinks --version`
        # (tests/test_layout.py), never load ada-url.
        import ada_url

        self._join: Any = ada_url.join_url
        self._url: Any = ada_url.URL
        # What the fast path (_serialised) needs of the base, found once: whether the parser
        # accepts it (a base it cannot parse fails every reference, an absolute one too), and,
        # for an http(s) base that the parser writes back unchanged, its scheme, the origin
        # part every path-absolute reference inherits, and the base without its fragment.
        self._valid = not base
        self._scheme = self._origin = self._plain = ""
        if base:
            try:
                written = self._url(base).href
            except ValueError:
                written = None
            self._valid = written is not None
            if written == base and base.startswith(("http://", "https://")):
                self._scheme = base[: base.index(":")]
                self._origin = base[: base.index("/", len(self._scheme) + 3)]
                self._plain = base.partition("#")[0]

    def resolve(self, embedded: str, trace: list[Step] | None = None) -> str:
        if trace is None and self._valid:
            fast = self._serialised(embedded)
            if fast is not None:
                return fast
        try:
            if self.base:
                result: str = self._join(self.base, embedded)
            else:
                result = self._url(embedded).href
        except ValueError:
            raise URLError(
                f"cannot resolve {embedded!r} against {self.base!r} (WHATWG URL parser)"
            ) from None
        if trace is not None:
            trace.append(
                Step("URL parser", f"WHATWG basic URL parser (ada-url): {result}", parse(result))
            )
        return result

    def _serialised(self, embedded: str) -> str | None:
        """What the URL parser returns for ``embedded`` when that is the reference itself
        (an absolute http(s) URL already in the form the URL serializer writes) or the
        reference after the base's scheme, origin or the base itself (``//host/path``,
        ``/path``, ``#fragment``); ``None`` for any other reference, which goes to ada-url.

        The parser of ada-url costs 18,000 instructions a call from Python (four cffi calls,
        each releasing the GIL, the base parsed again each time), and 82% of the corpus's
        whatwg references are of these four shapes. The shapes are narrower than the URL
        Standard allows (:data:`whatwg.SERIALISED`), and tests/test_whatwg_fast.py checks
        every answer given here against ada-url's, on a table of near misses and on arbitrary
        text.
        """
        match = SERIALISED.fullmatch(embedded)
        if match is None or "/." in embedded or "%2e" in embedded or "%2E" in embedded:
            return None  # a dot segment, written or percent-encoded: the parser removes it
        shape = match.lastgroup
        if shape == "absolute":
            return embedded
        if not self._origin:
            return None
        if shape == "path":
            return self._origin + embedded
        if shape == "netloc":
            return f"{self._scheme}:{embedded}"
        return self._plain + embedded  # "fragment"


def encoding_parse(resolver: Resolver, reference: str, codec: codecs.CodecInfo | None) -> str:
    """HTML's "encoding-parse a URL": ``resolver.resolve(reference)``, the query in ``codec``
    (the document's encoding; ``None`` for UTF-8) where the URL Standard says so."""
    url = resolver.resolve(reference)
    if codec is None or reference.isascii():
        return url
    return resolver.resolve(encode_query(reference, url, codec))


# The modes: the one registry. A new mode is a Resolver subclass and a row here; MODES, the
# CLI's --mode choices and the spark driver's are derived from it.
_RESOLVERS: dict[str, type[Resolver]] = {
    "rfc1808": _RFC1808_CLASS,
    "rfc3986": _RFC3986,
    "whatwg": _WHATWG,
}
MODES = tuple(_RESOLVERS)


def resolver_class(mode: str) -> type[Resolver]:
    """The :class:`Resolver` subclass of ``mode``, whose class attributes say what the mode
    does; an unknown mode raises :class:`URLError`."""
    return _RESOLVERS[check_mode(mode)]


@lru_cache(maxsize=64)
def _cached(base: str, mode: str) -> Resolver:
    return Resolver(base, mode)


def resolve(base: str, embedded: str, *, mode: Mode = "rfc1808") -> str:
    """Resolve ``embedded`` against ``base`` in ``mode`` (``rfc1808``, ``rfc3986``, ``whatwg``).

    rfc1808 and rfc3986 never raise on any text; whatwg raises :class:`URLError` when the URL
    parser fails. An unknown mode raises :class:`URLError` (a ``ValueError``).
    """
    return _cached(base, check_mode(mode)).resolve(embedded)


def explain(base: str, embedded: str, *, mode: Mode = "rfc1808") -> Explanation:
    """Resolve as :func:`resolve` does and return every step taken, with the components after it."""
    trace: list[Step] = []
    result = Resolver(base, check_mode(mode)).resolve(embedded, trace)
    return Explanation(base, embedded, mode, result, tuple(trace))
