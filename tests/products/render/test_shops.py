"""Print shops as data (render/press/shops.py): each shop's file read back as its preflight reads it,
a shop added by a record alone, the FOGRA39 shop through the profile the package ships, and
the manifest's own CMYK colours."""

from __future__ import annotations

import re
from pathlib import Path

import pikepdf
import pytest

from generator.products.build import BuildRequest, build
from generator.products.render.press import cmyk, shops
from generator.products.render.press.shops import SWOP, Shop
from generator.products.render.units import mm
from tests.conftest import ROOT
from tests.ghostscript import need_press_profile

DOCS = (ROOT / "docs" / "printing.md").read_text(encoding="utf-8")


def colour_ops(path: Path) -> set[tuple[float, ...]]:
    """Every CMYK value the file's pages and forms set."""
    found: set[tuple[float, ...]] = set()
    with pikepdf.open(path) as pdf:
        seen: set = set()
        for page in pdf.pages:
            for obj in [page.obj, *(page.obj.Resources.get("/XObject") or {}).values()]:
                if obj.objgen in seen:
                    continue
                seen.add(obj.objgen)
                for operands, op in pikepdf.parse_content_stream(obj):
                    if str(op) in ("k", "K"):
                        found.add(tuple(round(float(v), 2) for v in operands))
                    assert str(op) not in ("rg", "RG", "sc", "scn", "cs"), path.name
    return found


def sides(path: Path, back_words: str = "County") -> list[str]:
    """'back' or 'front' for every page, read from its text (the back names the game)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(path)
    try:
        return ["back" if back_words in doc[i].get_textpage().get_text_range() else "front" for i in range(len(doc))]
    finally:
        doc.close()


def test_every_shop_is_one_record_the_faces_can_meet_and_the_docs_cite():
    names = shops.names()
    assert len(names) == len(set(names)) and {"tgc", "mpc", "dtc", "printninja", "mbprint"} <= set(names)
    for s in shops.SHOPS:
        assert shops.problem(s) is None, s.name
        assert s.guide in DOCS, f"docs/printing.md does not cite {s.title}'s guidance"
        assert f"`{s.name}`" in DOCS, f"docs/printing.md's table has no row for {s.name}"
    assert shops.shop("tgc").pixels == (825, 1125) and shops.shop("mpc").pixels == (822, 1122)
    assert shops.lowest_ink_limit().name == "dtc"
    # the record's own checks: a card the faces cannot fill, and more bleed than the faces carry
    assert "cuts 59×92 mm cards" in shops.problem(Shop("euro", "Euro", "", "pod/x.pdf", "pdf", "front-back",
                                                       trim_mm=(59, 92), condition=SWOP, ink_limit=300,
                                                       rich_black=(0.4, 0.3, 0.3, 1)))
    assert "faces carry 3.17 mm" in shops.problem(Shop("wide", "Wide", "", "pod/x.pdf", "pdf", "front-back",
                                                       bleed_mm=5, condition=SWOP, ink_limit=300,
                                                       rich_black=(0.4, 0.3, 0.3, 1)))


def test_printninja_file_is_every_front_then_the_back_once(tmp_path, deck):
    build(deck, BuildRequest(ROOT / "cards.yaml", tmp_path, only=("pod",), pod=("printninja",)))
    path = tmp_path / shops.shop("printninja").path
    order = sides(path)
    assert order == ["front"] * deck.printed + ["back"]
    with pikepdf.open(path) as pdf:
        (intent,) = pdf.Root.OutputIntents
        assert str(intent.OutputConditionIdentifier) == "CGATS TR 001"
        assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-1a:2003" and "/ViewerPreferences" not in pdf.Root
        media = [float(v) for v in pdf.pages[0].MediaBox]
        assert media[2] == pytest.approx(mm(63.5 + 2 * 3.175)) and media[3] == pytest.approx(mm(88.9 + 2 * 3.175))
    assert all(sum(v) <= 2.90 + 1e-9 for v in colour_ops(path))  # within 300% less the 10-point headroom


EURO = Shop("euroshop", "Euro Cards", "https://example.invalid/euro-cards/specs", "pod/county-uppy-euroshop.pdf",
            "pdf", "front-back", bleed_mm=3.0, safe_mm=6.0, condition=SWOP, ink_limit=260,
            rich_black=(0.30, 0.30, 0.0, 1.0), default=False)


def test_a_shop_is_added_by_its_record_alone(monkeypatch, tmp_path, deck):
    """A new shop is one record: `--pod` offers it, the build writes its file where the record
    says, in its page order, bleed and condition, within its ink limit, and its preflight flags
    the text that stands inside its 6 mm safe zone."""
    from generator.cli import main

    monkeypatch.setattr(shops, "SHOPS", (*shops.SHOPS, EURO))
    out = tmp_path / "out"
    status = main(["build", "--only", "pod", "--pod", "euroshop", "--out", str(out), "--manifest", str(ROOT / "cards.yaml")])
    assert status == 0
    path = out / EURO.path
    assert sides(path) == ["front", "back"] * deck.printed
    assert not (out / "pod" / "county-uppy-drivethrucards.pdf").exists()  # only the shop asked for
    with pikepdf.open(path) as pdf:
        page = pdf.pages[0]
        media, trim = [float(v) for v in page.MediaBox], [float(v) for v in page.TrimBox]
        assert media[2] == pytest.approx(mm(63.5 + 6)) and media[3] == pytest.approx(mm(88.9 + 6))
        assert trim == pytest.approx([mm(3), mm(3), mm(66.5), mm(91.9)])
        assert "Euro Cards" in str(pdf.docinfo.Subject)
    assert max(sum(v) for v in colour_ops(path)) <= 2.50 + 1e-9
    assert (0.3, 0.3, 0.0, 1.0) in colour_ops(path)  # the shop's rich black (the chaos interior)
    built = build(deck, BuildRequest(ROOT / "cards.yaml", out, only=("pod",), pod=("euroshop",)))
    (flag,) = [n for n in built.notes if "preflight" in n]
    inside = float(re.search(r"stands ([0-9.]+) mm inside the cut", flag).group(1))
    assert flag.startswith(EURO.path) and "Euro Cards" in flag and 4.0 < inside < 6.0, flag


def press_lab(profile: str, cmyks: list[tuple[float, ...]], rgbs: list[tuple[int, int, int]]):
    """CIELAB of CMYK values (0..1) printed on the press of `profile`, and of sRGB colours: a soft
    proof made here with LittleCMS, apart from cmyk.py's own."""
    from PIL import Image, ImageCms

    lab, intent = ImageCms.createProfile("LAB"), ImageCms.Intent.RELATIVE_COLORIMETRIC
    press = ImageCms.buildTransform(ImageCms.getOpenProfile(profile), lab, "CMYK", "LAB", intent)
    srgb = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), lab, "RGB", "LAB", intent)

    def read(image):
        return [(l * 100 / 255, a - 128, b - 128) for l, a, b in (image.getpixel((x, 0)) for x in range(image.width))]

    printed = Image.new("CMYK", (len(cmyks), 1))
    seen = Image.new("RGB", (len(rgbs), 1))
    for x, c in enumerate(cmyks):
        printed.putpixel((x, 0), tuple(round(v * 255) for v in c))
    for x, rgb in enumerate(rgbs):
        seen.putpixel((x, 0), rgb)
    return read(ImageCms.applyTransform(printed, press)), read(ImageCms.applyTransform(seen, srgb))


def test_mb_print_file_is_made_through_the_shipped_fogra39_profile(monkeypatch, tmp_path, deck):
    """`--pod mbprint` with no profile named: converted through the FOGRA39 profile the package
    ships, declared as FOGRA39, 3 mm of bleed on 63.5×89 mm, front and back alternating, and its
    colours soft-proofed back through that profile within ΔE00 3 wherever the press can print them."""
    from generator.cli import main
    from tests.products.render.test_drivethrucards import face_colours

    s = shops.shop("mbprint")
    monkeypatch.delenv(s.condition.env, raising=False)
    cmyk.press_profile.cache_clear()
    try:
        found = cmyk.press_profile(s.condition)
        assert found is not None and Path(found.path) == shops.FOGRA39_PROFILE
        assert "FOGRA39" in found.description
        out = tmp_path / "out"
        assert main(["build", "--only", "pod", "--pod", "mbprint", "--out", str(out),
                     "--manifest", str(ROOT / "cards.yaml")]) == 0
        path = out / s.path
        assert sides(path) == ["front", "back"] * deck.printed
        with pikepdf.open(path) as pdf:
            (intent,) = pdf.Root.OutputIntents
            assert str(intent.OutputConditionIdentifier) == "FOGRA39" and str(intent.S) == "/GTS_PDFX"
            assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-1a:2003"
            for page in pdf.pages:
                assert [float(v) for v in page.MediaBox][2:] == pytest.approx([mm(69.5), mm(95.0)])
                assert [float(v) for v in page.TrimBox] == pytest.approx([mm(3), mm(3), mm(66.5), mm(92)])
        ink = cmyk.ink_for(s)
        fills, texts = face_colours(deck)
        in_file = colour_ops(path)
        assert in_file == {cmyk.to_cmyk(c, ink=ink) for c in fills} | {cmyk.to_cmyk(c, True, ink) for c in texts}
        assert (0.3, 0.3, 0.0, 1.0) in in_file  # MB Print's rich black
        assert max(sum(v) for v in in_file) <= 2.90 + 1e-9  # 300% less the 10-point headroom
        # every colour the press can print, but the dark neutrals that print the shop's rich black (the chaos
        # interior) or solid K (the ink's bar under a 6) by design
        colours = sorted(c for c in fills | {c.rgb for c in deck.colours}
                         if cmyk.in_gamut(c, ink) and cmyk.to_cmyk(c, ink=ink) not in (ink.rich_black, (0.0, 0.0, 0.0, 1.0)))
        assert len(colours) >= 6  # cyan, magenta, the back, its ink, the frames...
        printed, wanted = press_lab(found.path, [cmyk.to_cmyk(c, ink=ink) for c in colours],
                                    [tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in colours])
        for colour, p, q in zip(colours, printed, wanted):
            assert cmyk._delta_e(p, q) <= 3.0, (colour, p, q)  # CIEDE2000, as the conversion chooses
    finally:
        cmyk.press_profile.cache_clear()


def test_a_fogra39_profile_named_but_missing_stops_the_build_saying_so(monkeypatch, tmp_path, capsys):
    from generator.cli import main

    s = shops.shop("mbprint")
    monkeypatch.setenv(s.condition.env, str(tmp_path / "none.icc"))
    cmyk.press_profile.cache_clear()
    try:
        out = tmp_path / "out"
        args = ["build", "--only", "pod", "--pod", "mbprint", "--out", str(out), "--manifest", str(ROOT / "cards.yaml")]
        assert main(args) == 2
    finally:
        cmyk.press_profile.cache_clear()
    err = capsys.readouterr().err
    assert "--pod mbprint" in err and "FOGRA39" in err and s.condition.env in err and "Traceback" not in err
    assert f"{s.condition.env} names {tmp_path / 'none.icc'}, which is not an ICC profile of a CMYK press" in err
    assert "unset COUNTY_UPPY_FOGRA39_PROFILE" in err
    assert not out.exists()


def test_the_shipped_fogra39_profile_says_where_it_comes_from():
    """The profile and its note, as the Zlib licence of its source data asks: the origin, the
    altered version marked as such, the notice kept; and the command that remakes it."""
    from PIL import ImageCms

    note = shops.FOGRA39_PROFILE.with_suffix(".txt").read_text(encoding="utf-8")
    profile = ImageCms.getOpenProfile(str(shops.FOGRA39_PROFILE))
    assert profile.profile.xcolor_space.strip() == "CMYK" and ImageCms.getProfileDescription(profile).strip() in note
    for words in ("Files: FOGRA*ti3", "License: Zlib", "NOT Fogra's", "altered version",
                  "apt-get install argyll icc-profiles-free", "colprof -v -qm -kr -l300 -L100",
                  "2. Altered source versions must be plainly marked as such",
                  "3. This notice may not be removed or altered from any source", "max 0.72"):
        assert words in note, words


def own_cmyk_manifest(tmp_path: Path, values: str) -> tuple[Path, int, int]:
    """cards.yaml with green given its own CMYK; the file, and the line and column of its value."""
    text = (ROOT / "cards.yaml").read_text(encoding="utf-8")
    old = '  - {name: green, code: G, print: "#2E9E3E", shape: triangle}'
    assert old in text
    text = text.replace(old, old[:-1] + f", cmyk: {values}}}")
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    at = text.index("cmyk: ") + len("cmyk: ")  # its value
    line = text[:at].count("\n") + 1
    column = at - text.rfind("\n", 0, at)
    return path, line, column


def test_a_colours_own_cmyk_prints_as_given_and_is_proofed(tmp_path):
    """`cmyk: [c, m, y, k]` on a colour: every CMYK file prints that colour with exactly those
    values (the converted ones gone), and the summary's soft proof reports its ΔE."""
    need_press_profile()
    from generator.deck.manifest import load

    manifest, _, _ = own_cmyk_manifest(tmp_path, "[85, 5, 95, 20]")
    deck = load(manifest)
    assert deck.colours[1].cmyk == (85, 5, 95, 20)
    converted = cmyk.to_cmyk("#2E9E3E")
    built = build(deck, BuildRequest(manifest, tmp_path / "out", only=("pod",), pod=("dtc", "printninja")))
    for name in ("dtc", "printninja"):
        ops = colour_ops(tmp_path / "out" / shops.shop(name).path)
        assert (0.85, 0.05, 0.95, 0.2) in ops and converted not in ops, name
    own = cmyk.ink_for(shops.shop("dtc"), (("#2E9E3E", (0.85, 0.05, 0.95, 0.2)),))
    expected = cmyk.soft_proof("#2E9E3E", ink=own)
    assert expected != pytest.approx(cmyk.soft_proof("#2E9E3E"))
    (line,) = [n for n in built.notes if n.startswith("pod/county-uppy-drivethrucards.pdf: colours on press")]
    assert f"green {expected:.1f}" in line
    # far from its print colour by the designer's choice, not the press's gamut (FOGRA39 prints #2E9E3E within 1)
    assert "green prints the manifest's own cmyk, not its print colour" in line and "gamut" not in line, line


@pytest.mark.parametrize("values, message", [
    ("[80, 10, 100, 60]", "colour 'green': cmyk [80, 10, 100, 60] is 250% of ink, over the 240% limit of DriveThruCards"),
    ("[80, 10, 100]", "'cmyk' must hold at least 4 values, not 3"),
    ("[80, 10, 100, 0, 0]", "'cmyk' must hold at most 4 values, not 5"),
])
def test_an_own_cmyk_the_shops_cannot_print_is_refused_at_its_line(tmp_path, capsys, values, message):
    from generator.cli import main

    manifest, line, column = own_cmyk_manifest(tmp_path, values)
    assert main(["validate", "--manifest", str(manifest)]) == 1
    err = capsys.readouterr().err
    assert f"{manifest}:{line}:{column}: {message}" in err, err
    assert main(["build", "--only", "pod", "--out", str(tmp_path / "out"), "--manifest", str(manifest)]) == 1
    assert not (tmp_path / "out").exists()


def test_the_preflight_flags_each_limit_a_shop_sets(tmp_path):
    """Each of a shop's preflight limits, crossed on purpose by a face: text under its smallest
    size, text inside its safe zone, a colour over its ink limit (a designer's own CMYK), a
    picture under its resolution, card images of the wrong size; a face within them passes."""
    from PIL import Image as PILImage

    from generator.products.render.press import preflight
    from generator.products.render.items import Face, Image, Text
    from generator.products.render.units import pt_to_dots

    small = tmp_path / "small.png"
    PILImage.new("RGB", (100, 140), "#336699").save(small)
    sharp = tmp_path / "sharp.png"
    PILImage.new("RGB", (760, 1064), "#336699").save(sharp)
    dtc = shops.shop("dtc")
    fine = Face("A", (Text(375, 500, "Fine", pt_to_dots(8), "#202020"), Image(0, 0, 750, 1050, sharp, "cover")))
    assert preflight.findings(dtc, [preflight.measure(fine)], cmyk.ink_for(dtc)) == []
    tiny = Face("B", (Text(375, 500, "tiny", pt_to_dots(5), "#202020"),))
    edge = Face("C", (Text(8, 500, "edge", pt_to_dots(8), "#202020", align="l"),))
    soft = Face("D", (Image(0, 0, 750, 1050, small, "cover"),))
    heavy = Face("E", (Text(375, 500, "ink", pt_to_dots(8), "#2E9E3E"),))
    own = cmyk.ink_for(dtc, (("#2E9E3E", (0.9, 0.5, 0.9, 0.3)),))
    found = preflight.findings(dtc, [preflight.measure(f) for f in (fine, tiny, edge, soft, heavy)], own)
    assert any("text of 'B' prints at 5.0 pt; the shop's smallest is 6 pt" in f for f in found), found
    assert any("text of 'C' stands 0.7 mm inside the cut; the shop keeps text 3.175 mm inside it" in f for f in found), found
    assert any("small.png on 'D' prints at 40 dpi; the shop asks for 300 dpi" in f for f in found), found
    assert any("#2E9E3E prints with 260% ink, over the shop's 240%" in f for f in found), found
    assert len(found) == 4
    mpc = shops.shop("mpc")
    assert preflight.findings(mpc, [preflight.measure(fine)], pixels=(822, 1122)) == []
    (wrong,) = preflight.findings(mpc, [preflight.measure(fine)], pixels=(825, 1125))
    assert "card images are 825×1125 px; the shop asks for 822×1122 px at 300 dpi" in wrong


@pytest.mark.parametrize("profile", ["rgb", "damaged", "not-icc"])
def test_a_swop_profile_named_in_the_environment_must_be_a_cmyk_press_profile(tmp_path, monkeypatch, capsys, profile):
    """COUNTY_UPPY_CMYK_PROFILE naming an RGB profile, or a damaged one, made the DriveThruCards
    file an internal error (PyCMSError, exit 3); a file that is no ICC profile at all was passed
    over in silence, the build saying no profile was set."""
    from PIL import ImageCms

    from generator.cli import main

    path = tmp_path / "press.icc"
    if profile == "rgb":
        path.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    elif profile == "damaged":
        path.write_bytes(b"\0" * 16 + b"CMYK" + b"\0" * 16 + b"acsp" + bytes(range(256)) * 4)
    else:
        path.write_text("not a profile")
    monkeypatch.setenv("COUNTY_UPPY_CMYK_PROFILE", str(path))
    cmyk.press_profile.cache_clear()
    try:
        out = tmp_path / "out"
        status = main(["build", "--only", "pod", "--out", str(out), "--manifest", str(ROOT / "cards.yaml")])
        assert main(["build", "--only", "deck", "--out", str(tmp_path / "deck"), "--manifest", str(ROOT / "cards.yaml")]) == 0
    finally:
        cmyk.press_profile.cache_clear()
    err = capsys.readouterr().err
    assert status == 2 and not out.exists() and "Traceback" not in err
    assert (f"COUNTY_UPPY_CMYK_PROFILE names {path}, which is not an ICC profile of a CMYK press: name a CMYK press "
            "profile, or unset COUNTY_UPPY_CMYK_PROFILE") in err
