"""What every wild effect must have, checked across the layers (used by test_effect_catalogue.py).

Each problem names the effect and what it lacks, so adding an effect half-way fails loudly
instead of printing a card with no glyph or a rulebook with no clarification.
"""

from __future__ import annotations

import string
from pathlib import Path

from generator.deck.effects import CATALOGUE, PLAY_HINTS, SEAT_CHOICES, WRITES, WildEffect
from generator.engine.effects import EFFECTS, Turn
from generator.engine.options import option_names
from generator.engine.simple_bots import PLAY_SCORES
from generator.engine.state import State
from generator.products.render import typeface as tf
from generator.resources import templates_dir


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def entry_problems(e: WildEffect, templates: Path | None = None) -> list[str]:
    """What effect `e` lacks, one line per problem ("effect 'x': ...")."""
    problems: list[str] = []
    said = problems.append
    where = f"effect '{e.name}'"
    if not e.name.isidentifier():
        said(f"{where}: the name must be one word of letters, digits and _ (it names the rule function)")
    if e.name not in EFFECTS:
        said(f"{where}: no rule function in generator/engine/effects.py")
    params = set(e.param_names)
    if not e.glyph:
        said(f"{where}: no glyph")
    else:
        if not _placeholders(e.glyph) <= params:
            said(f"{where}: the glyph {e.glyph!r} names a parameter it does not take")
        drawn = e.glyph.format(**{p: 2 for p in params})
        missing = [ch for ch in drawn if not tf.has_glyph(ch, True)]
        if missing:
            said(f"{where}: the typeface cannot draw {''.join(missing)!r} of its glyph")
    if not e.short:
        said(f"{where}: no quick-reference line")
    elif not _placeholders(e.short) <= params | {"target", "hand_size"}:
        said(f"{where}: the quick-reference line names a parameter it does not take")
    if e.partial:
        path = (templates or templates_dir()) / e.partial_path  # type: ignore[operator]
        if not path.is_file():
            said(f"{where}: no clarification partial {e.partial_path} (or say partial=False)")
    if e.bot.play not in PLAY_HINTS or e.bot.play not in PLAY_SCORES:
        said(f"{where}: the bots' play hint {e.bot.play!r} is not one of {', '.join(PLAY_HINTS)}")
    if not isinstance(e.bot.keep, (int, float)):
        said(f"{where}: the bots' keep hint must be a number")
    if e.seat is not None:
        if e.seat not in SEAT_CHOICES:
            said(f"{where}: seat {e.seat!r} is not one of {', '.join(SEAT_CHOICES)}")
        if "{name}" not in e.seat_question:
            said(f"{where}: names a seat but has no terminal question for it (seat_question with {{name}})")
        if not e.seat_verb:
            said(f"{where}: names a seat but has no terminal word for it (seat_verb)")
    for p in e.params:
        if p.hi is not None and p.hi < p.lo:
            said(f"{where}: parameter '{p.name}' has an empty range {p.lo}..{p.hi}")
    for p in e.pending:
        if p.field not in State.__slots__:
            said(f"{where}: pending '{p.key}' is kept in State.{p.field}, which does not exist")
        if not p.shown:
            said(f"{where}: pending '{p.key}' has no words for the terminal game")
        if p.before not in ("drawn", "played", "gave", "owed"):
            said(f"{where}: pending '{p.key}' is listed before {p.before!r}, not a key of the turn's own state")
    for o in e.options:
        if o not in option_names():
            said(f"{where}: option {o!r} is not a rule option")
    for w in e.writes:
        if w not in WRITES or not hasattr(Turn, w):
            said(f"{where}: writes {w!r}, which a rule cannot write (WRITES: {', '.join(WRITES)})")
    return problems


def catalogue_problems(templates: Path | None = None) -> list[str]:
    problems = [line for e in CATALOGUE.values() for line in entry_problems(e, templates)]
    problems += [f"rule '{name}' in generator/engine/effects.py has no catalogue entry" for name in EFFECTS
                 if name not in CATALOGUE]
    return problems
