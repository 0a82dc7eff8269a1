"""The oldest versions pyproject.toml says baselinks supports, as a pip constraints file: each
requirement's lower bound (``>=X``) pinned (``==X``), its environment marker kept; the build
requirements too ([build-system]), for a build without isolation against them.

    python .ci/oldest.py [EXTRA ...] > oldest.txt       the core, the build, and these extras

.ci/run installs baselinks with it and runs the tests: a lower bound that no longer works is
caught by us, not by a user who has that version.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

# name[extras] specifiers ; marker
_REQUIREMENT = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*([^;]*?)\s*(;.*)?$")


def pinned(requirement: str) -> str | None:
    """``name==X ; marker`` for ``name[extra]>=X,<Y ; marker``; None without a lower bound."""
    match = _REQUIREMENT.fullmatch(requirement)
    if match is None:
        raise ValueError(f"not a requirement this script reads: {requirement!r}")
    name, _, specifiers, marker = match.groups()
    lower = re.search(r">=\s*([^,\s]+)", specifiers)
    if lower is None:
        return None
    return f"{name}=={lower[1]}" + (f" {marker}" if marker else "")


def main(extras: list[str]) -> int:
    project = tomllib.loads(Path(__file__).parent.parent.joinpath("pyproject.toml").read_text())
    requirements = [
        *project["build-system"]["requires"],
        *project["project"]["dependencies"],
        *(each for extra in extras for each in project["project"]["optional-dependencies"][extra]),
    ]
    lines: dict[str, str] = {}
    for requirement in requirements:
        line = pinned(requirement)
        if line is not None:
            lines.setdefault(line.split("==")[0].lower(), line)  # the first bound wins
    print("\n".join(lines.values()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
