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
