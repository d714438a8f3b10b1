"""The reading libraries' own log lines (fontTools mending a damaged font, svglib skipping a colour
it cannot read), kept off the terminal: they came unlocated, from every worker, mid-build. What a
library cannot take, the file checks refuse at the manifest's line (art.py, font_files.py)."""

from __future__ import annotations

import logging


def quiet(library: str) -> None:
    """Give `library`'s logger a handler that drops its lines (Python's last-resort handler would
    print them on standard error)."""
    said = logging.getLogger(library)
    if not any(isinstance(h, logging.NullHandler) for h in said.handlers):
        said.addHandler(logging.NullHandler())
