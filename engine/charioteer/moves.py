"""A seat's move as submitted (indices into its hand and tokens) and as revealed (faces),
with the JSON form of spec §10:

``{"symbol": "R5", "cards": [0, 1], "crowd": true, "token": 0, "wild": 1,
"discard": {"token": 1, "cards": [3]}}`` or ``{"reset": true, "cards": [2]}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.charioteer.components import Card, Symbol, Token
from engine.core import JSON, MalformedAction, MalformedPosition

MOVE_KEYS = frozenset({"symbol", "cards", "crowd", "token", "wild", "discard", "reset"})


@dataclass(frozen=True)
class Move:
    """A normal move (``symbol`` set) or a reset move (``symbol`` is ``None``)."""

    cards: tuple[int, ...]
    symbol: Symbol | None = None
    crowd: bool = False
    token: int | None = None
    wild: int | None = None
    discard_token: int | None = None
    discard_cards: tuple[int, ...] = ()

    @property
    def is_reset(self) -> bool:
        return self.symbol is None

    @classmethod
    def reset(
        cls,
        cards: tuple[int, ...],
        discard_token: int | None = None,
        discard_cards: tuple[int, ...] = (),
    ) -> Move:
        return cls(
            tuple(cards), None, discard_token=discard_token, discard_cards=tuple(discard_cards)
        )

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {}
        if self.symbol is None:
            out["reset"] = True
        else:
            out["symbol"] = str(self.symbol)
        out["cards"] = list(self.cards)
        if self.crowd:
            out["crowd"] = True
        if self.token is not None:
            out["token"] = self.token
        if self.wild is not None:
            out["wild"] = self.wild
        if self.discard_token is not None or self.discard_cards:
            out["discard"] = {"token": self.discard_token, "cards": list(self.discard_cards)}
        return out

    @classmethod
    def from_json(cls, obj: JSON, *, seat: str | None = None) -> Move:
        """Read a move. Raises :class:`MalformedAction` naming ``seat`` and the problem."""

        def fail(reason: str) -> MalformedAction:
            return MalformedAction(reason, seat=seat)

        if not isinstance(obj, Mapping):
            raise fail("a move must be a JSON object")
        unknown = set(obj) - MOVE_KEYS
        if unknown:
            raise fail(f"unknown move keys: {', '.join(sorted(unknown))}")

        def index(value: JSON, what: str) -> int:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise fail(f"{what} must be an index (0, 1, 2, …), not {value!r}")
            return value

        def indices(value: JSON, what: str) -> tuple[int, ...]:
            if not isinstance(value, list):
                raise fail(f"{what} must be a list of indices")
            return tuple(index(item, what) for item in value)

        if "cards" not in obj:
            raise fail("a move needs 'cards'")
        cards = indices(obj["cards"], "cards")
        discard_token: int | None = None
        discard_cards: tuple[int, ...] = ()
        if "discard" in obj:
            discard = obj["discard"]
            if not isinstance(discard, Mapping) or set(discard) - {"token", "cards"}:
                raise fail('\'discard\' must be {"token": i, "cards": [...]}')
            if discard.get("token") is not None:
                discard_token = index(discard["token"], "the discard token")
            discard_cards = indices(discard.get("cards", []), "discarded cards")
        if "reset" in obj:
            if obj["reset"] is not True:
                raise fail("'reset' can only be true")
            extra = sorted({"symbol", "crowd", "token", "wild"} & set(obj))
            if extra:
                raise fail(f"a reset move takes no {', '.join(extra)}")
            return cls.reset(cards, discard_token, discard_cards)
        if "symbol" not in obj:
            raise fail("a move needs a 'symbol' (or \"reset\": true)")
        symbol_text = obj["symbol"]
        if not isinstance(symbol_text, str):
            raise fail("'symbol' must be text such as \"R5\"")
        try:
            symbol = Symbol.parse(symbol_text)
        except MalformedPosition as error:
            raise fail(error.reason) from None
        crowd = obj.get("crowd", False)
        if not isinstance(crowd, bool):
            raise fail("'crowd' must be true or false")
        token = None if obj.get("token") is None else index(obj["token"], "the token")
        wild = None if obj.get("wild") is None else index(obj["wild"], "the wild card")
        return cls(cards, symbol, crowd, token, wild, discard_token, discard_cards)


@dataclass(frozen=True)
class RevealedMove:
    """A move as everyone sees it once revealed: faces instead of indices.

    ``cards`` lists the hand cards played as they were printed; ``wild`` is the position in
    ``cards`` of the card the wild token transformed. Tokens appear as players see them
    (:meth:`Token.public`): whether a white token came from the fan bag is not shown.
    """

    symbol: Symbol | None
    cards: tuple[Card, ...]
    crowd: Card | None = None
    token: Token | None = None
    wild: int | None = None
    discard_token: Token | None = None
    discarded: tuple[Card, ...] = ()
    distance: int | None = None

    @property
    def is_reset(self) -> bool:
        return self.symbol is None

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {}
        if self.symbol is None:
            out["reset"] = True
        else:
            out["symbol"] = str(self.symbol)
        out["cards"] = [str(card) for card in self.cards]
        if self.crowd is not None:
            out["crowd"] = str(self.crowd)
        if self.token is not None:
            out["token"] = str(self.token)
        if self.wild is not None:
            out["wild"] = self.wild
        if self.discard_token is not None:
            out["discard"] = {
                "token": str(self.discard_token),
                "cards": [str(card) for card in self.discarded],
            }
        if self.distance is not None:
            out["distance"] = self.distance
        return out

    @classmethod
    def from_json(cls, obj: JSON) -> RevealedMove:
        if not isinstance(obj, Mapping):
            raise MalformedPosition("a revealed move must be an object")
        unknown = set(obj) - {
            "reset",
            "symbol",
            "cards",
            "crowd",
            "token",
            "wild",
            "discard",
            "distance",
        }
        if unknown:
            raise MalformedPosition(f"unknown revealed-move keys: {', '.join(sorted(unknown))}")
        symbol = None if obj.get("reset") else Symbol.parse(str(obj.get("symbol")))
        cards = obj.get("cards", [])
        if not isinstance(cards, list):
            raise MalformedPosition("a revealed move's cards must be a list")
        discard = obj.get("discard")
        discard_token = None
        discarded: tuple[Card, ...] = ()
        if discard is not None:
            if not isinstance(discard, Mapping):
                raise MalformedPosition("a revealed move's discard must be an object")
            token_text = discard.get("token")
            cards_text = discard.get("cards", [])
            if not isinstance(token_text, str):
                raise MalformedPosition("a revealed move's discard names its token")
            if not isinstance(cards_text, list) or not all(isinstance(c, str) for c in cards_text):
                raise MalformedPosition("a revealed move's discarded cards must be a list of cards")
            discard_token = Token.parse(token_text)
            discarded = tuple(Card.parse(card) for card in cards_text)
        wild = obj.get("wild")
        distance = obj.get("distance")
        if wild is not None and not isinstance(wild, int):
            raise MalformedPosition("a revealed move's wild must be an index")
        if distance is not None and not isinstance(distance, int):
            raise MalformedPosition("a revealed move's distance must be an integer")
        return cls(
            symbol,
            tuple(Card.parse(card) for card in cards),
            Card.parse(obj["crowd"]) if obj.get("crowd") is not None else None,
            Token.parse(obj["token"]) if obj.get("token") is not None else None,
            wild,
            discard_token,
            discarded,
            distance,
        )
