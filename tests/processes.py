"""Looking at a test's child processes from /proc (Linux), to know when workers have started."""

from __future__ import annotations

import os
from pathlib import Path


def children(pid: int) -> list[int]:
    """The process ids whose parent is `pid`."""
    kids = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                text = Path(f"/proc/{name}/stat").read_text()
            except OSError:
                continue
            if int(text.rpartition(")")[2].split()[1]) == pid:  # the field after the command's name
                kids.append(int(name))
    return kids
