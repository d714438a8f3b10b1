"""Chart geometry for the report: Python computes shapes, the template draws them as SVG.

Every number is formatted here with fixed decimals, so the same data always gives the same
markup. Series are told apart by colour and by fill pattern (solid vs outlined), never by
colour alone.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from generator.report.summarize import TOLERANCE, nice_width

Shape = dict[str, Any]


def f(x: float) -> str:
    return f"{x:.1f}"


def rect(x: float, y: float, w: float, h: float, cls: str, title: str = "") -> Shape:
    return {"t": "rect", "x": f(x), "y": f(y), "w": f(max(w, 0.0)), "h": f(max(h, 0.0)), "cls": cls, "title": title}


def line(x1: float, y1: float, x2: float, y2: float, cls: str) -> Shape:
    return {"t": "line", "x1": f(x1), "y1": f(y1), "x2": f(x2), "y2": f(y2), "cls": cls}


def text(x: float, y: float, s: str, cls: str = "", anchor: str = "start") -> Shape:
    return {"t": "text", "x": f(x), "y": f(y), "s": s, "cls": cls, "anchor": anchor}


def seat_chart(series: Sequence[dict[str, Any]], names: Sequence[str] = ("",)) -> dict[str, Any]:
    """Win rate per seat (or team) in order of play: bars, Wilson 95% whiskers, the fair share and its band.

    `series` are cell summaries (one, or two to compare) with the same seats.
    """
    rows = series[0]["sides"]
    fair = series[0]["fair"]
    top = max([s["high"] for c in series for s in c["sides"]] + [fair * (1 + TOLERANCE) * 1.15])
    top = min(1.0, math.ceil(top * 20) / 20)
    left, width, bar_h, gap = 170.0, 300.0, 14.0, 10.0
    group = bar_h * len(series) + gap
    height = 24 + group * len(rows) + 30
    x = lambda v: left + width * v / top  # noqa: E731
    shapes: list[Shape] = []
    y0 = 16.0
    shapes.append(rect(x(fair * (1 - TOLERANCE)), y0 - 4, x(fair * (1 + TOLERANCE)) - x(fair * (1 - TOLERANCE)),
                       group * len(rows), "band", f"fair share ±{round(TOLERANCE * 100)}%"))
    for i, side in enumerate(rows):
        gy = y0 + i * group
        shapes.append(text(left - 8, gy + bar_h * len(series) / 2 + 4, side["label"], "label", "end"))
        for k, cell in enumerate(series):
            s = cell["sides"][i]
            by = gy + k * bar_h
            tip = f"{names[k]} {s['label']}: {100 * s['rate']:.1f}% (95% CI {100 * s['low']:.1f}–{100 * s['high']:.1f}%)".strip()
            shapes.append(rect(left, by + 1, x(s["rate"]) - left, bar_h - 3, f"bar s{k}", tip))
            mid = by + bar_h / 2 - 0.5
            shapes.append(line(x(s["low"]), mid, x(s["high"]), mid, "whisker"))
            shapes.append(line(x(s["low"]), mid - 4, x(s["low"]), mid + 4, "whisker"))
            shapes.append(line(x(s["high"]), mid - 4, x(s["high"]), mid + 4, "whisker"))
            shapes.append(text(x(s["high"]) + 4, mid + 4, f"{100 * s['rate']:.1f}%", "value"))
    base = y0 + group * len(rows)
    shapes.append(line(x(fair), y0 - 6, x(fair), base, "fair"))
    shapes.append(line(left, base, left + width, base, "axis"))
    step = 0.05 if top <= 0.5 else 0.1
    v = 0.0
    while v <= top + 1e-9:
        shapes.append(line(x(v), base, x(v), base + 4, "axis"))
        shapes.append(text(x(v), base + 16, f"{round(v * 100)}%", "tick", "middle"))
        v = round(v + step, 10)
    shapes.append(text(x(fair), y0 - 8, f"fair {100 * fair:.1f}%", "tick", "middle"))
    return {"width": f(left + width + 60), "height": f(height), "shapes": shapes,
            "title": "Win rate by seat in order of play, with 95% intervals"}


def length_chart(series: Sequence[Sequence[int]], names: Sequence[str] = ("",)) -> dict[str, Any]:
    """Histogram of game length in turns (share of games per bin), one or two series on shared bins."""
    values = [t for s in series for t in s]
    left, width, plot_h = 46.0, 400.0, 140.0
    if not values:
        return {"width": f(left + width + 20), "height": "40", "shapes": [text(left, 20, "no finished games", "label")],
                "title": "Game length"}
    lo, hi = min(values), max(values)
    bw = nice_width((hi - lo) / 24 if hi > lo else 1)
    start = math.floor(lo / bw) * bw
    nbins = int((hi - start) // bw) + 1
    shares = []
    for s in series:
        counts = [0] * nbins
        for t in s:
            counts[int((t - start) // bw)] += 1
        shares.append([c / len(s) if s else 0.0 for c in counts])
    top = max(max(sh) for sh in shares) or 1.0
    top = math.ceil(top * 20) / 20
    y0 = 10.0
    base = y0 + plot_h
    col = width / nbins
    shapes: list[Shape] = []
    for k, sh in enumerate(shares):
        for b, v in enumerate(sh):
            if v <= 0:
                continue
            h = plot_h * v / top
            tip = f"{names[k]} {start + b * bw}–{start + (b + 1) * bw - 1} turns: {100 * v:.1f}% of games".strip()
            inset = 1.0 if k == 0 else 3.0
            shapes.append(rect(left + b * col + inset, base - h, col - 2 * inset, h, f"hist s{k}", tip))
    shapes.append(line(left, base, left + width, base, "axis"))
    shapes.append(line(left, y0, left, base, "axis"))
    for frac in (0.0, 0.5, 1.0):
        yy = base - plot_h * frac
        shapes.append(line(left - 4, yy, left, yy, "axis"))
        shapes.append(text(left - 6, yy + 4, f"{round(top * frac * 100)}%", "tick", "end"))
    every = max(1, math.ceil(nbins / 8))
    for b in range(0, nbins + 1, every):
        xx = left + b * col
        shapes.append(line(xx, base, xx, base + 4, "axis"))
        shapes.append(text(xx, base + 16, str(start + b * bw), "tick", "middle"))
    shapes.append(text(left + width / 2, base + 32, "turns per game", "tick", "middle"))
    return {"width": f(left + width + 20), "height": f(base + 40), "shapes": shapes,
            "title": "Game length: share of games by number of turns"}
