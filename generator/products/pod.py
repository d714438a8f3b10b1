"""output/pod/: print-on-demand files: MakePlayingCards images and the DriveThruCards PDF."""

from __future__ import annotations

from typing import Callable

from generator.products import pdf
from generator.products.cards import write_images
from generator.products.context import BuildContext
from generator.products.outputs import Artifact, write_artifact
from generator.products.rendered import background, chars, pdf_forms

POD_CHOICES = ("tgc", "mpc", "dtc")
DTC_PDF = "county-uppy-drivethrucards.pdf"


def build_pod(ctx: BuildContext) -> Callable[[], list[Artifact]]:
    """output/pod/: MakePlayingCards images (822×1122) and the DriveThruCards PDF (PDF/X-1a, CMYK),
    the PDF made by a worker; the function returned waits for it and writes the files."""
    codes = [c.code for c in ctx.deck.cards for _ in range(c.copies)]
    jobs = [(pdf_forms(ctx, cmyk=True), codes, DTC_PDF, chars(ctx))] if "dtc" in ctx.pod else []
    pending = background(ctx, pdf.single_cards_pdf, jobs, "DriveThruCards PDF")

    def finish() -> list[Artifact]:
        arts = [write_artifact(ctx.out, f"pod/{DTC_PDF}", data, "pdf", cards=len(codes), pages=n)
                for data, n in pending()]
        if "mpc" in ctx.pod:
            arts += write_images(ctx, "pod/mpc", "mpc")
        return arts
    return finish
