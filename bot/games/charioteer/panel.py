"""The private move panel as data: which cards, symbols, tokens and discards to offer for
a seat's view and its draft, what is selected, and whether the move can be confirmed.

Front ends turn a :class:`Panel` into their own widgets (Discord selects and buttons); the
choices offered are only ever legal ones, and an illegal draft carries the engine's reason.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from bot.games.charioteer.drafts import Draft, DraftError
from bot.text import t
from engine.charioteer import Move, SeatView, TokenKind
from engine.charioteer.components import SYMBOLS, Card, Symbol, Token
from engine.charioteer.render import card_text, preview_text, rule_text, token_text
from engine.charioteer.render.common import symbol_text
from engine.charioteer.rules import analyse_hand
from engine.charioteer.state import RaceOptions
from engine.core import EngineError

RESET_VALUE = "reset"
NO_TOKEN_VALUE = "none"


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    description: str = ""
    selected: bool = False


@dataclass(frozen=True)
class Panel:
    """Everything a panel shows for one seat and one draft."""

    draft: Draft
    cards: tuple[Option, ...]
    symbols: tuple[Option, ...]
    tokens: tuple[Option, ...]
    discards: tuple[Option, ...]
    discard_limit: int
    crowd_available: bool
    move: Move | None
    preview: str
    committed: Move | None

    @property
    def can_confirm(self) -> bool:
        return self.move is not None and self.move != self.committed


def playable_symbols(seat_view: SeatView, chosen: tuple[int, ...]) -> list[Symbol]:
    """The symbols a legal move can take with exactly these cards (crowd card and tokens
    as needed), or with any cards when none are chosen; in symbol order."""
    if not chosen:
        return seat_view.playable_symbols()
    if seat_view.seat is None or seat_view.result is not None:
        return []
    held = (seat_view.seat, seat_view.hand, seat_view.tokens, seat_view.crowd, seat_view.options)
    return list(_playable_with(held, chosen))


Held = tuple[str, tuple[Card, ...], tuple[Token, ...], tuple[Card, ...], RaceOptions]
"""What a move is checked against: the seat, its hand and tokens, the crowd, the options."""


@functools.lru_cache(maxsize=1024)
def _playable_with(held: Held, chosen: tuple[int, ...]) -> tuple[Symbol, ...]:
    """:func:`playable_symbols` of these chosen cards, for what the seat holds (kept: the
    panel asks again at every choice, and the answer never changes)."""
    tokens = held[2]
    wilds = [i for i, token in enumerate(tokens) if token.kind is TokenKind.WILD]
    playable = []
    for symbol in SYMBOLS:
        candidates = [Move(chosen, symbol), Move(chosen, symbol, crowd=True)]
        candidates += [
            Move(chosen, symbol, with_crowd, token, card)
            for token in wilds
            for card in chosen
            for with_crowd in (False, True)
        ]
        if any(_legal(held, move) for move in candidates):
            playable.append(symbol)
    return tuple(playable)


def _legal(held: Held, move: Move) -> bool:
    try:
        analyse_hand(*held, move)
    except EngineError:
        return False
    return True


def build_panel(seat_view: SeatView, draft: Draft, locale: str) -> Panel:
    """The panel for ``draft`` (indices into the seat's hand and tokens)."""
    hand, tokens = seat_view.hand, seat_view.tokens
    chosen = tuple(index for index in draft.cards if 0 <= index < len(hand))
    symbols_here = playable_symbols(seat_view, chosen)

    def card_note(card: Card) -> str:
        if card.is_whip:
            return t(locale, "panel.card_whip")
        if (
            draft.symbol is not None
            and not draft.reset
            and draft.symbol in {str(s) for s, _ in card.symbols}
        ):
            shown = symbol_text(Symbol.parse(draft.symbol), locale, squares=True)
            return t(locale, "panel.card_matches", symbol=shown)
        return ""

    cards = tuple(
        Option(
            str(index),
            t(
                locale,
                "panel.card_option",
                number=index + 1,
                card=card_text(card, locale, squares=True),
            ),
            card_note(card),
            selected=index in chosen,
        )
        for index, card in enumerate(hand)
    )

    symbol_options = [
        Option(
            str(symbol),
            t(locale, "panel.symbol_option", symbol=symbol_text(symbol, locale, squares=True)),
            selected=str(symbol) == draft.symbol and not draft.reset,
        )
        for symbol in symbols_here
    ]
    symbol_options.append(
        Option(RESET_VALUE, t(locale, "panel.reset_option"), selected=draft.reset)
    )

    token_options = [
        Option(NO_TOKEN_VALUE, t(locale, "panel.no_token"), selected=draft.token is None)
    ]
    colour = None
    if draft.symbol is not None and not draft.reset:
        colour = next((symbol.colour for symbol in SYMBOLS if str(symbol) == draft.symbol), None)
    if colour is not None:
        for index, token in enumerate(tokens):
            if token.kind.is_discard or not token.fits(colour):
                continue
            label = token_text(token, locale)
            if token.kind is TokenKind.WILD:
                for card in chosen:
                    token_options.append(
                        Option(
                            f"{index}:{card}",
                            t(
                                locale,
                                "panel.wild_option",
                                number=index + 1,
                                token=label,
                                card=card + 1,
                            ),
                            selected=draft.token == index and draft.wild == card,
                        )
                    )
            else:
                token_options.append(
                    Option(
                        str(index),
                        t(locale, "panel.token_option", number=index + 1, token=label),
                        selected=draft.token == index,
                    )
                )

    limits = [
        token.kind.discard_limit
        for token in tokens
        if token.kind.is_discard and token.colour is None
    ]
    discard_limit = max(limits, default=0)
    discard_options = (
        tuple(
            Option(
                str(index),
                t(
                    locale,
                    "panel.card_option",
                    number=index + 1,
                    card=card_text(card, locale, squares=True),
                ),
                selected=index in draft.discard,
            )
            for index, card in enumerate(hand)
            if index not in chosen
        )
        if discard_limit
        else ()
    )

    crowd = seat_view.crowd[0] if seat_view.crowd else None
    crowd_available = bool(
        crowd is not None
        and draft.symbol is not None
        and not draft.reset
        and str(draft.symbol) in {str(s) for s, _ in crowd.symbols}
    )

    move: Move | None = None
    if draft.is_empty:
        preview = t(locale, "panel.start_hint")
    else:
        try:
            candidate = draft.to_move(tokens)
            seat_view.analyse(candidate)
            move = candidate
            preview = preview_text(seat_view, candidate, locale=locale, squares=True)
        except DraftError as error:
            preview = t(locale, error.key, **error.params)
        except EngineError as error:
            preview = t(locale, "panel.not_legal", reason=rule_text(error, locale))
    return Panel(
        draft,
        cards,
        tuple(symbol_options),
        tuple(token_options),
        discard_options,
        discard_limit,
        crowd_available,
        move,
        preview,
        seat_view.my_move,
    )


def apply_choice(draft: Draft, kind: str, values: list[str]) -> Draft:
    """The draft after the player picks ``values`` in the ``kind`` control."""
    if kind == "cards":
        cards = tuple(int(value) for value in values)
        wild = draft.wild if draft.wild in cards else None
        token = draft.token if wild is not None or draft.wild is None else None
        discard = tuple(card for card in draft.discard if card not in cards)
        return draft.replace(cards=cards, wild=wild, token=token, discard=discard)
    if kind == "symbol":
        value = values[0] if values else None
        if value == RESET_VALUE:
            return draft.replace(reset=True, symbol=None, crowd=False, token=None, wild=None)
        return draft.replace(
            reset=False,
            symbol=value,
            token=None,
            wild=None,
            crowd=draft.crowd and value == draft.symbol,
        )
    if kind == "token":
        value = values[0] if values else NO_TOKEN_VALUE
        if value == NO_TOKEN_VALUE:
            return draft.replace(token=None, wild=None)
        if ":" in value:
            token_text, card_text = value.split(":", 1)
            return draft.replace(token=int(token_text), wild=int(card_text))
        return draft.replace(token=int(value), wild=None)
    if kind == "discard":
        return draft.replace(discard=tuple(int(value) for value in values))
    if kind == "crowd":
        return draft.replace(crowd=not draft.crowd)
    if kind == "clear":
        return Draft()
    raise ValueError(f"unknown panel control {kind}")
