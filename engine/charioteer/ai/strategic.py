"""The ``strategic`` level: plays to win the race, not the turn.

Each turn it lists its candidate moves (every normal move, one reset, discard-token
versions), takes a first look at each on a track where rivals stand still, and weighs
the best dozen by resolving the turn with the engine's own rules (spec §3–§8) in several
plausible races built from its view (:mod:`engine.charioteer.ai.sampling`): rivals'
hands are dealt from the unseen cards, and rivals play their longest move. Each resulting
race is judged by :class:`~engine.charioteer.ai.evaluation.Evaluator` — the seat's
standing against its rivals', counting skills on their way to the bonus box, damage,
tokens and the cards kept for the next crowd card. The same samples serve every
candidate, so candidates are compared on equal luck.

What this amounts to at the table: it corners with black through the curves, pushes a
colour into the bonus box when the emperor favours it, attacks when an attack costs
little distance, shields or resets against cubes waiting in its attack boxes, resets
when its damage would cost more than a turn, whips when a rival ahead is out of reach,
and keeps its +3/+5 tokens for a curve or the final dash.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.charioteer.ai.base import check_can_move
from engine.charioteer.ai.evaluation import (
    DEFAULT_WEIGHTS,
    Evaluator,
    Weights,
    best_symbol_totals,
)
from engine.charioteer.ai.sampling import sample_state
from engine.charioteer.components import COLOURS, Card, Colour, Icon
from engine.charioteer.moves import Move
from engine.charioteer.resolve import resolve_turn
from engine.charioteer.rules import Play, analyse_hand, recovered
from engine.charioteer.state import Chariot, RaceState
from engine.charioteer.view import SeatView
from engine.core import Chance, Rng

RESET_CARDS = 3
"""A reset plays the seat's weakest cards, this many of them (they are replaced)."""


class StrategicPolicy:
    """Look-ahead over sampled races with a standing evaluation (see the module doc)."""

    name = "strategic"

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights

    def choose(self, view: SeatView, rng: Rng) -> Move:
        seat = check_can_move(view)
        weights = self.weights
        plays = candidate_plays(view)
        evaluator = Evaluator(weights, seat)
        first_look = [evaluator.quick_score(view, play) for play in plays]
        ranked = sorted(range(len(plays)), key=lambda index: (-first_look[index], index))
        shortlist = [plays[index] for index in ranked[: max(1, weights.shortlist)]]
        if len(shortlist) == 1:
            return shortlist[0].move
        samples = [_Sample.build(view, rng, evaluator) for _ in range(max(1, weights.samples))]
        totals = [sum(sample.score(play) for sample in samples) for play in shortlist]
        best = max(range(len(shortlist)), key=lambda index: (totals[index], -index))
        return shortlist[best].move


def candidate_plays(view: SeatView) -> list[Play]:
    """Every normal move without a discard token; one reset (the weakest cards); and, with
    a discard token, each normal move that also discards the weakest cards kept."""
    plays = [view.analyse(move) for move in view.legal_moves(discards=False) if not move.is_reset]
    weakest = sorted(range(len(view.hand)), key=lambda index: card_worth(view.hand[index]))
    plays.append(view.analyse(Move.reset(tuple(sorted(weakest[:RESET_CARDS])))))
    discard_token = next(
        (index for index, token in enumerate(view.tokens) if token.kind.is_discard), None
    )
    if discard_token is None:
        return plays
    token = view.tokens[discard_token]
    with_discards: list[Play] = []
    for play in plays:
        move = play.move
        if not token.fits(play.colour):
            continue
        kept = [index for index in weakest if index not in move.cards]
        discard = tuple(sorted(kept[: token.kind.discard_limit]))
        if discard:
            with_discards.append(
                view.analyse(
                    Move(
                        move.cards,
                        move.symbol,
                        move.crowd,
                        move.token,
                        move.wild,
                        discard_token,
                        discard,
                    )
                )
            )
    return plays + with_discards


def card_worth(card: Card) -> float:
    """A rough worth of a card for moves to come: its symbols, their numbers, its icon;
    a whip card is worth keeping."""
    if card.is_whip:
        return 4.0
    worth = sum(count * 2 + symbol.number * 0.5 for symbol, count in card.symbols)
    return worth + (1.5 if card.icon is not None else 0.0)


@dataclass(frozen=True)
class _Sample:
    """One plausible race behind the view, and the rivals' moves in it."""

    state: RaceState
    seat: str
    rival_plays: dict[str, Play]
    seed: int
    evaluator: Evaluator

    @classmethod
    def build(cls, view: SeatView, rng: Rng, evaluator: Evaluator) -> _Sample:
        seed = rng.next64() >> 1
        state = sample_state(view, rng, seed=seed)
        rival_plays = {
            chariot.seat: rival_play(state, chariot)
            for chariot in state.chariots
            if chariot.seat != evaluator.seat
        }
        return cls(state, evaluator.seat, rival_plays, seed, evaluator)

    def score(self, play: Play) -> float:
        """The seat's standing once the turn is resolved with ``play``."""
        plays = {**self.rival_plays, self.seat: play}
        after, _ = resolve_turn(self.state, plays, Chance.live(self.seed, 0))
        return self.evaluator.score(after)


def rival_play(state: RaceState, chariot: Chariot) -> Play:
    """A rival's move in a sampled race: its longest move without tokens, else a reset."""
    crowd_card = state.crowd[0] if state.crowd else None
    move = longest_move(chariot, crowd_card, state.options.crowd_counts_toward_minimum)
    if move is None:
        move = Move.reset(tuple(range(min(1, len(chariot.hand)))))
        if not chariot.hand:
            return Play(chariot.seat, move, (), None, None, None, ())
    return analyse_hand(chariot.seat, chariot.hand, (), state.crowd, state.options, move)


def longest_move(
    chariot: Chariot, crowd_card: Card | None, crowd_counts: bool = True
) -> Move | None:
    """The longest normal move of a chariot's hand without tokens (spec §4), symbol by
    symbol: its three cards showing the most of the symbol, and the crowd card if it
    shows it (``crowd_counts``: the crowd card counts toward the two matching cards)."""
    best: tuple[int, int] | None = None
    best_move: Move | None = None
    for symbol in best_symbol_totals(chariot.hand, crowd_card, crowd_counts):
        showing = sorted(
            (
                (card.count(symbol), card.icon is Icon.RECOVERY, -index)
                for index, card in enumerate(chariot.hand)
                if card.shows(symbol)
            ),
            reverse=True,
        )[:3]
        with_crowd = crowd_card is not None and crowd_card.shows(symbol)
        symbols = sum(count for count, _, _ in showing)
        recoveries = sum(icon for _, icon, _ in showing) + (symbol.colour is Colour.YELLOW)
        if crowd_card is not None and with_crowd:
            symbols += crowd_card.count(symbol)
            recoveries += crowd_card.icon is Icon.RECOVERY
        damage = chariot.damage - recovered(chariot.damage, recoveries)
        bonus = chariot.skills[COLOURS.index(symbol.colour)].bonus
        key = (max(0, symbols + symbol.number + bonus - damage), symbols)
        if best is None or key > best:
            best = key
            cards = tuple(sorted(-index for _, _, index in showing))
            best_move = Move(cards, symbol, with_crowd)
    return best_move
