"""The gutterfold print-and-play (--layout gutterfold), read back from its PDFs: four cards a
sheet on their side, each front in the left column with its back beside it in the right one,
so that folded along the middle line every back stands behind its own front, the right way up."""

from __future__ import annotations

from math import ceil

import pdfplumber
import pikepdf
import pypdfium2 as pdfium
import pytest

from generator.cli import main
from generator.products.render.units import PAPERS, mm
from tests.conftest import MANIFEST
from tests.products.render.test_pdf_geometry import CARD_H, CARD_W, trims_on

TOL = 0.01


def placed_forms(pdf: pikepdf.Pdf, n: int) -> list[tuple[tuple[float, ...], bytes]]:
    """(matrix, the form's content bytes) of every card form page `n` draws, in drawing order."""
    page = pdf.pages[n]
    xobjects = page.obj.Resources.XObject
    out, matrix = [], None
    for operands, op in pikepdf.parse_content_stream(page):
        if str(op) == "cm":
            matrix = tuple(float(v) for v in operands)
        elif str(op) == "Do":
            out.append((matrix, xobjects[operands[0]].read_bytes()))
    return out


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_fronts_beside_their_backs_register_when_folded(built, paper):
    pw, ph = PAPERS[paper]
    doc = pdfium.PdfDocument(built / "print" / f"county-uppy-{paper}-gutterfold.pdf")
    try:
        assert doc[0].get_size() == pytest.approx((pw, ph), abs=TOL)
        for i in range(1, len(doc)):
            placed = trims_on(doc[i])
            fronts = [r for r, rot in placed if r[2] <= pw / 2]
            backs = [r for r, rot in placed if r[0] >= pw / 2]
            assert 1 <= len(fronts) <= 4 and len(fronts) == len(backs) and len(placed) == 2 * len(fronts)
            # on their side: 3.5 in across, 2.5 in up; fronts turned a quarter left, backs a quarter right
            for r, rot in placed:
                assert (r[2] - r[0], r[3] - r[1]) == pytest.approx((CARD_H, CARD_W), abs=TOL)
                assert rot == (90 if r[2] <= pw / 2 else 270)
            # folded on x = pw/2, each back lands exactly behind its front
            mirrored = sorted((pw - r[2], r[1], pw - r[0], r[3]) for r in fronts)
            for want, got in zip(mirrored, sorted(backs)):
                assert max(abs(a - b) for a, b in zip(want, got)) <= TOL, (i, want, got)
            # each card keeps 8 mm from the fold (its bleed and a mark fit between), butted rows
            assert max(r[2] for r in fronts) == pytest.approx(pw / 2 - mm(8), abs=TOL)
            ys = sorted({round(r[1], 3) for r in fronts})
            assert [b - a for a, b in zip(ys, ys[1:])] == pytest.approx([CARD_W] * (len(ys) - 1), abs=TOL)
    finally:
        doc.close()


def test_every_card_once_with_the_back_beside_it(built, deck):
    """The left column holds the fronts in the -fronts file's order (sets on their own pages, four
    a page); the right column holds the back, one beside every front."""
    path = built / "print" / "county-uppy-letter-gutterfold.pdf"
    with pikepdf.open(path) as fold, pikepdf.open(built / "print" / "county-uppy-letter-fronts.pdf") as fronts, \
            pikepdf.open(built / "print" / "county-uppy-letter-backs.pdf") as backs:
        want = [body for n in range(1, len(fronts.pages)) for _, body in placed_forms(fronts, n)]
        back = {body for _, body in placed_forms(backs, 1)}
        assert len(back) == 1
        left, right = [], []
        for n in range(1, len(fold.pages)):
            for matrix, body in placed_forms(fold, n):
                (left if matrix[1] > 0 else right).append(body)  # turned 90°: b = 1; 270°: b = -1
        assert left == want and len(want) == deck.printed
        assert set(right) == back and len(right) == deck.printed
        totals = deck.set_totals()
        assert len(fold.pages) == 1 + sum(ceil(totals[s.key] / 4) for s in deck.sets)  # + the test page


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_fold_line_down_the_middle_and_the_test_page_says_how(built, paper):
    pw, ph = PAPERS[paper]
    with pdfplumber.open(built / "print" / f"county-uppy-{paper}-gutterfold.pdf") as pdf:
        first = " ".join(pdf.pages[0].extract_text().split())
        assert "Print one-sided" in first and "Fold each sheet along the dashed middle line" in first
        assert "--back-offset" not in first  # nothing to register: no duplex crosses
        for page in pdf.pages[1:3]:
            folds = [ln for ln in page.lines if ln["x0"] == ln["x1"] and abs(ln["x0"] - pw / 2) < TOL
                     and ln.get("dash") and tuple(ln["stroking_color"]) != (0, 0, 0)]
            assert len(folds) == 1
            top, bottom = ph - folds[0]["top"], ph - folds[0]["bottom"]
            assert bottom >= mm(4.2) and top <= ph - mm(4.2)
            text = " ".join(page.extract_text().split())
            assert "fold on the dashed line" in text


def test_layout_option_builds_and_a_later_build_says_why_files_went(tmp_path, capsys):
    out = tmp_path / "out"
    args = ["build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "print", "--paper", "a4"]
    assert main([*args, "--layout", "gutterfold"]) == 0
    assert sorted(p.name for p in (out / "print").iterdir()) == ["county-uppy-a4-card-count.pdf",
                                                              "county-uppy-a4-gutterfold.pdf"]
    capsys.readouterr()
    assert main(args) == 0  # the default layout: duplex
    said = capsys.readouterr().out
    assert sorted(p.name for p in (out / "print").iterdir()) == [
        "county-uppy-a4-backs.pdf", "county-uppy-a4-card-count.pdf", "county-uppy-a4-fronts.pdf", "county-uppy-a4.pdf"]
    assert ("removed 1 print file of the gutterfold layout, which this build was not asked for (--layout duplex; "
            "every build makes only the layouts it is given): print/county-uppy-a4-gutterfold.pdf") in said
    assert "no longer makes" not in said


def test_a_bad_layout_is_refused(tmp_path, capsys):
    assert main(["build", "--out", str(tmp_path / "o"), "--layout", "foldover"]) == 2
    assert "invalid choice: 'foldover'" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
