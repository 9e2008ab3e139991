"""Message catalogues: every sentence a player reads, by message id and locale.

A catalogue is a set of JSON files, one per locale (``en.json``, ``es.json``…), each mapping
a message id to a whole-sentence template with named placeholders (``"{seat} passes
{rival}"``), or to ``{"one": …, "other": …}`` for a sentence that depends on ``count``.
Sentences are never glued together from fragments, so each language can order its words
its own way. A locale missing a message falls back to English. A number below zero is
written with the minus sign (−57, not -57; a change of a score with its sign,
:func:`signed`: "+3", "−2"), and :meth:`Catalogue.join` lists names the language's way
("A, B and C", "Ana e Isabel"). :func:`display_width` says how many columns a text takes
on a terminal or in a code block (a wide character, East Asian or most emoji, takes two).

Kept over gettext or Babel: a catalogue here is JSON by message id (not by English source
string), with ``one``/``other`` forms, all the counts of English, Spanish and Italian need
(CLDR's ``many`` of the last two is for millions); tests/bot/test_locales.py checks ids,
placeholders and lengths across languages. Babel, with .po files and a compile step, would
be worth it with a language of more plural forms.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections.abc import Iterable, Mapping
from importlib import resources
from string import Formatter
from typing import Any

DEFAULT_LOCALE = "en"
Template = str | Mapping[str, str]
MINUS = "\u2212"


class UnknownLocale(ValueError):
    """A language no catalogue speaks; the message names the ones there are."""


@functools.lru_cache(maxsize=256)
def base_locale(locale: str | None) -> str:
    """``"es-ES"`` → ``"es"``; ``None`` or empty → the default locale."""
    if not locale:
        return DEFAULT_LOCALE
    return str(locale).replace("_", "-").split("-")[0].lower()


def shown(value: object) -> object:
    """A parameter as a sentence shows it: a number below zero with the minus sign."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
        return MINUS + str(-value)
    return value


def signed(value: int) -> str:
    """A change of a score as a sentence shows it: "+3", "+0", "−2" (the minus sign)."""
    return f"{value:+d}".replace("-", MINUS)


def supported_locale(locale: str, locales: Iterable[str]) -> str:
    """``locale`` reduced to its language (``"es-ES"`` → ``"es"``) if it is one of
    ``locales``, else :class:`UnknownLocale` naming the languages there are."""
    known = sorted(set(locales))
    language = base_locale(locale)
    if not locale or language not in known:
        raise UnknownLocale(f"no language {locale!r}; the languages are {', '.join(known)}")
    return language


class Catalogue:
    """Templates by locale and message id."""

    def __init__(self, messages: Mapping[str, Mapping[str, Template]]) -> None:
        if DEFAULT_LOCALE not in messages:
            raise ValueError("a catalogue needs English, the fallback locale")
        self._messages = {locale: dict(templates) for locale, templates in messages.items()}

    @classmethod
    def from_package(cls, package: str, directory: str = "locales") -> Catalogue:
        """Load ``<package>/<directory>/<locale>.json`` for every locale file present."""
        folder = resources.files(package).joinpath(directory)
        messages: dict[str, Mapping[str, Template]] = {}
        for entry in folder.iterdir():
            if entry.name.endswith(".json"):
                messages[entry.name[: -len(".json")]] = json.loads(entry.read_text("utf-8"))
        return cls(messages)

    @property
    def locales(self) -> tuple[str, ...]:
        return tuple(sorted(self._messages))

    def ids(self, locale: str = DEFAULT_LOCALE) -> frozenset[str]:
        return frozenset(self._messages.get(base_locale(locale), {}))

    def template(self, locale: str | None, key: str) -> Template:
        for candidate in (base_locale(locale), DEFAULT_LOCALE):
            templates = self._messages.get(candidate, {})
            if key in templates:
                return templates[key]
        raise KeyError(f"no message '{key}' in the catalogue")

    def text(self, locale: str | None, key: str, /, **params: Any) -> str:
        """The message ``key`` in ``locale`` with its placeholders filled."""
        template = self.template(locale, key)
        if not isinstance(template, str):
            count = params.get("count")
            form = "one" if count == 1 else "other"
            template = template.get(form, template.get("other", ""))
        return template.format_map({name: shown(value) for name, value in params.items()})

    def join(self, locale: str | None, items: Iterable[str]) -> str:
        """``items`` listed the language's way, from the catalogue's ``list.two``
        ("A and B"), ``list.end`` and ``list.more`` ("A, B and C"). Before a word that
        starts as one of ``list.soft_before`` says (Spanish "i", Italian "e"), the forms
        ``list.two.soft`` and ``list.end.soft`` are used: "Ana e Isabel", "Dora ed Eva"."""
        listed = list(items)
        if len(listed) < 2:
            return "".join(listed)
        starts: list[str] = []
        if "list.soft_before" in self.ids():
            starts = str(self.template(locale, "list.soft_before")).lower().split()
        soft = ".soft" if starts and listed[-1].lower().startswith(tuple(starts)) else ""
        if len(listed) == 2:
            return self.text(locale, "list.two" + soft, first=listed[0], second=listed[1])
        text = self.text(locale, "list.end" + soft, first=listed[-2], last=listed[-1])
        for item in reversed(listed[:-2]):
            text = self.text(locale, "list.more", first=item, rest=text)
        return text

    def placeholders(self, locale: str, key: str) -> frozenset[str]:
        """The named placeholders a message uses (for tests that compare locales)."""
        template = self.template(locale, key)
        texts = [template] if isinstance(template, str) else list(template.values())
        names = set()
        for text in texts:
            for _, name, _, _ in Formatter().parse(text):
                if name:
                    names.add(name.split(".")[0].split("[")[0])
        return frozenset(names)


@functools.lru_cache(maxsize=4096)
def char_width(char: str) -> int:
    """Columns a character takes in a monospace font: 0 for combining marks and joiners,
    2 for wide (East Asian, most emoji), else 1."""
    if unicodedata.combining(char) or char in "\u200b\u200c\u200d\ufe0e\ufe0f":
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Columns ``text`` takes in a monospace font."""
    if text.isascii():
        return len(text)
    return sum(char_width(char) for char in text)
