"""A crawler for the site's tests: every page and picture a published server's page links
to, fetched as a visitor would, with what each answered."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from aiohttp.test_utils import TestClient


@dataclass(frozen=True)
class Fetched:
    url: str
    status: int
    content_type: str
    body: bytes
    headers: dict[str, str]

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src", "data-steps", "data-live") and value:
                self.links.append(value)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def visible_text(html: str) -> str:
    """A page's text as a reader sees it, one line per text node."""
    parser = _Text()
    parser.feed(html)
    return "\n".join(part.strip() for part in parser.parts if part.strip())


def links_of(html: str) -> list[str]:
    parser = _Links()
    parser.feed(html)
    return parser.links


STEP_LINK = re.compile(r'"picture": ?"([^"]+)"')


async def crawl(client: TestClient, start: str, limit: int = 3000) -> list[Fetched]:
    """Every address under ``start`` (and the static files) reachable from it."""
    seen: set[str] = set()
    queue = [start]
    fetched: list[Fetched] = []
    root = start.rstrip("/")
    while queue and len(fetched) < limit:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        async with client.get(url) as answer:
            body = await answer.read()
            item = Fetched(
                url, answer.status, answer.content_type, body, dict(answer.headers.items())
            )
        fetched.append(item)
        found: list[str] = []
        if item.content_type == "text/html":
            found = links_of(item.text)
        elif item.content_type == "application/json":
            found = STEP_LINK.findall(item.text)
        for link in found:
            address = urljoin(url, link)
            parts = urlsplit(address)
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            if (path.startswith(root) or path.startswith("/static/")) and path not in seen:
                queue.append(path)
    return fetched


__all__ = ["Fetched", "crawl", "links_of", "visible_text"]
