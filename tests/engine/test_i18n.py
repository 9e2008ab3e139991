"""Message catalogues: lookup, fallback to English, plural forms, placeholders."""

import pytest

from engine.i18n import Catalogue, base_locale

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
