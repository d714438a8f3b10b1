"""`county-uppy completion SHELL`: a script that knows every command and option, and works in bash."""

from __future__ import annotations

import argparse
import shutil
import subprocess

import pytest

from generator.cli import COMMANDS, build_parser, main
from tests.conftest import ROOT


def script(capsys, shell: str) -> str:
    assert main(["completion", shell]) == 0
    return capsys.readouterr().out


def command_options() -> dict[str, list[str]]:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {name: [o for a in p._actions for o in a.option_strings if o.startswith("--")] for name, p in sub.choices.items()}


@pytest.mark.parametrize("shell", ["bash", "zsh", "tcsh"])
def test_the_script_names_every_command_and_option(capsys, shell):
    text = script(capsys, shell)
    for name, options in command_options().items():
        assert name in text, f"{shell}: command {name}"
        for option in options:  # tcsh lists them without their dashes
            assert (option.lstrip("-") if shell == "tcsh" else option) in text, f"{shell}: {name} {option}"
    assert set(command_options()) == set(COMMANDS)


def complete(script_path, *words: str) -> list[str]:
    """What bash offers after `county-uppy WORDS...` (the last word is the one being completed)."""
    line = " ".join(("county-uppy", *words))
    code = (f'source "{script_path}"; COMP_WORDS=(county-uppy {" ".join(repr(w) for w in words)}); '
            f'COMP_CWORD={len(words)}; COMP_LINE={line!r}; COMP_POINT=${{#COMP_LINE}}; '
            '_shtab_county_uppy; printf "%s\\n" "${COMPREPLY[@]}"')
    out = subprocess.run(["bash", "-c", code], capture_output=True, text=True, timeout=20, cwd=ROOT, check=True)
    return out.stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_commands_options_choices_and_files(capsys, tmp_path):
    path = tmp_path / "county-uppy.bash"
    path.write_text(script(capsys, "bash"))
    subprocess.run(["bash", "-n", str(path)], check=True, timeout=20)
    assert complete(path, "sim") == ["simulate"]
    assert set(complete(path, "")) == set(COMMANDS)
    assert complete(path, "simulate", "--wo") == ["--workers"]
    assert complete(path, "completion", "") == ["bash", "zsh", "tcsh"]
    assert "cards.yaml" in complete(path, "validate", "--manifest", "cards.y")


def test_an_unknown_shell_is_a_usage_error(capsys):
    assert main(["completion", "fish"]) == 2
    assert "invalid choice: 'fish'" in capsys.readouterr().err
