"""find: a document → :class:`~.walk.RawLink` for every URL in it, as written, never resolved.

Open first: linktable.py (what is found, as data), then walk.py (how).

    linktable.py  the link-source table: each (tag, attribute), how its value is read, its
                  kind; checked at import. A new link attribute is a row here
    walk.py       the walker over that table → RawLink; HTTP Link headers; --select
    anchor.py     an anchor's text (its string value, capped)
    microsyntax.py  srcset, meta refresh, space-separated lists, Link headers: strings only
    css.py        CSS url(), @import, image-set() (a scanner; tinycss2 the reference)
    sheets.py     the documents that are not HTML: style sheets and SVG, loaded and walked
    _cwalk.pyx, _cwalk_nodes.pxi        walk.py's loop over libxml2's nodes, compiled
    _csyntax.pyx, _csyntax_srcset.pxi   css.py's scanner and microsyntax.py's srcset, compiled
"""
