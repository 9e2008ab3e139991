"""Makes each game's palette (``<game>.txt`` in this folder): the fixed colours its pictures
are saved with (:class:`engine.drawing.Palette`). Not part of the package: run it by hand
when a game's pictures change colours (``tests/engine/test_palettes.py`` fails then):

    python engine/palettes/make_palettes.py [--game charioteer]

A palette is first the colours kept exactly: every colour the game's picture modules name
(their module constants and the colours in their tables), then every colour that fills at
least :data:`FLAT_PIXELS` pixels of a sample picture (the shades the pictures work out,
such as a pattern's darker ink or a faction's planet). The rest of the 256 are the shades
that smooth the samples' text and edges, learnt from every other pixel of the samples
(Pillow's fast octree, each pixel counted, topped up with the commonest left out), none
of them one with a kept colour to Pillow's lookup (see :class:`~engine.drawing.Palette`).
The samples are pictures of seeded games drawn in every language, so making the palettes
again gives the same files.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from PIL import Image

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from engine.drawing import (  # noqa: E402
    PALETTE_COLOURS,
    RGB,
    Palette,
    keeping_drawings,
    lookup_key,
)

FLAT_PIXELS = 2000
"""A colour filling this many pixels of one sample picture is a flat colour, kept exactly."""
LOCALES = ("en", "es", "it")
NAMES = ("Bartholomew the Great", "Zoë", "xX_Slayer_Xx", "🦊 Fox", "محمد", "山田太郎")


def named_colours(modules: Iterable[ModuleType]) -> list[RGB]:
    """The colours the modules name: their constants that are colours, and the colours in
    their tables, in the order first met."""
    found: dict[RGB, None] = {}

    def visit(value: Any) -> None:
        if _is_colour(value):
            found[value] = None
        elif isinstance(value, dict):
            for item in value.values():
                visit(item)

    for module in modules:
        for name, value in vars(module).items():
            if name.isupper():
                visit(value)
    return list(found)


def _is_colour(value: Any) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 3
        and all(isinstance(channel, int) and 0 <= channel <= 255 for channel in value)
    )


def make(named: list[RGB], samples: Callable[[], None]) -> Palette:
    """The palette of a game whose pictures name ``named`` and whose sample pictures
    ``samples`` draws (see the module docstring)."""
    with keeping_drawings() as drawings:
        samples()
    counts: Counter[RGB] = Counter()
    exact: dict[RGB, None] = dict.fromkeys(named)
    for drawing in drawings:
        for count, colour in _colours(drawing):
            counts[colour] += count
            if count >= FLAT_PIXELS:
                exact[colour] = None
    kept = list(exact)
    if len(kept) > PALETTE_COLOURS:
        raise SystemExit(f"{len(kept)} colours to keep exactly: more than {PALETTE_COLOURS}")
    try:
        Palette(kept)
    except ValueError as error:
        raise SystemExit(f"the colours to keep clash: {error}") from None
    taken = {lookup_key(colour) for colour in kept}
    rest = Counter(
        {colour: count for colour, count in counts.items() if lookup_key(colour) not in taken}
    )
    return Palette(kept + _shades(rest, PALETTE_COLOURS - len(kept), taken))


def _shades(counts: Counter[RGB], wanted: int, taken: set[RGB]) -> list[RGB]:
    """At most ``wanted`` colours standing for ``counts`` (each colour counted as often
    as it was seen), none of them one of ``taken`` to the lookup: all of them when they
    are few enough, else the octree's, topped up with the most common ones left out."""
    shades: dict[RGB, None] = {}
    if len(counts) > wanted:
        pixels = [colour for colour, count in counts.items() for _ in range(count)]
        quantised = _strip(pixels).quantize(
            wanted, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
        flat = quantised.getpalette() or []
        for _, index in sorted(quantised.getcolors(wanted) or []):
            assert isinstance(index, int)
            shades[(flat[3 * index], flat[3 * index + 1], flat[3 * index + 2])] = None
    chosen: dict[RGB, None] = {}
    for colour in [*shades, *(colour for colour, _ in counts.most_common())]:
        key = lookup_key(colour)
        if len(chosen) < wanted and key not in taken:
            taken.add(key)
            chosen[colour] = None
    return list(chosen)


def _colours(drawing: Image.Image) -> list[tuple[int, RGB]]:
    """How many pixels of ``drawing`` (RGB) have each colour."""
    found = []
    for count, colour in drawing.getcolors(drawing.width * drawing.height) or []:
        assert isinstance(colour, tuple)
        red, green, blue = colour
        found.append((count, (int(red), int(green), int(blue))))
    return found


def _strip(colours: list[RGB]) -> Image.Image:
    strip = Image.new("RGB", (len(colours), 1))
    strip.putdata(colours)
    return strip


# --------------------------------------------------------------------------- samples


def _names(seats: Iterable[str]) -> dict[str, str]:
    return {seat: NAMES[number % len(NAMES)] for number, seat in enumerate(seats)}


def charioteer() -> tuple[list[ModuleType], Callable[[], None]]:
    from engine.charioteer import Race
    from engine.charioteer.render import common, image
    from engine.core import Rng

    def samples() -> None:
        for seed in range(3):
            race = Race.new(seats=6, seed=seed)
            rng = Rng(seed, 2)
            turn = 0
            while not race.is_over:
                if turn % 4 == 0:
                    locale = LOCALES[turn // 4 % len(LOCALES)]
                    image.board_png(race.view(), names=_names(race.seats), locale=locale)
                for seat in race.seats:
                    moves = race.legal_moves(seat, discards=False)
                    sample = [moves[rng.below(len(moves))] for _ in range(6)]
                    seen = race.view(seat)
                    race.commit(seat, max(sample, key=lambda m: seen.analyse(m).card_distance))
                turn += 1
            for locale in LOCALES:
                image.board_png(race.view(), locale=locale)

    return [common, image], samples


def cartographers() -> tuple[list[ModuleType], Callable[[], None]]:
    from engine.cartographers import Expedition, render
    from engine.cartographers.ai import policy_for
    from engine.cartographers.ai.base import action_for, legal_choices
    from engine.cartographers.components import AMBUSH_BY_ID, EXPLORE_BY_ID
    from engine.core import Rng

    def samples() -> None:
        policy = policy_for("greedy")
        for seed, seats in ((0, 4), (1, 12)):
            expedition = Expedition.new(seats=seats, seed=seed, side="B")
            names = _names(expedition.seats)
            turn = 0
            while not expedition.is_over:
                locale = LOCALES[turn % len(LOCALES)]
                first = expedition.waiting_for[0]
                view = expedition.view(first)
                choices = legal_choices(view)
                if choices and turn % 3 == 0:
                    render.seat_map_picture(
                        view, first, names=names, candidate=choices[0], lang=locale
                    )
                    render.seat_map_picture(
                        view, first, names=names, candidate=choices[-1], candidate_legal=False
                    )
                if turn % 7 == 0:
                    render.season_picture(view, names=names, lang=locale)
                for seat in expedition.waiting_for:
                    seen = expedition.view(seat)
                    rng = Rng(seed, turn * 64 + expedition.seats.index(seat))
                    expedition.game.act(action_for(seen, policy.choose(seen, rng)))
                turn += 1
            for locale in LOCALES:
                render.season_picture(expedition.view(), names=names, lang=locale)
        for number, card_id in enumerate([*EXPLORE_BY_ID, *AMBUSH_BY_ID]):
            render.card_picture(card_id, ruins=number % 2 == 1, lang=LOCALES[number % 3])

    return [render], samples


def carcassonne() -> tuple[list[ModuleType], Callable[[], None]]:
    from engine.carcassonne import Table, render
    from engine.carcassonne.ai import next_action, policy_for
    from engine.carcassonne.rules import deploy_targets, legal_placements
    from engine.carcassonne.state import Phase
    from engine.core import Rng

    def samples() -> None:
        policy = policy_for("random")
        for seed, seats, team in ((0, 5, False), (1, 4, True), (2, 2, False)):
            table = Table.new(seats=seats, seed=seed, team=team)
            names = _names(table.seats[1:])
            step = 0
            while not table.is_over:
                view = table.view(table.active)
                locale = LOCALES[step % len(LOCALES)]
                if step % 9 == 0 and view.phase is Phase.PLACE:
                    spots = [(p.x, p.y) for p in legal_placements(view.as_state())]
                    render.board_png(view, names=names, spots=spots, locale=locale)
                elif step % 9 == 1 and view.phase is Phase.DEPLOY:
                    targets = deploy_targets(view.as_state())
                    render.board_png(view, names=names, targets=targets, locale=locale)
                elif step % 9 == 5:
                    render.board_png(table.view(), names=names, locale=locale)
                step += 1
                table.act(next_action(policy, view, Rng(seed, step)))
            for locale in LOCALES:
                render.board_png(table.view(), names=names, locale=locale)

    return [render], samples


GAMES: dict[str, Callable[[], tuple[list[ModuleType], Callable[[], None]]]] = {
    "charioteer": charioteer,
    "cartographers": cartographers,
    "carcassonne": carcassonne,
}


def made(games: Iterable[str]) -> Iterator[tuple[str, Palette, int]]:
    for game in games:
        modules, samples = GAMES[game]()
        named = named_colours(modules)
        yield game, make(named, samples), len(named)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    args = parser.parse_args()
    for game, palette, named in made(args.game or list(GAMES)):
        header = (
            f"# {game}: the colours its pictures are saved with, "
            f"made by engine/palettes/make_palettes.py\n"
        )
        (HERE / f"{game}.txt").write_text(header + palette.text(), encoding="utf-8")
        print(f"{game}: {len(palette.colours)} colours, {named} named")


if __name__ == "__main__":
    main()
