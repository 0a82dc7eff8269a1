"""The version, the one place it is written: ``baselinks.__version__``, ``baselinks --version``,
a Parquet file's creator, and the distribution's (pyproject.toml reads it: setuptools' dynamic
``attr``, found without importing the package)."""

__version__ = "0.1.0"
