"""A drop-in for Scrapy's ``LinkExtractor``, with baselinks' base URL and link finding.

    pip install "baselinks[scrapy]"

    from baselinks.scrapy import LinkExtractor     # instead of scrapy.linkextractors

    links = LinkExtractor(allow_domains="example.com").extract_links(response)

The options and the :class:`scrapy.link.Link` results are Scrapy's. What differs, and why:

- the base is the first ``<base href>`` anywhere in the page (HTML standard), where Scrapy reads
  only the first 4096 characters (scrapy issue #3017); a ``<base>`` refused by the standard
  (``javascript:``, ``data:``) is passed over;
- ``tags``/``attrs`` choose among the links baselinks finds: ``srcset`` candidates, CSS
  ``url()``, ``meta refresh``, ``ping``... each with its own attribute name; with ``"*"`` every
  link-bearing attribute, never ``class`` or ``id``. A pair of them that baselinks does not
  read (``tags="div", attrs="data-url"``) is read too, each value one URL, as Scrapy does;
- ``Link.fragment`` is the URL's fragment (Scrapy leaves it empty: scrapy issue #1202), and
  ``Link.text`` is the anchor's text with whitespace collapsed (an ``area``: its ``alt``);
- resolution is the WHATWG URL Standard (what a browser requests), or ``mode="rfc1808"`` or
  ``"rfc3986"``; a value ``process_value`` rewrites is resolved against the same base.

Scrapy and w3lib are used for what they define: ``Link``, the domain and extension filters, URL
canonicalisation and escaping, so that a rule written for Scrapy's extractor keeps its meaning.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlparse, urlsplit

try:
    from scrapy.link import Link
    from scrapy.linkextractors import IGNORED_EXTENSIONS
    from scrapy.utils.url import url_has_any_extension, url_is_from_any_domain
    from w3lib.url import canonicalize_url, safe_url_string
except ImportError as exc:  # the bare "No module named 'scrapy'" does not say what to install
    raise ImportError(
        f"baselinks.scrapy needs Scrapy: pip install 'baselinks[scrapy]' ({exc})", name=exc.name
    ) from exc

from baselinks import InputError, URLError, iter_links, resolve
from baselinks.find.walk import XPath
from baselinks.url.resolve import Mode

__all__ = ["LinkExtractor"]

logger = logging.getLogger(__name__)

Regexes = str | re.Pattern[str] | Iterable[str | re.Pattern[str]] | None
_SCHEMES = ("http", "https", "file", "ftp")  # what Scrapy's extractor keeps


def _names(value: str | Iterable[str] | None) -> frozenset[str]:
    if value is None:
        return frozenset()
    return frozenset([value] if isinstance(value, str) else value)


def _regexes(value: Regexes) -> list[re.Pattern[str]]:
    if value is None:
        return []
    items = [value] if isinstance(value, str | re.Pattern) else list(value)
    return [item if isinstance(item, re.Pattern) else re.compile(item) for item in items]


def _chosen(allowed: frozenset[str], denied: frozenset[str], name: str) -> bool:
    return name not in denied and ("*" in allowed or name in allowed)


def _css_to_xpath(css: str) -> str:
    from parsel.csstranslator import HTMLTranslator  # Scrapy's own translation (pseudo-elements)

    return str(HTMLTranslator().css_to_xpath(css))


class LinkExtractor:
    """Scrapy's ``LinkExtractor(...)``, the same keyword arguments; plus ``mode`` and
    ``parser``."""

    def __init__(
        self,
        allow: Regexes = (),
        deny: Regexes = (),
        allow_domains: str | Iterable[str] = (),
        deny_domains: str | Iterable[str] = (),
        restrict_xpaths: str | Iterable[str] = (),
        tags: str | Iterable[str] | None = ("a", "area"),
        attrs: str | Iterable[str] | None = ("href",),
        canonicalize: bool = False,
        unique: bool = True,
        process_value: Callable[[Any], Any] | None = None,
        deny_extensions: str | Iterable[str] | None = None,
        restrict_css: str | Iterable[str] = (),
        strip: bool = True,
        restrict_text: Regexes = None,
        deny_tags: str | Iterable[str] = (),
        deny_attrs: str | Iterable[str] = (),
        *,
        mode: Mode = "whatwg",
        parser: str | None = None,
    ) -> None:
        self.allow_res = _regexes(allow)
        self.deny_res = _regexes(deny)
        self.allow_domains = set(_names(allow_domains))
        self.deny_domains = set(_names(deny_domains))
        self.tags, self.deny_tags = _names(tags), _names(deny_tags)
        self.attrs, self.deny_attrs = _names(attrs), _names(deny_attrs)
        self.canonicalize = canonicalize
        self.unique = unique
        self.process_value = process_value
        extensions = IGNORED_EXTENSIONS if deny_extensions is None else _names(deny_extensions)
        self.deny_extensions = {"." + extension for extension in extensions}
        self.restrict_text = _regexes(restrict_text)
        # Values are always stripped of ASCII whitespace before resolving, as the HTML
        # standard says of URL attributes; `strip` is accepted for compatibility.
        self.strip = strip
        self.mode = mode
        self.parser = parser  # "html5" (the default where built) or "lxml": docs/guide/parsers.md
        # Scrapy reads every (tag, attr) pair it is given; baselinks reads its table, and these
        # pairs besides ("*" is baselinks' own: any element, every link-bearing attribute).
        self.attributes = [
            (tag, attr)
            for tag in sorted(self.tags - self.deny_tags)
            for attr in sorted(self.attrs - self.deny_attrs)
            if tag != "*" and attr != "*"
        ]
        xpaths = [*_names(restrict_xpaths), *map(_css_to_xpath, _names(restrict_css))]
        self.select = XPath(" | ".join(f"({xpath})" for xpath in xpaths)) if xpaths else None

    def extract_links(self, response: Any) -> list[Link]:
        """The links of a Scrapy ``TextResponse``: its body, final URL, headers and encoding."""
        headers = [
            (bytes(name).decode("latin-1"), bytes(value).decode("latin-1"))
            for name, values in response.headers.items()
            for value in values
        ]

        def report(error: InputError) -> None:
            logger.warning("baselinks: %s", error)

        found: list[Link] = []
        seen: set[str] = set()
        for link in iter_links(
            response.body,
            url=response.url,
            headers=headers or None,
            charset=response.encoding,
            mode=self.mode,
            select=self.select,
            name=response.url,
            on_error=report,
            attributes=self.attributes,
            parser=self.parser,
        ):
            if not (
                _chosen(self.tags, self.deny_tags, link.tag)
                and _chosen(self.attrs, self.deny_attrs, link.attr)
            ):
                continue
            url = link.url
            if self.process_value is not None:
                value = self.process_value(url)
                if value is None:
                    continue
                if isinstance(value, bytes):  # as Scrapy's safe_url_string reads it
                    value = value.decode(response.encoding or "utf-8")
                if value != url:
                    try:
                        url = resolve(link.base or response.url, str(value).strip(), mode=self.mode)
                    except URLError:
                        # Scrapy skips a link it cannot join; the exception lost the page's
                        # links, and a bytes value was written as "b'...'"
                        continue
            try:
                url = safe_url_string(url, encoding=response.encoding)
            except ValueError:
                continue
            fragment = urlsplit(url).fragment
            nofollow = "nofollow" in link.rel.split()
            if not self._allowed(url, link.text):
                continue
            if self.canonicalize:
                url = canonicalize_url(url)
            if self.unique:
                if url in seen:
                    continue
                seen.add(url)
            found.append(Link(url, link.text, fragment, nofollow))
        return found

    def _allowed(self, url: str, text: str) -> bool:
        """Scrapy's filters: scheme, the URL filters of :meth:`matches`, extensions, text."""
        if url.split("://", 1)[0] not in _SCHEMES or not self.matches(url):
            return False
        if self.deny_extensions and url_has_any_extension(urlparse(url), self.deny_extensions):
            return False
        return not self.restrict_text or any(regex.search(text) for regex in self.restrict_text)

    def matches(self, url: str) -> bool:
        """Scrapy's ``LinkExtractor.matches``: the URL filters alone."""
        if self.allow_domains and not url_is_from_any_domain(url, self.allow_domains):
            return False
        if self.deny_domains and url_is_from_any_domain(url, self.deny_domains):
            return False
        allowed = not self.allow_res or any(regex.search(url) for regex in self.allow_res)
        return allowed and not any(regex.search(url) for regex in self.deny_res)
