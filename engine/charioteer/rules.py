"""Move legality and what a legal move amounts to (spec §4–§5), and the enumeration of
every distinct legal move of a seat.

:func:`analyse` checks a :class:`Move` against a race and returns a :class:`Play`: the
matching cards and symbols, icons, distance before skill and damage, attack size. Every
refusal is an :class:`IllegalAction` or :class:`MalformedAction` naming the seat and the
problem in words a player can read.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from engine.charioteer.components import (
    FAN_TOKEN_SYMBOLS,
    MAJOR_ATTACK_CARDS,
    MAJOR_ATTACK_CUBES,
    MAX_HAND_CARDS_IN_MOVE,
    MIN_MATCHING_CARDS,
    MINOR_ATTACK_CARDS,
    MINOR_ATTACK_CUBES,
    SYMBOLS,
    Card,
    Colour,
    Icon,
    Symbol,
    Token,
    TokenKind,
)
from engine.charioteer.moves import Move, RevealedMove
from engine.charioteer.state import RaceOptions, RaceState
from engine.core import JSON, GameOver, IllegalAction, MalformedAction


@dataclass(frozen=True)
class Play:
    """A legal move, analysed: everything resolution needs, before skill and damage."""

    seat: str
    move: Move
    hand_cards: tuple[Card, ...]
    crowd_card: Card | None
    token: Token | None
    discard_token: Token | None
    discard_cards: tuple[Card, ...]
    matching_cards: int = 0
    matching_symbols: int = 0
    recoveries: int = 0
    shield: bool = False
    whips: int = 0
    learning: int = 0
    token_bonus: int = 0
    attack_cards: int = 0

    @property
    def symbol(self) -> Symbol | None:
        return self.move.symbol

    @property
    def colour(self) -> Colour | None:
        return None if self.move.symbol is None else self.move.symbol.colour

    @property
    def is_reset(self) -> bool:
        return self.move.is_reset

    @property
    def card_distance(self) -> int:
        """Matching symbols plus the symbol's number plus a +3/+5 token."""
        if self.move.symbol is None:
            return 0
        return self.matching_symbols + self.move.symbol.number + self.token_bonus

    @property
    def attack_cubes(self) -> int:
        """Cubes every rival takes: a red move of 3 cards is minor, of 4 major (spec §5)."""
        if self.colour is not Colour.RED:
            return 0
        if self.attack_cards >= MAJOR_ATTACK_CARDS:
            return MAJOR_ATTACK_CUBES
        if self.attack_cards >= MINOR_ATTACK_CARDS:
            return MINOR_ATTACK_CUBES
        return 0

    @property
    def earns_fan_token(self) -> bool:
        return not self.is_reset and self.matching_symbols >= FAN_TOKEN_SYMBOLS

    def revealed(self, distance: int | None = None) -> RevealedMove:
        wild = None
        if self.move.wild is not None:
            wild = self.move.cards.index(self.move.wild)
        return RevealedMove(
            self.move.symbol,
            self.hand_cards,
            self.crowd_card,
            None if self.token is None else self.token.public(),
            wild,
            None if self.discard_token is None else self.discard_token.public(),
            self.discard_cards,
            distance,
        )


def recovered(damage: int, recoveries: int) -> int:
    """Cubes a move's recoveries remove from the damage box (spec §5): one recovery takes
    half, rounded in the player's favour; two or more take all."""
    if recoveries <= 0:
        return 0
    if recoveries >= 2:
        return damage
    return math.ceil(damage / 2)


def analyse(state: RaceState, seat: str, move: Move) -> Play:
    """Check ``move`` for ``seat`` and say what it does.

    Raises:
        GameOver: the race has ended.
        MalformedAction: unknown seat, an index outside the hand or tokens.
        IllegalAction: a move the rules forbid; the reason names the card or token.
    """
    if state.result is not None:
        raise GameOver("the race is over", seat=seat)
    if seat not in state.seats:
        raise MalformedAction(f"there is no seat {seat} in this race")
    chariot = state.chariot(seat)
    return analyse_hand(seat, chariot.hand, chariot.tokens, state.crowd, state.options, move)


def analyse_hand(
    seat: str,
    hand: Sequence[Card],
    tokens: Sequence[Token],
    crowd: Sequence[Card],
    options: RaceOptions,
    move: Move,
) -> Play:
    """:func:`analyse` from what the seat itself can see: its hand and tokens, the crowd
    cards and the table's options (the private panel and AI seats use this)."""

    def illegal(reason: str, key: str, **params: JSON) -> IllegalAction:
        """The refusal: ``reason`` in English with 0-based indices (as moves are written),
        ``rule.<key>`` and ``params`` for a front end's catalogue (numbers from 1)."""
        return IllegalAction(reason, seat=seat, message=f"rule.{key}", params=params)

    def check_cards(indices: Sequence[int], what: str) -> None:
        for index in indices:
            if not 0 <= index < len(hand):
                raise MalformedAction(
                    f"{what}: there is no card {index} (you hold {len(hand)}, numbered 0 to "
                    f"{len(hand) - 1})",
                    seat=seat,
                    message="rule.no_such_card",
                    params={"number": index + 1, "count": len(hand)},
                )
        for index in set(indices):
            if list(indices).count(index) > 1:
                raise illegal(
                    f"card {index} ({hand[index]}) is used twice",
                    "card_twice",
                    number=index + 1,
                    card=str(hand[index]),
                )

    def check_token(index: int, what: str) -> Token:
        if not 0 <= index < len(tokens):
            held = f"you hold {len(tokens)}" if tokens else "you hold none"
            raise MalformedAction(
                f"{what}: there is no token {index} ({held})",
                seat=seat,
                message="rule.no_such_token",
                params={"number": index + 1, "count": len(tokens)},
            )
        return tokens[index]

    cards = move.cards
    if not 1 <= len(cards) <= MAX_HAND_CARDS_IN_MOVE:
        raise illegal(
            f"a move plays 1 to {MAX_HAND_CARDS_IN_MOVE} cards from your hand",
            "card_count",
            most=MAX_HAND_CARDS_IN_MOVE,
        )
    check_cards(cards, "move")
    colour = None if move.symbol is None else move.symbol.colour

    discard_token: Token | None = None
    discard_cards: tuple[Card, ...] = ()
    if move.discard_token is not None:
        discard_token = check_token(move.discard_token, "discard")
        if not discard_token.kind.is_discard:
            raise illegal(
                f"token {move.discard_token} ({discard_token.label}) is not a discard token",
                "not_a_discard_token",
                number=move.discard_token + 1,
                token=discard_token.label,
            )
        if move.token == move.discard_token:
            raise illegal(
                f"token {move.token} is used twice", "token_twice", number=move.discard_token + 1
            )
        if not discard_token.fits(colour):
            raise illegal(
                f"the {discard_token.label} token needs a {discard_token.colour} move",
                "token_colour",
                token=discard_token.label,
                colour=str(discard_token.colour),
            )
        check_cards(move.discard_cards, "discard")
        limit = discard_token.kind.discard_limit
        if len(move.discard_cards) > limit:
            raise illegal(
                f"a {discard_token.label} token discards at most {limit} cards",
                "discard_limit",
                token=discard_token.label,
                count=limit,
            )
        both = sorted(set(move.discard_cards) & set(cards))
        if both:
            raise illegal(
                f"card {both[0]} cannot be both played and discarded",
                "played_and_discarded",
                number=both[0] + 1,
            )
        discard_cards = tuple(hand[index] for index in move.discard_cards)
    elif move.discard_cards:
        raise illegal("discarding cards needs a discard token", "no_discard_token")

    hand_cards = tuple(hand[index] for index in cards)
    if move.symbol is None:
        if move.crowd or move.token is not None or move.wild is not None:
            raise illegal("a reset move takes no crowd card, move token or wild", "reset_extras")
        return Play(seat, move, hand_cards, None, None, discard_token, discard_cards)

    symbol = move.symbol
    token: Token | None = None
    if move.token is not None:
        token = check_token(move.token, "move token")
        if token.kind.is_discard:
            raise illegal(
                f"a {token.label} token cannot be the move token; play it as a discard",
                "discard_as_move_token",
                token=token.label,
            )
        if not token.fits(symbol.colour):
            raise illegal(
                f"the {token.label} token needs a {token.colour} move, not {symbol.colour}",
                "token_colour",
                token=token.label,
                colour=str(token.colour),
            )
    if move.wild is not None:
        if token is None or token.kind is not TokenKind.WILD:
            raise illegal(
                "naming a wild card needs a wild token as the move token", "wild_without_token"
            )
        if move.wild not in cards:
            raise illegal(
                f"the wild card ({move.wild}) must be one of the cards you play",
                "wild_not_played",
                number=move.wild + 1,
            )
    elif token is not None and token.kind is TokenKind.WILD:
        raise illegal("say which of your cards the wild token transforms", "wild_without_card")

    crowd_card: Card | None = None
    if move.crowd:
        if not crowd:
            raise illegal("there is no crowd card", "no_crowd_card")
        crowd_card = crowd[0]
        if not crowd_card.shows(symbol):
            raise illegal(
                f"the crowd card ({crowd_card}) does not show {symbol}",
                "crowd_lacks_symbol",
                card=str(crowd_card),
                symbol=str(symbol),
            )

    matching_hand = matching_symbols = recoveries = whips = 0
    shield = False
    for index, card in zip(cards, hand_cards, strict=True):
        if index == move.wild:
            matching_hand += 1
            matching_symbols += 2
        elif card.is_whip:
            whips += 1
        elif card.shows(symbol):
            matching_hand += 1
            matching_symbols += card.count(symbol)
            shield |= card.icon is Icon.SHIELD
            recoveries += card.icon is Icon.RECOVERY
        else:
            raise illegal(
                f"card {index} ({card}) does not show {symbol}",
                "card_lacks_symbol",
                number=index + 1,
                card=str(card),
                symbol=str(symbol),
            )
    matching = matching_hand
    attack_cards = matching_hand
    if crowd_card is not None:
        matching_symbols += crowd_card.count(symbol)
        shield |= crowd_card.icon is Icon.SHIELD
        recoveries += crowd_card.icon is Icon.RECOVERY
        if options.crowd_counts_toward_minimum:
            matching += 1
        if options.crowd_counts_for_attack:
            attack_cards += 1
    if matching < MIN_MATCHING_CARDS:
        where = "" if options.crowd_counts_toward_minimum else " from your hand"
        raise illegal(
            f"a move needs at least {MIN_MATCHING_CARDS} cards showing {symbol}{where}; "
            f"this one has {matching}",
            "too_few_matching" if options.crowd_counts_toward_minimum else "too_few_in_hand",
            least=MIN_MATCHING_CARDS,
            symbol=str(symbol),
            count=matching,
        )
    if symbol.colour is Colour.YELLOW:
        recoveries += 1
    learning = token_bonus = 0
    if token is not None:
        shield |= token.kind is TokenKind.SHIELD
        recoveries += token.kind is TokenKind.RECOVERY
        whips += token.kind is TokenKind.WHIP
        learning += token.kind is TokenKind.LEARNING
        token_bonus = token.kind.distance_bonus
    return Play(
        seat,
        move,
        hand_cards,
        crowd_card,
        token,
        discard_token,
        discard_cards,
        matching_cards=matching_hand + (crowd_card is not None),
        matching_symbols=matching_symbols,
        recoveries=recoveries,
        shield=shield,
        whips=whips,
        learning=learning,
        token_bonus=token_bonus,
        attack_cards=attack_cards,
    )


# --------------------------------------------------------------------------- enumeration


def _groups(items: Sequence[object]) -> list[list[int]]:
    """Indices of identical items, grouped, in order of first appearance."""
    seen: dict[object, list[int]] = {}
    for index, item in enumerate(items):
        seen.setdefault(item, []).append(index)
    return list(seen.values())


def _multisets(groups: Sequence[Sequence[int]], low: int, high: int) -> Iterator[tuple[int, ...]]:
    """Every choice of ``low``..``high`` indices where identical items are interchangeable:
    from each group the lowest indices are taken."""

    def walk(start: int, chosen: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if len(chosen) >= low:
            yield chosen
        if len(chosen) == high:
            return
        for g in range(start, len(groups)):
            group = groups[g]
            for taken in range(1, min(len(group), high - len(chosen)) + 1):
                yield from walk(g + 1, chosen + tuple(group[:taken]))

    yield from walk(0, ())


def _without(groups: Sequence[Sequence[int]], used: set[int]) -> list[list[int]]:
    left = [[index for index in group if index not in used] for group in groups]
    return [group for group in left if group]


def _distinct_tokens(tokens: Sequence[Token], keep: Callable[[Token], bool]) -> list[int]:
    """One index per distinct token as players see it (kind and colour), lowest first."""
    chosen: dict[Token, int] = {}
    for index, token in enumerate(tokens):
        if keep(token):
            chosen.setdefault(token.public(), index)
    return sorted(chosen.values())


def _move_token_filter(colour: Colour, *, wild: bool) -> Callable[[Token], bool]:
    """Move tokens that fit ``colour``: the wild ones, or every other non-discard kind."""

    def keep(token: Token) -> bool:
        if token.kind.is_discard or not token.fits(colour):
            return False
        return (token.kind is TokenKind.WILD) == wild

    return keep


def iter_legal_moves(state: RaceState, seat: str, *, discards: bool = True) -> Iterator[Move]:
    """Every distinct legal move of ``seat``; identical cards or tokens are one choice.

    With ``discards=False`` no discard token is used (the moves an AI usually weighs).
    """
    if state.result is not None or seat not in state.seats:
        return
    chariot = state.chariot(seat)
    yield from iter_hand_moves(
        chariot.hand, chariot.tokens, state.crowd, state.options, discards=discards
    )


def iter_hand_moves(
    hand: Sequence[Card],
    tokens: Sequence[Token],
    crowd_cards: Sequence[Card],
    options: RaceOptions,
    *,
    discards: bool = True,
    symbols: Sequence[Symbol] = SYMBOLS,
    resets: bool = True,
) -> Iterator[Move]:
    """:func:`iter_legal_moves` from what the seat itself can see; ``symbols`` and
    ``resets`` narrow it to the moves of those symbols, with or without reset moves."""
    hand_groups = _groups(hand)
    crowd = crowd_cards[0] if crowd_cards else None

    def discard_choices(
        colour: Colour | None, used: set[int]
    ) -> Iterator[tuple[int | None, tuple[int, ...]]]:
        yield None, ()
        if not discards:
            return
        rest = _without(hand_groups, used)
        for token_index in _distinct_tokens(tokens, lambda t: t.kind.is_discard and t.fits(colour)):
            limit = tokens[token_index].kind.discard_limit
            for chosen in _multisets(rest, 0, limit):
                yield token_index, chosen

    for symbol in symbols:
        colour = symbol.colour
        pool = [
            group for group in hand_groups if hand[group[0]].is_whip or hand[group[0]].shows(symbol)
        ]
        crowd_options = [False, True] if crowd is not None and crowd.shows(symbol) else [False]
        plain_tokens: list[int | None] = [None]
        plain_tokens += _distinct_tokens(tokens, _move_token_filter(colour, wild=False))
        wild_tokens = _distinct_tokens(tokens, _move_token_filter(colour, wild=True))

        def enough(matching_hand: int, with_crowd: bool) -> bool:
            counted = matching_hand + (with_crowd and options.crowd_counts_toward_minimum)
            return counted >= MIN_MATCHING_CARDS

        for chosen in _multisets(pool, 1, MAX_HAND_CARDS_IN_MOVE):
            matching_hand = sum(not hand[index].is_whip for index in chosen)
            for with_crowd in crowd_options:
                if not enough(matching_hand, with_crowd):
                    continue
                for token_index in plain_tokens:
                    for discard_token, discard_cards in discard_choices(colour, set(chosen)):
                        yield Move(
                            chosen,
                            symbol,
                            with_crowd,
                            token_index,
                            None,
                            discard_token,
                            discard_cards,
                        )
        for token_index in wild_tokens:
            for target_group in hand_groups:
                target = target_group[0]
                others_pool = _without(pool, {target})
                for others in _multisets(others_pool, 0, MAX_HAND_CARDS_IN_MOVE - 1):
                    matching_hand = 1 + sum(not hand[index].is_whip for index in others)
                    chosen = tuple(sorted((target, *others)))
                    for with_crowd in crowd_options:
                        if not enough(matching_hand, with_crowd):
                            continue
                        for discard_token, discard_cards in discard_choices(colour, set(chosen)):
                            yield Move(
                                chosen,
                                symbol,
                                with_crowd,
                                token_index,
                                target,
                                discard_token,
                                discard_cards,
                            )

    if not resets:
        return
    for chosen in _multisets(hand_groups, 1, MAX_HAND_CARDS_IN_MOVE):
        for discard_token, discard_cards in discard_choices(None, set(chosen)):
            yield Move.reset(chosen, discard_token, discard_cards)


def legal_moves(state: RaceState, seat: str, *, discards: bool = True) -> list[Move]:
    """Every distinct legal move of ``seat``, as a list (see :func:`iter_legal_moves`)."""
    return list(iter_legal_moves(state, seat, discards=discards))
