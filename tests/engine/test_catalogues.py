"""Every message catalogue speaks every language in full: the same message ids as
English, the same placeholders, and plural forms ``one``/``other`` wherever English has
them (or wherever a language adds them)."""

from __future__ import annotations

import pytest

from engine.i18n import Catalogue

LANGUAGES = ("es", "it")
"""Languages every engine catalogue must have in full."""

ENGINE_PACKAGES = ("engine.charioteer", "engine.cartographers", "engine.carcassonne")


def catalogues() -> dict[str, Catalogue]:
    found = {package: Catalogue.from_package(package) for package in ENGINE_PACKAGES}
    found["bot"] = Catalogue.from_package("bot")
    return found


def languages_of(package: str, catalogue: Catalogue) -> tuple[str, ...]:
    """The engines must have every language; the host's catalogue is checked in the
    languages it has so far."""
    if package.startswith("engine."):
        return LANGUAGES
    return tuple(locale for locale in catalogue.locales if locale != "en")


CASES = [
    (package, locale)
    for package, catalogue in catalogues().items()
    for locale in languages_of(package, catalogue)
]


@pytest.mark.parametrize(("package", "locale"), CASES)
def test_a_language_has_every_english_id_and_no_other(package: str, locale: str) -> None:
    catalogue = catalogues()[package]
    assert locale in catalogue.locales
    english = catalogue.ids("en")
    assert sorted(english - catalogue.ids(locale)) == []
    assert sorted(catalogue.ids(locale) - english) == []


@pytest.mark.parametrize(("package", "locale"), CASES)
def test_a_language_uses_the_same_placeholders(package: str, locale: str) -> None:
    catalogue = catalogues()[package]
    different = {
        key: (
            sorted(catalogue.placeholders("en", key)),
            sorted(catalogue.placeholders(locale, key)),
        )
        for key in catalogue.ids(locale)
        if catalogue.placeholders("en", key) != catalogue.placeholders(locale, key)
    }
    assert different == {}


@pytest.mark.parametrize(("package", "locale"), [*CASES, *((p, "en") for p in catalogues())])
def test_plural_messages_have_the_forms_one_and_other(package: str, locale: str) -> None:
    catalogue = catalogues()[package]
    wrong = {}
    for key in catalogue.ids(locale):
        template = catalogue.template(locale, key)
        english = catalogue.template("en", key)
        if isinstance(template, str) and isinstance(english, str):
            continue
        if isinstance(template, str) or isinstance(english, str):
            wrong[key] = "plural in one language only"
        elif set(template) != {"one", "other"}:
            wrong[key] = f"forms {sorted(template)}"
    assert wrong == {}


@pytest.mark.parametrize("locale", ["en", *LANGUAGES])
def test_chariot_marks_tell_the_chariots_apart(locale: str) -> None:
    catalogue = Catalogue.from_package("engine.charioteer")
    colours = ("red", "blue", "green", "yellow", "purple", "white")
    marks = [catalogue.text(locale, f"chariot.{colour}.mark") for colour in colours]
    names = [catalogue.text(locale, f"chariot.{colour}") for colour in colours]
    assert len(set(marks)) == len(colours)
    assert all(len(mark) == 1 and mark.islower() for mark in marks)
    assert len(set(names)) == len(colours)
