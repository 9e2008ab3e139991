"""Moves typed as text, and drafts becoming engine moves."""

import pytest

from bot.games.charioteer.drafts import Draft, DraftError, parse_move_text, pick_discard_token
from engine.charioteer import Move, Symbol, Token


def test_text_reads_symbol_cards_crowd_and_token() -> None:
    draft = parse_move_text("R5 1 2 crowd t1", hand_size=8, token_count=5)
    assert draft == Draft(symbol="R5", cards=(0, 1), crowd=True, token=0)
    assert draft.text() == "R5 1 2 crowd t1"


def test_a_wild_card_joins_the_move_and_discards_pick_their_token() -> None:
    draft = parse_move_text("g4 1, 3 t2 w5 d7 d8", hand_size=8, token_count=3)
    assert draft.cards == (0, 2, 4) and draft.wild == 4 and draft.discard == (6, 7)
    tokens = [
        Token.parse("red:+3"),
        Token.parse("green:wild"),
        Token.parse("discard3"),
        Token.parse("discard2"),
    ]
    move = draft.to_move(tokens)
    assert move == Move((0, 2, 4), Symbol.parse("G4"), False, 1, 4, 3, (6, 7))


def test_a_reset_move_takes_cards_only() -> None:
    assert parse_move_text("reset 6", 8, 0).to_move([]) == Move.reset((5,))
    with pytest.raises(DraftError) as both:
        parse_move_text("reset R5 1", 8, 0)
    assert both.value.key == "draft.reset_with_symbol"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "draft.empty"),
        ("R5 9", "draft.no_such_card"),
        ("R5 0", "draft.no_such_card"),
        ("R5 1 t4", "draft.no_such_token"),
        ("R5 1 banana", "draft.unknown_word"),
        ("R² 1 2", "draft.unknown_word"),
        ("R5 ٣ 2", "draft.unknown_word"),
        ("G4 R5 3 6 7", "draft.two_symbols"),
        ("reset 1 crowd", "draft.reset_with_crowd"),
        ("reset 1 t1", "draft.reset_with_token"),
        ("Y4 1 4 crowd crowd", "draft.twice"),
        ("Y4 1 4 c crowd", "draft.twice"),
        ("Y4 1 1 4", "draft.twice"),
        ("Y4 1 4 t1 t2", "draft.two_tokens"),
        ("Y4 1 4 w1 w4", "draft.two_wilds"),
        ("Y4 1 4 d4", "draft.played_and_discarded"),
    ],
)
def test_unreadable_or_contradictory_text_names_the_problem(text: str, key: str) -> None:
    with pytest.raises(DraftError) as error:
        parse_move_text(text, hand_size=8, token_count=3)
    assert error.value.key == key


def test_an_incomplete_draft_says_what_is_missing() -> None:
    with pytest.raises(DraftError) as no_symbol:
        Draft(cards=(0, 1)).to_move([])
    assert no_symbol.value.key == "draft.no_symbol"
    with pytest.raises(DraftError) as no_token:
        Draft(symbol="R5", cards=(0, 1), discard=(3, 4, 5)).to_move([Token.parse("discard2")])
    assert no_token.value.key == "draft.no_discard_token"


def test_the_smallest_sufficient_discard_token_is_chosen() -> None:
    tokens = [Token.parse("discard3"), Token.parse("shield"), Token.parse("discard2")]
    assert pick_discard_token(tokens, 2) == 2
    assert pick_discard_token(tokens, 3) == 0
    assert pick_discard_token(tokens, 4) is None


def test_drafts_round_trip_through_json_and_moves() -> None:
    draft = Draft(symbol="Y2", cards=(3, 1), crowd=True, token=2)
    assert Draft.from_json(draft.to_json()) == draft
    move = Move((1, 3), Symbol.parse("Y2"), True, 2)
    assert Draft.from_move(move).to_move([Token.parse("+3")] * 3) == move


@pytest.mark.parametrize(
    ("locale", "typed"),
    [
        ("en", "G4 1 3 crowd t2"),
        ("es", "G4 1 3 plebe t2"),
        ("it", "G4 1 3 folla t2"),
        ("es", "g4 1 3 CROWD t2"),
    ],
)
def test_the_keywords_are_read_in_the_player_s_language_and_in_english(
    locale: str, typed: str
) -> None:
    draft = parse_move_text(typed, 8, 3, locale)
    assert draft == Draft(symbol="G4", cards=(0, 2), crowd=True, token=1)
    assert draft.text(locale) == typed.replace("CROWD", "plebe").replace("g4", "G4")
    reset = parse_move_text(
        {"en": "reset 2", "es": "reinicio 2", "it": "ripristino 2"}[locale], 8, 3, locale
    )
    assert reset == Draft(reset=True, cards=(1,))


def test_another_language_s_keywords_are_not_read() -> None:
    with pytest.raises(DraftError) as refused:
        parse_move_text("ripristino 2", 8, 3, "es")
    assert refused.value.key == "draft.unknown_word"
