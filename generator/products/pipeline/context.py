"""What every product of one build shares: the deck, the request, where to write, and the work
done once per build (BuildState)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol

from generator.deck.model import Deck
from generator.products.output.outputs import WriteTarget
from generator.products.pipeline.face_cache import RenderCache
from generator.products.pipeline.request import BuildRequest
from generator.products.render.items import Face
from generator.products.render.stamp import Stamp

if TYPE_CHECKING:
    from generator.products.pipeline.provenance import Stamping

#: profile -> face key -> PNG: the card images of a build (rasters.py)
Images = dict[str, dict[str, bytes]]


class Running(Protocol):
    """Something a build started that runs beside it (a WorkerPool, the rulebook's browser)."""

    def abort(self) -> None:
        """Stop it now, whatever it is doing (again: nothing)."""


class Pending(Protocol):
    """Card images being drawn (rasters.Drawing): `finish()` waits for them."""

    def finish(self) -> Images: ...


@dataclass
class BuildState:
    """The work one build does once and every product shares, made as it is first asked for
    (pipeline/rendered.py, rasters.py); a new build starts with a new one."""

    #: the face cache in OUT/.cache (rendered.cache); committed once the build is in place
    cache: RenderCache | None = None
    #: ink-saver variant (False, True) -> card code (and "back") -> the hash its face is cached by
    face_keys: dict[bool, dict[str, str]] = field(default_factory=dict)
    #: each file a face reads (fonts, art) -> the sha256 of its bytes, read once per build
    file_digests: dict[Path, str] = field(default_factory=dict)
    #: (ink-saver, CMYK conversion or None) -> card code -> the cache key of its face's PDF form
    form_keys: dict[tuple[bool, object], dict[str, str]] = field(default_factory=dict)
    #: profile -> card code -> the cache key of its image
    image_keys: dict[str, dict[str, str]] = field(default_factory=dict)
    #: (card code, ink-saver variant) -> its face's display list, drawn at most once
    faces: dict[tuple[str, bool], Face] = field(default_factory=dict)
    #: every character the deck's faces draw (the PDF fonts' subset)
    chars: str | None = None
    #: the version, manifest fingerprint and date every print file of this build carries
    stamp: Stamp | None = None
    #: the stamp being made (rendered.start_stamp: git asked as the build starts)
    stamping: Stamping | None = None
    #: (ink-saver, CMYK conversion or None) -> card code -> its face as a formatted PDF form
    pdf_forms: dict[tuple[bool, object], dict[str, bytes]] = field(default_factory=dict)
    #: every face's preflight measures (pod.measures: render/press/preflight.py), made once a build
    preflight: list[dict] | None = None
    #: the card images being drawn since the build began (rasters.start)
    drawing: Pending | None = None
    #: the card images of profiles the build did not expect, drawn when asked (rasters.images)
    images: Images | None = None
    #: held while rasters.images starts the drawing or draws a profile the build did not expect
    #: (the rulebook's printer asks for its pictures on a thread of its own)
    images_lock: threading.RLock = field(default_factory=threading.RLock)
    #: profile -> the card codes whose image this build drew rather than took from the cache
    redrawn: dict[str, list[str]] = field(default_factory=dict)
    #: worker pools (rendered.started) and the rulebook's browser, running while the build goes
    #: on, stopped when it ends
    pools: list[Running] = field(default_factory=list)
    #: work two products share by name, made by the first that asks (the rulebook's page, for
    #: rulebook.html and its PDFs)
    shared: dict[str, object] = field(default_factory=dict)


@dataclass
class BuildContext:
    """One build: made whole by products/build.py's build() for the products it runs."""

    deck: Deck
    request: BuildRequest
    #: where products write (build(): the staging folder, whose files the commit moves into OUT)
    target: WriteTarget
    state: BuildState = field(default_factory=BuildState)
    notes: list[str] = field(default_factory=list)  #: lines to print after the build
    #: where a line goes that must be told at once, whatever then happens (a killed build's commit
    #: finished before this build began); None: into notes
    tell: Callable[[str], None] | None = None

    @property
    def out(self) -> Path:
        """The output folder the build ends up in."""
        return self.request.out

    @property
    def editions(self) -> tuple[str, ...]:
        """The editions whose print files the build makes (the manifest's and the request's)."""
        return self.request.editions_for(self.deck)

    @property
    def papers(self) -> tuple[str, ...]:
        """The paper sizes of the print sheets."""
        return self.request.papers_for(self.deck)
