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
common case, a well-formed ``http``/``https`` URL, is one ``fullmatch`` (``grammar.well_formed``).

``rules`` holds the rules (code, the RFC's words, an example) and the records; ``grammar`` the
character classes, host, port and login; ``schemes`` one reader per production.

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

from .grammar import FAST
from .rules import CODES, RULES, Analysis, Component, Problem, Rule
from .schemes import SCHEMES, analyse, check, codes

__all__ = [
    "CODES",
    "FAST",
    "RULES",
    "SCHEMES",
    "Analysis",
    "Component",
    "Problem",
    "Rule",
    "analyse",
    "check",
    "codes",
]
