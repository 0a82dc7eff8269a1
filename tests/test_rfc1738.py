"""RFC 1738 §3 and §5: each production with URLs it accepts and rejects, every rule with a row.

The RFC's own examples come first in each table. The hypothesis tests build URLs from the §5
productions (every one must be accepted) and corrupt one character of each (every corruption
must be rejected).
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baselinks import CODES, Problem, check, parse
from baselinks.cli import main
from baselinks.url.rfc1738 import RULES, SCHEMES, analyse, codes

ROOT = Path(__file__).resolve().parents[1]

# (url, production): the RFC's own examples, then one or more per production.
ACCEPTED = [
    # §3.1: "<URL:ftp://@host.com/> has an empty user name and no password,
    # <URL:ftp://host.com/> has no user name, while <URL:ftp://foo:@host.com/> has a user name
    # of "foo" and an empty password."
    ("ftp://@host.com/", "ftpurl"),
    ("ftp://host.com/", "ftpurl"),
    ("ftp://foo:@host.com/", "ftpurl"),
    # §3.2.2
    ("ftp://myname@host.dom/%2Fetc/motd", "ftpurl"),
    ("ftp://myname@host.dom/etc/motd", "ftpurl"),
    ("ftp://myname@host.dom//etc/motd", "ftpurl"),
    # §3.6
    ("news:*", "newsurl"),
    ("news:comp.infosystems.www.misc", "newsurl"),
    # §3.10
    ("file://vms.host.edu/disk$user/my/notes/note12345.txt", "fileurl"),
    # §3.11: "<URL:prospero://host.dom//pros/name> designates a <hsoname> of "/pros/name""
    ("prospero://host.dom//pros/name", "prosperourl"),
    # httpurl = "http://" hostport [ "/" hpath [ "?" search ]]
    ("http://a", "httpurl"),
    ("HTTP://A.B-C.d9/x;y:z@w&v=u?s;t:u@v&w=x", "httpurl"),  # "interpreters should use case-ignore"
    ("http://1.2.3.4:8080/", "httpurl"),
    ("http://a/b#any thing", "httpurl"),  # the fragment is not part of the URL
    ("http://[::1]:80/", "httpurl"),  # RFC 2732 IPv6 literal
    # ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]
    ("ftp://u:p@h:21/a/b;type=I", "ftpurl"),
    ("ftp://h/a?b:c@d&e=f;type=d", "ftpurl"),
    # fileurl = "file://" [ host | "localhost" ] "/" fpath
    ("file:///etc/hosts", "fileurl"),
    ("file://localhost/etc/hosts", "fileurl"),
    # gopherurl = "gopher://" hostport [ / [ gtype [ selector [ "%09" search ... ] ] ] ]
    ("gopher://h", "gopherurl"),
    ("gopher://h:70/1sel%09search%09+", "gopherurl"),
    # mailtourl = "mailto:" encoded822addr
    ("mailto:joe@example.com", "mailtourl"),
    # newsurl: article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
    ("news:1234.5678@host.example", "newsurl"),
    # nntpurl = "nntp://" hostport "/" group [ "/" digits ]
    ("nntp://h/comp.lang.c", "nntpurl"),
    ("nntp://h:119/comp.lang.c/1234", "nntpurl"),
    # telneturl = "telnet://" login [ "/" ]
    ("telnet://u:p@h:23/", "telneturl"),
    ("telnet://h", "telneturl"),
    # waisurl = waisdatabase | waisindex | waisdoc
    ("wais://h/db", "waisurl"),
    ("wais://h:210/db?a;b", "waisurl"),
    ("wais://h/db/type/path", "waisurl"),
    # prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]
    ("prospero://h/a/b;OBJECT-VERSION=2;x=", "prosperourl"),
    # genericurl = scheme ":" schemepart; schemepart = *xchar | ip-schemepart
    ("https://user:pw@example.com:8443/a/b?c=/d", "genericurl"),
    ("javascript:void(0)", "genericurl"),
    ("urn:isbn:0451450523", "genericurl"),
    ("x-y.z+1:", "genericurl"),
]


@pytest.mark.parametrize(("url", "production"), ACCEPTED)
def test_accepted(url: str, production: str) -> None:
    assert check(url) == ()
    assert analyse(url).production == production


# (url, code, component, span): one row per rule at least; the audit first.
REJECTED = [
    ("http://user:pw@host/", "user-not-allowed", "user", (7, 15)),  # §3.3
    ("gopher://u@h/", "user-not-allowed", "user", (9, 11)),  # hostport, not login
    ("prospero://u@h/p", "user-not-allowed", "user", (11, 13)),  # §3.11
    ("file://u@h/p", "user-not-allowed", "user", (7, 9)),
    ("ftp://a:b:c@h/", "login-delimiter", "password", (9, 10)),  # §3.1
    ("ftp://a@b@h/", "login-delimiter", "user", (7, 8)),
    ("ftp://a:b@c@h/", "login-delimiter", "password", (9, 10)),
    ("ftp://a~b@h/", "user-character", "user", (7, 8)),
    ("ftp://a%zz@h/", "user-character", "user", (7, 8)),
    ("ftp://a:b c@h/", "password-character", "password", (9, 10)),
    ("http:///x", "empty-host", "host", (7, 7)),
    ("ftp://u@/x", "empty-host", "host", (8, 8)),
    ("https:///x", "empty-host", "host", (8, 8)),
    ("http://ho_st/", "invalid-hostname", "host", (7, 12)),
    ("http://a..b/", "invalid-hostname", "host", (7, 11)),
    ("http://-a.b/", "invalid-hostname", "host", (7, 11)),
    ("http://a-.b/", "invalid-hostname", "host", (7, 11)),
    ("http://a.b./", "invalid-hostname", "host", (7, 11)),
    ("http://a.b-/", "invalid-hostname", "host", (7, 11)),
    ("http://[::1/", "invalid-hostname", "host", (7, 11)),
    ("http://host?q", "invalid-hostname", "host", (7, 13)),  # no "/" before the search
    ("http://1.2.3.4.5/", "invalid-hostnumber", "host", (7, 16)),
    ("http://1.2.3/", "invalid-hostnumber", "host", (7, 12)),
    ("http://a.1b/", "invalid-hostnumber", "host", (7, 11)),  # toplabel = alpha ...
    ("http://host:/", "empty-port", "port", (11, 12)),  # §3.1 "the colon is as well"
    ("http://host:abc/", "invalid-port", "port", (12, 15)),
    ("http://host:80:90/", "invalid-port", "port", (12, 17)),  # the host ends at the first ":"
    ("http://host:\uff18\uff10/", "invalid-port", "port", (12, 14)),  # fullwidth digits: ASCII only
    ("file://h:80/x", "port-not-allowed", "port", (8, 11)),
    ("file://h", "missing-path", "fpath", (8, 8)),
    ("nntp://h", "missing-path", "group", (8, 8)),
    ("wais://h", "missing-path", "database", (8, 8)),
    ("prospero://h", "missing-path", "ppath", (12, 12)),
    ("http://h/~user/", "path-character", "hpath", (9, 10)),
    ("http://h/a b", "path-character", "hpath", (10, 11)),
    ("http://h/100%", "path-character", "hpath", (12, 13)),
    ("ftp://h/a;b", "path-character", "fpath", (9, 10)),  # ";" only before type=
    ("gopher://h/1a b", "path-character", "selector", (13, 14)),
    ("wais://h/d;b", "path-character", "database", (10, 11)),  # database = *uchar
    ("prospero://h/a;b=c d", "path-character", "fieldspec", (18, 19)),
    ("https://h/a^b", "path-character", "urlpath", (11, 12)),
    ("http://h/p?a=/b", "search-character", "search", (13, 14)),
    ("http://h/p?a?b", "search-character", "search", (12, 13)),
    ("wais://h/db?a/b", "search-character", "search", (13, 14)),
    ("ftp://h/f;type=x", "invalid-ftptype", "ftptype", (15, 16)),
    ("ftp://h/f;type=", "invalid-ftptype", "ftptype", (15, 15)),
    ("ftp://h/f;type=ai", "invalid-ftptype", "ftptype", (15, 17)),
    ("telnet://h/path", "telnet-path", "path", (11, 15)),
    ("mailto:", "empty-mailto", "encoded822addr", (7, 7)),
    ("news:1group", "news-grouppart", "grouppart", (5, 11)),
    ("news:a@b@c", "news-grouppart", "grouppart", (5, 10)),
    ("news://host/group", "news-grouppart", "grouppart", (5, 17)),
    ("nntp://h/g/x", "nntp-path", "group", (9, 12)),
    ("nntp://h/1g", "nntp-path", "group", (9, 11)),
    ("wais://h/db/t", "wais-path", "database", (9, 13)),
    ("prospero://h/p;x", "prospero-fieldspec", "fieldspec", (14, 16)),
    ("prospero://h/p;a=b=c", "prospero-fieldspec", "fieldspec", (14, 20)),
    ("foo:a~b", "schemepart-character", "schemepart", (5, 6)),
    ("mailto:a b@c", "schemepart-character", "encoded822addr", (8, 9)),
    ("http:g", "missing-double-slash", "schemepart", (5, 6)),
    ("file:/etc/hosts", "missing-double-slash", "schemepart", (5, 15)),
    ("telnet:h", "missing-double-slash", "schemepart", (7, 8)),
]


@pytest.mark.parametrize(("url", "code", "component", "span"), REJECTED)
def test_rejected(url: str, code: str, component: str, span: tuple[int, int]) -> None:
    found = [p for p in check(url) if p.code == code]
    assert len(found) == 1, check(url)
    problem = found[0]
    assert (problem.component, problem.span) == (component, span)
    assert problem.rule.startswith("RFC 1738 §")


def test_every_rule_has_a_rejected_row_and_a_working_example() -> None:
    assert {row[1] for row in REJECTED} == {rule.code for rule in RULES}
    for rule in RULES:
        assert rule.code in codes(rule.example), rule


def test_problems_quote_the_rfc() -> None:
    (problem,) = check("http://user:pw@host/")
    assert problem == Problem(
        "user-not-allowed", "user", (7, 15), "RFC 1738 §3.3: No user name or password is allowed."
    )
    (problem,) = check("prospero://u@h/p")
    assert problem.rule == "RFC 1738 §3.11: No username or password is allowed."
    (problem,) = check("nntp://u@h/g")
    assert problem.rule == 'RFC 1738 §5: nntpurl = "nntp://" hostport "/" group [ "/" digits ]'
    (problem,) = check("http://h/?a=/b")
    assert problem.rule == 'RFC 1738 §5: search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]'


def test_several_rules_come_in_the_order_of_the_codes() -> None:
    url = "http://u@ho_st:/a b?c/d"
    assert codes(url) == (
        "user-not-allowed",
        "invalid-hostname",
        "empty-port",
        "path-character",
        "search-character",
    )
    assert [p.code for p in check(url)] == list(codes(url))
    assert set(codes(url)) <= set(CODES)  # diagnose knows every code


def test_a_rule_is_reported_once_per_component_where_it_first_breaks() -> None:
    url = "prospero://h/p" + ";a b" * 1000 + ";c=d=e"
    assert [(p.code, p.span) for p in check(url)] == [
        ("path-character", (16, 17)),
        ("prospero-fieldspec", (14, 18)),
    ]


def test_analysis_names_the_components() -> None:
    url = "ftp://u:p@h:21/a/b;type=i#frag"
    analysis = analyse(url)
    assert analysis.production == "ftpurl"
    parts = [(c.name, url[c.start : c.end]) for c in analysis.components]
    assert parts == [
        ("scheme", "ftp"),
        ("user", "u"),
        ("password", "p"),
        ("host", "h"),
        ("port", "21"),
        ("fpath", "a/b"),
        ("ftptype", "i"),
    ]
    assert analyse("../g") == (("../g", None, (), ()))  # relative: not an RFC 1738 URL


def test_every_rfc1738_scheme_has_its_production() -> None:
    assert sorted(SCHEMES) == sorted(
        ["ftp", "file", "gopher", "http", "mailto", "news", "nntp", "prospero", "telnet", "wais"]
    )
    for scheme, production in SCHEMES.items():
        assert analyse(f"{scheme.upper()}:x").production == production


# --- login(), hostname, port, username, password ----------------------------------------------

URLPARTS = [
    # (url, hostname, port, username, password)
    ("http://Example.COM/", "example.com", 80, None, None),
    ("http://h:8080/", "h", 8080, None, None),
    ("http://h:/", "h", 80, None, None),  # an empty port is an omitted one
    ("http://h:abc/", "h", None, None, None),  # not digits: None (check reports invalid-port)
    ("https://h/", "h", None, None, None),  # RFC 1738 names no https default
    ("ftp://foo:@host.com/", "host.com", 21, "foo", ""),
    ("ftp://@host.com/", "host.com", 21, "", None),
    ("ftp://a:b:c@h/", "h", 21, "a", "b:c"),
    ("telnet://h", "h", 23, None, None),
    ("gopher://h", "h", 70, None, None),
    ("wais://h/db", "h", 210, None, None),
    ("nntp://h/g", "h", 119, None, None),
    ("prospero://h/p", "h", 1525, None, None),
    ("http://[::1]:81/", "::1", 81, None, None),
    ("file:///etc/hosts", None, None, None, None),
    ("g", None, None, None, None),
]


@pytest.mark.parametrize(("url", "hostname", "port", "username", "password"), URLPARTS)
def test_urlparts_like_urllib_with_rfc1738_default_ports(
    url: str, hostname: str | None, port: int | None, username: str | None, password: str | None
) -> None:
    parts = parse(url)
    assert (parts.hostname, parts.port, parts.username, parts.password) == (
        hostname,
        port,
        username,
        password,
    )


# --- baselinks check ---------------------------------------------------------------------------


def test_check_command_exits_0_only_when_no_rule_is_broken(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", "https://example.com/a", "ftp://h/f;type=a"]) == 0
    assert main(["check", "https://example.com/a", "http://h:/"]) == 1
    # a relative reference is no absolute URL: exit 1 too (issue 30; was 0)
    assert main(["check", "https://example.com/a", "g"]) == 1
    capsys.readouterr()


def test_check_command_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "http://u@h:/x", "https://example.com/a", "g"]) == 1  # a rule broken
    first, second, third = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["production"] == "httpurl"
    assert [(c["name"], c["text"]) for c in first["components"]] == [
        ("scheme", "http"),
        ("user", "u"),
        ("host", "h"),
        ("port", ""),
        ("hpath", "x"),
    ]
    assert first["problems"] == [
        {
            "code": "user-not-allowed",
            "component": "user",
            "span": [7, 9],
            "rule": "RFC 1738 §3.3: No user name or password is allowed.",
        },
        {
            "code": "empty-port",
            "component": "port",
            "span": [10, 11],
            "rule": "RFC 1738 §3.1: If the port is omitted, the colon is as well.",
        },
    ]
    assert (second["production"], second["problems"]) == ("genericurl", [])
    assert (third["production"], third["components"], third["problems"]) == (None, [], [])


def test_check_command_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert main(["check", "ftp://h/f;type=x", "http://a/\x1b[31m"]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[:6] == [
        "ftp://h/f;type=x",
        "  production     ftpurl",
        "  scheme         'ftp'",
        "  host           'h'",
        "  fpath          'f'",
        "  ftptype        'x'",
    ]
    assert '  ! invalid-ftptype in ftptype [15:16]: RFC 1738 §5: ftptype = "A"' in out
    assert "\x1b" not in out  # an escape from the input never reaches the terminal raw
    assert "'http://a/\\x1b[31m'" in out


# --- the docs ---------------------------------------------------------------------------------


def test_the_reference_table_is_the_rules() -> None:
    text = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    section = text.split("## RFC 1738 rules checked", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z-]+)` \| (.+?) \| `(.+?)` \|$", section, re.MULTILINE)
    assert [(code, example) for code, _, example in rows] == [
        (rule.code, rule.example) for rule in RULES
    ]
    for (_, text_cell, _), rule in zip(rows, RULES, strict=True):
        assert rule.section in text_cell


# --- hypothesis: URLs built from the §5 productions -------------------------------------------

_ALPHA = st.sampled_from(string.ascii_letters)
_DIGIT = st.sampled_from(string.digits)
_ALPHADIGIT = st.sampled_from(string.ascii_letters + string.digits)
_HEX = st.sampled_from("0123456789ABCDEFabcdef")
_ESCAPE = st.builds(lambda a, b: f"%{a}{b}", _HEX, _HEX)
_UCHAR = st.one_of(st.sampled_from(string.ascii_letters + string.digits + "$-_.+!*'(),"), _ESCAPE)


def _star(*alternatives: st.SearchStrategy[str], min_size: int = 0) -> st.SearchStrategy[str]:
    return st.lists(st.one_of(*alternatives), min_size=min_size, max_size=6).map("".join)


def _chars(extra: str) -> st.SearchStrategy[str]:
    return st.sampled_from(extra)


_DIGITS = _star(_DIGIT, min_size=1)
# domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit
_DOMAINLABEL = st.one_of(
    _ALPHADIGIT,
    st.builds(lambda a, m, b: a + m + b, _ALPHADIGIT, _star(_ALPHADIGIT, _chars("-")), _ALPHADIGIT),
)
# toplabel = alpha | alpha *[ alphadigit | "-" ] alphadigit
_TOPLABEL = st.one_of(
    _ALPHA,
    st.builds(lambda a, m, b: a + m + b, _ALPHA, _star(_ALPHADIGIT, _chars("-")), _ALPHADIGIT),
)
_HOSTNAME = st.builds(
    lambda labels, top: "".join(f"{label}." for label in labels) + top,
    st.lists(_DOMAINLABEL, max_size=3),
    _TOPLABEL,
)
_HOSTNUMBER = st.builds(lambda *d: ".".join(d), _DIGITS, _DIGITS, _DIGITS, _DIGITS)
_HOST = st.one_of(_HOSTNAME, _HOSTNUMBER)
_HOSTPORT = st.builds(lambda h, p: h + (f":{p}" if p else ""), _HOST, st.none() | _DIGITS)
_USER = _star(_UCHAR, _chars(";?&="))
_LOGIN = st.builds(
    lambda user, password, hostport: (
        ("" if user is None else user + ("" if password is None else f":{password}") + "@")
        + hostport
    ),
    st.none() | _USER,
    st.none() | _USER,
    _HOSTPORT,
)
_HSEGMENT = _star(_UCHAR, _chars(";:@&="))
_FSEGMENT = _star(_UCHAR, _chars("?:@&="))
_XCHAR = st.one_of(_UCHAR, _chars(";/?:@&="))


def _path(segment: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(segment, min_size=1, max_size=4).map("/".join)


def _opt(strategy: st.SearchStrategy[str], prefix: str = "") -> st.SearchStrategy[str]:
    return st.one_of(st.just(""), strategy.map(lambda s: prefix + s))


_HTTPURL = st.builds(
    lambda hp, rest: f"http://{hp}{rest}",
    _HOSTPORT,
    _opt(st.builds(lambda p, s: p + s, _path(_HSEGMENT), _opt(_HSEGMENT, "?")), "/"),
)
_FTPURL = st.builds(
    lambda login, rest: f"ftp://{login}{rest}",
    _LOGIN,
    _opt(
        st.builds(lambda p, t: p + t, _path(_FSEGMENT), _opt(_chars("AIDaid"), ";type=")),
        "/",
    ),
)
_FILEURL = st.builds(
    lambda host, path: f"file://{host}/{path}",
    st.one_of(st.just(""), st.just("localhost"), _HOST),
    _path(_FSEGMENT),
)
_GOPHERURL = st.builds(lambda hp, rest: f"gopher://{hp}{rest}", _HOSTPORT, _opt(_star(_XCHAR), "/"))
_MAILTOURL = _star(_XCHAR, min_size=1).map(lambda a: f"mailto:{a}")
_GROUP = st.builds(lambda a, rest: a + rest, _ALPHA, _star(_ALPHADIGIT, _chars("-.+_")))
_NEWSURL = st.one_of(
    st.just("news:*"),
    _GROUP.map(lambda g: f"news:{g}"),
    st.builds(
        lambda local, host: f"news:{local}@{host}",
        _star(_UCHAR, _chars(";/?:&="), min_size=1),
        _HOST,
    ),
)
_NNTPURL = st.builds(
    lambda hp, group, number: f"nntp://{hp}/{group}{number}",
    _HOSTPORT,
    _GROUP,
    _opt(_DIGITS, "/"),
)
_TELNETURL = st.builds(lambda login, s: f"telnet://{login}{s}", _LOGIN, st.sampled_from(["", "/"]))
_UCHARS = _star(_UCHAR)
_WAISURL = st.builds(
    lambda hp, db, rest: f"wais://{hp}/{db}{rest}",
    _HOSTPORT,
    _UCHARS,
    st.one_of(
        st.just(""),
        _HSEGMENT.map(lambda s: f"?{s}"),
        st.builds(lambda t, p: f"/{t}/{p}", _UCHARS, _UCHARS),
    ),
)
_FIELD = _star(_UCHAR, _chars("?:@&"))
_PROSPEROURL = st.builds(
    lambda hp, path, fields: f"prospero://{hp}/{path}" + "".join(fields),
    _HOSTPORT,
    _path(_FSEGMENT),
    st.lists(st.builds(lambda n, v: f";{n}={v}", _FIELD, _FIELD), max_size=2),
)
_SCHEME = _star(st.sampled_from(string.ascii_lowercase + string.digits + "+-."), min_size=1)
_GENERICURL = st.one_of(
    st.builds(lambda s, p: f"{s}:{p}", _SCHEME, _star(_XCHAR).filter(lambda p: p[:2] != "//")),
    st.builds(
        lambda s, login, path: f"{s}://{login}{path}",
        _SCHEME,
        _LOGIN,
        _opt(_star(_XCHAR), "/"),
    ),
).filter(lambda url: url.split(":", 1)[0] not in SCHEMES)
_URL = st.one_of(
    _HTTPURL,
    _FTPURL,
    _FILEURL,
    _GOPHERURL,
    _MAILTOURL,
    _NEWSURL,
    _NNTPURL,
    _TELNETURL,
    _WAISURL,
    _PROSPEROURL,
    _GENERICURL,
)

# Characters outside every component's production, and no delimiter of RFC 1808 §2.4 either
_OUTSIDE = ' <>"{}|\\^`~[]\u00e9\x7f'


@given(_URL)
def test_urls_built_from_the_productions_are_accepted(url: str) -> None:
    assert check(url) == (), url


@given(_URL, st.data())
def test_a_single_character_corrupted_is_rejected(url: str, data: st.DataObject) -> None:
    # any character after the scheme's ":" (the scheme itself would stop being one)
    start = url.index(":") + 1
    if start == len(url):
        return  # "mailto:" needs an address: nothing after the colon to corrupt
    where = data.draw(st.integers(start, len(url) - 1))
    bad = data.draw(st.sampled_from(_OUTSIDE))
    corrupted = url[:where] + bad + url[where + 1 :]
    assert check(corrupted) != (), corrupted


_URLISH = st.text(alphabet="aZ09-._~%2Fg:/?#;@&=+$,[] \u00e9", max_size=24)


@given(st.sampled_from(["http://", "HTTP://", "https://", "ftp://", "http:", "foo:"]), _URLISH)
def test_the_fast_path_agrees_with_the_full_reading(prefix: str, rest: str) -> None:
    url = prefix + rest
    assert check(url) == analyse(url).problems, url
    assert codes(url) == tuple(dict.fromkeys(p.code for p in analyse(url).problems)), url
