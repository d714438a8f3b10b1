"""output/rulebook.html: the rulebook, rendered from the manifest, the engine and templates/.

The templates hold every word and all markup; this module hands them data only: game
parameters, card counts, wild texts, rule options (from the engine), the quick reference
(from generator.products.render.quickref, the same data the reference card prints), worked examples played
by the engine at build time, and the card images as data: URIs. So a designer's change to
cards.yaml reaches the rulebook without anyone editing prose.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import asdict, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from generator.deck.effects import wild_entry
from generator.deck.steps import sentence
from generator.deck.model import CardType, Deck, portable
from generator.engine import options as engine_options
from generator.deck import quickref
from generator.deck.quickref import shows_wilds
from generator.products.output.outputs import Artifact
from generator.products.pipeline import rasters
from generator.products.pipeline.keys import GENERATOR_DIR, code_version, key
from generator.products.pipeline.rendered import background, cache
from generator.products.rulebook import inline_html, look_css, sections
from generator.products.rulebook.images import CardImage, card_image, rulebook_codes, sample_cards
from generator.products.render.profiles import RULEBOOK as RULEBOOK_PROFILE
from generator.resources import templates_dir

if TYPE_CHECKING:
    import jinja2
    from markupsafe import Markup

    from generator.products.pipeline.context import BuildContext

RULEBOOK = "rulebook.html"
#: The same rulebook with every section, the designer notes among them (sections.py).
DESIGNER = "rulebook-designer.html"


def environment(folder: Path | None = None) -> jinja2.Environment:
    """Autoescaping, strict environment: a missing value is an error, never an empty string.

    One per folder and process, so a process that builds again (watch, tests) compiles each
    template once; jinja reloads a template whose file changed.
    """
    return _environment(Path(folder or templates_dir()))


@lru_cache(maxsize=4)
def _environment(folder: Path) -> jinja2.Environment:
    import jinja2  # lazy: only a page that is not in the face cache is rendered

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        bytecode_cache=_bytecode_cache(jinja2),
    )
    env.filters["signed"] = signed
    env.filters["article"] = article
    return env


def _bytecode_cache(jinja2: Any) -> Any:
    """jinja2's own cache of compiled templates, in the user's cache folder
    ($XDG_CACHE_HOME/county-uppy/templates, else ~/.cache/...), so a new process renders the
    page without compiling the templates again (most of a one-card rebuild's time otherwise).

    jinja2 keys a template by its name and file and checks its source's checksum; the key here
    adds this module's bytes (the environment's settings and filters are written in it) and
    jinja2's version, so a compiled template is used only by the code that compiled it. None
    (compile every time) where the folder cannot be made."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "county-uppy", "templates")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    salt = hashlib.sha256(Path(__file__).read_bytes() + jinja2.__version__.encode("ascii")).hexdigest()

    class Cache(jinja2.FileSystemBytecodeCache):
        def get_cache_key(self, name: str, filename: str | None = None) -> str:
            return hashlib.sha256(f"{salt}|{super().get_cache_key(name, filename)}".encode("utf-8")).hexdigest()

    return Cache(folder)


def signed(value: int) -> str:
    """A number as printed in running text, with a true minus sign (−2)."""
    return f"\u2212{-value}" if value < 0 else str(value)


def article(value: int) -> str:
    """"a" or "an" before a number as it is read aloud: an 8, an 11, an 18, an 80, an 800, an
    11000; a 7, a −2 ("a minus two")."""
    if value < 0:
        return "a"
    digits = str(value)
    eleven = digits[:2] in ("11", "18") and len(digits) % 3 == 2  # eleven, eighteen (thousand, million)
    return "an" if digits.startswith("8") or eleven else "a"


# --- data for the templates ---------------------------------------------------------------
def runs(values: list[int]) -> list[tuple[int, int]]:
    """Sorted values as (first, last) runs; a run of two is written as two single values."""
    out: list[tuple[int, int]] = []
    for v in sorted(set(values)):
        if out and v == out[-1][1] + 1:
            out[-1] = (out[-1][0], v)
        else:
            out.append((v, v))
    split: list[tuple[int, int]] = []
    for a, b in out:
        split.extend([(a, a), (b, b)] if b == a + 1 else [(a, b)])
    return split


def colour_data(deck: Deck, names: tuple[str, ...]) -> list[dict[str, str]]:
    return [{"name": c.name, "rgb": c.rgb, "shape": c.shape} for c in (deck.colour(n) for n in names)]


def card_data(deck: Deck, card: CardType, images: Mapping[str, CardImage]) -> dict[str, Any]:
    return {
        "code": card.code,
        "kind": card.kind,
        "set": card.set,
        #: name and text as HTML, their inline icons as SVG; in words for alt texts
        "name": inline_html.html(card.name, deck),
        "text": inline_html.html(card.text, deck),
        "name_words": deck.words(card.name, card),
        "text_words": deck.words(card.text, card),
        "copies": card.copies,
        "value": card.value,
        "colours": colour_data(deck, card.colours),
        "effect": card.effect.name if card.effect else None,
        "params": dict(card.effect.params) if card.effect else {},
        #: the effect's clarification partial under templates/ (None: the card's text says it all)
        "partial": wild_entry(card.effect).partial_path if card.effect else None,
        #: a wild written with steps: the sentence they make (deck/steps.py), its clarification
        "clarification": clarification(card),
        "image": images.get(card.code),
    }


def contents(deck: Deck, images: Mapping[str, CardImage]) -> list[dict[str, Any]]:
    """The box contents, per set: card groups in manifest order with their printed counts."""
    out = []
    for card_set in deck.sets:
        groups: list[dict[str, Any]] = []
        by_key: dict[tuple, dict[str, Any]] = {}
        for card in deck.cards:
            if card.set != card_set.key:
                continue
            if card.is_number:
                key: tuple = (card.kind, card.colours)
                group = by_key.get(key)
                if group is None:
                    group = by_key[key] = {"kind": card.kind, "colours": colour_data(deck, card.colours), "count": 0, "values": [],
                                           "image": images.get(card.code), "name_words": deck.words(card.name)}
                    groups.append(group)
                group["count"] += card.copies
                group["values"].append(card.value)
            elif card.kind == "wild":
                group = by_key.get(("wild",))
                if group is None:
                    group = by_key[("wild",)] = {"kind": "wild", "count": 0, "cards": [], "image": images.get(card.code),
                                                 "name_words": deck.words(card.name)}
                    groups.append(group)
                group["count"] += card.copies
                group["cards"].append(card_data(deck, card, images))
            else:
                groups.append({"kind": card.kind, "count": card.copies, "name": deck.words(card.name),
                               "image": images.get(card.code), "name_words": deck.words(card.name)})
        for group in groups:
            if "values" in group:
                group["runs"] = runs(group.pop("values"))
        out.append({
            "key": card_set.key,
            "name": card_set.name,
            "interior": card_set.interior,
            "printed": deck.set_totals()[card_set.key],
            "groups": groups,
        })
    return out


def editions(deck: Deck) -> list[dict[str, Any]]:
    return [
        {
            "key": e.key,
            "name": e.name,
            "description": e.description,
            "count": deck.edition_count(e.key),
            "breakdown": [{"group": g, "count": n} for g, n in deck.edition_breakdown(e.key).items() if n],
        }
        for e in deck.editions
    ]


def wild_sets(deck: Deck, images: Mapping[str, CardImage]) -> list[dict[str, Any]]:
    """Wild cards grouped by set (base wilds, then chaos wilds), in manifest order."""
    out = []
    for card_set in deck.sets:
        wilds = [card_data(deck, c, images) for c in deck.cards if c.kind == "wild" and c.set == card_set.key]
        if wilds:
            out.append({"key": card_set.key, "name": card_set.name, "interior": card_set.interior, "cards": wilds})
    return out


def clarification(card: CardType) -> str | None:
    """What a wild written with `does:` does, in the rulebook's words: the sentence its steps make,
    after the card's name (None for a named effect, whose partial says it, and for a wild the
    players resolve by its text, `rule: table`, whose text says it)."""
    if not card.effect or card.effect.name or not card.effect.steps:
        return None
    said = sentence(card.effect.steps)
    return said[0].lower() + said[1:]


def effect_cards(deck: Deck, images: Mapping[str, CardImage]) -> dict[str, dict[str, Any]]:
    """The first wild of each effect, by effect name (a wild written with steps: by its code), in manifest order."""
    out: dict[str, dict[str, Any]] = {}
    for card in deck.cards:
        if card.effect and (card.effect.name or card.code) not in out:
            out[card.effect.name or card.code] = card_data(deck, card, images)
    return out


def cards_by_effect_trait(deck: Deck, images: Mapping[str, CardImage], trait: str) -> dict[str, dict[str, Any]]:
    """The first wild whose catalogue entry lists each value of `trait` ("options", "writes" or
    "pending"), by that value: texts name the card an option changes (`invert_through_wilds`), the
    card that turns the direction, or the card that leaves a pending state (`invert`), without
    naming an effect."""
    out: dict[str, dict[str, Any]] = {}
    for card in deck.cards:
        if card.effect:
            for value in getattr(wild_entry(card.effect), trait):
                key = value.key if trait == "pending" else value
                if key not in out:
                    out[key] = card_data(deck, card, images)
    return out


def speed_seconds_default() -> int:
    """SPEED's tempo limit when none is agreed (docs/rules.md R7.5), from the engine."""
    return engine_options.SPEED_SECONDS_DEFAULT


def rule_options(deck: Deck) -> list[dict[str, Any]]:
    """Every rule option with the value the deck's rules print (its manifest's `game.options`,
    else the engine's default) as `default`, and its other choices."""
    default, choices = asdict(engine_options.Options.for_deck(deck)), engine_options.CHOICES
    return [
        {"name": name, "default": default[name], "choices": list(choices.get(name) or ()),
         "others": [c for c in choices.get(name) or () if not (c == default[name] and type(c) is type(default[name]))]}
        for name in engine_options.option_names()
    ]


#: Where the rulebook's words for each rule option are (its `option_words`).
OPTION_WORDS = "templates/partials/clarifications.html.j2"


def unworded_note(name: str) -> str:
    """The build's line for a rule option the rulebook has no words for."""
    return (f"rulebook: rule option '{name}' has no words in {OPTION_WORDS} (option_words); "
            "the rulebook lists it without saying what it changes")


def stylesheet() -> Markup:
    """templates/rulebook.css, trusted markup for the <style> element (escaping would break it)."""
    from markupsafe import Markup  # lazy: only a page that is not in the face cache is rendered

    css = (templates_dir() / "rulebook.css").read_text(encoding="utf-8")
    if "</" in css:
        raise ValueError("templates/rulebook.css must not contain '</' (it would end the <style> element)")
    return Markup(css)


def unplayed(deck: Deck) -> str:
    """The kinds of card no variation shuffles in that the deck has, as a sentence's subject."""
    kinds = [words for kind, words in (("reference", "quick reference"), ("blank", "blank"))
             if any(c.kind == kind for c in deck.cards)]
    return f"{' and '.join(kinds)} cards".capitalize() if kinds else ""


def number_range(deck: Deck) -> dict[str, int]:
    """The lowest and highest printed numbers, for the rulebook's "a 7 adds 7" sentences."""
    values = [c.value for c in deck.cards if c.is_number and c.value is not None]
    return {"low": min(values), "high": max(values)}


def context(deck: Deck, images: Mapping[str, CardImage], examples: list[dict[str, Any]], quickref: Any,
            unworded: list[str] | None = None, designer: bool = False) -> dict[str, Any]:
    """The templates' data, for the players' rulebook or (`designer`) the designer's.
    `unworded` collects the rule options the templates have no words for."""
    p = deck.params

    def no_words(name: str) -> str:
        if unworded is not None:
            unworded.append(name)
        return ""
    options = rule_options(deck)
    return {
        "game": {"name": p.name, "target": p.target, "hand_size": p.hand_size, "min_players": p.min_players, "max_players": p.max_players},
        "colours": colour_data(deck, tuple(c.name for c in deck.colours)),
        "printed": deck.printed,
        "playing": sum(c.copies for c in deck.cards if c.playing),
        "contents": contents(deck, images),
        "editions": editions(deck),
        "wild_sets": wild_sets(deck, images),
        "effect_cards": effect_cards(deck, images),
        "option_cards": cards_by_effect_trait(deck, images, "options"),
        "writes_cards": cards_by_effect_trait(deck, images, "writes"),
        "pending_cards": cards_by_effect_trait(deck, images, "pending"),
        "options": options,
        "examples": examples,
        "quickref": quickref,
        "samples": [card_data(deck, c, images) for c in sample_cards(deck)],
        "back": images.get("back"),
        #: the reference cards, each with the half of the summary it prints (quickref.shows_wilds)
        "ref_cards": [{**card_data(deck, c, images), "wilds": shows_wilds(deck, c)}
                      for c in deck.cards if c.kind == "reference"],
        "css": stylesheet(),
        #: the deck's fonts and colours (look_css.py), and whether the page embeds fonts
        "deck_css": look_css.stylesheet(deck),
        "deck_fonts": bool(look_css.deck_fonts(deck)),
        "cover": sections.cover(deck),
        "sections": sections.order(deck, designer),
        "designer": designer,
        "cards": {c.code: card_data(deck, c, images) for c in deck.cards},
        "numbers": number_range(deck),
        "has_duals": any(c.kind == "dual" for c in deck.cards),
        #: the cards never shuffled in, as a sentence's subject ("Quick reference and blank cards"), "" for none
        "unplayed": unplayed(deck),
        "opts": {o["name"]: o for o in options},
        #: the options the manifest sets another way than the engine's defaults (its printed rules)
        "printed_options": engine_options.Options.for_deck(deck).to_dict(),
        "engine_only": engine_options.ENGINE_ONLY,
        "speed_seconds_default": speed_seconds_default(),
        "no_words": no_words,
    }


# --- the product --------------------------------------------------------------------------
def render(deck: Deck, images: Mapping[str, CardImage] | None = None, left_out: list[str] | None = None,
           designer: bool = False) -> str:
    """The whole page as text (`designer`: rulebook-designer.html's). `images` maps card codes to
    pictures (default: card_images).

    A worked example the engine no longer plays as its caption says raises ExampleError, or
    with a `left_out` list is left out of the page and explained in that list.
    """
    page = _prepared(deck, left_out)
    return page(images if images is not None else card_images(deck), designer)


def _prepared(deck: Deck, left_out: list[str] | None,
              unworded: list[str] | None = None) -> Callable[[Mapping[str, CardImage], bool], str]:
    """The examples played and the templates compiled; returns the function that renders the page
    (the players' or, given True, the designer's) once it has the pictures (in a build they are
    drawn on worker processes meanwhile), and puts the names of the rule options the templates
    have no words for in `unworded`."""
    from generator.products.rulebook.examples import play_examples  # lazy: the engine, only to render a page

    examples = play_examples(deck, left_out=left_out)
    quick = quick_reference(deck)
    env = environment()
    template = env.get_template("rulebook.html.j2")
    for name in env.list_templates(filter_func=lambda n: n.startswith(("partials/", "examples/"))):
        env.get_template(name)  # compiled now, not when render() first includes it
    return lambda pictures, designer=False: template.render(context(deck, dict(pictures), examples, quick, unworded,
                                                                    designer))


def quick_reference(deck: Deck) -> Any:
    """The quick-reference card's summary: the same data the card face prints, its wilds' names
    and lines as HTML (inline icons as SVG)."""
    ref = quickref.quick_reference(deck)
    return replace(ref, wilds=tuple(replace(w, name=inline_html.html(w.name, deck), short=inline_html.html(w.short, deck))
                                    for w in ref.wilds))


def card_images(deck: Deck) -> dict[str, CardImage]:
    """Pictures of every wild, the quick-reference cards, the sample cards and the back, drawn
    here (outside a build, nothing cached)."""
    pngs = rasters.standalone_images(deck, "rulebook", frozenset(rulebook_codes(deck)))
    return {code: card_image(data) for code, data in pngs.items()}


#: The face cache's area of the finished page.
AREA = "rulebook"


def page_key(ctx: "BuildContext") -> str:
    """The cache key of the page: the deck (everything the page says of it; its files by name,
    model.portable, so the same project in another folder finds its page), its pictures' keys,
    and the code that makes it: the whole package (the engine plays the examples, the catalogue
    and the options speak in it), the templates and the versions of jinja2 and markupsafe."""
    templates = tuple(sorted(p for p in templates_dir().rglob("*") if p.is_file()))
    code = code_version(*templates, folder=GENERATOR_DIR, libraries=("jinja2", "markupsafe"))
    pictures = rasters.image_keys(ctx, "rulebook")
    return key("rulebook", code, repr(portable(ctx.deck)), [(c, pictures[c]) for c in rulebook_codes(ctx.deck)],
               inline_html.files_key(ctx.deck))


class Page:
    """The build's rulebook pages: calling it waits for them and returns (the players' page, the
    designer's, the lines about examples left out, the lines about unworded options); `key` is
    its cache key (page_key), known before the page is made. Made once, by the first thread that
    asks (the rulebook's printer asks on a thread of its own); what making it raised is raised
    to every caller."""

    def __init__(self, get: Callable[[], tuple[bytes, bytes, list[str], list[str]]], key: str) -> None:
        self._get = get
        self.key = key
        self._lock = threading.Lock()
        self._made: tuple[bytes, bytes, list[str], list[str]] | None = None
        self._error: Exception | None = None

    @property
    def made(self) -> bool:
        """Are the pages made (or has making them failed)?"""
        return self._made is not None or self._error is not None

    def __call__(self) -> tuple[bytes, bytes, list[str], list[str]]:
        with self._lock:
            if self._made is None and self._error is None:
                try:
                    self._made = self._get()
                except Exception as e:  # noqa: BLE001 -- kept for the other callers, raised below
                    self._error = e
        if self._error is not None:
            raise self._error
        assert self._made is not None
        return self._made


def rulebook_html(ctx: "BuildContext") -> Page:
    """The page as a build makes it, once per build whichever product asks first (rulebook.html,
    the rulebook PDF): from the face cache when nothing it is made of changed; else a worker
    process plays the examples and renders the page with a slot for each picture
    (page_with_slots), while the pictures are drawn. The Page returned fills the slots."""
    made = ctx.state.shared.get(AREA)
    if made is not None:
        return made  # type: ignore[return-value]
    store, k = cache(ctx), page_key(ctx)
    kept = store.get(AREA, k)
    store.prune(AREA)
    if kept is not None:
        head, _, pages = kept.partition(b"\n")
        size, _, pages = pages.partition(b"\n")
        whole = (pages[:int(size)], pages[int(size):], json.loads(head), [])
        page = Page(lambda: whole, k)
        ctx.state.shared[AREA] = page
        return page
    codes = rulebook_codes(ctx.deck)
    # at the build's own priority: a rebuild after a one-card edit waits for this page last
    pending = background(ctx, page_with_slots, [(ctx.deck, codes)], "rulebook", processes=1, niceness=0)

    def get() -> tuple[bytes, bytes, list[str], list[str]]:
        """Called once (Page keeps what it gives): the worker's page with its pictures."""
        (slotted, left_out, unworded), = pending()
        pictures = {code: card_image(data) for code, data in rasters.images(ctx, "rulebook").items()}
        if set(pictures) == set(codes):
            pages = [fill_slots(page, pictures) for page in slotted]
        else:  # a picture the worker did not expect: rendered here with the pictures there are
            left_out, unworded = [], []
            render_page = _prepared(ctx.deck, left_out, unworded)
            pages = [render_page(pictures, designer) for designer in (False, True)]
        notes = [f"rulebook: {why}; the example is left out" for why in left_out]
        more = [unworded_note(name) for name in dict.fromkeys(unworded)]
        players, designers = (page.encode("utf-8") for page in pages)
        store.put(AREA, k, json.dumps(notes + more).encode("utf-8") + b"\n%d\n" % len(players) + players + designers)
        return players, designers, notes, more
    ctx.state.shared[AREA] = page = Page(get, k)
    return page


def build_rulebook(ctx: "BuildContext") -> Callable[[], list[Artifact]]:
    """output/rulebook.html and rulebook-designer.html (rulebook_html): the function returned
    waits for the pages and writes them; the lines about them go where the products began
    (examples) and at the end (options)."""
    page = rulebook_html(ctx)
    at = len(ctx.notes)

    def finish() -> list[Artifact]:
        html, designers, notes, more = page()
        ctx.notes[at:at] = notes
        ctx.notes.extend(more)
        return [ctx.target.write(RULEBOOK, html, "html", cards=ctx.deck.printed),
                ctx.target.write(DESIGNER, designers, "html", cards=ctx.deck.printed)]
    return finish


def _slot(code: str) -> str:
    """Where picture `code` goes in a page rendered before the pictures are drawn: markup the
    page's text, always escaped, can never hold."""
    return f"<county-uppy-picture {code}>"


def page_with_slots(deck: Deck, codes: list[str]) -> tuple[list[str], list[str], list[str]]:
    """Worker: the pages (the players', the designer's) with a slot in place of each picture's data (`codes`), the examples left
    out (why) and the rule options the templates have no words for. A picture is used only as
    `src`, `width` and `height` of its <img>; the slot stands for the `src`, which escaping leaves
    as it is, so fill_slots gives the very page render() makes with the pictures."""
    from markupsafe import Markup  # lazy: only a page that is not in the face cache is rendered

    left_out: list[str] = []
    unworded: list[str] = []
    page = _prepared(deck, left_out, unworded)
    w, h = RULEBOOK_PROFILE.size
    slots = {code: CardImage(Markup(_slot(code)), w, h) for code in codes}
    return [page(slots, designer) for designer in (False, True)], left_out, unworded


def fill_slots(html: str, pictures: Mapping[str, CardImage]) -> str:
    """The page from page_with_slots with its pictures in their slots."""
    for code, picture in pictures.items():
        html = html.replace(_slot(code), picture.src)
    return html
