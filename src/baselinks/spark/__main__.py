"""``python -m baselinks.spark``: the driver (driver.py); without pyspark, one line saying
which ``pip install`` adds it."""

import sys

from baselinks.spark import run

sys.exit(run())
