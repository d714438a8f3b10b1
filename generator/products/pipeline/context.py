"""What every product of one build shares: the deck, where to write, the options, and work done once."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from generator.deck.model import Deck
from generator.products.output.outputs import Staging


@dataclass
class BuildContext:
    deck: Deck
    #: where products write: the output folder, or during build() the staging folder standing in for it
    out: Path
    manifest: Path
    editions: tuple[str, ...] = ()  #: per-edition products asked for (--edition)
    papers: tuple[str, ...] = ("letter", "a4")
    jobs: int = 0  #: worker processes; 0 means one per core
    progress: bool = False  #: show a progress bar (only on a terminal)
    pod: tuple[str, ...] = ("tgc", "mpc", "dtc")  #: print-on-demand profiles (--pod)
    tts_url: str = ""  #: where TTS loads the deck sheets from (--tts-url); default: file URI of output/tts
    gutter: float = 0.0  #: mm between neighbouring cards on the print sheets (--gutter)
    duplex: str = "long"  #: the paper edge the print sheets flip on (--duplex long|short)
    back_offset: tuple[float, float] = (0.0, 0.0)  #: mm the backs shift, right and up as seen on the back
    ink_saver: bool = False  #: light backs and light chaos interiors on the print sheets (--ink-saver)
    shared: dict = field(default_factory=dict)  #: work products share within one build (rendered faces)
    notes: list[str] = field(default_factory=list)  #: lines to print after the build
    #: where a line goes that must be told at once, whatever then happens (a killed build's commit
    #: finished before this build began); None: into notes
    tell: Callable[[str], None] | None = None
    staging: Staging | None = None  #: the build's staging folder while build() runs

    @property
    def target(self) -> Path:
        """The output folder the build ends up in (ctx.out, unless a build is staging)."""
        return self.staging.dest if self.staging is not None else self.out

    def once(self, name: str, make: Callable[[], Any]) -> Any:
        """`make()`, computed once per build and shared by every product that asks for `name`."""
        if name not in self.shared:
            self.shared[name] = make()
        return self.shared[name]
