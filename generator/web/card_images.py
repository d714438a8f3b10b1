"""The build's card images as the web table shows them, read and checked as the build checks a picture.

The table reads the images of its game's cards when the game begins (`snapshot`), so a rebuild
mid-game changes none of them, and shows each one scaled to the page's width (`scaled`). The
output folder is the designer's and may hold anything by the time a table reads it, so each file
is checked before it is kept, the way the build checks a picture it is given (a file, then its
format, then its size in pixels, all before any pixel is decoded):
- a regular file of at most MAX_BYTES (not a FIFO, a device or a link out of the folder),
- a PNG (the build writes its card images as PNG) whose structure and checksums hold,
- at most MAX_SIDE pixels on a side and MAX_PIXELS in all (the build's are 825 × 1125).
A file that fails is left out: that card is shown by its name and value, as with no build. A
picture whose pixels cannot be decoded after all is left out when it is first shown.
"""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path

from generator.deck.input_file import Unread, read_regular

#: The largest card image file read (the build's are a few hundred KiB).
MAX_BYTES = 8 << 20
#: Pixels on a side, and in all, of a card image the table shows.
MAX_SIDE = 4000
MAX_PIXELS = 12_000_000
#: The largest cards/index.json read.
MAX_INDEX_BYTES = 4 << 20
_PNG = b"\x89PNG\r\n\x1a\n"


def snapshot(folder: Path, codes: tuple[str, ...]) -> dict[str, bytes]:
    """The checked card images of `codes` in the build's `folder` (output/cards), by code.

    Which file holds which card is the build's cards/index.json (`+1` is plus_1.png); only
    plain file names inside `folder` are read."""
    try:
        index = json.loads(read_regular(folder / "index.json", MAX_INDEX_BYTES))["cards"]
    except (Unread, ValueError, KeyError, TypeError, RecursionError):
        return {}
    found = {}
    for code in codes:
        entry = index.get(code) if isinstance(index, dict) else None
        name = entry.get("file") if isinstance(entry, dict) else None
        if not isinstance(name, str) or "/" in name or "\\" in name or name.startswith(".") or not name.endswith(".png"):
            continue
        path = folder / name
        try:
            if path.resolve().parent != folder.resolve():
                continue
            data = read_regular(path, MAX_BYTES)
        except (Unread, OSError):
            continue
        if usable(data):
            found[code] = data
    return found


def usable(data: bytes) -> bool:
    """Whether `data` is a whole PNG within the limits above (its pixels are not decoded)."""
    if not data.startswith(_PNG):
        return False
    from PIL import Image  # lazy: only when a table reads a build

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Pillow's DecompressionBombWarning: the limits here decide
        try:
            with Image.open(io.BytesIO(data), formats=["PNG"]) as im:
                w, h = im.size
                if not (0 < w <= MAX_SIDE and 0 < h <= MAX_SIDE and w * h <= MAX_PIXELS):
                    return False
                im.verify()  # chunk checksums and structure
        except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
            return False
    return True


def scaled(data: bytes, width: int) -> bytes | None:
    """A usable card image scaled to `width` pixels wide, as PNG; None if its pixels do not decode."""
    from PIL import Image  # lazy: only when a card is first shown

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with Image.open(io.BytesIO(data), formats=["PNG"]) as im:
                im = im.convert("RGB")
                im.thumbnail((width, width * 2))
                buf = io.BytesIO()
                im.save(buf, "PNG", optimize=False)
        except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
            return None
    return buf.getvalue()
