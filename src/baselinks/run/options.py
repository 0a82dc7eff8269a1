"""run, its options: what the library's and the command line's options become before any input
is read, each checked once (a wrong value fails before the first document, by name).

    kinds, schemes,   Keep        which links of a document are kept (a worker applies it)
    same_host, external
    unique, unique_by unique_scope, unique_field, new_in_run    the first link per URL (or
                      host, canonical URL...), in a document or a run
    summary (stats)   counter     what each document's links are counted for
    root_url, root    mirrored    a file's URL in a mirrored site (base/mirror.py's conventions)
    source            given_inputs    a path, URL or stream as one Input; a directory as its files
    source            refuse_markup   a str is a path; markup passed as one is refused
    source, url...    refuse_wrong_types   a value of the wrong type fails at once, named
    --kind, --unique, add_filters   the filters as command-line options, for the command line
    --fields...                     and the Spark driver alike (argparse)
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Literal

from ..base.mirror import host_folder, mirrored_url
from ..base.mirror import root_url as checked_root
from ..errors import InputError, describe
from ..find.linktable import KINDS
from ..resolve.link import URL_FORMS, Link
from ..url.canonical import host
from ..url.parts import parse
from ..write.stats import Stats, count_all, count_no_base, without_base
from .batch import Input, Source, Summary
from .inputs import display_name, is_directory, walk

if TYPE_CHECKING:
    import argparse

__all__ = [
    "UNIQUE_BY",
    "Keep",
    "add_filters",
    "counter",
    "given_inputs",
    "keep_only",
    "mirrored",
    "new_in_run",
    "refuse_markup",
    "refuse_wrong_types",
    "unique_field",
    "unique_scope",
]


@dataclass(frozen=True)
class Keep:
    """Which links of a document are kept: ``schemes`` of the resolved URL (lower case; None:
    all), and ``hosts``: ``"same"`` the links whose host is the document's own, ``"external"``
    those whose host is another (None: all). The document's own URL is its base without
    ``<base>``: the retrieval URL (``url=``, a WARC record's target, a saved page's comment)
    under its MIME entities' bases (RFC 1808 §3.3, §3.2). Hosts are compared in lower case,
    ports and schemes aside; a link without a host (``mailto:``, ``data:``, one left relative)
    is neither same-host nor external, and neither is any link of a document without a host.
    A host is :func:`~baselinks.url.canonical.host`'s: the authority ends at "/", "?" or "#"
    (RFC 3986 §3.2), so ``http://h.com?q`` is on ``h.com``, and ``H.COM.`` is ``h.com``.
    Picklable: it runs where the document is extracted (a worker, with ``workers``)."""

    schemes: frozenset[str] | None = None
    hosts: Literal["same", "external"] | None = None

    def __call__(self, links: list[Link], own_url: str) -> list[Link]:
        if self.schemes is not None:
            schemes = self.schemes
            links = [link for link in links if parse(link.url).scheme.lower() in schemes]
        if self.hosts is not None:
            own = host(own_url)
            if own is None:
                return []
            same = self.hosts == "same"
            links = [
                link
                for link in links
                if (theirs := host(link.url)) is not None and (theirs == own) == same
            ]
        return links


def keep_only(schemes: Iterable[str] | None, same_host: bool, external: bool) -> Keep | None:
    if same_host and external:
        raise ValueError("same_host and external exclude each other: a link is one or the other")
    if isinstance(schemes, str):
        schemes = schemes.split(",")
    chosen = None if schemes is None else frozenset(s.strip().lower() for s in schemes)
    hosts: Literal["same", "external"] | None = (
        "same" if same_host else "external" if external else None
    )
    return None if chosen is None and hosts is None else Keep(chosen, hosts)


def mirrored(
    source: Source,
    url: str | None,
    root_url: str | None,
    root: str | os.PathLike[str] | None,
) -> str | None:
    """``source``'s URL in a mirrored site at ``root_url`` (mirror.py), or None without one."""
    if root_url is None:
        if root is not None:
            raise ValueError("root= is the directory of root_url=: give both")
        return None
    if url is not None:
        raise ValueError("url= and root_url= exclude each other: url= gives the URL itself")
    if root is None or not isinstance(source, str | os.PathLike):
        raise ValueError("root_url= maps a path under a directory: give the path and root=")
    relative = os.path.relpath(source, root)
    if relative == os.curdir or relative.split(os.sep)[0] == os.pardir:
        raise ValueError(f"root_url=: {os.fspath(source)!r} is no file under {os.fspath(root)!r}")
    checked = checked_root(root_url)
    site = host_folder(root, checked)  # wget -m's HOST/ folder inside root: the site's root
    if site is not None and relative.split(os.sep)[0] == os.path.basename(site):
        relative = os.path.relpath(source, site)
    return mirrored_url(checked, relative)


def given_inputs(
    source: Source,
    name: str | None,
    strict: bool,
    url: str | None,
    root_url: str | None,
    root: str | os.PathLike[str] | None,
    report: Callable[[InputError], None],
    tally: Summary,
) -> Iterator[Input]:
    """The library's ``source`` as the inputs of a run: itself, or a directory's files in name
    order as the command line walks them (:func:`~baselinks.run.inputs.walk`: each file that is
    no document skipped, not failed; with ``root_url``, each its URL under the directory, or
    under ``root``); a folder that cannot be listed is an error to ``report``, counted."""
    if not is_directory(source):
        yield Input(source, name, strict, mirrored(source, url, root_url, root))
        return
    assert isinstance(source, str | os.PathLike)

    def unlisted(exc: OSError) -> None:
        tally.failed += 1
        report(InputError(describe(exc), display_name(str(exc.filename))))

    folder = None if root_url is None else source if root is None else root
    for found in walk(source, unlisted):
        yield Input(found, None, False, mirrored(found, url, root_url, folder))


def counter(
    tally: Summary, scope: Literal["document", "run"] | None
) -> Callable[[list[Link]], tuple[int, Stats | None]]:
    """What each document's links are counted for: the no-base count always; with the
    summary's ``stats``, everything (in the main process with ``unique="run"``, after it)."""
    return count_all if tally.stats is not None and scope != "run" else count_no_base


def unique_scope(unique: bool | str | None) -> Literal["document", "run"] | None:
    if unique is True or unique == "document":
        return "document"
    if unique == "run":
        return "run"
    if unique is False or unique is None:
        return None
    raise ValueError(f"unknown unique scope {unique!r}: expected 'document' or 'run'")


# What unique_by may name: the URL, or one of its computed forms (resolve/link.py; not the
# page's, which is one value for all the links of a page).
UNIQUE_BY = ("url", *URL_FORMS)


def unique_field(unique_by: str) -> str:
    if unique_by not in UNIQUE_BY:
        raise ValueError(f"unknown unique_by {unique_by!r}: expected one of {', '.join(UNIQUE_BY)}")
    return unique_by


def new_in_run(
    links: list[Link], seen: set[str | None], tally: Summary, unique_by: str = "url"
) -> list[Link]:
    """``unique="run"``: the links of one document whose URL (or ``unique_by`` field: a link
    without a host is one value, None, for ``host``) no earlier document of the run
    had (nor an earlier link of its own). Applied in the main process, to the documents in
    input order, so that any number of workers gives the same links (each document is made
    unique in its worker first, which changes nothing here and sends less). Memory: the set
    of the distinct URLs seen."""
    new = []
    key = attrgetter(unique_by)
    for link in links:
        value = key(link)
        if value not in seen:
            seen.add(value)
            new.append(link)
    # the summary counts the links given
    tally.links -= len(links) - len(new)
    tally.no_base -= without_base(links) - without_base(new)
    if tally.stats is not None:
        tally.stats.merge(Stats.of(new))
    return new


def refuse_markup(source: Source) -> None:
    """A ``str`` is a path. Markup passed as one (as lxml and BeautifulSoup take it) would
    otherwise fail as a file name (``No such file``, ``File name too long``): say what to do."""
    if not isinstance(source, str):
        return
    if (source.lstrip().startswith("<") or "\n" in source) and not os.path.exists(source):
        raise TypeError(
            "a str is a path, and this looks like markup: pass the document as bytes "
            "(markup.encode(), or the bytes as fetched, so that its charset is honoured)"
        )


def refuse_wrong_types(source: object, **text: object) -> None:
    """A ``source`` that is no document's bytes, path or binary stream, or one of the ``text``
    options (``url=``, ``name=``...) that is no ``str``, fails at once with a TypeError naming
    it: ``iter_links(123)`` and ``url=5`` were read on, failed inside the pipeline, and were
    reported as "internal error (a bug in baselinks ...)". Markup passed as a path too
    (:func:`refuse_markup`)."""
    if isinstance(source, io.TextIOBase):
        raise TypeError("source is a text stream: open the file in binary mode ('rb')")
    if not isinstance(source, bytes | bytearray | memoryview | str | os.PathLike) and not callable(
        getattr(source, "read", None)
    ):
        raise TypeError(
            f"source must be bytes, a path or a binary file, not {type(source).__name__}"
        )
    for name, value in text.items():
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    refuse_markup(source)  # type: ignore[arg-type]  # (a str is a path: checked above)


def add_filters(parser: argparse.ArgumentParser, formats: str) -> None:
    """``--kind``, ``--unique[=run]``, ``--unique-by``, ``--fields``, ``--scheme``,
    ``--same-host`` and ``--external`` on ``parser`` (``baselinks extract``'s, the Spark driver's):
    one grammar for the filters of the library's :func:`~baselinks.iter_links`. ``formats``: where
    ``--fields`` applies, for its help."""
    parser.add_argument(
        "--kind",
        action="append",
        choices=KINDS,
        dest="kinds",
        help="only links of this kind (repeatable)",
    )
    # "--unique=run" is an option string of its own (argparse matches a whole one before it
    # splits at "="), so that "--unique PATH" still reads PATH as a path.
    parser.add_argument(
        "--unique",
        "--unique=document",
        action="store_const",
        const="document",
        dest="unique",
        help="only the first link for each URL in each document",
    )
    parser.add_argument(
        "--unique=run",
        action="store_const",
        const="run",
        dest="unique",
        # (no "-j" here: Spark's driver has none; its help is made from this one)
        help="only the first link for each URL in the whole run (in input order, whatever "
        "the processes; memory: a set of the distinct URLs)",
    )
    parser.add_argument(
        "--unique-by",
        choices=UNIQUE_BY,
        default="url",
        metavar="FIELD",
        help="with --unique: the field kept once, url (default) or a computed form of it: "
        "canonical, surt, host, domain (the first link to each host)",
    )
    parser.add_argument(
        "--fields",
        type=_fields,
        metavar="A,B,C",
        help=f"only these fields, in this order ({formats}); besides the record's, the "
        "computed host, domain, surt, canonical",
    )
    parser.add_argument(
        "--scheme",
        type=_schemes,
        dest="schemes",
        metavar="S,T",
        help="only links whose resolved URL has one of these schemes (e.g. http,https)",
    )
    hosts = parser.add_mutually_exclusive_group()
    hosts.add_argument(
        "--same-host",
        action="store_true",
        help="only links to the document's own host (its own URL's: a WARC record's target, "
        "the URL given)",
    )
    hosts.add_argument(
        "--external",
        action="store_true",
        help="only links to another host than the document's own (links without a host: neither)",
    )


def _fields(value: str) -> tuple[str, ...]:
    import argparse

    from ..write.formats import check_fields

    try:
        return check_fields(name.strip() for name in value.split(","))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _schemes(value: str) -> tuple[str, ...]:
    import argparse

    schemes = tuple(name.strip().lower() for name in value.split(",") if name.strip())
    if not schemes:
        raise argparse.ArgumentTypeError(f"expected schemes, comma-separated: {value!r}")
    return schemes
