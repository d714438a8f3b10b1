"""output/pod/: print-on-demand files: MakePlayingCards images and the DriveThruCards PDF."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from generator.products.cards import write_images
from generator.products.pipeline.context import BuildContext
from generator.products.pipeline.keys import code_version, key
from generator.products.output.outputs import Artifact, write_artifact
from generator.products.pipeline.rendered import cache, chars, form_keys, pdf_forms, stamp

POD_CHOICES = ("tgc", "mpc", "dtc")
DTC_PDF = "county-uppy-drivethrucards.pdf"
#: The face cache's area of the DriveThruCards PDF.
AREA = "pod-pdf"


def build_pod(ctx: BuildContext) -> Callable[[], list[Artifact]]:
    """output/pod/: MakePlayingCards images (822×1122) and the DriveThruCards PDF (PDF/X-1a, CMYK,
    each card's back then its front).

    The PDF is written here at once (a few milliseconds: pdf_file.py), or taken from the face
    cache, keyed by its faces' CMYK forms, the cards in order and this module's code; the images
    wait for the drawing, in the function returned."""
    codes = [c.code for c in ctx.deck.cards for _ in range(c.copies)]
    arts = []
    if "dtc" in ctx.pod:
        store, forms, made_by = cache(ctx), form_keys(ctx, cmyk=True), stamp(ctx)
        k = key("dtc", code_version(Path(__file__).resolve()), [forms[c] for c in ["back", *codes]], codes, DTC_PDF,
                chars(ctx), made_by)
        data = store.get(AREA, k)
        if data is None:
            from generator.products.render import pdf  # lazy: reportlab, only for a file the cache lacks

            data, _ = pdf.single_cards_pdf(pdf_forms(ctx, cmyk=True), codes, DTC_PDF, chars(ctx), made_by)
            store.put(AREA, k, data)
        store.prune(AREA)
        arts.append(write_artifact(ctx.out, f"pod/{DTC_PDF}", data, "pdf", cards=len(codes), pages=2 * len(codes)))

    def finish() -> list[Artifact]:
        return arts + (write_images(ctx, "pod/mpc", "mpc") if "mpc" in ctx.pod else [])
    return finish
