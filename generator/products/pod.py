"""output/pod/: print-on-demand files: MakePlayingCards images and the DriveThruCards PDF."""

from __future__ import annotations

from typing import Callable

from generator.products.render import pdf
from generator.products.cards import write_images
from generator.products.pipeline.context import BuildContext
from generator.products.output.outputs import Artifact, write_artifact
from generator.products.pipeline.rendered import chars, pdf_forms

POD_CHOICES = ("tgc", "mpc", "dtc")
DTC_PDF = "county-uppy-drivethrucards.pdf"


def build_pod(ctx: BuildContext) -> Callable[[], list[Artifact]]:
    """output/pod/: MakePlayingCards images (822×1122) and the DriveThruCards PDF (PDF/X-1a, CMYK).

    The PDF is written here at once (a few milliseconds: pdf_file.py); the images wait for the
    drawing, in the function returned."""
    codes = [c.code for c in ctx.deck.cards for _ in range(c.copies)]
    arts = []
    if "dtc" in ctx.pod:
        data, pages = pdf.single_cards_pdf(pdf_forms(ctx, cmyk=True), codes, DTC_PDF, chars(ctx))
        arts.append(write_artifact(ctx.out, f"pod/{DTC_PDF}", data, "pdf", cards=len(codes), pages=pages))

    def finish() -> list[Artifact]:
        return arts + (write_images(ctx, "pod/mpc", "mpc") if "mpc" in ctx.pod else [])
    return finish
