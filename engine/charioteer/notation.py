"""The JSON position notation (spec §10), read and written exactly.

Spec keys: ``turn``, ``emperor``, ``crowd``, ``chariots`` (each ``seat``, ``position``,
``lane``, ``damage``, ``attack``, ``skills``, ``hand``, ``tokens``), and the optional
``deck``, ``fan_bag``, ``next_emperor``, ``seed``, ``first_seat``. This engine adds, all
optional: ``options`` (laps and rule toggles), ``draws`` (chance outcomes used so far),
``discard``, ``fan_discard``, ``commits`` (moves chosen this turn, by seat), ``result``
and, per chariot, ``last_move`` (its revealed move of the previous turn). Anything else
is an error. ``docs/position-notation.md`` describes the whole notation.

Absent ``deck`` / ``fan_bag``: the standard components not already in the position,
shuffled from ``seed``; absent ``first_seat`` on turn 1: drawn from ``seed``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from engine.charioteer.components import (
    COLOURS,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Card,
    EmperorFace,
    Token,
    deck,
    fan_tokens,
    remove_present,
)
from engine.charioteer.moves import Move, RevealedMove
from engine.charioteer.state import (
    Chariot,
    RaceOptions,
    RaceState,
    Result,
    Skill,
)
from engine.charioteer.track import lap_index
from engine.core import (
    JSON,
    Chance,
    EngineError,
    MalformedPosition,
    check_position_keys,
    check_seed,
    read_int,
    read_list,
)

POSITION_KEYS = frozenset(
    {
        "turn",
        "emperor",
        "crowd",
        "chariots",
        "deck",
        "fan_bag",
        "next_emperor",
        "seed",
        "first_seat",
        "options",
        "draws",
        "discard",
        "fan_discard",
        "commits",
        "result",
    }
)
CHARIOT_KEYS = frozenset(
    {"seat", "position", "lane", "damage", "attack", "skills", "hand", "tokens", "last_move"}
)
REQUIRED_KEYS = ("turn", "emperor", "crowd", "chariots")
REQUIRED_CHARIOT_KEYS = ("seat", "position", "lane", "skills", "hand")

T = TypeVar("T")


MAX_TURNS = 1000
"""No race lasts a thousand turns (a nine-lap race takes well under a hundred)."""
MAX_PAST_FINISH = 100
"""No last move carries a chariot this far past the line."""
DECK_SIZE = len(deck())
MAX_CARDS = 2 * DECK_SIZE
"""Puzzles may hold cards of their own, but no game holds twice the deck."""


def _face(value: JSON, what: str) -> EmperorFace:
    try:
        return EmperorFace(value)
    except ValueError:
        faces = ", ".join(face.value for face in EmperorFace)
        raise MalformedPosition(f"{what} must be one of {faces}, not {value!r}") from None


def _cards(value: JSON, what: str) -> tuple[Card, ...]:
    return tuple(Card.parse(card) for card in read_list(value, what))


def _tokens(value: JSON, what: str, *, fan: bool = False) -> tuple[Token, ...]:
    return tuple(Token.parse(token, fan=fan) for token in read_list(value, what))


def _skills(value: JSON, seat: str) -> tuple[Skill, Skill, Skill, Skill]:
    if not isinstance(value, Mapping) or set(value) != {colour.value for colour in COLOURS}:
        raise MalformedPosition(f"chariot {seat}: skills name green, red, yellow and black")
    skills = [Skill.from_json(value[colour.value]) for colour in COLOURS]
    return skills[0], skills[1], skills[2], skills[3]


def _chariot(obj: JSON) -> Chariot:
    if not isinstance(obj, Mapping):
        raise MalformedPosition("every chariot must be an object")
    seat = obj.get("seat")
    if not isinstance(seat, str) or not seat:
        raise MalformedPosition("every chariot needs a seat name")

    unknown = set(obj) - CHARIOT_KEYS
    if unknown:
        raise MalformedPosition(f"chariot {seat}: unknown keys {', '.join(sorted(unknown))}")
    missing = [key for key in REQUIRED_CHARIOT_KEYS if key not in obj]
    if missing:
        raise MalformedPosition(f"chariot {seat}: missing {', '.join(missing)}")
    hand = _cards(obj["hand"], f"chariot {seat}'s hand")
    if len(hand) > HAND_SIZE:
        raise MalformedPosition(f"chariot {seat}: a hand holds at most {HAND_SIZE} cards")
    last_move = obj.get("last_move")
    return Chariot(
        seat=seat,
        position=read_int(obj["position"], f"chariot {seat}'s position"),
        lane=read_int(obj["lane"], f"chariot {seat}'s lane"),
        damage=read_int(obj.get("damage", 0), f"chariot {seat}'s damage"),
        attack=read_int(obj.get("attack", 0), f"chariot {seat}'s attack"),
        skills=_skills(obj["skills"], seat),
        hand=hand,
        tokens=_tokens(obj.get("tokens", []), f"chariot {seat}'s tokens"),
        last_move=None if last_move is None else RevealedMove.from_json(last_move),
    )


def _check_lanes(chariots: tuple[Chariot, ...]) -> None:
    by_space: dict[int, list[int]] = {}
    for chariot in chariots:
        by_space.setdefault(lap_index(chariot.position), []).append(chariot.lane)
    for index, lanes in sorted(by_space.items()):
        if sorted(lanes) != list(range(len(lanes))):
            raise MalformedPosition(
                f"lanes on track space {index} (lap index) must be 0, 1, 2… with no gap "
                "(innermost is 0), whatever lap each chariot is on"
            )


def read_position(obj: JSON) -> RaceState:
    """A race state from the notation. Raises :class:`MalformedPosition` with the reason."""
    check_position_keys(obj, POSITION_KEYS, REQUIRED_KEYS)
    options = RaceOptions.from_json(obj.get("options", {}))
    raw_chariots = read_list(obj["chariots"], "chariots")
    if not MIN_PLAYERS <= len(raw_chariots) <= MAX_PLAYERS:
        raise MalformedPosition(f"a race has {MIN_PLAYERS} to {MAX_PLAYERS} chariots")
    chariots = tuple(_chariot(item) for item in raw_chariots)
    for chariot in chariots:
        if chariot.position > options.finish + MAX_PAST_FINISH:
            raise MalformedPosition(
                f"chariot {chariot.seat} stands {chariot.position - options.finish} spaces past "
                f"the finish line; no move goes beyond {MAX_PAST_FINISH}",
                seat=chariot.seat,
            )
        if chariot.position >= options.finish and obj.get("result") is None:
            raise MalformedPosition(
                f"chariot {chariot.seat} is past the finish line but the race has no result",
                seat=chariot.seat,
            )
    _check_lanes(chariots)
    crowd = _cards(obj["crowd"], "crowd")
    if len(crowd) > 3:
        raise MalformedPosition("the crowd track holds at most 3 cards")
    discard = _cards(obj.get("discard", []), "discard")
    fan_discard = _tokens(obj.get("fan_discard", []), "fan_discard", fan=True)
    seed = check_seed(obj.get("seed", 0))
    chance = Chance.live(seed, read_int(obj.get("draws", 0), "draws"))
    turn = read_int(obj["turn"], "turn", 1)
    if turn > MAX_TURNS:
        raise MalformedPosition(f"turn {turn} is beyond any race (at most {MAX_TURNS} turns)")

    if "deck" in obj:
        cards = _cards(obj["deck"], "deck")
        in_play = sum(len(chariot.hand) for chariot in chariots) + len(crowd) + len(discard)
        if in_play + len(cards) > MAX_CARDS:
            raise MalformedPosition(
                f"the position holds {in_play + len(cards)} cards; the game has {DECK_SIZE}"
                " (a puzzle may add some, not this many)"
            )
    else:
        present = [card for chariot in chariots for card in chariot.hand] + [*crowd, *discard]
        left = remove_present(deck(), present)
        order = chance.shuffle("deck", len(left))
        cards = tuple(_as(Card, left[index]) for index in order)
    if "fan_bag" in obj:
        bag = _tokens(obj["fan_bag"], "fan_bag", fan=True)
    else:
        held = [token for chariot in chariots for token in chariot.tokens if token.fan]
        left = remove_present(fan_tokens(), [*held, *fan_discard])
        order = chance.shuffle("fan bag", len(left))
        bag = tuple(_as(Token, left[index]) for index in order)
    seats = [chariot.seat for chariot in chariots]
    first_seat = obj.get("first_seat")
    if first_seat is not None and (turn != 1 or first_seat not in seats):
        raise MalformedPosition("first_seat names a seat of the race, on turn 1 only")
    if turn == 1 and first_seat is None and len(seats) >= 2:
        first_seat = seats[chance.roll("first seat", len(seats))]
    next_emperor = obj.get("next_emperor")

    commits: list[tuple[str, Move]] = []
    raw_commits = obj.get("commits", {})
    if not isinstance(raw_commits, Mapping):
        raise MalformedPosition("commits must be an object by seat")
    for seat in seats:
        if seat in raw_commits:
            try:
                commits.append((seat, Move.from_json(raw_commits[seat], seat=seat)))
            except EngineError as error:
                raise MalformedPosition(error.reason, seat=seat) from None
    strangers = set(raw_commits) - set(seats)
    if strangers:
        raise MalformedPosition(
            f"commits name seats not in the race: {', '.join(sorted(strangers))}"
        )

    result = None
    raw_result = obj.get("result")

    if raw_result is not None:
        if not isinstance(raw_result, Mapping) or set(raw_result) - {"winner", "ranking", "turns"}:
            raise MalformedPosition("result is {winner, ranking, turns}")
        ranking = tuple(str(seat) for seat in read_list(raw_result.get("ranking"), "ranking"))
        if sorted(ranking) != sorted(seats) or raw_result.get("winner") != ranking[0]:
            raise MalformedPosition("the result ranks every seat once, the winner first")
        result = Result(ranking[0], ranking, read_int(raw_result.get("turns", turn), "turns", 1))

    return RaceState(
        options=options,
        seed=seed,
        draws=chance.next_index,
        turn=turn,
        emperor=_face(obj["emperor"], "emperor"),
        next_emperor=None if next_emperor is None else _face(next_emperor, "next_emperor"),
        crowd=crowd,
        deck=cards,
        discard=discard,
        fan_bag=bag,
        fan_discard=fan_discard,
        chariots=chariots,
        first_seat=first_seat,
        commits=tuple(commits),
        result=result,
    )


def _as(kind: type[T], value: object) -> T:
    assert isinstance(value, kind)
    return value


def write_position(state: RaceState) -> dict[str, JSON]:
    """The notation of a state; ``read_position(write_position(s)) == s``."""
    out: dict[str, JSON] = {"turn": state.turn, "emperor": state.emperor.value}
    if state.next_emperor is not None:
        out["next_emperor"] = state.next_emperor.value
    out["crowd"] = [str(card) for card in state.crowd]
    out["chariots"] = [_write_chariot(chariot) for chariot in state.chariots]
    out["deck"] = [str(card) for card in state.deck]
    out["discard"] = [str(card) for card in state.discard]
    out["fan_bag"] = [token.label if token.fan else str(token) for token in state.fan_bag]
    out["fan_discard"] = [token.label if token.fan else str(token) for token in state.fan_discard]
    out["seed"] = state.seed
    out["draws"] = state.draws
    if state.first_seat is not None:
        out["first_seat"] = state.first_seat
    options = state.options.to_json()
    if options:
        out["options"] = options
    if state.commits:
        out["commits"] = {seat: move.to_json() for seat, move in state.commits}
    if state.result is not None:
        out["result"] = {**state.result.to_json(), "turns": state.result.turns}
    return out


def _write_chariot(chariot: Chariot) -> dict[str, JSON]:
    out: dict[str, JSON] = {
        "seat": chariot.seat,
        "position": chariot.position,
        "lane": chariot.lane,
        "damage": chariot.damage,
        "attack": chariot.attack,
        "skills": {colour.value: chariot.skill(colour).to_json() for colour in COLOURS},
        "hand": [str(card) for card in chariot.hand],
        "tokens": [str(token) for token in chariot.tokens],
    }
    if chariot.last_move is not None:
        out["last_move"] = chariot.last_move.to_json()
    return out
