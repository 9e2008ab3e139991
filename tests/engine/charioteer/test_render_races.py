"""Renderers over seeded random races: every 6-seat board and turn story fits one Discord
message, and no public render depends on a hand, a held token or an unrevealed move."""

import dataclasses
from collections.abc import Iterator
from functools import cache

from engine.charioteer import Card, Move, Race, RaceState, Token, TokenKind, view
from engine.charioteer.components import SYMBOLS, EmperorFace
from engine.charioteer.events import CardsDrawn, FanTokenReceived
from engine.charioteer.render import board_text, reveal_text
from engine.charioteer.render.common import utf16_length
from engine.core import EngineError, Event, Rng, public_events
from engine.i18n import display_width

RACES = 30
LEAK_RACES = 10
MESSAGE_LIMIT = 2000
MAX_COLUMNS = 60

LONG_NAMES = {
    "A": "Maximilianus",
    "B": "ÁÉÍÓÚÑáéíóúñ",
    "C": "WWWWWWWWWWWW",
    "D": "龍龍龍龍龍龍龍",
    "E": "a`b`c`d`e`f`g",
    "F": "😀😀😀😀😀😀😀",
}
"""Names of 12 columns or more: accents, wide letters, emoji, backticks."""


def quick_move(race: Race, seat: str, rng: Rng) -> Move:
    """A cheap, mostly sensible random move: the symbol the hand (and crowd) shows most,
    or a random one, with sometimes a whip card, a token, a wild or a discard; now and
    then a reset."""
    seat_view = race.view(seat)
    hand, crowd = seat_view.hand, seat_view.crowd
    choices = []
    for symbol in SYMBOLS:
        cards = [index for index, card in enumerate(hand) if card.shows(symbol)]
        with_crowd = bool(crowd) and crowd[0].shows(symbol)
        if len(cards) + with_crowd >= 2:
            weight = sum(hand[index].count(symbol) for index in cards) + symbol.number
            choices.append((weight, symbol, cards, with_crowd))
    if not choices or rng.below(10) == 0:
        return Move.reset((rng.below(len(hand)),))
    choices.sort(key=lambda choice: choice[0], reverse=True)
    _, symbol, cards, with_crowd = choices[0 if rng.below(2) else rng.below(len(choices))]
    played = cards[:3]
    whips = [index for index, card in enumerate(hand) if card.is_whip]
    if whips and len(played) < 3 and rng.below(3) == 0:
        played.append(whips[0])
    candidates = [Move(tuple(played), symbol, crowd=with_crowd)]
    for index, token in enumerate(seat_view.tokens):
        if not token.fits(symbol.colour) or rng.below(3):
            continue
        if token.kind is TokenKind.WILD:
            candidates.insert(0, Move(tuple(played), symbol, with_crowd, index, played[0]))
        elif token.kind.is_discard:
            rest = [card for card in range(len(hand)) if card not in played][:1]
            candidates.insert(
                0, Move(tuple(played), symbol, with_crowd, None, None, index, tuple(rest))
            )
        else:
            candidates.insert(0, Move(tuple(played), symbol, with_crowd, index))
    for move in candidates:
        try:
            seat_view.analyse(move)
        except EngineError:
            continue
        return move
    return Move.reset((rng.below(len(hand)),))


def play_turn(race: Race, rng: Rng) -> tuple[Event, ...]:
    events: tuple[Event, ...] = ()
    for seat in race.seats:
        events = race.commit(seat, quick_move(race, seat, rng))
    return events


@cache
def races(count: int) -> tuple[tuple[tuple[RaceState, tuple[Event, ...]], ...], ...]:
    """``count`` seeded 6-seat races, each as (state after the turn, the turn's events)
    for every turn, starting with the set-up (no events)."""
    out = []
    for seed in range(count):
        race = Race.new(seats=6, seed=seed)
        rng = Rng(seed, 1)
        turns: list[tuple[RaceState, tuple[Event, ...]]] = [(race.state, ())]
        while not race.is_over:
            events = play_turn(race, rng)
            turns.append((race.state, events))
        out.append(tuple(turns))
    return tuple(out)


def every_turn(count: int) -> Iterator[tuple[RaceState, tuple[Event, ...]]]:
    for race_turns in races(count):
        yield from race_turns


def scrambled(state: RaceState) -> RaceState:
    """The same race with every secret replaced: other hands, tokens, chosen moves, draw
    pile, fan bag and next emperor face."""
    whip = Card.parse("whip")
    chariots = tuple(
        dataclasses.replace(
            chariot,
            hand=(whip,) * len(chariot.hand),
            tokens=(Token(TokenKind.DISCARD3),) * len(chariot.tokens),
        )
        for chariot in state.chariots
    )
    return dataclasses.replace(
        state,
        chariots=chariots,
        commits=tuple((seat, Move((0,))) for seat, _ in state.commits),
        deck=tuple(reversed(state.deck)),
        fan_bag=tuple(reversed(state.fan_bag)),
        next_emperor=EmperorFace.DISRUPT,
        seed=state.seed + 1,
    )


def scrambled_events(events: tuple[Event, ...]) -> list[Event]:
    """The events with every private payload replaced."""
    out: list[Event] = []
    for event in events:
        if isinstance(event, CardsDrawn):
            out.append(dataclasses.replace(event, cards=(Card.parse("G2 R1 B0"),)))
        elif isinstance(event, FanTokenReceived):
            out.append(dataclasses.replace(event, token=Token(TokenKind.WILD)))
        else:
            out.append(event)
    return out


def check_fits(text: str) -> None:
    assert utf16_length(text) <= MESSAGE_LIMIT, text
    widest = max(display_width(line) for line in text.splitlines())
    assert widest <= MAX_COLUMNS, text


def test_every_six_seat_board_fits_one_message() -> None:
    boards = 0
    for state, _ in every_turn(RACES):
        for names in (None, LONG_NAMES):
            check_fits(board_text(view(state, None), names=names))
            boards += 1
    assert boards > RACES * 2 * 10


def test_every_turn_story_fits_one_message() -> None:
    finished = 0
    for state, events in every_turn(RACES):
        if not events:
            continue
        text = reveal_text(public_events(events), view(state, None), names=LONG_NAMES)
        assert utf16_length(text) <= MESSAGE_LIMIT, text
        finished += state.result is not None
    assert finished == RACES


def test_private_views_and_secrets_do_not_change_the_board() -> None:
    for state, _ in every_turn(LEAK_RACES):
        public = board_text(view(state, None), names=LONG_NAMES)
        assert board_text(view(scrambled(state), None), names=LONG_NAMES) == public
        for seat in state.seats:
            assert board_text(view(state, seat), names=LONG_NAMES) == public


def test_turn_stories_ignore_private_events_and_private_views() -> None:
    for state, events in every_turn(LEAK_RACES):
        if not events:
            continue
        public = reveal_text(public_events(events), view(state, None))
        assert reveal_text(list(events), view(state, None)) == public
        assert reveal_text(scrambled_events(events), view(scrambled(state), None)) == public
        assert reveal_text(public_events(events), view(state, state.seats[0])) == public
