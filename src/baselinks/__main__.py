"""``python -m baselinks``: the same as the ``baselinks`` command."""

from __future__ import annotations

import sys

from .cli.app import main

if __name__ == "__main__":
    sys.exit(main())
