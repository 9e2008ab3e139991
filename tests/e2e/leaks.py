"""What must never be public: a hand or token listing, an unrevealed move, and — in the
bot's log — any card at all.

Secrets come from the bot's own database: every move ever committed is replayed from the
record, and its text form (what the private panel shows as "your move is in") must not
appear in any public message or log line; hand listings are recognised by their shape
("1) G2×2 R3×2", one numbered line per card or token, as only the private panel lists
them)."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path

import asyncpg

from bot.games.charioteer.drafts import Draft
from bot.storage import is_postgres_url
from engine.charioteer import Move
from engine.charioteer.render import hand_text  # noqa: F401  (the format checked below)
from engine.i18n import Catalogue
from tests.databases import rows

PRIVATE_DRAWING = ("your drawing**", "Drawing: ")
"""What only a Cartographers player's own panel says about their drawing (the public posts
never show a drawing before its turn resolves)."""
HAND_LINE = re.compile(r"(?m)^\s*\d+\) \S")
CARD_FACE = re.compile(r"(?<![\w#@<])[GRYB][0-9](?:x2|×2)?(?:\s+[GRYB][0-9](?:x2|×2)?)+\b")


def private_headings() -> list[str]:
    """The headings of the private panel's hand and token lists, in English."""
    catalogue = Catalogue.from_package("engine.charioteer")
    headings = []
    for key in ("hand.title", "hand.tokens"):
        template = catalogue.template("en", key)
        texts = [template] if isinstance(template, str) else list(template.values())
        headings.extend(text.split("(")[0].split("{")[0].strip() for text in texts)
    return sorted({heading for heading in headings if heading})


def committed_moves(database: str | Path | None) -> list[str]:
    """The text form of every move ever committed in the database's races, in each language
    (none if the bot never created it)."""
    if database is None or not (is_postgres_url(database) or Path(database).exists()):
        return []
    try:
        found = rows(database, "SELECT data FROM actions WHERE kind = 'commit'")
    except (sqlite3.OperationalError, asyncpg.UndefinedTableError):
        return []
    import json

    texts = set()
    for (data,) in found:
        draft = Draft.from_move(Move.from_json(json.loads(data)))
        texts.update(draft.text(locale) for locale in ("en", "es", "it"))
    return sorted(texts)


def leaks_in_public(messages: list[str], database: str | Path | None) -> list[str]:
    problems = []
    headings = private_headings()
    moves = committed_moves(database)
    for text in messages:
        if HAND_LINE.search(text):
            problems.append(f"a numbered hand or token list in public: {text[:200]!r}")
        for private in PRIVATE_DRAWING:
            if private in text:
                problems.append(f"a private drawing panel in public: {text[:200]!r}")
        for heading in headings:
            if heading in text:
                problems.append(f"the private heading {heading!r} in public: {text[:200]!r}")
        for move in moves:
            if f"`{move}`" in text:
                problems.append(f"a committed move {move!r} in public: {text[:200]!r}")
    return problems


def leaks_in_log(lines: list[str], database: str | Path | None) -> list[str]:
    problems = []
    moves = committed_moves(database)
    for line in lines:
        if CARD_FACE.search(line):
            problems.append(f"card faces in the log: {line[:200]!r}")
        for move in moves:
            if f"`{move}`" in line or f"'{move}'" in line:
                problems.append(f"a committed move in the log: {line[:200]!r}")
    return problems


async def settle() -> None:
    """Let the last background writes land before the database is read."""
    await asyncio.sleep(0)
