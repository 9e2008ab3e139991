"""Every display name is drawn in every picture that shows names, whatever its script:
Latin, Greek, Cyrillic, Chinese, Japanese, Korean, Arabic and Hebrew (right to left),
Devanagari, Thai, emoji, fancy letters, and a name mixing them (see
:mod:`tests.engine.scripts`)."""

from __future__ import annotations

import pytest

from engine.cartographers import Expedition
from engine.cartographers.render import season_picture, seat_map_picture
from engine.charioteer import Race
from engine.charioteer.render.image import board_picture
from engine.lettering import runs
from tests.engine.cartographers.helpers import options_for
from tests.engine.scripts import NAMES, assert_names_drawn

TABLES = [NAMES[:6], NAMES[6:]]
"""The names, six to a table."""


@pytest.mark.parametrize("names", TABLES)
def test_the_charioteer_table_draws_every_name(names: tuple[str, ...]) -> None:
    race = Race.new(seats=6, seed=3)
    picture = board_picture(race.view(None), names=dict(zip(race.seats, names, strict=True)))
    assert_names_drawn(picture, names)


def test_the_charioteer_winner_banner_draws_the_winners_name() -> None:
    race = Race.new(seats=2, seed=4)
    while not race.is_over:
        for seat in race.seats:
            moves = race.legal_moves(seat, discards=False)
            race.commit(
                seat, max(moves, key=lambda move: race.view(seat).analyse(move).card_distance)
            )
    view = race.view(None)
    assert view.result is not None
    picture = board_picture(view, names={"A": "محمد", "B": "李小龙"})
    assert_names_drawn(picture, ["محمد", "李小龙"])


def played(seats: int, turns: int) -> Expedition:
    expedition = Expedition.new(seats=seats, seed=5, side="A")
    while expedition.state.turn < turns and not expedition.is_over:
        for seat in sorted(expedition.view(None).waiting_for):
            choices = options_for(expedition.state, seat)
            expedition.place(seat, choices[len(choices) // 2].placement)
    return expedition


@pytest.mark.parametrize("names", TABLES)
def test_the_cartographers_captions_and_score_table_draw_every_name(
    names: tuple[str, ...],
) -> None:
    public = played(len(names), 12).view(None)
    seats = [player.seat for player in public.players]
    named = dict(zip(seats, names, strict=True))
    for seat, name in named.items():
        assert_names_drawn(seat_map_picture(public, seat, names=named), [name])
    assert_names_drawn(season_picture(public, names=named), names)


def test_a_right_to_left_name_keeps_its_place_in_a_caption() -> None:
    public = played(2, 0).view(None)
    picture = seat_map_picture(public, "1", names={"1": "محمد"})
    (title,) = [text for text, _ in picture.texts if "محمد" in text]
    assert [run.text for run in runs(title, shaped=True)] == ["Map of ", "محمد", " · 0 stars"]
