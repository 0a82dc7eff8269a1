"""url: the URL engine. Strings in, strings out; it knows no stage of the pipeline, and every
stage may use it (the base rules resolve a <base href> with it, the linker every link, the
CLI's resolve, parse and check commands use it alone). The standard library only, and ada-url
for the whatwg mode: ``import baselinks.url.resolve`` loads no lxml, warcio or tinycss2.

Open first: parts.py (RFC 1808 §2.4), then resolve.py (§4).

    parts.py      RFC 1808 §2.4 parse → URLParts; RFC 1738 §3.1 login; §4 Step 7 recombination
    resolve.py    RFC 1808 §4 Steps 1-7, Resolver and the modes (MODES), resolve()
    explain.py    explain(): each Step of RFC 1808 §4 a resolution went through
    rfc3986.py    RFC 3986 §5.2.2-5.2.4 (the rfc3986 mode)
    whatwg.py     the URL Standard's rules beside ada-url (the whatwg mode)
    diagnose.py   problem codes: RFC 1808's, then rfc1738's
    rfc1738/      RFC 1738 §5: each URL against its scheme's production (check)
    _cresolve.pyx, _cresolve_scan.pxi   diagnose.py's scans, the RFC 1808 Steps and the
                  linker's Linker.link (resolve/link.py binds itself in), compiled

The name ``baselinks.url`` was a module before 0.2 (now parts.py): its names still come from
here, with a DeprecationWarning (``_moved.py``).
"""

from __future__ import annotations

from typing import Any

from .._moved import forward


def __getattr__(name: str) -> Any:
    # the names of the flat layout's module of this name, for one release (_moved.py)
    return forward(__name__, name)
