"""The public API's types as a user's code sees them: checked by mypy --strict in CI (pyproject's
[tool.mypy] files), never run. A wrong call carries ``type: ignore[code]``; with
warn_unused_ignores, the day it stops being an error, mypy fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import assert_type

import baselinks
from baselinks import Link
from baselinks.scrapy import LinkExtractor
from baselinks.write.stats import Stats

links = baselinks.extract_links(b"<a href=x>", url="http://e/", kinds={"link"}, workers=2)
assert_type(links, list[baselinks.Link])
assert_type(links[0].url, str)
assert_type(links[0].line, int | None)
assert_type(links[0].problems, tuple[str, ...])
assert_type(baselinks.iter_links("page.html", on_error=print), Iterator[baselinks.Link])
assert_type(baselinks.resolve("http://a/b", "c", mode="whatwg"), str)
assert_type(baselinks.parse("http://a/b").login(), baselinks.Login)
assert_type(baselinks.Resolver("http://a/").resolve("b"), str)
assert_type(baselinks.explain("http://a/b", "c").steps, tuple[baselinks.Step, ...])
assert_type(baselinks.diagnose("http://a/b", "c", None), tuple[str, ...])
assert_type(baselinks.check("http://u@h/"), tuple[baselinks.Problem, ...])
assert_type(baselinks.check("http://h:x/")[0].span, tuple[int, int])
assert_type(baselinks.parse("http://h/").port, int | None)
assert_type(baselinks.parse("http://h/").hostname, str | None)
assert_type(baselinks.Summary().links, int)
assert_type(baselinks.Summary().no_base, int)
assert_type(baselinks.Summary(stats=Stats()).stats, Stats | None)
assert_type(baselinks.extract_links("m/a.html", root_url="http://e/", root="m"), list[Link])
assert_type(LinkExtractor(allow=r"/docs/").matches("http://e/docs/"), bool)

baselinks.extract_links(b"", urll="http://e/")  # type: ignore[call-arg]
baselinks.extract_links(b"", workers="2")  # type: ignore[arg-type]
baselinks.resolve("http://a/b")  # type: ignore[call-arg]
links[0].url = "x"  # type: ignore[misc]
baselinks.check(b"http://h/")  # type: ignore[arg-type]
