"""One word per game concept, in every catalogue that speaks of it: the Discord bot's, the
engines' (pictures, terminal, stories) and the rules card all call a reset move, a
discard token, a Cartographers space or shape, a flip, a terrain or a tournament round by
the word of the glossary below, in English, Spanish and Italian, and never by a variant
a reader once met in another place. The words are the source rules' game terms
(Charioteer in every language, Cartographers and Carcassonne in Spanish)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from engine.i18n import Catalogue

LANGUAGES = ("en", "es", "it")


@dataclass(frozen=True)
class Term:
    """A concept's word in one language (a pattern that must occur in the game's
    messages) and the variants that must not, in any case ("(?-i:…)" where case
    matters)."""

    game: str
    concept: str
    locale: str
    word: str
    wrong: tuple[str, ...] = ()


CARTOGRAPHERS_KEYS = (
    "carto.",
    "cmd.carto",
    "cmd.cartographers",
    "help.game.cartographers",
    "console.carto.",
)
CARCASSONNE_KEYS = (
    "carc.",
    "cmd.carc",
    "cmd.carcassonne",
    "help.game.carcassonne",
    "console.carc.",
)
TOURNAMENT_KEYS = (
    "tournament.",
    "error.tournament_",
    "cmd.tournament",
    "opt.round",
    "web.round",
    "web.format.",
)
NAMES_KEYS = ("card.", "title.")
"""Proper names (a card's, a title's) keep their own words: "Bosco Sentinella"."""


def messages(game: str, locale: str) -> dict[str, str]:
    """Every message of ``game`` in ``locale`` (all plural forms, placeholders and `code`
    left out), by message id: its engine's catalogue, and the bot's messages about it;
    the bot's other messages are Charioteer's and the community's."""
    found: dict[str, str] = {}
    engine = {"charioteer", "cartographers", "carcassonne"} & {game}
    catalogues = [("", Catalogue.from_package(f"engine.{name}")) for name in engine]
    catalogues.append(("bot:", Catalogue.from_package("bot")))
    for prefix, catalogue in catalogues:
        for key in catalogue.ids("en"):
            if prefix and scope_of(key) != game:
                continue
            template = catalogue.template(locale, key)
            forms = [template] if isinstance(template, str) else list(template.values())
            text = " ".join(forms)
            text = re.sub(r"`[^`]*`", " ", re.sub(r"\{[^}]*\}", " ", text))
            found[prefix + key] = text
    return found


def scope_of(bot_key: str) -> str:
    if bot_key.startswith(CARTOGRAPHERS_KEYS):
        return "cartographers"
    if bot_key.startswith(CARCASSONNE_KEYS):
        return "carcassonne"
    if bot_key.startswith(TOURNAMENT_KEYS):
        return "tournament"
    return "charioteer"


C, M, K, T = "charioteer", "cartographers", "carcassonne", "tournament"
TERRAIN_IDS = ("forest", "village", "farm", "water", "mountain", "monster", "wasteland", "ruins")
TERRAINS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "en": tuple((terrain, ()) for terrain in TERRAIN_IDS),
    "es": (
        ("bosque", ()),
        ("aldea", (r"\bpueblos?\b",)),
        ("granja", ()),
        ("agua", ()),
        ("montaña", ()),
        ("monstruo", ()),
        ("tierra baldía", (r"\byermos?\b", r"\bpáramos?\b")),
        ("ruinas", ()),
    ),
    "it": (
        ("foresta", (r"\bbosc[oh]i?\b",)),
        ("villaggio", (r"\bpaesi?\b",)),
        ("fattoria", ()),
        ("acqua", ()),
        ("montagna", ()),
        ("mostr", ()),
        ("landa desolata", (r"\bterra desolata\b",)),
        ("rovine", ()),
    ),
}
SEASONS = {
    "en": ("spring", "summer", "autumn", "winter"),
    "es": ("primavera", "verano", "otoño", "invierno"),
    "it": ("primavera", "estate", "autunno", "inverno"),
}
GLOSSARY = [
    # Charioteer: the rules' reset move, discard token, fan token, crowd card, move token
    Term(C, "reset", "en", r"\breset move", (r"\bresets\b",)),
    Term(C, "reset", "es", r"movimiento de reinicio", (r"\breinicia\b", r"\breiniciar\b")),
    Term(C, "reset", "it", r"mossa di ripristino", (r"resett", r"\bmossa ripristino\b")),
    Term(C, "discard token", "en", r"\bdiscard token"),
    Term(C, "discard token", "es", r"ficha de descarte", (r"ficha descarte",)),
    Term(
        C,
        "discard token",
        "it",
        r"gettone di scarto",
        (r"gettone scarta\b", r"gettoni? scartare", r"gettone scarto\b", r"\bscarta [23]\b"),
    ),
    Term(C, "fan token", "es", r"ficha de espectador", (r"ficha de fan", r"ficha de público")),
    Term(C, "fan token", "it", r"gettone fan", (r"gettone dei fan",)),
    Term(C, "crowd card", "es", r"carta de la plebe", (r"carta del público", r"carta de plebe")),
    Term(C, "crowd card", "it", r"carta folla", (r"carta della folla",)),
    Term(C, "move token", "es", r"ficha de movimiento"),
    Term(C, "move token", "it", r"gettone mossa", (r"gettone di movimento",)),
    # a space of the track: Spanish "casilla", Italian "spazio" (its "casella" is a box)
    Term(C, "space", "es", r"\bcasillas?\b", (r"\bespacios?\b",)),
    Term(
        C,
        "space",
        "it",
        r"\bspazi",
        (r"\bcasell[ae]\b(?! (?:attacco|bonus|danni))", r"\bcasell[ae] esterne?"),
    ),
    Term(C, "attack boxes", "es", r"casillas de ataque", (r"casillas ataque",)),
    Term(C, "attack boxes", "it", r"caselle attacco", (r"caselle di attacco",)),
    # a skill agrees with its colour: "habilidad roja", "abilità in rosso"
    Term(C, "skill", "es", r"\bhabilidad", (r"habilidad (?:rojo|negro|amarillo)\b",)),
    Term(C, "skill", "it", r"\babilità", (r"abilità (?:rosso|nero|giallo|verde)\b",)),
    # Cartographers: the Spanish rules' "espacio" and "forma", one flip, one map side
    Term(M, "space", "es", r"\bespacios?\b", (r"\bcasillas?\b",)),
    Term(M, "space", "it", r"\bcasell[ae]\b"),
    Term(M, "shape", "es", r"\bformas?\b", (r"\bfiguras?\b",)),
    Term(M, "shape", "it", r"\bforme?\b", (r"\bsagom",)),
    Term(M, "flip", "es", r"\bvolte", (r"\bdar la vuelta\b",)),
    Term(M, "flip", "it", r"\bribalt", (r"\bcapovolg",)),
    Term(M, "map side", "es", r"\blado\b", (r"\bcara del mapa\b", r"\bcara [AB]\b")),
    Term(M, "map side", "it", r"\blato\b", (r"\bfaccia\b",)),
    Term(M, "edict", "es", r"\bedictos?\b", (r"\bdecretos?\b",)),
    Term(M, "edict", "it", r"\beditti?\b", (r"\bdecret",)),
    Term(M, "end of a season", "es", r"\bFin de", (r"(?-i:\bFinal de\b)",)),
    Term(M, "end of a season", "it", r"\bFine de", (r"(?-i:\bFine di\b)",)),
    Term(M, "1×1 square", "es", r"cuadrado de 1×1", (r"casilla 1×1", r"sola casilla \(1×1\)")),
    Term(M, "1×1 square", "it", r"quadrato 1×1", (r"casella 1×1", r"sola casella \(1×1\)")),
    # every terrain by the rules' name
    *(
        Term(M, f"terrain {terrain}", locale, rf"\b{word}", wrong)
        for locale, words in TERRAINS.items()
        for terrain, (word, wrong) in zip(TERRAIN_IDS, words, strict=True)
    ),
    # every season, and none capitalised in the middle of a sentence
    *(
        Term(
            M,
            f"season {season}",
            locale,
            rf"\b{word}\b",
            (rf"\b(?:de|en|in|of) (?-i:{word.title()})\b",),
        )
        for locale, words in SEASONS.items()
        for season, word in zip(SEASONS["en"], words, strict=True)
    ),
    # Carcassonne: the Spanish rules' "loseta" and "colocar un meeple"
    Term(K, "tile", "es", r"\blosetas?\b", (r"\bfichas?\b", r"\bbaldosas?\b")),
    Term(K, "tile", "it", r"\btessere?\b", (r"\btassell",)),
    Term(K, "feature", "es", r"\bzonas?\b", (r"\bdominios?\b", r"\breinos?\b")),
    Term(K, "feature", "it", r"\bzone?\b"),
    Term(K, "deploy", "en", r"\bdeploy"),
    Term(K, "deploy", "es", r"\bcoloca", (r"\bdespleg",)),
    Term(K, "deploy", "it", r"\bpiazza", (r"\bschier",)),
    # tournaments: a round is not a game's turn
    Term(T, "round", "en", r"\brounds?\b"),
    Term(T, "round", "es", r"\brondas?\b", (r"\bturnos?\b",)),
    Term(T, "round", "it", r"\bround\b", (r"\bturn[oi]\b",)),
]


@pytest.mark.parametrize(
    "term", GLOSSARY, ids=lambda term: f"{term.game}-{term.locale}-{term.concept}"
)
def test_every_catalogue_uses_the_glossarys_word(term: Term) -> None:
    said = {key: text for key, text in messages(term.game, term.locale).items() if text.strip()}
    assert any(re.search(term.word, text) for text in said.values()), term.word
    wrong = {
        key: found.group(0)
        for key, text in said.items()
        if not key.removeprefix("bot:").startswith(NAMES_KEYS)
        for pattern in term.wrong
        if (found := re.search(pattern, text, re.IGNORECASE))
    }
    assert wrong == {}


def test_the_glossary_covers_every_language_of_each_concept_it_names() -> None:
    concepts = {(term.game, term.concept) for term in GLOSSARY if term.locale != "en"}
    for game, concept in concepts:
        locales = {term.locale for term in GLOSSARY if (term.game, term.concept) == (game, concept)}
        assert {"es", "it"} <= locales, (game, concept)
