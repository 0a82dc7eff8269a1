"""A browser as the oracle: headless Chromium's resolved URLs against baselinks' whatwg mode.

    python benchmarks/browser_oracle.py fixtures/html fixtures/browser/pages fixtures/svg \\
        fixtures/css /work/shared/corpus/html \\
        [--golden fixtures/browser] [--differences FILE.tsv] [--chromium PATH]

Needs Debian's ``chromium`` and the ``bench`` extra (``websockets``). Each page (``.html``,
``.htm``; an SVG ``.svg`` as ``image/svg+xml``; a style sheet ``.css`` through a page that
links it, read from the CSSOM: see READ_SHEET) is given to the browser at its own URL (the
``index.tsv`` beside it or above it: ``case``/``url`` as in ``fixtures/html``,
``relpath``/``retrieval_url`` as in the shared corpus; else ``http://127.0.0.1/<path>``), and
baselinks gets the same bytes and the same URL.

**Nothing is fetched from outside.** The browser runs with a fresh profile, every background
service off and every host name unresolvable (``--host-resolver-rules``); and every request it
makes is intercepted by the DevTools protocol's ``Fetch`` domain and answered here: the page
itself with its bytes (``Content-Type: text/html``, or ``image/svg+xml`` for an SVG document,
without a charset, so that the browser
sniffs as baselinks does), every other request (images, scripts, frames, a meta refresh's
navigation) with an empty ``204``, which loads nothing and navigates nowhere. Answering at the
page's own URL, rather than serving it from 127.0.0.1, keeps the URL the page's links expect
(a ``<base href="/x/">``, a link to its own host) and the one its golden files were made with.

**Scripting is on and no script runs**: the page is answered with ``Content-Security-Policy:
script-src 'none'``. So the tree is the parser's, as a browser with scripting enabled builds it
(``<noscript>`` content is text), and no script adds, removes or rewrites a link.

What the browser says is read from the DOM's IDL attributes, which return the URL the browser
resolved: ``a.href``, ``area.href``, ``link.href``, ``img.src``, ``img.longDesc``,
``iframe.src``, ``frame.src``, ``embed.src``, ``object.data``, ``object.codeBase``,
``video.poster``, media and ``source``/``track`` ``src``, ``script.src``, ``input.src`` (type
image), ``form.action``, ``input``/``button`` ``formAction``, ``cite`` of
``blockquote``/``q``/``del``/``ins``: each only where the content attribute is present, but
``form.action``, which for a form without one is the document's URL, where the form submits
(baselinks reports that action, written ""). SVG and MathML have no such attribute:
their ``href`` and ``xlink:href`` are resolved with the browser's own parser,
``new URL(value, element.baseURI)`` (``how`` is ``url``, not ``idl``). Elements inside
``<template>`` contents and ``iframe srcdoc`` documents are read too. ``document.baseURI`` is
the page's base.

A link is matched by (tag, attr, value as written): **equal** (both resolve it to the same
URL), **different**, **missed** (the browser has it, baselinks does not) or **extra** (the
other way round, among the (tag, attr) pairs the browser reflects).
"""

from __future__ import annotations

import argparse
import base64
import csv
import json
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from baselinks import Link, extract_links
from baselinks.find.sheets import load_css, load_svg
from baselinks.load.document import load

# The JS that reads the DOM: [tag, attr, value as written, resolved URL, how] per link.
READ_DOM = r"""
(() => {
  const REFLECT = {
    a: ["href"], area: ["href"], link: ["href"], img: ["src", "longDesc"],
    iframe: ["src", "longDesc"], frame: ["src", "longDesc"], embed: ["src"],
    object: ["data", "codeBase"], video: ["src", "poster"], audio: ["src"], source: ["src"],
    track: ["src"], script: ["src"], input: ["src", "formAction"], button: ["formAction"],
    form: ["action"], blockquote: ["cite"], q: ["cite"], del: ["cite"], ins: ["cite"],
  };
  const HTML = "http://www.w3.org/1999/xhtml", XLINK = "http://www.w3.org/1999/xlink";
  const links = [];
  const resolve = (value, base) => {
    try { return new URL(value, base).href; } catch (e) { return value; }
  };
  // the IDL getter itself: <form><input name=action> makes form.action that input element
  const idl = (el, prop) => {
    for (let proto = Object.getPrototypeOf(el); proto; proto = Object.getPrototypeOf(proto)) {
      const found = Object.getOwnPropertyDescriptor(proto, prop);
      if (found && found.get) return found.get.call(el);
    }
  };
  function walk(root) {
    for (const el of root.querySelectorAll("*")) {
      const tag = el.localName.toLowerCase();
      if (el.namespaceURI !== HTML) {
        const href = el.getAttribute("href"), xlink = el.getAttributeNS(XLINK, "href");
        if (href !== null) links.push([tag, "href", href, resolve(href, el.baseURI), "url"]);
        if (xlink !== null) {
          links.push([tag, "xlink:href", xlink, resolve(xlink, el.baseURI), "url"]);
        }
        continue;
      }
      for (const prop of REFLECT[tag] || []) {
        const attr = prop.toLowerCase();
        // a form without action submits to the document's URL (form.action says so), and
        // baselinks reports it, as written "": read it too
        const absent = !el.hasAttribute(attr) && !(tag === "form" && attr === "action");
        const value = absent ? undefined : idl(el, prop);
        if (typeof value !== "string") continue;
        if (tag === "input" && attr === "src" && el.type !== "image") continue;
        links.push([tag, attr, el.getAttribute(attr) ?? "", value, "idl"]);
      }
      if (tag === "template") walk(el.content);
      const inner = tag === "iframe" && el.hasAttribute("srcdoc") ? el.contentDocument : null;
      if (inner) walk(inner);
    }
  }
  walk(document);
  return {base: document.baseURI, url: document.URL, charset: document.characterSet, links};
})()
"""

# A style sheet's links as the browser tokenized them (the CSSOM keeps each URL decoded, as
# written: Chromium serializes url("...") strings unresolved), resolved by the browser's URL
# parser against the sheet's URL: [tag "css", "@import" or "url()", value, URL, "url"].
READ_SHEET = r"""
(() => {
  const sheet = document.styleSheets[0], links = [];
  const resolve = value => {
    try { return new URL(value, sheet.href).href; } catch (e) { return value; }
  };
  const URLS = /url\("((?:[^"\\]|\\.)*)"\)/g;
  const walk = rules => {
    for (const rule of rules) {
      if (rule instanceof CSSImportRule) {
        links.push(["css", "@import", rule.href, resolve(rule.href), "url"]);
        continue;
      }
      const text = rule.style ? rule.style.cssText : "";
      for (const found of text.matchAll(URLS)) {
        const value = JSON.parse('"' + found[1] + '"');
        links.push(["css", "url()", value, resolve(value), "url"]);
      }
      if (rule.cssRules) walk(rule.cssRules);
    }
  };
  walk(sheet.cssRules);
  return {base: sheet.href, url: sheet.href, charset: document.characterSet, links};
})()
"""

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--host-resolver-rules=MAP * ~NOTFOUND",  # no name resolves: nothing can leave
    # Chrome would load http://example.com/ as https:// (HTTPS-Upgrades): the page must stay
    # at the URL baselinks is given
    "--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,HttpsFirstModeV2ForEngagedSites",
    "--remote-debugging-port=0",
]


class Browser:
    """One headless Chromium and one tab, driven over the DevTools protocol."""

    def __init__(self, executable: str) -> None:
        from websockets.sync.client import connect  # the bench extra

        self.profile = tempfile.mkdtemp(prefix="baselinks-oracle-")
        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        port_file = Path(self.profile) / "DevToolsActivePort"
        for _ in range(300):
            if port_file.exists() and port_file.read_text().count("\n") >= 1:
                break
            time.sleep(0.1)
        port = port_file.read_text().split("\n")[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as answer:
            pages = [t for t in json.load(answer) if t["type"] == "page"]
        self.socket = connect(pages[0]["webSocketDebuggerUrl"], max_size=None, legacy=True)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version") as answer:
            self.version = json.load(answer)["Browser"]
        self.next_id = 0
        self.call("Page.enable")
        self.call("Fetch.enable", patterns=[{"urlPattern": "*"}])

    def send(self, method: str, **params: Any) -> int:
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        return self.next_id

    def call(self, method: str, **params: Any) -> Any:
        wanted = self.send(method, **params)
        for message in self.messages(30):
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result")
        raise TimeoutError(method)

    def messages(self, timeout: float) -> Iterator[dict[str, Any]]:
        end = time.monotonic() + timeout
        while (left := end - time.monotonic()) > 0:
            try:
                raw = self.socket.recv(timeout=left)
            except TimeoutError:
                return
            message = json.loads(raw)
            if message.get("method") == "Fetch.requestPaused":
                self.answer(message["params"])
            else:
                yield message

    def answer(self, paused: dict[str, Any]) -> None:
        """Every request answered here: the page once (and a style sheet's wrapper its sheet),
        an empty 204 for everything else."""
        request_id, kind = paused["requestId"], paused.get("resourceType")
        if kind == "Document" and self.page_served is False:
            self.page_served = True
            self.fulfil(request_id, self.page, self.page_type)
        elif kind == "Stylesheet" and paused["request"]["url"] == self.sheet_url:
            self.sheet_url = ""  # once: an @import of itself is not served again
            self.fulfil(request_id, self.sheet, "text/css")
        else:
            self.send("Fetch.fulfillRequest", requestId=request_id, responseCode=204)

    def fulfil(self, request_id: str, body: bytes, media_type: str) -> None:
        headers = [
            {"name": "Content-Type", "value": media_type},
            {"name": "Content-Security-Policy", "value": "script-src 'none'"},
        ]
        encoded = base64.b64encode(body).decode()
        self.send(
            "Fetch.fulfillRequest",
            requestId=request_id,
            responseCode=200,
            responseHeaders=headers,
            body=encoded,
        )

    page: bytes = b""
    page_served = True
    page_type = "text/html"
    sheet: bytes = b""
    sheet_url = ""

    def read(self, url: str, page: bytes, media_type: str = "text/html") -> dict[str, Any]:
        """The page loaded at ``url`` as ``media_type``, and what its DOM says (READ_DOM).

        A style sheet is loaded by a page of its own (UTF-8, so that the sheet's "environment
        encoding" is baselinks' fallback too), and read by READ_SHEET.
        """
        script = READ_DOM
        if media_type == "text/css":
            self.sheet, self.sheet_url = page, url
            wrapper = f'<!DOCTYPE html><meta charset="utf-8"><link rel="stylesheet" href="{url}">'
            page, url, media_type = wrapper.encode(), f"{url}.oracle.html", "text/html"
            script = READ_SHEET
        self.page, self.page_served, self.page_type = page, False, media_type
        self.send("Page.navigate", url=url)
        for message in self.messages(20):
            if message.get("method") == "Page.loadEventFired" and self.page_served:
                break
        result = self.call("Runtime.evaluate", expression=script, returnByValue=True)
        self.call("Page.navigate", url="about:blank")
        for message in self.messages(5):
            if message.get("method") == "Page.loadEventFired":
                break
        return dict(result["result"]["value"])

    def close(self) -> None:
        self.socket.close()
        self.process.terminate()
        self.process.wait(10)
        shutil.rmtree(self.profile, ignore_errors=True)


def _index(folder: Path) -> dict[Path, str]:
    """Page → retrieval URL, from every index.tsv at or above ``folder``."""
    urls: dict[Path, str] = {}
    for directory in [folder, *folder.parents]:
        index = directory / "index.tsv"
        if not index.is_file():
            continue
        with open(index, encoding="utf-8") as rows:
            for row in csv.DictReader(rows, delimiter="\t"):
                name = row.get("case") or row.get("relpath") or ""
                url = row.get("url") or row.get("retrieval_url") or ""
                if name and url:
                    urls.setdefault((directory / name).resolve(), url)
    return urls


# What a file is served as, by its suffix.
MEDIA_TYPES = {
    ".html": "text/html",
    ".htm": "text/html",
    ".svg": "image/svg+xml",
    ".css": "text/css",
}


def pages(paths: list[str]) -> Iterator[tuple[Path, str]]:
    """Each HTML page under ``paths`` and the URL it is given at."""
    for given in map(Path, paths):
        files = (
            sorted(p for p in given.rglob("*") if p.suffix in MEDIA_TYPES)
            if given.is_dir()
            else [given]
        )
        urls = _index(given if given.is_dir() else given.parent)
        for path in files:
            relative = path.name if not given.is_dir() else path.relative_to(given).as_posix()
            yield path, urls.get(path.resolve(), f"http://127.0.0.1/{relative}")


Key = tuple[str, str, str]  # tag, attr, value as written


@dataclass
class Tally:
    pages: int = 0
    compared: int = 0  # the browser's URLs
    equal: int = 0
    different: int = 0
    missed: int = 0
    extra: int = 0
    bases: int = 0  # pages with links, whose base was compared
    bases_equal: int = 0
    rows: list[list[str]] = field(default_factory=list)  # every difference
    classes: Counter[str] = field(default_factory=Counter)  # URLs per class of difference


def _ours(links: list[Link], pairs: set[tuple[str, str]]) -> dict[Key, list[Link]]:
    found: dict[Key, list[Link]] = defaultdict(list)
    for link in links:
        # HTML's parser makes <image> an <img>; libxml2 keeps the name (the same element)
        tag = "img" if link.tag == "image" and link.attr == "src" else link.tag
        # the CSSOM writes an image-set() string as url(): one syntax for both
        attr = "url()" if (tag, link.attr) == ("css", "image-set()") else link.attr
        if (tag, attr) in pairs:
            found[(tag, attr, link.raw)].append(link)
    return found


# The (tag, attr) pairs the browser reflects (READ_DOM): only these are counted as extra.
REFLECTED = {
    ("a", "href"), ("area", "href"), ("link", "href"), ("img", "src"), ("img", "longdesc"),
    ("iframe", "src"), ("iframe", "longdesc"), ("frame", "src"), ("frame", "longdesc"),
    ("embed", "src"), ("object", "data"), ("object", "codebase"), ("video", "src"),
    ("video", "poster"), ("audio", "src"), ("source", "src"), ("track", "src"),
    ("script", "src"), ("input", "src"), ("input", "formaction"), ("button", "formaction"),
    ("form", "action"), ("blockquote", "cite"), ("q", "cite"), ("del", "cite"), ("ins", "cite"),
}  # fmt: skip


@dataclass(frozen=True)
class Page:
    """What the classes of difference need to know of a page: its encoding as baselinks
    decodes it, and the browser's."""

    encoding: str
    browser_charset: str


def _page(data: bytes, media_type: str, seen: dict[str, Any]) -> Page:
    if media_type == "text/css":  # the wrapper page's charset is not the sheet's
        return Page(*[load_css(data).encoding] * 2)
    document = load(data) if media_type == "text/html" else load_svg(data)
    return Page(document.encoding, seen["charset"])


SPACES = "\t\n\f\r "  # ASCII whitespace


def _page_base(link: Link) -> bool:
    """Whether ``link.base`` is the page's base: not an object's codebase, not the document
    URL an action without a URL is (the form-action-document-url fixture has as many)."""
    return link.tag not in ("object", "applet") and (
        link.kind != "form" or bool(link.raw.strip(SPACES))
    )


def classify(key: Key, browser: str, ours: str, page: Page, codes: set[str]) -> str:
    """Which known difference (docs/reference.md, "Against a browser") explains one URL that
    differs ("-" on one side: missed or extra); ``codes`` are the problem codes of baselinks'
    links of ``key``. "unexplained" when none does."""
    tag, attr, raw = key
    if not raw.isascii() and webencodings_name(page.browser_charset) != page.encoding:
        return "encoding"  # the page decoded otherwise: the value itself differs
    if browser == "-":
        if "in-noscript" in codes:  # baselinks' mark: the element is inside <noscript>
            return "noscript"
        if tag == "frame":
            return "frame-outside-frameset"
    elif ours == "-":
        if tag == "base":
            return "svg-base"
    else:
        if "inert-template" in codes:  # baselinks' mark: inside <template> contents
            return "template-inert"
        if browser.replace("%27", "'") == ours:
            return "quote-in-query"
        if browser.startswith("data:") and browser.replace("%0A", "") == ours:
            return "data-newline"
        if browser.replace("%7C", ":", 1) == ours:
            return "file-drive-letter"
        if attr == "formaction" and not raw.strip(SPACES):
            return "formaction-spaces"
        if tag == "object" and attr == "data":
            return "codebase"
    return "unexplained"


def webencodings_name(label: str) -> str:
    from baselinks.load.encoding import lookup

    return lookup(label) or label.lower()


def compare(name: str, seen: dict[str, Any], links: list[Link], page: Page, tally: Tally) -> None:
    """One page's browser answer against baselinks' links, into ``tally``."""
    browser: dict[Key, list[str]] = defaultdict(list)
    for tag, attr, raw, url, _how in seen["links"]:
        browser[(tag, attr, raw)].append(url)
    pairs = REFLECTED | {(tag, attr) for tag, attr, _ in browser}
    ours = _ours(links, pairs)
    tally.pages += 1
    for key in browser.keys() | ours.keys():
        theirs, mine = browser.get(key, []), [link.url for link in ours.get(key, [])]
        codes = {code for link in ours.get(key, []) for code in link.problems}
        tally.compared += len(theirs)
        same = sum((Counter(theirs) & Counter(mine)).values())
        paired = min(len(theirs), len(mine))
        tally.equal += same
        tally.different += paired - same
        tally.missed += max(0, len(theirs) - len(mine))
        tally.extra += max(0, len(mine) - len(theirs))
        left = sorted((Counter(theirs) - Counter(mine)).elements())
        right = sorted((Counter(mine) - Counter(theirs)).elements())
        for index in range(max(len(left), len(right))):
            one = left[index] if index < len(left) else "-"
            other = right[index] if index < len(right) else "-"
            kind = classify(key, one, other, page, codes)
            tally.classes[kind] += 1
            tally.rows.append([name, *key, one, other, kind])
    bases = Counter(link.base for link in links if _page_base(link))
    if bases:
        tally.bases += 1
        if bases.most_common(1)[0][0] == seen["base"]:
            tally.bases_equal += 1
        else:
            base = bases.most_common(1)[0][0]
            tally.rows.append([name, "(base)", "", "", seen["base"], base, "base"])


def write_golden(out: Path, version: str, page: Path, url: str, seen: dict[str, Any]) -> None:
    """The browser's answer for one page, as tests/test_browser_golden.py reads it."""
    out.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "chromium": version,
        "page": page.as_posix(),
        "url": url,
        "base": seen["base"],
        "charset": seen["charset"],
        "reflected": sorted(REFLECTED),
    }
    # one field, and one link, per line: a new browser's answer reads as a diff of links
    fields = [
        f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
        for key, value in record.items()
    ]
    links = ",\n".join(f"  {json.dumps(link, ensure_ascii=False)}" for link in seen["links"])
    fields.append(f' "links": [\n{links}\n ]')
    out.write_text("{\n" + ",\n".join(fields) + "\n}\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="+", help="HTML files or folders of them")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument(
        "--golden", type=Path, help="write the browser's answers here, one JSON per page"
    )
    parser.add_argument("--differences", type=Path, help="write every difference here (TSV)")
    args = parser.parse_args(argv)
    browser = Browser(args.chromium)
    tally = Tally()
    try:
        for path, url in pages(args.paths):
            data = path.read_bytes()
            media_type = MEDIA_TYPES[path.suffix]
            seen = browser.read(url, data, media_type)
            links = extract_links(
                data,
                url=url,
                mode="whatwg",
                name=str(path),
                headers={"Content-Type": media_type},
                on_error=lambda error: print(f"baselinks: {error}", file=sys.stderr),
            )
            compare(str(path), seen, links, _page(data, media_type, seen), tally)
            if args.golden is not None:
                write_golden(args.golden / f"{path.stem}.json", browser.version, path, url, seen)
    finally:
        browser.close()
    print(
        f"{browser.version}: {tally.pages} pages, {tally.compared} URLs compared, "
        f"{tally.equal} equal, {tally.different} different, {tally.missed} missed, "
        f"{tally.extra} extra; base equal on {tally.bases_equal} of {tally.bases} pages"
    )
    for kind, count in tally.classes.most_common():
        print(f"  {count:6} {kind}")
    if args.differences is not None:
        with open(args.differences, "w", encoding="utf-8", newline="") as out:
            writer = csv.writer(out, delimiter="\t", lineterminator="\n")
            writer.writerow(["page", "tag", "attr", "raw", "browser", "baselinks", "class"])
            writer.writerows(tally.rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
