"""The README's examples stay true: its Python example runs and its validate output is real."""

from __future__ import annotations

import re

from generator.cli import main
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_python_example_runs(capsys):
    code = re.findall(r"^```python\n(.*?)```", README, flags=re.S | re.M)[0]  # the engine's (the wild effect's are indented)
    assert "new_initial_state" in code
    exec(compile(code, "README.md", "exec"), {})
    winner, turns = capsys.readouterr().out.split()
    assert winner in {"0", "1", "2", "3"} and int(turns) > 0


def test_validate_example_is_the_real_output(capsys):
    block = re.search(r"\$ county-uppy validate\n(.*?)\$ county-uppy validate --json", README, flags=re.S).group(1)
    assert main(["validate"]) == 0
    assert capsys.readouterr().out.strip() == block.strip()


def test_every_command_is_documented():
    from generator.cli import COMMANDS

    for name in COMMANDS:
        assert f"### `county-uppy {name}" in README, name
