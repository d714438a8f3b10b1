"""What every step and every named wild effect must have, checked across the layers (used by
test_effect_catalogue.py).

Each problem names the step or effect and what it lacks, so adding one half-way fails loudly
instead of printing a card with no glyph, a rulebook with no clarification, or a wild the
engine or the bots cannot play.
"""

from __future__ import annotations

import string
from pathlib import Path

from generator.deck.effects import CATALOGUE, SEAT_CHOICES, WRITES, WildEffect
from generator.deck.steps import STEPS, StepKind, sentence
from generator.deck.model import Step
from generator.engine.effects import Turn
from generator.engine.options import option_names
from generator.engine.simple_bots import STEP_SCORES
from generator.engine.steps import STEP_RULES
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
        said(f"{where}: the name must be one word of letters, digits and _ (cards.yaml's effect: names it)")
    if not e.steps:
        said(f"{where}: no steps")
    for kind, args in e.steps:
        if kind not in STEPS:
            said(f"{where}: unknown step {kind!r}")
        else:
            placeholders = {v[1:-1] for v in args.values() if isinstance(v, str) and v.startswith("{")}
            if not placeholders <= set(e.param_names):
                said(f"{where}: step {kind!r} names a parameter it does not take")
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
    return problems


def _example(kind: StepKind) -> dict:
    """Arguments a step of `kind` may be given: the lowest of each number, the first of each choice."""
    out: dict = {}
    for a in kind.args[:1] if kind.one_of else kind.args:
        out[a.name] = True if a.kind == "true" else a.choices[0] if a.kind == "who" else (a.lo or a.hi)
    return out


def step_problems(kind: StepKind) -> list[str]:
    """What step kind `kind` lacks in any layer, one line per problem ("step 'x': ...")."""
    problems: list[str] = []
    said = problems.append
    where = f"step '{kind.key}'"
    if not kind.key.isidentifier():
        said(f"{where}: the key must be one word of letters, digits and _ (it names the rule function)")
    if kind.key not in STEP_RULES:
        said(f"{where}: no rule function in generator/engine/steps.py")
    if kind.key not in STEP_SCORES:
        said(f"{where}: no scoring for the greedy bot (STEP_SCORES in generator/engine/simple_bots.py)")
    if not kind.args:
        said(f"{where}: no arguments")
    args = _example(kind)
    step = Step(kind.key, tuple(args.items()))
    try:
        clause, glyph, keep = kind.say(args), kind.glyph(args), kind.keep(args)
    except Exception as exc:  # a record whose words fail on its own arguments
        said(f"{where}: its words or bot value fail on {args}: {exc!r}")
        return problems
    if not clause or not sentence((step,)).endswith("."):
        said(f"{where}: no clause for the quick reference and the rulebook")
    if not glyph:
        said(f"{where}: no glyph")
    missing = [ch for ch in glyph if not tf.has_glyph(ch, True)]
    if missing:
        said(f"{where}: the typeface cannot draw {''.join(missing)!r} of its glyph")
    if not isinstance(keep, (int, float)):
        said(f"{where}: the bots' keep value must be a number")
    for a in kind.args:
        if a.kind == "who":
            if any(k in ("chosen", "anyone") for k in a.choices) and ("{" in kind.question or not kind.question or not kind.verb):
                said(f"{where}: may name a seat but has no terminal question and word for it (question, verb)")
        elif a.kind == "int" and a.hi < a.lo:
            said(f"{where}: argument '{a.name}' has an empty range {a.lo}..{a.hi}")
    for p in kind.pending:
        if p.field not in State.__slots__:
            said(f"{where}: pending '{p.key}' is kept in State.{p.field}, which does not exist")
        if not p.shown:
            said(f"{where}: pending '{p.key}' has no words for the terminal game")
        if p.before not in ("drawn", "played", "gave", "owed"):
            said(f"{where}: pending '{p.key}' is listed before {p.before!r}, not a key of the turn's own state")
    for o in kind.options:
        if o not in option_names():
            said(f"{where}: option {o!r} is not a rule option")
    for w in kind.writes:
        if w not in WRITES or not hasattr(Turn, w):
            said(f"{where}: writes {w!r}, which a rule cannot write (WRITES: {', '.join(WRITES)})")
    return problems


def catalogue_problems(templates: Path | None = None) -> list[str]:
    problems = [line for e in CATALOGUE.values() for line in entry_problems(e, templates)]
    problems += [line for kind in STEPS.values() for line in step_problems(kind)]
    problems += [f"rule '{name}' in generator/engine/steps.py has no step record in generator/deck/steps.py"
                 for name in STEP_RULES if name not in STEPS]
    return problems
