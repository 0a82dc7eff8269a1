"""An optional module whose extra is not installed says which ``pip install`` adds it."""

from __future__ import annotations

import subprocess
import sys


def _import_without(module: str, blocked: str) -> subprocess.CompletedProcess[str]:
    # sys.modules[name] = None makes `import name` fail as if it were not installed
    code = f"import sys\nsys.modules[{blocked!r}] = None\nimport {module}"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def test_the_scrapy_drop_in_without_scrapy_names_the_extra() -> None:
    ran = _import_without("baselinks.scrapy", "scrapy")
    assert ran.returncode == 1
    last = ran.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: baselinks.scrapy needs Scrapy: ")
    assert "pip install 'baselinks[scrapy]'" in last
