"""What every face's file is made of and no edit of a card's text changes is kept in the face
cache by its content: the outlines of the icon files (area `outline`) and the subsets of the
fonts the faces' files embed (area `font-subset`). A rebuild in a new process (its memory
forgotten here) after a wild's text changed traces no icon and subsets no font for the faces'
files, and still writes the files of a cold build, sha256 for sha256.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from generator.deck.manifest import load_bytes
from generator.products.build import BuildRequest, build
from generator.products.render import faces, pdf_file
from generator.products.render.assets import icon_files
from tests.conftest import ROOT

PRODUCTS = ("deck", "cards", "print", "pod")
ABOUT_THE_BUILD = {"changes.json", "build.json"}
EDIT = ("text: Skip the next player's turn.", "text: Skip the next player's turn, twice.")


def files(out: Path) -> dict[str, str]:
    return {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file() and ".cache" not in p.relative_to(out).parts
            and p.relative_to(out).as_posix() not in ABOUT_THE_BUILD}


def new_process() -> None:
    """Forget what this process kept of earlier builds, as a new `county-uppy build` starts."""
    faces.forget()
    icon_files.forget_outlines()
    pdf_file.forget_subsets()


def test_a_text_edit_s_rebuild_takes_the_icons_outlines_and_the_fonts_subsets_from_the_cache(tmp_path, monkeypatch):
    text = (ROOT / "cards.yaml").read_text(encoding="utf-8")
    assert EDIT[0] in text
    deck = load_bytes(text.encode("utf-8"), str(ROOT / "cards.yaml"))
    edited = load_bytes(text.replace(*EDIT).encode("utf-8"), str(ROOT / "cards.yaml"))
    out, cold = tmp_path / "out", tmp_path / "cold"
    new_process()
    build(deck, BuildRequest(ROOT / "cards.yaml", out, only=PRODUCTS, jobs=1))

    traced, subsetted = [], []
    outlines, subsets = icon_files.svg_outlines, pdf_file._subset_objects
    monkeypatch.setattr(icon_files, "svg_outlines", lambda data: traced.append(data) or outlines(data))
    monkeypatch.setattr(pdf_file, "_subset_objects", lambda *a: subsetted.append(a) or subsets(*a))
    new_process()
    built = build(edited, BuildRequest(ROOT / "cards.yaml", out, only=PRODUCTS, jobs=1))
    assert built.redrawn["tgc"] == ["SKIP"]  # the edited face was drawn, and its forms made
    assert traced == []
    faces_subsets = set(pdf_file.subsets_of(faces.charset(edited)))
    assert subsetted and not faces_subsets & set(subsetted)  # (the print sheets' own, with their test page's text, are made)

    monkeypatch.undo()
    new_process()
    build(edited, BuildRequest(ROOT / "cards.yaml", cold, only=PRODUCTS, jobs=1))
    assert files(out) == files(cold)
