"""benchmarks/bench_compiled.py builds the URL modules with mypyc and Cython from a patched copy
of these sources (the build itself takes minutes and a compiler: run on demand). What is tested
here is what a change to the sources can break: that every patch still applies, that the calls
it rewrites are calls, and that the patched copy, uncompiled, is still the package."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location(
    "bench_compiled", ROOT / "benchmarks" / "bench_compiled.py"
)
assert _spec is not None and _spec.loader is not None
bench_compiled = importlib.util.module_from_spec(_spec)
sys.modules["bench_compiled"] = bench_compiled
_spec.loader.exec_module(bench_compiled)


def test_every_patch_applies_once_to_the_sources(tmp_path: Path) -> None:
    package = bench_compiled.prepare(tmp_path / "copy")
    for name, _, new, why in bench_compiled.MYPYC_PATCHES:
        assert why
        assert (package / name).read_text(encoding="utf-8").count(new) == 1, name
    for name in bench_compiled.MODULES:
        assert (package / name).is_file(), name


def test_a_patch_that_no_longer_applies_names_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    patches = (*bench_compiled.MYPYC_PATCHES, ("url/parts.py", "no such text", "x", "why"))
    monkeypatch.setattr(bench_compiled, "MYPYC_PATCHES", patches)
    with pytest.raises(SystemExit, match=r"url/parts\.py: the mypyc patch for 'no such text'"):
        bench_compiled.prepare(tmp_path / "copy")


def test_only_calls_of_resolver_are_rewritten() -> None:
    source = textwrap.dedent(
        '''
        """``Resolver(base, mode)`` in a docstring stays."""
        from .resolve import Resolver, encoding_parse


        def make(base: str, mode: str) -> Resolver:
            label = f"Resolver({base!r})"  # a string stays; so does Resolver( in a comment
            codebase = Resolver(Resolver(base, mode).resolve("x"), mode)
            return Resolver(base, mode) if label else codebase
        '''
    )
    patched = bench_compiled._calls_patched(source, "link.py")
    assert '"""``Resolver(base, mode)`` in a docstring stays."""' in patched
    assert 'f"Resolver({base!r})"  # a string stays; so does Resolver( in a comment' in patched
    assert "codebase = resolver_of(resolver_of(base, mode).resolve" in patched
    assert "return resolver_of(base, mode) if label" in patched
    assert "from .resolve import resolver_of, Resolver, encoding_parse" in patched
    assert "-> Resolver:" in patched


def test_the_patched_copy_uncompiled_gives_the_same_answers(tmp_path: Path) -> None:
    pytest.importorskip("mypy_extensions", reason="the mypyc patches import it (lint extra)")
    bench_compiled.prepare(tmp_path / "copy")
    probe = textwrap.dedent(
        """
        import baselinks
        from baselinks import iter_links
        print(baselinks.__file__)
        print(baselinks.resolve("http://a/b/c/d;p?q", "../../../g"))
        print(baselinks.explain("http://a/b/c/d;p?q", "g;x").result)
        page = b'<base href="http://e.com/d/"><a href="../x y">t</a><object codebase="c/" data="o">'
        for link in iter_links(page, url="http://r/"):
            print(tuple(link))
        """
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "copy")}
    env.pop("BASELINKS_PURE", None)
    lines = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert lines[0] == str(tmp_path / "copy" / "baselinks" / "__init__.py")
    here = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert lines[1:] == here[1:]
    assert lines[1:3] == ["http://a/../g", "http://a/b/c/g;x"]
    # the Linker's resolvers, made by resolver_of in the copy: one for <base>, one for the codebase
    links = [line.split(", ")[:2] for line in lines[3:]]
    assert links == [
        ["('http://e.com/x y'", "'../x y'"],
        ["('http://e.com/d/c/o'", "'o'"],
        ["('http://e.com/d/c/'", "'c/'"],
    ]
