"""A fault soak: races through the fake Discord while Discord fails and the bot is killed.

    python bench/soak.py [--races 200] [--parallel 20] [--fault-rate 0.05]
                         [--timeout-rate 0.005] [--kill-every 30] [--seed 1]
                         [--stall 300] [--time-limit SECONDS]

Prints JSON. A measurement, never a test.

The fake Discord (``tests/fakediscord``) runs in this process with one guild, a few text
channels and two members per race; the bot runs as a subprocess, exactly ``python -m bot``,
on a fresh SQLite file. ``--parallel`` races at a time, each between two simulated players
with no time limit (so only the players' moves and the bot's announcements move a race):
the host runs ``/race new``, the guest clicks **Join**, the host clicks **Start**; then on
every board each player opens the private panel, picks a legal move with its selects (as
``tests/e2e/players.py`` does) and clicks **Confirm**, until the podium.

**Faults.** A seeded ``--fault-rate`` of the bot's REST calls to channels, messages,
threads, DMs, interaction answers and follow-ups is answered 503, and a further
``--timeout-rate`` is held a second and then cut off unanswered (application and gateway
routes are spared: their failures are about logging in, not about races). Every
``--kill-every`` seconds the bot is SIGKILLed and started again on the same database.
A player whose click goes unanswered (the bot was down, its answer was failed) tries
again, as a person would; a race whose board does not come for ``--stall`` seconds ends the
run as stalled; ``--time-limit`` stops the run there and reports the races still going.

**What is counted.** Races that reached their podium; accepted moves lost (a move whose
"Move confirmed" answer a player saw, with no stored action of that seat for that turn);
messages posted twice (a board or a reveal of the same race and turn, or a podium, more
than once); faults served by kind; and the time from a fault to recovery: for each failed
announcement post, until the same channel's next successful post; for each kill, until the
restarted bot's first successful post in a race thread.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.e2e.players import BOARD, custom_id, prepare_move
from tests.fakediscord.errors import RequestRecord
from tests.fakediscord.harness import run_bot
from tests.fakediscord.model import Channel, Message, User
from tests.fakediscord.rest import RandomFaults
from tests.fakediscord.server import FakeDiscord

FAULTY_ROUTES = ("/channels/", "/users/@me/channels", "/interactions/", "/webhooks/")
PODIUM = "is over"
CONFIRMED = "Move confirmed"
ALREADY_IN = "Your move is in"
POSTS = "/channels/{channel_id}/messages"
LOBBY = re.compile(r"\*\*Race #(\d+)\*\* ·")
REVEAL_LINE = re.compile(r"\*\*Race #(\d+) · turn (\d+) revealed\*\*")
PODIUM_LINE = re.compile(r"🏆 \*\*Race #(\d+) is over")


class Stalled(Exception):
    pass


@dataclass
class Soak:
    fake: FakeDiscord
    database: Path
    stall: float
    accepted: list[tuple[int, int, int]] = field(default_factory=list)
    """(race, user id, turn) of every move a player saw confirmed."""
    places: list[Channel] = field(default_factory=list)
    finished: int = 0
    retries: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    """Why players tried again: the most common kinds are reported."""
    kills: list[float] = field(default_factory=list)
    starts: list[float] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    async def answer(self, what: str, make: Any) -> Message | None:
        """One interaction and its reply; None (counted) when it failed or went unanswered."""
        try:
            interaction = await make()
            return await interaction.reply(timeout=15)  # type: ignore[no-any-return]
        except Exception as error:
            self.retries[what] += 1
            self.reasons[f"{what}: {type(error).__name__}: {str(error)[:70]}"] += 1
            await asyncio.sleep(random.uniform(0.5, 2.0))  # a person waits, then tries again
            return None

    async def until(self, found: Any, what: str) -> Any:
        deadline = time.monotonic() + self.stall
        while time.monotonic() < deadline:
            value = found()
            if value:
                return value
            try:
                await self.fake.wait_for(lambda: bool(found()), timeout=5, what=what)
            except TimeoutError:
                continue
        raise Stalled(what)

    async def race(self, channel: Channel, host: User, guest: User) -> None:
        lobby = None
        while lobby is None or not lobby.custom_ids():
            lobby = await self.answer(
                "new",
                lambda: host.slash(channel, "race new", seats=2, laps=1, turn_limit="none"),
            )
        header = LOBBY.match(lobby.content)
        assert header is not None, lobby.content
        race_id = int(header.group(1))
        while f"<@{guest.id}>" not in lobby.content:
            reply = await self.answer("join", lambda: guest.click(lobby, custom_id(lobby, "join")))
            if reply is not None and reply.ephemeral:
                break  # "already joined": the first click counted, its answer was lost

        def place() -> Channel | None:
            """The race's thread, or its channel when the thread could not be opened."""
            for candidate in (lobby.thread, channel):
                if candidate is not None and board_of(candidate, race_id, 1):
                    return candidate
            return None

        while place() is None:
            reply = None
            if has_control(lobby, "start"):
                reply = await self.answer(
                    "start", lambda: host.click(lobby, custom_id(lobby, "start"))
                )
            if reply is not None or not has_control(lobby, "start"):
                await self.until(place, "a first board")
        where = place()
        assert where is not None
        self.places.append(where)
        turn = 1
        while True:
            board = await self.until(
                lambda turn=turn: board_of(where, race_id, turn), f"board {turn}"
            )
            for player in (host, guest):
                await self.play(player, board, race_id, turn)
            await self.until(
                lambda turn=turn: board_of(where, race_id, turn + 1) or podium_of(where, race_id),
                f"the end of turn {turn}",
            )
            if podium_of(where, race_id):
                self.finished += 1
                return
            turn += 1

    async def clear_draft(self, player: User, board: Message) -> None:
        """Start the panel afresh, as a person would after a half-made move whose answers
        were lost (the panel keeps a draft across clicks and restarts)."""
        await asyncio.sleep(random.uniform(0.5, 2.0))
        panel = await self.answer("panel", lambda: player.click(board, custom_id(board, "choose")))
        if panel is not None and has_control(panel, "clear"):
            await self.answer("clear", lambda: player.click(panel, custom_id(panel, "clear")))

    async def play(self, player: User, board: Message, race_id: int, turn: int) -> None:
        deadline = time.monotonic() + self.stall
        place = board.channel
        while not (podium_of(place, race_id) or board_of(place, race_id, turn + 1)):
            # A turn that moved on took this player's move, though its answer was lost.
            if time.monotonic() > deadline:
                raise Stalled(f"a move on turn {turn}")
            try:
                panel = await prepare_move(player, board)
            except Exception as error:
                self.retries["panel"] += 1
                self.reasons[f"panel: {type(error).__name__}: {str(error)[:70]}"] += 1
                await self.clear_draft(player, board)
                continue
            if ALREADY_IN in panel.content:
                return
            answer = await self.answer(
                "confirm", lambda panel=panel: player.click(panel, custom_id(panel, "confirm"))
            )
            if answer is not None and CONFIRMED in answer.content:
                self.accepted.append((race_id, player.id, turn))
                return
            if answer is not None:
                self.reasons[f"confirm answered: {answer.content[:70]}"] += 1


def has_control(message: Message, verb: str) -> bool:
    return any(c.split(":")[2] == verb for c in message.custom_ids())


def board_of(place: Channel, race_id: int, turn: int) -> Message | None:
    for message in place.public_messages():
        match = BOARD.match(message.content)
        if (
            match is not None
            and message.custom_ids()
            and (int(match.group(1)), int(match.group(2))) == (race_id, turn)
        ):
            return message
    return None


def podium_of(place: Channel, race_id: int) -> bool:
    return any(
        m.content.startswith(f"🏆 **Race #{race_id} is over") for m in place.public_messages()
    )


async def keep_killing(soak: Soak, env: dict[str, str], every: float) -> None:
    """Run the bot; SIGKILL it every ``every`` seconds and start it again, until done."""
    fake = soak.fake
    while not soak.done.is_set():
        soak.starts.append(time.time())
        async with run_bot(fake, "bot", env=env) as bot:
            try:
                await asyncio.wait_for(soak.done.wait(), every)
            except TimeoutError:
                bot.process.kill()
                await bot.process.wait()
                soak.kills.append(time.time())


def ms(values: list[float]) -> dict[str, float | int]:
    if not values:
        return {"count": 0}
    return {
        "count": len(values),
        "median_ms": round(statistics.median(values) * 1000),
        "max_ms": round(max(values) * 1000),
    }


def recovery(soak: Soak) -> dict[str, Any]:
    """Fault → recovery: each failed post until its channel's next successful post; each
    kill until the next successful post in a race thread."""
    fake = soak.fake
    thread_ids = {str(t.id) for t in soak.places}
    posts = [r for r in fake.requests_for("POST", POSTS)]
    served = {id(r) for r in fake.rest.faults_served}
    waits: list[float] = []
    unrecovered = 0
    for index, record in enumerate(posts):
        if id(record) not in served or record.path.split("/")[2] not in thread_ids:
            continue
        later = next(
            (r for r in posts[index + 1 :] if r.path == record.path and r.status == 200), None
        )
        if later is None:
            unrecovered += 1
        else:
            waits.append(later.at - record.at)
    in_threads = [r for r in posts if r.status == 200 and r.path.split("/")[2] in thread_ids]
    after_kill: list[float] = []
    for killed in soak.kills:
        first = next((r.at for r in in_threads if r.at > killed), None)
        if first is not None:
            after_kill.append(first - killed)
    return {
        "failed_post_to_next_post": ms(waits) | {"never_recovered": unrecovered},
        "kill_to_first_post": ms(after_kill),
    }


def duplicates(soak: Soak) -> dict[str, int]:
    """Boards and reveals per (race, turn) and podiums per race, over every race's place."""
    seen: Counter[tuple[str, int, int]] = Counter()
    for place in set(soak.places):
        for message in place.public_messages():
            podium = PODIUM_LINE.match(message.content)
            reveal = REVEAL_LINE.match(message.content)
            board = BOARD.match(message.content)
            if podium is not None:
                seen[("podium", int(podium.group(1)), 0)] += 1
            elif reveal is not None:
                seen[("reveal", int(reveal.group(1)), int(reveal.group(2)))] += 1
            elif board is not None and message.custom_ids():
                seen[("board", int(board.group(1)), int(board.group(2)))] += 1
    twice = sum(1 for count in seen.values() if count > 1)
    posted = Counter(kind for (kind, _, _) in seen)
    return {f"{kind}s_posted": posted[kind] for kind in ("board", "reveal", "podium")} | {
        "posted_twice": twice
    }


def lost_moves(soak: Soak) -> int:
    with sqlite3.connect(soak.database) as db:
        seats = {
            (race, user): seat
            for race, seat, user in db.execute("SELECT table_id, seat, user_id FROM seats")
        }
        stored = Counter(
            (race, seat)
            for race, seat in db.execute("SELECT table_id, seat FROM actions WHERE source='player'")
        )
    return sum(
        1 for race, user, turn in soak.accepted if stored[(race, seats.get((race, user)))] < turn
    )


async def main(args: argparse.Namespace) -> dict[str, Any]:
    random.seed(args.seed)
    fake = await FakeDiscord.start()
    workdir = Path(tempfile.mkdtemp(prefix="circus-soak-"))
    database = workdir / "races.db"
    guild = fake.add_guild("Soak")
    channels = [guild.add_text_channel(f"races-{n}") for n in range(args.channels)]
    pairs = [
        (guild.add_member(f"host{n}"), guild.add_member(f"guest{n}")) for n in range(args.races)
    ]
    soak = Soak(fake, database, args.stall)
    env = {"DATABASE_PATH": str(database), "LOG_LEVEL": "WARNING"}
    killer = asyncio.create_task(keep_killing(soak, env, args.kill_every))
    await fake.wait_for_command("race", timeout=60)
    await fake.wait_until_ready(timeout=60)
    share = args.timeout_rate / (args.fault_rate + args.timeout_rate)
    kinds = ("timeout",) * round(share * 1000) + ("5xx",) * (1000 - round(share * 1000))
    fake.random_faults(
        RandomFaults(
            rate=args.fault_rate + args.timeout_rate,
            seed=args.seed,
            kinds=kinds,
            routes=FAULTY_ROUTES,
        )
    )
    gate = asyncio.Semaphore(args.parallel)
    started = time.time()

    async def one(n: int) -> str:
        async with gate:
            try:
                await soak.race(channels[n % len(channels)], *pairs[n])
                return "podium"
            except Stalled as stalled:
                return f"stalled: {stalled}"

    tasks = [asyncio.create_task(one(n)) for n in range(args.races)]
    finished, unfinished = await asyncio.wait(tasks, timeout=args.time_limit)
    for task in unfinished:
        task.cancel()
    outcomes = Counter(task.result() for task in finished)
    if unfinished:
        outcomes["not run to the end within --time-limit"] = len(unfinished)
    elapsed = time.time() - started
    fake.random_faults(None)
    soak.done.set()
    await killer
    fake.take_violations()
    result = {
        "races": args.races,
        "reached_podium": soak.finished,
        "outcomes": dict(outcomes),
        "accepted_moves": len(soak.accepted),
        "accepted_moves_lost": lost_moves(soak),
        "messages": duplicates(soak),
        "rest_calls": len(fake.requests),
        "faults_served": dict(Counter(fault_kind(r) for r in fake.rest.faults_served)),
        "kills": len(soak.kills),
        "player_retries": dict(soak.retries),
        "retry_reasons": dict(soak.reasons.most_common(8)),
        "recovery": recovery(soak),
        "seconds": round(elapsed, 1),
        "settings": vars(args),
    }
    await fake.close()
    return result


def fault_kind(record: RequestRecord) -> str:
    return "5xx" if record.status >= 500 else "timeout"


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--races", type=int, default=200)
    parser.add_argument("--parallel", type=int, default=20)
    parser.add_argument("--channels", type=int, default=5)
    parser.add_argument("--fault-rate", type=float, default=0.05)
    parser.add_argument("--timeout-rate", type=float, default=0.005)
    parser.add_argument("--kill-every", type=float, default=30.0)
    parser.add_argument("--stall", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=None)
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse()
    with contextlib.redirect_stdout(sys.stderr):  # the bot's output, printed at each stop
        figures = asyncio.run(main(arguments))
    print(json.dumps(figures, indent=2))
