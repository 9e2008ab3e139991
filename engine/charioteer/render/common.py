"""What every Charioteer renderer shares: the message catalogue, the chariots' colours and
marks, players' display names, and the localised text of symbols, cards and tokens.

Every word a player reads comes from ``engine/charioteer/locales/<locale>.json`` (see
:mod:`engine.i18n`); this module only arranges them.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.charioteer.components import COLOURS, Card, Colour, Symbol, Token
from engine.charioteer.state import Skill
from engine.charioteer.track import SECTIONS, Section
from engine.i18n import Catalogue, char_width, display_width

SEAT_COLOURS: dict[str, str] = {
    "A": "red",
    "B": "blue",
    "C": "green",
    "D": "yellow",
    "E": "purple",
    "F": "white",
}
"""Each seat's chariot colour id; its name and one-letter mark come from the catalogue
(``chariot.<id>``, ``chariot.<id>.mark``)."""

CHARIOT_RGB: dict[str, tuple[int, int, int]] = {
    "red": (214, 48, 49),
    "blue": (41, 98, 255),
    "green": (46, 160, 67),
    "yellow": (242, 193, 46),
    "purple": (142, 68, 173),
    "white": (245, 245, 240),
}
"""The chariot colours as drawn in the board image."""

SQUARES: dict[Colour, str] = {
    Colour.GREEN: "\U0001f7e9",
    Colour.RED: "\U0001f7e5",
    Colour.YELLOW: "\U0001f7e8",
    Colour.BLACK: "\u2b1b",
}
"""Each card colour as a coloured square, where a text shows colours (Discord): with
``squares``, a symbol is "🟥5", not "R5", and a skill "🟥 3", so that on a board whose
chariots are marked by letters no letter means two things."""

NAME_WIDTH = 12
"""Display names are cut to this many columns (a Discord nickname can be 32)."""

ELLIPSIS = "…"


@functools.cache
def catalogue() -> Catalogue:
    """The Charioteer message catalogue (every locale file present)."""
    return Catalogue.from_package("engine.charioteer")


def say(locale: str, key: str, /, **params: Any) -> str:
    """The message ``key`` in ``locale`` with its placeholders filled."""
    return catalogue().text(locale, key, **params)


# --------------------------------------------------------------------------- widths


def truncate(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` columns, ending with "…" when cut."""
    if display_width(text) <= width:
        return text
    out: list[str] = []
    used = 0
    for char in text:
        taken = char_width(char)
        if used + taken > width - 1:
            break
        out.append(char)
        used += taken
    return "".join(out).rstrip() + ELLIPSIS


def pad(text: str, width: int) -> str:
    """``text`` cut or padded with spaces to exactly ``width`` columns."""
    cut = truncate(text, width)
    return cut + " " * (width - display_width(cut))


def utf16_length(text: str) -> int:
    """Length as Discord counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


# --------------------------------------------------------------------------- names


def chariot_colour(seat: str) -> str:
    return SEAT_COLOURS[seat]


def chariot_name(seat: str, locale: str) -> str:
    """The chariot's colour name: "Red"."""
    return say(locale, f"chariot.{chariot_colour(seat)}")


def chariot_mark(seat: str, locale: str) -> str:
    """The one-letter mark that stands for the chariot on the text board: "r". Chariots are
    lower case, so they never read as a symbol or skill (upper case: "B" is black, "b" blue)."""
    return say(locale, f"chariot.{chariot_colour(seat)}.mark")


def clean_name(raw: str) -> str:
    """A display name made safe for one line of a code block: no control characters, no
    backticks (which would close the block), single spaces."""
    kept = []
    for char in raw:
        category = unicodedata.category(char)
        if char == "`":
            kept.append("'")
        elif category in ("Cc", "Zl", "Zp") or char.isspace():
            kept.append(" ")
        elif category != "Cf" or char == "\u200d":
            kept.append(char)
    return " ".join("".join(kept).split())


MARKDOWN_SPECIALS = frozenset("\\*_~`|>#-[]()")


def escape_markdown(text: str) -> str:
    """Text that Discord shows literally outside a code block."""
    return "".join("\\" + char if char in MARKDOWN_SPECIALS else char for char in text)


def display_names(
    seats: Sequence[str],
    names: Mapping[str, str] | None,
    locale: str,
    width: int = NAME_WIDTH,
) -> dict[str, str]:
    """Each seat's name as shown: the given display name, cleaned and cut to ``width``
    columns, or the chariot's colour name. Two seats that would read the same get their
    chariot's colour name added."""
    shown: dict[str, str] = {}
    for seat in seats:
        given = clean_name(names.get(seat, "")) if names else ""
        shown[seat] = truncate(given, width) if given else chariot_name(seat, locale)
    twins = [seat for seat in seats if list(shown.values()).count(shown[seat]) > 1]
    for seat in twins:
        colour = chariot_name(seat, locale)
        room = width - display_width(say(locale, "name.twin", name="", colour=colour))
        shown[seat] = say(
            locale, "name.twin", name=truncate(shown[seat], max(1, room)), colour=colour
        )
    return shown


# --------------------------------------------------------------------------- components


def colour_name(colour: Colour, locale: str) -> str:
    """A card colour's name: "green"."""
    return say(locale, f"colour.{colour.value}")


def skill_name(colour: Colour, locale: str) -> str:
    """A colour's skill, its words agreeing: "red skill", "habilidad roja", "abilità in
    rosso"."""
    return say(locale, f"skill.{colour.value}")


def colour_letter(colour: Colour, locale: str, *, squares: bool = False) -> str:
    """A card colour's letter in symbols: "G" (with ``squares``: "🟩")."""
    if squares:
        return SQUARES[colour]
    return say(locale, f"colour.{colour.value}.letter")


@functools.lru_cache(maxsize=1024)
def symbol_text(symbol: Symbol, locale: str, *, squares: bool = False) -> str:
    """A symbol: "R5" (with ``squares``: "🟥5")."""
    letter = colour_letter(symbol.colour, locale, squares=squares)
    return say(locale, "symbol", letter=letter, number=symbol.number)


@functools.lru_cache(maxsize=1024)
def card_text(card: Card, locale: str = "en", *, squares: bool = False) -> str:
    """A card's face: "G2 R5×2 shield", "whip" (with ``squares``: "🟩2 🟥5×2 shield")."""
    items = []
    for symbol, count in card.symbols:
        shown = symbol_text(symbol, locale, squares=squares)
        items.append(say(locale, "symbol.double", symbol=shown) if count == 2 else shown)
    if card.icon is not None:
        items.append(say(locale, f"icon.{card.icon.value}"))
    return " ".join(items)


def token_text(token: Token, locale: str = "en") -> str:
    """A token as players see it: "+3", "red learning", "discard 2"."""
    kind = say(locale, f"token.{token.kind.value}")
    if token.colour is None:
        return kind
    return say(locale, "token.coloured", colour=colour_name(token.colour, locale), kind=kind)


def skill_text(skill: Skill, locale: str) -> str:
    """A skill marker: its level, or its bonus slot once in the bonus box ("+5")."""
    if skill.slot is not None:
        return say(locale, "skill.slot", slot=skill.slot)
    return str(skill.level)


def skills_by_colour(skills: Sequence[Skill]) -> dict[Colour, Skill]:
    return dict(zip(COLOURS, skills, strict=True))


def section_named(name: str) -> Section:
    """The track section called ``name`` in :data:`~engine.charioteer.track.SECTIONS`."""
    for section in SECTIONS:
        if section.name == name:
            return section
    raise KeyError(name)


def section_key(section: Section) -> str:
    return section.name.replace(" ", "_")


def section_name(section: Section, locale: str) -> str:
    """A track section's name: "first curve"."""
    return say(locale, f"section.{section_key(section)}")


def join_list(items: Iterable[str], locale: str) -> str:
    """ "A", "A and B", "A, B and C" — the locale's way of listing."""
    return catalogue().join(locale, items)
