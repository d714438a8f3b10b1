"""uvicorn's HTTP/1.1 protocol with a deadline, for the web table and the replay server.

A connection has REQUEST_SECONDS from its first byte (or from the end of the answer before) to
send a whole request, line, headers and body: one that sends nothing, or a byte now and then,
is closed then. Connections are not refused for being many: past MAX_CONNECTIONS the one that
has waited longest without a request is closed to make room, so 200 idle sockets cost a player
nothing (uvicorn's limit_concurrency counted idle connections, and answered every page 503
while a hundred were held open). A WebSocket, once upgraded, keeps the table's own limits
(devices, message size, pings).
"""

from __future__ import annotations

from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a connection has to send one whole request.
REQUEST_SECONDS = 5.0
#: Connections held at once before the longest-waiting idle one is closed to make room.
MAX_CONNECTIONS = 512


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol; a request must come whole within REQUEST_SECONDS (module docstring)."""

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline = None
        self.waiting_since: float | None = None
        self._arm()
        if len(self.connections) > MAX_CONNECTIONS:
            self._make_room()

    def _arm(self) -> None:
        self._disarm()
        self.waiting_since = self.loop.time()
        self._deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self.waiting_since = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def _make_room(self) -> None:
        idle = [c for c in self.connections if isinstance(c, GuardedH11Protocol) and c is not self
                and c.waiting_since is not None]
        if idle:
            min(idle, key=lambda c: c.waiting_since).transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.waiting_since is not None and self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            self._disarm()  # the whole request is in: the answer takes as long as it takes

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()  # a WebSocket now: the table's own limits (devices, message size, pings)
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # kept alive: the next request must come whole in time too

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)
