"""The PDF syntax every writer of the build shares: streams, arrays, text strings, subset tags."""

from __future__ import annotations

import hashlib
import zlib

from reportlab.lib.rl_accel import escapePDF, fp_str


def stream(entries: str, data: bytes, compress: bool = True) -> bytes:
    """A stream object's body: `entries` (dictionary keys and values) plus its data, deflated."""
    if compress:
        data = zlib.compress(data)
        entries = f"/Filter /FlateDecode {entries}"
    return b"".join((f"<< {entries} /Length {len(data)} >>\nstream\n".encode("ascii"), data, b"\nendstream"))


def text_string(value: str) -> str:
    """A PDF text string: literal when ASCII, else UTF-16 with its byte-order mark."""
    if value.isascii():
        return f"({escapePDF(value)})"
    return "<" + ("\ufeff" + value).encode("utf-16-be").hex().upper() + ">"


def array(values) -> str:
    return "[ " + " ".join(fp_str(v) for v in values) + " ]"


def subset_tag(font_name: str, subset: tuple[int, ...]) -> str:
    """The six capital letters before a subset's font name (ISO 32000, 9.6.4): taken from a hash
    of the font and the glyphs the subset holds, so two subsets in one file never share a tag and
    the same subset always gets the same one."""
    digest = hashlib.sha256(f"{font_name}:{','.join(map(str, subset))}".encode("ascii")).digest()
    return "".join(chr(ord("A") + b % 26) for b in digest[:6])
