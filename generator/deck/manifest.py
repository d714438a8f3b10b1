"""Load cards.yaml into a frozen Deck, reporting every mistake as `cards.yaml:LINE:COL: ...`.

The only module that knows the manifest's file format; everything else gets a Deck.
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.deck import look as looks
from generator.deck import shape
from generator.deck.effects import CATALOGUE, param_problem
from generator.deck.input_file import kind_of
from generator.deck.model import (PLAYING_KINDS, BuildSettings, CardSet, CardType, Colour, Deck, Edition, Effect,
                                  GameParams, RulebookSection, RulebookSettings, Step)
from generator.deck.problems import InputError, Problem, char_name, suggest
from generator.deck import icons, steps
from generator.deck.rule_options import DEFAULTS
from generator.deck.yaml_source import Loc, Source, parse, read

if TYPE_CHECKING:
    from pydantic import ValidationError

    from generator.deck import schema

SECTIONS = shape.SECTIONS
#: Sections a manifest may leave out.
OPTIONAL_SECTIONS = shape.OPTIONAL_SECTIONS
_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
#: The limits are declared with the shape (deck/shape.py).
MAX_VALUE, MAX_RUN, MAX_CARD_TYPES, MAX_PRINTED = shape.MAX_VALUE, shape.MAX_RUN, shape.MAX_CARD_TYPES, shape.MAX_PRINTED
#: Fields whose text may run over several lines (line breaks fold into spaces); every other
#: text is one line.
MULTILINE_FIELDS = ("text", "description", "intro")
_CODE = re.compile(r"^\S+$")
#: Every placeholder a text may fill: the game's numbers and every effect's parameters.
_PLACEHOLDER_NAMES = frozenset({"target", "hand_size"} | {p.name for e in CATALOGUE.values() for p in e.params})


def load(path: str | Path = "cards.yaml") -> Deck:
    """Read, check and build the deck; raise InputError listing every problem found."""
    src = read(path)
    return _Checker(src).deck()


def check(src: Source) -> Deck:
    """Check and build the deck from already-read data (a tool's edit of a manifest, say);
    the same checks as `load`, the problems located in `src`."""
    return _Checker(src).deck()


def card_entries(src: Source) -> dict[str, int]:
    """Which entry of `cards:` makes each card code, for tools that change one card's copies.

    `src` must be a valid manifest (InputError otherwise)."""
    checker = _Checker(src)
    checker.deck()
    return dict(checker.entry_of)


def expand_values(raw: Any) -> list[int]:
    """The card values a valid `values:` entry stands for, in order (`-2..7`, `[1, 3..4]`)."""
    return _Checker(Source("", None)).values((), raw)


def load_bytes(raw: bytes, name: str, folder: str | None = None) -> Deck:
    """`load` for a manifest that is not a file here (one committed in git); problems name `name`,
    and the pictures and fonts it names are found in `folder` (by default the folder of `name`)."""
    return check(parse(raw, name, folder))


class _Checker:
    def __init__(self, src: Source):
        self.src = src
        self.problems: list[Problem] = []
        #: names of colours and sets whose own entry is broken (reported once, not at every use)
        self.broken: set[str] = set()
        #: card code -> the index of the `cards:` entry that makes it
        self.entry_of: dict[str, int] = {}
        #: what a text may name as an icon: colour keys, effect names, the layout's pictures
        self.icon_names: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] = ((), tuple(CATALOGUE), ())

    def fail(self, loc: Loc, message: str, *, key: bool = False) -> None:
        self.problems.append(self.src.at(loc, message, key=key))

    # --- structure ---------------------------------------------------------------
    def deck(self) -> Deck:
        data = self.src.data
        required = [k for k in SECTIONS if k not in OPTIONAL_SECTIONS]
        if not isinstance(data, dict):
            self.fail((), f"the top level must be a mapping with the keys {', '.join(required)}, not {_what(data)}")
            raise InputError(self.problems)
        for key in data:
            if key not in SECTIONS:
                self.fail((key,), f"unknown key '{key}'{suggest(key, SECTIONS)}", key=True)
        for key in required:
            if key not in data:
                self.fail((), f"missing key '{key}' (the manifest needs {', '.join(required)})")
        self.text_characters((), data)
        typed = self.sections(data)
        game, colours, sets, cards = typed["game"], typed["colours"], typed["sets"], typed["cards"]
        editions, build, look_entry = typed["editions"], typed["build"], typed["look"]

        params = self.game_params(game)
        colour_objs = self.colours(colours)
        # what a text may name as an icon: the colours, the effects and the pictures `look: icons:` declares
        declared = getattr(typed.get("look"), "icons", None)
        self.icon_names = (tuple(colour_objs), tuple(CATALOGUE), tuple(declared) if isinstance(declared, dict) else ())
        set_objs = self.sets(sets)
        card_types = self.cards(cards, colour_objs, set_objs, params)
        self.sizes(card_types)
        edition_objs = self.editions(editions, card_types, set_objs)
        settings = self.build_settings(build, [e.key for _, e in editions])
        look = self.look(look_entry, set_objs, card_types)
        rulebook = self.rulebook(typed["rulebook"], params)
        if self.problems:
            raise InputError(self.problems)
        assert params is not None
        deck = Deck(params, tuple(colour_objs.values()), tuple(set_objs.values()), tuple(card_types), tuple(edition_objs),
                    settings, look, rulebook)
        missed = [
            Problem.at(e.origin.of("expect"), f"edition '{e.key}' has {n} playing cards, but expect says {e.expect}")
            for e in deck.editions
            if e.expect is not None and (n := deck.edition_count(e.key)) != e.expect
        ]
        deal = params.hand_size * params.max_players
        missed += [  # R3.1: every player is dealt hand_size cards, at the largest table too
            Problem.at(params.origin.of("hand_size"), f"edition '{e.key}' has {n} playing cards, too few to deal "
                       f"{params.hand_size} to each of {params.max_players} players ({deal})")
            for e in deck.editions if (n := deck.edition_count(e.key)) < deal
        ]
        if missed:
            raise InputError(missed, deck=deck)
        return deck

    def sections(self, data: dict) -> dict[str, Any]:
        """Every section declared in shape.MANIFEST, its shape checked: a list section as (index,
        entry) pairs, each entry checked on its own so one bad entry hides no other; a mapping
        section as its record (None when it is left out or broken)."""
        out: dict[str, Any] = {}
        for name, key in shape.MANIFEST.keys.items():
            if isinstance(key.type, shape.ListOf):
                out[name] = self.typed_list(name, data, key.type.item.name)
            elif name in data or key.default is shape.REQUIRED:
                out[name] = self.typed((name,), data.get(name), key.type.name)
            else:
                out[name] = None
        return out

    def typed(self, loc: Loc, value: Any, model: str) -> Any:
        """The entry as a record with `schema.<model>`'s attributes, or None with its mistakes reported."""
        if value is None and tuple(loc) not in self.src.values:
            return None  # a missing section, already reported
        entry = shape.build(model, value)
        if entry is not None:
            return entry
        from pydantic import ValidationError  # lazy: start-up (pydantic only words the mistakes)

        from generator.deck import schema  # lazy: start-up (its models take longer to build than a check)

        record = shape.RECORDS[model]
        try:
            return schema.model(record).model_validate(value)
        except ValidationError as exc:
            self.report(loc, exc, record)
            return None

    def typed_list(self, section: str, data: dict, model: str) -> list[tuple[int, Any]]:
        """Validate each entry of a list section on its own, so one bad entry hides no other."""
        if section not in data:
            return []
        items = data[section]
        if not isinstance(items, list) or not items:
            problem = "must not be empty" if items in ([], None) else f"must be a list, not {_what(items)}"
            self.fail((section,), f"'{section}' {problem}")
            return []
        out = []
        for i, item in enumerate(items):
            entry = self.typed((section, i), item, model)
            if entry is not None:
                out.append((i, entry))
            elif isinstance(item, dict):
                self.broken |= {v for k, v in item.items() if k in ("key", "name") and isinstance(v, str)}
        return out

    def report(self, base: Loc, exc: ValidationError, record: shape.Record) -> None:
        """One message per location: a union (`kind: wild` or a list of kinds) fails once per
        alternative, and the alternative's own complaint beats "must be a list"."""
        found: dict[tuple[Loc, bool], tuple[int, str]] = {}
        pool = shape.key_names(record)
        for err in exc.errors():
            if err["type"] == "string_unicode":
                continue  # a lone surrogate: text_characters names it
            raw = err["loc"]  # keep the key of a mapping of parameters: params.factor
            loc = tuple(p for i, p in enumerate(raw) if isinstance(p, int) or p in pool or (i and raw[i - 1] in shape.MAP_KEYS))
            field = next((p for p in reversed(loc) if isinstance(p, str)), base[0])
            kind, value = err["type"], err.get("input")
            declared = shape.key_at(record, loc)
            unit = f" {declared.type.unit}" if declared is not None and getattr(declared.type, "unit", "") else ""
            at_key = False
            if kind == "missing":
                message = f"missing key '{field}'"
                loc = loc[:-1]
            elif kind == "extra_forbidden":
                bad = err["loc"][-1]
                loc = loc + (bad,) if not loc or loc[-1] != bad else loc  # an unknown key is in no record's keys
                inner = shape.record_at(record, loc[:-1]) if loc[:-1] else None
                what = inner.what if inner else "key"
                message = f"unknown {what} '{bad}'{suggest(bad, list(inner.keys) if inner else pool)}"
                if inner is shape.LOOK_SET and bad == "back":
                    message = ("a set has no back of its own: every card prints the deck's one back (look: back:), "
                               "so that no back tells a card from another (backs identical within a set)")
                if bad in SECTIONS and base:
                    message += (f" ('{bad}' is a section of the manifest: start it at the beginning of its line, "
                                f"not indented under '{base[0]}')")
                loc, at_key = loc[:-1] + (bad,), True
            elif kind == "literal_error":
                choices = re.findall(r"'([^']*)'", err["ctx"]["expected"])
                message = f"unknown {field} {_show(value)}{suggest(value, choices)}; expected one of {', '.join(choices)}"
            elif kind in ("int_type", "int_parsing", "int_from_float"):
                message = f"'{field}' must be a whole number, not {_show(value)}"
            elif kind in ("float_type", "float_parsing", "finite_number"):
                message = f"'{field}' must be a number{' of' + unit if unit else ''}, not {_show(value)}"
            elif kind in ("greater_than_equal", "greater_than"):
                message = f"'{field}' must be at least {_limit(err['ctx'].get('ge', 1))}{unit}, not {_show(value)}"
            elif kind in ("less_than_equal", "less_than"):
                message = f"'{field}' must be at most {_limit(err['ctx'].get('le'))}{unit}, not {_show(value)}"
            elif kind == "string_too_long":
                limit = err['ctx']['max_length']
                fits = "fit on a card" if field in ("code", "name", "text") and base[0] == "cards" else "are allowed"
                message = f"'{field}' is {len(value):,} characters long; at most {limit} {fits}"
            elif kind == "string_type" and declared is not None and getattr(declared.type, "hint", None):
                message = f"'{field}' {declared.type.hint}, not {_show(value)}"  # a length written without its unit
            elif kind == "string_type":
                message = f"'{field}' must be text, not {_show(value)}"
                if isinstance(value, bool):
                    message += " (YAML reads a bare yes, no, on, off, true or false as true/false: put the text in quotes)"
            elif kind == "string_pattern_mismatch":
                hint = declared.type.hint if declared is not None else None
                message = f"'{field}' {hint or 'has the wrong form'}, not {_show(value)}"
            elif kind in ("model_type", "dict_type"):
                message = f"'{field}' must be a mapping of keys to values, not {_what(value)}"
            elif kind == "list_type":
                message = f"'{field}' must be a list, not {_what(value)}"
            elif kind in ("too_short", "too_long") and err["ctx"].get("min_length", 0) > 1 or kind == "too_long":
                least, most = err["ctx"].get("min_length"), err["ctx"].get("max_length")
                need = f"{least}" if least == most else f"at least {least}" if kind == "too_short" else f"at most {most}"
                message = f"'{field}' must hold {need} values, not {len(value) if isinstance(value, list) else _show(value)}"
            elif kind == "too_short":
                message = f"'{field}' must not be empty"
            else:
                message = f"'{field}': {err['msg']}"
            if field == "values" and kind not in ("missing",):
                if "values" in loc:  # keep the index of a bad item in a list of values
                    at = loc.index("values") + 1
                    loc = loc[: at + 1] if len(loc) > at and isinstance(loc[at], int) else loc[:at]
                message = f"'values' must be a number, a range such as -2..7, or a list of them, not {_show(_dig(self.src.data, base + loc))}"
            weak = kind in ("list_type", "model_type", "dict_type")
            if (loc, at_key) not in found or found[(loc, at_key)][0] > weak:
                found[(loc, at_key)] = (weak, message)
        for (loc, at_key), (_, message) in found.items():
            if loc and loc[-1] == "values" and any(len(o) > len(loc) and o[: len(loc)] == loc for o, _ in found):
                continue  # a list of values with a bad item: name the item, not the list
            self.fail(base + loc, message, key=at_key)

    def text_characters(self, loc: Loc, value: Any) -> None:
        """Every text value holds printable characters only: no lone surrogate (it cannot be written
        as UTF-8), no control character (it could drive the terminal, and the card layout cannot
        place it), and no line break in a one-line field (a name, a code)."""
        if isinstance(value, dict):
            for key, item in value.items():
                self.text_characters(loc + (key,), item)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                self.text_characters(loc + (i,), item)
        elif isinstance(value, str) and not value.isprintable():
            field = next((p for p in reversed(loc) if isinstance(p, str)), "value")
            multiline = field in MULTILINE_FIELDS
            for ch in value:
                if ch.isprintable() or ch == " " or multiline and ch in "\n\t\r":
                    continue
                if unicodedata.category(ch) == "Cs":
                    why = "cannot be written as UTF-8 text; delete it"
                elif ch in _LINE_BREAKS:
                    why = ("a line break: a " + field + " is one line" if not multiline
                           else "a line break; write an ordinary newline")
                elif unicodedata.category(ch) == "Zs":
                    why = "write a plain space instead"
                else:
                    why = "it cannot be printed on a card; delete it"
                self.fail(loc, f"'{field}' holds the character {char_name(ch)}: {why}")
                return

    def sizes(self, card_types: list[CardType]) -> None:
        """The stated maximums of card types and printed cards (MAX_CARD_TYPES, MAX_PRINTED)."""
        if len(card_types) > MAX_CARD_TYPES:
            self.fail(("cards",), f"the manifest defines {len(card_types):,} card types; at most {MAX_CARD_TYPES} "
                                  "are allowed (each is a face to draw)")
        printed = sum(c.copies for c in card_types)
        if printed > MAX_PRINTED:
            self.fail(("cards",), f"the manifest prints {printed:,} cards (copies counted); at most {MAX_PRINTED:,} "
                                  "are allowed")

    # --- meaning -----------------------------------------------------------------
    def game_params(self, game: schema.GameEntry | None) -> GameParams | None:
        if game is None:
            return None
        if game.players.min > game.players.max:
            self.fail(("game", "players"), f"players: min ({game.players.min}) is larger than max ({game.players.max})")
        if game.players.min < 2:
            self.fail(("game", "players", "min"), "County Uppy needs at least 2 players")
        options = vars(game.options) if game.options is not None else dict(DEFAULTS)
        if options["dealer"] >= game.players.min:
            self.fail(("game", "options", "dealer"), f"'dealer' is seat {options['dealer']}, but a game of "
                      f"{game.players.min} players has seats 0..{game.players.min - 1}")
        return GameParams(game.name, game.target, game.hand_size, game.players.min, game.players.max,
                          origin=self.src.origin(("game",)), options=tuple((k, options[k]) for k in DEFAULTS))

    def build_settings(self, entry: schema.BuildEntry | None, editions: list[str]) -> BuildSettings:
        """The manifest's `build:` section: editions always built must exist, each listed once."""
        if entry is None:
            return BuildSettings()
        seen: set[str] = set()
        for j, key in enumerate(entry.editions):
            if key in seen:
                self.fail(("build", "editions", j), f"edition '{key}' is listed twice")
            elif editions and key not in editions:
                self.fail(("build", "editions", j), f"unknown edition '{key}'{suggest(key, editions)}; "
                          f"choose from {', '.join(editions)}")
            seen.add(key)
        papers = tuple(dict.fromkeys(entry.papers)) if entry.papers else BuildSettings.papers
        return BuildSettings(tuple(dict.fromkeys(entry.editions)), papers, origin=self.src.origin(("build",)))

    def rulebook(self, entry: schema.RulebookEntry | None, params: GameParams | None) -> RulebookSettings:
        """The manifest's `rulebook:` section: its texts' placeholders filled (the game's numbers),
        each section left out once, a playing time's range in order."""
        if entry is None:
            return RulebookSettings()
        values = {} if params is None else {"target": params.target, "hand_size": params.hand_size,
                                            "min_players": params.min_players, "max_players": params.max_players}
        intro = self.fill(("rulebook", "intro"), " ".join(entry.intro.split()), values) if entry.intro else None
        minutes = None
        if entry.minutes is not None:
            low, _, high = str(entry.minutes).partition("-")
            minutes = (int(low), int(high or low))
            if minutes[0] > minutes[1] or minutes[0] < 1:
                self.fail(("rulebook", "minutes"), f"the playing time '{entry.minutes}' must be a number of minutes "
                          "or a range from fewer to more, like '15-30'")
        seen: set[str] = set()
        for j, name in enumerate(entry.leave_out):
            if name in seen:
                self.fail(("rulebook", "leave_out", j), f"section '{name}' is listed twice")
            seen.add(name)
        sections = []
        for j, s in enumerate(entry.sections):
            text = self.fill(("rulebook", "sections", j, "text"), s.text, values)
            if text is not None:
                sections.append(RulebookSection(s.title, s.after, text))
        return RulebookSettings(entry.title, intro, minutes, tuple(dict.fromkeys(entry.leave_out)), entry.designer_notes,
                                tuple(sections), origin=self.src.origin(("rulebook",)))

    def colours(self, entries: list[tuple[int, schema.ColourEntry]]) -> dict[str, Colour]:
        out: dict[str, Colour] = {}
        letters: dict[str, str] = {}
        for i, c in entries:
            if c.name in out:
                self.fail(("colours", i, "name"), f"colour '{c.name}' is defined twice")
                continue
            if c.code in letters:
                self.fail(("colours", i, "code"), f"code letter '{c.code}' is already used by {letters[c.code]}")
                self.broken.add(c.name)
                continue
            letters[c.code] = c.name
            out[c.name] = Colour(c.name, c.code, c.print.upper(), c.shape, tuple(c.cmyk) if c.cmyk else None,
                                 origin=self.src.origin(("colours", i)))
        return out

    def sets(self, entries: list[tuple[int, schema.SetEntry]]) -> dict[str, CardSet]:
        out: dict[str, CardSet] = {}
        for i, s in entries:
            if s.key in out:
                self.fail(("sets", i, "key"), f"set '{s.key}' is defined twice")
                continue
            out[s.key] = CardSet(s.key, s.name, s.interior, origin=self.src.origin(("sets", i)),
                                 art=self.art(("sets", i, "art"), s.art))
        return out

    def cards(self, entries, colours: dict[str, Colour], sets: dict[str, CardSet], params: GameParams | None) -> list[CardType]:
        out: list[CardType] = []
        first_at: dict[str, int] = {}
        for i, e in entries:
            for card in self.card_types(("cards", i), e, colours, sets, params):
                if card.code in first_at:
                    line = self.src.at(("cards", first_at[card.code]), "").line
                    self.fail(("cards", i), f"duplicate card code '{card.code}' (first defined on line {line})")
                    continue
                first_at[card.code] = i
                out.append(card)
        self.entry_of = first_at
        return out

    def card_types(self, loc: Loc, e: schema.CardEntry, colours, sets, params) -> list[CardType]:
        ok = True
        if e.set not in sets:
            if sets and e.set not in self.broken:
                self.fail(loc + ("set",), f"unknown set '{e.set}'{suggest(e.set, sets)}")
            ok = False
        allowed = _FIELDS_BY_KIND[e.kind]
        for name in shape.CARD.keys:
            given = getattr(e, name) is not None
            if given and name not in allowed:
                self.fail(loc + (name,), f"a {e.kind} card takes no '{name}'{_KIND_HINTS.get((e.kind, name), '')}", key=True)
                ok = False
            elif not given and name in _REQUIRED_BY_KIND[e.kind]:
                if loc + (name,) in self.src.keys:  # written, but empty: `name: #1 Card` is a comment
                    self.fail(loc + (name,), f"a {e.kind} card needs '{name}', and this one is empty (YAML reads "
                              "' #' and everything after it as a comment: put a text that starts with # in quotes)", key=True)
                else:
                    self.fail(loc, f"a {e.kind} card needs '{name}'")
                ok = False
        if not ok:
            return []
        if e.kind in ("number", "dual"):
            return self.number_types(loc, e, colours)
        return self.named_type(loc, e, params)

    def number_types(self, loc: Loc, e: schema.CardEntry, colours: dict[str, Colour]) -> list[CardType]:
        names = [e.colour] if e.kind == "number" else list(e.colours or [])
        if e.kind == "dual" and (len(names) != 2 or names[0] == names[1]):
            self.fail(loc + ("colours",), f"a dual card has two different colours, not {names}")
            return []
        found = []
        for j, name in enumerate(names):
            if name not in colours:
                where = loc + (("colour",) if e.kind == "number" else ("colours", j))
                if colours and name not in self.broken:
                    self.fail(where, f"unknown colour '{name}'{suggest(name, colours)}")
                return []
            found.append(colours[name])
        values = self.placed_values(loc + ("values",), e.values)
        letters = "".join(c.letter for c in found)
        title = "/".join(c.name.capitalize() for c in found)
        origins = {where: self.src.origin(loc, at=where) for where in dict.fromkeys(w for _, w in values)}
        art = self.art(loc + ("art",), e.art)
        return [CardType(f"{letters}{v}", e.kind, e.set, e.copies, f"{title} {v}", tuple(names), v,
                         origin=origins[where], art=art) for v, where in values]

    def values(self, loc: Loc, raw: Any) -> list[int]:
        return [v for v, _ in self.placed_values(loc, raw)]

    def placed_values(self, loc: Loc, raw: Any) -> list[tuple[int, Loc]]:
        """The card values of a `values:` entry, each with the item of the entry that makes it:
        a number card's own place in the manifest."""
        items = raw if isinstance(raw, list) else [raw]
        out: list[tuple[int, Loc]] = []
        for j, item in enumerate(items):
            where = loc + (j,) if isinstance(raw, list) else loc
            if isinstance(item, int):
                out.append((item, where))
                continue
            m = _RANGE.match(item)
            if not m:
                self.fail(where, f"bad range '{item}': write two whole numbers like -2..7")
                continue
            if max(len(m.group(1)), len(m.group(2))) > 10:  # checked before int() converts it
                self.fail(where, f"bad range '{_short(item)}': card values are -{MAX_VALUE}..{MAX_VALUE}")
                continue
            lo, hi = int(m.group(1)), int(m.group(2))
            if lo > hi:
                self.fail(where, f"bad range '{item}': it starts above where it ends (did you mean {hi}..{lo}?)")
                continue
            if hi - lo >= MAX_RUN:
                self.fail(where, f"bad range '{item}': it holds {hi - lo + 1} values; a range holds at most {MAX_RUN}")
                continue
            out.extend((v, where) for v in range(lo, hi + 1))
        big = next((v for v, _ in out if not -MAX_VALUE <= v <= MAX_VALUE), None)
        if big is not None:
            self.fail(loc, f"card value {big} does not fit on a card: values are -{MAX_VALUE}..{MAX_VALUE}")
            return []
        if not out and raw == []:
            self.fail(loc, "'values' must not be empty")
        return out

    def named_type(self, loc: Loc, e: schema.CardEntry, params: GameParams | None) -> list[CardType]:
        assert e.code is not None and e.name is not None
        if not _CODE.match(e.code):
            self.fail(loc + ("code",), f"card code '{e.code}' must be one word without spaces")
            return []
        effect = None
        fill: dict[str, int] = {}
        if params is not None:
            fill.update(target=params.target, hand_size=params.hand_size)
        if e.kind == "wild":
            effect = self.wild_rule(loc, e)
            if effect is None:
                return []
            fill.update(effect.params)
        name = self.fill(loc + ("name",), e.name, fill)
        text = self.fill(loc + ("text",), e.text or "", fill)
        corner = self.fill(loc + ("corner",), e.corner or "", fill)
        if name is None or text is None or corner is None:
            return []
        return [CardType(e.code, e.kind, e.set, e.copies, name, (), None, effect, " ".join(text.split()),
                         origin=self.src.origin(loc), art=self.art(loc + ("art",), e.art), corner=corner.strip())]

    def wild_rule(self, loc: Loc, e: schema.CardEntry) -> Effect | None:
        """A wild's rule: its steps (`does:`), or a named effect of the catalogue (`effect:` and its
        `params:`) made into its steps; None with every problem reported."""
        named, does = e.effect, e.does
        short = " ".join((e.short or "").split())
        if named is not None and does is not None:
            self.fail(loc + ("does",), "a wild card gives 'does' or 'effect', not both ('effect: NAME' is shorthand "
                      "for a named list of steps)", key=True)
            return None
        if named is None and does is None:
            self.fail(loc, "a wild card needs 'does', its steps (like 'does: [skip: 1]'), or 'effect', a named wild "
                      f"({', '.join(CATALOGUE)})")
            return None
        if named is None:
            if e.params is not None:
                self.fail(loc + ("params",), "'params' go with 'effect:'; with 'does:' each step holds its own numbers",
                          key=True)
                return None
            found, problems = steps.parse(does)
            for where, message, is_key in problems:
                self.fail(loc + ("does",) + where, message, key=is_key)
            if problems:
                return None
            rule = e.rule or "engine"
            if rule == "table" and found:
                self.fail(loc + ("rule",), "a wild with 'rule: table' is resolved by the players from its text: "
                          "give it 'does: []', or leave 'rule' out to have the engine play its steps")
                return None
            if rule == "engine" and not found:
                self.fail(loc + ("does",), "'does' is empty: give at least one step (docs/rules.md R6.12-R6.22), or add "
                          "'rule: table' for a wild the players resolve by its text (no command then plays the deck)")
                return None
            return Effect("", (), origin=self.src.origin(loc + ("does",), at=loc + (("rule",) if rule == "table" else ("does",))),
                          rule=rule, short=short,
                          steps=tuple(Step(kind, tuple(args.items())) for kind, args in found))
        if e.rule == "table":
            self.fail(loc + ("rule",), f"effect '{named}' is played by the engine; 'rule: table' goes with 'does: []' "
                      "for a wild the players resolve by its text")
            return None
        entry = CATALOGUE[named]
        wanted = entry.param_names
        given = dict(e.params or {})
        bad = False
        for key in given:
            if key not in wanted:
                hint = f"; it takes {', '.join(wanted)}" if wanted else "; it takes no parameters"
                self.fail(loc + ("params", key), f"effect '{named}' has no parameter '{key}'{suggest(key, wanted)}{hint}", key=True)
                bad = True
        for p in entry.params:
            if p.name not in given and p.default is not None:
                given[p.name] = p.default  # a manifest written before the parameter existed
        for key in wanted:
            if key not in given:
                self.fail(loc + ("params",) if e.params is not None else loc, f"effect '{named}' needs the parameter '{key}'")
                bad = True
        for key, value in given.items():
            problem = param_problem(entry, key, value) if key in wanted else None
            if problem:
                self.fail(loc + ("params", key), problem)
                bad = True
        if bad:
            return None
        params = tuple((k, given[k]) for k in wanted)
        return Effect(named, params, origin=self.src.origin(loc + ("params",), at=loc + ("effect",)),
                      steps=entry.resolve(dict(params)), short=short)

    def fill(self, loc: Loc, text: str, values: dict[str, int]) -> str | None:
        """The marked text (deck/icons.py): placeholders filled, icons checked and kept."""
        try:
            problems = [self.unknown_field(field, spec, values) for field, spec in icons.fields(text)
                        if field not in values]
            for problem in dict.fromkeys(p for p in problems if p):  # every one, each once
                self.fail(loc, problem)
            return None if any(problems) else icons.fill(text, values)
        except (ValueError, IndexError) as exc:
            self.fail(loc, f"bad placeholder in {text!r}: {exc} (write {{{{ and }}}} for literal braces)")
            return None

    def unknown_field(self, field: str, spec: str, values: dict[str, int]) -> str | None:
        """What is wrong with a field of a text that is no placeholder of it: nothing for an icon
        the deck knows (`{cyan}`, `{icon:skip}`, `{icon:NAME}` of `look: icons:`), else the message."""
        colours, effects, images = self.icon_names
        if field == icons.ICON and spec:
            if spec in effects or spec in images:
                return None
            return f"unknown icon '{spec}'{suggest(spec, [*images, *effects])}; an icon is a colour ({{cyan}}), " \
                   "a wild effect ({icon:skip}) or a picture the layout declares ({icon:NAME})"
        if not spec and field in colours:
            return None
        near = suggest(field, values) or suggest(field, _PLACEHOLDER_NAMES - {field})
        if near or field in _PLACEHOLDER_NAMES or not field.isidentifier() or spec:
            known = f"use one of {', '.join('{' + k + '}' for k in values)}" if values else "this text takes none"
            return f"unknown placeholder '{{{field}}}'{near}; {known}"
        if field in effects or field in images:
            return f"unknown icon '{field}' (did you mean '{{icon:{field}}}'?)"
        return f"unknown icon '{field}'{suggest(field, colours)}; a colour's icon is its name ({', '.join('{' + c + '}' for c in colours)})"

    # --- the look ------------------------------------------------------------------
    def file(self, loc: Loc, value: str, what: str) -> Path | None:
        """A file the manifest names (a picture, a font): relative to the manifest's folder and
        inside it, an existing regular file; its absolute path, or None with the problem
        reported at `loc`. What the file holds is checked by the rendering layer's checks
        (products/printable.py), located here by the entry's origin."""
        folder = self.src.home()
        if not value.strip():
            self.fail(loc, f"the {what} file is empty: give a path relative to the manifest, like 'art/steal.png'")
            return None
        if os.path.isabs(value) or value.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", value):
            self.fail(loc, f"'{value}' is an absolute path; give the {what} file's path relative to the manifest's "
                      "folder (keep it beside cards.yaml)")
            return None
        if "\0" in value:  # names no file (the text check says where it stands); resolve() would raise
            return None
        try:
            path = (folder / value).resolve()
        except (RuntimeError, OSError):  # Python raises RuntimeError on a loop of symbolic links
            self.fail(loc, f"the {what} file '{value}' is a symbolic link that leads round in a loop; name the file "
                      "itself")
            return None
        if not path.is_relative_to(folder):
            self.fail(loc, f"'{value}' leaves the manifest's folder; keep the {what} file in the folder that holds "
                      "cards.yaml (or below it)")
            return None
        try:
            info = path.stat()
        except FileNotFoundError:
            here = sorted(p.name for p in path.parent.iterdir()) if path.parent.is_dir() else []
            self.fail(loc, f"no such {what} file '{value}' (relative to the manifest's folder){suggest(path.name, here)}")
            return None
        except OSError as exc:
            self.fail(loc, f"cannot read the {what} file '{value}': {(exc.strerror or str(exc)).lower()}")
            return None
        if not stat.S_ISREG(info.st_mode):
            self.fail(loc, f"the {what} file '{value}' is {_kind_of(info.st_mode)}, not a regular file")
            return None
        if not os.access(path, os.R_OK):
            self.fail(loc, f"cannot read the {what} file '{value}': permission denied")
            return None
        return path

    def art(self, loc: Loc, entry: Any) -> looks.Art | None:
        """`art:` of a card entry, a set or an element: a path, or {file, fit, bleed}."""
        if entry is None:
            return None
        if isinstance(entry, str):
            path = self.file(loc, entry, "picture")
            return None if path is None else looks.Art(path, origin=self.src.origin(loc[:-1], at=loc), written=())
        path = self.file(loc + ("file",), entry.file, "picture")
        if path is None:
            return None
        written = tuple(k for k in ("fit", "bleed") if getattr(entry, k) is not None)
        return looks.Art(path, entry.fit or "contain", bool(entry.bleed), origin=self.src.origin(loc, at=loc + ("file",)),
                         written=written)

    def look(self, entry: Any, sets: dict[str, CardSet], cards: list[CardType]) -> looks.Look:
        """The `look:` section as the deck's Look (the default look without one)."""
        if entry is None:
            return looks.DEFAULT_LOOK
        base: Loc = ("look",)
        fonts = []
        for weight in ("regular", "bold"):
            given = getattr(entry.fonts, weight) if entry.fonts is not None else None
            fonts.append((weight, self.file(base + ("fonts", weight), given, "font") if given is not None else None))
        pictures = []
        for name, path in (entry.icons or {}).items():
            if not re.fullmatch(r"[a-z][a-z0-9_-]*", name):
                self.fail(base + ("icons", name), f"icon name '{name}' must be a lower-case name like 'skip'", key=True)
                continue
            found = self.file(base + ("icons", name), path, "icon")
            if found is not None:
                pictures.append((name, found))
        layers: list[looks.Layer] = []
        for kind in looks.FACE_KINDS:
            face = getattr(entry, kind)
            if face is not None:
                layers.append(self.layer(base + (kind,), "kind", "", kind, face))
        for key, faces in (entry.sets or {}).items():
            if key not in sets:
                if sets and key not in self.broken:
                    self.fail(base + ("sets", key), f"unknown set '{key}'{suggest(key, sets)}", key=True)
                continue
            for kind in looks.FACE_KINDS[:-1]:
                face = getattr(faces, kind)
                if face is not None:
                    layers.append(self.layer(base + ("sets", key, kind), "set", key, kind, face))
        by_code = {c.code: c for c in cards}
        for code, face in (entry.cards or {}).items():
            card = by_code.get(code)
            if card is None:
                if cards:
                    self.fail(base + ("cards", code), f"unknown card '{code}'{suggest(code, by_code)}", key=True)
                continue
            layers.append(self.layer(base + ("cards", code), "card", code, card.kind, face))
        return looks.Look(tuple(fonts), tuple(pictures), tuple(layers), origin=self.src.origin(base),
                          fonts_origin=self.src.origin(base + ("fonts",)) if entry.fonts is not None else None,
                          icons_origin=self.src.origin(base + ("icons",)) if entry.icons else None)

    def layer(self, loc: Loc, scope: str, key: str, kind: str, face: Any) -> looks.Layer:
        """One kind of face's changes (for every card of the kind, one set's, or one card's)."""
        names = looks.ELEMENTS[kind]
        changes, origins = [], []
        given = shape.LOOK_CARD.keys if scope == "card" else names
        for name in given:
            if name == "add":
                continue
            el = getattr(face, name, None)
            if el is None:
                continue
            if name not in names:
                self.fail(loc + (name,), f"a {kind} card has no element '{name}'{suggest(name, names)}; its elements "
                          f"are {', '.join(names)}", key=True)
                continue
            change = self.element(loc + (name,), name, el)
            if change is not None:
                changes.append((name, change))
                origins.append((name, self.src.origin(loc + (name,))))
        added = []
        seen: set[str] = set()
        for i, a in enumerate(getattr(face, "add", None) or []):
            if a.name in seen or a.name in names:
                self.fail(loc + ("add", i, "name"), f"element '{a.name}' is already on the {kind} face; give the added "
                          "element another name")
                continue
            seen.add(a.name)
            el = self.addition(loc + ("add", i), a)
            if el is not None:
                added.append(el)
        return looks.Layer(scope, key, kind, tuple(changes), tuple(added), tuple(origins))

    def element(self, loc: Loc, name: str, el: Any, picture: bool = False) -> looks.Change | None:
        """An element's given keys as (field, value) pairs, lengths in dots, files checked;
        `picture`: an added picture (which takes a file)."""
        out: list[tuple[str, Any]] = []
        ok = True
        for k in shape.ELEMENT.keys:
            v = getattr(el, k, None)
            if v is None:
                continue
            if k in looks.LENGTH_KEYS:
                v = looks.length(v)
                if k in ("width", "height", "size", "min_size", "spacing", "radius", "line") and v < 0:
                    self.fail(loc + (k,), f"'{k}' must not be negative, not {getattr(el, k)!r}")
                    ok = False
                    continue
            elif k == "align":
                v = looks.ALIGNS[v]
            elif k == "colour":
                v = v.upper()
            elif k == "fit":
                fits = looks.ART_FITS if name == "art" or getattr(el, "file", None) else looks.TEXT_FITS
                if v not in fits:
                    self.fail(loc + (k,), f"'fit' of {'a picture' if fits == looks.ART_FITS else 'a text'} is "
                              f"{' or '.join(fits)}, not '{v}'")
                    ok = False
                    continue
            elif k in ("file", "bleed") and name != "art" and not picture:
                self.fail(loc + (k,), f"only the art box (or an added picture) takes '{k}'; element '{name}' "
                          "draws no picture", key=True)
                ok = False
                continue
            if k == "file":
                v = self.file(loc + (k,), v, "picture")
                if v is None:
                    ok = False
                    continue
            elif k == "font":
                found = self.file(loc + (k,), v, "font")
                if found is None:
                    ok = False
                    continue
                v = str(found)
            out.append((k, v))
        return tuple(out) if ok else None

    def addition(self, loc: Loc, a: Any) -> looks.Element | None:
        """An element `add:`ed to a face: a text or a picture, in a box it must give."""
        missing = [k for k in ("x", "y", "width", "height") if getattr(a, k) is None]
        if missing:
            self.fail(loc, f"added element '{a.name}' needs {', '.join(missing)} (its box on the card)")
            return None
        if (a.text is None) == (a.file is None):
            self.fail(loc, f"added element '{a.name}' shows a 'text' or a picture ('file'): give one of them")
            return None
        change = self.element(loc, a.name, a, picture=a.file is not None)
        if change is None:
            return None
        values = dict(change)
        box = [values.pop(k) for k in ("x", "y", "width", "height")]
        if a.text is not None:
            text = self.fill(loc + ("text",), " ".join(a.text.split()), {})  # its icons and braces, as a card's text
            if text is None:
                return None
            values.setdefault("size", looks.length("9pt"))
            values["text"] = text
        else:
            values.setdefault("fit", "contain")
        return looks.Element(a.name, *box, **values, origin=self.src.origin(loc))

    def editions(self, entries, cards: list[CardType], sets: dict[str, CardSet]) -> list[Edition]:
        out: list[Edition] = []
        keys: set[str] = set()
        for i, ed in entries:
            loc = ("editions", i)
            if ed.key in keys:
                self.fail(loc + ("key",), f"edition '{ed.key}' is defined twice")
                continue
            keys.add(ed.key)
            filters = []
            for j, f in enumerate(ed.include):
                if f.set is None and f.kind is None:
                    self.fail(loc + ("include", j), "an include entry needs 'set', 'kind' or both "
                              "(to take every playing card, write {kind: [number, dual, wild]})")
                f_sets = _as_list(f.set)
                for s in f_sets:
                    if s not in sets and sets and s not in self.broken:
                        self.fail(loc + ("include", j, "set"), f"unknown set '{s}'{suggest(s, sets)}")
                filters.append((set(f_sets) or None, set(_as_list(f.kind)) or None))
            codes = tuple(
                c.code
                for c in cards
                if c.kind in PLAYING_KINDS and any((fs is None or c.set in fs) and (fk is None or c.kind in fk) for fs, fk in filters)
            )
            if not codes and cards and not self.broken:
                self.fail(loc + ("include",), f"edition '{ed.key}' selects no playing cards")
            out.append(Edition(ed.key, ed.name, ed.description, codes, ed.expect, origin=self.src.origin(loc)))
        return out


#: Which keys each kind of card takes and needs (declared in shape.KINDS_FIELDS).
_FIELDS_BY_KIND = {kind: set(shape.CARD_COMMON) | set(keys) for kind, keys in shape.KINDS_FIELDS.items()}
_REQUIRED_BY_KIND = {kind: {k for k, needed in keys.items() if needed} for kind, keys in shape.KINDS_FIELDS.items()}
_KIND_HINTS = {
    ("number", "colours"): " (a number card has one 'colour'; two colours make a 'dual' card)",
    ("dual", "colour"): " (a dual card lists its two 'colours')",
    ("number", "code"): " (its code is made from its colour and value)",
    ("dual", "code"): " (its code is made from its colours and value)",
}


#: Characters that end a line: a one-line field must not hold them.
_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _kind_of(mode: int) -> str:
    """The one wording of a file's kind (deck/input_file.py)."""
    return kind_of(mode)


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _dig(data: Any, loc: Loc) -> Any:
    for part in loc:
        data = data[part]
    return data


def _as_list(value: Any) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _show(value: Any) -> str:
    if isinstance(value, (dict, list)) or value is None:
        return _what(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)


def _limit(bound: Any) -> str:
    """A declared bound as written: 10, not 10.0 (pydantic gives a float field's bounds as floats)."""
    return str(int(bound)) if isinstance(bound, float) and bound.is_integer() else str(bound)


def _what(value: Any) -> str:
    return {dict: "a mapping", list: "a list", str: "text", type(None): "nothing"}.get(type(value), f"{value!r}")
