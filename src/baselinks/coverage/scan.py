"""scan: the inputs → the store: every capture an archive holds, every file of a mirror.

    archive (WARC, ARC, WACZ)  load/containers/captures.py: one capture per response, revisit,
                               resource record; an HTML page's anchors read (fragments.py)
    mirrored file (--root-url) one capture, ``file``, at the URL its path gives (base/mirror.py;
                               a folder's index.html its folder's URL too: keys.py); no status,
                               no date (a mirror keeps neither: wget sets a file's time from
                               Last-Modified, not from when it was fetched)
    anything else              no capture (a file given without --root-url)

The extraction of the same inputs reads them again and says what is damaged; the scan says
nothing of it (the same damage would be said twice). A page is parsed here for its anchors with
the parser extraction uses, so that both read one tree.
"""

from __future__ import annotations

import mimetypes
import os
from collections.abc import Iterable
from typing import Any, NamedTuple

from ..errors import InputError
from ..load.containers.captures import Capture, is_archive, iter_captures
from ..load.containers.doctypes import file_type
from ..load.containers.entries import Part, Skipped
from ..load.containers.sniff import HEAD_BYTES, Kind, sniff
from ..load.document import load
from ..run.inputs import open_source
from .fragments import anchors_of
from .inputs import Input
from .keys import mirror_aliases
from .store import CaptureStore

__all__ = ["Scanned", "page_anchors", "scan"]


class Scanned(NamedTuple):
    """What a scan found: captures kept, archives and mirrored files read, files that are
    neither (no URL to capture them at: given without ``--root-url``, or beside a mirror's
    host folder), and the inputs to extract links from (all but those)."""

    captures: int
    archives: int
    mirrored: int
    unplaced: list[str]
    extract: list[Input]


def page_anchors(page: Part | None, parser: str | None) -> set[str] | None:
    """The anchors of an HTML page (None: no page, or one that cannot be parsed)."""
    if page is None or page.body is None:
        return None
    try:
        document = load(page.body, charset=page.charset, name=page.name, parser=parser)
    except (InputError, ValueError, OSError):
        return None
    return set(anchors_of(document.tree))


def scan(inputs: Iterable[Input], store: CaptureStore, *, parser: str | None = None) -> Scanned:
    """Every capture of ``inputs`` (name, source, named, mirrored URL: coverage_inputs's)
    into ``store``."""
    captures = archives = mirrored = 0
    unplaced: list[str] = []
    extract: list[Input] = []
    for given in inputs:
        name, source, named, url = given
        kind = ""
        try:
            opened = open_source(source, name, named)
            if isinstance(opened, Skipped):
                continue
            with opened.stream as stream:
                head = _peek(stream)
                if is_archive(head, name):
                    kind = "archive"
                    for capture in iter_captures(stream, name):
                        anchors = page_anchors(capture.page, parser)
                        captures += store.add(capture, "archive", anchors) is not None
                elif url is not None:
                    kind = "mirrored"
                    captures += _mirrored(stream, head, name, url, store, parser)
                else:
                    kind = "unplaced"
        except (OSError, ValueError, InputError, EOFError):
            pass  # damage extraction says
        finally:
            archives += kind == "archive"
            mirrored += kind == "mirrored"
            if kind == "unplaced":
                unplaced.append(name)
            else:
                extract.append(given)
    return Scanned(captures, archives, mirrored, unplaced, extract)


def _peek(stream: Any) -> bytes:
    if stream.seekable():
        position = stream.tell()
        head = stream.read(HEAD_BYTES)
        stream.seek(position)
        return bytes(head)
    raise ValueError("an input read twice must be a file (not a pipe)")


def _mirrored(
    stream: Any, head: bytes, name: str, url: str, store: CaptureStore, parser: str | None
) -> int:
    """A mirrored file's captures: its URL's, and its aliases' (keys.mirror_aliases)."""
    mime = mimetypes.guess_type(os.path.basename(name).partition("?")[0])[0]
    anchors = None
    # a page as extraction reads a file found in a folder (load/containers: _document)
    if sniff(head, name) is Kind.HTML and file_type(name, head) is None:
        mime = mime if mime in ("text/html", "application/xhtml+xml") else "text/html"
        anchors = page_anchors(Part(name, stream.read()), parser)
    kept = 0
    for each in (url, *mirror_aliases(url)):
        capture = Capture(each, None, "file", mime=mime, file=name)
        kept += store.add(capture, "mirror", anchors) is not None
    return kept
