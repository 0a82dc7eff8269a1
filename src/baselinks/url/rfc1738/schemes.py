"""RFC 1738 §5: one reader per scheme's production, and :func:`check` / :func:`analyse`.

Each reader quotes its production and records the components and the problems of one URL in a
:class:`~.grammar.Reader`; a scheme RFC 1738 does not define is read as ``genericurl``.
"""

from __future__ import annotations

from ..parts import SCHEME_RE
from .grammar import ARTICLE_LOCAL, GROUP, Reader, host_code, login, slashes, well_formed
from .rules import ORDER, Analysis, Problem

__all__ = ["SCHEMES", "analyse", "check", "codes"]

# The schemes RFC 1738 defines (§3, "The schemes covered are"), each with its §5 production.
SCHEMES = {
    "ftp": "ftpurl",
    "file": "fileurl",
    "gopher": "gopherurl",
    "http": "httpurl",
    "mailto": "mailtourl",
    "news": "newsurl",
    "nntp": "nntpurl",
    "prospero": "prosperourl",
    "telnet": "telneturl",
    "wais": "waisurl",
}


# What user-not-allowed quotes, per production: the RFC's sentence where it has one, else the
# production that has hostport (or host) where ftpurl and telneturl have login.
_HTTP_USER = "RFC 1738 §3.3: No user name or password is allowed."
_PROSPERO_USER = "RFC 1738 §3.11: No username or password is allowed."
_FILE_USER = 'RFC 1738 §5: fileurl = "file://" [ host | "localhost" ] "/" fpath'
_GOPHER_USER = 'RFC 1738 §5: gopherurl = "gopher://" hostport [ / [ gtype [ selector ...'
_NNTP_USER = 'RFC 1738 §5: nntpurl = "nntp://" hostport "/" group [ "/" digits ]'
_WAIS_USER = 'RFC 1738 §5: waisdatabase = "wais://" hostport "/" database'


def check(url: str) -> tuple[Problem, ...]:
    """The rules of RFC 1738 that ``url`` breaks, in the order of :data:`CODES`; ``()`` when
    none (or when ``url`` is relative, which RFC 1738 does not define)."""
    if well_formed(url):
        return ()
    return analyse(url).problems


def codes(url: str) -> tuple[str, ...]:
    """The codes of :func:`check`, each once, in the order of :data:`CODES`."""
    if ":" not in url or well_formed(url):
        return ()  # no ":", no scheme: a relative reference (or a well-formed http/https URL)
    problems = analyse(url).problems
    if not problems:
        return ()
    found = {problem.code for problem in problems}
    return tuple(sorted(found, key=ORDER.__getitem__))


def analyse(url: str) -> Analysis:
    """Read ``url`` against the production of its scheme: the production, the components, the
    problems (see :func:`check`)."""
    end = url.find("#")
    if end < 0:
        end = len(url)
    match = SCHEME_RE.match(url, 0, end)
    if match is None:
        return Analysis(url, None, (), ())
    colon = match.end() - 1
    scheme = url[:colon].lower()
    production = SCHEMES.get(scheme, "genericurl")
    reader = Reader(url, end)
    reader.part("scheme", 0, colon)
    _READERS.get(scheme, _generic)(reader, colon + 1)
    problems = sorted(reader.problems, key=lambda p: (ORDER[p.code], p.span))
    return Analysis(url, production, tuple(reader.components), tuple(problems))


def _http(r: Reader, start: int) -> None:
    """httpurl = "http://" hostport [ "/" hpath [ "?" search ]]

    §3.3: "No user name or password is allowed." ... "If neither <path> nor <searchpart> is
    present, the "/" may also be omitted."
    """
    if not slashes(r, start):
        return
    stop = login(r, start + 2, user=_HTTP_USER)
    if stop < r.end:
        query = r.url.find("?", stop, r.end)
        if query < 0:
            query = r.end
        r.chars("hpath", stop + 1, query, "path-character")
        if query < r.end:
            r.chars("search", query + 1, r.end, "search-character")


def _ftp(r: Reader, start: int) -> None:
    """ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]"""
    if not slashes(r, start):
        return
    stop = login(r, start + 2)
    if stop < r.end:
        _fpath(r, stop + 1, ftptype=True)


def _fpath(r: Reader, start: int, *, ftptype: bool = False) -> None:
    """fpath = fsegment *[ "/" fsegment ]; and, for ftp, [ ";type=" ftptype ]."""
    url, end = r.url, r.end
    semicolon = url.find(";type=", start, end) if ftptype else -1
    if semicolon < 0:
        r.chars("fpath", start, end, "path-character")
        return
    r.chars("fpath", start, semicolon, "path-character")
    r.part("ftptype", semicolon + 6, end)
    if end - semicolon != 7 or url[semicolon + 6] not in "AIDaid":
        r.flag("invalid-ftptype", "ftptype", semicolon + 6, end)


def _file(r: Reader, start: int) -> None:
    """fileurl = "file://" [ host | "localhost" ] "/" fpath

    §3.10: "As a special case, <host> can be the string "localhost" or the empty string".
    """
    if not slashes(r, start):
        return
    stop = login(r, start + 2, user=_FILE_USER, port=False)
    if stop == r.end:
        r.flag("missing-path", "fpath", stop, stop)
    else:
        _fpath(r, stop + 1)


def _gopher(r: Reader, start: int) -> None:
    """gopherurl = "gopher://" hostport [ / [ gtype [ selector
                   [ "%09" search [ "%09" gopher+_string ] ] ] ] ]

    gtype, selector and gopher+_string are xchar (escapes included), so the gopher path is
    *xchar: "Within the <gopher-path>, no characters are reserved." (§3.4)
    """
    if not slashes(r, start):
        return
    stop = login(r, start + 2, user=_GOPHER_USER)
    if stop < r.end:
        r.chars("selector", stop + 1, r.end, "path-character")


def _telnet(r: Reader, start: int) -> None:
    """telneturl = "telnet://" login [ "/" ]  (§3.8: "The final "/" character may be omitted.")"""
    if not slashes(r, start):
        return
    stop = login(r, start + 2)
    if stop + 1 < r.end:
        r.part("path", stop + 1, r.end)
        r.flag("telnet-path", "path", stop + 1, r.end)


def _nntp(r: Reader, start: int) -> None:
    """nntpurl = "nntp://" hostport "/" group [ "/" digits ]"""
    if not slashes(r, start):
        return
    stop = login(r, start + 2, user=_NNTP_USER)
    if stop == r.end:
        r.flag("missing-path", "group", stop, stop)
        return
    r.part("group", stop + 1, r.end)
    group = GROUP.match(r.url, stop + 1, r.end)
    rest = r.url[group.end() if group else stop + 1 : r.end]
    if group is None or not (rest == "" or (rest[:1] == "/" and rest[1:].isdigit())):
        r.flag("nntp-path", "group", stop + 1, r.end)


def _wais(r: Reader, start: int) -> None:
    """waisurl        = waisdatabase | waisindex | waisdoc
    waisdatabase   = "wais://" hostport "/" database
    waisindex      = "wais://" hostport "/" database "?" search
    waisdoc        = "wais://" hostport "/" database "/" wtype "/" wpath
    """
    if not slashes(r, start):
        return
    url, end = r.url, r.end
    stop = login(r, start + 2, user=_WAIS_USER)
    if stop == end:
        r.flag("missing-path", "database", stop, stop)
        return
    query = url.find("?", stop, end)
    if query >= 0:
        r.chars("database", stop + 1, query, "path-character")
        r.chars("search", query + 1, end, "search-character")
        return
    slash = url.find("/", stop + 1, end)
    if slash < 0:
        r.chars("database", stop + 1, end, "path-character")
        return
    second = url.find("/", slash + 1, end)
    if second < 0:
        r.part("database", stop + 1, end)
        r.flag("wais-path", "database", stop + 1, end)
        return
    r.chars("database", stop + 1, slash, "path-character")
    r.chars("wtype", slash + 1, second, "path-character")
    r.chars("wpath", second + 1, end, "path-character")


def _prospero(r: Reader, start: int) -> None:
    """prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]
    fieldspec   = ";" fieldname "=" fieldvalue

    §3.11: "No username or password is allowed."
    """
    if not slashes(r, start):
        return
    url, end = r.url, r.end
    stop = login(r, start + 2, user=_PROSPERO_USER)
    if stop == end:
        r.flag("missing-path", "ppath", stop, stop)
        return
    semicolon = url.find(";", stop, end)
    if semicolon < 0:
        semicolon = end
    r.chars("ppath", stop + 1, semicolon, "path-character")
    while semicolon < end:
        following = url.find(";", semicolon + 1, end)
        if following < 0:
            following = end
        r.chars("fieldspec", semicolon + 1, following, "path-character")
        if url.count("=", semicolon + 1, following) != 1:
            r.flag("prospero-fieldspec", "fieldspec", semicolon, following)
        semicolon = following


def _mailto(r: Reader, start: int) -> None:
    """mailtourl = "mailto:" encoded822addr; encoded822addr = 1*xchar"""
    if start == r.end:
        r.part("encoded822addr", start, start)
        r.flag("empty-mailto", "encoded822addr", start, start)
        return
    r.chars("encoded822addr", start, r.end, "schemepart-character")


def _news(r: Reader, start: int) -> None:
    """newsurl   = "news:" grouppart
    grouppart = "*" | group | article
    group     = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
    article   = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
    """
    url, end = r.url, r.end
    r.part("grouppart", start, end)
    at = url.rfind("@", start, end)
    if url[start:end] == "*":
        return
    if at < 0:
        ok = GROUP.fullmatch(url, start, end) is not None
    else:
        local = ARTICLE_LOCAL.fullmatch(url, start, at) is not None
        ok = local and host_code(url[at + 1 : end]) is None
    if not ok:
        r.flag("news-grouppart", "grouppart", start, end)


def _generic(r: Reader, start: int) -> None:
    """genericurl     = scheme ":" schemepart
    schemepart     = *xchar | ip-schemepart
    ip-schemepart  = "//" login [ "/" urlpath ]
    urlpath        = *xchar    ; depends on protocol see section 3.1
    """
    if r.url.startswith("//", start, r.end):
        stop = login(r, start + 2)
        if stop < r.end:
            r.chars("urlpath", stop + 1, r.end, "path-character")
    else:
        r.chars("schemepart", start, r.end, "schemepart-character")


_READERS = {
    "ftp": _ftp,
    "file": _file,
    "gopher": _gopher,
    "http": _http,
    "mailto": _mailto,
    "news": _news,
    "nntp": _nntp,
    "prospero": _prospero,
    "telnet": _telnet,
    "wais": _wais,
}
