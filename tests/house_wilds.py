"""A deck with house wilds written only in YAML: the README's Halve and Gift ("Adding a wild",
its own block, run) and three more (Tax, Grab Two, Backwards), with the pair of reference card
types that holds the extra wilds. Used by the catalogue's end-to-end tests and the house
scenarios (tests/scenarios/house/)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
#: The README's "Adding a wild" manifest block: Halve and Gift.
README_WILDS = re.search(r"<!-- wild: manifest -->\n```yaml\n(.*?)```", README, flags=re.S).group(1)  # type: ignore[union-attr]
MORE_WILDS = """\
  - kind: wild
    set: chaos
    code: TAX
    name: Tax
    does:
      - discard: {who: others, cards: 1}
    text: Everyone else discards a card.
    copies: 2
  - kind: wild
    set: chaos
    code: GRAB2
    name: Grab Two
    does:
      - take: {from: chosen, cards: 2}
    text: Take two cards at random from a player.
    copies: 2
  - kind: wild
    set: chaos
    code: BACK
    name: Backwards
    does:
      - pass_hands: {to: previous}
      - count: {add: -3}
    text: Everyone passes their hand back. Take 3 from the count.
    copies: 2
"""
REFERENCES = """\
  - {kind: reference, set: base, code: REF2, name: Quick Reference, copies: 1}
  - {kind: reference, set: base, code: REFW2, name: More Wild Cards, copies: 1}
"""
CODES = ("HALF", "GIFT", "TAX", "GRAB2", "BACK")


def house_manifest(folder: Path, more: bool = True) -> Path:
    """cards.yaml with the README's two wilds (and, `more`, three of ours) after the shipped
    cards, the editions' expect raised as the README says, and the art beside it."""
    text = (ROOT / "cards.yaml").read_text(encoding="utf-8")
    added = README_WILDS + (MORE_WILDS + REFERENCES if more else "")
    n = 4 + (6 if more else 0)
    head, sep, rest = text.partition("\neditions:\n")
    text = head.rstrip("\n") + "\n" + added + "\n" + sep.lstrip("\n") + rest
    for old in (201, 93, 123):  # the editions that take the chaos wilds
        text = text.replace(f"expect: {old}\n", f"expect: {old + n}\n", 1)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copytree(ROOT / "art", folder / "art", dirs_exist_ok=True)
    path = folder / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    return path
