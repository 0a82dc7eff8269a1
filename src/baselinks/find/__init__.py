"""find: a document → :class:`~.walk.RawLink` for every URL in it, as written, never resolved.
HTML pages, SVG, style sheets, feeds, sitemaps and robots.txt alike.

Open first: linktable.py (what is found, as data), then walk.py (how).

    linktable.py  the link-source table: each (tag, attribute), how its value is read, its
                  kind; checked at import. A new link attribute is a row here
    walk.py       the walker over that table → RawLink; HTTP Link headers
    select.py     --select: the elements the walk starts from (CSS or XPath)
    anchor.py     an anchor's text (its string value, capped)
    microsyntax.py  srcset, meta refresh, space-separated lists, Link headers: strings only
    css.py        CSS url(), @import, image-set() (a scanner; tinycss2 the reference)
    metadata.py   the <meta> names whose content is a URL: Open Graph, Twitter cards, tiles
    jsonld.py     a JSON-LD <script>'s URL-valued schema.org properties
    sheets.py     the documents that are not HTML: style sheets and SVG, loaded and walked;
                  LOADERS (how each document type is loaded) and FINDERS (the flat ones)
    xmlparse.py   feeds and sitemaps: a safe, streamed, recovering XML parse
    feeds.py      Atom and RSS: each URL with its xml:base chain; the HTML in an entry
    sitemaps.py   sitemaps.org XML (urlset, sitemapindex, extensions) and text sitemaps
    robots.py     robots.txt: its Sitemap lines
    _cwalk.pyx, _cwalk_nodes.pxi        walk.py's loop over libxml2's nodes, compiled
    _csyntax.pyx, _csyntax_srcset.pxi   css.py's scanner and microsyntax.py's srcset, compiled
"""
