"""The rules loop reads as the rules: every rule of a turn it plays is cited where it is played.

`State._run` is the one implementation of a turn (docs/rules.md R4-R7); its comments name the
rule each part plays, so searching for a number finds its lines. This checks that the turn's
rules are all cited there, in the order a turn meets them, and that each cited number exists.
"""

from __future__ import annotations

import inspect
import re
import tokenize
from io import StringIO
from pathlib import Path

from generator.engine.state import State

RULES = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
#: The rules the loop itself plays (a wild's own effect is in engine/effects.py; R4.8 is the manifest's).
PLAYED_HERE = ("R4.1", "R4.2", "R4.3", "R4.4", "R4.5a", "R4.5b", "R4.5c", "R4.5d", "R4.6", "R4.7",
               "R5", "R5.3", "R6", "R6.2", "R6.8", "R6.11", "R7.2", "R7.3", "R7.5")


def _comments() -> list[str]:
    source = inspect.getsource(State._run)
    return [tok.string for tok in tokenize.generate_tokens(StringIO(source).readline) if tok.type == tokenize.COMMENT]


def test_every_rule_of_a_turn_is_cited_in_the_loop():
    cited = set(re.findall(r"R\d+(?:\.\d+[a-d]?)?", " ".join(_comments())))
    assert set(PLAYED_HERE) <= cited, f"State._run does not cite {sorted(set(PLAYED_HERE) - cited)}"
    defined = set(re.findall(r"\*\*(R\d+\.\d+[a-d]?)\*\*", RULES)) | set(re.findall(r"## (R\d+)\.", RULES))
    assert cited <= defined, f"State._run cites {sorted(cited - defined)}, which docs/rules.md does not define"


def test_the_loop_s_four_parts_come_in_the_order_of_a_turn():
    parts = [c for c in _comments() if re.match(r"# --- \d\.", c)]
    assert [p[6] for p in parts] == ["1", "2", "3", "4"]
    assert "decision" in parts[0] and "R4.7" in parts[2] and "decision" in parts[3]
