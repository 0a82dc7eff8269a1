"""inputs: the paths given → what a coverage run reads: archives, and a mirror's files with
the URL each was saved from.

A folder given with ``--root-url`` is a mirrored site (base/mirror.py gives each file's URL
from its path). When it holds the folder ``wget -m`` made for the root URL's host (its run
folder: ``mirror/site.example/...``, as extract reads it), the folders beside that one named as
hosts are the other hosts it saved (``wget -m -H``: ``mirror/cdn.example/lib/a.png`` is
``https://cdn.example/lib/a.png``, the root URL's scheme), and the files beside them are no
page of the site (HTTrack's ``index.html`` of its projects, ``hts-log.txt``, ``hts-cache/``,
wget's log): they are left out, counted. An archive found in a folder is read wherever it
lies.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from ..base.mirror import host_folder, mirrored_url
from ..run.inputs import Source, display_name, is_directory, is_url, walk

__all__ = ["Input", "coverage_inputs"]

Input = tuple[str, Source, bool, str | None]  # name, source, named, its URL in a mirror

# A folder wget names for a host: the host (lower case), ":port" or "+port" (Windows) after it
_HOST_FOLDER = re.compile(
    r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+(?:[:+]\d{1,5})?"
)


def _under(path: str, folder: str) -> bool:
    return os.path.commonpath([path, folder]) == os.path.normpath(folder)


def _beside(found: str, given: str, scheme: str) -> str | None:
    """The URL of a file beside the root host's folder: in another host's folder, that host's
    URL; else none (not of the site)."""
    parts = Path(os.path.relpath(found, given)).parts
    if len(parts) < 2 or _HOST_FOLDER.fullmatch(parts[0]) is None:
        return None
    host = parts[0].replace("+", ":")
    return mirrored_url(f"{scheme}://{host}/", os.path.join(*parts[1:]))


def coverage_inputs(
    paths: Sequence[str], root_url: str | None, unlisted: Callable[[OSError], None]
) -> Iterator[Input]:
    """(name, source, named, URL) for each input: a file given, each file of a folder (its
    URL under ``root_url`` when given: the module's rules; None for a file that is not of the
    site, or without ``root_url``), a URL."""
    for given in paths:
        if is_url(given):
            yield display_name(given), given, True, None
        elif is_directory(given):
            site = None if root_url is None else host_folder(given, root_url)
            scheme = (root_url or "http:").partition(":")[0]
            for found in walk(given, unlisted):
                url: str | None = None
                if root_url is not None and site is None:
                    url = mirrored_url(root_url, os.path.relpath(found, given))
                elif root_url is not None and site is not None and _under(found, site):
                    url = mirrored_url(root_url, os.path.relpath(found, site))
                elif root_url is not None:
                    url = _beside(found, given, scheme)
                yield display_name(found), Path(found), False, url
        else:
            yield display_name(given), Path(given), True, None
