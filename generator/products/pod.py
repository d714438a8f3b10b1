"""output/pod/: print-on-demand files: MakePlayingCards images and the DriveThruCards PDF."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from generator.products.cards import write_images
from generator.products.pipeline.context import BuildContext
from generator.products.pipeline.keys import code_version, key
from generator.products.output.outputs import Artifact
from generator.products.pipeline.rendered import cache, chars, form_keys, pdf_forms, stamp

POD_CHOICES = ("tgc", "mpc", "dtc")
DTC_PDF = "county-uppy-drivethrucards.pdf"
PROOF = "pod-proof"  #: the face cache's area for the colour proof line
AREA = "pod-pdf"  #: the face cache's area of the DriveThruCards PDF


def build_pod(ctx: BuildContext) -> Callable[[], list[Artifact]]:
    """output/pod/: MakePlayingCards images (822×1122) and the DriveThruCards PDF (PDF/X-1a, CMYK,
    each card's back then its front).

    The PDF is written here at once (a few milliseconds: pdf_file.py), or taken from the face
    cache, keyed by its faces' CMYK forms, the cards in order and this module's code; the images
    wait for the drawing, in the function returned."""
    codes = [c.code for c in ctx.deck.cards for _ in range(c.copies)]
    arts = []
    if "dtc" in ctx.request.pod:
        store, forms, made_by = cache(ctx), form_keys(ctx, cmyk=True), stamp(ctx)
        k = key("dtc", code_version(Path(__file__).resolve()), [forms[c] for c in ["back", *codes]], codes, DTC_PDF,
                chars(ctx), made_by)
        data = store.get(AREA, k)
        if data is None:
            from generator.products.render import pdf  # lazy: reportlab, only for a file the cache lacks

            data, _ = pdf.single_cards_pdf(pdf_forms(ctx, cmyk=True), codes, DTC_PDF, chars(ctx), made_by)
            store.put(AREA, k, data)
        store.prune(AREA)
        arts.append(ctx.target.write(f"pod/{DTC_PDF}", data, "pdf", cards=len(codes), pages=2 * len(codes)))
        ctx.notes.extend(colour_proof(ctx))

    def finish() -> list[Artifact]:
        return arts + (write_images(ctx, "pod/mpc", "mpc") if "mpc" in ctx.request.pod else [])
    return finish


def mpc_faces(ctx: BuildContext) -> tuple[()] | None:
    """The product record's `image_faces` (BuildContext -> codes): every face in the MakePlayingCards
    profile when the build makes the MakePlayingCards files (`--pod` names mpc), else none."""
    return None if "mpc" in ctx.request.pod else ()


def colour_proof(ctx: BuildContext) -> list[str]:
    """The summary's line on how the press prints the deck's colours: each colour's soft-proof
    ΔE (CIE76) through the press profile, and which are outside the press's gamut; or that no
    press profile was found. Kept in the face cache, so a rebuild does not load LittleCMS."""
    from generator.products.render import cmyk  # lazy: the press profile is looked up only for this file

    profile = cmyk.press_profile()
    if profile is None:
        return [f"pod/{DTC_PDF}: no CMYK press profile on this machine, so its colours were converted by formula, "
                "not colour-managed: install Ghostscript (apt-get install ghostscript) or set "
                f"{cmyk.PROFILE_ENV} to an ICC file (docs/printing.md)"]
    store = cache(ctx)
    colours = [(c.name, c.rgb) for c in ctx.deck.colours]
    k = key("proof", profile.sha256, code_version(Path(cmyk.__file__).resolve()), colours)
    line = store.get(PROOF, k)
    if line is None:
        deltas = [(name, cmyk.soft_proof(rgb)) for name, rgb in colours]
        outside = [name for name, de in deltas if de is not None and de > cmyk.GAMUT_DELTA_E]
        text = (f"pod/{DTC_PDF}: colours on press ({profile.description}, soft proof, \u0394E76): "
                + ", ".join(f"{name} {de:.1f}" for name, de in deltas))
        if outside:
            text += (f"; {', '.join(outside)} {'is' if len(outside) == 1 else 'are'} outside the press's gamut and "
                     "will print duller (docs/printing.md)")
        line = text.encode("utf-8")
        store.put(PROOF, k, line)
    store.prune(PROOF)
    return [line.decode("utf-8")]
