"""The engines' command lines, shared by every game: JSON read from a file or standard
input with a readable refusal, one JSON object printed, files written, and the argument
parser, its ``--locale`` option and the ``main`` loop that turn every refusal into
``{"error": "…"}`` and exit status 2.

A game's ``cli`` module builds its parser with :class:`CommandParser`, gives each command
a ``run(args, out) -> int``, and calls :func:`run_command`. What any command reads passes
:func:`parse_json`, which refuses what no real position holds: bytes that are not UTF-8,
``NaN``, numbers beyond 64 bits, nesting deeper than :data:`MAX_DEPTH`, lone surrogates.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import NoReturn, TextIO

from engine.core import JSON, EngineError, MalformedPosition
from engine.i18n import UnknownLocale, supported_locale

EXIT_INPUT_ERROR = 2
MAX_DEPTH = 32
"""No position nests deeper than a handful of levels; 32 leaves room for any game."""
MAX_MAGNITUDE = 2**63 - 1
"""The largest whole number any position holds (a seed; SQLite's integer)."""
MAX_INPUT_BYTES = 32 * 1024 * 1024


class CommandLineError(EngineError):
    """The command line itself is wrong: an unknown option, a value of the wrong form."""


class CommandParser(argparse.ArgumentParser):
    """``argparse`` that raises :class:`CommandLineError` instead of printing usage to
    stderr and exiting, so a wrong option is refused like any other input."""

    def error(self, message: str) -> NoReturn:
        raise CommandLineError(f"{self.prog}: {message}")


def parse_whole_number(text: str, low: int, high: int = MAX_MAGNITUDE) -> int:
    """A whole number written in ASCII digits (``٥`` and ``²`` are not digits here), from
    ``low`` to ``high``, or a :class:`CommandLineError`."""
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 19:
        raise CommandLineError(f"{text!r} is not a whole number")
    value = int(text)
    if not low <= value <= high:
        raise CommandLineError(f"{value} is not from {low} to {high}")
    return value


def whole_number(low: int, high: int = MAX_MAGNITUDE) -> Callable[[str], int]:
    """An argument type for :func:`parse_whole_number`."""

    def parse(text: str) -> int:
        try:
            return parse_whole_number(text, low, high)
        except CommandLineError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


def locale_option(locales: Sequence[str]) -> Callable[[str], str]:
    """An argument type for a ``--locale`` option: one of ``locales`` (``es-ES`` reads as
    ``es``), or a refusal naming them."""

    def parse(text: str) -> str:
        try:
            return supported_locale(text, locales)
        except UnknownLocale as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


def add_locale(parser: argparse.ArgumentParser, locales: Sequence[str]) -> None:
    """A command's ``--locale`` option: the language of its text, English unless told."""
    parser.add_argument(
        "--locale",
        type=locale_option(locales),
        default="en",
        help=f"language of the text: {', '.join(locales)} (default en)",
    )


def _check_value(value: JSON, where: str) -> None:
    """Walk a parsed document without recursion, refusing what no position holds."""
    stack: list[tuple[JSON, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise MalformedPosition(f"{where} nests deeper than {MAX_DEPTH} levels")
        if isinstance(item, str):
            _check_text(item, where)
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):
            if abs(item) > MAX_MAGNITUDE:
                raise MalformedPosition(f"{where} holds a number too large for any game")
        elif isinstance(item, float):
            if not math.isfinite(item) or abs(item) > MAX_MAGNITUDE:
                raise MalformedPosition(f"{where} holds a number too large for any game")
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, dict):
            for key, child in item.items():
                _check_text(key, where)
                stack.append((child, depth + 1))


def _check_text(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedPosition(f"{where} holds text that is not valid Unicode") from None


def _refuse_constant(name: str) -> JSON:
    raise MalformedPosition(f"{name} is not a number a position can hold")


def parse_json(data: bytes, where: str = "the input") -> JSON:
    """A JSON document from raw bytes, or a :class:`MalformedPosition` saying what is wrong."""
    if len(data) > MAX_INPUT_BYTES:
        raise MalformedPosition(f"{where} is larger than any position")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise MalformedPosition(
            f"{where} is not UTF-8 text (byte {error.start + 1} cannot be read)"
        ) from None
    try:
        document: JSON = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise MalformedPosition(
            f"{where} is not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except MalformedPosition:
        raise
    except RecursionError:
        raise MalformedPosition(f"{where} nests deeper than {MAX_DEPTH} levels") from None
    except ValueError:
        # Python refuses integer literals of thousands of digits before we can.
        raise MalformedPosition(f"{where} holds a number too large for any game") from None
    _check_value(document, where)
    return document


def read_json(path: str) -> JSON:
    """The JSON file at ``path`` (``-`` for standard input), checked by :func:`parse_json`."""
    if path == "-":
        return parse_json(sys.stdin.buffer.read(MAX_INPUT_BYTES + 1), "standard input")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise MalformedPosition(f"cannot read {path}: {error.strerror}") from None
    return parse_json(data, path)


def split_position(
    document: JSON, key: str, form: str
) -> tuple[dict[str, JSON], Mapping[str, JSON]]:
    """A file holding a position and, under ``key``, what to do to it (written as
    ``form``): the position without ``key``, and what ``key`` holds."""
    if not isinstance(document, Mapping):
        raise MalformedPosition("the file must hold a position object")
    extra = document.get(key)
    if not isinstance(extra, Mapping):
        raise MalformedPosition(f'the position needs "{key}": {form}')
    return {name: value for name, value in document.items() if name != key}, extra


def write_file(path: str, data: bytes) -> None:
    """Write ``data`` to ``path``; a missing folder or a folder in the way is refused."""
    try:
        with open(path, "wb") as handle:
            handle.write(data)
    except OSError as error:
        raise CommandLineError(f"cannot write {path}: {error.strerror}") from None


def dump(obj: JSON, out: TextIO, compact: bool = False) -> None:
    """Print one JSON object (non-ASCII text as it is, so names stay readable)."""
    out.write(json.dumps(obj, ensure_ascii=False, indent=None if compact else 2) + "\n")


def error_object(error: EngineError) -> dict[str, JSON]:
    """What a refusal prints: only ``{"error": reason}``, the reason naming the seat."""
    return {"error": str(error)}


def run_command(
    parser: argparse.ArgumentParser,
    argv: Sequence[str] | None,
    out: TextIO | None = None,
    *,
    refusal: Callable[[EngineError], dict[str, JSON]] = error_object,
) -> int:
    """Parse ``argv`` and run the chosen command's ``run(args, out)``; every refusal prints
    one line, ``{"error": …}`` (or what ``refusal`` makes of it, such as
    :meth:`~engine.core.EngineError.to_json` with its message id), on ``out`` and returns
    :data:`EXIT_INPUT_ERROR`."""
    stream = out if out is not None else sys.stdout
    try:
        args = parser.parse_args(argv)
        result: int = args.run(args, stream)
        return result
    except EngineError as error:
        dump(refusal(error), stream, compact=True)
        return EXIT_INPUT_ERROR
