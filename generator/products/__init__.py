"""Deck -> files: every product the build writes, one record each.

Kept light: the command line reads the records while it builds its parsers (the `--only`
choices, shell completion), before any product module (and reportlab, Pillow, jinja2) is
loaded, so a record names its builder as `module:function` and the build imports it.

Adding a product is its module and one record here: the build, the mirror (which folder of the
output is the product's own), the card images drawn for it, `--only`, shell completion and the
docs all read it. PRODUCTS is the one list: everything reads it when it runs (through `names()`
and `folders()`, never a copy made at import), so a record added to it is a product end to end,
even one added by a test (`monkeypatch.setattr(products, "PRODUCTS", (*PRODUCTS, record))`, as
tests/products/test_add_a_product.py does with a module outside the package).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Product:
    """One product of the build."""

    #: its `--only` name, and the `product` of its files in build.json
    name: str
    #: the function that builds it, `module:function`: (BuildContext) -> list[Artifact], or a
    #: function that waits for work handed to workers and returns them (see `background`), or
    #: hands back another such function, waited for after the other products' (work still going on)
    builder: str
    #: what it is, for `--help` and the docs
    summary: str
    #: the folder of the output it owns ("" for files at the top, such as deck.json): files in it
    #: that no build listed are named as foreign, and an earlier build's files there are removed
    #: when this build no longer makes them
    folder: str = ""
    #: the raster profile of the card images it shows (render/profiles.py), "" for none
    images: str = ""
    #: `module:function` (BuildContext) -> the face codes it shows in that profile (None: every
    #: face; none at all: the build asks for no image of that profile for it); "" for every face
    image_faces: str = ""
    #: `module:function` (BuildContext) -> the PDF forms of the faces it makes, as (ink-saver faces,
    #: CMYK conversion or None) pairs: the pictures they show are prepared as the build starts
    #: (pipeline/pictures.py); "" for none
    forms: str = ""
    #: it hands its work to worker processes, so it starts early and is waited for after the last
    #: product has started
    background: bool = False
    #: it wants the build's stamp (pipeline/provenance.py: the version, the manifest's fingerprint
    #: and a date) as soon as it starts: the build begins the stamp as it starts (git is asked
    #: then); a product that asks for the stamp without this gets it made when it asks
    stamp_early: bool = False
    #: `module:function` (BuildContext) -> None, its first step, taken as the build starts, before
    #: the card images' workers are started (the rulebook PDF's browser starts then): it raises
    #: nothing (what fails there fails again where the build meets it); "" for none
    early: str = ""


#: Every product, in build order: those that hand their work to workers first, the rulebook's
#: first of them (its page is made on a worker while the others start; its PDFs are printed by
#: a browser while the others finish).
PRODUCTS: tuple[Product, ...] = (
    Product("deck", "generator.products.deck_json:build_deck_json", "deck.json, the deck as data"),
    Product("rulebook", "generator.products.rulebook.page:build_rulebook",
            "rulebook.html with the quick reference, and rulebook-designer.html",
            images="rulebook", image_faces="generator.products.rulebook.images:rulebook_faces", background=True),
    Product("rulebook-pdf", "generator.products.rulebook.pdf:build_rulebook_pdf",
            "rulebook.pdf, rulebook-booklet.pdf and rulebook-shop.pdf, the rulebook printed by headless Chromium in the cards' typeface",
            images="rulebook", image_faces="generator.products.rulebook.images:rulebook_faces", background=True,
            early="generator.products.rulebook.pdf:start_early"),
    Product("print", "generator.products.print_and_play:build_print",
            "print-and-play PDF sheets with their test page, and the card-count sheet",
            folder="print", forms="generator.products.print_and_play:form_variants", background=True, stamp_early=True),
    Product("pod", "generator.products.pod:build_pod", "print-shop files, one set per shop (--pod): PDF/X-1a files, MakePlayingCards images",
            folder="pod", images="mpc", image_faces="generator.products.pod:mpc_faces",
            forms="generator.products.pod:form_variants", background=True, stamp_early=True),
    Product("tts", "generator.products.tts:build_tts", "Tabletop Simulator deck sheets and saved object",
            folder="tts", images="tts", background=True),
    Product("cards", "generator.products.cards:build_cards", "one PNG per card face, with bleed",
            folder="cards", images="tgc"),
)


def names() -> tuple[str, ...]:
    """The products' names, in build order (`--only`'s choices)."""
    return tuple(p.name for p in PRODUCTS)


def folders() -> tuple[str, ...]:
    """The output folders the products own."""
    return tuple(p.folder for p in PRODUCTS if p.folder)


def product(name: str) -> Product:
    """The record of the product called `name` (KeyError when there is none)."""
    for p in PRODUCTS:
        if p.name == name:
            return p
    raise KeyError(name)
