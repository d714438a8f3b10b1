"""The README's walk-through "Changing how the cards look", applied to a folder holding a copy of
the shipped manifest: the README's own YAML block goes into the manifest's `look:` section,
beside the shipped `icons:` (so the README cannot show one thing while the tests build another);
the pictures are docs/look/'s, the fonts reportlab's Vera (a licence that allows embedding,
installed with the project)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import reportlab

from tests.conftest import ROOT

README = ROOT / "README.md"
BLOCK = re.compile(r"<!-- look: manifest -->\n```yaml\n(.*?)```", re.S)
STEAL_TEXT = "    text: Take a card from a player of your choice.\n"


def readme_look() -> str:
    """The `look:` section the README shows."""
    m = BLOCK.search(README.read_text(encoding="utf-8"))
    assert m, "README.md: no <!-- look: manifest --> block"
    return m.group(1)


def apply(folder: Path) -> None:
    """Make the walk-through's edits in `folder` (its cards.yaml, art/ and fonts/)."""
    (folder / "art").mkdir(exist_ok=True)
    (folder / "fonts").mkdir(exist_ok=True)
    for name in ("steal.png", "logo.svg"):
        shutil.copy(ROOT / "docs" / "look" / name, folder / "art" / name)
    fonts = Path(reportlab.__file__).parent / "fonts"
    for name in ("VeraBI.ttf", "VeraIt.ttf"):
        shutil.copy(fonts / name, folder / "fonts" / name)
    manifest = folder / "cards.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert STEAL_TEXT in text
    text = text.replace(STEAL_TEXT, STEAL_TEXT.replace("text: ", 'text: "{icon:steal} ').rstrip("\n") + '"\n')
    look = readme_look()
    assert look.startswith("look:\n") and text.count("\nlook:\n") == 1  # the shipped look: (its icons:)
    manifest.write_text(text.replace("\nlook:\n", "\n" + look, 1), encoding="utf-8")  # added beside icons:


#: The README's picture: these cards before and after the walk-through, each at a third of its size.
PICTURE = ROOT / "docs" / "look" / "before-after.png"
PICTURED = ("C6.png", "STEAL.png", "back.png")
SCALE = 3
GAP = 10


def before_after(before: Path, after: Path):
    """The README's picture from two builds' cards/ folders: each card before, then after."""
    from PIL import Image

    cards = [[Image.open(folder / name).convert("RGB") for name in PICTURED] for folder in (before, after)]
    w, h = (v // SCALE for v in cards[0][0].size)
    out = Image.new("RGB", (w * 2 * len(PICTURED) + GAP * (len(PICTURED) - 1), h), "white")
    for i in range(len(PICTURED)):
        for side in (0, 1):
            out.paste(cards[side][i].resize((w, h), Image.LANCZOS), ((2 * i + side) * w + i * GAP, 0))
    return out
