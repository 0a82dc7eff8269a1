"""RFC 1738 §3 and §5: a URL checked against the production of its scheme.

RFC 1738 §5 gives a BNF for each scheme it defines (``httpurl``, ``ftpurl``, ``fileurl``,
``gopherurl``, ``mailtourl``, ``newsurl``, ``nntpurl``, ``telneturl``, ``waisurl``,
``prosperourl``) and ``genericurl`` for the rest. :func:`check` reads a URL against the
production of its scheme ("the scheme is in lower case; interpreters should use case-ignore")
and returns a :class:`Problem` for each rule it breaks; :func:`analyse` also says which
production was used and where each component lies, for ``baselinks check``.

Hand-written, component by component, rather than one regular expression per production: a
regular expression says only *that* a URL does not match, and we want to say *which* rule
breaks and *where*. Each component is still checked by one compiled expression (a character
class, or a production such as ``hostname``), each written so that it cannot backtrack. The
common case, a well-formed ``http``/``https`` URL, is one ``fullmatch`` (:data:`_FAST`).

Reading decisions, each in ``docs/reference.md`` ("RFC 1738 rules checked"):

* The fragment (from the first ``#``) is not part of the URL (RFC 1808 §2.4.1) and is not
  checked; a relative reference (no scheme) is not an RFC 1738 URL and gives no problem.
* ``genericurl``'s ``schemepart = *xchar | ip-schemepart``: a schemepart that begins with
  ``//`` claims the second ("The scheme specific data start with a double slash "//" to
  indicate that it complies with the common Internet scheme syntax", §3.1), so ``https://``
  URLs get their login, host and port checked.
* Where the net_loc splits into user, password, host and port is ``url.login_bounds``, the
  reading of :meth:`URLParts.login`; what that reading tolerates is reported here.
* A bracketed IPv6 literal (RFC 2732, which amends the host production) is accepted as a host.

Standard library only.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .url import SCHEME_RE, login_bounds

__all__ = ["CODES", "RULES", "Analysis", "Component", "Problem", "Rule", "analyse", "check"]


class Rule(NamedTuple):
    """One rule checked: its code, the RFC's section and words, and a URL that breaks it."""

    code: str
    section: str
    text: str
    example: str


class Problem(NamedTuple):
    """A rule broken: ``url[span[0]:span[1]]`` is where, in ``component`` (named as in the
    RFC's BNF); ``rule`` quotes the RFC."""

    code: str
    component: str
    span: tuple[int, int]
    rule: str


class Component(NamedTuple):
    """A component of the URL as the production reads it: ``url[start:end]``."""

    name: str
    start: int
    end: int


class Analysis(NamedTuple):
    """What :func:`analyse` found: the production matched against (``None`` for a relative
    reference), the components in order, and the problems."""

    url: str
    production: str | None
    components: tuple[Component, ...]
    problems: tuple[Problem, ...]


# The rules, in the order of their codes in ``problems``. The docs table is checked against it.
RULES = (
    Rule(
        "missing-double-slash",
        "§3.1",
        'The scheme specific data start with a double slash "//" to indicate that it complies '
        'with the common Internet scheme syntax. (§5: httpurl = "http://" hostport ...)',
        "http:g",
    ),
    Rule("user-not-allowed", "§3.3", "No user name or password is allowed.", "http://u:pw@h/"),
    Rule(
        "login-delimiter",
        "§3.1",
        'Within the user and password field, any ":", "@", or "/" must be encoded.',
        "ftp://a:b:c@h/",
    ),
    Rule("user-character", "§5", 'user = *[ uchar | ";" | "?" | "&" | "=" ]', "ftp://a~b@h/"),
    Rule(
        "password-character", "§5", 'password = *[ uchar | ";" | "?" | "&" | "=" ]', "ftp://a:~@h/"
    ),
    Rule("empty-host", "§5", "host = hostname | hostnumber", "http:///x"),
    Rule(
        "invalid-hostname",
        "§3.1",
        'a sequence of domain labels separated by ".", each domain label starting and ending '
        'with an alphanumerical character and possibly also containing "-" characters. The '
        "rightmost domain label will never start with a digit",
        "http://ho_st/",
    ),
    Rule(
        "invalid-hostnumber",
        "§3.1",
        'its IP address as a set of four decimal digit groups separated by "."',
        "http://1.2.3.4.5/",
    ),
    Rule("empty-port", "§3.1", "If the port is omitted, the colon is as well.", "http://h:/"),
    Rule("invalid-port", "§5", "port = digits", "http://h:abc/"),
    Rule(
        "port-not-allowed",
        "§5",
        'fileurl = "file://" [ host | "localhost" ] "/" fpath',
        "file://h:80/x",
    ),
    Rule(
        "missing-path",
        "§5",
        'fileurl = "file://" [ host | "localhost" ] "/" fpath (and nntpurl, waisurl, '
        'prosperourl: hostport "/" ...)',
        "file://h",
    ),
    Rule(
        "path-character",
        "§5",
        "the url-path's production: hsegment, fsegment, psegment, database, selector, "
        "urlpath = *xchar ...",
        "http://h/~user/",
    ),
    Rule(
        "search-character",
        "§5",
        'search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]',
        "http://h/?a=/b",
    ),
    Rule(
        "invalid-ftptype",
        "§5",
        'ftptype = "A" | "I" | "D" | "a" | "i" | "d"',
        "ftp://h/f;type=x",
    ),
    Rule("telnet-path", "§3.8", 'telneturl = "telnet://" login [ "/" ]', "telnet://h/path"),
    Rule("empty-mailto", "§5", "encoded822addr = 1*xchar", "mailto:"),
    Rule("news-grouppart", "§5", 'grouppart = "*" | group | article', "news:1group"),
    Rule(
        "nntp-path", "§5", 'nntpurl = "nntp://" hostport "/" group [ "/" digits ]', "nntp://h/g/x"
    ),
    Rule("wais-path", "§5", "waisurl = waisdatabase | waisindex | waisdoc", "wais://h/db/t"),
    Rule(
        "prospero-fieldspec",
        "§5",
        'fieldspec = ";" fieldname "=" fieldvalue',
        "prospero://h/p;x",
    ),
    Rule("schemepart-character", "§5", "schemepart = *xchar | ip-schemepart", "foo:a~b"),
)
CODES = tuple(rule.code for rule in RULES)
_ORDER = {code: index for index, code in enumerate(CODES)}
_TEXT = {rule.code: f"RFC 1738 {rule.section}: {rule.text}" for rule in RULES}

# --- §5 "Miscellaneous definitions", as regular-expression character classes -----------------
#   safe           = "$" | "-" | "_" | "." | "+"
#   extra          = "!" | "*" | "'" | "(" | ")" | ","
#   reserved       = ";" | "/" | "?" | ":" | "@" | "&" | "="
#   escape         = "%" hex hex
#   unreserved     = alpha | digit | safe | extra
#   uchar          = unreserved | escape
#   xchar          = unreserved | reserved | escape
_UNRESERVED = r"A-Za-z0-9$\-_.+!*'(),"


def _bad(extra: str) -> re.Pattern[str]:
    """The first character outside ``*[ uchar | <extra> ]``: any other character, or a ``%``
    that does not begin an escape. One character class or a fixed lookahead: no backtracking."""
    return re.compile(rf"[^{_UNRESERVED}{extra}%]|%(?![0-9A-Fa-f]{{2}})")


# The character set of each component (the grammar's productions, each quoted).
_PRODUCTIONS = {
    # user = *[ uchar | ";" | "?" | "&" | "=" ]; ":" and "@" are reported as login-delimiter
    "user": ('user = *[ uchar | ";" | "?" | "&" | "=" ]', _bad(r";?&=:@")),
    "password": ('password = *[ uchar | ";" | "?" | "&" | "=" ]', _bad(r";?&=:@")),
    # hpath = hsegment *[ "/" hsegment ]; hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]
    "hpath": ('hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]', _bad(r";:@&=/")),
    # search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]
    "search": ('search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]', _bad(r";:@&=")),
    # fpath = fsegment *[ "/" fsegment ]; fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]
    "fpath": ('fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]', _bad(r"?:@&=/")),
    # ppath = psegment *[ "/" psegment ]; psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]
    "ppath": ('psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]', _bad(r"?:@&=/")),
    # fieldname = *[ uchar | "?" | ":" | "@" | "&" ]; fieldvalue the same
    # (the one "=" between them is allowed here; prospero-fieldspec counts it)
    "fieldspec": ('fieldname = *[ uchar | "?" | ":" | "@" | "&" ]', _bad(r"?:@&=")),
    # database = *uchar; wtype = *uchar; wpath = *uchar
    "database": ("database = *uchar", _bad("")),
    "wtype": ("wtype = *uchar", _bad("")),
    "wpath": ("wpath = *uchar", _bad("")),
    # gtype = xchar; selector = *xchar; gopher+_string = *xchar
    "selector": ("selector = *xchar", _bad(r";/?:@&=")),
    # urlpath = *xchar ; depends on protocol see section 3.1
    "urlpath": ("urlpath = *xchar", _bad(r";/?:@&=")),
    # schemepart = *xchar | ip-schemepart; encoded822addr = 1*xchar
    "schemepart": ("schemepart = *xchar", _bad(r";/?:@&=")),
    "encoded822addr": ("encoded822addr = 1*xchar", _bad(r";/?:@&=")),
}

# --- §5 host, possessive quantifiers throughout: nothing is ever given back, so no backtracking -
#   hostname       = *[ domainlabel "." ] toplabel
#   domainlabel    = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit
#   toplabel       = alpha | alpha *[ alphadigit | "-" ] alphadigit
# A label is alphadigits in runs joined by hyphens ("a-b", "a--b"; never "-a" or "a-"); each
# run of hyphens must be followed by an alphadigit, so every split point is forced.
_DOMAINLABEL = r"[A-Za-z0-9]++(?:-++[A-Za-z0-9]++)*+"
_TOPLABEL = r"[A-Za-z][A-Za-z0-9]*+(?:-++[A-Za-z0-9]++)*+"
_HOSTNAME_RE = rf"(?:{_DOMAINLABEL}\.)*+{_TOPLABEL}"
_HOSTNAME = re.compile(_HOSTNAME_RE)
#   hostnumber     = digits "." digits "." digits "." digits
_HOSTNUMBER = re.compile(r"[0-9]++\.[0-9]++\.[0-9]++\.[0-9]++")
# RFC 2732 §2: IPv6reference = "[" IPv6address "]", hex digits, ":" and a dotted IPv4 tail
_IPV6 = re.compile(r"\[[0-9A-Fa-f:.]++\]")
#   group          = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
# The first ":" or "@" of a login other than the ":" that ends the user: one character class.
_LOGIN_DELIMITER = re.compile(r"[:@]")
_GROUP = re.compile(r"[A-Za-z][A-Za-z0-9\-.+_]*+")
#   article        = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
_ARTICLE_LOCAL = re.compile(rf"(?:[{_UNRESERVED};/?:&=]|%[0-9A-Fa-f]{{2}})++")

# The fast path: a well-formed http URL (httpurl), or an https/other "//" URL without a login
# (ip-schemepart with urlpath = *xchar); the fragment is never checked. Every repetition is
# possessive over a class or an escape that begins with "%", which no class here holds.
_ESC = r"%[0-9A-Fa-f]{2}"
_FAST = re.compile(
    rf"(?:(?i:http)://{_HOSTNAME_RE}(?::[0-9]++)?+"
    rf"(?:/(?:[{_UNRESERVED};:@&=/]|{_ESC})*+(?:\?(?:[{_UNRESERVED};:@&=]|{_ESC})*+)?+)?+"
    rf"|(?i:https)://{_HOSTNAME_RE}(?::[0-9]++)?+(?:/(?:[{_UNRESERVED};/?:@&=]|{_ESC})*+)?+)"
    r"(?:#.*+)?+",
    re.DOTALL,
)

# The schemes RFC 1738 defines, each with the production its URLs are checked against.
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


def check(url: str) -> tuple[Problem, ...]:
    """The rules of RFC 1738 that ``url`` breaks, in the order of :data:`CODES`; ``()`` when
    none (or when ``url`` is relative, which RFC 1738 does not define)."""
    if _FAST.fullmatch(url) is not None:
        return ()
    return analyse(url).problems


def codes(url: str) -> tuple[str, ...]:
    """The codes of :func:`check`, each once, in the order of :data:`CODES`."""
    if _FAST.fullmatch(url) is not None:
        return ()
    found = {problem.code for problem in analyse(url).problems}
    return tuple(sorted(found, key=_ORDER.__getitem__))


class _Reader:
    """Collects the components and problems of one URL (``url[:end]``, the fragment cut)."""

    def __init__(self, url: str, end: int) -> None:
        self.url = url
        self.end = end
        self.components: list[Component] = []
        self.problems: list[Problem] = []

    def part(self, name: str, start: int, end: int) -> None:
        self.components.append(Component(name, start, end))

    def flag(self, code: str, component: str, start: int, end: int, rule: str = "") -> None:
        self.problems.append(Problem(code, component, (start, end), rule or _TEXT[code]))

    def chars(self, name: str, start: int, end: int, code: str) -> None:
        """``url[start:end]`` is the component ``name``: flag its first character outside
        the component's production (:data:`_PRODUCTIONS`)."""
        self.part(name, start, end)
        text, bad = _PRODUCTIONS[name]
        found = bad.search(self.url, start, end)
        if found is not None:
            self.flag(code, name, found.start(), found.start() + 1, f"RFC 1738 §5: {text}")


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
    reader = _Reader(url, end)
    reader.part("scheme", 0, colon)
    _READERS.get(scheme, _generic)(reader, colon + 1)
    problems = sorted(reader.problems, key=lambda p: (_ORDER[p.code], p.span))
    return Analysis(url, production, tuple(reader.components), tuple(problems))


def _login(r: _Reader, start: int, *, user: bool = True, port: bool = True) -> int:
    """RFC 1738 §5, from just after the ``//``; returns where the login ends (at ``/`` or the end).

    login          = [ user [ ":" password ] "@" ] hostport
    hostport       = host [ ":" port ]
    host           = hostname | hostnumber
    port           = digits

    ``user=False``: the production has ``hostport`` (or ``host``) where others have ``login``;
    ``port=False``: it has ``host`` (fileurl).
    """
    url = r.url
    stop = url.find("/", start, r.end)
    if stop < 0:
        stop = r.end
    at, user_end, host_end = login_bounds(url[start:stop])
    at, user_end, host_end = at + start, user_end + start, host_end + start
    if at >= start:
        if not user:
            r.flag("user-not-allowed", "user", start, at + 1)
        r.chars("user", start, user_end, "user-character")
        if user_end < at:
            r.chars("password", user_end + 1, at, "password-character")
        # "Within the user and password field, any ":", "@", or "/" must be encoded." The user
        # may hold an "@" (the last one ends the login), the password a ":" or an "@".
        for component, first, last in (("user", start, user_end), ("password", user_end + 1, at)):
            delimiter = _LOGIN_DELIMITER.search(url, first, last)
            if delimiter is not None:
                where = delimiter.start()
                r.flag("login-delimiter", component, where, where + 1)
                break
    host_start = at + 1 if at >= start else start
    r.part("host", host_start, host_end)
    _host(r, host_start, host_end, empty_ok=not port)
    if host_end < stop:
        r.part("port", host_end + 1, stop)
        if not port:
            r.flag("port-not-allowed", "port", host_end, stop)
        elif host_end + 1 == stop:
            r.flag("empty-port", "port", host_end, stop)
        elif not url[host_end + 1 : stop].isdigit() or not url[host_end + 1 : stop].isascii():
            r.flag("invalid-port", "port", host_end + 1, stop)
    return stop


def _host(r: _Reader, start: int, end: int, *, empty_ok: bool = False) -> None:
    """host = hostname | hostnumber (§5); "The rightmost domain label will never start with a
    digit, though, which syntactically distinguishes all domain names from the IP addresses"
    (§3.1), so a host whose last label starts with a digit is read as a hostnumber."""
    code = _host_code(r.url[start:end])
    if code == "empty-host" and empty_ok:
        return
    if code is not None:
        r.flag(code, "host", start, end)


def _host_code(host: str) -> str | None:
    if _HOSTNAME.fullmatch(host) is not None:
        return None
    if not host:
        return "empty-host"
    if host[0] == "[":
        return None if _IPV6.fullmatch(host) is not None else "invalid-hostname"
    if host[host.rfind(".") + 1 : host.rfind(".") + 2] in "0123456789" and host[-1:] != ".":
        return None if _HOSTNUMBER.fullmatch(host) is not None else "invalid-hostnumber"
    return "invalid-hostname"


def _slashes(r: _Reader, start: int) -> bool:
    """The ip-based productions begin with ``<scheme>://``."""
    if r.url.startswith("//", start, r.end):
        return True
    r.flag("missing-double-slash", "schemepart", start, r.end)
    r.part("schemepart", start, r.end)
    return False


def _http(r: _Reader, start: int) -> None:
    """httpurl = "http://" hostport [ "/" hpath [ "?" search ]]

    §3.3: "No user name or password is allowed." ... "If neither <path> nor <searchpart> is
    present, the "/" may also be omitted."
    """
    if not _slashes(r, start):
        return
    stop = _login(r, start + 2, user=False)
    if stop < r.end:
        query = r.url.find("?", stop, r.end)
        if query < 0:
            query = r.end
        r.chars("hpath", stop + 1, query, "path-character")
        if query < r.end:
            r.chars("search", query + 1, r.end, "search-character")


def _ftp(r: _Reader, start: int) -> None:
    """ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]"""
    if not _slashes(r, start):
        return
    stop = _login(r, start + 2)
    if stop < r.end:
        _fpath(r, stop + 1, ftptype=True)


def _fpath(r: _Reader, start: int, *, ftptype: bool = False) -> None:
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


def _file(r: _Reader, start: int) -> None:
    """fileurl = "file://" [ host | "localhost" ] "/" fpath

    §3.10: "As a special case, <host> can be the string "localhost" or the empty string".
    """
    if not _slashes(r, start):
        return
    stop = _login(r, start + 2, user=False, port=False)
    if stop == r.end:
        r.flag("missing-path", "fpath", stop, stop)
    else:
        _fpath(r, stop + 1)


def _gopher(r: _Reader, start: int) -> None:
    """gopherurl = "gopher://" hostport [ / [ gtype [ selector
                   [ "%09" search [ "%09" gopher+_string ] ] ] ] ]

    gtype, selector and gopher+_string are xchar (escapes included), so the gopher path is
    *xchar: "Within the <gopher-path>, no characters are reserved." (§3.4)
    """
    if not _slashes(r, start):
        return
    stop = _login(r, start + 2, user=False)
    if stop < r.end:
        r.chars("selector", stop + 1, r.end, "path-character")


def _telnet(r: _Reader, start: int) -> None:
    """telneturl = "telnet://" login [ "/" ]  (§3.8: "The final "/" character may be omitted.")"""
    if not _slashes(r, start):
        return
    stop = _login(r, start + 2)
    if stop + 1 < r.end:
        r.part("path", stop + 1, r.end)
        r.flag("telnet-path", "path", stop + 1, r.end)


def _nntp(r: _Reader, start: int) -> None:
    """nntpurl = "nntp://" hostport "/" group [ "/" digits ]"""
    if not _slashes(r, start):
        return
    stop = _login(r, start + 2, user=False)
    if stop == r.end:
        r.flag("missing-path", "group", stop, stop)
        return
    r.part("group", stop + 1, r.end)
    group = _GROUP.match(r.url, stop + 1, r.end)
    rest = r.url[group.end() if group else stop + 1 : r.end]
    if group is None or not (rest == "" or (rest[:1] == "/" and rest[1:].isdigit())):
        r.flag("nntp-path", "group", stop + 1, r.end)


def _wais(r: _Reader, start: int) -> None:
    """waisurl        = waisdatabase | waisindex | waisdoc
    waisdatabase   = "wais://" hostport "/" database
    waisindex      = "wais://" hostport "/" database "?" search
    waisdoc        = "wais://" hostport "/" database "/" wtype "/" wpath
    """
    if not _slashes(r, start):
        return
    url, end = r.url, r.end
    stop = _login(r, start + 2, user=False)
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


def _prospero(r: _Reader, start: int) -> None:
    """prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]
    fieldspec   = ";" fieldname "=" fieldvalue

    §3.11: "No username or password is allowed."
    """
    if not _slashes(r, start):
        return
    url, end = r.url, r.end
    stop = _login(r, start + 2, user=False)
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


def _mailto(r: _Reader, start: int) -> None:
    """mailtourl = "mailto:" encoded822addr; encoded822addr = 1*xchar"""
    if start == r.end:
        r.part("encoded822addr", start, start)
        r.flag("empty-mailto", "encoded822addr", start, start)
        return
    r.chars("encoded822addr", start, r.end, "schemepart-character")


def _news(r: _Reader, start: int) -> None:
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
        ok = _GROUP.fullmatch(url, start, end) is not None
    else:
        local = _ARTICLE_LOCAL.fullmatch(url, start, at) is not None
        ok = local and _host_code(url[at + 1 : end]) is None
    if not ok:
        r.flag("news-grouppart", "grouppart", start, end)


def _generic(r: _Reader, start: int) -> None:
    """genericurl     = scheme ":" schemepart
    schemepart     = *xchar | ip-schemepart
    ip-schemepart  = "//" login [ "/" urlpath ]
    urlpath        = *xchar    ; depends on protocol see section 3.1
    """
    if r.url.startswith("//", start, r.end):
        stop = _login(r, start + 2)
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
