"""docs/ stays the source the project cites: every rule number used resolves, every link works."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from tests.conftest import ROOT

RULES = ROOT / "docs" / "rules.md"
#: A rule cited in text: R4, R4.5, R4.5a or R4.5(a) (the letter names an item of R4.5).
CITED = re.compile(r"(?<![A-Za-z0-9])R(\d+)(?:\.(\d+))?(?:\(([a-z])\)|([a-z]))?(?![A-Za-z0-9])")
#: A rule cited by a file name: r4_5a_mismatch.json is R4.5a, r3_deal_... is R3.
CITED_IN_NAME = re.compile(r"(?:^|_)r(\d+)(?:_(\d+)([a-z])?)?(?=_|$)")
#: Where rules.md defines a number: a section heading "## R4. A turn" or an item "**R4.5a**".
DEFINED = re.compile(r"^#+ (R\d+)\.|\*\*(R\d+\.\d+[a-z]?)\*\*", re.M)
#: Files to read for citations (images and fonts have none).
TEXT_SUFFIXES = {".py", ".json", ".txt", ".md", ".j2", ".yaml", ".toml", ".css", ".html"}


def rule_id(section: str, item: str | None, letter: str | None) -> str:
    return f"R{section}" + (f".{item}" if item else "") + (letter or "")


def citations_in_text(text: str) -> set[str]:
    return {rule_id(m[1], m[2], m[3] or m[4]) for m in CITED.finditer(text)}


def citations_in_name(name: str) -> set[str]:
    return {rule_id(*m.groups()) for m in CITED_IN_NAME.finditer(Path(name).stem)}


def defined_rules() -> list[str]:
    return [a or b for a, b in DEFINED.findall(RULES.read_text(encoding="utf-8"))]


def cited_rules() -> dict[str, set[str]]:
    """Rule number -> the files (relative to the repository) citing it, in generator/ and tests/."""
    cited: dict[str, set[str]] = {}
    for top in ("generator", "tests"):
        for path in sorted((ROOT / top).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            rel = path.relative_to(ROOT).as_posix()
            found = citations_in_name(path.name)
            if path.suffix in TEXT_SUFFIXES:
                found |= citations_in_text(path.read_text(encoding="utf-8"))
            for rule in found:
                cited.setdefault(rule, set()).add(rel)
    return cited


def test_the_citation_patterns_read_every_form():
    assert citations_in_text("R4.5(a)+(b) stack; see R6.10, R3 and docs/rules.md R3-R8") == {
        "R4.5a", "R6.10", "R3", "R8"}
    assert citations_in_text("sRGB, R2D2, HR10 and PR4.5x are not rules") == set()
    assert citations_in_name("r4_5a_mismatch_owed_pending.json") == {"R4.5a"}
    assert citations_in_name("audit_r6_10_rotate_with_empty_hands.json") == {"R6.10"}
    assert citations_in_name("r3_deal_dealer_default.json") == {"R3"}
    assert citations_in_name("teams_give_once.json") == set()


def test_rules_md_defines_each_number_once():
    defined = defined_rules()
    assert len(defined) == len(set(defined)), sorted(r for r in defined if defined.count(r) > 1)
    for section in range(3, 9):  # R3..R8 are sections, each with numbered rules
        assert f"R{section}" in defined
        assert any(r.startswith(f"R{section}.") for r in defined), section


def test_every_cited_rule_number_is_in_rules_md():
    cited = cited_rules()
    # the scan really reads code, scenario contents and scenario names
    assert {"R4.5a", "R4.5", "R6.8", "R6.10", "R5.0"} <= set(cited)
    assert any(f.startswith("tests/scenarios/r4_5a_") for f in cited["R4.5a"])
    assert any(f.startswith("generator/") for f in cited["R6.8"])
    defined = set(defined_rules())
    missing = {rule: sorted(files)[:3] for rule, files in cited.items() if rule not in defined}
    assert not missing, f"rule numbers cited but not defined in docs/rules.md: {missing}"


def test_every_rule_option_is_in_rules_md():
    from generator.engine.options import option_names

    text = RULES.read_text(encoding="utf-8")
    for name in option_names():
        assert f"| `{name}` |" in text, f"option {name} is missing from docs/rules.md's option table"


# --- links ------------------------------------------------------------------------------
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|__", "", heading).strip().lower()
    kept = "".join(ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(heading)
        name, n = base, 0
        while name in found:
            n += 1
            name = f"{base}-{n}"
        found.add(name)
    return found


def links(path: Path) -> list[str]:
    text = CODE_SPAN.sub("", FENCE.sub("", path.read_text(encoding="utf-8")))
    return LINK.findall(text)


def test_slugs_follow_github():
    assert slug("`county-uppy build [--out DIR]`") == "county-uppy-build---out-dir"
    assert slug("R4. A turn") == "r4-a-turn"
    assert slug("build.json") == "buildjson"


def test_documents_have_links_to_check():
    assert "docs/rules.md" in links(ROOT / "README.md")
    assert any("#" in target for doc in DOCUMENTS for target in links(doc))


@pytest.mark.parametrize("doc", DOCUMENTS, ids=[d.relative_to(ROOT).as_posix() for d in DOCUMENTS])
def test_relative_links_resolve(doc: Path):
    broken = []
    for target in links(doc):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
            continue
        file_part, _, anchor = target.partition("#")
        dest = (doc.parent / file_part).resolve() if file_part else doc
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading #{anchor} in {dest.relative_to(ROOT)}")
    assert not broken, f"{doc.relative_to(ROOT)}: " + "; ".join(broken)
