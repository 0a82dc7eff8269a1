"""Short, stable problem codes for a reference and its resolution (the ``problems`` field).

Each code names one thing a careful reader of the RFCs would point out. The order of the returned
tuple is the order of :data:`CODES`, so output is stable.

============================  ==============================================================
``no-base``                   a relative reference with no base (RFC 1808 §3.4: the base is
                              the empty string), reported as written
``unresolvable``              the mode could not resolve it (a WHATWG URL parser failure)
``invalid-character``         a character the RFC 1808 / RFC 1738 grammar says must be escaped:
                              space, ``< > " { } | \\ ^ ```, controls, non-ASCII (RFC 1738
                              §2.2). ``~ [ ]`` are *not* flagged: RFC 3986 made ``~``
                              unreserved and ``[ ]`` delimit IPv6 literals (RFC 2732)
``bad-escape``                a ``%`` not followed by two hex digits (RFC 1738 §2.2)
``scheme-relative-loophole``  ``http:g`` against an ``http`` base: the scheme is repeated
                              without a net_loc, which old parsers resolved relatively;
                              "should be avoided by future parsers" (RFC 1808 §5.2)
``colon-in-first-segment``    a relative path whose first segment holds a ``:``, a scheme
                              RFC 3986 would not accept (``1a:b``), or a scheme no registry
                              knows (``this:that``, RFC 1808 §5.3's own example) and no ``//``
                              after it: parsers disagree on whether it is a scheme, or the
                              author meant a path; write ``./this:that`` (RFC 1808 §5.3)
``unsuitable-base``           a relative reference against a base that does not use the
                              generic-RL syntax (``mailto:``, ``news:``, ``telnet:``,
                              ``data:``...; RFC 1808 §2.3: "The following schemes are never
                              used with relative URLs: mailto, news, telnet")
``dot-segments-above-root``   a ``..`` left in the result that goes above the root of an
                              absolute path (``http://a/../g``): more ``..`` than the base has
                              levels (RFC 1808 §5.2). Not ``/g/../h`` (Step 4 leaves it, but
                              it stays below the root), not a relative path (``ftp:../x``)
``path-as-netloc``            the result has no net_loc and its path begins ``/.//``: written
                              plainly it would read back with a net_loc neither URL had
                              (``http:/b/c`` + ``..//evil/x``); "the ".." syntax cannot be used
                              to change the <net_loc> of a URL" (RFC 1808 §5.2)
``control-character``         the result holds a control character (C0, DEL, C1) or a line
                              separator (U+2028, U+2029), from the reference or the base:
                              ``--format text`` writes it percent-encoded (RFC 1738 §2.2:
                              controls "are not printable")
``missing-double-slash`` ...  the RFC 1738 rules (``rfc1738.RULES``, each with the RFC's
                              words), checked on the result, the URL as resolved, in every
                              mode, in this order: ``missing-double-slash``,
                              ``user-not-allowed``, ``login-delimiter``, ``user-character``,
                              ``password-character``, ``empty-host``, ``invalid-hostname``,
                              ``invalid-hostnumber``, ``empty-port``, ``invalid-port``,
                              ``port-not-allowed``, ``missing-path``, ``path-character``,
                              ``search-character``, ``invalid-ftptype``, ``telnet-path``,
                              ``empty-mailto``, ``news-grouppart``, ``nntp-path``,
                              ``wais-path``, ``prospero-fieldspec``, ``schemepart-character``
``saved-copy``                a relative reference into the folder a browser saved beside the
                              page (``./page_files/a.css``; the folder is there on disk): the
                              URL never existed, the file is ``raw`` beside ``document``
                              (:func:`saved_copy`, not :func:`diagnose`, which sees no disk)
============================  ==============================================================

The walker's own codes (find/walk.py: ``invalid-srcset-descriptor``, ``nonstandard-attribute``,
``inert-template``, ``in-noscript``) are not in :data:`CODES`: a link's problems give them after
diagnose's and before ``saved-copy`` (docs/reference.md, "Problem codes").
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from functools import lru_cache
from urllib.parse import unquote

from ..compiled import load as load_compiled
from ..errors import CONTROLS
from . import rfc1738
from .parts import SCHEME_RE, split

__all__ = ["CODES", "CONTROL_CHARACTERS", "diagnose", "saved_copy"]

# diagnose() sets one flag for each of these, in this order; then come the RFC 1738 rules; then
# saved-copy, which asks the disk (saved_copy(), not diagnose()).
_FLAGGED = (
    "no-base",
    "unresolvable",
    "invalid-character",
    "bad-escape",
    "scheme-relative-loophole",
    "colon-in-first-segment",
    "unsuitable-base",
    "dot-segments-above-root",
    "path-as-netloc",
    "control-character",
)
CODES = (*_FLAGGED, *rfc1738.CODES, "saved-copy")

# What control-character flags, and what --format text percent-encodes (write/formats.py): one
# line per URL for every reader, including those that split at U+0085, U+2028 and U+2029.
CONTROL_CHARACTERS = re.compile(rf"[{CONTROLS}]")

# One character class each: a search is linear in the input, no backtracking possible.
_INVALID = re.compile(r'[\x00-\x20\x7f-\U0010ffff<>"{}|\\^`]')
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_RFC3986_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_DOTDOT = re.compile(r"(?:^|/)\.\.(?:/|$)")

# Schemes that do not use the generic-RL syntax (RFC 1808 §2.3: "The following schemes are
# never used with relative URLs: mailto, news, telnet"; the rest are later schemes with the
# same opaque shape). A base with one of these cannot anchor a relative reference, even
# written with "//" (telnet://host/).
_OPAQUE_SCHEMES = frozenset(
    {
        "mailto",
        "news",
        "telnet",
        "data",
        "javascript",
        "urn",
        "tel",
        "sms",
        "about",
        "cid",
        "mid",
        "blob",
    }
)

# RFC 1808 §5.3: "a path segment which contains a colon character cannot be used as the first
# segment of a relative URL path (e.g., "this:that"), because it would be mistaken for a scheme
# name." Nothing in "this:that" says which was meant; a scheme that no registry knows, with no
# "//" after it, is the sign the author meant a path. Known: RFC 1738's schemes, those of later
# RFCs and the URL Standard, and IANA's registered schemes that pages link with (checked
# against the corpus: mw-data:, android-app:, ios-app:, fb-messenger: are not registered).
_KNOWN_SCHEMES = frozenset(
    {
        *rfc1738.SCHEMES,
        *_OPAQUE_SCHEMES,
        "https",
        "ws",
        "wss",
        # HTML 4 §13.3's object classid: "java:program.start", "clsid:663C8FEF-..."
        "clsid",
        "java",
        "callto",
        "chrome",
        "chrome-extension",
        "facetime",
        "feed",
        "geo",
        "git",
        "im",
        "irc",
        "ircs",
        "itms",
        "ldap",
        "magnet",
        "maps",
        "market",
        "mms",
        "rsync",
        "rtsp",
        "sftp",
        "sip",
        "sips",
        "skype",
        "smb",
        "spotify",
        "ssh",
        "steam",
        "svn",
        "view-source",
        "webcal",
        "whatsapp",
        "xmpp",
    }
)


@lru_cache(maxsize=256)
def _base_facts(base: str) -> tuple[str, bool]:
    """The base's scheme in lower case, and whether it is unsuitable for relative references.

    Cached: a document's links all share one base, and diagnose runs once per link.
    """
    scheme, netloc, path, _, _, _ = split(base)
    scheme = scheme.lower()
    # Any scheme without "//" and without an absolute path is opaque too ("foo:bar").
    opaque = bool(scheme) and netloc is None and not path.startswith("/")
    return scheme, scheme in _OPAQUE_SCHEMES or opaque


# Relative reference: the path is what precedes the first "#", "?" or ";" (RFC 1808 §2.4.1,
# §2.4.4, §2.4.5), unless "//" starts a net_loc, and its first segment runs to the first "/".
# So a ":" in the first segment is a ":" before any of "/?#;". One character class: linear.
_COLON_IN_FIRST = re.compile(r"[^/?#;]*:")


def diagnose(base: str, embedded: str, result: str | None) -> tuple[str, ...]:
    """Return the problem codes for ``embedded`` resolved against ``base``.

    ``result`` is what the resolver returned, or ``None`` when it failed (``unresolvable``);
    the RFC 1738 rules are checked on it.
    """
    # Runs once per link, so each test is one C-level call on the string; the components are
    # never split out. tests/test_diagnose.py checks it against a literal reading of the table
    # above that splits everything (RFC 1808 §2.4).
    #
    # The well-formed http(s) URL (rfc1738.FAST: 55,385 of the corpus's 56,918 results) holds,
    # before any "#", only characters RFC 1738 allows: no invalid-character, no control, and
    # its one fullmatch also stands for the RFC 1738 rules, unless a "%" asks for the escapes
    # to be read. An absolute reference of that shape, left as it is by the resolver (32,000 of
    # them), has a scheme and a net_loc, so none of the reference's own codes either: only a
    # "%" (bad-escape) or a ".." (dot-segments-above-root) can add one. That case returns at
    # once, the others skip the tests it answers (figures in the commit that added this).
    well_formed = clean = False
    if result is not None:
        well_formed = rfc1738.FAST.fullmatch(result) is not None
        clean = well_formed and "#" not in result
        if clean and result == embedded and "%" not in result and ".." not in result:
            return ()
    no_base = loophole = colon = unsuitable = False
    match = SCHEME_RE.match(embedded)
    if match is not None:
        end = match.end()
        netloc = embedded.startswith("//", end)
        scheme = embedded[: end - 1].lower()
        # "http:g": a scheme, and no "//" after it (the net_loc is absent)
        if base and not netloc:
            loophole = scheme == _base_facts(base)[0]
        colon = _RFC3986_SCHEME.match(embedded) is None or (
            not netloc and scheme not in _KNOWN_SCHEMES
        )
    else:
        colon = ":" in embedded and _COLON_IN_FIRST.match(embedded) is not None
        if not base:
            no_base = bool(embedded)
        else:
            unsuitable = _base_facts(base)[1]
    invalid = _INVALID.search(embedded) is not None
    bad_escape = "%" in embedded and _BAD_ESCAPE.search(embedded) is not None
    above_root = as_netloc = control = False
    syntax: tuple[str, ...] = ()
    if result is not None:
        if ".." in result:
            above_root = _above_root(result)
        as_netloc = "/.//" in result and _path_as_netloc(result)
        # Without a base the result is the relative reference, not an RFC 1738 URL. A
        # well-formed one needs only its escapes read (rfc1738.codes would match FAST again).
        if not no_base and (
            not well_formed or ("%" in result and _BAD_ESCAPE.search(result) is not None)
        ):
            syntax = rfc1738.codes(result)
        # CONTROL_CHARACTERS are all Cc, Zl or Zp, which str.isprintable() refuses: a printable
        # result (nearly every one) has none, told by one C loop in 136 ns against the
        # search's 247.
        control = (
            not clean and not result.isprintable() and CONTROL_CHARACTERS.search(result) is not None
        )
    quiet = not (no_base or invalid or bad_escape or loophole or colon or unsuitable)
    if quiet and not (result is None or above_root or as_netloc or control):
        return syntax  # nearly every reference
    flags = (
        no_base,
        result is None,
        invalid,
        bad_escape,
        loophole,
        colon,
        unsuitable,
        above_root,
        as_netloc,
        control,
    )
    return tuple(code for code, on in zip(_FLAGGED, flags, strict=True) if on) + syntax


def _above_root(result: str) -> bool:
    """RFC 1808 §5.2: does a ``..`` of the result's absolute path go above its root?

    ``http://a/../g`` does; ``http://a/g/../h`` (left by Step 4) does not, nor does a relative
    path (``ftp:../x``, or ``../g`` with no base), which has no root to go above.
    """
    path = split(result)[2]
    if path[:1] != "/" or _DOTDOT.search(path) is None:
        return False
    depth = 0
    for segment in path[1:].split("/"):
        if segment == "..":
            if depth == 0:
                return True
            depth -= 1
        elif segment != ".":
            depth += 1
    return False


def _path_as_netloc(result: str) -> bool:
    """No net_loc, and a path that ``url.recombine`` had to begin with ``/.`` (``/.//x``)."""
    _, netloc, path, _, _, _ = split(result)
    return netloc is None and path.startswith("/.//")


# "Save page, complete" in Chrome and Firefox writes page.html and, beside it, the folder
# page_files/ with the page's style sheets, images and scripts, and rewrites the page's links
# into it: <link href="./page_files/site.css">. Against the page's "saved from url" (or any
# URL given) such a link becomes https://site/blog/page_files/site.css, a URL that never
# existed. (Internet Explorer's localised names, "-Dateien", "_archivos"..., are not known.)
_SAVED_FOLDER_SUFFIX = "_files"


def saved_copy(document: str, references: Iterable[str]) -> list[bool]:
    """For each reference of the file ``document`` (as written), whether it points into a
    saved copy's folder: a relative path whose first segment ends in ``_files`` and names a
    folder that is there on disk beside the document. The string tests come first; the disk
    is asked once per folder name of the document."""
    directory = os.path.dirname(document)
    folders: dict[str, bool] = {}
    marks = []
    suffix = len(_SAVED_FOLDER_SUFFIX)
    for reference in references:
        path = reference.strip("\t\n\x0c\r ")
        start = 2 if path.startswith("./") else 0
        slash = path.find("/", start)
        # not: an absolute URL, "/x", "#x", "?x", "../x", or no folder named so. Positions,
        # not copies: the first segment is cut out only when it ends so (once a link).
        if (
            slash - start >= suffix
            and path[slash - suffix : slash].lower() == _SAVED_FOLDER_SUFFIX
            and path.find(":", start, slash) < 0
        ):
            first = path[start:slash]
            if first not in folders:
                folders[first] = _is_folder(directory, first)
            marks.append(folders[first])
        else:
            marks.append(False)
    return marks


def _is_folder(directory: str, name: str) -> bool:
    # as written (Chrome writes "./My Page_files/"), else percent-decoded (Firefox escapes).
    # Decoded, a name is one folder beside the document or none: "..%2Fsecret_files" was
    # looked up as ../secret_files, outside the input, and whether that folder exists showed
    # in the output (saved-copy). Nor "%5C" (a separator on Windows), nor a NUL.
    if os.path.isdir(os.path.join(directory, name)):
        return True
    if "%" not in name:
        return False
    decoded = unquote(name)
    return _ONE_NAME.fullmatch(decoded) is not None and os.path.isdir(
        os.path.join(directory, decoded)
    )


# A name that is one path segment: no separator, no NUL (it ends in "_files": never . or ..).
_ONE_NAME = re.compile(r"[^/\\\x00]+")


# A reference into such a folder holds "_files/" (in any case, and any case folding that
# .lower() above knows of: IGNORECASE matches a superset): one search of a page's references
# together rules out most pages at once, each reference looked at by saved_copy only after.
_INTO_SAVED_FOLDER = re.compile(re.escape(_SAVED_FOLDER_SUFFIX) + "/", re.IGNORECASE)


def mentions_saved_folder(references: Iterable[str]) -> bool:
    """Whether any of ``references`` may point into a saved copy's folder (False: none does,
    and :func:`saved_copy` would mark none)."""
    return _INTO_SAVED_FOLDER.search("\n".join(references)) is not None


# The compiled diagnose (_cresolve.pyx), or None: not built, or BASELINKS_PURE=1 (compiled.py).
_cresolve = load_compiled("baselinks.url._cresolve")
#: The pure-Python diagnose above: the reference the compiled one is tested against
#: (tests/test_compiled_resolve.py), and what runs where it is not built.
pure_diagnose = diagnose
if _cresolve is not None:
    diagnose = _cresolve.bind_diagnose(globals())  # the same function, its scans in C
