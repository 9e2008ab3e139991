"""What every answer of the web server carries, the site's pages and aiohttp's own answers
alike: the security headers (a strict Content Security Policy, ``nosniff``, no referrer,
no framing, no indexing).

An answer prepared for the application (a page, a picture, a file, a 404 or 405, and a
refusal aiohttp makes before the site's middlewares, such as an ``Expect`` it does not
know) gets them from :func:`secure`, on the application's ``on_response_prepare``. A
request aiohttp cannot read (a line or a header past its limits, an unknown method, TLS on
the HTTP port, a malformed header) never reaches the application: :class:`Connection`
answers it 400 with the same headers and a text that repeats nothing of the request, and
logs it in one line at DEBUG, so strangers cannot fill the operator's log. An error of the
site itself that escapes its pages is still logged with its traceback (it is a bug).

aiohttp has no setting for the class that handles a connection; :class:`Runner` is its
application runner, whose server makes a :class:`Connection` for each.
"""

from __future__ import annotations

import logging
from http import HTTPStatus

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

log = logging.getLogger(__name__)

CSP = (
    "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self';"
    " connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "X-Robots-Tag": "noindex, nofollow",
}


async def secure(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer prepared for the application carries the security headers."""
    response.headers.update(SECURITY_HEADERS)


class Connection(web.RequestHandler):
    """aiohttp's handler of one connection, whose own answers (to a request it could not
    read, or when the application failed) carry the security headers and say only their
    status."""

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        if isinstance(exc, HttpProcessingError):
            log.debug("refused a request that could not be read (%s)", type(exc).__name__)
        else:
            log.error("a request failed (%d)", status, exc_info=exc)
        if request.writer.output_size > 0:
            raise ConnectionError("the answer was being sent: the connection is broken")
        answer = web.Response(
            status=status, text=f"{status} {HTTPStatus(status).phrase}\n", content_type="text/plain"
        )
        answer.headers.update(SECURITY_HEADERS)
        answer.force_close()
        return answer


class _Server(web.Server):
    """aiohttp's server, its connections handled by :class:`Connection`."""

    def __call__(self) -> web.RequestHandler:
        return Connection(self, loop=self._loop, **self._kwargs)


class Runner(web.AppRunner):
    """aiohttp's application runner, serving through :class:`Connection`."""

    async def _make_server(self) -> web.Server:
        server = await super()._make_server()
        server.__class__ = _Server
        return server


__all__ = ["CSP", "SECURITY_HEADERS", "Connection", "Runner", "secure"]
