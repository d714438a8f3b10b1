"""The report's statistics against values worked out by hand or from standard tables."""

import math

import pytest

from generator.report import stats


def test_wilson_matches_the_textbook_interval():
    lo, hi = stats.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4)
    assert hi == pytest.approx(0.5962, abs=1e-4)
    assert stats.wilson(0, 0) == (0.0, 1.0)
    lo, hi = stats.wilson(0, 20)
    assert lo == 0.0 and 0.15 < hi < 0.17


@pytest.mark.parametrize("x, df, p", [(3.841, 1, 0.05), (7.815, 3, 0.05), (20.0, 10, 0.0293), (0.5, 2, 0.7788), (30.0, 5, 1.5e-5)])
def test_chi_square_tail(x, df, p):
    assert stats.chi_square_sf(x, df) == pytest.approx(p, rel=2e-2)


def test_chi_square_uniform_flags_a_lopsided_table_only():
    assert stats.chi_square_uniform([25, 25, 25, 25]).p == pytest.approx(1.0)
    assert stats.chi_square_uniform([40, 20, 20, 20]).p < 0.01


def test_two_proportions():
    t = stats.two_proportions(60, 100, 45, 100)
    assert t.statistic == pytest.approx(2.124, abs=1e-3)
    assert t.p == pytest.approx(0.0337, abs=1e-3)
    assert stats.two_proportions(0, 0, 1, 2).p == 1.0


def test_mann_whitney_complete_separation_and_ties():
    t = stats.mann_whitney([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
    assert t.statistic == 0 and t.p == pytest.approx(0.0090, abs=2e-4)
    assert stats.mann_whitney([3, 3, 3], [3, 3, 3]).p == 1.0


def test_holm_is_monotone_and_never_below_raw():
    raw = [0.01, 0.04, 0.03, 0.5]
    assert stats.holm(raw) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert all(a >= r for a, r in zip(stats.holm(raw), raw))


def test_poisson_rates_equal_rates_are_not_significant():
    assert stats.poisson_rates(100, 1000, 100, 1000).p == pytest.approx(1.0)
    assert stats.poisson_rates(150, 1000, 100, 1000).p < 0.01


def test_quantiles_interpolate():
    assert stats.quantiles([1, 2, 3, 4], (0.5,)) == [2.5]
    assert stats.quantiles([], (0.5,)) == [0.0]
    assert math.isclose(stats.quantiles(list(range(11)), (0.9,))[0], 9.0)
