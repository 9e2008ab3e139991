"""``python -m engine.cartographers``: see :mod:`engine.cartographers.cli`."""

import sys

from engine.cartographers.cli import main

sys.exit(main())
