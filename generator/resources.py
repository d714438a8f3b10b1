"""Files the package reads at run time, found the same way in a checkout and an install."""

from __future__ import annotations

from pathlib import Path


def templates_dir() -> Path:
    """templates/: the project's top-level folder in a checkout or editable install, else the
    copy a plain install ships inside the package as generator/templates."""
    for folder in (Path(__file__).resolve().parent.parent / "templates", Path(__file__).resolve().parent / "templates"):
        if (folder / "rulebook.html.j2").is_file():
            return folder
    raise FileNotFoundError("cannot find County Uppy's templates/ folder; reinstall the package (pip install -e .)")


def shipped_manifest() -> Path:
    """The shipped deck's cards.yaml: the checkout's own (beside its art/), else the copy a plain
    install ships inside the package as generator/shipped (with its art/)."""
    for folder in (Path(__file__).resolve().parent.parent, Path(__file__).resolve().parent / "shipped"):
        if (folder / "cards.yaml").is_file() and (folder / "art").is_dir():
            return folder / "cards.yaml"
    raise FileNotFoundError("cannot find County Uppy's shipped cards.yaml; reinstall the package (pip install county-uppy)")


def default_manifest() -> Path:
    """The manifest a game reads when none is named: cards.yaml in the current folder (a checkout,
    or a designer's own deck), else the shipped deck, so an install plays from any folder."""
    here = Path("cards.yaml")
    return here if here.is_file() else shipped_manifest()
