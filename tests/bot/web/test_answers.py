"""Every answer of ``python -m bot web`` carries the security headers: pages, pictures and
files, its not-found and refusals (404, 405, 417, 500), and aiohttp's own answers to
requests it cannot read (an address or a header of 20 KB, the method ``BREW``, TLS on
the HTTP port, a NUL in the address, a Content-Length of letters), which repeat nothing
of the request and leave at most one line in the log each, without a traceback."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from bot.storage import Storage
from bot.web.publish import Publishing
from bot.web.serving import SECURITY_HEADERS
from tests.bot.web.conftest import GUILD, PUBLIC
from tests.bot.web.served import Served, served
from tests.databases import execute

ANSWER_SECONDS = 30.0
JUNK = b"q" * 20_000


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


async def ask(site: Served, request: bytes) -> Answer:
    """Send these bytes on a connection of their own and read the whole answer (the
    server closes the connection after it)."""
    reader, writer = await asyncio.open_connection(site.host, site.port)
    try:
        writer.write(request)
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), ANSWER_SECONDS)
    finally:
        writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return Answer(int(status_line.split()[1]), headers, body)


def get(path: str, *headers: str, method: str = "GET") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: circus.test", "Connection: close", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


UNREADABLE = {
    "an address of 20 KB": b"GET /" + JUNK + b" HTTP/1.1\r\nHost: circus.test\r\n\r\n",
    "a header of 20 KB": b"GET / HTTP/1.1\r\nHost: circus.test\r\nX-Junk: " + JUNK + b"\r\n\r\n",
    "the method BREW": b"BREW /qqqq HTTP/1.1\r\nHost: circus.test\r\n\r\n",
    "TLS on the HTTP port": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03qqqq",
    "a NUL in the address": b"GET /qqqq\x00 HTTP/1.1\r\nHost: circus.test\r\n\r\n",
    "a Content-Length of letters": (
        b"GET / HTTP/1.1\r\nHost: circus.test\r\nContent-Length: qqqq\r\n\r\n"
    ),
}


def assert_secured(answer: Answer, what: str) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert answer.headers.get(name.lower()) == value, (what, name, answer.headers)


async def test_every_answer_carries_the_headers_and_an_unreadable_request_one_line(
    database: str, tmp_path: Path
) -> None:
    storage = await Storage.open(database)
    try:
        publishing = Publishing(storage)
        page = await publishing.turn_on(GUILD, "The Big Top", "en", 0.0)
        await publishing.set_public_channels(GUILD, [PUBLIC])
    finally:
        await storage.close()
    root = f"/s/{page.slug}"
    async with served(database, tmp_path, log_level="DEBUG") as site:
        answered = {
            "the index": (get("/"), 200),
            "robots.txt": (get("/robots.txt"), 200),
            "the style sheet": (get("/static/site.css"), 200),
            "a server's page": (get(root), 200),
            "its page by HEAD": (get(root, method="HEAD"), 200),
            "a leaderboard": (get(f"{root}/leaderboard/charioteer"), 200),
            "an unknown address": (get("/nothing"), 404),
            "a POST": (get("/", "Content-Length: 4", method="POST") + b"qqqq", 405),
            "an Expect it does not know": (get("/", "Expect: 999-qqqq"), 417),
        }
        for what, (request, status) in answered.items():
            answer = await ask(site, request)
            assert answer.status == status, what
            assert_secured(answer, what)
        for what, request in UNREADABLE.items():
            before = len(site.log_lines())
            answer = await ask(site, request)
            logged = site.log_lines()[before:]
            assert answer.status == 400, what
            assert_secured(answer, what)
            assert b"qqqq" not in answer.body and b"BREW" not in answer.body, what
            assert len(logged) <= 1, (what, logged)
            assert not any("qqqq" in line or "BREW" in line for line in logged), (what, logged)
        assert not any("Traceback" in line for line in site.log_lines())
        execute(database, "DROP TABLE web_pages")
        answer = await ask(site, get(root))
        assert answer.status == 500
        assert_secured(answer, "a page that failed")
