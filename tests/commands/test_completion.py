"""`county-uppy completion SHELL`: a script that knows every command and option, and works in bash."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.cli import COMMANDS, build_parser, main
from tests.conftest import MANIFEST, ROOT


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


def complete(script_path, *words: str, cwd=ROOT) -> list[str]:
    """What bash offers after `county-uppy WORDS...` (the last word is the one being completed),
    with this installation's county-uppy first on PATH (the script runs it for edition keys)."""
    line = " ".join(("county-uppy", *words))
    code = (f'source "{script_path}"; COMP_WORDS=(county-uppy {" ".join(repr(w) for w in words)}); '
            f'COMP_CWORD={len(words)}; COMP_LINE={line!r}; COMP_POINT=${{#COMP_LINE}}; '
            '_shtab_county_uppy; printf "%s\\n" "${COMPREPLY[@]}"')
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    out = subprocess.run(["bash", "-c", code], capture_output=True, text=True, timeout=20, cwd=cwd, check=True, env=env)
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


EDITIONS = ["the-og", "keep-it-simple", "only-chaos", "its-wild-time", "math-is-fun"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_editions_products_papers_and_bots(capsys, tmp_path):
    """The README's promise: the options that take a name offer the names."""
    path = tmp_path / "county-uppy.bash"
    path.write_text(script(capsys, "bash"))
    # editions: the keys of the manifest in the folder, for every command that takes one
    for command in ("build", "watch", "simulate", "report", "sweep", "play"):
        assert complete(path, command, "--edition", "") == EDITIONS, command
    assert complete(path, "simulate", "--edition", "o") == ["only-chaos"]
    # ... or of the --manifest on the line, as it is now (half edited: a mistake elsewhere)
    other = tmp_path / "mine.yaml"
    other.write_text(MANIFEST.read_text(encoding="utf-8").replace("key: the-og", "key: the-new-og")
                     .replace("colour: cyan,", "colour: cyna,", 1), encoding="utf-8")
    assert complete(path, "build", "--manifest", str(other), "--edition", "the-") == ["the-new-og"]
    assert complete(path, "build", "--edition", "", cwd=tmp_path) == []  # no cards.yaml here: nothing
    # products, one by one or as a comma-separated list
    assert complete(path, "build", "--only", "") == ["deck", "rulebook", "rulebook-pdf", "print", "pod", "tts", "cards"]
    assert complete(path, "watch", "--only", "r") == ["rulebook", "rulebook-pdf"]
    assert complete(path, "build", "--only", "deck,p") == ["deck,print", "deck,pod"]
    # papers
    assert complete(path, "build", "--paper", "") == ["letter", "a4"]
    assert complete(path, "build", "--layout", "") == ["duplex", "gutterfold"]
    # bots, for every command that plays, also inside a list: the ones the command takes
    for command in ("simulate", "play"):
        assert complete(path, command, "--bots", "") == ["random", "greedy", "search"], command
    for command in ("report", "sweep"):
        assert complete(path, command, "--bots", "") == ["random", "greedy", "search", "ismcts"], command
    assert complete(path, "simulate", "--bots", "greedy,r") == ["greedy,random"]
    assert complete(path, "sweep", "--bots", "greedy,i") == ["greedy,ismcts"]
    assert complete(path, "simulate", "--bots", "greedy,i") == []


def test_the_names_the_scripts_offer(tmp_path, capsys):
    assert main(["completion", "--names", "editions", "--manifest", str(MANIFEST)]) == 0
    assert capsys.readouterr().out.split() == EDITIONS
    assert main(["completion", "--names", "bots"]) == 0
    assert capsys.readouterr().out.split() == ["random", "greedy", "search"]
    assert main(["completion", "--names", "ladder"]) == 0
    assert capsys.readouterr().out.split() == ["random", "greedy", "search", "ismcts"]
    # keys a shell could not take as one word are left out; a file that is not a manifest has none
    odd = tmp_path / "odd.yaml"
    odd.write_text("editions:\n  - {key: ok-one}\n  - {key: 'two words'}\n  - {key: '$(boom)'}\n  - {key: 7}\n")
    assert main(["completion", "--names", "editions", "--manifest", str(odd)]) == 0
    assert capsys.readouterr().out.split() == ["ok-one"]
    (tmp_path / "bad.yaml").write_text("editions: [\n")
    assert main(["completion", "--names", "editions", "--manifest", str(tmp_path / "bad.yaml")]) == 0
    assert main(["completion", "--names", "editions", "--manifest", str(tmp_path / "none.yaml")]) == 0
    out, err = capsys.readouterr()
    assert out == err == ""
    assert main(["completion"]) == 2
    assert "name a shell" in capsys.readouterr().err


@pytest.mark.parametrize("shell", ["zsh", "tcsh"])
def test_zsh_and_tcsh_scripts_offer_the_names(capsys, shell):
    text = script(capsys, shell)
    if shell == "zsh":
        assert "_county_uppy_editions() {" in text and "county-uppy completion --names editions" in text
        assert "_values -s , products deck rulebook rulebook-pdf print pod tts cards" in text
        assert "_values -s , bots random greedy search }" in text
        assert "_values -s , ladder random greedy search ismcts }" in text
        assert ":_county_uppy_editions" in text and ":_county_uppy_bots" in text and ":_county_uppy_ladder" in text
        if shutil.which("zsh"):
            subprocess.run(["zsh", "-n", "-c", text], check=True, timeout=20)
    else:
        assert "'n/--edition/`county-uppy completion --names editions`/'" in text
        assert "'n/--only/(deck rulebook rulebook-pdf print pod tts cards)/'" in text
        assert "'n/--bots/(random greedy search)/'" in text or "'n/--bots/(random greedy search ismcts)/'" in text


BOTS_ARE = re.compile(r"bots are ([a-z]+(?:, [a-z]+)*)")


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize("command", ["simulate", "play", "report", "sweep"])
def test_bash_offers_for_bots_the_names_the_command_itself_takes(capsys, tmp_path, command):
    """What `--bots` completes to is what the command accepts: an unknown name is refused with the
    list of the names it takes (the engine's make_bot, or the ladder's ladder_bot)."""
    path = tmp_path / "county-uppy.bash"
    path.write_text(script(capsys, "bash"))
    more = {"simulate": ["--games", "1", "--players", "2"], "play": [], "report": ["--games", "1"],
            "sweep": ["--param", "target=16", "--games", "1"]}[command]
    assert main([command, "--manifest", str(MANIFEST), *more, "--bots", "nosuchbot"]) == 2
    said = capsys.readouterr().err
    taken = BOTS_ARE.search(said)
    assert taken, said
    assert complete(path, command, "--bots", "") == taken.group(1).split(", ")
