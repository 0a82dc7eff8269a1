"""The floor: every captured target is found as captured whatever the form of the link
(relative, ../, <base>, upper-case host, default port, www., https, trailing #), and none that
was not captured is reported as captured.

A crawl is made of captured URLs and of pages that link to each in every form, and to URLs
beside each that were not captured (another path, query value, port, subdomain); each link's
expected answer is known by construction.
"""

from __future__ import annotations

import posixpath
from pathlib import Path
from urllib.parse import urlsplit

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baselinks.coverage import check_coverage
from conftest import warc

PAGE = "http://e.example/a/b/index.html"
CAPTURED = (
    "http://e.example/a/b/page.html",
    "http://e.example/a/dir/",
    "http://e.example/q.php?x=1&y=2",
    "https://www.e.example/secure/doc.html",
    "http://e.example:8080/port.html",
    "http://e.example/caf%C3%A9.html",
    "http://e.example/a/c/deep/file.html",
)


def forms(target: str, page: str = PAGE) -> list[str]:
    """``target`` written as a link on ``page`` in every form a page writes it."""
    parts = urlsplit(target)
    host, port = parts.hostname or "", parts.port
    path_query = parts.path + (f"?{parts.query}" if parts.query else "")
    here = urlsplit(page)
    found = [target, target + "#", target + "#section", "//" + parts.netloc + path_query]
    upper = f"{parts.scheme.upper()}://{parts.netloc.upper()}{path_query}"
    found.append(upper)
    default = {"http": 80, "https": 443}[parts.scheme]
    if port is None:
        found.append(f"{parts.scheme}://{host}:{default}{path_query}")
    bare = host.removeprefix("www.")
    other_host = bare if host.startswith("www.") else "www." + host
    netloc = other_host + (f":{port}" if port else "")
    found.append(f"{parts.scheme}://{netloc}{path_query}")
    swapped = "https" if parts.scheme == "http" else "http"
    if port is None:
        found.append(f"{swapped}://{parts.netloc}{path_query}")
    if parts.netloc == here.netloc and parts.scheme == here.scheme:
        folder = posixpath.dirname(here.path)
        relative = posixpath.relpath(parts.path, folder)
        relative += "/" if parts.path.endswith("/") and relative != "." else ""
        query = f"?{parts.query}" if parts.query else ""
        found += [relative + query, "./" + relative + query, "x/../" + relative + query]
        found.append("../" + posixpath.relpath(parts.path, posixpath.dirname(folder)) + query)
        found.append(path_query)
        found.append(path_query.replace("a", "%61", 1) if "a" in parts.path else path_query)
    return list(dict.fromkeys(found))


def not_captured(target: str) -> list[str]:
    """URLs beside ``target`` that are no capture of it."""
    parts = urlsplit(target)
    host = parts.hostname or ""
    path = parts.path.rstrip("/") or "/"
    found = [
        f"{parts.scheme}://{parts.netloc}{path}x" + (f"?{parts.query}" if parts.query else ""),
        f"{parts.scheme}://cdn.{host.removeprefix('www.')}{parts.path}",
        f"{parts.scheme}://{host}:8081{parts.path}",
        f"{parts.scheme}://{parts.netloc}/other{parts.path}",
    ]
    if parts.query:
        found.append(f"{parts.scheme}://{parts.netloc}{parts.path}?{parts.query}0")
        found.append(f"{parts.scheme}://{parts.netloc}{parts.path}")
    return found


def _crawl(
    tmp_path: Path, captured: tuple[str, ...], links: dict[str, str], based: dict[str, str]
) -> Path:
    """A WARC of the captured URLs (small pages), the page linking to every link (its own
    capture), and a page whose <base href> is http://e.example/a/ linking to ``based``."""
    anchors = "".join(f'<a href="{raw}">x</a>\n' for raw in links)
    under = '<base href="http://e.example/a/">' + "".join(f'<a href="{r}">x</a>' for r in based)
    records = [(url, "text/html", b"<p>captured</p>") for url in captured]
    records.append((PAGE, "text/html", anchors.encode()))
    records.append(("http://e.example/based.html", "text/html", under.encode()))
    path = tmp_path / "crawl.warc.gz"
    path.write_bytes(warc(records))
    return path


def _check(tmp_path: Path, captured: tuple[str, ...]) -> None:
    links: dict[str, str] = {}
    based: dict[str, str] = {}
    for target in captured:
        for form in forms(target):
            links[form] = "captured"
        for beside in not_captured(target):
            if beside not in captured:
                links[beside] = "missing"
        if target.startswith("http://e.example/a/"):  # by a path under the <base>
            based[target.removeprefix("http://e.example/a/")] = "captured"
            based[target.removeprefix("http://e.example/a/") + "-not"] = "missing"
    covered, _ = check_coverage([_crawl(tmp_path, captured, links, based)])
    found = {(one.link.page_url, one.link.raw): one.coverage.capture for one in covered}
    # what was not captured is missing, or out of scope (a host of which nothing was captured)
    answers = {key: _NOT.get(capture, capture) for key, capture in found.items()}
    wrong = {
        raw: (answers.get((PAGE, raw)), expected)
        for raw, expected in links.items()
        if answers.get((PAGE, raw)) != expected
    }
    assert not wrong
    assert {raw: answer for (page, raw), answer in answers.items() if page != PAGE} == based


_NOT = {"out-of-scope": "missing"}


def test_every_form_of_every_capture(tmp_path: Path) -> None:
    assert len(forms(CAPTURED[0])) >= 14  # the forms are made, not one
    _check(tmp_path, CAPTURED)


_SEGMENT = st.text("abcdefghijklmnopqrstuvwxyz0123456789-_.~", min_size=1, max_size=8).filter(
    lambda s: s not in (".", "..")
)


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["http", "https"]),
            st.sampled_from(["e.example", "www.e.example"]),
            st.lists(_SEGMENT, min_size=1, max_size=4),
            st.booleans(),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_random_captures_in_every_form(tmp_path_factory: object, drawn: list[object]) -> None:
    captured = []
    for scheme, host, segments, folder in drawn:  # type: ignore[misc]
        path = "/" + "/".join(segments) + ("/" if folder else "")
        captured.append(f"{scheme}://{host}{path}")
    keys = {url.split("://", 1)[1].removeprefix("www.").rstrip("/").lower() for url in captured}
    if len(keys) < len(captured) or any(k in ("e.example/a/b/index.html",) for k in keys):
        return  # two draws of one key: their "not captured" neighbours may be captured
    folder = tmp_path_factory.mktemp("forms")  # type: ignore[attr-defined]
    _check(folder, tuple(dict.fromkeys(captured)))
