"""RFC 1738: the rules checked, each with its code, the RFC's words and an example; and the
records that :func:`baselinks.check` and :func:`baselinks.url.rfc1738.analyse` return.

The order of :data:`RULES` is the order of the codes in ``problems``; ``docs/reference.md``'s
table "RFC 1738 rules checked" is tested against it.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["CODES", "ORDER", "RULES", "TEXT", "Analysis", "Component", "Problem", "Rule"]


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
    Rule("telnet-path", "§5", 'telneturl = "telnet://" login [ "/" ]', "telnet://h/path"),
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
ORDER = {code: index for index, code in enumerate(CODES)}
TEXT = {rule.code: f"RFC 1738 {rule.section}: {rule.text}" for rule in RULES}
