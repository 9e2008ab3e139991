"""How big the bot's catalogues are and how long their longest sentences get.

    python bench/locales.py

Prints the number of message ids per language, then, per kind of text (buttons, select
options, modal titles, messages…) and language, the longest one rendered with the long
realistic parameters of ``tests/bot/test_locales.py`` and Discord's limit for that kind.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.text import catalogue
from tests.bot.test_locales import KINDS, MESSAGE_LIMIT, PLAYER_LANGUAGES, SHORT, longest


def main() -> None:
    for locale in PLAYER_LANGUAGES:
        print(f"{locale}: {len(catalogue().ids(locale))} message ids")
    kinds = dict(KINDS) | {"message": (sorted(catalogue().ids("en")), MESSAGE_LIMIT)}
    print(f"{'kind':<24}{'limit':>6}  " + "  ".join(f"{lang:<34}" for lang in PLAYER_LANGUAGES))
    for kind, (keys, limit) in kinds.items():
        params = {} if kind == "message" else SHORT | {"number": 25, "limit": 3}
        cells = []
        for locale in PLAYER_LANGUAGES:
            length, key = longest(keys, locale, params)
            cells.append(f"{length:>5} {key:<28}")
        print(f"{kind:<24}{limit:>6}  " + "  ".join(cells))


if __name__ == "__main__":
    main()
