"""What a build is asked to make: one immutable request, made the same way by `build`, `watch`
and the preview (commands/build.py's `build_request`, from the command line's options).

The request holds what was asked, not what the manifest adds: the editions and papers a build
makes are the manifest's `build:` section's plus the request's (`editions_for`, `papers_for`),
resolved against each build's deck, so a watch's rebuild follows the manifest being edited.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from generator.deck.problems import suggest
from generator.products.render.press import shops
from generator.products.render.units import LAYOUTS

if TYPE_CHECKING:  # the request is made at start-up, before the deck model is loaded
    from generator.deck.model import Deck

@dataclass(frozen=True)
class BuildRequest:
    """One build asked for: where from, where to, which products, and how they are made."""

    manifest: Path
    #: the output folder the build ends up in
    out: Path
    only: tuple[str, ...] = ()  #: the products asked for by name (--only); () for every product
    editions: tuple[str, ...] = ()  #: editions whose print files this build adds (--edition)
    papers: tuple[str, ...] = ()  #: paper sizes of the print sheets (--paper); (): the manifest's
    #: the print shops to make files for (--pod; render/press/shops.py), by default those marked default
    pod: tuple[str, ...] = field(default_factory=shops.defaults)
    tts_url: str = ""  #: where TTS loads the deck sheets from (--tts-url); "": file URI of OUT/tts
    gutter: float = 0.0  #: mm between neighbouring cards on the print sheets (--gutter)
    duplex: str = "long"  #: the paper edge the print sheets flip on (--duplex long|short)
    back_offset: tuple[float, float] = (0.0, 0.0)  #: mm the backs shift, right and up as seen on the back
    ink_saver: bool = False  #: light backs and light chaos interiors on the print sheets (--ink-saver)
    #: the print-and-play layouts (--layout): duplex sheets (with their fronts-only and backs-only
    #: files), gutterfold sheets, or both
    layouts: tuple[str, ...] = LAYOUTS[:1]
    jobs: int = 0  #: worker processes; 0 means one per core
    progress: bool = False  #: show progress bars (only on a terminal)

    def editions_for(self, deck: Deck) -> tuple[str, ...]:
        """The editions whose print files the build makes: the manifest's `build: editions:`,
        then those asked for this time."""
        return tuple(dict.fromkeys([*deck.build.editions, *self.editions]))

    def papers_for(self, deck: Deck) -> tuple[str, ...]:
        """The paper sizes of the print sheets: those asked for, else the manifest's `build: papers:`."""
        return self.papers or deck.build.papers

    def problem_for(self, deck: Deck) -> str | None:
        """What is wrong with the request for this deck, in one line (None: nothing): an edition
        it does not have, a paper the sheets do not fit with these options."""
        from generator.products.render import sheets  # lazy: the sheets' geometry, only when a build runs

        keys = {e.key for e in deck.editions}
        for key in self.editions:
            if key not in keys:
                return f"unknown edition '{key}'{suggest(key, keys)}; choose from {', '.join(sorted(keys))}"
        for paper in self.papers_for(deck):
            for layout in self.layouts:
                try:
                    sheets.grid(paper, self.gutter, self.duplex, self.back_offset, layout)
                except sheets.LayoutError as err:
                    return str(err)
        return self.shop_problem()

    def shop_problem(self) -> str | None:
        """What keeps a shop asked for (--pod) from being made: an unknown name, a record the faces
        cannot meet, or a condition whose ICC profile this machine lacks (when it has no fallback)."""
        names = shops.names()
        for name in self.pod:
            if name not in names:
                return f"unknown print shop '{name}'{suggest(name, names)}; choose from {', '.join(names)}"
            s = shops.shop(name)
            wrong = shops.problem(s)
            if wrong:
                return wrong
            named = os.environ.get(s.condition.env, "").strip() if s.condition is not None else ""
            # a profile the designer names must be usable even where a formula could stand in for it
            if s.condition is not None and (not s.condition.formula_fallback or named) \
                    and (not self.only or "pod" in self.only):
                from generator.products.render.press.cmyk import press_profile  # lazy: only for a shop that needs it

                if press_profile(s.condition) is None:
                    lacks = (f"{s.condition.env} names {named}, which is not an ICC profile of a CMYK press" if named
                             else "no ICC profile for it is on this machine")
                    fix = (f"name a CMYK press profile, or unset {s.condition.env}" if s.condition.formula_fallback
                           else s.condition.install)
                    return (f"--pod {name}: {s.title}'s file is converted for {s.condition.name} ({s.condition.info}), "
                            f"and {lacks}: {fix} (docs/printing.md, 'Print shops')")
        return None
