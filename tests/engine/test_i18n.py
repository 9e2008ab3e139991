"""Message catalogues: lookup, fallback to English, plural forms, placeholders."""

import pytest

from engine.i18n import Catalogue, base_locale, signed

CATALOGUE = Catalogue(
    {
        "en": {
            "passes": "{seat} passes {rival}",
            "cards": {"one": "{count} card", "other": "{count} cards"},
            "only_en": "English only",
        },
        "es": {
            "passes": "{seat} adelanta a {rival}",
            "cards": {"one": "{count} carta", "other": "{count} cartas"},
        },
    }
)


def test_locale_names_are_reduced_to_their_language() -> None:
    assert base_locale("es-ES") == "es"
    assert base_locale("pt_BR") == "pt"
    assert base_locale(None) == "en"


def test_text_fills_placeholders_in_the_asked_locale() -> None:
    assert CATALOGUE.text("es-ES", "passes", seat="Rojo", rival="Azul") == "Rojo adelanta a Azul"
    assert CATALOGUE.text("en-GB", "passes", seat="Red", rival="Blue") == "Red passes Blue"


def test_missing_locale_or_message_falls_back_to_english() -> None:
    assert CATALOGUE.text("it", "passes", seat="A", rival="B") == "A passes B"
    assert CATALOGUE.text("es", "only_en") == "English only"
    with pytest.raises(KeyError):
        CATALOGUE.text("en", "no_such_message")


def test_plural_forms_follow_count() -> None:
    assert CATALOGUE.text("en", "cards", count=1) == "1 card"
    assert CATALOGUE.text("es", "cards", count=3) == "3 cartas"


def test_placeholders_are_listed() -> None:
    assert CATALOGUE.placeholders("es", "passes") == {"seat", "rival"}
    assert CATALOGUE.placeholders("en", "cards") == {"count"}


def test_a_catalogue_needs_english() -> None:
    with pytest.raises(ValueError):
        Catalogue({"es": {}})


LISTS = Catalogue(
    {
        "en": {
            "list.two": "{first} and {second}",
            "list.end": "{first} and {last}",
            "list.more": "{first}, {rest}",
            "list.two.soft": "{first} and {second}",
            "list.end.soft": "{first} and {last}",
            "list.soft_before": "",
        },
        "es": {
            "list.two": "{first} y {second}",
            "list.end": "{first} y {last}",
            "list.more": "{first}, {rest}",
            "list.two.soft": "{first} e {second}",
            "list.end.soft": "{first} e {last}",
            "list.soft_before": "i hi",
        },
    }
)


def test_a_list_is_joined_the_languages_way() -> None:
    assert LISTS.join("en", []) == ""
    assert LISTS.join("en", ["Ana"]) == "Ana"
    assert LISTS.join("en", ["Ana", "Bea"]) == "Ana and Bea"
    assert LISTS.join("en", ["Ana", "Bea", "Ciro", "Dan"]) == "Ana, Bea, Ciro and Dan"
    assert LISTS.join("es", ["Ana", "Bea", "Ciro"]) == "Ana, Bea y Ciro"
    assert LISTS.join("en", ["Ana", "Isabel"]) == "Ana and Isabel"


def test_spanish_says_e_before_an_i_sound() -> None:
    assert LISTS.join("es", ["Ana", "Isabel"]) == "Ana e Isabel"
    assert LISTS.join("es", ["Ana", "Bea", "Hilario"]) == "Ana, Bea e Hilario"
    assert LISTS.join("es", ["Isabel", "Ana"]) == "Isabel y Ana"


def test_a_number_below_zero_has_the_minus_sign() -> None:
    minus = Catalogue({"en": {"score": "= {score}", "cards": CATALOGUE.template("en", "cards")}})
    assert minus.text("en", "score", score=-57) == "= −57"
    assert minus.text("en", "score", score=-1.5) == "= −1.5"
    assert minus.text("en", "score", score=0) == "= 0"
    assert minus.text("en", "score", score="-3") == "= -3"
    assert minus.text("en", "cards", count=-1) == "−1 cards"


def test_a_change_of_a_score_keeps_its_sign_and_the_minus_sign() -> None:
    assert [signed(value) for value in (3, 0, -2)] == ["+3", "+0", "\u22122"]
