"""``python -m engine.charioteer``: see :mod:`engine.charioteer.cli`."""

import sys

from engine.charioteer.cli import main

sys.exit(main())
