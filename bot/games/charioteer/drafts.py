"""A move being put together in a panel or typed as text, before it is confirmed.

A :class:`Draft` numbers cards and tokens from 1, as players see them. It becomes an
engine :class:`~engine.charioteer.Move` with :meth:`Draft.to_move`, which picks the
discard token itself (the smallest that covers the cards to discard).

The text form, used by the console, the "type your move" modal and ``/race log``:
``R5 1 2 crowd t1`` (symbol, cards, crowd card, move token 1), ``G4 1 3 t2 w3`` (token 2
is a wild turning card 3), ``Y2 4 5 d7 d8`` (discard cards 7 and 8 with a discard token),
``reset 6`` (a reset move with card 6). ``reset`` and ``crowd`` are also read in the
player's language (``reinicio 6``, ``G4 1 plebe``: ``draft.word.*`` in the catalogue), and
a draft is written back in it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.text import t
from engine.charioteer import Move, Symbol, Token
from engine.core import JSON, MalformedPosition

SYMBOL_PATTERN = re.compile(r"^[grybGRYB][0-9]$")
KEYWORDS = ("reset", "crowd")
PREFIXED = re.compile(r"^([twd])([0-9]+)$")


class DraftError(ValueError):
    """Text that is not a move; ``key`` and ``params`` name the message to show."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class Draft:
    """Choices so far; card, token and discard numbers are hand/token indices (0-based)."""

    symbol: str | None = None
    reset: bool = False
    cards: tuple[int, ...] = ()
    crowd: bool = False
    token: int | None = None
    wild: int | None = None
    discard: tuple[int, ...] = ()

    @property
    def is_empty(self) -> bool:
        return self == Draft()

    def replace(self, **changes: object) -> Draft:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def to_json(self) -> dict[str, JSON]:
        return {
            "symbol": self.symbol,
            "reset": self.reset,
            "cards": list(self.cards),
            "crowd": self.crowd,
            "token": self.token,
            "wild": self.wild,
            "discard": list(self.discard),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, JSON] | None) -> Draft:
        if not obj:
            return cls()
        return cls(
            symbol=obj.get("symbol"),
            reset=bool(obj.get("reset")),
            cards=tuple(int(card) for card in obj.get("cards") or ()),
            crowd=bool(obj.get("crowd")),
            token=obj.get("token"),
            wild=obj.get("wild"),
            discard=tuple(int(card) for card in obj.get("discard") or ()),
        )

    @classmethod
    def from_move(cls, move: Move) -> Draft:
        return cls(
            symbol=None if move.symbol is None else str(move.symbol),
            reset=move.is_reset,
            cards=tuple(move.cards),
            crowd=move.crowd,
            token=move.token,
            wild=move.wild,
            discard=tuple(move.discard_cards),
        )

    def to_move(self, tokens: Sequence[Token]) -> Move:
        """The engine move; raises :class:`DraftError` when a piece is missing."""
        discard_token = None
        if self.discard:
            discard_token = pick_discard_token(tokens, len(self.discard))
            if discard_token is None:
                raise DraftError("draft.no_discard_token")
        if self.reset:
            if not self.cards:
                raise DraftError("draft.no_cards")
            return Move.reset(self.cards, discard_token, self.discard)
        if self.symbol is None:
            raise DraftError("draft.no_symbol")
        if not self.cards:
            raise DraftError("draft.no_cards")
        try:
            symbol = Symbol.parse(self.symbol)
        except MalformedPosition:
            raise DraftError("draft.bad_symbol", symbol=self.symbol) from None
        return Move(
            tuple(sorted(self.cards)),
            symbol,
            self.crowd,
            self.token,
            self.wild,
            discard_token,
            tuple(sorted(self.discard)),
        )

    def text(self, locale: str = "en") -> str:
        """The draft in the text form (numbers from 1), its keywords in ``locale``."""
        words = [keyword(locale, "reset") if self.reset else (self.symbol or "?")]
        words += [str(card + 1) for card in sorted(self.cards)]
        if self.crowd:
            words.append(keyword(locale, "crowd"))
        if self.token is not None:
            words.append(f"t{self.token + 1}")
        if self.wild is not None:
            words.append(f"w{self.wild + 1}")
        words += [f"d{card + 1}" for card in sorted(self.discard)]
        return " ".join(words)


def pick_discard_token(tokens: Sequence[Token], count: int) -> int | None:
    """The index of the smallest discard token (white) that discards ``count`` cards."""
    fitting = [
        (token.kind.discard_limit, index)
        for index, token in enumerate(tokens)
        if token.kind.is_discard and token.colour is None and token.kind.discard_limit >= count
    ]
    return min(fitting)[1] if fitting else None


def keyword(locale: str, name: str) -> str:
    """``reset`` or ``crowd`` as typed in ``locale``."""
    return t(locale, f"draft.word.{name}")


def keywords(locale: str) -> dict[str, str]:
    """What each word that names a keyword names: the English words, ``c`` for the crowd
    card, and the words of ``locale``."""
    words = {"reset": "reset", "crowd": "crowd", "c": "crowd"}
    for name in KEYWORDS:
        words[keyword(locale, name).lower()] = name
    return words


def parse_move_text(text: str, hand_size: int, token_count: int, locale: str = "en") -> Draft:
    """Read the text form (its keywords in English or in ``locale``). Raises
    :class:`DraftError` naming the word it cannot read, or the words that contradict each
    other (two symbols, a word twice, a reset move with a symbol, the crowd card or a move
    token, a card both played and discarded)."""
    words = [word for word in re.split(r"[\s,]+", text.strip()) if word]
    if not words:
        raise DraftError("draft.empty")
    named = keywords(locale)
    symbol: str | None = None
    reset = crowd = False
    cards: list[int] = []
    discard: list[int] = []
    token = wild = None
    seen: set[str] = set()
    for word in words:
        lower = word.lower()
        said = named.get(lower, lower)
        if said in seen:
            raise DraftError("draft.twice", word=word)
        seen.add(said)
        if said == "reset":
            reset = True
        elif said == "crowd":
            crowd = True
        elif SYMBOL_PATTERN.match(word):
            if symbol is not None:
                raise DraftError("draft.two_symbols", first=symbol, second=word.upper())
            symbol = word.upper()
        elif lower.isascii() and lower.isdigit():
            card = _number(lower, hand_size, "draft.no_such_card")
            if card in cards:
                raise DraftError("draft.twice", word=word)
            cards.append(card)
        elif match := PREFIXED.match(lower):
            letter, digits = match.groups()
            if letter == "t":
                if token is not None:
                    raise DraftError("draft.two_tokens")
                token = _number(digits, token_count, "draft.no_such_token")
            elif letter == "w":
                if wild is not None:
                    raise DraftError("draft.two_wilds")
                wild = _number(digits, hand_size, "draft.no_such_card")
                if wild not in cards:
                    cards.append(wild)
            else:
                discard.append(_number(digits, hand_size, "draft.no_such_card"))
        else:
            raise DraftError("draft.unknown_word", word=word)
    if reset and symbol is not None:
        raise DraftError("draft.reset_with_symbol")
    if reset and crowd:
        raise DraftError("draft.reset_with_crowd")
    if reset and (token is not None or wild is not None):
        raise DraftError("draft.reset_with_token")
    both = sorted(set(cards) & set(discard))
    if both:
        raise DraftError("draft.played_and_discarded", number=both[0] + 1)
    return Draft(symbol, reset, tuple(cards), crowd, token, wild, tuple(discard))


def _number(digits: str, limit: int, key: str) -> int:
    number = int(digits)
    if limit == 0:
        raise DraftError("draft.no_tokens", number=number)
    if not 1 <= number <= limit:
        raise DraftError(key, number=number, count=limit)
    return number - 1
