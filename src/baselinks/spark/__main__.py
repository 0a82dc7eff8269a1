"""``python -m baselinks.spark``: the driver (driver.py)."""

import sys

from baselinks.spark.driver import main

sys.exit(main())
