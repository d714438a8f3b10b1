"""Links planted where the commands write: a fixed temporary name, a lock file, a sweep's
cells/ and manifests/ folders. Nothing outside the folder the user named changes.

Each case plants a symlink to a file or folder outside, runs the command, and checks that the
outside is byte for byte as it was (and that the command did its work all the same).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from generator.cli import main
from generator.products.output.folder_lock import LOCK_NAME, FolderLock
from tests.conftest import MANIFEST


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture()
def outside(tmp_path):
    """A folder outside every output folder, with a file someone cares about."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "precious.txt").write_text("not the tool's\n")
    (folder / "cell-0007.html").write_text("someone else's page\n")
    (folder / "variant-0003.yaml").write_text("someone else's manifest\n")
    return folder


def test_report_writes_through_no_planted_temporary_name(tmp_path, outside, capsys):
    out = tmp_path / "rep"
    out.mkdir()
    for name in ("balance.json.tmp", "balance.html.tmp"):
        (out / name).symlink_to(outside / "precious.txt")
    before = snapshot(outside)
    assert main(["report", "--manifest", str(MANIFEST), "--games", "20", "--players", "2", "--edition", "the-og",
                 "--workers", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    assert snapshot(outside) == before
    assert json.loads((out / "balance.json").read_text())["complete"] is True


def test_report_replaces_a_link_standing_at_its_own_file(tmp_path, outside, capsys):
    out = tmp_path / "rep"
    out.mkdir()
    (out / "balance.json").symlink_to(outside / "precious.txt")
    before = snapshot(outside)
    assert main(["report", "--manifest", str(MANIFEST), "--games", "20", "--players", "2", "--edition", "the-og",
                 "--workers", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    assert snapshot(outside) == before and not (out / "balance.json").is_symlink()


def test_simulate_records_write_through_no_planted_temporary_name(tmp_path, outside, capsys):
    games = tmp_path / "games"
    games.mkdir()
    (games / "game-000000.json.tmp").symlink_to(outside / "precious.txt")
    before = snapshot(outside)
    assert main(["simulate", "--manifest", str(MANIFEST), "--games", "3", "--players", "3", "--workers", "1",
                 "--record", str(games)]) == 0
    capsys.readouterr()
    assert snapshot(outside) == before
    assert sorted(p.name for p in games.glob("game-*.json")) == ["game-000000.json", "game-000001.json",
                                                                "game-000002.json"]


def test_play_record_writes_through_no_planted_temporary_name(tmp_path, outside, monkeypatch, capsys):
    import io

    record = tmp_path / "game.json"
    (tmp_path / "game.json.tmp").symlink_to(outside / "precious.txt")
    before = snapshot(outside)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    assert main(["play", "--manifest", str(MANIFEST), "--record", str(record), "--seed", "5"]) == 0
    capsys.readouterr()
    assert snapshot(outside) == before and json.loads(record.read_text())["seed"] == 5


def test_a_dataset_writes_through_no_planted_temporary_name(tmp_path, outside, capsys):
    """simulate --dataset wrote its arrays and dataset.json through fixed names (ARRAY.npy.tmp,
    dataset.json.tmp), and its records (--record with --dataset) through game-N.json.tmp."""
    data, games = tmp_path / "data", tmp_path / "games"
    data.mkdir()
    games.mkdir()
    names = ["dataset.json", "observations.npy", "legal.npy", "actions.npy", "games.npy", "seats.npy", "returns.npy"]
    for name in names:
        (data / f"{name}.tmp").symlink_to(outside / "precious.txt")
    (games / "game-000000.json.tmp").symlink_to(outside / "precious.txt")
    before = snapshot(outside)
    assert main(["simulate", "--manifest", str(MANIFEST), "--games", "2", "--players", "2", "--workers", "1",
                 "--dataset", str(data), "--record", str(games)]) == 0
    capsys.readouterr()
    assert snapshot(outside) == before
    assert all((data / name).is_file() and not (data / name).is_symlink() for name in names)
    assert json.loads((games / "game-000000.json").read_text())["players"] == 2


def test_replay_html_replaces_a_link_standing_at_its_own_file(tmp_path, outside, capsys):
    """replay --html wrote the page with write_text: through a link standing at OUT, and half a page on a full disk."""
    record = tmp_path / "game.json"
    assert main(["simulate", "--manifest", str(MANIFEST), "--games", "1", "--players", "2", "--workers", "1",
                 "--record", str(tmp_path / "games")]) == 0
    record.write_bytes((tmp_path / "games" / "game-000000.json").read_bytes())
    page = tmp_path / "replay.html"
    page.symlink_to(outside / "precious.txt")
    before = snapshot(outside)
    assert main(["replay", "--manifest", str(MANIFEST), str(record), "--html", str(page)]) == 0
    capsys.readouterr()
    assert snapshot(outside) == before and not page.is_symlink() and "<html" in page.read_text()


@pytest.mark.parametrize("command", ["play", "replay"])
def test_a_device_or_fifo_at_the_named_file_is_never_renamed_over(tmp_path, monkeypatch, capsys, command):
    """`play --record /dev/null`, run as root, renamed the record over /dev/null itself, leaving a
    regular file there for the whole machine. A FIFO stands in for the device here."""
    import io
    import stat

    from generator.files import write_replacing

    fifo = tmp_path / "null"
    os.mkfifo(fifo)
    if command == "play":
        monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
        status = main(["play", "--manifest", str(MANIFEST), "--record", str(fifo), "--seed", "5"])
        said = f"county-uppy play: could not save the game record to {fifo}: it is a FIFO (named pipe), not a regular file"
    else:
        assert main(["simulate", "--manifest", str(MANIFEST), "--games", "1", "--players", "2", "--workers", "1",
                     "--record", str(tmp_path / "games")]) == 0
        status = main(["replay", "--manifest", str(MANIFEST), str(tmp_path / "games" / "game-000000.json"),
                       "--html", str(fifo)])
        said = f"{fifo}: cannot write the replay page: it is a FIFO (named pipe), not a regular file"
    assert status == 1 and said in capsys.readouterr().err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]
    with pytest.raises(OSError, match="it is a folder, not a regular file"):
        write_replacing(tmp_path, b"x")


def test_the_crash_file_writes_through_no_planted_temporary_name(tmp_path, outside, monkeypatch, capsys):
    from generator.commands import crash

    folder = tmp_path / "out"
    folder.mkdir()
    for name in (f".{crash.CRASH_FILE}.{os.getpid()}", f"{crash.CRASH_FILE}.tmp"):
        (folder / name).symlink_to(outside / "precious.txt")
    before = snapshot(outside)
    assert crash.report(RuntimeError("boom"), folder, ["build"]) == crash.STATUS
    capsys.readouterr()
    assert snapshot(outside) == before
    assert "RuntimeError: boom" in (folder / crash.CRASH_FILE).read_text()


def test_the_lock_file_is_opened_without_following_a_link(tmp_path, outside):
    out = tmp_path / "out"
    out.mkdir()
    (out / LOCK_NAME).symlink_to(outside / "precious.txt")
    before = snapshot(outside)
    lock = FolderLock(out)
    try:
        assert not (out / LOCK_NAME).is_symlink()
        assert (out / LOCK_NAME).read_text() == f"{os.getpid()}\n"
    finally:
        lock.release()
    assert snapshot(outside) == before


SWEEP = ["sweep", "--manifest", str(MANIFEST), "--no-progress", "--players", "3", "--games", "10", "--bots", "random",
         "--json"]


@pytest.mark.parametrize("planted", ["cells", "manifests", "both"])
def test_sweep_out_follows_no_symlinked_cells_or_manifests_folder(tmp_path, outside, capsys, planted):
    out = tmp_path / "sweep"
    out.mkdir()
    for name in ("cells", "manifests") if planted == "both" else (planted,):
        (out / name).symlink_to(outside, target_is_directory=True)
    before = snapshot(outside)
    assert main([*SWEEP, "--param", "target=15,16", "--out", str(out)]) == 0
    capsys.readouterr()
    assert snapshot(outside) == before, "the sweep wrote or removed files through a link"
    assert sorted(p.name for p in (out / "cells").iterdir()) == ["cell-0000.html", "cell-0001.html"]
    assert not (out / "cells").is_symlink()


def test_a_grid_over_max_cells_is_refused_with_the_games_it_would_play(capsys):
    values = ",".join(str(v) for v in range(1, 1001))
    assert main([*SWEEP, "--param", f"target={values}", "--param", "hand_size=2..11"]) == 2
    err = capsys.readouterr().err
    assert err == ("county-uppy sweep: the sweep has 10,000 cells, which would play 100,000 games "
                   "(10,000 cells x 10); at most 200 cells unless --max-cells allows more (up to 100,000)\n")


def test_max_cells_allows_a_larger_grid(capsys):
    assert main([*SWEEP, "--param", "target=14..16", "--max-cells", "2"]) == 2
    assert "the sweep has 3 cells, which would play 30 games (3 cells x 10); at most 2 cells" in capsys.readouterr().err
    assert main([*SWEEP, "--param", "target=14..16", "--max-cells", "3"]) == 0
    assert len(json.loads(capsys.readouterr().out)["cells"]) == 3


@pytest.mark.parametrize("param", ["target=16\n17", "copies.\n=2", "tar\x1bget=16", "target=16\u2028x"])
def test_a_param_with_control_characters_is_one_escaped_line(capsys, param):
    assert main([*SWEEP, "--param", param]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith("\n")
    assert "\x1b" not in err and "\u2028" not in err
    assert err.startswith("county-uppy sweep: --param ")


def test_a_long_param_is_cut_in_the_message(capsys):
    param = "target=" + "9" * 100_000
    assert main([*SWEEP, "--param", param]) == 2
    err = capsys.readouterr().err
    assert len(err) < 1000 and "(100,007 characters)" in err and "(100,002 characters)" in err


def test_a_range_of_huge_numbers_is_refused_not_a_crash(capsys):
    assert main([*SWEEP, "--param", "target=1.." + "9" * 5000]) == 2
    err = capsys.readouterr().err
    assert "takes whole numbers" in err and len(err) < 1000
