"""Plausible races behind a seat's view: the hidden cards and tokens dealt at random.

What a seat cannot see — rivals' hands and tokens, the draw pile's order, the fan bag's
order, the next emperor face — is drawn from what it could be given public information
only: the standard deck minus the seat's own hand, the crowd cards and the discard pile;
the standard fan tokens minus those the seat holds and those discarded. The result is a
complete :class:`~engine.charioteer.state.RaceState` that look-ahead can resolve with the
engine's own rules (spec §3–§8). It never uses the real hidden values, because it is only
ever handed a :class:`~engine.charioteer.view.SeatView`.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from engine.charioteer.components import Card, Token, deck, fan_tokens, player_tokens
from engine.charioteer.state import Chariot, RaceState
from engine.charioteer.view import SeatView
from engine.core import Rng

T = TypeVar("T")


@functools.cache
def _standard_cards() -> tuple[tuple[Card, int], ...]:
    return tuple(sorted(Counter(deck()).items(), key=lambda item: str(item[0])))


@functools.cache
def _standard_fan_tokens() -> tuple[tuple[Token, int], ...]:
    counts = Counter(token.public() for token in fan_tokens())
    return tuple(sorted(counts.items(), key=lambda item: str(item[0])))


def unseen_cards(view: SeatView) -> list[Card]:
    """The standard cards the seat cannot see (rivals' hands and the draw pile), in a
    fixed order."""
    seen = Counter(view.hand) + Counter(view.crowd) + Counter(view.discard)
    left: list[Card] = []
    for card, count in _standard_cards():
        left.extend([card] * max(0, count - seen[card]))
    return left


def unseen_fan_tokens(view: SeatView) -> list[Token]:
    """The standard fan tokens the seat cannot see (in the bag or held by rivals).

    A seat's white +3, +5, whip, shield or recovery token may be its own player token or
    a fan token of that kind: all but one of each kind it holds are taken as fan tokens.
    """
    held = Counter(token.public() for token in view.tokens)
    for token in player_tokens():
        held[token] = max(0, held[token] - 1)
    seen = held + Counter(token.public() for token in view.fan_discard)
    left: list[Token] = []
    for token, count in _standard_fan_tokens():
        left.extend([token] * max(0, count - seen[token]))
    return left


def _shuffled(items: Sequence[T], rng: Rng) -> list[T]:
    return [items[index] for index in rng.permutation(len(items))]


def _deal(pool: list[T], count: int, spare: Sequence[T], rng: Rng) -> list[T]:
    """``count`` items off the pool; if a hand-made position left it short, standard
    items at random make up the difference."""
    taken = pool[:count]
    del pool[:count]
    while len(taken) < count and spare:
        taken.append(spare[rng.below(len(spare))])
    return taken


def sample_state(view: SeatView, rng: Rng, *, seed: int) -> RaceState:
    """A complete race consistent with ``view``; hidden values drawn with ``rng``.

    Rivals get hands of the size they hold, drawn from the unseen cards, and as many
    tokens as they hold, drawn from their five player tokens first, then from the unseen
    fan tokens; the draw pile and the fan bag get what is left. ``seed`` feeds the sampled
    race's own chance (reshuffles, the next emperor face).
    """
    assert view.seat is not None, "a spectator has no hidden cards to imagine"
    cards = _shuffled(unseen_cards(view), rng)
    standard_cards = deck()
    fan_pool = _shuffled(unseen_fan_tokens(view), rng)
    standard_tokens = fan_tokens()
    chariots: list[Chariot] = []
    for public in view.chariots:
        if public.seat == view.seat:
            hand, tokens = view.hand, view.tokens
        else:
            hand = tuple(_deal(cards, public.hand_size, standard_cards, rng))
            own = _shuffled(player_tokens(), rng)[: public.token_count]
            extra = _deal(fan_pool, public.token_count - len(own), standard_tokens, rng)
            tokens = (*own, *extra)
        chariots.append(
            Chariot(
                seat=public.seat,
                position=public.position,
                lane=public.lane,
                damage=public.damage,
                attack=public.attack,
                skills=public.skills,
                hand=hand,
                tokens=tokens,
                last_move=public.last_move,
            )
        )
    draw_pile = _deal(cards, view.deck_size, standard_cards, rng)
    bag = _deal(fan_pool, view.fan_bag_size, standard_tokens, rng)
    return RaceState(
        options=view.options,
        seed=seed,
        draws=0,
        turn=view.turn,
        emperor=view.emperor,
        next_emperor=None,
        crowd=view.crowd,
        deck=tuple(draw_pile),
        discard=view.discard,
        fan_bag=tuple(bag),
        fan_discard=view.fan_discard,
        chariots=tuple(chariots),
        first_seat=view.first_seat,
    )
