"""Small statistics for the balance report, on the standard library alone.

The report needs a handful of classical formulas (Wilson intervals, shared with `simulate`, a two-proportion
z-test, a chi-square goodness-of-fit, Mann-Whitney U with its normal approximation and
Holm's correction); they are short enough to keep here rather than pull in scipy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

# The Wilson interval is the engine's, re-exported: simulate prints the same interval for the same counts.
from generator.engine.simulate import Z95, wilson  # noqa: F401


def normal_two_sided_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


@dataclass(frozen=True)
class TestResult:
    """One hypothesis test: its name, statistic and two-sided p-value."""

    test: str
    statistic: float
    p: float


def two_proportions(k1: int, n1: int, k2: int, n2: int) -> TestResult:
    """Pooled two-proportion z-test of k1/n1 against k2/n2."""
    if n1 == 0 or n2 == 0:
        return TestResult("two-proportion z", 0.0, 1.0)
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return TestResult("two-proportion z", 0.0, 1.0)
    z = (k1 / n1 - k2 / n2) / se
    return TestResult("two-proportion z", z, normal_two_sided_p(z))


def one_proportion(k: int, n: int, p0: float) -> TestResult:
    """Score z-test of k/n against the fixed rate p0 (the test the Wilson interval inverts)."""
    if n == 0 or p0 <= 0 or p0 >= 1:
        return TestResult("one-proportion z", 0.0, 1.0)
    z = (k / n - p0) / math.sqrt(p0 * (1 - p0) / n)
    return TestResult("one-proportion z", z, normal_two_sided_p(z))


def poisson_rates(c1: int, t1: int, c2: int, t2: int) -> TestResult:
    """Compare two event rates (c events over t turns) by the conditional binomial test, z form."""
    n = c1 + c2
    if n == 0 or t1 == 0 or t2 == 0:
        return TestResult("rate z (conditional binomial)", 0.0, 1.0)
    share = t1 / (t1 + t2)
    z = (c1 - n * share) / math.sqrt(n * share * (1 - share))
    return TestResult("rate z (conditional binomial)", z, normal_two_sided_p(z))


def chi_square_uniform(counts: Sequence[int]) -> TestResult:
    """Goodness of fit of counts to equal shares (are all seats equally likely to win?)."""
    total = sum(counts)
    k = len(counts)
    if total == 0 or k < 2:
        return TestResult("chi-square uniform", 0.0, 1.0)
    expected = total / k
    stat = sum((c - expected) ** 2 / expected for c in counts)
    return TestResult("chi-square uniform", stat, chi_square_sf(stat, k - 1))


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with df degrees of freedom."""
    if x <= 0:
        return 1.0
    return _gamma_q(df / 2, x / 2)


def _gamma_q(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x): series below a+1, continued fraction above."""
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        ap = a
        for _ in range(1000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def mann_whitney(a: Sequence[float], b: Sequence[float]) -> TestResult:
    """Mann-Whitney U test (normal approximation with tie correction); statistic is U of a."""
    n1, n2 = len(a), len(b)
    if n1 == 0 or n2 == 0:
        return TestResult("Mann-Whitney U", 0.0, 1.0)
    pooled = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    n = n1 + n2
    rank_sum_a = 0.0
    tie_term = 0.0
    i = 0
    while i < n:
        j = i
        while j + 1 < n and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        rank = (i + j) / 2 + 1
        size = j - i + 1
        tie_term += size**3 - size
        rank_sum_a += rank * sum(1 for m in range(i, j + 1) if pooled[m][1] == 0)
        i = j + 1
    u = rank_sum_a - n1 * (n1 + 1) / 2
    mean = n1 * n2 / 2
    var = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1))) if n > 1 else 0.0
    if var <= 0:
        return TestResult("Mann-Whitney U", u, 1.0)
    z = (u - mean) / math.sqrt(var)
    return TestResult("Mann-Whitney U", u, normal_two_sided_p(z))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (controls the family-wise error rate), input order."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: (pvalues[i], i))
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def quantiles(values: Sequence[float], qs: Sequence[float]) -> list[float]:
    """Quantiles by linear interpolation between order statistics (numpy's default)."""
    if not values:
        return [0.0 for _ in qs]
    s = sorted(values)
    out = []
    for q in qs:
        pos = q * (len(s) - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, len(s) - 1)
        out.append(s[lo] + (s[hi] - s[lo]) * (pos - lo))
    return out
