"""The rules a link's target and a capture are matched by (coverage/keys.py): each leniency of
the SURT key a rule, each with its pair; the pairs it keeps apart; a mirror's folder URLs."""

from __future__ import annotations

import pytest

from baselinks.coverage.keys import (
    DISTINCT,
    RULES,
    host_key,
    mirror_aliases,
    scheme_family,
    split_fragment,
    target_key,
)


@pytest.mark.parametrize("rule", RULES, ids=[rule.name for rule in RULES])
def test_each_rule_matches_its_pair(rule: object) -> None:
    name, says, link, capture = rule  # type: ignore[misc]
    assert link != capture, name  # a rule about equal strings would test nothing
    assert target_key(link) == target_key(capture) is not None, says


@pytest.mark.parametrize("pair", DISTINCT)
def test_the_key_keeps_these_apart(pair: tuple[str, str]) -> None:
    assert target_key(pair[0]) != target_key(pair[1])


def test_rules_are_documented() -> None:
    # docs/guide/coverage.md lists every rule by name
    from conftest import FIXTURES

    guide = (FIXTURES.parent / "docs" / "guide" / "coverage.md").read_text(encoding="utf-8")
    for rule in RULES:
        assert f"`{rule.name}`" in guide, rule.name


def test_no_key_for_what_cannot_be_matched() -> None:
    assert target_key("/relative.html") is None
    assert target_key("http://exa mple.com:99999/") is None


def test_host_key_and_scheme_family() -> None:
    assert host_key(target_key("https://www.Example.com:8443/a") or "") == "com,example:8443"
    assert host_key("mailto:a@b") == "mailto:"
    assert scheme_family("HTTPS://e.com/") == scheme_family("http://e.com/") == "http"
    assert scheme_family("data:,x") == "data"
    assert scheme_family("a/b:c") == scheme_family("/x") == ""


def test_fragment_split_at_the_first_hash() -> None:
    assert split_fragment("http://e.com/a#b#c") == ("http://e.com/a", "b#c")
    assert split_fragment("http://e.com/a#") == ("http://e.com/a", "")
    assert split_fragment("http://e.com/a") == ("http://e.com/a", None)


def test_a_mirrored_folder_is_its_index_html_too() -> None:
    assert mirror_aliases("http://e.com/docs/") == ("http://e.com/docs/index.html",)
    assert mirror_aliases("http://e.com/") == ("http://e.com/index.html",)
    assert mirror_aliases("http://e.com/a.html") == ()
    assert mirror_aliases("http://e.com/?q=1/") == ()
