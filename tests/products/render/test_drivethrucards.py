"""The DriveThruCards file read back as a print shop's preflight reads it: PDF/X-1a output
intent, CMYK colour operators only, boxes on every page, total ink measured with Ghostscript."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageMath, ImageSequence

from generator.products.render.press import cmyk, shops
from generator.products.render.press.cmyk import INK_LIMIT, RICH_BLACK, to_cmyk, total_ink
from generator.products.render.units import inch, mm
from tests.conftest import ROOT
from tests.ghostscript import need_ghostscript, need_press_profile

DTC = Path("pod") / "county-uppy-drivethrucards.pdf"
RGB_OPERATORS = {"rg", "RG", "sc", "SC", "scn", "SCN", "cs", "CS"}


def streams(pdf: pikepdf.Pdf):
    """Every content stream: each page's and each form XObject's it draws."""
    seen: set = set()
    for page in pdf.pages:
        yield page.obj
        for xobj in (page.obj.Resources.get("/XObject") or {}).values():
            if xobj.objgen not in seen:
                seen.add(xobj.objgen)
                yield xobj


def test_colours_are_cmyk_only(built):
    with pikepdf.open(built / DTC) as pdf:
        used: set[str] = set()
        for obj in streams(pdf):
            for _, op in pikepdf.parse_content_stream(obj):
                used.add(str(op))
        assert not used & RGB_OPERATORS, used & RGB_OPERATORS
        assert {"k", "K"} <= used


def colour_runs(obj) -> list[tuple[str, tuple[float, ...], bool]]:
    """What a content stream paints: (operator, the CMYK it paints in, whether it is text or a
    line) for every fill, stroke and text show, with the colour then in force."""
    fill, stroke, mode, out = (0.0,) * 4, (0.0,) * 4, 0, []
    stack: list = []
    path: list[tuple[float, float]] = []
    for operands, op in pikepdf.parse_content_stream(obj):
        op = str(op)
        if op in ("m", "l"):
            path.append((float(operands[0]), float(operands[1])))
        elif op == "re":
            x, y, w, h = (float(v) for v in operands)
            path += [(x, y), (x + w, y + h)]
        if op == "k":
            fill = tuple(float(v) for v in operands)
        elif op == "K":
            stroke = tuple(float(v) for v in operands)
        elif op == "Tr":
            mode = int(operands[0])
        elif op == "q":
            stack.append((fill, stroke, mode))
        elif op == "Q":
            fill, stroke, mode = stack.pop()
        elif op in ("Tj", "TJ"):
            if mode in (0, 2):
                out.append(("text", fill, True))
            if mode in (1, 2):
                out.append(("text outline", stroke, True))
        elif op in ("S", "s"):
            out.append(("line", stroke, True))
        elif op in ("f", "F", "f*"):
            xs, ys = [x for x, _ in path], [y for _, y in path]
            thin = bool(path) and min(max(xs) - min(xs), max(ys) - min(ys)) <= mm(1.0)  # in points
            out.append(("thin fill" if thin else "fill", fill, thin))
        if op in ("f", "F", "f*", "S", "s", "n"):
            path = []
    return out


def test_no_text_or_line_prints_black_in_more_than_one_ink(built):
    """Text, text outlines, stroked lines and filled shapes 1 mm thin or thinner (the rule under
    a 6, the wilds' separators) that print black (K 90% and more) print on the black plate
    alone, as print shops ask: a thin rich black shows colour fringes wherever the four plates
    miss each other by a hair. Only larger fills (the chaos interior) are rich black."""
    seen: dict[str, int] = {}
    with pikepdf.open(built / DTC) as pdf:
        for obj in streams(pdf):
            for what, colour, thin in colour_runs(obj):
                seen[what] = seen.get(what, 0) + 1
                if thin and colour[3] >= 0.9:
                    assert colour[:3] == (0, 0, 0), (what, colour)
    assert seen.get("text", 0) > 100 and seen.get("text outline", 0) > 20 and seen.get("line", 0) > 100, seen
    assert seen.get("thin fill", 0) >= 9 and seen.get("fill", 0) > 100, seen


def test_pdfx_output_intent_boxes_and_no_transparency(built, deck):
    with pikepdf.open(built / DTC) as pdf:
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == pikepdf.Name.GTS_PDFX
        assert str(intent.OutputConditionIdentifier) == "CGATS TR 001"
        assert str(intent.RegistryName) == "http://www.color.org"
        assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-1a:2003"
        assert str(pdf.docinfo.Trapped) == "/False"
        assert len(pdf.pages) == 2 * deck.printed
        assert "/ViewerPreferences" not in pdf.Root  # PDF/X-1a:2003 is PDF 1.4: no 1.6 or 1.7 viewer keys
        assert pdf.pdf_version == "1.4"
        bleed = inch(0.125)
        for page in pdf.pages:
            media = [float(v) for v in page.MediaBox]
            assert [float(v) for v in page.BleedBox] == media
            assert [float(v) for v in page.TrimBox] == pytest.approx(
                [media[0] + bleed, media[1] + bleed, media[2] - bleed, media[3] - bleed])
            assert media[2] - media[0] == pytest.approx(inch(2.75)) and media[3] - media[1] == pytest.approx(inch(3.75))
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary):
                assert "/SMask" not in obj
                assert obj.get("/S") != pikepdf.Name.Transparency
                for key in ("/CA", "/ca"):
                    assert float(obj.get(key, 1)) == 1


def test_page_order_alternates_back_and_front_for_every_card(built, deck):
    """DriveThruCards' card files alternate back, front for every card (as squib's DriveThruCards
    sheet and mpc-autofill's DriveThruCards export both make them): 424 pages for 212 cards, each
    odd page the back, each even page the front of the next card in deck order."""
    import pypdfium2 as pdfium

    expected = [c for c in deck.cards for _ in range(c.copies)]
    doc = pdfium.PdfDocument(built / DTC)
    try:
        assert len(doc) == 2 * len(expected) == 2 * deck.printed
        forms = []
        for i in range(len(doc)):
            page = doc[i]
            (form,) = [o for o in page.get_objects() if o.type == pdfium.raw.FPDF_PAGEOBJ_FORM]
            forms.append(form)
        back_text = doc[0].get_textpage().get_text_range()
        assert "County" in back_text and "Uppy" in back_text
        for n, card in enumerate(expected):
            back, front = doc[2 * n].get_textpage().get_text_range(), doc[2 * n + 1].get_textpage().get_text_range()
            assert back == back_text, f"page {2 * n + 1} is not the back"
            assert "County" not in front, f"page {2 * n + 2} is not a front"
            if card.kind == "reference":
                assert card.name.upper().split()[0] in front.upper(), (n, card.code)
            elif card.kind == "wild":  # its text (a name that repeats its glyph is not printed)
                assert " ".join(card.text.split()[:3]).upper() in " ".join(front.upper().split()), (n, card.code)
    finally:
        doc.close()


def test_total_ink_at_most_240_percent_everywhere(built, tmp_path):
    """Ghostscript renders every page to CMYK (tiff32nc, DeviceCMYK passed through, no
    anti-aliasing), and no pixel's C+M+Y+K exceeds 240%."""
    need_ghostscript()
    tif = tmp_path / "dtc.tif"
    subprocess.run(["gs", "-q", "-dSAFER", "-o", str(tif), "-sDEVICE=tiff32nc", "-r60", str(built / DTC)], check=True,
                   timeout=600)
    worst, pages, rich = 0, 0, False
    with Image.open(tif) as im:
        for frame in ImageSequence.Iterator(im):
            assert frame.mode == "CMYK"
            c, m, y, k = (band.convert("I") for band in frame.split())
            total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
            worst = max(worst, total.getextrema()[1])
            rich = rich or frame.getpixel((frame.width // 2, frame.height // 3))[3] == 255
            pages += 1
    assert pages > 200
    assert worst <= round(INK_LIMIT * 255), worst / 255
    assert worst >= round(1.5 * 255)  # the dark colours really are there (rich black, navy back)
    assert rich  # a chaos card's interior prints on the black plate, as a rich black


def test_light_text_and_icons_on_rich_black_keep_the_colour_plates_away(built, deck, tmp_path):
    """White text, rules and icons on a chaos card's rich black (C40 M30 Y30 K100) have a band
    of black alone around them, at least 0.085 mm wide: Ghostscript renders a chaos wild's front
    (its white name, text, rule and icon, nothing else white) at 600 dpi, and every black pixel
    within 2 pixels of a white one carries no cyan, magenta or yellow, so plates that miss each
    other by a hair put no colour into the light ink."""
    need_ghostscript()
    expected = [c for c in deck.cards for _ in range(c.copies)]
    n = next(i for i, c in enumerate(expected) if c.set == "chaos" and c.kind == "wild")
    tif = tmp_path / "page.tif"
    subprocess.run(["gs", "-q", "-dSAFER", "-o", str(tif), "-sDEVICE=tiff32nc", "-r600", f"-dFirstPage={2 * n + 2}",
                    f"-dLastPage={2 * n + 2}", str(built / DTC)], check=True, timeout=120)
    with Image.open(tif) as im:
        assert im.mode == "CMYK"
        c, m, y, k = (band.tobytes() for band in im.split())
        width = im.width
    white = {i for i in range(len(k)) if c[i] == m[i] == y[i] == k[i] == 0}
    near = {i + dy * width + dx for i in white for dy in range(-2, 3) for dx in range(-2, 3) if dx * dx + dy * dy <= 4}
    ring = [i for i in near - white if 0 <= i < len(k) and k[i] == 255]
    assert len(white) > 20000 and len(ring) > 5000, (len(white), len(ring))  # the text is there, on the black
    fringed = [i for i in ring if c[i] or m[i] or y[i]]
    assert not fringed, f"{len(fringed)} of {len(ring)} black pixels beside white ink carry colour"


def test_conversion_stays_under_the_limit_for_any_colour():
    rng = random.Random(11)
    for _ in range(300):
        colour = "#" + "".join(f"{rng.randrange(256):02X}" for _ in range(3))
        assert total_ink(colour) <= 2.31, colour
        assert all(0 <= v <= 1 for v in to_cmyk(colour))
    assert to_cmyk("#121212") == RICH_BLACK and sum(RICH_BLACK) <= INK_LIMIT  # the chaos interior
    assert to_cmyk("#FFFFFF") == (0, 0, 0, 0)
    assert to_cmyk("#1A1A1A", text=True) == (0, 0, 0, 1.0)  # solid dark text: 100% K, the black plate alone
    assert to_cmyk("#555555", text=True) == (0, 0, 0, 0.67)  # grey text: the black plate alone


def test_without_a_press_profile_the_formula_converts_and_the_build_says_so(tmp_path, monkeypatch, deck):
    from generator.products.build import BuildRequest, build

    cmyk.press_profile.cache_clear()
    cmyk.to_cmyk.cache_clear()
    monkeypatch.setenv(cmyk.PROFILE_ENV, str(tmp_path / "missing.icc"))
    try:
        assert cmyk.press_profile() is None and cmyk.profile_key().startswith("('formula'")
        assert to_cmyk("#00A3D9") == (1.0, 0.24, 0.0, 0.15)
        assert to_cmyk("#500720") == (0.0, 0.91, 0.6, 0.69)  # 220%: kept
        assert to_cmyk("#3F0000") == (0.0, 0.77, 0.77, 0.75)  # 275% scaled under 230%
        built = build(deck, BuildRequest(ROOT / "cards.yaml", tmp_path / "out", only=("pod",), pod=("dtc",)))
        assert any("no CMYK press profile on this machine" in line and "apt-get install ghostscript" in line
                   for line in built.notes), built.notes
    finally:
        cmyk.press_profile.cache_clear()
        cmyk.to_cmyk.cache_clear()


def face_colours(deck) -> tuple[set[str], set[str]]:
    """The colours the faces fill shapes with, and the colours of their text and lines (a text's
    outline, a stroked shape, a shape 1 mm thin), which the CMYK files convert as text (neutral
    ones on the black plate alone)."""
    from generator.products.render.faces import Poly, Stroke, Text, back_face, face
    from generator.products.render.pdf import is_line

    fills, texts = set(), set()
    for item in [i for c in deck.cards for i in face(c, deck).items] + list(back_face(deck).items):
        if isinstance(item, Text):
            texts.add(item.fill)
            if item.stroke:
                texts.add(item.stroke_colour)
        elif isinstance(item, Poly):
            (texts if is_line(item) else fills).add(item.fill)
        elif isinstance(item, Stroke):
            texts.add(item.colour)
    return fills, texts


def test_soft_proof_of_the_file_within_3_for_every_colour_the_press_can_print(built, deck):
    """The DriveThruCards file's CMYK, soft-proofed through the press profile back to CIELAB,
    lands within ΔE00 3 (CIEDE2000) of the design's sRGB for every colour the press can print within the ink
    limit (colour-managed through LittleCMS), and the file carries exactly those values."""
    need_press_profile()
    fills, texts = face_colours(deck)
    in_file: set[tuple[float, ...]] = set()
    with pikepdf.open(built / DTC) as pdf:
        for obj in streams(pdf):
            for operands, op in pikepdf.parse_content_stream(obj):
                if str(op) in ("k", "K"):
                    in_file.add(tuple(round(float(v), 2) for v in operands))
    expected = {to_cmyk(c) for c in fills} | {to_cmyk(c, text=True) for c in texts}
    assert in_file == expected
    checked = 0
    for colour in sorted(fills | {c.rgb for c in deck.colours}):
        if cmyk.in_gamut(colour):
            assert cmyk.soft_proof(colour) <= 3.0, (colour, to_cmyk(colour), cmyk.soft_proof(colour))
            checked += 1
    for colour in sorted(texts - fills):
        r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
        if not r == g == b and cmyk.in_gamut(colour):
            assert cmyk.soft_proof(colour, text=True) <= 3.0, colour
            checked += 1
    assert checked >= 6  # cyan, magenta, the back, its ink, the frames...


def blacks_and_overprint(path: Path) -> tuple[set, int, int, list]:
    """Read from every content stream of a CMYK print-shop file: the rich blacks it fills with
    (K 100% plus other inks), how many solid-black (K only) text runs it draws, how many
    solid-black strokes (outlines, thin lines) it draws overprinting, and what else overprints. Every ExtGState must be /OP with OP and op true and OPM 1, and every solid-black
    text run must be drawn under it."""
    rich, solid_text, solid_strokes, overprinted_other = set(), 0, 0, []
    with pikepdf.open(path) as pdf:
        for obj in streams(pdf):
            states = (obj.get("/Resources") or {}).get("/ExtGState") or {}
            for name, state in states.items():
                assert name == "/OP" and bool(state.OP) and bool(state.op) and int(state.OPM) == 1, (name, state)
            stack, over, fill, stroke = [], False, None, None
            for operands, op in pikepdf.parse_content_stream(obj):
                op = str(op)
                if op == "q":
                    stack.append((over, fill, stroke))
                elif op == "Q":
                    over, fill, stroke = stack.pop()
                elif op == "gs":
                    over = str(operands[0]) == "/OP"
                elif op in ("k", "K"):
                    value = tuple(round(float(v), 2) for v in operands)
                    fill, stroke = (value, stroke) if op == "k" else (fill, value)
                    if value[3] == 1.0 and sum(value[:3]) > 0:
                        rich.add(value)
                elif op in ("Tj", "TJ"):
                    if fill == (0.0, 0.0, 0.0, 1.0):
                        assert over, (path.name, "solid black text that knocks out")
                        solid_text += 1
                    elif over:
                        overprinted_other.append(fill)
                elif op in ("f", "f*", "B", "S") and over:
                    if (fill if op != "S" else stroke) != (0.0, 0.0, 0.0, 1.0):
                        overprinted_other.append(fill if op != "S" else stroke)
                    elif op == "S":
                        solid_strokes += 1
    return rich, solid_text, solid_strokes, overprinted_other


@pytest.fixture(scope="module")
def other_shops(deck, tmp_path_factory) -> Path:
    """The PrintNinja (SWOP) and MB Print (FOGRA39) files, which a default build does not make."""
    need_ghostscript()
    from generator.products.build import BuildRequest, build

    out = tmp_path_factory.mktemp("shops") / "out"
    build(deck, BuildRequest(ROOT / "cards.yaml", out, only=("pod",), pod=("printninja", "mbprint")))
    return out


@pytest.mark.parametrize("name", ["dtc", "printninja", "mbprint"])
def test_one_rich_black_and_solid_black_text_and_lines_overprint(built, other_shops, name):
    """Read from every content stream of each CMYK print-shop file (DriveThruCards, PrintNinja,
    MB Print): large dark areas print the shop's one rich black (the 6/9 bar under the value was
    a second one, C51 M42 Y36 K100); every text, icon and thin line in 100% K is drawn under a
    graphics state that overprints (OP and op true, OPM 1), so a plate that misses leaves no
    white halo (an outline over a colour whose inks would pass the shop's limit with K added
    knocks out: more of them on DriveThruCards' 240% than on the 300% shops); nothing else
    overprints (a white text overprinting would vanish)."""
    shop = shops.shop(name)
    path = (built if name == "dtc" else other_shops) / shop.path
    rich, solid_text, solid_strokes, overprinted_other = blacks_and_overprint(path)
    assert rich == {tuple(round(v, 2) for v in shop.rich_black)}, (name, rich)
    assert solid_text > 100 and solid_strokes > 50 and overprinted_other == [], (name, solid_text, solid_strokes)


def test_the_build_reports_each_colours_soft_proof(built, deck, tmp_path):
    """The summary names each manifest colour's ΔE on press and which fall outside the gamut."""
    need_press_profile()
    from generator.products.build import BuildRequest, build

    built = build(deck, BuildRequest(ROOT / "cards.yaml", tmp_path / "out", only=("pod",), pod=("dtc",)))
    (line,) = [n for n in built.notes if "colours on press" in n]
    for c in deck.colours:
        assert f"{c.name} {cmyk.soft_proof(c.rgb):.1f}" in line
    outside = [c.name for c in deck.colours if cmyk.soft_proof(c.rgb) > cmyk.GAMUT_DELTA_E]
    assert ("outside the press's gamut" in line) == bool(outside) and all(name in line.split(";")[1] for name in outside)


def test_every_pdf_says_which_build_made_it(built, deck):
    """Version, manifest fingerprint and a date from the inputs (SOURCE_DATE_EPOCH, else the
    manifest's commit or modification time) in every print file's document information."""
    import hashlib

    from generator import __version__
    from generator.products.pipeline.provenance import source_date

    fingerprint = hashlib.sha256((ROOT / "cards.yaml").read_bytes()).hexdigest()[:12]
    from datetime import datetime, timezone
    date = datetime.fromtimestamp(source_date(ROOT / "cards.yaml"), timezone.utc).strftime("D:%Y%m%d%H%M%S")
    for path in [built / DTC, *sorted((built / "print").glob("*.pdf"))]:
        with pikepdf.open(path) as pdf:
            info = pdf.docinfo
            assert str(info.Producer) == f"county-uppy {__version__}", path.name
            assert fingerprint in str(info.Subject), path.name
            assert str(info.CreationDate).startswith(date) and str(info.ModDate) == str(info.CreationDate), path.name
            assert not str(info.CreationDate).startswith("D:2000"), path.name


def test_the_date_follows_source_date_epoch_then_git_then_the_file(tmp_path, monkeypatch):
    import os
    import subprocess

    from generator.products.pipeline.provenance import build_stamp, source_date

    manifest = tmp_path / "cards.yaml"
    manifest.write_text("x: 1\n")
    os.utime(manifest, (1_700_000_000, 1_700_000_000))
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert source_date(manifest) == 1_700_000_000  # not in git: its modification time
    env = {**os.environ, "GIT_AUTHOR_DATE": "@1600000000 +0000", "GIT_COMMITTER_DATE": "@1600000000 +0000",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    for argv in (["git", "init", "-q"], ["git", "add", "cards.yaml"], ["git", "commit", "-qm", "deck"]):
        subprocess.run(argv, cwd=tmp_path, env=env, check=True)
    assert source_date(manifest) == 1_600_000_000  # committed and unchanged: the commit's time
    manifest.write_text("x: 2\n")
    os.utime(manifest, (1_700_000_500, 1_700_000_500))
    assert source_date(manifest) == 1_700_000_500  # changed since: its modification time
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1234567890")
    assert source_date(manifest) == 1234567890
    stamp = build_stamp(manifest)
    assert stamp.pdf_date == "D:20090213233130+00'00'" and stamp.line.endswith("2009-02-13")


def test_the_same_inputs_give_the_same_bytes_whatever_the_clock(deck, tmp_path, monkeypatch):
    from generator.products.build import BuildRequest, build

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    outs = []
    for name in ("a", "b"):
        out = tmp_path / name
        build(deck, BuildRequest(ROOT / "cards.yaml", out, only=("pod",), pod=("dtc",)))
        outs.append((out / DTC).read_bytes())
    assert outs[0] == outs[1] and b"D:20260101000000" in outs[0]


def test_the_inks_a_cmyk_form_converts_are_the_ones_the_build_recalls(deck, monkeypatch):
    """pdf.cmyk_inks names exactly the (colour, text) pairs face_ops converts for each face, so
    the conversions the face cache keeps (rendered.recall_inks) are the ones a CMYK form asks for."""
    from generator.products.render import pdf
    from generator.products.render.faces import back_face, face

    asked: set[tuple[str, bool]] = set()
    real = pdf.to_cmyk
    monkeypatch.setattr(pdf, "to_cmyk", lambda colour, text=False, ink=cmyk.DEFAULT: asked.add((colour, text))
                        or real(colour, text, ink))
    drawn = [*(face(c, deck) for c in deck.cards), back_face(deck)]
    doc = pdf.encoding_canvas("".join(sorted({ch for f in drawn for t in f.texts() for ch in t.text} | {" "})))._doc
    kinds = set()
    for one in drawn:
        asked.clear()
        pdf._path_ops.cache_clear()
        pdf.face_ops(one, doc, cmyk=True)
        assert asked == pdf.cmyk_inks(one), one.key
        kinds |= {type(item).__name__ for item in one.items}
    assert kinds >= {"Poly", "Stroke", "Text"}
    pdf._path_ops.cache_clear()


def test_a_rebuild_takes_the_cmyk_conversions_from_the_face_cache(deck, tmp_path, monkeypatch):
    """The second build of a DriveThruCards file whose faces changed converts no colour through
    LittleCMS (the conversions are in the face cache), and its file equals a cold build's."""
    from generator.products.build import BuildRequest, build

    request = BuildRequest(ROOT / "cards.yaml", tmp_path / "out", only=("pod",), pod=("dtc",))
    build(deck, request)
    cmyk.to_cmyk.cache_clear()
    cmyk._REMEMBERED.clear()
    need_press_profile()
    converted: list[str] = []
    real = cmyk._managed
    monkeypatch.setattr(cmyk, "_managed", lambda rgb, *rest: converted.append(rgb) or real(rgb, *rest))
    from generator.products.render import faces, pdf

    faces.forget()  # the forms are made again, here, their colours too
    pdf._path_ops.cache_clear()
    for pack in (tmp_path / "out" / ".cache").iterdir():  # everything but the conversions is made again
        if pack.name != "cmyk.pack":
            pack.unlink()
    build(deck, request)
    assert converted == []
    cold = tmp_path / "cold"
    build(deck, BuildRequest(ROOT / "cards.yaml", cold, only=("pod",), pod=("dtc",)))
    assert (cold / DTC).read_bytes() == (tmp_path / "out" / DTC).read_bytes()
    cmyk.to_cmyk.cache_clear()
