"""The README's console examples are run, and their output must be what the README shows.

A ```console block holds ``$ command`` lines, each followed by its expected output (stdout and
stderr together, in that order). ``baselinks`` runs as ``python -m baselinks`` of this
interpreter, from the repository root.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest

from conftest import FIXTURES

ROOT = FIXTURES.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _examples() -> list[tuple[str, str]]:
    examples = []
    for block in re.findall(r"```console\n(.*?)```", README, re.DOTALL):
        command, expected = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    examples.append((command, "\n".join(expected)))
                command, expected = line[2:], []
            else:
                expected.append(line)
        if command is not None:
            examples.append((command, "\n".join(expected)))
    return examples


EXAMPLES = _examples()


def test_the_readme_has_examples() -> None:
    assert len(EXAMPLES) >= 4


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_readme_example(command: str, expected: str) -> None:
    assert command.startswith("baselinks ")
    runnable = f"{shlex.quote(sys.executable)} -m {command}"
    proc = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {{ {runnable} ; }} 2>&1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.stdout.rstrip("\n") == expected
