"""output/pod/: print-on-demand files: MakePlayingCards images and the DriveThruCards PDF."""

from __future__ import annotations

from generator.products import pdf
from generator.products.cards import write_images
from generator.products.context import BuildContext
from generator.products.outputs import Artifact, write_artifact
from generator.products.rendered import chars, pdf_forms

POD_CHOICES = ("tgc", "mpc", "dtc")


def build_pod(ctx: BuildContext) -> list[Artifact]:
    """output/pod/: MakePlayingCards images (822×1122) and the DriveThruCards PDF (PDF/X-1a, CMYK)."""
    arts: list[Artifact] = []
    if "dtc" in ctx.pod:  # first: the PDF needs no card images, which may still be being drawn
        codes = [c.code for c in ctx.deck.cards for _ in range(c.copies)]
        data, n = pdf.single_cards_pdf(pdf_forms(ctx, cmyk=True), codes, "county-uppy-drivethrucards.pdf", chars(ctx))
        arts.append(write_artifact(ctx.out, "pod/county-uppy-drivethrucards.pdf", data, "pdf", cards=len(codes), pages=n))
    if "mpc" in ctx.pod:
        arts += write_images(ctx, "pod/mpc", "mpc")
    return arts
