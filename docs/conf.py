"""Sphinx's configuration for the documentation site (``python -m pip install -e ".[docs]"``):

    sphinx-build -W -b html docs site

The pages are the Markdown files of this folder (MyST), the home page the README; the API page is
autodoc over the docstrings, which are reStructuredText. Nothing is fetched while building (no
intersphinx): the site builds offline, as CI builds it.
"""

from __future__ import annotations

import importlib.util

project = "baselinks"
author = "the baselinks authors"
copyright = "2026, the baselinks authors"  # noqa: A001 (Sphinx's name for it)

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns: list[str] = []

# "[the link record](reference.md#the-link-record)": the anchors GitHub makes of headings, so
# that a link reads the same on GitHub and on the site
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]

# The API page documents baselinks.scrapy and baselinks.spark, whose extras the docs extra does
# not bring (`pip install -e ".[docs]"` alone builds the site): where one is not installed,
# autodoc imports the module over a stand-in for it (Sphinx's mock), so the page is the same
# but for an annotation or two. Where it is installed, the real one is imported.
EXTRAS = ("pyspark", "scrapy", "pandas", "pyarrow")


def _missing(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is None
    except ImportError:  # a finder that refuses it (tests/test_docs_site.py hides the extras)
        return True


autodoc_mock_imports = [name for name in EXTRAS if _missing(name)]
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True

html_theme = "furo"
html_title = "baselinks"
html_show_sourcelink = False
html_copy_source = False  # the Markdown is in the repository; the site is the pages
