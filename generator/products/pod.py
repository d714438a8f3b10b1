"""output/pod/: the print-shop files, one per shop of render/press/shops.py that the build is asked for
(`--pod`): a PDF/X-1a file of one face per page for each CMYK shop, card images for the others
(MakePlayingCards' in pod/mpc; The Game Crafter's are output/cards, the `cards` product)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from generator.products.cards import write_images
from generator.products.pipeline.context import BuildContext
from generator.products.pipeline.keys import code_version, key
from generator.products.output.outputs import Artifact
from generator.products.pipeline.rendered import cache, chars, face_keys, face_of, form_keys, pdf_forms, stamp
from generator.products.render.press import cmyk, preflight
from generator.products.render.press import shops as shop_records
from generator.products.render.profiles import PROFILES
from generator.products.render.press.shops import Shop

DTC_PDF = "county-uppy-drivethrucards.pdf"
PROOF = "pod-proof"  #: the face cache's area for the colour proof lines
AREA = "pod-pdf"  #: the face cache's area of the shops' PDFs
PREFLIGHT = "preflight"  #: the face cache's area of each face's preflight measures


def chosen(ctx: BuildContext, product: str = "pod") -> list[Shop]:
    """The shops this build makes files for whose files are `product`'s, in SHOPS order."""
    return [s for s in shop_records.SHOPS if s.name in ctx.request.pod and s.product == product]


def build_pod(ctx: BuildContext) -> Callable[[], list[Artifact]]:
    """output/pod/: every chosen CMYK shop's PDF and every chosen image shop's card images.

    A PDF is written here at once (a few milliseconds: pdf_file.py), or taken from the face
    cache, keyed by its faces' CMYK forms (the shop's conversion is in their keys), the cards in
    order, the shop's record and this module's code; the images wait for the drawing, in the
    function returned."""
    codes = [c.code for c in ctx.deck.cards for _ in range(c.copies)]
    arts = []
    images: list[Shop] = []
    for s in chosen(ctx):
        if s.file == "png":
            images.append(s)
            continue
        arts.append(_shop_pdf(ctx, s, codes))
        ctx.notes.extend(colour_proof(ctx, s))
        ctx.notes.extend(_preflight(ctx, s))
    for s in [*images, *chosen(ctx, "cards")]:  # The Game Crafter's images are the cards product's
        ctx.notes.extend(_preflight(ctx, s))

    def finish() -> list[Artifact]:
        return arts + [a for s in images for a in write_images(ctx, s.path, s.name)]
    return finish


def form_variants(ctx: BuildContext) -> list[tuple[bool, cmyk.Ink]]:
    """The faces' PDF forms the print-shop PDFs draw: in each chosen CMYK shop's conversion."""
    return [(False, ink(ctx, s)) for s in chosen(ctx) if s.file != "png"]


def mpc_faces(ctx: BuildContext) -> tuple[()] | None:
    """The product record's `image_faces` (BuildContext -> codes): every face in the MakePlayingCards
    profile when the build makes the MakePlayingCards files (`--pod` names mpc), else none."""
    return None if "mpc" in ctx.request.pod else ()


def ink(ctx: BuildContext, s: Shop) -> cmyk.Ink:
    """Shop `s`'s CMYK conversion for this deck: its condition and limits, and the colours the
    manifest gives as CMYK (`cmyk:`), used as they are."""
    own = tuple((c.rgb.upper(), tuple(v / 100 for v in c.cmyk)) for c in ctx.deck.colours if c.cmyk)
    return cmyk.ink_for(s, own)  # type: ignore[arg-type]


def _shop_pdf(ctx: BuildContext, s: Shop, codes: list[str]) -> Artifact:
    store, conversion, made_by = cache(ctx), ink(ctx, s), stamp(ctx)
    forms = form_keys(ctx, cmyk=conversion)
    name = Path(s.path).name
    k = key("shop-pdf", code_version(Path(__file__).resolve()), repr(s), [forms[c] for c in ["back", *codes]], codes,
            chars(ctx), made_by)
    data = store.get(AREA, k)
    if data is None:
        from generator.products.render import pdf  # lazy: reportlab, only for a file the cache lacks

        data, _ = pdf.shop_pdf(pdf_forms(ctx, cmyk=conversion), codes, s, name, chars(ctx), made_by)
        store.put(AREA, k, data)
    store.prune(AREA)
    pages = len(codes) + 1 if s.order == "fronts-back" else 2 * len(codes)
    return ctx.target.write(s.path, data, "pdf", cards=len(codes), pages=pages)


def _preflight(ctx: BuildContext, s: Shop) -> list[str]:
    """The shop's preflight findings on this deck's faces, each a summary line (none: it passes),
    from each face's measures (preflight.measure, kept in the face cache by the face's key). The
    lines are kept too, keyed by every face, the shop and its conversion: a rebuild with nothing
    changed converts no colour (no LittleCMS) to say them again."""
    conversion = ink(ctx, s) if s.file == "pdf" else None
    pixels = PROFILES[s.name].size if s.file == "png" else None
    store = cache(ctx)
    k = key("preflight", code_version(Path(preflight.__file__).resolve()), repr(s), sorted(face_keys(ctx).values()),
            conversion and cmyk.profile_key(conversion), pixels)
    found = store.get(PROOF, k)
    if found is None:
        found = "\n".join(f"{s.path}: preflight: {line}"
                          for line in preflight.findings(s, measures(ctx), conversion, pixels)).encode("utf-8")
        store.put(PROOF, k, found)
    store.prune(PROOF)
    return found.decode("utf-8").splitlines()


def measures(ctx: BuildContext) -> list[dict]:
    """preflight.measure of every face (the back too), once a build, from the face cache where it
    has them: keyed by the face's key and the preflight's code."""
    if ctx.state.preflight is None:
        store, here = cache(ctx), code_version(Path(preflight.__file__).resolve())
        out = []
        for code, fk in face_keys(ctx).items():
            k = key("preflight-face", here, fk)
            data = store.get(PREFLIGHT, k)
            if data is None:
                data = json.dumps(preflight.measure(face_of(ctx, code)), separators=(",", ":")).encode("utf-8")
                store.put(PREFLIGHT, k, data)
            out.append(json.loads(data))
        store.prune(PREFLIGHT)
        ctx.state.preflight = out
    return ctx.state.preflight


def colour_proof(ctx: BuildContext, s: Shop) -> list[str]:
    """The summary's line on how shop `s`'s press prints the deck's colours: each colour's
    soft-proof ΔE00 (CIEDE2000) through its press profile (of the designer's own CMYK where the
    manifest gives one), and which are outside the press's gamut; or that no press profile was
    found. Kept in the face cache, so a rebuild does not load LittleCMS."""
    conversion = ink(ctx, s)
    profile = cmyk.press_profile(conversion.condition)
    if profile is None:
        return [f"{s.path}: no CMYK press profile on this machine for {conversion.condition.name}, so its colours were "
                f"converted by formula, not colour-managed: {conversion.condition.install} or set "
                f"{conversion.condition.env} to an ICC file (docs/printing.md)"]
    store = cache(ctx)
    colours = [(c.name, c.rgb) for c in ctx.deck.colours]
    k = key("proof", profile.sha256, code_version(Path(cmyk.__file__).resolve(), Path(__file__).resolve()), colours,
            cmyk.profile_key(conversion))
    line = store.get(PROOF, k)
    if line is None:
        deltas = [(name, cmyk.soft_proof(rgb, ink=conversion)) for name, rgb in colours]
        given = {rgb.upper() for rgb, _ in conversion.own}
        far = [(name, rgb.upper() in given) for (name, rgb), (_, de) in zip(colours, deltas)
               if de is not None and de > cmyk.GAMUT_DELTA_E]
        outside, own = [name for name, mine in far if not mine], [name for name, mine in far if mine]
        text = (f"{s.path}: colours on press ({profile.description}, soft proof, \u0394E00): "
                + ", ".join(f"{name} {de:.1f}" for name, de in deltas))
        if outside:
            text += (f"; {', '.join(outside)} {'is' if len(outside) == 1 else 'are'} outside the press's gamut and "
                     "will print duller (docs/printing.md)")
        if own:  # the designer's own CMYK, printed as given: far from its print colour by choice, not by the press
            text += (f"; {', '.join(own)} {'prints' if len(own) == 1 else 'print'} the manifest's own cmyk, "
                     "not its print colour (docs/printing.md)")
        line = text.encode("utf-8")
        store.put(PROOF, k, line)
    store.prune(PROOF)
    return [line.decode("utf-8")]
