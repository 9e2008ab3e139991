"""The board picture on a phone (about 400 px wide): text, chariots and their letters
large enough to read without zooming, every chariot in the close-up, and the close-up's
spaces numbered and folded as the legend says."""

from engine.charioteer import view
from engine.charioteer.render.image import KEEP_EMPTY, Cell, board_picture, closeup_cells
from engine.charioteer.track import LAP_LENGTH, lap_index
from engine.drawing import MIN_DISC_RADIUS, MIN_TEXT, PHONE_WIDTH
from tests.engine.charioteer.test_render_image import midrace
from tests.engine.charioteer.test_render_races import LONG_NAMES, every_turn


def test_at_400_px_no_text_or_chariot_is_too_small_to_read() -> None:
    picture = board_picture(midrace().view(), names=LONG_NAMES)
    assert picture.width == PHONE_WIDTH
    assert picture.smallest_text(400) >= MIN_TEXT
    assert picture.smallest_disc(400) >= MIN_DISC_RADIUS


def test_every_chariot_is_drawn_three_times_large_enough() -> None:
    """Once in the close-up, once on the lap, once in the table."""
    race = midrace()
    picture = board_picture(race.view())
    assert len(picture.disc_radii) == 3 * len(race.seats)
    assert min(picture.disc_radii) >= MIN_DISC_RADIUS


def test_sizes_hold_over_whole_races() -> None:
    for number, (state, _) in enumerate(every_turn(2)):
        if number % 7:
            continue
        picture = board_picture(view(state, None), names=LONG_NAMES)
        assert picture.smallest_text() >= MIN_TEXT
        assert picture.smallest_disc() >= MIN_DISC_RADIUS
        assert len(picture.disc_radii) == 3 * len(state.seats)


def shown(cells: list[Cell]) -> list[int]:
    return [cell.index for cell in cells if cell.index is not None]


def test_the_close_up_runs_from_behind_the_last_to_ahead_of_the_first() -> None:
    cells = closeup_cells([10, 12])
    assert shown(cells) == [9, 10, 11, 12, 13]
    assert all(cell.skipped == 0 for cell in cells)


def test_the_close_up_goes_round_the_finish_line_the_short_way() -> None:
    assert shown(closeup_cells([61, 2])) == [60, 61, 62, 1, 2, 3]


def test_long_empty_stretches_fold_into_one_counted_cell() -> None:
    cells = closeup_cells([10, 30])
    folded = [cell for cell in cells if cell.index is None]
    assert len(folded) == 1
    assert shown(cells) == [9, 10, 11, 29, 30, 31]
    # every space between the two chariots is either shown or counted in the fold
    assert folded[0].skipped + len([i for i in shown(cells) if 10 < i < 30]) == 30 - 10 - 1


def test_short_empty_stretches_stay_countable_space_by_space() -> None:
    gap = KEEP_EMPTY
    cells = closeup_cells([10, 10 + gap + 1])
    assert all(cell.index is not None for cell in cells)
    assert shown(cells) == list(range(9, 10 + gap + 3))


def test_one_space_full_of_chariots() -> None:
    assert shown(closeup_cells([60])) == [59, 60, 61]


def test_the_close_up_shows_every_chariot_of_every_turn() -> None:
    for number, (state, _) in enumerate(every_turn(2)):
        if number % 3:
            continue
        occupied = [lap_index(chariot.position) for chariot in state.chariots]
        cells = closeup_cells(occupied)
        assert set(occupied) <= set(shown(cells))
        assert len(cells) <= LAP_LENGTH
