"""Coverage-guided fuzzing of each reader and of the walker with atheris (libFuzzer), the real
corpus as seeds. On demand, never in CI:

    pip install atheris
    python fuzz/fuzz_atheris.py TARGET [SEEDS ...] -- [libFuzzer options]
    python fuzz/fuzz_atheris.py warc /work/shared/corpus/warc fixtures/containers \\
        -- -max_total_time=600 -rss_limit_mb=2048 -max_len=262144

TARGET is one of TARGETS: ``warc`` (WARC and ARC records, gzip and not), ``mime`` (MIME and
MHTML), ``http`` (a raw response: framing and codings), ``gzip`` (a gzip layer around any of
these), ``html`` (decoding, parsing, the walker and the resolver: the page's links), ``svg``,
``css``, and ``any`` (what the input sniffs as). Each runs the library's reading of the bytes as
``extract_links`` does, errors handed to ``on_error``: what may not happen is a traceback (an
exception escaping, a bug) or an "internal error", which atheris reports with the input that
made it (``crash-<sha1>``, to run again: ``python fuzz/fuzz_atheris.py TARGET crash-...``).
libFuzzer's own limits catch the rest: ``-rss_limit_mb`` (memory), ``-timeout`` (a hang).
Without TARGET's SEEDS, the fixtures of its kind are the seeds. tests/test_fuzz.py replays
each target on its seeds (no atheris needed), so that the harness itself keeps working.
"""

from __future__ import annotations

import gzip
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


def _read(data: bytes, headers: dict[str, str] | None = None, name: str = "f") -> None:
    from baselinks import extract_links

    def said(error: object) -> None:
        if "internal error" in str(error):
            raise AssertionError(str(error))  # a bug: atheris keeps the input

    extract_links(data, name=name, headers=headers, on_error=said, on_warning=said)


TARGETS: dict[str, tuple[Callable[[bytes], None], tuple[str, ...]]] = {
    "warc": (_read, ("containers/*.warc*", "containers/*.arc*")),
    "mime": (_read, ("containers/*.eml", "containers/*.mht*")),
    "http": (_read, ("containers/*.http",)),
    "gzip": (lambda data: _read(gzip.compress(data, mtime=0)), ("containers/*.eml", "html/*")),
    "html": (
        lambda data: _read(data, {"Content-Type": "text/html"}),
        ("html/*", "browser/pages/*"),
    ),
    "svg": (lambda data: _read(data, {"Content-Type": "image/svg+xml"}), ("svg/*",)),
    "css": (lambda data: _read(data, {"Content-Type": "text/css"}), ("css/*",)),
    "any": (_read, ("containers/*", "html/*")),
}


def seeds(target: str) -> list[Path]:
    """The fixtures that seed ``target`` when no seeds are named."""
    _, patterns = TARGETS[target]
    return sorted(path for pattern in patterns for path in FIXTURES.glob(pattern) if path.is_file())


def replay(target: str, paths: list[Path]) -> int:
    """Each input once through ``target`` (what atheris calls), without atheris: how many."""
    one, _ = TARGETS[target]
    for path in paths:
        one(path.read_bytes())
    return len(paths)


def main(argv: list[str]) -> None:
    import atheris  # the fuzzer: pip install atheris (not a dependency of baselinks)

    split = argv.index("--") if "--" in argv else len(argv)
    own, fuzzer = argv[:split], argv[split + 1 :]
    target, given = own[0], own[1:]
    one, _ = TARGETS[target]
    import baselinks.api  # noqa: F401  # the pipeline loaded, then instrumented

    atheris.instrument_all()
    corpus = given or [str(path.parent) for path in seeds(target)][:1]
    atheris.Setup([sys.argv[0], *fuzzer, *sorted(set(corpus))], one)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv[1:])
