"""An SVG picture's numbers read strictly, as the drawings read them (art.py checks every element).

Path data, point lists, lengths and viewBoxes follow the SVG grammar exactly: a typo (`L
garbage`, a curve short of its numbers, an arc command `arb`, `width="1x2"`) or a number that is
not finite (`inf`, `NaN`, `1e400`) is a ValueError saying where, so `validate` refuses the file
at the manifest's line rather than the drawing failing in the build (svglib for a picture,
fontTools' path reader for a one-colour icon), or drawing half a shape without a word.
"""

from __future__ import annotations

import math
import re

NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_FLAG = re.compile(r"[01]")
_GAP = re.compile(r"[\s,]*")
_SPACE = re.compile(r"\s*")
#: numbers each path command takes, by its letter (lower case: relative)
PATH_ARGS = {"m": 2, "l": 2, "h": 1, "v": 1, "c": 6, "s": 4, "q": 4, "t": 2, "a": 7, "z": 0}
#: the units a length may carry, as the pictures' drawing reads them
UNITS = ("", "px", "pt", "pc", "mm", "cm", "in", "%", "em", "ex")
_LENGTH = re.compile(r"\s*(" + NUMBER.pattern + r")\s*(px|pt|pc|mm|cm|in|%|em|ex)?\s*")
#: attributes (and style properties) that hold one length, on any element
LENGTHS = frozenset(("x", "y", "width", "height", "rx", "ry", "cx", "cy", "r", "x1", "y1", "x2", "y2", "fx", "fy",
                     "stroke-width", "stroke-dashoffset", "stroke-miterlimit", "refX", "refY",
                     "markerWidth", "markerHeight"))


def quoted(value: str, at: int = 0, most: int = 40) -> str:
    """`value` as a message quotes it: its part around position `at`, at most `most` characters."""
    start = max(0, min(at - most // 4, len(value) - most))
    part = value[start:start + most]
    part = "".join(ch if ch.isprintable() else "?" for ch in part)
    return repr(("…" if start else "") + part + ("…" if start + most < len(value) else ""))


def finite(text: str, limit: float) -> float:
    """The number `text`, which must be finite and at most `limit` either way (ValueError)."""
    value = float(text)
    if not math.isfinite(value) or abs(value) > limit:
        raise ValueError(f"the number {text[:30]} is past {limit:,.0f}")
    return value


def path_numbers(d: str, limit: float) -> int:
    """Check path data `d` against the SVG path grammar; the count of its numbers. ValueError
    naming what is wrong and where (`at` position in the words)."""
    at, count, first = _GAP.match(d, 0).end(), 0, True
    command = ""
    while at < len(d):
        letter = d[at]
        if letter.lower() in PATH_ARGS:
            command = letter
            at = _GAP.match(d, at + 1).end()
            if first and command not in "Mm":
                raise ValueError(f"path data must start with a move (M or m), not {quoted(d, at)}")
            first = False
            if command in "Zz":
                continue
        elif not command or command in "Zz":
            raise ValueError(f"path data has {quoted(d, at)} where a command letter (M, L, H, V, C, S, Q, T, A or Z) "
                             "must stand")
        # one set of the command's numbers (repeated sets repeat the command)
        for k in range(PATH_ARGS[command.lower()]):
            if command in "Aa" and k in (3, 4):
                found = _FLAG.match(d, at)
                if found is None:
                    raise ValueError(f"an arc's flags are 0 or 1: path data {quoted(d, at)}")
            else:
                found = _number_at(d, at, limit, "path data", f"the command {command} takes "
                                   f"{PATH_ARGS[command.lower()]} numbers a time")
            count += 1
            at = _GAP.match(d, found.end()).end()
    return count


def _number_at(text: str, at: int, limit: float, what: str, missing: str) -> re.Match:
    """The number standing at `at` in `text` (ValueError: `missing`, or one not finite or past `limit`)."""
    found = NUMBER.match(text, at)
    if found is None:
        raise ValueError(f"{what} {quoted(text, at)}: {missing}")
    try:
        finite(found.group(0), limit)
    except ValueError as exc:
        raise ValueError(f"{what} {quoted(text, at)}: {exc}") from None
    return found


def point_numbers(points: str, limit: float) -> int:
    """Check a polygon's or polyline's `points` (pairs of numbers); how many numbers."""
    at, count = _GAP.match(points, 0).end(), 0
    while at < len(points):
        found = _number_at(points, at, limit, "points", "not a number")
        count += 1
        at = _GAP.match(points, found.end()).end()
    if count % 2:
        raise ValueError(f"points {quoted(points)} holds an odd count of numbers ({count}); they go in x, y pairs")
    return count


def length(value: str, limit: float) -> tuple[float, str]:
    """A length (a number and a unit of UNITS): (number, unit); ValueError for anything else."""
    found = _LENGTH.fullmatch(value)
    if found is None:
        raise ValueError(f"{quoted(value)} is not a length (a number, with px, pt, pc, mm, cm, in, % or em)")
    return finite(found.group(1), limit), found.group(2) or ""


def numbers(value: str, want: int, limit: float) -> list[float]:
    """Exactly `want` numbers separated by spaces or commas (a viewBox)."""
    words = [w for w in re.split(r"[\s,]+", value.strip()) if w]
    if len(words) != want or not all(NUMBER.fullmatch(w) for w in words):
        raise ValueError(f"{quoted(value)} is not {want} numbers")
    return [finite(w, limit) for w in words]


_TRANSFORM = re.compile(r"\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)\s*,?")
_TRANSFORM_ARGS = {"matrix": (6,), "translate": (1, 2), "scale": (1, 2), "rotate": (1, 3), "skewX": (1,), "skewY": (1,)}


def transform_matrix(text: str, limit: float = 1e6) -> tuple[float, float, float, float, float, float]:
    """An SVG `transform` attribute as one matrix (a, b, c, d, e, f), applied right to left as SVG
    does: x' = a x + c y + e, y' = b x + d y + f. ValueError for what is not a transform list, or
    a number that is not finite or past `limit` (in the words or in the matrix they make)."""
    a, b, c, d, e, f = 1.0, 0.0, 0.0, 1.0, 0.0, 0.0
    at = 0
    text = text.strip()
    while at < len(text):
        found = _TRANSFORM.match(text, at)
        if found is None:
            raise ValueError(f"an SVG transform it cannot read: {quoted(text, at)}")
        name, words = found.group(1), [w for w in re.split(r"[\s,]+", found.group(2).strip()) if w]
        if len(words) not in _TRANSFORM_ARGS[name] or not all(NUMBER.fullmatch(w) for w in words):
            raise ValueError(f"an SVG transform it cannot read: {quoted(found.group(0).strip())}")
        try:
            args = [finite(w, limit) for w in words]
        except ValueError as exc:
            raise ValueError(f"an SVG transform it cannot read: {quoted(found.group(0).strip())} ({exc})") from None
        steps: list[tuple[float, ...]]
        if name == "matrix":
            steps = [tuple(args)]
        elif name == "translate":
            steps = [(1, 0, 0, 1, args[0], args[1] if len(args) > 1 else 0.0)]
        elif name == "scale":
            steps = [(args[0], 0, 0, args[1] if len(args) > 1 else args[0], 0, 0)]
        elif name == "rotate":
            cx, cy = (args[1], args[2]) if len(args) == 3 else (0.0, 0.0)
            cos, sin = math.cos(math.radians(args[0])), math.sin(math.radians(args[0]))
            steps = [(1, 0, 0, 1, cx, cy), (cos, sin, -sin, cos, 0, 0), (1, 0, 0, 1, -cx, -cy)]
        elif name == "skewX":
            steps = [(1, 0, math.tan(math.radians(args[0])), 1, 0, 0)]
        else:
            steps = [(1, math.tan(math.radians(args[0])), 0, 1, 0, 0)]
        for a2, b2, c2, d2, e2, f2 in steps:  # the current matrix times the step
            a, b, c, d, e, f = (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2,
                                a * e2 + c * f2 + e, b * e2 + d * f2 + f)
        at = found.end()
    if not all(math.isfinite(v) and abs(v) <= limit ** 2 for v in (a, b, c, d, e, f)):
        raise ValueError(f"an SVG transform it cannot draw: {quoted(text)} makes numbers past {limit ** 2:,.0f}")
    return a, b, c, d, e, f
