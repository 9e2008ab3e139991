"""The private panel as data: only legal symbols are offered for the chosen cards, choices
update the draft, and an illegal draft shows the engine's reason."""

from collections import Counter

from bot.games.charioteer.drafts import Draft
from bot.games.charioteer.panel import RESET_VALUE, apply_choice, build_panel, playable_symbols
from engine.charioteer import Race, SeatView
from engine.core import Rng


def views(count: int) -> list[SeatView]:
    found = []
    for seed in range(count):
        race = Race.new(seats=3, seed=seed)
        rng = Rng(seed, 9)
        for _ in range(seed % 5):
            for seat in race.waiting_for:
                moves = race.legal_moves(seat, discards=False)
                race.commit(seat, moves[rng.below(len(moves))])
        found.append(race.view("A"))
    return found


def test_offered_symbols_are_exactly_those_of_legal_moves_with_the_chosen_cards() -> None:
    for view in views(12):
        legal = view.legal_moves(discards=False)
        for chosen in [(0,), (0, 1), (1, 2, 3), (4, 5), (2, 6, 7)]:
            faces = Counter(view.hand[i] for i in chosen)
            expected = {
                move.symbol
                for move in legal
                if move.symbol is not None and Counter(view.hand[i] for i in move.cards) == faces
            }
            assert set(playable_symbols(view, chosen)) == expected


def test_with_no_cards_chosen_every_playable_symbol_is_offered_and_reset_always() -> None:
    view = views(1)[0]
    panel = build_panel(view, Draft(), "en")
    offered = [option.value for option in panel.symbols]
    assert offered[-1] == RESET_VALUE
    assert set(offered[:-1]) == {
        str(m.symbol) for m in view.legal_moves(discards=False) if m.symbol
    }
    assert panel.move is None and not panel.can_confirm


def test_choices_build_a_move_and_a_bad_one_explains_itself() -> None:
    view = views(1)[0]
    move = next(m for m in view.legal_moves(discards=False) if m.symbol is not None)
    draft = Draft.from_move(move)
    panel = build_panel(view, draft, "en")
    assert panel.move == move and panel.can_confirm
    assert move.symbol is not None
    stranger = next(
        i for i, card in enumerate(view.hand) if not card.is_whip and not card.shows(move.symbol)
    )
    wrong = Draft(symbol=str(move.symbol), cards=(move.cards[0], stranger))
    panel = build_panel(view, wrong, "en")
    assert panel.move is None and not panel.can_confirm
    assert f"Card {stranger + 1} " in panel.preview and "doesn't show" in panel.preview


def test_picking_reset_clears_the_symbol_and_extras() -> None:
    draft = Draft(symbol="R5", cards=(0, 1), crowd=True, token=0)
    reset = apply_choice(draft, "symbol", [RESET_VALUE])
    assert reset.reset and reset.symbol is None and not reset.crowd and reset.token is None
    assert apply_choice(reset, "clear", []) == Draft()
