"""JSON in and out for the engines' command lines: read a file (or standard input) with a
readable error, print an object pretty or compact."""

from __future__ import annotations

import json
import sys
from typing import TextIO

from engine.core import JSON, MalformedPosition


def read_json(path: str) -> JSON:
    """A JSON file (``-`` for standard input); unreadable input is a MalformedPosition."""
    try:
        if path == "-":
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        raise MalformedPosition(f"cannot read {path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise MalformedPosition(f"{path} is not JSON: {error.msg} at line {error.lineno}") from None


def dump(obj: JSON, out: TextIO, compact: bool = False) -> None:
    out.write(json.dumps(obj, ensure_ascii=False, indent=None if compact else 2) + "\n")
