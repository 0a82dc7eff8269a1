"""mirror: where a file of a mirrored site was served from (``--root-url``, ``root_url=``).

A site mirrored to disk (``wget -m``, httrack) keeps each page's URL in its path:
``https://example.com/docs/a.html`` is saved as ``example.com/docs/a.html``. Given the URL of
the directory (the root URL), each file's path under it gives the URL it was retrieved from,
RFC 1808 §3.3's layer, as a :class:`MirroredURL`: a page's own record of its URL (a ``saved
from url`` comment, an MHTML ``Snapshot-Content-Location``) wins over a URL inferred from where
the file lies, where a URL the caller gives (``--url``, ``url=``) wins over those.

The conventions, those of wget's file names (``url.c``, ``url_file_name``):

    docs/a.html            URL/docs/a.html
    docs/index.html        URL/docs/    wget's --default-page: the name it gives a URL ending
                                        in "/" (a form's empty action then posts to URL/docs/)
    docs/a b.html          URL/docs/a%20b.html   not URL-safe: UTF-8 (the name's own bytes if
    docs/café.html         URL/docs/caf%C3%A9.html   it is not UTF-8), each byte %XX; a "%"
                                                     is %25 (wget wrote a URL's %25 as "%")
    docs/a.php?x=1         URL/docs/a.php?x=1    the first "?" of a file's name starts the
                                                 query (wget keeps it; --restrict-file-names=
                                                 windows writes "@" instead, which is a path
                                                 character and is kept as one)
    docs/a.php?x=1.html    URL/docs/a.php?x=1.html   --adjust-extension's ".html" is not undone:
                                                     nothing tells it from a real one

Only the document's own URL depends on the last two: a relative reference with a path
(``g``, ``../g``, ``/g``) resolves the same against either; ``""``, ``?y`` and ``#f`` do not.
"""

from __future__ import annotations

import os
from pathlib import PurePath
from urllib.parse import quote

from ..url.parts import SCHEME_RE, parse

__all__ = ["INDEX", "MirroredURL", "host_folder", "mirrored_url", "root_url"]

# wget's --default-page (and httrack's): the file a URL ending in "/" is saved as
INDEX = "index.html"

# RFC 3986 §3.3: pchar = unreserved / pct-encoded / sub-delims / ":" / "@" (quote() keeps the
# unreserved ones, letters, digits and "-._~", itself); §3.4: a query adds "/" and "?"
_SEGMENT_SAFE = "!$&'()*+,;=:@"
_QUERY_SAFE = _SEGMENT_SAFE + "/?"


class MirroredURL(str):
    """A retrieval URL inferred from a file's place in a mirrored site: a page's own saved-from
    comment wins over it (:func:`baselinks.base.layers.retrieval_base`), as it does not over a URL
    the caller gives."""

    __slots__ = ()


def root_url(url: str) -> str:
    """The root URL as the mapping uses it: absolute, without query or fragment, its path
    ending in "/" (``https://e.com/site`` is the directory ``https://e.com/site/``); else
    :class:`ValueError` saying why."""
    parts = parse(url)
    if SCHEME_RE.match(url) is None or not parts.netloc:
        raise ValueError(f"a root URL is absolute, with a host (https://example.com/): {url!r}")
    if parts.query or parts.fragment or "?" in url or "#" in url:
        raise ValueError(f"a root URL has no query or fragment: {url!r}")
    return url if url.endswith("/") else url + "/"


def mirrored_url(root: str, relative: str | os.PathLike[str]) -> MirroredURL:
    """The URL of the file at ``relative`` (a path under the mirror's directory) when the
    directory is at ``root`` (as :func:`root_url` gives it): the conventions above."""
    *folders, name = PurePath(relative).parts
    name, question, query = name.partition("?")
    if name == INDEX:
        name = ""
    path = "/".join(quote(os.fsencode(part), safe=_SEGMENT_SAFE) for part in [*folders, name])
    url = root + path
    if question:
        url += "?" + quote(os.fsencode(query), safe=_QUERY_SAFE)
    return MirroredURL(url)


def host_folder(directory: str | os.PathLike[str], root: str) -> str | None:
    """The folder ``wget -m`` made for ``root``'s host inside ``directory``, when it is there
    and the root URL's path is ``/``: ``wget -m https://docs.python.org/`` run in ``mirror/``
    saves ``mirror/docs.python.org/index.html``, and given ``mirror/`` with that root URL each
    file's path is taken under the host folder, not ``https://docs.python.org/docs.python.org/``
    (the host, as wget names the folder: lower case, ``:port`` when not the default, which
    wget writes ``+port`` on Windows). None when there is none (``directory`` is the site)."""
    parts = parse(root)
    if parts.path not in ("", "/") or not parts.netloc:
        return None
    host = (parts.hostname or "").lower()
    names = [host]
    if parts.port is not None and f":{parts.port}" in parts.netloc:
        names = [f"{host}:{parts.port}", f"{host}+{parts.port}"]
    for name in names:
        folder = os.path.join(directory, name)
        if host and os.path.isdir(folder) and not os.path.islink(folder):
            return folder
    return None
