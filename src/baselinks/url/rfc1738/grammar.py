"""RFC 1738 §5's character classes, host, port and login, each compiled once.

Each regular expression is one character class, or a production written with possessive
quantifiers (``*+``, ``++``) whose every repetition begins with a character the one before
cannot hold: nothing is ever given back, so no input makes one backtrack.
"""

from __future__ import annotations

import re

from ..parts import login_bounds
from .rules import TEXT, Component, Problem

__all__ = [
    "ARTICLE_LOCAL",
    "GROUP",
    "PRODUCTIONS",
    "Reader",
    "host_code",
    "login",
    "slashes",
    "well_formed",
]

# --- §5 "Miscellaneous definitions", as regular-expression character classes -----------------
#   safe           = "$" | "-" | "_" | "." | "+"
#   extra          = "!" | "*" | "'" | "(" | ")" | ","
#   reserved       = ";" | "/" | "?" | ":" | "@" | "&" | "="
#   escape         = "%" hex hex
#   unreserved     = alpha | digit | safe | extra
#   uchar          = unreserved | escape
#   xchar          = unreserved | reserved | escape
UNRESERVED = r"A-Za-z0-9$\-_.+!*'(),"


def bad(extra: str) -> re.Pattern[str]:
    """The first character outside ``*[ uchar | <extra> ]``: any other character, or a ``%``
    that does not begin an escape. One character class or a fixed lookahead: no backtracking."""
    return re.compile(rf"[^{UNRESERVED}{extra}%]|%(?![0-9A-Fa-f]{{2}})")


# The character set of each component (the grammar's productions, each quoted).
PRODUCTIONS = {
    # user = *[ uchar | ";" | "?" | "&" | "=" ]; ":" and "@" are reported as login-delimiter
    "user": ('user = *[ uchar | ";" | "?" | "&" | "=" ]', bad(r";?&=:@")),
    "password": ('password = *[ uchar | ";" | "?" | "&" | "=" ]', bad(r";?&=:@")),
    # hpath = hsegment *[ "/" hsegment ]; hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]
    "hpath": ('hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]', bad(r";:@&=/")),
    # search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]
    "search": ('search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]', bad(r";:@&=")),
    # fpath = fsegment *[ "/" fsegment ]; fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]
    "fpath": ('fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]', bad(r"?:@&=/")),
    # ppath = psegment *[ "/" psegment ]; psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]
    "ppath": ('psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]', bad(r"?:@&=/")),
    # fieldname = *[ uchar | "?" | ":" | "@" | "&" ]; fieldvalue the same
    # (the one "=" between them is allowed here; prospero-fieldspec counts it)
    "fieldspec": ('fieldname = *[ uchar | "?" | ":" | "@" | "&" ]', bad(r"?:@&=")),
    # database = *uchar; wtype = *uchar; wpath = *uchar
    "database": ("database = *uchar", bad("")),
    "wtype": ("wtype = *uchar", bad("")),
    "wpath": ("wpath = *uchar", bad("")),
    # gtype = xchar; selector = *xchar; gopher+_string = *xchar
    "selector": ("selector = *xchar", bad(r";/?:@&=")),
    # urlpath = *xchar ; depends on protocol see section 3.1
    "urlpath": ("urlpath = *xchar", bad(r";/?:@&=")),
    # schemepart = *xchar | ip-schemepart; encoded822addr = 1*xchar
    "schemepart": ("schemepart = *xchar", bad(r";/?:@&=")),
    "encoded822addr": ("encoded822addr = 1*xchar", bad(r";/?:@&=")),
}

# --- §5 host, possessive quantifiers throughout: nothing is ever given back, so no backtracking -
#   hostname       = *[ domainlabel "." ] toplabel
#   domainlabel    = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit
#   toplabel       = alpha | alpha *[ alphadigit | "-" ] alphadigit
# A label is alphadigits in runs joined by hyphens ("a-b", "a--b"; never "-a" or "a-"); each
# run of hyphens must be followed by an alphadigit, so every split point is forced.
DOMAINLABEL = r"[A-Za-z0-9]++(?:-++[A-Za-z0-9]++)*+"
TOPLABEL = r"[A-Za-z][A-Za-z0-9]*+(?:-++[A-Za-z0-9]++)*+"
HOSTNAME_RE = rf"(?:{DOMAINLABEL}\.)*+{TOPLABEL}"
HOSTNAME = re.compile(HOSTNAME_RE)
#   hostnumber     = digits "." digits "." digits "." digits
HOSTNUMBER = re.compile(r"[0-9]++\.[0-9]++\.[0-9]++\.[0-9]++")
# RFC 2732 §3: IPv6reference = "[" IPv6address "]", hex digits, ":" and a dotted IPv4 tail
IPV6 = re.compile(r"\[[0-9A-Fa-f:.]++\]")
# A ":" or "@" inside a user or a password (§3.1: "must be encoded"): one character class.
LOGIN_DELIMITER = re.compile(r"[:@]")
#   group          = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
GROUP = re.compile(r"[A-Za-z][A-Za-z0-9\-.+_]*+")
#   article        = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
ARTICLE_LOCAL = re.compile(rf"(?:[{UNRESERVED};/?:&=]|%[0-9A-Fa-f]{{2}})++")

# The fast path: a well-formed http URL (httpurl), or an https URL without a login
# (ip-schemepart with urlpath = *xchar); the fragment is never checked. Each path is one
# character class that also holds "%", repeated possessively (a tight loop in the regular
# expression engine, where an alternation per character cost twice the time); the escapes are
# then checked by one search, only in a URL that has a "%".
FAST = re.compile(
    rf"(?:(?i:http)://{HOSTNAME_RE}(?::[0-9]++)?+"
    rf"(?:/[{UNRESERVED};:@&=/%]*+(?:\?[{UNRESERVED};:@&=%]*+)?+)?+"
    rf"|(?i:https)://{HOSTNAME_RE}(?::[0-9]++)?+(?:/[{UNRESERVED};/?:@&=%]*+)?+)"
    r"(?:#.*+)?+",
    re.DOTALL,
)
BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


def well_formed(url: str) -> bool:
    """True when the fast path vouches for ``url``: reading it in full would find nothing."""
    return FAST.fullmatch(url) is not None and ("%" not in url or BAD_ESCAPE.search(url) is None)


class Reader:
    """Collects the components and problems of one URL (``url[:end]``, the fragment cut).

    A rule broken in a component is reported once, where it is first broken: a component
    that repeats (prospero's fieldspecs) gives one problem however many times it breaks it.
    """

    def __init__(self, url: str, end: int) -> None:
        self.url = url
        self.end = end
        self.components: list[Component] = []
        self.problems: list[Problem] = []
        self._seen: set[tuple[str, str]] = set()

    def part(self, name: str, start: int, end: int) -> None:
        self.components.append(Component(name, start, end))

    def flag(self, code: str, component: str, start: int, end: int, rule: str = "") -> None:
        if (code, component) not in self._seen:
            self._seen.add((code, component))
            self.problems.append(Problem(code, component, (start, end), rule or TEXT[code]))

    def chars(self, name: str, start: int, end: int, code: str) -> None:
        """``url[start:end]`` is the component ``name``: flag its first character outside
        the component's production (:data:`PRODUCTIONS`)."""
        self.part(name, start, end)
        text, bad = PRODUCTIONS[name]
        found = bad.search(self.url, start, end)
        if found is not None:
            self.flag(code, name, found.start(), found.start() + 1, f"RFC 1738 §5: {text}")


def login(r: Reader, start: int, *, user: str = "", port: bool = True) -> int:
    """RFC 1738 §5, from just after the ``//``; returns where the login ends (at ``/`` or the end).

    login          = [ user [ ":" password ] "@" ] hostport
    hostport       = host [ ":" port ]
    host           = hostname | hostnumber
    port           = digits

    ``user``: the production has ``hostport`` (or ``host``) where others have ``login``, and
    this is the RFC's text that says so (quoted by ``user-not-allowed``); ``port=False``: the
    production has ``host`` (fileurl).
    """
    url = r.url
    stop = url.find("/", start, r.end)
    if stop < 0:
        stop = r.end
    at, user_end, host_end = login_bounds(url[start:stop])
    at, user_end, host_end = at + start, user_end + start, host_end + start
    if at >= start:
        if user:
            r.flag("user-not-allowed", "user", start, at + 1, user)
        r.chars("user", start, user_end, "user-character")
        if user_end < at:
            r.chars("password", user_end + 1, at, "password-character")
        # "Within the user and password field, any ":", "@", or "/" must be encoded." The user
        # may hold an "@" (the last one ends the login), the password a ":" or an "@".
        for component, first, last in (("user", start, user_end), ("password", user_end + 1, at)):
            delimiter = LOGIN_DELIMITER.search(url, first, last)
            if delimiter is not None:
                where = delimiter.start()
                r.flag("login-delimiter", component, where, where + 1)
                break
    host_start = at + 1 if at >= start else start
    r.part("host", host_start, host_end)
    host(r, host_start, host_end, empty_ok=not port)
    if host_end < stop:
        r.part("port", host_end + 1, stop)
        if not port:
            r.flag("port-not-allowed", "port", host_end, stop)
        elif host_end + 1 == stop:
            r.flag("empty-port", "port", host_end, stop)
        elif not url[host_end + 1 : stop].isdigit() or not url[host_end + 1 : stop].isascii():
            r.flag("invalid-port", "port", host_end + 1, stop)
    return stop


def host(r: Reader, start: int, end: int, *, empty_ok: bool = False) -> None:
    """host = hostname | hostnumber (§5); "The rightmost domain label will never start with a
    digit, though, which syntactically distinguishes all domain names from the IP addresses"
    (§3.1), so a host whose last label starts with a digit is read as a hostnumber."""
    code = host_code(r.url[start:end])
    if code == "empty-host" and empty_ok:
        return
    if code is not None:
        r.flag(code, "host", start, end)


def host_code(host: str) -> str | None:
    """The code for what is wrong with ``host``, or ``None`` when it is a host."""
    if HOSTNAME.fullmatch(host) is not None:
        return None
    if not host:
        return "empty-host"
    if host[0] == "[":
        return None if IPV6.fullmatch(host) is not None else "invalid-hostname"
    rightmost = host[host.rfind(".") + 1 :]
    if rightmost[:1].isdigit():
        return None if HOSTNUMBER.fullmatch(host) is not None else "invalid-hostnumber"
    return "invalid-hostname"


def slashes(r: Reader, start: int) -> bool:
    """The ip-based productions begin with ``<scheme>://``."""
    if r.url.startswith("//", start, r.end):
        return True
    r.flag("missing-double-slash", "schemepart", start, r.end)
    r.part("schemepart", start, r.end)
    return False
