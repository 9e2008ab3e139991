"""``python -m engine.carcassonne``: see :mod:`engine.carcassonne.cli`."""

import sys

from engine.carcassonne.cli import main

sys.exit(main())
