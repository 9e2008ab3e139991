"""Makes the bundled fonts of this folder from the fonts they are cut from (README.md says
which, and why these). Not part of the package: run it by hand when a font changes.

    apt-get install fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-droid-fallback
    pip install fonttools
    pip download --no-deps manimgx-fonts==2026.9.26.post1   # Noto Emoji (unzip the wheel)
    python engine/fonts/make_fonts.py --emoji 'manimgx_fonts/NotoEmoji[wght].ttf'

Every subset but DejaVu Sans keeps the shaping tables (``pyftsubset``'s default layout
features, what libraqm needs to join Arabic and shape Devanagari and Thai), drops
hinting (pictures are drawn at twice a phone's pixels and reduced) and draws its
``.notdef`` as a box, so a character no bundled font has shows as a box, never as nothing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
NOTO = Path("/usr/share/fonts/truetype/noto")
NOTO_CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
NOTO_CJK_KR = 1
"""Noto Sans CJK KR's place in the collection."""
DROID = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")

MADE_ON = "1795737600"
"""The date (27 November 2026, seconds since 1970) a font this script instances says it was
made on, so that making the fonts again gives the same bytes."""

Ranges = tuple[tuple[int, int], ...]

LATIN_GREEK_CYRILLIC: Ranges = (
    (0x0020, 0x007E),  # Basic Latin
    (0x00A0, 0x036F),  # Latin-1, Latin Extended-A and -B, IPA, modifiers, combining marks
    (0x0370, 0x052F),  # Greek and Coptic, Cyrillic, Cyrillic Supplement
    (0x0530, 0x058F),  # Armenian
    (0x10A0, 0x10FF),  # Georgian
    (0x1D00, 0x1DBF),  # Phonetic Extensions (small capitals)
    (0x1E00, 0x1FFF),  # Latin Extended Additional (Vietnamese), Greek Extended
    (0x2000, 0x2BFF),  # punctuation, letterlike, arrows, maths, shapes, symbols, dingbats
    (0x2C60, 0x2C7F),  # Latin Extended-C
    (0x2DE0, 0x2DFF),  # Cyrillic Extended-A
    (0xA640, 0xA69F),  # Cyrillic Extended-B
    (0xA720, 0xA7FF),  # Latin Extended-D
    (0xFB00, 0xFB06),  # Latin ligatures
    (0xFE20, 0xFE2F),  # combining half marks
    (0xFFFC, 0xFFFD),  # replacement characters
)
"""What DejaVu Sans draws: every script written left to right without shaping that it
covers, and the symbols."""

LATIN_FEATURES = "--layout-features=kern,liga"
"""DejaVu Sans keeps kerning and ligatures only: its scripts need no shaping (text is
composed before it is drawn), and its mark tables made every line twice as slow to lay
out."""

JOINERS: Ranges = ((0x200C, 0x200D), (0x25CC, 0x25CC))
"""Zero-width (non-)joiners and the dotted circle that shaping shows a lone mark on."""

HEBREW: Ranges = ((0x0590, 0x05FF), (0xFB1D, 0xFB4F), *JOINERS)
ARABIC: Ranges = (
    (0x0600, 0x06FF),
    (0x0750, 0x077F),
    (0x08A0, 0x08FF),
    (0xFB50, 0xFDFF),
    (0xFE70, 0xFEFF),
    *JOINERS,
)
DEVANAGARI: Ranges = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x1CD0, 0x1CFF), *JOINERS)
THAI: Ranges = ((0x0E00, 0x0E7F), *JOINERS)
MATH_LETTERS: Ranges = ((0x1D400, 0x1D7FF),)
"""Mathematical alphanumerics: the bold, script and double-struck letters of fancy names."""
EMOJI: Ranges = (
    (0x00A9, 0x00AE),  # copyright, registered
    (0x2000, 0x2BFF),  # punctuation and symbols with an emoji form
    (0x3000, 0x33FF),  # the wavy dash and the circled ideographs
    (0xFE00, 0xFE0F),  # variation selectors
    (0x1F000, 0x1FAFF),  # the emoji blocks
    (0xE0020, 0xE007F),  # tags (subdivision flags)
)
"""Everything Noto Emoji has beyond Basic Latin (a keycap's digit is DejaVu's)."""
CJK_COMMON: Ranges = (
    (0x3000, 0x303F),  # CJK punctuation
    (0x3040, 0x30FF),  # hiragana, katakana
    (0x31F0, 0x31FF),  # katakana extensions
    (0xFF00, 0xFFEF),  # full-width forms
)


def decoded(codec: str, leads: Iterable[int], trails: Iterable[int]) -> set[int]:
    """The characters a double-byte legacy encoding puts at ``leads`` × ``trails``."""
    found = set()
    trail_bytes = list(trails)
    for lead in leads:
        for trail in trail_bytes:
            try:
                character = bytes([lead, trail]).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(character) == 1:
                found.add(ord(character))
    return found


def han_characters() -> set[int]:
    """The Chinese characters of names: GB 2312 (all 6,763 hanzi of mainland names), Big5's
    5,401 common characters (Taiwan, Hong Kong), JIS X 0208 (6,355 kanji), read from
    Python's own codecs."""
    gb2312 = decoded("gb2312", range(0xB0, 0xF8), range(0xA1, 0xFF))
    big5 = decoded("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *range(0xA1, 0xFF)])
    jis = decoded("euc_jp", range(0xB0, 0xF5), range(0xA1, 0xFF))
    return {c for c in gb2312 | big5 | jis if 0x4E00 <= c <= 0x9FFF}


def hangul_syllables() -> set[int]:
    """KS X 1001's 2,350 hangul syllables (nearly every Korean name) and the jamo."""
    return decoded("euc_kr", range(0xB0, 0xC9), range(0xA1, 0xFF)) | set(range(0x3131, 0x318F))


def expand(ranges: Ranges) -> set[int]:
    return {c for low, high in ranges for c in range(low, high + 1)}


def subset(source: Path, output: str, characters: set[int], *extra: str) -> None:
    unicodes = ",".join(f"{c:X}" for c in sorted(characters))
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as listing:
        listing.write(unicodes)
        listing.flush()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "fontTools.subset",
                str(source),
                f"--output-file={HERE / output}",
                f"--unicodes-file={listing.name}",
                "--no-hinting",
                "--desubroutinize",
                "--notdef-outline",
                "--name-IDs=*",
                *extra,
            ],
            check=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--emoji", type=Path, required=True, help="NotoEmoji[wght].ttf")
    emoji_source = parser.parse_args().emoji

    for weight in ("", "-Bold"):
        subset(
            DEJAVU / f"DejaVuSans{weight}.ttf",
            f"DejaVuSans{weight}.ttf",
            expand(LATIN_GREEK_CYRILLIC),
            LATIN_FEATURES,
        )
        style = "-Bold" if weight else "-Regular"
        for script, ranges in (
            ("Hebrew", HEBREW),
            ("Arabic", ARABIC),
            ("Devanagari", DEVANAGARI),
            ("Thai", THAI),
        ):
            name = f"NotoSans{script}{style}.ttf"
            subset(NOTO / name, name, expand(ranges))
    subset(DROID, "DroidSansFallback-Han.ttf", han_characters() | expand(CJK_COMMON))
    subset(
        NOTO_CJK,
        "NotoSansCJKkr-Hangul.otf",
        hangul_syllables(),
        f"--font-number={NOTO_CJK_KR}",
    )
    subset(NOTO / "NotoSansMath-Regular.ttf", "NotoSansMath-Letters.ttf", expand(MATH_LETTERS))
    with tempfile.TemporaryDirectory() as folder:
        regular = Path(folder) / "NotoEmoji-Regular.ttf"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "fontTools.varLib.instancer",
                str(emoji_source),
                "wght=400",
                "--static",
                f"--output={regular}",
            ],
            check=True,
            env={**os.environ, "SOURCE_DATE_EPOCH": MADE_ON},
        )
        subset(regular, "NotoEmoji-Regular.ttf", expand(EMOJI))


if __name__ == "__main__":
    main()
