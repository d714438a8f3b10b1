"""The print shops the build makes files for (`--pod NAME`), each one record of data.

A shop is what its published file guidance asks for: the card and its bleed and safe zone,
the file (card images or a PDF/X-1a file of one face per page) and the order of its pages, the
printing condition its CMYK is converted for (and where that condition's ICC profile lies), and
what its preflight checks: total ink, smallest text, resolution. The builder (products/pod.py),
the colour conversion (cmyk.py), the card image sizes (profiles.py), `--pod` and its completion,
and the docs read these records; nothing else names a shop. Adding a shop is one record here
(`SHOPS` is read when the build runs, so a test can add one with monkeypatch) and its test
(tests/products/render/test_shops.py adds one). Where each value comes from is cited in
docs/printing.md, "Print shops".

Kept light (dataclasses and units.py's numbers): the command line reads the names while it builds its parsers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.products.render.units import BLEED_IN, MM_PER_IN, TRIM_H_IN, TRIM_W_IN


@dataclass(frozen=True)
class Condition:
    """A printing condition a CMYK file is converted for and declares (its PDF/X output intent)."""

    name: str  #: short name, in messages: "SWOP", "FOGRA39"
    #: the registered condition's identifier (`/OutputConditionIdentifier`) and its description
    identifier: str
    info: str
    #: where its ICC profile may be installed (the first found is used), and the environment
    #: variable that names another file
    places: tuple[str, ...]
    env: str
    #: how to get a profile, for the message of a build that finds none
    install: str
    #: True: without the profile the colours may be converted by a plain formula (and the build
    #: says so); False: the shop's file is not made without its profile
    formula_fallback: bool = False


#: CGATS TR 001 (SWOP), through Ghostscript's SWOP characterisation, default_cmyk.icc, which the
#: Debian/Ubuntu package `ghostscript` installs (its licence, the AGPL, allows shipping it).
SWOP = Condition(
    "SWOP", "CGATS TR 001", "U.S. Web Coated (SWOP) v2",
    ("/usr/share/color/icc/ghostscript/default_cmyk.icc", "/usr/share/ghostscript/iccprofiles/default_cmyk.icc",
     "/usr/local/share/ghostscript/iccprofiles/default_cmyk.icc",
     "/opt/homebrew/share/ghostscript/iccprofiles/default_cmyk.icc"),
    "COUNTY_UPPY_CMYK_PROFILE", "install Ghostscript (apt-get install ghostscript)", formula_fallback=True)

#: FOGRA39 (ISO 12647-2:2004 coated), Europe's sheet-fed offset condition, through the profile
#: shipped beside this module (icc/FOGRA39L.icc: made with ArgyllCMS from Fogra's FOGRA39L
#: characterisation data as Debian's icc-profiles-free carries it, Zlib licence; icc/FOGRA39L.txt
#: says how to remake it and how close it is). Only that file, so every machine converts alike;
#: COUNTY_UPPY_FOGRA39_PROFILE names another (ECI's ISOcoated_v2_eci.icc, or the shop's own).
FOGRA39_PROFILE = Path(__file__).resolve().parent / "icc" / "FOGRA39L.icc"
FOGRA39 = Condition(
    "FOGRA39", "FOGRA39", "Coated FOGRA39 (ISO 12647-2:2004)", (str(FOGRA39_PROFILE),),
    "COUNTY_UPPY_FOGRA39_PROFILE",
    f"unset COUNTY_UPPY_FOGRA39_PROFILE to use the profile shipped in {FOGRA39_PROFILE.parent}, "
    "or set it to a FOGRA39 ICC file (ECI's ISOcoated_v2_eci.icc, or the one your shop sends)")


#: How a shop wants a card's faces, one face per page or per image:
#: "images": one PNG per distinct face and back.png (the shop pairs them when you upload);
#: "back-front" / "front-back": for every printed card its two faces, in that order;
#: "fronts-back": every printed card's front, then the common back once.
ORDERS = ("images", "back-front", "front-back", "fronts-back")


@dataclass(frozen=True)
class Shop:
    """One print-on-demand target."""

    name: str  #: its `--pod` name
    title: str  #: the shop's name, in docs and messages
    #: where the shop publishes what it asks for (docs/printing.md cites it)
    guide: str
    #: where its files go in the output folder: a folder of images, or the PDF's path
    path: str
    file: str  #: "png" (card images, sRGB) or "pdf" (PDF/X-1a:2003, CMYK)
    order: str  #: one of ORDERS
    trim_mm: tuple[float, float] = (2.5 * MM_PER_IN, 3.5 * MM_PER_IN)  #: the cut card, width × height
    bleed_mm: float = 0.125 * MM_PER_IN  #: printed past the cut on every side
    safe_mm: float = 0.125 * MM_PER_IN  #: text keeps this far inside the cut
    condition: Condition | None = None  #: CMYK files: the condition converted for; None: sRGB images
    ink_limit: int | None = None  #: total ink, percent (C+M+Y+K), CMYK files
    #: the rich black of dark neutral fills, (c, m, y, k) 0..1, within the ink limit
    rich_black: tuple[float, float, float, float] | None = None
    min_text_pt: float = 6.0  #: the smallest text the shop's preflight accepts
    dpi: int = 300  #: the resolution the shop asks for (card images are drawn at it)
    #: made by a plain `county-uppy build` (False: only when `--pod NAME` asks: a shop whose
    #: profile the machine may lack, or one whose file would slow every build for few users)
    default: bool = True
    #: the product whose files these are: "pod", or "cards" (The Game Crafter's images are the
    #: card images of output/cards)
    product: str = "pod"

    @property
    def pixels(self) -> tuple[int, int]:
        """A card image's size with its bleed, at the shop's resolution."""
        w, h = self.trim_mm
        return (round((w + 2 * self.bleed_mm) / MM_PER_IN * self.dpi),
                round((h + 2 * self.bleed_mm) / MM_PER_IN * self.dpi))


#: Every shop, The Game Crafter first. Sources: docs/printing.md, "Print shops".
SHOPS: tuple[Shop, ...] = (
    Shop("tgc", "The Game Crafter", "https://www.thegamecrafter.com/make/products/PokerDeck",
         "cards", "png", "images", product="cards"),
    # 822×1122 px: 2.5×3.5 in with 36 px (0.12 in) of bleed a side at 300 dpi
    Shop("mpc", "MakePlayingCards", "https://www.makeplayingcards.com/",
         "pod/mpc", "png", "images", bleed_mm=0.12 * MM_PER_IN),
    Shop("dtc", "DriveThruCards",
         "https://help.drivethrupartners.com/hc/de/articles/12780748203543-Spezifikationen-f%C3%BCr-gedruckte-Karten",
         "pod/county-uppy-drivethrucards.pdf", "pdf", "back-front", condition=SWOP, ink_limit=240,
         rich_black=(0.40, 0.30, 0.30, 1.00)),
    Shop("printninja", "PrintNinja", "https://printninja.com/printing-resource-center/",
         "pod/county-uppy-printninja.pdf", "pdf", "fronts-back", condition=SWOP, ink_limit=300,
         rich_black=(0.40, 0.30, 0.30, 1.00), default=False),
    # --pod only, as PrintNinja: the faces converted again for FOGRA39 add ~12% CPU to a full build
    Shop("mbprint", "MB Print", "https://mbprint.pl/en/?p=658",
         "pod/county-uppy-mbprint.pdf", "pdf", "front-back", trim_mm=(63.5, 89.0), bleed_mm=3.0, safe_mm=4.0,
         condition=FOGRA39, ink_limit=300, rich_black=(0.30, 0.30, 0.0, 1.00), default=False),
)


def names() -> tuple[str, ...]:
    """Every shop's `--pod` name."""
    return tuple(s.name for s in SHOPS)


def defaults() -> tuple[str, ...]:
    """The shops a build makes files for when `--pod` is not given."""
    return tuple(s.name for s in SHOPS if s.default)


def shop(name: str) -> Shop:
    """The shop called `name` (KeyError when there is none)."""
    for s in SHOPS:
        if s.name == name:
            return s
    raise KeyError(name)


def lowest_ink_limit() -> Shop | None:
    """The CMYK shop with the lowest ink limit: a colour's own CMYK must keep within it."""
    cmyk = [s for s in SHOPS if s.ink_limit is not None]
    return min(cmyk, key=lambda s: (s.ink_limit, s.name)) if cmyk else None


#: How far a shop's card may differ from the faces' (2.5×3.5 in) on a side, in mm: the faces
#: are centred on the shop's trim, so the difference comes out of their own bleed.
TRIM_TOLERANCE_MM = 0.5


def problem(s: Shop) -> str | None:
    """What keeps the build from making shop `s`'s file from the faces it draws (None: nothing)."""
    face = (TRIM_W_IN * MM_PER_IN, TRIM_H_IN * MM_PER_IN)
    if s.order not in ORDERS or (s.order == "images") != (s.file == "png") or s.file not in ("png", "pdf"):
        return f"shop '{s.name}': a {s.file} file in page order '{s.order}' is not one the build makes"
    if any(abs(a - b) > TRIM_TOLERANCE_MM for a, b in zip(s.trim_mm, face)):
        return (f"shop '{s.name}' ({s.title}) cuts {s.trim_mm[0]:g}×{s.trim_mm[1]:g} mm cards; the faces are "
                f"{face[0]:g}×{face[1]:g} mm")
    room = min(BLEED_IN * MM_PER_IN - (a - b) / 2 for a, b in zip(s.trim_mm, face))
    if s.bleed_mm > room + 1e-9:
        return (f"shop '{s.name}' ({s.title}) asks for {s.bleed_mm:g} mm of bleed on {s.trim_mm[0]:g}×"
                f"{s.trim_mm[1]:g} mm cards; the faces carry {room:.2f} mm there")
    if s.file == "pdf" and (s.condition is None or s.ink_limit is None or s.rich_black is None):
        return f"shop '{s.name}' ({s.title}): a CMYK file needs a condition, an ink limit and a rich black"
    if s.rich_black is not None and s.ink_limit is not None and sum(s.rich_black) * 100 > s.ink_limit - 10 + 1e-9:
        return f"shop '{s.name}' ({s.title}): its rich black is over its ink limit less 10 points"
    return None
