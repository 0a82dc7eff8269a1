"""RFC 1808 §2.4 parsing into :class:`URLParts`, RFC 1738 §3.1 login, §4 Step 7 recombination.

RFC 1808 §2.4 parses a URL by peeling components off a "parse string" in a fixed order:
fragment (§2.4.1), scheme (§2.4.2), net_loc (§2.4.3), query (§2.4.4), params (§2.4.5), and
what is left is the path (§2.4.6). :func:`split` does exactly that, in that order.

Two consequences of following the RFC's letter, both deliberate and tested:

* The net_loc runs "up to, but not including, the next slash" (§2.4.3), and the §2.2 grammar
  allows ``;`` and ``?`` in it (``net_loc = *( pchar | ";" | "?" )``), so ``http://a?q`` has
  net_loc ``a?q`` and no query.
* A delimiter with nothing after it yields an *empty* component, and RFC 1808 treats empty and
  absent alike (``g?`` has an empty query, the same as ``g``). The one place where that folding
  would corrupt a URL is the net_loc of ``file:///usr/share/doc`` (RFC 1738 §3.10 allows an empty
  host): :class:`URLParts` remembers that the ``//`` was there, so recombination writes it back.

This module imports only the standard library.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

__all__ = [
    "DEFAULT_PORTS",
    "Login",
    "URLParts",
    "has_dot_segment",
    "login_bounds",
    "parse",
    "recombine",
    "remove_dot_segments",
    "split",
]

# RFC 1808 §2.4.2: "If the parse string contains a colon ":" after the first character and
# before any characters not allowed as part of a scheme name (i.e., any not an alphanumeric,
# plus "+", period ".", or hyphen "-"), the <scheme> of the URL is the substring of characters
# up to but not including the first colon."  One or more scheme characters, then the colon:
# the pattern cannot backtrack (a single character class followed by a literal).
SCHEME_RE = re.compile(r"[A-Za-z0-9+.\-]+:")

# RFC 1738 §3: "If :<port> is omitted, the port defaults to 80" (§3.3 HTTP); 21 (§3.2 FTP), 70
# (§3.4 Gopher), 119 (§3.7 NNTP), 23 (§3.8 Telnet), 210 (§3.9 WAIS), 1525 (§3.11 Prospero).
DEFAULT_PORTS = {
    "ftp": 21,
    "gopher": 70,
    "http": 80,
    "nntp": 119,
    "prospero": 1525,
    "telnet": 23,
    "wais": 210,
}


class Login(NamedTuple):
    """RFC 1738 §3.1 ``<user>:<password>@<host>:<port>``; ``None`` = absent, ``""`` = empty."""

    user: str | None
    password: str | None
    host: str
    port: str | None


class _Components(NamedTuple):
    scheme: str
    netloc: str
    path: str
    params: str
    query: str
    fragment: str


class URLParts(_Components):
    """The six RFC 1808 components; ``str(parts)`` recombines them (§4 Step 7).

    ``path`` keeps the slash that may precede it (§2.4.6: "Often this is done by simply storing
    the preceding slash along with the path"), so ``parts.path.startswith("/")`` tells an
    absolute path from a relative one.

    An absent component is ``""``, as in the RFC. The one extra fact kept is
    :attr:`has_netloc`: whether ``//`` was written even though the net_loc is empty
    (``file:///etc/hosts``). It takes part in equality and is carried by ``_replace``.
    """

    # A tuple subclass cannot have non-empty __slots__, so instances get a __dict__; it holds
    # only the "empty net_loc was present" flag, and only when that flag is set.

    def __new__(
        cls,
        scheme: str = "",
        netloc: str = "",
        path: str = "",
        params: str = "",
        query: str = "",
        fragment: str = "",
        *,
        netloc_present: bool = False,
    ) -> URLParts:
        self = super().__new__(cls, scheme, netloc, path, params, query, fragment)
        if netloc_present and not netloc:
            self.__dict__["_empty_netloc"] = True
        return self

    @property
    def has_netloc(self) -> bool:
        """True when the URL has a net_loc, even an empty one written as ``//``."""
        return bool(self.netloc) or "_empty_netloc" in self.__dict__

    def _replace(self, **changes: Any) -> URLParts:
        fields = self._asdict()
        fields.update(changes)
        present = self.has_netloc if "netloc" not in changes else bool(changes["netloc"])
        return URLParts(**fields, netloc_present=present)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, URLParts):
            return tuple.__eq__(self, other) and self.has_netloc == other.has_netloc
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((tuple(self), self.has_netloc))

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={value!r}" for name, value in self._asdict().items())
        if self.has_netloc and not self.netloc:
            inner += ", netloc_present=True"
        return f"URLParts({inner})"

    def __str__(self) -> str:
        return recombine(*self, netloc_present=self.has_netloc)

    def login(self) -> Login:
        """Split the net_loc per RFC 1738 §3.1: ``//<user>:<password>@<host>:<port>``.

        "Some or all of the parts "<user>:<password>@", ":<password>", ":<port>", and "/<url-path>"
        may be excluded." An excluded part is ``None``; one written but empty is ``""``:
        ``ftp://@host.com/`` has user ``""`` and password ``None``; ``ftp://foo:@host.com/`` has
        user ``"foo"`` and password ``""``. Where the net_loc splits is :func:`login_bounds`.
        """
        netloc = self.netloc
        at, user_end, host_end = login_bounds(netloc)
        user = password = port = None
        if at >= 0:
            user = netloc[:user_end]
            if user_end < at:
                password = netloc[user_end + 1 : at]
        if host_end < len(netloc):
            port = netloc[host_end + 1 :]
        return Login(user, password, netloc[at + 1 : host_end], port)

    # What urllib.parse's SplitResult offers, read by RFC 1738 §3.1 instead of by urllib's rules.

    @property
    def hostname(self) -> str | None:
        """The host in lower case (an IPv6 literal without its brackets); ``None`` when empty."""
        host = self.login().host
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
        return host.lower() or None

    @property
    def port(self) -> int | None:
        """The port written, as an ``int``; else the scheme's RFC 1738 default
        (:data:`DEFAULT_PORTS`: ``http`` 80, ``ftp`` 21, ...); else ``None``.

        A port that is not digits (``http://h:abc/``) gives ``None``, where urllib raises:
        ``baselinks.check`` reports it (``invalid-port``), and the parser never raises.
        """
        port = self.login().port
        if port and port.isascii() and port.isdigit():
            return int(port)
        if port:
            return None
        return DEFAULT_PORTS.get(self.scheme.lower())

    @property
    def username(self) -> str | None:
        """The user as written (still %-encoded); ``None`` when the login has none."""
        return self.login().user

    @property
    def password(self) -> str | None:
        """The password as written (still %-encoded); ``None`` when the login has none."""
        return self.login().password


def login_bounds(netloc: str) -> tuple[int, int, int]:
    """Where RFC 1738 §3.1's ``<user>:<password>@<host>:<port>`` splits ``netloc``.

    Returns ``(at, user_end, host_end)``: the ``@`` that ends the login (-1 when none), the
    ``:`` that ends the user (``at`` when there is no password), and where the host ends (the
    ``:`` before the port, or ``len(netloc)``). One source for :meth:`URLParts.login` and for
    ``baselinks.check``, which reports what this reading had to tolerate:

    * §3.1: "Within the user and password field, any ":", "@", or "/" must be encoded", so a
      login holds no ``@`` and the user no ``:``. When it does anyway, the *last* ``@`` ends the
      login, as the URL Standard's https://url.spec.whatwg.org/#authority-state does
      (``http://a@b@c/`` has host ``c``), and the *first* ``:`` ends the user
      (``ftp://a:b:c@h/`` has password ``b:c``). Not a browser's reading of w3lib's
      ``http://evil.com\\@good.com/``: for http a browser ends the authority at a ``\\`` as at
      a ``/`` and goes to ``evil.com``, while RFC 1808 runs the net_loc to the next ``/``, so
      here (as in urllib) the host is ``good.com``; ``baselinks.check`` flags the login
      (``user-not-allowed``, ``user-character`` for the ``\\``).
    * ``host = hostname | hostnumber`` holds no ``:``, so the host ends at the first ``:``
      after the login (``http://host:80:90/`` has host ``host`` and port ``80:90``), except
      that a bracketed IPv6 literal (RFC 2732) keeps its colons: the port follows ``]:``.
    """
    at = netloc.rfind("@")
    user_end = netloc.find(":", 0, at) if at > 0 else -1
    if user_end < 0:
        user_end = at
    start = at + 1
    if netloc.startswith("[", start):
        close = netloc.find("]", start)
        host_end = close + 1 if close >= 0 and netloc.startswith(":", close + 1) else len(netloc)
    else:
        host_end = netloc.find(":", start)
        if host_end < 0:
            host_end = len(netloc)
    return at, user_end, host_end


def split(url: str) -> tuple[str, str | None, str, str, str, str]:
    """RFC 1808 §2.4 in the RFC's order; the net_loc is ``None`` when no ``//`` was written.

    This is the fast, allocation-light form used by the resolver; :func:`parse` wraps it.
    """
    # RFC 1808 §2.4.1 (fragment): after the first "#"; removed with the "#".
    fragment = ""
    hash_at = url.find("#")
    if hash_at >= 0:
        fragment = url[hash_at + 1 :]
        url = url[:hash_at]
    # RFC 1808 §2.4.2 (scheme): up to the first ":" if only scheme characters precede it.
    scheme = ""
    match = SCHEME_RE.match(url)
    if match is not None:
        end = match.end()
        scheme = url[: end - 1]
        url = url[end:]
    # RFC 1808 §2.4.3 (net_loc): after "//", up to but not including the next "/".
    netloc: str | None = None
    if url.startswith("//"):
        slash = url.find("/", 2)
        if slash < 0:
            netloc, url = url[2:], ""
        else:
            netloc, url = url[2:slash], url[slash:]
    # RFC 1808 §2.4.4 (query): after the first "?".
    query = ""
    question = url.find("?")
    if question >= 0:
        query = url[question + 1 :]
        url = url[:question]
    # RFC 1808 §2.4.5 (params): after the first ";".
    params = ""
    semicolon = url.find(";")
    if semicolon >= 0:
        params = url[semicolon + 1 :]
        url = url[:semicolon]
    # RFC 1808 §2.4.6 (path): what is left, with the "/" that may precede it.
    return scheme, netloc, url, params, query, fragment


def parse(url: str) -> URLParts:
    """Parse ``url`` into its six RFC 1808 components (§2.4.1 to §2.4.6, in that order)."""
    scheme, netloc, path, params, query, fragment = split(url)
    if netloc is None:
        return URLParts(scheme, "", path, params, query, fragment)
    return URLParts(scheme, netloc, path, params, query, fragment, netloc_present=True)


def recombine(
    scheme: str,
    netloc: str,
    path: str,
    params: str,
    query: str,
    fragment: str,
    *,
    netloc_present: bool = False,
) -> str:
    """RFC 1808 §4 Step 7: "The resulting URL components ... are recombined".

    Each non-empty component is written with its delimiter. Two rules the RFC leaves implicit:

    * ``//`` is written when the net_loc is non-empty *or* was present but empty
      (``file:///a/c``, never ``file:/a/c``: RFC 1738 §3.10 requires the ``//``).
    * RFC 1738 §3.1: "the '/' between the host (or port) and the url-path is NOT part of the
      url-path", so a relative path after a net_loc gets that ``/`` (``http://a`` + ``g`` is
      ``http://a/g``, not ``http://ag``). So do params or a query after a net_loc with an empty
      path (``http://a/?y``): RFC 1738 §3.3 omits the "/" only when both path and searchpart
      are absent, and without it §2.4.3 would read ``?y`` back as part of the net_loc.
    * Without a net_loc, a path that begins with ``//`` would be read back as one (§2.4.3):
      ``http:/b/c`` + ``..//evil/x`` would give ``http://evil/x``, a host neither URL had,
      though "the ".." syntax cannot be used to change the <net_loc> of a URL" (RFC 1808
      §5.2). Such a path is written ``/.//evil/x``, as the URL Standard's serializer does
      (https://url.spec.whatwg.org/#concept-url-serializer; RFC 3986 §3.3: without an
      authority, "the path cannot begin with two slash characters"); ``diagnose`` reports
      ``path-as-netloc``.
    """
    out = f"{scheme}:" if scheme else ""
    if netloc or netloc_present:
        out += "//" + netloc
        if (path[:1] != "/") if path else (params or query):
            out += "/"
    elif path[:2] == "//":
        out += "/."
    out += path
    if params:
        out += ";" + params
    if query:
        out += "?" + query
    if fragment:
        out += "#" + fragment
    return out


def remove_dot_segments(path: str) -> str:
    """RFC 1808 §4 Step 6, operations a to d, on a path without its leading slash.

    The stack below is the iterative rule of 6c ("removing the leftmost matching pattern on
    each iteration") in one pass: a ``..`` followed by ``/`` cancels the segment before it
    unless that segment is itself ``..``; a final ``..`` does the same (6d) and leaves the
    trailing slash.
    """
    segments = path.split("/")
    last = len(segments) - 1
    # a) All occurrences of "./", where "." is a complete path segment, are removed.
    # b) If the path ends with "." as a complete path segment, that "." is removed.
    kept = [seg for seg in segments[:last] if seg != "."]
    kept.append("" if segments[last] == "." else segments[last])
    # c) "<segment>/../" removed, leftmost first, until none remains (segment != "..").
    stack: list[str] = []
    for seg in kept[:-1]:
        if seg == ".." and stack and stack[-1] != "..":
            stack.pop()
        else:
            stack.append(seg)
    # d) If the path ends with "<segment>/..", that "<segment>/.." is removed.
    final = kept[-1]
    if final == ".." and stack and stack[-1] != "..":
        stack.pop()
        final = ""
    stack.append(final)
    return "/".join(stack)


def has_dot_segment(path: str) -> bool:
    """Cheap pre-check: could ``path`` hold a "." or ".." segment? (False positives are fine.)"""
    return "./" in path or path.endswith(".")
