"""A web table served in this process on 127.0.0.1 (an ephemeral port), and Chromium to look at it."""

from __future__ import annotations

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
def served(tmp_path: Path, seats: list[str], *, options=None, seed: int = 5, delay: float = 0.0, out: Path | None = None):
    """(WebTable, join URL) of a table served until the block ends."""
    from generator.deck.manifest import load
    from generator.web.server import Running, Settings, WebTable, make_app

    deck = load(MANIFEST)
    settings = Settings(manifest=Path(MANIFEST), edition="the-og", seats=seats, options=dict(options or {}),
                        out=out or tmp_path / "no-build", records=tmp_path / "games", delay=delay, seed=seed, load=load)
    web = WebTable(settings, deck)
    running = Running(make_app(web), "127.0.0.1", 0, web.token).start()
    try:
        yield web, running.url()
    finally:
        running.stop()
