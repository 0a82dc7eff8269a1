"""html: an HTML page's tree and links → its WAT ``HTML-Metadata`` (keys.py names each key).

    Head.Title    the first <title> (in <head>, else the first outside SVG): white space
                  collapsed, at most 128 characters
    Head.Base     the first <base href>, as written: the one the page's links resolve against
                  (the extractor keeps the last; a browser, RFC 1808 and baselinks the first)
    Head.Metas    <html lang>, then each <meta> with two or more of name, rel, content,
                  http-equiv, property (Common Crawl's extractor: ia-web-commons#40)
    Head.Link     each <link href> link        {path: LINK@/href, url, rel, type}
    Head.Scripts  each <script src> link       {path: SCRIPT@/src, url, type}
    Links         every other link of keys.LINK_SOURCES, in document order
                  {path: A@/href, url, text, target, ...}; <style> text {path: STYLE/#text, href}

The links are baselinks' own (find/, resolve/): a link it finds at one of the extractor's
sources is written where the extractor writes it, its URL as written (a ``data:`` URL cut after
its comma, as Common Crawl's extractor cuts it), with the element's attributes the extractor
writes beside it; the links at other sources (srcset, lazy loading, style attributes, an
iframe srcdoc's document...) are the additions' (build.py), not written here. A link is matched
to its element by tag, attribute and value, in document order: the walk found it there.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from ..resolve.link import Link
from .keys import ADDITIONS_KEY, LINK_SOURCES, LinkPlace

__all__ = ["MAX_TEXT", "addition", "html_metadata", "link_path", "trim_data_url"]

# Common Crawl's extractor's MAX_TEXT_LEN (ia-web-commons; webarchive-commons' is 100)
MAX_TEXT = 128
_META_ATTRIBUTES = ("name", "rel", "content", "http-equiv", "property")
_PLACES: dict[tuple[str, str], LinkPlace] = {(p.tag, p.attr): p for p in LINK_SOURCES}
_WITH_ATTRIBUTES = frozenset(p.tag for p in LINK_SOURCES if p.with_attrs)
_TEXT_CAP = 8 * MAX_TEXT  # text gathered for an anchor before it is cut (bounded work)
JSON = dict[str, Any]


def trim_data_url(url: str) -> str:
    """A ``data:`` URL as Common Crawl's extractor writes it (``trimDataUrl``): up to and
    including its comma, or its first 128 characters when no comma comes before them."""
    if not url.startswith("data:"):
        return url
    comma = url.find(",", 5)
    if comma == -1:
        return url[:128]
    if comma > 128:
        return url[:128]
    return url[: comma + 1]


def link_path(link: Link) -> str:
    """A link's ``path`` as the extractor makes one: the tag upper case, ``@/``, the
    attribute; text in a ``<style>`` element ``STYLE/#text``."""
    if link.tag == "style" and link.attr in ("url()", "@import", "image-set()", "#text"):
        return "STYLE/#text"
    return f"{link.tag.upper()}@/{link.attr}"


def place_of(link: Link) -> LinkPlace | None:
    """Where the extractor writes ``link`` (None: it has no place for it)."""
    return _PLACES.get((link.tag, link.attr)) or _PLACES.get(("*", link.attr))


def addition(link: Link) -> JSON:
    """What baselinks knows of a link beyond the extractor's keys (``--additions``)."""
    found: JSON = {
        "url": trim_data_url(link.url),
        "base": link.base,
        "base_source": link.base_source,
        "kind": link.kind,
    }
    if link.problems:
        found["problems"] = list(link.problems)
    return found


def html_metadata(
    tree: Any, links: Iterable[Link], additions: bool
) -> tuple[JSON, list[Link], list[Link]]:
    """The page's ``HTML-Metadata``; its links written there, and those that have no place
    in it (each in document order)."""
    head: JSON = {}
    title = _title(tree)
    if title:
        head["Title"] = title
    base = next((e.get("href") for e in tree.iter("base") if e.get("href") is not None), None)
    if base is not None:
        head["Base"] = base
    metas = _metas(tree)
    if metas:
        head["Metas"] = metas
    elements = _elements(tree)
    found: JSON = {}
    placed: list[Link] = []
    others: list[Link] = []
    for link in links:
        place = place_of(link)
        entry = None if place is None else _entry(link, place, elements)
        if entry is None:
            others.append(link)
            continue
        placed.append(link)
        if additions:
            entry[ADDITIONS_KEY] = addition(link)
        if place is not None and place.array.startswith("Head."):
            head.setdefault(place.array[5:], []).append(entry)
        else:
            found.setdefault("Links", []).append(entry)
    return ({"Head": head} if head else {}) | found, placed, others


def _entry(link: Link, place: LinkPlace, elements: dict[tuple[str, str, str], Any]) -> JSON | None:
    """The link's object in its array, with its element's attributes; None when its element
    does not hold the attribute (a ``<form>`` without ``action``: a link to the page itself
    to baselinks, which the extractor writes nothing for)."""
    entry: JSON = {"path": link_path(link), place.key: trim_data_url(link.raw)}
    if link.tag not in _WITH_ATTRIBUTES or place.tag == "*":
        return entry
    queue = elements.get((link.tag, link.attr, link.raw))
    element = queue.popleft() if queue else None
    if element is None:
        return None if link.tag == "form" else entry
    for name in place.with_attrs:
        value = element.get(name)
        if value is not None:
            entry[name] = value
    if link.tag == "a":
        text = _text(element)
        if text:
            entry["text"] = text
    return entry


def _elements(tree: Any) -> dict[tuple[str, str, str], deque[Any]]:
    """The elements whose attributes go with their links (<a>, <img>, <form>...), in
    document order, by tag, link attribute and its value."""
    found: dict[tuple[str, str, str], deque[Any]] = {}
    for place in LINK_SOURCES:
        if not place.with_attrs:
            continue
        for element in tree.iter(place.tag):
            value = element.get(place.attr)
            if value is not None:
                found.setdefault((place.tag, place.attr, value), deque()).append(element)
    return found


def _collapsed(text: str) -> str:
    return " ".join(text.split())[:MAX_TEXT].strip()


def _text(element: Any) -> str:
    """An anchor's text as the extractor gathers it: its text nodes (not a script's or a
    style's, not comments), white space collapsed, at most :data:`MAX_TEXT` characters."""
    parts = [element.text or ""]
    size = len(parts[0])
    for node in element.iterdescendants():
        if size > _TEXT_CAP:
            break
        if isinstance(node.tag, str) and node.tag not in ("script", "style"):
            parts.append(node.text or "")
        parts.append(node.tail or "")
        size += len(parts[-1])
    return _collapsed("".join(parts))


def _title(tree: Any) -> str:
    """The first ``<title>`` in ``<head>``, else the first outside SVG (Common Crawl's
    extractor: ``inHead || !data.hasTitle()``, never in SVG)."""
    chosen = None
    for title in tree.iter("title"):
        if next(title.iterancestors("svg"), None) is not None:
            continue
        if next(title.iterancestors("head"), None) is not None:
            chosen = title
            break
        if chosen is None:
            chosen = title
    return "" if chosen is None else _collapsed("".join(chosen.itertext()))


def _metas(tree: Any) -> list[JSON]:
    """``<html lang>`` as the extractor writes it (``{"name": "HTML@/lang", "content"}``),
    then each ``<meta>`` with at least two of the attributes it reads."""
    found: list[JSON] = []
    root = tree.getroottree().getroot() if hasattr(tree, "getroottree") else tree
    if getattr(root, "tag", None) == "html":
        for name in ("lang", "xml:lang"):
            value = root.get(name)
            if value is not None:
                found.append({"name": f"HTML@/{name}", "content": value})
    for meta in tree.iter("meta"):
        entry = {name: meta.get(name) for name in _META_ATTRIBUTES if meta.get(name) is not None}
        if len(entry) < 2:
            continue  # a lone content (schema.org itemprop) or a lone name: not written
        if entry.get("property") == "og:image" and "content" in entry:
            entry["content"] = trim_data_url(entry["content"])
        found.append(entry)
    return found
