"""What the web table's server does about clients that are not its guests.

- `origin_allowed`: a browser names the page that opened a WebSocket in its `Origin` header.
  The table's socket is opened only from the table's own pages: an Origin equal to
  `http://` + the Host the request was sent to, on the table's own port. A page elsewhere
  (`http://evil.example`, another port of 127.0.0.1, a sandboxed frame's `null`) is refused,
  even when the browser sends the table's cookie along. A request with no Origin is not a
  browser's: a program, which must carry the token like anyone.
- `quiet_client_faults`: what a client did wrong (a frame of invalid UTF-8, a request that is
  not HTTP) is refused without a word on the host's terminal; uvicorn logged a traceback.

Connections that send nothing, or a byte now and then: connections.py.
"""

from __future__ import annotations

import logging
from typing import Mapping

#: uvicorn's log lines that tell of a client's mistake, not the server's (kept off the terminal).
CLIENT_FAULTS = ("Invalid UTF-8 sequence received from client.", "Invalid HTTP request received.")


def origin_allowed(headers: Mapping[str, str], port: int) -> bool:
    """Whether a WebSocket request may be served: no Origin (not a browser), or the table's own."""
    origin = headers.get("origin")
    if origin is None:
        return True
    host = headers.get("host", "").strip().lower()
    said_port = host.rpartition(":")[2]
    return bool(host) and said_port.isdigit() and int(said_port) == port and origin.strip().lower() == f"http://{host}"


class _ClientFaults(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() not in CLIENT_FAULTS


_FILTER = _ClientFaults()


def quiet_client_faults() -> None:
    """Keep uvicorn's lines about a client's malformed input (and their tracebacks) off the terminal."""
    logger = logging.getLogger("uvicorn.error")
    if _FILTER not in logger.filters:
        logger.addFilter(_FILTER)
