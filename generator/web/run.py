"""Running a web table or a replay from the command line: start, print the link, wait for Ctrl-C."""

from __future__ import annotations

import ipaddress
import socket
import time
from typing import Callable

from generator.web.server import Running, Settings, WebTable, make_app


def lan_address() -> str:
    """This machine's address on the local network (for the join link when --host opens it)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
        return probe.getsockname()[0]
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()


def link_host(host: str) -> str:
    return lan_address() if host in ("0.0.0.0", "::", "") else host


def loopback(host: str) -> bool:
    """Whether only this machine can reach `host` (an empty host is every interface, as 0.0.0.0)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def say_who_can_reach(host: str, say: Callable[[str], None], who: str) -> None:
    if not loopback(host):
        say(f"anyone on the network with this link can {who}; nothing is served without its token")


def serve_table(settings: Settings, deck, host: str, port: int, say: Callable[[str], None]) -> tuple[WebTable, bool]:
    """Serve the table until Ctrl-C or SIGTERM; return it and whether it was interrupted."""
    web = WebTable(settings, deck)
    running = Running(make_app(web), host, port, web.token).start()
    say(f"the table is open at {running.url(link_host(host))}")
    if web.host_key:  # --host-controls: kept by the host, not sent to the players
        say(f"host link (gives away or frees a seat that is away; keep it to yourself): "
            f"{running.url(link_host(host))}&host={web.host_key}")
    say_who_can_reach(host, say, "join")
    say("people take their seats on the page; Ctrl-C ends the server (finished games' records are kept)")
    interrupted = _wait(running)
    return web, interrupted


def serve_replay(app, token: str, host: str, port: int, say: Callable[[str], None], share: str) -> bool:
    running = Running(app, host, port, token).start()
    url = running.url(link_host(host))
    say(f"the replay is at {url}")
    say(f"share link (the record is in the fragment): {running.url(link_host(host), '/replay')}#{share}")
    say_who_can_reach(host, say, "watch it")
    return _wait(running)


def _wait(running: Running) -> bool:
    try:
        while running.thread.is_alive():
            time.sleep(0.2)
    except KeyboardInterrupt:
        running.stop()
        return True
    running.stop()
    return False
