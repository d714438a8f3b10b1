"""The soft proofs of the print-shop files are measured finely enough to hold them to ΔE00 3
(CIEDE2000, checked against its published test data).

The conversion and its proofs read CIELAB from LittleCMS in double precision (render/press/lcms.py):
Pillow's 8-bit CIELAB (L in steps of 0.39, a* and b* in whole units) moved a proof by up to ΔE 1,
so the DriveThruCards file printed cyan ΔE 3.0 and magenta 3.1 from the design while the build
said 2.5, and the search for the nearest printable colour chose among candidates a quantum apart.
"""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from generator.products.render.press import cmyk, lcms
from generator.products.render.press.shops import shop
from tests.ghostscript import need_press_profile

#: The ICC's sRGB, its primaries adapted to D50 (Bradford), as LittleCMS builds it.
SRGB_D50 = ((0.4360747, 0.3850649, 0.1430804), (0.2225045, 0.7168786, 0.0606169), (0.0139322, 0.0971045, 0.7141733))
D50 = (0.9642, 1.0, 0.8249)


def srgb_lab(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    """CIELAB (D50) of an sRGB colour, from the sRGB and CIE formulas alone (no colour engine)."""
    def linear(v: int) -> float:
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    rl = [linear(v) for v in rgb]
    fx, fy, fz = (f(sum(m * c for m, c in zip(row, rl)) / w) for row, w in zip(SRGB_D50, D50))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(p, q) -> float:
    return sum((a - b) ** 2 for a, b in zip(p, q)) ** 0.5


@pytest.fixture
def profile() -> str:
    need_press_profile()
    found = cmyk.press_profile()
    assert found is not None
    return found.path


def test_the_designs_colours_are_measured_to_a_tenth(profile):
    """The design's side of every proof: CIELAB of sRGB colours within 0.1 of the formulas'."""
    rng = random.Random(5)
    colours = [(0, 163, 217), (46, 158, 62), (212, 20, 122), (35, 35, 58), (255, 255, 255), (0, 0, 0)]
    colours += [tuple(rng.randrange(256) for _ in range(3)) for _ in range(60)]
    for rgb in colours:
        assert delta_e(cmyk._lab_of_rgb(rgb, profile), srgb_lab(rgb)) < 0.1, rgb


def test_the_presss_side_is_not_quantised(profile):
    """CIELAB of the press's CMYK changes with every 1% of ink: L falls strictly along a ramp of
    cyan, and a* and b* are not whole numbers (8-bit CIELAB makes both steps)."""
    ramp = cmyk._labs([(c, 0, 0, 0) for c in range(101)], profile)
    assert all(later[0] < earlier[0] for earlier, later in zip(ramp, ramp[1:]))
    assert sum(1 for _, a, b in ramp if a != round(a) or b != round(b)) > 90


@pytest.mark.skipif(shutil.which("transicc") is None, reason="LittleCMS's transicc is not installed (liblcms2-utils)")
def test_the_presss_side_agrees_with_transicc(profile):
    """The press's CIELAB of a few CMYK values, as LittleCMS's own calculator gives it."""
    for values in [(74, 19, 2, 0), (0, 100, 4, 11), (40, 30, 30, 100), (3, 4, 8, 0), (76, 0, 100, 10)]:
        out = subprocess.run(["transicc", f"-i{profile}", "-o*Lab", "-t1", "-n"], input=" ".join(map(str, values)) + "\n",
                             capture_output=True, text=True, check=True).stdout
        assert delta_e(cmyk._labs([values], profile)[0], [float(v) for v in out.split()[:3]]) < 0.01, values


#: Sharma, Wu and Dalal, "The CIEDE2000 color-difference formula: implementation notes,
#: supplementary test data, and mathematical observations" (2005), table 1: pairs and their ΔE00.
SHARMA = [((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425), ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0),
          ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669), ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
          ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492), ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
          ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.263), ((22.7233, 20.0904, -46.694),
                                                                              (23.0331, 14.973, -42.5619), 2.0373),
          ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082)]


def test_the_colour_difference_is_ciede2000():
    for p, q, want in SHARMA:
        assert cmyk._delta_e(p, q) == pytest.approx(want, abs=1e-4) and cmyk._delta_e(q, p) == pytest.approx(want, abs=1e-4)


@pytest.mark.parametrize("name", ["dtc", "mbprint"])
def test_every_manifest_colour_prints_as_near_as_the_press_can(deck, name):
    """Each colour of the manifest prints within ΔE00 1 of the design, or as near as any CMYK
    within the shop's cap prints it (searched through the same profile): never a conversion
    farther than a printable one. The proof is measured here from the formulas' CIELAB; under
    CIEDE2000, SWOP prints the green at 2.1 (the CIE76 choice: 3.45) and the magenta at 1.1 (2.45)."""
    s = shop(name)
    ink = cmyk.ink_for(s)
    found = cmyk.press_profile(s.condition)
    if found is None:
        pytest.skip(f"no {s.condition.name} profile on this machine")
    for colour in deck.colours:
        rgb = tuple(int(colour.rgb[i:i + 2], 16) for i in (1, 3, 5))
        values = tuple(round(v * 100) for v in cmyk.to_cmyk(colour.rgb, ink=ink))
        proof = cmyk._delta_e(cmyk._labs([values], found.path)[0], srgb_lab(rgb))
        best = cmyk._within_limit(srgb_lab(rgb), found.path, ink.cap)
        nearest = cmyk._delta_e(cmyk._labs([tuple(round(v * 100) for v in best)], found.path)[0], srgb_lab(rgb))
        assert proof <= max(cmyk.OWN_DELTA_E, nearest) + 0.05, (name, colour.name, values, proof, best, nearest)
        assert abs(proof - cmyk.soft_proof(colour.rgb, ink=ink)) < 0.1, (name, colour.name)
        if name == "dtc":
            assert proof <= {"cyan": 0.5, "green": 2.2, "magenta": 1.2}[colour.name], (colour.name, proof)


def test_without_the_library_the_proofs_fall_back_to_pillow(profile, monkeypatch):
    """Where LittleCMS cannot be reached through ctypes, the 8-bit CIELAB of Pillow stands in,
    within about a unit of the fine one."""
    values = [(74, 19, 2, 0), (0, 100, 4, 11), (3, 4, 8, 0)]
    fine = cmyk._labs(values, profile)
    monkeypatch.setattr(lcms, "_transforms", lambda path: None)
    coarse = cmyk._labs(values, profile)
    assert coarse != fine and all(delta_e(p, q) < 1.5 for p, q in zip(coarse, fine))
    assert delta_e(cmyk._lab_of_rgb((0, 163, 217), profile), srgb_lab((0, 163, 217))) < 1.5
