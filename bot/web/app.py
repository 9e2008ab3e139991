"""The web server: ``python -m bot web`` serves every published server's page, read-only,
from the bot's own database (SQLite or PostgreSQL; several copies may run behind a proxy,
each keeps only caches).

Built on aiohttp's server (already installed with discord.py, asynchronous like the rest)
with Jinja2 templates (autoescaped). Pages render on the server and work without
JavaScript; two small scripts add live updates (a live game's page follows the stored
moves) and the replay player (play, and the slider without a reload).

What a page shows is only what is public (:mod:`bot.web.reads`: a published server,
tables and tournaments of its public channels, and ratings, leaderboards and players'
pages counting their games alone, :mod:`bot.web.public_ratings`; :mod:`bot.replays`: a
game's public steps, drawn and told from views for no seat). Every input is checked: the
slug, numbers and player tokens by their shape in the route, then against the database;
anything unknown is 404. No Discord id is written in a page or an address (players are
named, and reached by a token, :func:`bot.web.publish.player_token`). Every answer carries
a strict Content Security Policy and the other security headers, aiohttp's own answers to
requests it cannot read too (:mod:`bot.web.serving`), and ``robots.txt`` asks search
engines to keep out.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
import sys
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import jinja2
from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from markupsafe import Markup, escape

from bot.community.pictures import rating_chart
from bot.community.tournament import Format
from bot.config import EXIT_SETTINGS, EXIT_TEMPORARY, Settings, served_address
from bot.games import GAMES, broadcast_for, host_for
from bot.images import ImageProcess
from bot.replays import Step, public_steps, step_png, step_story
from bot.service import Table, game_record
from bot.startup import START_PAUSES, StartAbandoned, stop_signals, with_retries
from bot.storage import Storage, StorageError, StorageUnavailable
from bot.text import t
from bot.web.publish import TOKEN_PATTERN, WebPage, player_token
from bot.web.reads import ENDED, Reads
from bot.web.serving import Runner, secure

log = logging.getLogger(__name__)
T = TypeVar("T")

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
STATIC_TYPES = {".css": "text/css", ".js": "text/javascript"}
POLL_SECONDS = 5.0
"""How often a live game's page asks whether a move was stored."""
STEPS_KEPT = 64
"""Games whose public steps are kept in memory."""
PICTURES_KEPT = 512
LIVE_LOG = 10
"""The latest steps a live game's page tells."""
SLUG = r"{slug:[A-Za-z0-9_-]{22}}"
NUMBER = "[0-9]{1,12}"
QUERY_NUMBER = re.compile(r"[0-9]{1,6}")
ROBOTS = "User-agent: *\nDisallow: /\n"
HEALTH_SECONDS = 5.0
"""How long ``/healthz`` waits for the database."""
KEYS_IN_PATHS = re.compile(r"(/s/)[A-Za-z0-9_-]{22}|(/p/)[0-9a-f]{16}")
"""A server's slug and a player's token in an address: the keys to their pages."""
FOREVER = "public, max-age=31536000, immutable"
"""A picture of an ended game's step, or of a position by its seq, never changes."""
BOLD = re.compile(r"\*\*(.+?)\*\*")
CODE = re.compile(r"`([^`]+)`")


def rich(text: str) -> Markup:
    """A message as HTML: escaped, then its Discord bold and code marks as tags."""
    safe = str(escape(text))
    safe = BOLD.sub(r"<strong>\1</strong>", safe)
    return Markup(CODE.sub(r"<code>\1</code>", safe))


def duration(seconds: float, lang: str) -> str:
    """How long, roughly: ``3 d 4 h``, ``2 h 5 min``, ``4 min``."""
    minutes = max(0, int(seconds // 60))
    days, hours, minutes = minutes // 1440, minutes // 60 % 24, minutes % 60
    if days:
        return t(lang, "web.days_hours", days=days, hours=hours)
    if hours:
        return t(lang, "web.hours_minutes", hours=hours, minutes=minutes)
    return t(lang, "web.minutes", minutes=max(1, minutes))


def query_number(request: web.Request, name: str, default: int) -> int:
    """A whole number from the query (``?page=2``); anything else is not found."""
    text = request.query.get(name)
    if text is None:
        return default
    if not QUERY_NUMBER.fullmatch(text):
        raise web.HTTPNotFound()
    return int(text)


@dataclass(frozen=True)
class Context:
    """A request to a server's page: the page and its language."""

    page: WebPage
    lang: str

    @property
    def root(self) -> str:
        return f"/s/{self.page.slug}"


class Site:
    """The site over one database; :meth:`application` is the aiohttp app."""

    def __init__(
        self,
        storage: Storage,
        *,
        images: ImageProcess | None = None,
        poll_seconds: float = POLL_SECONDS,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.storage = storage
        self.reads = Reads(storage)
        self.poll_seconds = poll_seconds
        self.now = now
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="circus-web")
        self.images = images or ImageProcess(self._in_thread)
        self._steps: OrderedDict[tuple[int, int], list[Step]] = OrderedDict()
        self._stories: OrderedDict[tuple[Any, ...], list[tuple[Step, list[Markup]]]] = OrderedDict()
        self._pictures: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self._pending: dict[tuple[Any, ...], asyncio.Future[Any]] = {}
        self.templates = jinja2.Environment(
            loader=jinja2.FileSystemLoader(HERE / "templates"),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.templates.filters["rich"] = rich
        self._static = {
            path.name: (path.read_bytes(), STATIC_TYPES[path.suffix])
            for path in sorted(STATIC.iterdir())
            if path.suffix in STATIC_TYPES
        }

    async def _in_thread(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        call = functools.partial(function, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._thread, call)

    def close(self) -> None:
        self.images.close()
        self._thread.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ the app

    def application(self) -> web.Application:
        app = web.Application(middlewares=[self._errors])
        app.on_response_prepare.append(secure)
        routes = [
            ("/", self.index),
            ("/robots.txt", self.robots),
            ("/healthz", self.health),
            (f"/s/{SLUG}", self.server),
            (f"/s/{SLUG}/games", self.games),
            (f"/s/{SLUG}/g/{{table:{NUMBER}}}", self.game),
            (f"/s/{SLUG}/g/{{table:{NUMBER}}}/live.json", self.live),
            (f"/s/{SLUG}/g/{{table:{NUMBER}}}/board/{{seq:{NUMBER}}}.png", self.board_picture),
            (f"/s/{SLUG}/g/{{table:{NUMBER}}}/replay", self.replay),
            (f"/s/{SLUG}/g/{{table:{NUMBER}}}/steps.json", self.steps_json),
            (f"/s/{SLUG}/g/{{table:{NUMBER}}}/step/{{step:{NUMBER}}}.png", self.step_picture),
            (f"/s/{SLUG}/leaderboard/{{game:[a-z]{{1,20}}}}", self.leaderboard),
            (f"/s/{SLUG}/p/{{token:[0-9a-f]{{16}}}}", self.profile),
            (f"/s/{SLUG}/p/{{token:[0-9a-f]{{16}}}}/{{game:[a-z]{{1,20}}}}.png", self.chart),
            (f"/s/{SLUG}/t/{{tournament:{NUMBER}}}", self.tournament),
        ]
        for path, handler in routes:
            app.router.add_get(path, handler)
        app.router.add_get("/static/{name:[a-z]{1,20}[.](?:css|js)}", self.static)
        app.on_cleanup.append(self._cleanup)
        return app

    async def _cleanup(self, app: web.Application) -> None:
        self.close()

    @web.middleware
    async def _errors(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Not found is a page in words; an error of ours is logged, never shown."""
        try:
            return await handler(request)
        except web.HTTPNotFound:
            return self._render("not_found.html", status=404, lang="en")
        except web.HTTPException:
            raise
        except Exception:
            log.exception("the page %s failed", request.path)
            return self._render("error.html", status=500, lang="en")

    def _render(
        self, template_name: str, *, status: int = 200, lang: str, **context: Any
    ) -> web.Response:
        template = self.templates.get_template(template_name)
        body = template.render(_=functools.partial(t, lang), lang=lang, games=GAMES, **context)
        response = web.Response(text=body, content_type="text/html", status=status)
        response.headers["Cache-Control"] = "no-cache"
        return response

    async def _context(self, request: web.Request) -> Context:
        page = await self.reads.page(request.match_info["slug"])
        if page is None:
            raise web.HTTPNotFound()
        return Context(page, await self.reads.language(page))

    async def _table(self, context: Context, request: web.Request) -> Table:
        table = await self.reads.table(context.page, int(request.match_info["table"]))
        if table is None:
            raise web.HTTPNotFound()
        return table

    # ------------------------------------------------------------------ cached work

    async def _once(self, key: tuple[Any, ...], make: Callable[[], Awaitable[T]]) -> T:
        """``make()``, shared by every request asking for ``key`` at the same time."""
        pending = self._pending.get(key)
        if pending is not None:
            result: T = await asyncio.shield(pending)
            return result
        future: asyncio.Future[Any] = asyncio.ensure_future(make())
        self._pending[key] = future
        try:
            return await asyncio.shield(future)
        finally:
            if future.done():
                self._pending.pop(key, None)

    async def steps(self, table: Table) -> list[Step]:
        """The table's public steps as stored now (kept until the table moves on)."""
        key = (table.id, table.row.seq)
        kept = self._steps.get(key)
        if kept is not None:
            self._steps.move_to_end(key)
            return kept

        async def make() -> list[Step]:
            record = game_record(table, await self.reads.actions(table))
            return await self._in_thread(public_steps, table.game, record)

        steps = await self._once(("steps", *key), make)
        self._steps[key] = steps
        while len(self._steps) > STEPS_KEPT:
            self._steps.popitem(last=False)
        return steps

    async def _told(self, table: Table, lang: str) -> list[tuple[Step, list[Markup]]]:
        """Every public step of the table with its story (kept while the table stands)."""
        key = (table.id, table.row.seq, lang, tuple(sorted(table.names.items())))
        kept = self._stories.get(key)
        if kept is None:
            kept = [
                (step, [rich(line) for line in step_story(table.game, step, table.names, lang)])
                for step in (await self.steps(table))[1:]
            ]
            self._stories[key] = kept
            while len(self._stories) > STEPS_KEPT:
                self._stories.popitem(last=False)
        self._stories.move_to_end(key)
        return kept

    async def _picture(self, key: tuple[Any, ...], draw: Callable[..., bytes], *args: Any) -> bytes:
        kept = self._pictures.get(key)
        if kept is not None:
            self._pictures.move_to_end(key)
            return kept

        async def make() -> bytes:
            return await self.images.run(draw, *args)

        png = await self._once(("picture", *key), make)
        self._pictures[key] = png
        while len(self._pictures) > PICTURES_KEPT:
            self._pictures.popitem(last=False)
        return png

    def _png(self, png: bytes, cache: str) -> web.Response:
        response = web.Response(body=png, content_type="image/png")
        response.headers["Cache-Control"] = cache
        return response

    # ------------------------------------------------------------------ pages

    async def index(self, request: web.Request) -> web.Response:
        return self._render("index.html", lang="en")

    async def static(self, request: web.Request) -> web.Response:
        """The style sheet and the two scripts, kept in memory."""
        found = self._static.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        body, content_type = found
        response = web.Response(body=body, content_type=content_type)
        response.headers["Cache-Control"] = "public, max-age=3600"
        return response

    async def robots(self, request: web.Request) -> web.Response:
        return web.Response(text=ROBOTS, content_type="text/plain")

    async def health(self, request: web.Request) -> web.Response:
        """Well when the database answers a query within :data:`HEALTH_SECONDS` (for a
        health check: ``python -m bot health web``)."""
        try:
            await asyncio.wait_for(self.storage.read("SELECT 1"), HEALTH_SECONDS)
        except Exception as error:  # any failure is the answer: not well
            log.warning("health check: the database did not answer (%s)", error or type(error))
            response = web.Response(text="database not answering\n", status=503)
        else:
            response = web.Response(text="ok\n")
        response.headers["Cache-Control"] = "no-store"
        return response

    async def server(self, request: web.Request) -> web.Response:
        context = await self._context(request)
        live = await self.reads.live_tables(context.page)
        ended, _, pages = await self.reads.ended_tables(context.page, 1)
        return self._render(
            "server.html",
            lang=context.lang,
            c=context,
            live=[self._live_card(context, table) for table in live],
            ended=ended,
            more=pages > 1,
            tournaments=await self.reads.tournaments(context.page),
        )

    async def games(self, request: web.Request) -> web.Response:
        context = await self._context(request)
        number = query_number(request, "page", 1)
        ended, number, pages = await self.reads.ended_tables(context.page, number)
        return self._render(
            "games.html", lang=context.lang, c=context, ended=ended, number=number, pages=pages
        )

    def _live_card(self, context: Context, table: Table) -> dict[str, Any]:
        """What a running game's card and page say of it now: whose move, time left."""
        names = table.names
        waiting = [names.get(seat, seat) for seat in table.waiting]
        deadline = table.row.deadline
        left = None if deadline is None else duration(deadline - self.now(), context.lang)
        return {
            "table": table,
            "waiting": ", ".join(waiting),
            "left": left,
            "picture": f"{context.root}/g/{table.id}/board/{table.row.seq}.png",
        }

    async def game(self, request: web.Request) -> web.Response:
        context = await self._context(request)
        table = await self._table(context, request)
        told = await self._told(table, context.lang)
        ended = table.status in ENDED
        view = public_view(table)
        summary = broadcast_for(table.game).summary(view, table.names, context.lang)
        return self._render(
            "game.html",
            lang=context.lang,
            c=context,
            table=table,
            ended=ended,
            card=None if ended else self._live_card(context, table),
            summary=[rich(line) for line in summary],
            log=told if ended else list(reversed(told))[:LIVE_LOG],
            results=await self.storage.results(table.id) if ended else [],
            poll_ms=int(self.poll_seconds * 1000),
        )

    async def live(self, request: web.Request) -> web.Response:
        context = await self._context(request)
        table = await self._table(context, request)
        response = web.json_response({"seq": table.row.seq, "status": table.status})
        response.headers["Cache-Control"] = "no-store"
        return response

    async def board_picture(self, request: web.Request) -> web.Response:
        """The position after action ``seq``, while it is the table's latest."""
        context = await self._context(request)
        table = await self._table(context, request)
        seq = int(request.match_info["seq"])
        if seq != table.row.seq:
            raise web.HTTPNotFound()
        view = public_view(table)
        key = ("board", table.id, seq, context.lang, tuple(sorted(table.names.items())))
        png = await self._picture(key, step_png, table.game, view, table.names, context.lang)
        return self._png(png, "public, max-age=60")

    async def _ended(self, request: web.Request) -> tuple[Context, Table, list[Step]]:
        context = await self._context(request)
        table = await self._table(context, request)
        if table.status not in ENDED:
            raise web.HTTPNotFound()
        return context, table, await self.steps(table)

    def _step_json(self, context: Context, table: Table, step: Step, count: int) -> dict[str, Any]:
        story = step_story(table.game, step, table.names, context.lang)
        summary = broadcast_for(table.game).summary(step.view, table.names, context.lang)
        return {
            "number": step.number,
            "title": self._step_title(context, step, count),
            "story": "".join(f"<p>{rich(line)}</p>" for line in story)
            or f"<p>{escape(t(context.lang, 'web.start'))}</p>",
            "summary": "".join(f"<p>{rich(line)}</p>" for line in summary),
            "picture": f"{context.root}/g/{table.id}/step/{step.number}.png",
        }

    def _step_title(self, context: Context, step: Step, count: int) -> str:
        return t(context.lang, "web.step", step=step.number, steps=count - 1, turn=step.turn)

    async def replay(self, request: web.Request) -> web.Response:
        context, table, steps = await self._ended(request)
        number = query_number(request, "step", 0)
        if number >= len(steps):
            raise web.HTTPNotFound()
        return self._render(
            "replay.html",
            lang=context.lang,
            c=context,
            table=table,
            step=self._step_json(context, table, steps[number], len(steps)),
            last=len(steps) - 1,
        )

    async def steps_json(self, request: web.Request) -> web.Response:
        context, table, steps = await self._ended(request)
        body = [self._step_json(context, table, step, len(steps)) for step in steps]
        response = web.json_response(body)
        response.headers["Cache-Control"] = "public, max-age=300"
        return response

    async def step_picture(self, request: web.Request) -> web.Response:
        context, table, steps = await self._ended(request)
        number = int(request.match_info["step"])
        if number >= len(steps):
            raise web.HTTPNotFound()
        key = ("step", table.id, number, context.lang)
        view = steps[number].view
        png = await self._picture(key, step_png, table.game, view, table.names, context.lang)
        return self._png(png, FOREVER)

    async def leaderboard(self, request: web.Request) -> web.Response:
        context = await self._context(request)
        game = request.match_info["game"]
        if game not in GAMES:
            raise web.HTTPNotFound()
        number = query_number(request, "page", 1)
        board = (await self.reads.standings(context.page, game)).leaderboard(number, 20)
        secret = context.page.secret
        return self._render(
            "leaderboard.html",
            lang=context.lang,
            c=context,
            game=game,
            board=board,
            tokens={row.player: player_token(secret, row.player) for row in board.rows},
        )

    async def _player(self, request: web.Request) -> tuple[Context, str, str]:
        context = await self._context(request)
        token = request.match_info["token"]
        if not TOKEN_PATTERN.fullmatch(token):
            raise web.HTTPNotFound()
        found = await self.reads.player(context.page, token)
        if found is None:
            raise web.HTTPNotFound()
        return context, *found

    async def profile(self, request: web.Request) -> web.Response:
        context, player, name = await self._player(request)
        return self._render(
            "profile.html",
            lang=context.lang,
            c=context,
            name=name,
            token=request.match_info["token"],
            profiles=await self.reads.profiles(context.page, player),
        )

    async def chart(self, request: web.Request) -> web.Response:
        context, player, name = await self._player(request)
        game = request.match_info["game"]
        if game not in GAMES:
            raise web.HTTPNotFound()
        standings = await self.reads.standings(context.page, game)
        history = standings.history(player)
        if not history:
            raise web.HTTPNotFound()
        title = t(
            context.lang, "profile.chart_title", name=name, game=t(context.lang, f"game.{game}")
        )
        key = ("chart", context.page.guild_id, player, game, standings.counted, name, context.lang)
        png = await self._picture(key, chart_png, title, history)
        return self._png(png, "public, max-age=300")

    async def tournament(self, request: web.Request) -> web.Response:
        context = await self._context(request)
        found = await self.reads.tournament(context.page, int(request.match_info["tournament"]))
        if found is None:
            raise web.HTTPNotFound()
        record, games = found
        shown = await self.reads.public_table_ids(context.page, list(games.values()))
        state = record.state
        entrants = state.entrants
        secret = context.page.secret
        rounds = []
        for number, play in enumerate(state.rounds, start=1):
            tables = []
            for index, players in enumerate(play.pairing.tables):
                places = play.results.get(index, {})
                game_id = games.get((number, index))
                tables.append(
                    {
                        "players": [
                            (entrants[p].name, places.get(p))
                            for p in sorted(players, key=lambda p: places.get(p, len(players)))
                        ],
                        "game": game_id if game_id in shown else None,
                    }
                )
            byes = [entrants[p].name for p in play.pairing.byes]
            rounds.append({"number": number, "tables": tables, "byes": byes})
        champion = state.champion()
        return self._render(
            "tournament.html",
            lang=context.lang,
            c=context,
            record=record,
            standings=state.standings(),
            rounds=rounds,
            bracket=state.settings.format is not Format.SWISS,
            champion=entrants[champion].name if champion else None,
            tokens={
                p: player_token(secret, p)
                for p in await self.reads.rated(context.page, list(entrants))
            },
        )


def public_view(table: Table) -> Any:
    """The table's position as stored after its last action, as no seat sees it."""
    assert table.row.state is not None
    host = host_for(table.game)
    return host.view(host.ruleset.from_position(json.loads(table.row.state)), None)


def chart_png(title: str, history: Sequence[tuple[float, Any]]) -> bytes:
    """A player's rating chart as PNG bytes (for the picture workers)."""
    return rating_chart(title, history).png


def logged_path(path: str) -> str:
    """An address as the access log writes it: a server's and a player's keys hidden."""
    return KEYS_IN_PATHS.sub(lambda found: f"{found[1] or found[2]}…", path)


class AccessLog(AbstractAccessLogger):
    """One line per request (``WEB_ACCESS_LOG``): method, address with its keys hidden,
    status, bytes and time; health checks are not logged. No client address: behind a
    proxy it is the proxy's."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        if request.path == "/healthz":
            return
        self.logger.info(
            "%s %s %d %d B %.1f ms",
            request.method,
            logged_path(request.path_qs),
            response.status,
            response.body_length,
            time * 1000,
        )


def access_log(settings: Settings) -> dict[str, Any]:
    """How the server's runner logs requests: :class:`AccessLog` when asked for, else not."""
    if not settings.web_access_log:
        return {"access_log": None}
    return {"access_log_class": AccessLog, "access_log": logging.getLogger("bot.web.access")}


async def serve(
    settings: Settings,
    stop: asyncio.Event | None = None,
    *,
    pauses: Sequence[float] = START_PAUSES,
    on_serving: Callable[[str], None] | None = None,
) -> None:
    """Serve the pages at ``WEB_HOST``:``WEB_PORT`` until ``stop`` is set (by default: a
    stop signal, SIGTERM or SIGINT). A database that does not answer yet, or waits for
    the bot to migrate it, is tried again after each of ``pauses``. ``on_serving`` hears
    the address served once it listens (port 0: the one found free)."""
    opened: list[Storage] = []

    async def open_database() -> None:
        opened.append(await Storage.open_as_is(settings.database))

    await with_retries(open_database, _passing, pauses)
    [storage] = opened
    site = Site(storage)
    runner = Runner(site.application(), **access_log(settings))
    signals: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
    if stop is None:
        stop = asyncio.Event()
        signals = stop_signals(stop.set)
    try:
        with signals:
            await runner.setup()
            await web.TCPSite(runner, settings.web_host, settings.web_port).start()
            address = served_address(settings.web_host, runner.addresses[0][1])
            log.info("serving the web pages at %s (links: %s)", address, settings.web_base_url)
            if on_serving is not None:
                on_serving(address)
            await stop.wait()
        log.info("stopping the web pages")
    finally:
        await runner.cleanup()
        await storage.close()


def _passing(error: Exception) -> str | None:
    return str(error) if isinstance(error, StorageUnavailable) else None


def run(
    settings: Settings,
    *,
    pauses: Sequence[float] = START_PAUSES,
    on_serving: Callable[[str], None] | None = None,
) -> int:
    """``python -m bot web``: exit status 0 after a stop signal, 2 when the database or
    the address cannot be used, 75 when the database still does not answer, or is older
    than this code's (the bot migrates it when it starts), after each of ``pauses``."""
    try:
        asyncio.run(serve(settings, pauses=pauses, on_serving=on_serving))
    except StartAbandoned:
        return 0
    except StorageUnavailable as error:
        print(f"circus: {error}", file=sys.stderr)
        return EXIT_TEMPORARY
    except StorageError as error:
        print(f"circus: {error}", file=sys.stderr)
        return EXIT_SETTINGS
    except OSError as error:
        print(
            f"circus: cannot serve the web pages at {settings.web_host}:{settings.web_port}"
            f" ({error.strerror or error})",
            file=sys.stderr,
        )
        return EXIT_SETTINGS
    return 0


__all__ = [
    "POLL_SECONDS",
    "AccessLog",
    "Site",
    "access_log",
    "chart_png",
    "duration",
    "logged_path",
    "rich",
    "run",
    "serve",
]
