"""The web table's server: Starlette routes and one WebSocket per device, run by uvicorn.

  /?t=TOKEN          the page (templates/table.html.j2); the token is then kept in a cookie
  /static/NAME       the page's script and style (package data)
  /deck.json         the cards of the game being played: names, colours, values (public)
  /card?code=CODE    a card's image from the build (output/cards/), read when the game began
  /record/N.json     the record of finished game N
  /shared/KEY        a finished game's replay page, for anyone with the link (no token: that game only)
  /replay            the replay page; `#r=...` carries a compressed record (replay.py)
  /api/replay        POST a record (or a share link's compact form): its steps, worked out by the engine
  /ws                the table: JSON messages both ways (docs/formats.md, "Web table messages")

Nothing is served without the table's token (in the URL once, then a cookie), but a finished
game's share link. One device (a WebSocket) holds one seat, or several for hot-seat play, by the
seat tokens it was given when it took them; a reload or a new connection with the same seat
tokens takes the seats back, and the device that held them is told at once. A seat with no
device is away; after `reconnect_timeout` seconds anyone may take it (a new token: the old one
holds it no more), and the table (any player, or with `host_controls` only the host link) may
give it to a bot or free it. Connections and message sizes are bounded (MAX_DEVICES, MAX_MESSAGE);
the socket is opened only from the table's own pages (guard.py), a slow or idle connection is
closed after a few seconds (connections.py), and each game's record is written as it goes
(engine/journal.py).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from contextlib import asynccontextmanager

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from generator import strict_json
from generator.deck.input_file import MAX_FILE_BYTES, Unread, read_regular
from generator.deck.model import Deck
from generator.engine import EngineError, Game
from generator.engine.game import random_seed
from generator.engine.journal import RecordJournal
from generator.web import card_images
from generator.web.cards import deck_json
from generator.web.guard import origin_allowed, quiet_client_faults
from generator.web.replay import posted, standalone_html, steps_of
from generator.web.table import HUMAN, TAKEOVER_BOT, Refused, Table

HERE = Path(__file__).resolve().parent
STATIC = {"table.js": "text/javascript", "table.css": "text/css", "replay.js": "text/javascript"}
COOKIE = "county_uppy_table"
HOST_COOKIE = "county_uppy_host"  #: set by the host link (--host-controls)
#: At most this many devices (WebSockets) at once; more are closed with a reason.
MAX_DEVICES = 24
#: The most seat tokens a hello is read for (a table has at most 8 seats).
MAX_SEATS = 16
#: The largest message a device may send (bytes); uvicorn closes the connection past it.
MAX_MESSAGE = 4096
#: The largest record /api/replay reads.
MAX_RECORD = 256 * 1024
#: Card images are scaled to this width for the table.
CARD_WIDTH = 240


@dataclass
class Device:
    ws: Any
    seats: set[int] = field(default_factory=set)
    shown: int | None = None  #: hot-seat: the seat whose hand this device shows now
    hints: bool = False
    host: bool = False  #: opened with the host link (--host-controls)


@dataclass
class Settings:
    manifest: Path
    edition: str
    seats: list[str]
    options: dict[str, Any]
    out: Path  #: the build's output folder: card images are read from out/cards
    records: Path  #: where finished games' records are written
    delay: float = 0.7  #: seconds a bot waits before each decision
    seed: int | None = None  #: the first game's deal (default: random)
    load: Callable[[str], Deck] | None = None
    reconnect_timeout: float = 60.0  #: seconds a person's seat is away before anyone may take it, or the table give it away
    host_controls: bool = False  #: only the host link may give an away seat to a bot or free it


class WebTable:
    """The server's state: the game, the devices at the table, the seat tokens."""

    def __init__(self, settings: Settings, deck: Deck):
        self.settings = settings
        self.token = secrets.token_urlsafe(16)
        self.table_id = secrets.token_hex(6)
        self.seat_tokens: dict[int, str] = {}
        self.away_since: dict[int, float] = {}  #: seats with a token and no device, since when (monotonic)
        self._takeable_told: set[int] = set()  #: away seats every device has been told may be taken
        self.host_key = secrets.token_urlsafe(16) if settings.host_controls else ""
        self.devices: list[Device] = []
        self.deck = deck
        self.game_no = 0
        self.finished: dict[int, dict] = {}  #: game number -> record, for /record/N.json
        self.shared: dict[str, tuple[int, Deck]] = {}  #: share key -> a finished game and its deck, for /shared/KEY
        self.share_keys: dict[int, str] = {}  #: game number -> its share key
        self.shared_pages: dict[str, str] = {}  #: share key -> the replay page, made on the first visit
        self.saved: list[Path] = []
        self.unsaved: list[str] = []  #: why a record could not be written (it can still be downloaded)
        self.wake: asyncio.Event | None = None
        self.manifest_changed = ""
        self._manifest_seen = _stamp(settings.manifest)
        self._manifest_hash = _hash(settings.manifest)
        self.table: Table = self._new_table(settings.seed)

    # --- games --------------------------------------------------------------------------
    def _new_table(self, seed: int | None) -> Table:
        game = Game(self.deck, self.settings.edition, len(self.settings.seats), self.settings.options)
        self.game_no += 1
        self.images = card_images.snapshot(self.settings.out / "cards", game.codes)
        self.scaled: dict[str, bytes] = {}
        self.manifest_changed = ""
        seats = self.table.seats if hasattr(self, "table") else self.settings.seats  # a seat given to a bot stays the bot's
        table = Table(game, seed if seed is not None else random_seed(), list(seats))
        # the record is written as the game goes (a decision a line): a SIGKILL loses at most the decision in flight
        name = f"web-{time.strftime('%Y%m%d-%H%M%S')}-seed{table.seed}-game{self.game_no}.json"
        self.journal = RecordJournal(self.settings.records / name, table.state, table.seats)
        table.after_decision = self.journal.sync
        return table

    def new_game(self) -> None:
        if self.settings.load is not None and _hash(self.settings.manifest) != self._manifest_hash:
            try:
                self.deck = self.settings.load(str(self.settings.manifest))
                self._manifest_hash = _hash(self.settings.manifest)
            except Exception as exc:  # noqa: BLE001 -- a manifest mistake: the next game keeps the old deck
                self.manifest_changed = f"cards.yaml does not load ({str(exc).splitlines()[0][:200]}); " \
                                        "the next game deals from the deck it had"
        changed = self.manifest_changed
        try:
            self.table = self._new_table(None)
        except EngineError as exc:
            self.manifest_changed = f"the changed deck cannot deal this game ({exc}); it is the same game again"
            return
        self.manifest_changed = changed if changed.startswith("cards.yaml does not load") else ""

    def check_manifest(self) -> bool:
        """Whether the manifest just changed under the game in progress (then every seat is told)."""
        stamp = _stamp(self.settings.manifest)
        if stamp == self._manifest_seen:
            return False
        self._manifest_seen = stamp
        if _hash(self.settings.manifest) == self._manifest_hash or self.manifest_changed:
            return False
        self.manifest_changed = ("cards.yaml changed since this game began: this game finishes on the deck it "
                                 "started with, and the next game deals from the new one")
        return True

    def save_record(self) -> Path | None:
        """Write the game's record (finished or not) into the records folder; None if there was nothing to write."""
        t = self.table
        if self.game_no in self.finished and t.over:
            return None
        record = t.record()
        if t.over:
            self.finished[self.game_no] = record
            key = secrets.token_urlsafe(16)
            self.shared[key] = (self.game_no, t.game.deck)
            self.share_keys[self.game_no] = key
        if not t.seq and not t.over:
            return None
        folder = self.settings.records
        path = self.journal.path
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self.journal.finish(record)
        except OSError as exc:  # a full disk, a folder gone: the game goes on, the page still offers the record
            self.unsaved.append(f"game {self.game_no}'s record could not be saved to {folder}: {exc.strerror or exc}")
            return None
        self.saved.append(path)
        return path

    # --- seats --------------------------------------------------------------------------
    def free_seats(self) -> list[int]:
        """People's seats no one has taken (or the table freed): any device may take them."""
        return [s for s, kind in enumerate(self.table.seats) if kind == HUMAN and s not in self.seat_tokens]

    def held(self) -> set[int]:
        return {s for d in self.devices for s in d.seats}

    def away_for(self, seat: int) -> float | None:
        """Seconds a taken seat has had no device, or None (held, free, or a bot's)."""
        since = self.away_since.get(seat)
        return None if since is None else max(0.0, time.monotonic() - since)

    def gone(self, seat: int) -> bool:
        """Away for --reconnect-timeout seconds: anyone with the join link may take it."""
        away = self.away_for(seat)
        return away is not None and away >= self.settings.reconnect_timeout

    def takeable(self) -> list[int]:
        """Seats a device with no seat may take: free, gone, or a person's seat given to a bot."""
        return [s for s, kind in enumerate(self.settings.seats) if kind == HUMAN and (
            s in self.free_seats() or self.gone(s) or self.table.seats[s] != HUMAN)]

    def presence(self) -> list[dict[str, Any]]:
        """Per seat: "here" (a device holds it), "away" (taken, no device), "free" or "bot", and since when."""
        held = self.held()
        shown = []
        for s, kind in enumerate(self.table.seats):
            state = "bot" if kind != HUMAN else "here" if s in held else "away" if s in self.seat_tokens else "free"
            away = self.away_for(s)
            shown.append({"state": state, "away": None if away is None else round(away, 1), "gone": self.gone(s),
                          "person": self.settings.seats[s] == HUMAN})
        return shown

    def may_control(self, device: Device) -> bool:
        """Whether `device` may give away or free a gone seat: the host link with --host-controls, else any player."""
        return device.host if self.settings.host_controls else bool(device.seats)

    def claim(self, device: Device, wanted: Any) -> tuple[dict[int, str], list[tuple[Device, list[int]]]]:
        """Seats for `device`: their new tokens, and the devices that held them (each to be told)."""
        free = self.free_seats()
        if wanted == "all":
            seats = free
        elif isinstance(wanted, int) and not isinstance(wanted, bool) and wanted in self.takeable():
            seats = [wanted]
        else:
            open_seats = ", ".join(map(str, self.takeable())) or "none"
            raise Refused(f"seat {wanted!r} is not free; seats you may take: {open_seats}")
        if not seats:
            raise Refused("every person's seat is taken")
        given = {}
        for s in seats:
            self.seat_tokens[s] = given[s] = secrets.token_urlsafe(12)  # a token given before no longer holds it
            if self.table.seats[s] != HUMAN:
                self.table.seat_to(s, HUMAN, f"seat {s} is played by a person again")
            elif self.gone(s):
                self.table.note(f"seat {s} was away for {self.away_for(s):.0f} s and is taken by another device")
        return given, self._bind(device, seats)

    def rejoin(self, device: Device, tokens: Any) -> tuple[list[tuple[Device, list[int]]], list[int]]:
        """The seats whose tokens `device` holds; the devices that held them, and the seats its tokens no longer hold."""
        if not isinstance(tokens, dict):
            raise Refused("hello needs the seat tokens this device was given")
        seats, lost = [], []
        for key, tok in list(tokens.items())[:MAX_SEATS]:
            seat = int(key) if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) < 4 else -1
            if not isinstance(tok, str) or not 0 <= seat < len(self.settings.seats):
                continue
            if seat in self.seat_tokens and secrets.compare_digest(self.seat_tokens[seat], tok):
                seats.append(seat)
            else:
                lost.append(seat)
        return self._bind(device, seats), lost

    def _bind(self, device: Device, seats: list[int]) -> list[tuple[Device, list[int]]]:
        moved = []
        for other in self.devices:  # a reload or a new connection takes the seat from the old one
            if other is not device and other.seats & set(seats):
                moved.append((other, sorted(other.seats & set(seats))))
                other.seats.difference_update(seats)
                if other.shown in seats:
                    other.shown = None
        device.seats.update(seats)
        for s in seats:
            self.away_since.pop(s, None)
            self._takeable_told.discard(s)
        if len(device.seats) == 1:
            device.shown = next(iter(device.seats))
        return moved

    def left(self, device: Device) -> None:
        """`device` is gone: the seats no other device holds are away from now."""
        self.devices.remove(device)
        held = self.held()
        for s in device.seats - held:
            self.away_since[s] = time.monotonic()

    def control(self, device: Device, seat: Any, to: Any) -> None:
        """The table gives a gone seat to a bot (`to` "bot") or frees it ("free")."""
        if not self.may_control(device):
            raise Refused("only the host's link gives a seat away (--host-controls)" if self.settings.host_controls
                          else "only a player at the table can give a seat away")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.table.seats):
            raise Refused(f"there is no seat {str(seat)[:20]}")
        if self.table.seats[seat] != HUMAN:
            raise Refused(f"seat {seat} is played by a bot")
        free = seat not in self.seat_tokens
        if not free and not self.gone(seat):
            away = self.away_for(seat)
            raise Refused(f"seat {seat} is connected" if away is None else
                          f"seat {seat} has been away {away:.0f} s; it can be given away after "
                          f"{self.settings.reconnect_timeout:g} s")
        why = "no one took it" if free else f"it was away for {self.away_for(seat):.0f} s"
        if to == "bot":
            self.table.seat_to(seat, TAKEOVER_BOT, f"seat {seat} is played by a {TAKEOVER_BOT} bot now: {why}")
        elif to == "free" and not free:
            self.table.note(f"seat {seat} is free for anyone to take: {why}")
        else:
            raise Refused("a seat is given to a 'bot' or made 'free'" if to not in ("bot", "free")
                          else f"seat {seat} is free already")
        self.seat_tokens.pop(seat, None)
        self.away_since.pop(seat, None)
        self._takeable_told.discard(seat)

    def newly_gone(self) -> bool:
        """Whether a seat has just been away long enough to be taken (then every device is told)."""
        gone = {s for s in self.away_since if self.gone(s)}
        new = gone - self._takeable_told
        self._takeable_told = gone
        return bool(new)

    def next_gone(self) -> float | None:
        """Seconds until the next away seat may be taken, or None."""
        waits = [self.settings.reconnect_timeout - (self.away_for(s) or 0.0) for s in self.away_since if not self.gone(s)]
        return max(0.0, min(waits)) if waits else None

    # --- messages -----------------------------------------------------------------------
    def message_for(self, device: Device) -> dict[str, Any]:
        t = self.table
        handover = None
        if len(device.seats) > 1:  # hot-seat: the next person's hand only after the hand-over screen
            who = t.human_to_decide()
            if who in device.seats and who != device.shown:
                device.shown = None
                handover = who
        if device.shown is not None and device.shown not in device.seats:
            device.shown = None
        msg = t.message(device.shown, hints=device.hints)
        done = t.over and self.game_no in self.finished
        msg.update(game=self.game_no, table=self.table_id, mine=sorted(device.seats), handover=handover,
                   free=self.free_seats(), takeable=self.takeable(), presence=self.presence(),
                   controls=self.may_control(device), reconnect_timeout=self.settings.reconnect_timeout,
                   kinds=list(t.seats), manifest_changed=self.manifest_changed,
                   record=f"/record/{self.game_no}.json" if done else None,
                   share=f"/shared/{self.share_keys[self.game_no]}" if done else None)
        return msg

    async def broadcast(self) -> None:
        for device in list(self.devices):
            await self.send(device, self.message_for(device))

    async def send(self, device: Device, msg: dict[str, Any]) -> None:
        try:
            await device.ws.send_text(json.dumps(msg))
        except Exception:  # noqa: BLE001 -- a device that went away; its loop removes it
            pass

    async def handle(self, device: Device, raw: str) -> None:
        """One message from a device: hello, claim, reveal, hints, decide, new_game."""
        try:
            msg = json.loads(raw)
        except (ValueError, RecursionError):  # RecursionError: lists or objects nested thousands deep
            raise Refused("not a JSON message") from None
        if not isinstance(msg, dict):
            raise Refused("a message is a JSON object")
        kind = msg.get("type")
        if kind == "hello":
            moved, lost = self.rejoin(device, msg.get("tokens", {}))
            if lost:
                await self.send(device, {"type": "lost", "seats": lost, "message": _lost_text(lost)})
            await self.tell_moved(moved)
            await self.broadcast()
            return
        elif kind == "claim":
            tokens, moved = self.claim(device, msg.get("seat"))
            await self.send(device, {"type": "seated", "table": self.table_id, "tokens": {str(k): v for k, v in tokens.items()}})
            await self.tell_moved(moved)
            self._after_change()
            await self.broadcast()
            return
        elif kind == "seat":
            self.control(device, msg.get("seat"), msg.get("to"))
            self._after_change()
            await self.broadcast()
            return
        elif kind == "reveal":
            seat = msg.get("seat")
            if not isinstance(seat, int) or seat not in device.seats:
                raise Refused("this device does not hold that seat")
            device.shown = seat
        elif kind == "hints":
            device.hints = bool(msg.get("on"))
        elif kind == "decide":
            seat = self._seat_of(device, msg)
            self.table.decide(seat, msg.get("decision"), msg.get("seq"))
            self._after_decision()
            await self.broadcast()
            return
        elif kind == "new_game":
            if not device.seats:
                raise Refused("only a player at the table can start the next game")
            if not self.table.over:
                raise Refused("the game is not over yet")
            self.new_game()
            self._after_change()
            await self.broadcast()
            return
        else:
            raise Refused(f"unknown message type {str(kind)[:40]!r}")
        await self.send(device, self.message_for(device))

    async def tell_moved(self, moved: list[tuple[Device, list[int]]]) -> None:
        """Tell each device that lost seats to another tab or device, at once."""
        for other, seats in moved:
            await self.send(other, {"type": "moved", "seats": seats,
                                    "message": f"{_seats_text(seats)} {'is' if len(seats) == 1 else 'are'} "
                                               "played in another tab or on another device now"})

    def _seat_of(self, device: Device, msg: dict) -> int:
        seat, token = msg.get("seat"), msg.get("token")
        if not isinstance(seat, int) or seat not in self.seat_tokens or not isinstance(token, str) \
                or not secrets.compare_digest(self.seat_tokens[seat], token):
            raise Refused("this message does not carry the seat's token: it was not taken")
        if seat not in device.seats:
            raise Refused(f"seat {seat} is played from another device now")
        if len(device.seats) > 1 and device.shown != seat:
            raise Refused(f"pass the device to seat {seat} first")
        return seat

    def _after_decision(self) -> None:
        if self.table.over:
            self.save_record()
        self._after_change()

    def _after_change(self) -> None:
        """Wake the driver: a bot may be to decide, a clock to run."""
        if self.wake:
            self.wake.set()

    async def drive(self) -> None:
        """Bots' decisions (each after `delay`), SPEED's late decisions, away seats, and the manifest watch."""
        self.wake = asyncio.Event()
        last_check = 0.0
        while True:
            t = self.table
            timeout = 1.0
            if t.deadline is not None:
                timeout = max(0.0, min(timeout, t.deadline - t.clock()))
            gone = self.next_gone()
            if gone is not None:
                timeout = min(timeout, gone + 0.01)
            try:
                await asyncio.wait_for(self.wake.wait(), timeout)
            except asyncio.TimeoutError:
                pass
            self.wake.clear()
            if time.monotonic() - last_check >= 1.0:
                last_check = time.monotonic()
                if self.check_manifest():
                    await self.broadcast()
            if self.table.late() or self.newly_gone():
                await self.broadcast()
            while self.table.bot_to_decide():
                if self.settings.delay:  # a person sees the last move before the bot's
                    await asyncio.sleep(self.settings.delay)
                if not self.table.step_bot():
                    break
                if self.table.over:
                    self.save_record()
                await self.broadcast()

    async def shared_page(self, key: str) -> str | None:
        """The replay page of the finished game whose share key is `key` (made once, off the event loop)."""
        if key not in self.shared:
            return None
        if key not in self.shared_pages:
            number, deck = self.shared[key]
            steps = await run_in_threadpool(steps_of, deck, self.finished[number])
            steps["share"] = None  # its /replay link needs the table's token: this page is the share link
            self.shared_pages[key] = standalone_html(steps, f"County Uppy, game {number} at the table (seed {steps['seed']})")
        return self.shared_pages[key]

    # --- cards --------------------------------------------------------------------------
    def card_image(self, code: str) -> bytes | None:
        if code not in self.images:
            return None
        if code not in self.scaled:
            image = card_images.scaled(self.images[code], CARD_WIDTH)
            if image is None:  # its pixels do not decode after all: the card is shown by its name from now on
                self.images.pop(code, None)
                return None
            self.scaled[code] = image
        return self.scaled[code]


def _seats_text(seats: list[int]) -> str:
    """`Seat 2`, `Seat 1, seat 3`: the start of a sentence."""
    names = ", ".join(f"seat {s}" for s in seats)
    return names[0].upper() + names[1:]


def _lost_text(seats: list[int]) -> str:
    return (f"{_seats_text(seats)}: this device's place at the table was taken by another device, or "
            "given away, while it was away; take a free seat if there is one")


def _stamp(path: Path) -> tuple[float, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime, st.st_size)


def _hash(path: Path) -> str:
    """The manifest's sha256, read as every command reads it (a regular file within its limit: a
    FIFO put in its place must not hold up the event loop); "" when it cannot be read."""
    try:
        return hashlib.sha256(read_regular(path, MAX_FILE_BYTES)).hexdigest()
    except Unread:
        return ""


def make_app(web: WebTable | None, *, token: str = "", deck: Deck | None = None, steps: dict | None = None):
    """The Starlette application of one web table (`web`), or of a replay (`steps`: the record's, shown at /)."""
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["j2", "html"]))
    token = web.token if web is not None else token
    table_id = web.table_id if web is not None else ""

    def replay_deck() -> Deck:
        return web.deck if web is not None else deck  # type: ignore[return-value]

    def allowed(conn) -> bool:
        given = conn.query_params.get("t") or conn.cookies.get(COOKIE) or ""
        return secrets.compare_digest(given.encode(), token.encode())

    def refuse() -> Response:
        return PlainTextResponse("this table needs its join link (the one county-uppy printed, with ?t=...)", 403)

    def page(render: Callable[[], str]) -> Callable:
        async def handler(request: Request) -> Response:
            if not allowed(request):
                return refuse()
            if "t" in request.query_params:  # keep the token in a cookie, and out of the address bar
                response: Response = RedirectResponse(request.url.path, 303)
            else:
                response = HTMLResponse(render(), headers={"Cache-Control": "no-store"})
            response.set_cookie(COOKIE, token, httponly=True, samesite="strict")
            if web is not None and web.host_key and secrets.compare_digest(
                    request.query_params.get("host", "").encode(), web.host_key.encode()):
                response.set_cookie(HOST_COOKIE, web.host_key, httponly=True, samesite="strict")
            return response
        return handler

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if not allowed(request):
            return refuse()
        if name not in STATIC:
            return PlainTextResponse("not found", 404)
        return Response((HERE / "static" / name).read_bytes(), media_type=STATIC[name])

    async def deck_route(request: Request) -> Response:
        if not allowed(request):
            return refuse()
        return JSONResponse(deck_json(web.table.game, set(web.images)))

    async def card(request: Request) -> Response:
        if not allowed(request):
            return refuse()
        code = request.query_params.get("code", "")
        data = await run_in_threadpool(web.card_image, code) if code in web.images else None
        if data is None:
            return PlainTextResponse("no such card image", 404)
        return Response(data, media_type="image/png", headers={"Cache-Control": "no-cache"})

    async def record(request: Request) -> Response:
        if not allowed(request):
            return refuse()
        rec = web.finished.get(request.path_params["n"])
        if rec is None:
            return PlainTextResponse("no finished game with that number", 404)
        return JSONResponse(rec, headers={"Content-Disposition": f'attachment; filename="game-{request.path_params["n"]}.json"'})

    async def shared(request: Request) -> Response:
        """A finished game's replay for anyone with its share link: that game only, no token, no cookie."""
        html = await web.shared_page(request.path_params["key"])
        if html is None:
            return PlainTextResponse("no shared game at this link", 404)
        return HTMLResponse(html, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    async def replay_api(request: Request) -> Response:
        if not allowed(request):
            return refuse()
        too_large = JSONResponse({"error": f"a record is at most {MAX_RECORD // 1024} KiB"}, 413)
        said = request.headers.get("content-length", "0")
        if not said.isdigit() or int(said) > MAX_RECORD:
            return too_large
        body = b""
        try:
            async for chunk in request.stream():  # read no further than the limit, whatever the header said
                body += chunk
                if len(body) > MAX_RECORD:
                    return too_large
        except ClientDisconnect:  # gone before its record was sent: there is no one to answer
            return PlainTextResponse("", 400)
        try:
            record = posted(strict_json.loads(body.decode("utf-8-sig")))  # the number rules of `county-uppy replay`
            # worked out off the event loop: a long record must not hold up the table's players
            return JSONResponse(await run_in_threadpool(steps_of, replay_deck(), record))
        except strict_json.Refused as exc:
            where = f"line {exc.line}, column {exc.column}: " if exc.line else ""
            return JSONResponse({"error": where + exc.message}, 400)
        except UnicodeDecodeError as exc:
            return JSONResponse({"error": f"not UTF-8 text (byte {exc.start + 1}); a record is UTF-8 JSON"}, 400)
        except (ValueError, EngineError) as exc:
            return JSONResponse({"error": str(exc)}, 400)

    async def ws_endpoint(ws: WebSocket) -> None:
        if not allowed(ws) or not origin_allowed(ws.headers, ws.scope["server"][1]):
            await ws.close(code=1008, reason="this table needs its join link")  # a page elsewhere: refused too
            return
        await ws.accept()
        if len(web.devices) >= MAX_DEVICES:
            await ws.close(code=1013, reason=f"the table is full ({MAX_DEVICES} connections)")
            return
        host = ws.cookies.get(HOST_COOKIE, "")
        device = Device(ws, host=bool(web.host_key) and secrets.compare_digest(host.encode(), web.host_key.encode()))
        web.devices.append(device)
        try:
            await web.send(device, web.message_for(device))
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                try:
                    if raw is None:
                        raise Refused("messages are JSON text, not binary")
                    await web.handle(device, raw)
                except Refused as exc:
                    await web.send(device, {"type": "refused", "message": str(exc)})
                    await web.send(device, web.message_for(device))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            web.left(device)
            if device.seats:  # every other device sees the seat away
                await web.broadcast()

    @asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(web.drive()) if web is not None else None
        try:
            yield
        finally:
            if task is not None:
                task.cancel()

    routes = [
        Route("/replay", page(lambda: env.get_template("replay.html.j2").render())),
        Route("/static/{name}", static),
        Route("/api/replay", replay_api, methods=["POST"]),
    ]
    if web is not None:
        routes += [
            Route("/", page(lambda: env.get_template("table.html.j2").render(table_id=table_id))),
            Route("/deck.json", deck_route),
            Route("/card", card),
            Route("/record/{n:int}.json", record),
            Route("/shared/{key}", shared),
            WebSocketRoute("/ws", ws_endpoint),
        ]
    if steps is not None:
        html = standalone_html(steps, f"County Uppy replay, seed {steps['seed']}")
        routes.append(Route("/", page(lambda: html)))
    return Starlette(routes=routes, lifespan=lifespan)


class Running:
    """A uvicorn server in a thread: `url` once started, `stop()` to end it (bounded waits)."""

    def __init__(self, app, host: str, port: int, token: str):
        import uvicorn  # lazy: only when a web table or replay is served

        from generator.web.connections import GuardedH11Protocol  # lazy: as uvicorn

        self.sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))
        self.host, self.port = host, self.sock.getsockname()[1]
        # no limit_concurrency: it counted idle connections too, so 100 of them locked every player
        # out; GuardedH11Protocol closes slow and idle ones instead (web/connections.py)
        config = uvicorn.Config(app, log_level="warning", ws_max_size=MAX_MESSAGE, http=GuardedH11Protocol,
                                ws="websockets-sansio", lifespan="on", timeout_graceful_shutdown=2)
        quiet_client_faults()
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, name="web-table", daemon=True)
        self.token = token

    def _run(self) -> None:
        asyncio.run(self.server.serve(sockets=[self.sock]))

    def start(self, timeout: float = 15.0) -> "Running":
        self.thread.start()
        end = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > end:
                raise OSError("the web server did not start")
            time.sleep(0.02)
        return self

    def url(self, host: str | None = None, path: str = "/") -> str:
        shown = host or self.host
        if ":" in shown:
            shown = f"[{shown}]"
        return f"http://{shown}:{self.port}{path}?t={self.token}"

    def stop(self, timeout: float = 10.0) -> None:
        self.server.should_exit = True
        self.thread.join(timeout)
        self.sock.close()
