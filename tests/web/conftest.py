"""A web table served in this process on 127.0.0.1 (an ephemeral port), and Chromium to look at it."""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.browser import launched
from tests.conftest import MANIFEST



@pytest.fixture()
def browser():
    with launched() as b:
        yield b


@contextmanager
def served(tmp_path: Path, seats: list[str], *, options=None, seed: int = 5, delay: float = 0.0, out: Path | None = None,
           reconnect_timeout: float = 60.0, host_controls: bool = False, start: dict | None = None):
    """(WebTable, join URL) of a table served until the block ends; `start`: a position to play on from."""
    from generator.deck.manifest import load
    from generator.web.server import Running, Settings, WebTable, make_app

    deck = load(MANIFEST)
    settings = Settings(manifest=Path(MANIFEST), edition="the-og", seats=seats, options=dict(options or {}),
                        out=out or tmp_path / "no-build", records=tmp_path / "games", delay=delay, seed=seed, load=load,
                        reconnect_timeout=reconnect_timeout, host_controls=host_controls)
    web = WebTable(settings, deck)
    if start is not None:
        from generator.engine import from_position
        from generator.web.table import Table

        state = from_position(deck, {"edition": "the-og", **start})
        web.table = Table(state.game, seed, list(seats), start=state)
    running = Running(make_app(web), "127.0.0.1", 0, web.token).start()
    try:
        yield web, running.url()
    finally:
        running.stop()


def fake_card_images(out: Path, codes) -> Path:
    """A build's card folder (`out/cards`: index.json and one PNG per card, 240 x 336 px as the
    build's thumbnails are, a colour and the code on each) so the page lays out real images."""
    from PIL import Image, ImageDraw

    cards = out / "cards"
    cards.mkdir(parents=True, exist_ok=True)
    index = {}
    for n, code in enumerate(codes):
        name = f"card_{n}.png"
        im = Image.new("RGB", (240, 336), ((n * 53) % 200 + 40, (n * 97) % 200 + 40, (n * 31) % 200 + 40))
        ImageDraw.Draw(im).text((20, 20), code, fill="white")
        im.save(cards / name)
        index[code] = {"file": name}
    (cards / "index.json").write_text(json.dumps({"cards": index}))
    return out
