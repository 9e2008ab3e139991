"""Golden pictures: a fixed position → the map with a candidate drawing (legal, and not),
the explore card and the season's maps, compared with the stored ones (``golden/*.png``;
see :mod:`tests.engine.pictures`)."""

import json
from pathlib import Path

from engine.cartographers import Expedition
from engine.cartographers.ai.base import legal_choices
from engine.cartographers.render import card_picture, season_picture, seat_map_picture
from tests.engine.pictures import check_golden_picture

GOLDEN = Path(__file__).parent / "golden"
NAMES = {"1": "Bartholomew the Great", "2": "Zoë", "3": "محمد", "4": "山田太郎"}


def midgame() -> Expedition:
    position = json.loads((GOLDEN / "midgame.position.json").read_text(encoding="utf-8"))
    return Expedition.from_position(position)


def test_the_map_with_a_candidate_drawing() -> None:
    view = midgame().view("1")
    choices = legal_choices(view)
    legal = seat_map_picture(view, "1", names=NAMES, candidate=choices[0])
    check_golden_picture(GOLDEN / "midgame.candidate.png", legal.png)
    crossed = seat_map_picture(
        view, "1", names=NAMES, candidate=choices[-1], candidate_legal=False, lang="es"
    )
    check_golden_picture(GOLDEN / "midgame.illegal.png", crossed.png)


def test_the_card_and_the_season() -> None:
    view = midgame().view()
    assert view.card is not None
    check_golden_picture(GOLDEN / "midgame.card.png", card_picture(view.card).png)
    check_golden_picture(GOLDEN / "midgame.season.png", season_picture(view, names=NAMES).png)
