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


def _run_without(blocked: str, *argv: str) -> subprocess.CompletedProcess[str]:
    code = f"import runpy, sys\nsys.modules[{blocked!r}] = None\nsys.argv = {list(argv)!r}\n"
    code += "runpy.run_module('baselinks.spark', run_name='__main__', alter_sys=True)"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def test_the_spark_entry_point_without_pyspark_is_one_line() -> None:
    # issue 36: `python -m baselinks.spark` without pyspark ended in a traceback (the package's
    # __init__ imported the driver, which imports pyspark)
    ran = _run_without("pyspark", "baselinks.spark", "--help")
    assert ran.returncode == 1
    [line] = ran.stderr.splitlines()
    assert line.startswith("baselinks: baselinks.spark needs pyspark: ")
    assert "pip install 'baselinks[spark]'" in line


def test_the_spark_api_without_pyspark_names_the_extra() -> None:
    ran = _import_without("baselinks.spark", "pyspark")
    assert ran.returncode == 0, ran.stderr  # the package itself loads nothing of pyspark
    code = "import sys\nsys.modules['pyspark'] = None\nfrom baselinks.spark import extract_links"
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    last = ran.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: baselinks.spark needs pyspark: ")
    assert "pip install 'baselinks[spark]'" in last
