"""The picture check's verdicts (render/assets/art.py: inspect), kept in the user's cache folder
(user_cache.py, area `pictures`) by each file's content, so that a new process checking a
manifest whose pictures it checked before (a rebuild after a card's text changed, `validate` of
an edited manifest) reads no picture's XML or pixels again: no lxml, no Pillow.

Only a picture that passed is kept: its kind and size, under the SHA-256 of its bytes and of
what decides the verdict (art.py and the modules beside it, and the versions of lxml and Pillow,
which read the files). A file that fails is checked again each time, and says why.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from generator import user_cache

AREA = "pictures"
NEWEST = 512  #: verdicts kept


def recall(paths: list[Path]) -> dict[Path, str]:
    """Have art.py take the verdicts kept for these picture files; return path -> the SHA-256 of
    the bytes read now, for the files it had none for (to keep() once checked). A file that
    cannot be read is left to the check, which says why."""
    from generator.products.render.assets import art  # lazy: as the check that asks

    unknown: dict[Path, str] = {}
    for path in paths:
        try:
            sha = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        except OSError:
            continue
        if art.known_info(sha) is not None:
            continue
        kept = user_cache.read(AREA, _name(sha))
        info = _info(kept) if kept is not None else None
        if info is None:
            unknown[path] = sha
        else:
            art.remember_info(sha, info)
    return unknown


def keep(checked: dict[Path, str]) -> None:
    """Keep the verdicts of the files checked now that passed (path -> the SHA-256 recall read)."""
    from generator.products.render.assets import art  # lazy: as recall

    for sha in dict.fromkeys(checked.values()):
        info = art.known_info(sha)
        if info is not None:
            user_cache.keep(AREA, _name(sha), json.dumps([info.kind, info.width_px, info.height_px]).encode("ascii"),
                            NEWEST)


def _name(sha: str) -> str:
    return f"{sha}-{_program()}.json"


_PROGRAM: list[str] = []


def _program() -> str:
    """What decides a verdict: the code of render/assets/ and the versions of lxml and Pillow."""
    if not _PROGRAM:
        from generator.products.pipeline.keys import code_version  # lazy: as recall
        from generator.products.render.assets import art  # lazy: as recall

        _PROGRAM.append(code_version(folder=Path(art.__file__).resolve().parent, libraries=("lxml", "pillow")))
    return _PROGRAM[0]


def _info(data: bytes):
    """The kept verdict as art.PictureInfo (None: not one this version wrote)."""
    from generator.products.render.assets.art import KINDS, PictureInfo  # lazy: as recall

    try:
        kind, width, height = json.loads(data)
    except (ValueError, TypeError):
        return None
    if kind not in KINDS or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v <= 1e6
                                    for v in (width, height)):  # a size art.py accepts (no inf, no NaN)
        return None
    return PictureInfo(kind, width, height)
