"""Charioteer's components as data (spec §1): symbols, cards, tokens, the emperor die,
skills track and the reconstructed values, each a named constant so the real value can be
swapped in without touching the rules.

Cards and tokens are small frozen value objects with one canonical text form (spec §10):
a card is ``"G2 R5x2"``, ``"R1 B1 shield"`` or ``"whip"``; a token is ``[colour:]kind``.
"""

from __future__ import annotations

import csv
import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources

from engine.core import MalformedPosition


class Colour(StrEnum):
    GREEN = "green"
    RED = "red"
    YELLOW = "yellow"
    BLACK = "black"

    @property
    def letter(self) -> str:
        return COLOUR_LETTERS[self]

    @property
    def kind(self) -> str:
        """What a move of this colour is (spec §1)."""
        return MOVE_KINDS[self]


COLOURS: tuple[Colour, ...] = (Colour.GREEN, Colour.RED, Colour.YELLOW, Colour.BLACK)
COLOUR_LETTERS: dict[Colour, str] = {
    Colour.GREEN: "G",
    Colour.RED: "R",
    Colour.YELLOW: "Y",
    Colour.BLACK: "B",
}
LETTER_COLOURS: dict[str, Colour] = {letter: colour for colour, letter in COLOUR_LETTERS.items()}
ASCII_DIGITS = "0123456789"
"""Digits a symbol may carry: ``R²`` and ``G٥`` are not symbols."""
MOVE_KINDS: dict[Colour, str] = {
    Colour.GREEN: "sprint",
    Colour.RED: "attack",
    Colour.YELLOW: "recovery",
    Colour.BLACK: "cornering",
}

SYMBOL_NUMBERS: dict[Colour, tuple[int, ...]] = {
    Colour.GREEN: (2, 4, 6),
    Colour.RED: (1, 3, 5),
    Colour.YELLOW: (0, 2, 4),  # [R] the middle yellow number is a reconstruction
    Colour.BLACK: (0, 1, 2),
}
"""The twelve symbols, colour × number (spec §1)."""


@dataclass(frozen=True, order=True)
class Symbol:
    """A colour-and-number combination such as red-5 (``R5``)."""

    colour: Colour
    number: int

    def __str__(self) -> str:
        return f"{self.colour.letter}{self.number}"

    def to_json(self) -> str:
        return str(self)

    @classmethod
    def parse(cls, text: str) -> Symbol:
        """``"R5"`` → red-5. Raises :class:`MalformedPosition` for anything else."""
        if len(text) == 2 and text[0] in LETTER_COLOURS and text[1] in ASCII_DIGITS:
            symbol = cls(LETTER_COLOURS[text[0]], int(text[1]))
            if symbol in SYMBOLS:
                return symbol
        raise MalformedPosition(
            f"'{text}' is not a symbol (one of {', '.join(str(s) for s in SYMBOLS)})"
        )


SYMBOLS: tuple[Symbol, ...] = tuple(
    Symbol(colour, number) for colour in COLOURS for number in SYMBOL_NUMBERS[colour]
)
SYMBOL_ORDER: dict[Symbol, int] = {symbol: index for index, symbol in enumerate(SYMBOLS)}


class Icon(StrEnum):
    SHIELD = "shield"
    RECOVERY = "recovery"
    WHIP = "whip"


@dataclass(frozen=True, eq=False)
class Card:
    """A card: symbols with their counts (1 or 2) and at most one icon, or a whip alone.

    Canonical text lists symbols in colour order G, R, Y, B, lowest number first, then the
    icon: ``"G2 R5x2"``, ``"R1 B1 shield"``, ``"whip"``.
    """

    symbols: tuple[tuple[Symbol, int], ...]
    icon: Icon | None = None
    _text: str = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.icon is Icon.WHIP and self.symbols:
            raise MalformedPosition("a whip card shows no symbols")
        if not self.symbols and self.icon is not Icon.WHIP:
            raise MalformedPosition("a card needs symbols, unless it is a whip card")
        items = [
            f"{symbol}x{count}" if count == 2 else str(symbol) for symbol, count in self.symbols
        ]
        if self.icon is not None:
            items.append(self.icon.value)
        object.__setattr__(self, "_text", " ".join(items))
        object.__setattr__(self, "_hash", hash(self._text))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Card):
            return NotImplemented
        return self._text == other._text

    @property
    def is_whip(self) -> bool:
        return self.icon is Icon.WHIP

    def count(self, symbol: Symbol) -> int:
        """How many times the card shows ``symbol`` (0, 1 or 2)."""
        for shown, count in self.symbols:
            if shown == symbol:
                return count
        return 0

    def shows(self, symbol: Symbol) -> bool:
        return self.count(symbol) > 0

    def __str__(self) -> str:
        return self._text

    def to_json(self) -> str:
        return str(self)

    @classmethod
    def parse(cls, text: object) -> Card:
        """Read a card in the notation of spec §10; symbols may come in any order."""
        if not isinstance(text, str) or not text.split():
            raise MalformedPosition(f"{text!r} is not a card")
        return _parse_card(text)


@functools.lru_cache(maxsize=4096)
def _parse_card(text: str) -> Card:
    counts: Counter[Symbol] = Counter()
    icon: Icon | None = None
    for item in text.split():
        if item in Icon.__members__.values():
            if icon is not None:
                raise MalformedPosition(f"card '{text}' has more than one icon")
            icon = Icon(item)
            continue
        name, times = (item[:-2], 2) if item.endswith("x2") else (item, 1)
        counts[Symbol.parse(name)] += times
    if any(count > 2 for count in counts.values()):
        raise MalformedPosition(f"card '{text}' shows a symbol more than twice")
    symbols = tuple(sorted(counts.items(), key=lambda pair: SYMBOL_ORDER[pair[0]]))
    return Card(symbols, icon)


class TokenKind(StrEnum):
    PLUS3 = "+3"
    PLUS5 = "+5"
    WILD = "wild"
    LEARNING = "learning"
    SHIELD = "shield"
    WHIP = "whip"
    RECOVERY = "recovery"
    DISCARD2 = "discard2"
    DISCARD3 = "discard3"

    @property
    def is_discard(self) -> bool:
        return self in (TokenKind.DISCARD2, TokenKind.DISCARD3)

    @property
    def discard_limit(self) -> int:
        return {TokenKind.DISCARD2: 2, TokenKind.DISCARD3: 3}.get(self, 0)

    @property
    def distance_bonus(self) -> int:
        return {TokenKind.PLUS3: 3, TokenKind.PLUS5: 5}.get(self, 0)


PLAYER_TOKEN_KINDS: tuple[TokenKind, ...] = (
    TokenKind.PLUS3,
    TokenKind.PLUS5,
    TokenKind.WHIP,
    TokenKind.SHIELD,
    TokenKind.RECOVERY,
)
"""[R] Each player's five white tokens, never replenished (spec §1)."""

FAN_PREFIX = "fan:"


@dataclass(frozen=True)
class Token:
    """A player or fan token: a kind, a colour (``None`` = white) and where it came from.

    Text: ``[colour:]kind``. A white fan token of a kind players also start with
    (shield, whip, recovery, +3, +5) is written ``fan:kind`` so that it returns to the fan
    bag, not the box, when played; every other token's origin follows from its text.
    """

    kind: TokenKind
    colour: Colour | None = None
    fan: bool = False

    def __post_init__(self) -> None:
        if not self.fan and (self.colour is not None or self.kind not in PLAYER_TOKEN_KINDS):
            object.__setattr__(self, "fan", True)

    def fits(self, colour: Colour | None) -> bool:
        """Whether the token may join a move of this colour (``None``: a reset move)."""
        return self.colour is None or self.colour == colour

    def __str__(self) -> str:
        text = self.kind.value if self.colour is None else f"{self.colour.value}:{self.kind.value}"
        if self.fan and self.colour is None and self.kind in PLAYER_TOKEN_KINDS:
            return FAN_PREFIX + text
        return text

    def to_json(self) -> str:
        return str(self)

    @property
    def label(self) -> str:
        """The token as players see it: ``[colour:]kind``, without its origin."""
        return str(self.public())

    def public(self) -> Token:
        """The token as rivals see it once played: kind and colour, not its origin."""
        return _public_token(self.kind, self.colour)

    @classmethod
    def parse(cls, text: object, *, fan: bool = False) -> Token:
        """Read ``[fan:][colour:]kind``; ``fan`` marks every token read as a fan token."""
        if not isinstance(text, str):
            raise MalformedPosition(f"{text!r} is not a token")
        return _parse_token(text, fan)


@functools.lru_cache(maxsize=64)
def _public_token(kind: TokenKind, colour: Colour | None) -> Token:
    return Token(kind, colour)


@functools.lru_cache(maxsize=512)
def _parse_token(text: str, fan: bool) -> Token:
    body = text
    if body.startswith(FAN_PREFIX):
        fan, body = True, body[len(FAN_PREFIX) :]
    colour: Colour | None = None
    if ":" in body:
        colour_text, body = body.split(":", 1)
        try:
            colour = Colour(colour_text)
        except ValueError:
            raise MalformedPosition(f"token '{text}': unknown colour '{colour_text}'") from None
    try:
        kind = TokenKind(body)
    except ValueError:
        kinds = " ".join(kind.value for kind in TokenKind)
        raise MalformedPosition(f"token '{text}': kind must be one of {kinds}") from None
    return Token(kind, colour, fan)


class EmperorFace(StrEnum):
    GREEN = "green"
    RED = "red"
    YELLOW = "yellow"
    BLACK = "black"
    ALL = "all"
    DISRUPT = "disrupt"

    def favours(self, colour: Colour) -> bool:
        """Whether a move of ``colour`` earns the emperor's extra skill step."""
        return self is EmperorFace.ALL or self.value == colour.value


EMPEROR_FACES: tuple[EmperorFace, ...] = tuple(EmperorFace)
"""The emperor die's six faces, in roll order."""

DISRUPT_CUBES: dict[int, int] = {2: 3, 3: 2, 4: 1, 5: 0, 6: 0}
"""[R] Cubes the disrupt face puts in every attack box area, by number of players."""

HAND_SIZE = 8
MIN_PLAYERS, MAX_PLAYERS = 2, 6
LAPS = 3
MAX_HAND_CARDS_IN_MOVE = 3
MIN_MATCHING_CARDS = 2
MINOR_ATTACK_CARDS, MAJOR_ATTACK_CARDS = 3, 4
MINOR_ATTACK_CUBES, MAJOR_ATTACK_CUBES = 1, 2
ATTACK_BOXES = 3
FAN_TOKEN_SYMBOLS = 6
WHIP_SPACES = 5

SKILL_START_LEVELS = 4
"""Levels 0–3 are the start spaces (bonus 0)."""
SKILL_PLUS_ONE_SPACES = 7
"""[R] Number of "+1" spaces, levels 4–10."""
SKILL_BOX_LEVEL = SKILL_START_LEVELS + SKILL_PLUS_ONE_SPACES
"""A marker reaching this level enters the bonus box."""
BONUS_SLOTS: tuple[int, ...] = (3, 5, 7, 9)
"""The bonus box's slots, filled lowest first."""


def skill_bonus(level: int) -> int:
    """Distance bonus of a marker on the track (not in the bonus box)."""
    return 0 if level < SKILL_START_LEVELS else 1


SKILLS_CARDS: tuple[tuple[Colour, ...], ...] = tuple(itertools.permutations(COLOURS))
"""The 24 skills cards: every ordering of the colours, top to bottom."""


def skills_from_card(card: tuple[Colour, ...]) -> dict[Colour, int]:
    """Start levels from a skills card: the top colour at level 3, the last at 0."""
    top = SKILL_START_LEVELS - 1
    return {colour: top - row for row, colour in enumerate(card)}


FAN_TOKEN_MIX: tuple[tuple[str, int], ...] = (
    *((f"{colour.value}:+3", 3) for colour in COLOURS),
    *((f"{colour.value}:+5", 2) for colour in COLOURS),
    *((f"{colour.value}:wild", 2) for colour in COLOURS),
    *((f"{colour.value}:learning", 2) for colour in COLOURS),
    ("fan:shield", 5),
    ("fan:whip", 5),
    ("fan:recovery", 6),
    ("discard2", 4),
    ("discard3", 4),
)
"""[R] The 60 fan tokens in the bag."""


def fan_tokens() -> tuple[Token, ...]:
    """The standard fan bag, in a fixed order (shuffled at set-up)."""
    return tuple(Token.parse(text, fan=True) for text, count in FAN_TOKEN_MIX for _ in range(count))


def player_tokens() -> tuple[Token, ...]:
    """One player's starting tokens."""
    return tuple(Token(kind) for kind in PLAYER_TOKEN_KINDS)


@functools.cache
def deck() -> tuple[Card, ...]:
    """The 147 cards of ``data/deck.csv`` [R composition], in file order."""
    text = resources.files("engine.charioteer").joinpath("data/deck.csv").read_text("utf-8")
    cards = []
    for row in csv.DictReader(text.splitlines()):
        items = " ".join(part for part in (row["symbols"], row["icon"]) if part)
        cards.append(Card.parse(items))
    return tuple(cards)


def remove_present(
    standard: Iterable[Card | Token], present: Iterable[Card | Token]
) -> list[Card | Token]:
    """The standard components left once those already somewhere in a position are taken
    out (components not in the standard set are simply ignored)."""
    left = list(standard)
    counts: Mapping[Card | Token, int] = Counter(present)
    for item, count in counts.items():
        for _ in range(count):
            if item in left:
                left.remove(item)
    return left
