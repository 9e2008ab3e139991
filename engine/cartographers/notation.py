"""The JSON position notation of a Cartographers table, read and written exactly.

Keys: ``options`` (``side``, ``ambush``), ``seed``, ``draws``, ``turn``, ``season``
(``spring`` … ``winter``), ``edicts`` (four scoring card slugs, A to D), ``deck`` and
``ambush_deck`` (card slugs, top first), ``column`` (explore cards revealed this season),
``ambushes_out`` (ambush cards revealed and gone), ``phase`` (``draw``, ``ambush``,
``over``), ``card`` (the card being drawn), ``ruins``, ``players`` (each ``seat``,
``map`` — 11 rows of cell codes, see :mod:`engine.cartographers.sheet` — ``coins`` and
``seasons``, the scores of the seasons played), ``commits`` (placements chosen this turn,
by seat) and ``result`` (written for readers; checked against the scores on reading).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from engine.cartographers.components import (
    AMBUSH_BY_ID,
    EXPLORE_BY_ID,
    SCORING_BY_ID,
    SEASONS,
    Side,
)
from engine.cartographers.placement import Drawing, analyse, read_placement
from engine.cartographers.sheet import MapSheet
from engine.cartographers.state import (
    AmbushMode,
    GameState,
    Phase,
    Player,
    SeasonScore,
    TableOptions,
    rank,
)
from engine.core import (
    JSON,
    EngineError,
    MalformedPosition,
    check_position_keys,
    check_seed,
    read_int,
    read_list,
)

POSITION_KEYS = frozenset(
    {
        "options",
        "seed",
        "draws",
        "turn",
        "season",
        "edicts",
        "deck",
        "ambush_deck",
        "column",
        "ambushes_out",
        "phase",
        "card",
        "ruins",
        "players",
        "commits",
        "result",
    }
)
REQUIRED_KEYS = ("season", "edicts", "deck", "phase", "players")
PLAYER_KEYS = frozenset({"seat", "map", "coins", "seasons"})
SEASON_KEYS = frozenset({"season", "edicts", "coins", "monsters", "total"})
SEASON_IDS = tuple(season.id for season in SEASONS)


def _cards(value: JSON, what: str, known: Mapping[str, object]) -> tuple[str, ...]:
    out = []
    for item in read_list(value, what):
        if not isinstance(item, str) or item not in known:
            raise MalformedPosition(f"{what}: unknown card {item!r}")
        out.append(item)
    return tuple(out)


def _options(value: JSON) -> TableOptions:
    if not isinstance(value, Mapping) or set(value) - {"side", "ambush"}:
        raise MalformedPosition("options are {side, ambush}")
    try:
        return TableOptions(Side(value.get("side", "A")), AmbushMode(value.get("ambush", "auto")))
    except ValueError:
        raise MalformedPosition("side is A or B; ambush is auto or neighbour") from None


def _season_score(value: JSON, seat: str) -> SeasonScore:
    if not isinstance(value, Mapping) or set(value) - SEASON_KEYS:
        raise MalformedPosition(
            f"player {seat}: a season score is {{season, edicts, coins, monsters}}"
        )
    season = value.get("season")
    if season not in SEASON_IDS:
        raise MalformedPosition(f"player {seat}: unknown season {season!r}")
    edicts = read_list(value.get("edicts"), f"player {seat}'s season edicts")
    if len(edicts) != 2:
        raise MalformedPosition(f"player {seat}: a season scores two edicts")
    score = SeasonScore(
        str(season),
        (read_int(edicts[0], "an edict score"), read_int(edicts[1], "an edict score")),
        read_int(value.get("coins", 0), "season coins"),
        read_int(value.get("monsters", 0), "season monsters"),
    )
    if "total" in value and value["total"] != score.total:
        raise MalformedPosition(f"player {seat}: the {season} total does not add up")
    return score


def _player(value: JSON) -> Player:
    if not isinstance(value, Mapping):
        raise MalformedPosition("every player must be an object")
    seat = value.get("seat")
    if not isinstance(seat, str) or not seat:
        raise MalformedPosition("every player needs a seat name")
    unknown = set(value) - PLAYER_KEYS
    if unknown:
        raise MalformedPosition(f"player {seat}: unknown keys {', '.join(sorted(unknown))}")
    rows = value.get("map")
    if not isinstance(rows, list):
        raise MalformedPosition(f"player {seat}: a map is a list of 11 rows")
    seasons = tuple(
        _season_score(item, seat) for item in read_list(value.get("seasons", []), "seasons")
    )
    return Player(seat, MapSheet.from_rows(rows), read_int(value.get("coins", 0), "coins"), seasons)


def read_position(obj: JSON) -> GameState:
    """A table from the notation. Raises :class:`MalformedPosition` with the reason."""
    check_position_keys(obj, POSITION_KEYS, REQUIRED_KEYS)
    season = obj["season"]
    if season not in SEASON_IDS:
        raise MalformedPosition(f"season is one of {', '.join(SEASON_IDS)}")
    edicts = _cards(obj["edicts"], "edicts", SCORING_BY_ID)
    if len(edicts) != 4:
        raise MalformedPosition("there are four edicts, A to D")
    try:
        phase = Phase(obj["phase"])
    except ValueError:
        raise MalformedPosition("phase is draw, ambush or over") from None
    all_cards = {**EXPLORE_BY_ID, **AMBUSH_BY_ID}
    card = obj.get("card")
    if card is not None and (not isinstance(card, str) or card not in all_cards):
        raise MalformedPosition(f"unknown card {card!r}")
    ruins = obj.get("ruins", False)
    if not isinstance(ruins, bool):
        raise MalformedPosition("ruins must be true or false")
    players = tuple(_player(item) for item in read_list(obj["players"], "players"))
    state = GameState(
        options=_options(obj.get("options", {})),
        seed=check_seed(obj.get("seed", 0)),
        draws=read_int(obj.get("draws", 0), "draws"),
        turn=read_int(obj.get("turn", 1), "turn"),
        season=SEASON_IDS.index(str(season)),
        edicts=(edicts[0], edicts[1], edicts[2], edicts[3]),
        deck=_cards(obj["deck"], "deck", all_cards),
        ambush_deck=_cards(obj.get("ambush_deck", []), "ambush_deck", AMBUSH_BY_ID),
        column=_cards(obj.get("column", []), "column", EXPLORE_BY_ID),
        ambushes_out=_cards(obj.get("ambushes_out", []), "ambushes_out", AMBUSH_BY_ID),
        phase=phase,
        card=card,
        ruins=ruins,
        players=players,
        result=rank(players, edicts) if phase is Phase.OVER else None,
    )
    if "result" in obj and obj["result"] != (
        None if state.result is None else state.result.to_json()
    ):
        raise MalformedPosition("the result does not match the players' scores")
    return _with_commits(state, obj.get("commits", {}))


def _with_commits(state: GameState, raw: JSON) -> GameState:
    if not isinstance(raw, Mapping):
        raise MalformedPosition("commits must be an object by seat")
    strangers = sorted(set(raw) - set(state.seats))
    if strangers:
        raise MalformedPosition(f"commits name seats not at the table: {', '.join(strangers)}")
    if raw and state.is_over:
        raise MalformedPosition("a finished game has no commits")
    commits: list[tuple[str, Drawing]] = []
    for seat in state.seats:
        if seat not in raw:
            continue
        sheet = state.player(state.target_of(seat)).sheet
        try:
            placement = read_placement(raw[seat], state.offer(), seat=seat)
            commits.append((seat, analyse(sheet, state.offer(), placement, seat=seat)))
        except EngineError as error:
            raise MalformedPosition(error.reason, seat=seat) from None
    return dataclasses.replace(state, commits=tuple(commits))


def write_position(state: GameState) -> dict[str, JSON]:
    """The notation of a table; ``read_position(write_position(s)) == s``."""
    out: dict[str, JSON] = {
        "options": state.options.to_json(),
        "seed": state.seed,
        "draws": state.draws,
        "turn": state.turn,
        "season": state.season_card.id,
        "edicts": list(state.edicts),
        "deck": list(state.deck),
        "ambush_deck": list(state.ambush_deck),
        "column": list(state.column),
        "ambushes_out": list(state.ambushes_out),
        "phase": state.phase.value,
        "card": state.card,
        "ruins": state.ruins,
        "players": [
            {
                "seat": player.seat,
                "map": list(player.sheet.rows()),
                "coins": player.coins,
                "seasons": [season.to_json() for season in player.seasons],
            }
            for player in state.players
        ],
    }
    if state.commits:
        out["commits"] = {seat: drawing.placement.to_json() for seat, drawing in state.commits}
    if state.result is not None:
        out["result"] = state.result.to_json()
    return out
