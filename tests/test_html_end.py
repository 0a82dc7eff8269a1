"""The "</html>" end tag that libxml2 stops at (load.py): blanked where the tokenizer reads an
end tag, kept as written inside attribute values, comments and raw text (found by the browser
oracle: an iframe's ``javascript:"<html>...</html>"`` lost its end tag)."""

from __future__ import annotations

import pytest

from baselinks import extract_links

# page -> (value as written, line) of each link; every link after an end tag is still read
CASES = [
    # the end tag in the data state: blanked, what follows it read (HTML's "after body")
    (b"<p>x</p></html><a href=after>", [("after", 1)]),
    (
        b"<a href=a>\n</HTML >\n<a href=b>\n</html x='>'>\n<a href=c>",
        [("a", 1), ("b", 3), ("c", 5)],
    ),
    # libxml2 parses noscript as markup: an end tag there stops it too
    (b"<noscript></html></noscript><a href=after>", [("after", 1)]),
    # inside an attribute value: text, kept whole (the browser's iframe.src)
    (
        b"<iframe src='javascript:\"<html><body></body></html>\"'></iframe></html><a href=after>",
        [('javascript:"<html><body></body></html>"', 1), ("after", 1)],
    ),
    (b'<a href="x</html>y">x</a>', [("x</html>y", 1)]),
    # inside a comment, a script, a bogus comment: not a tag, and the real one still blanked
    (b"<!-- </html> --></html><a href=after>", [("after", 1)]),
    (b"<script>document.write('</html>')</script></html>\n<a href=after>", [("after", 2)]),
    # an end tag's attributes are tokenized: a quoted ">" is inside it
    (b"<a href=a></p x='</html>'><a href=b></html>\n\n<a href=c>", [("a", 1), ("b", 1), ("c", 3)]),
    # the common page: one end tag that ends it, spaces and comments after it
    (b"<html><body><a href=x></a></body></html>\n", [("x", 1)]),
    (b"<a href=a></html>\n<!-- generated -->\n<!--", [("a", 1)]),
    (b"<a href=a></html>\n<!-- c --><!--><a href=b>", [("a", 1), ("b", 2)]),
]


@pytest.mark.parametrize(("page", "expected"), CASES)
def test_only_an_end_tag_in_the_data_state_is_blanked(
    page: bytes, expected: list[tuple[str, int]]
) -> None:
    links = extract_links(page, url="http://example.com/")
    assert [(link.raw, link.line) for link in links] == expected
