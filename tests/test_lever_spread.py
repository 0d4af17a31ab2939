"""benchmarks/lever_spread.py: the levers' true spread, read from the lever table."""

from __future__ import annotations

import pytest

from helpers import load_benchmark

lever_spread = load_benchmark("lever_spread")

TABLE = """
#### Every lever at a glance

| lever (setting) | what it does | session(s) | last figure | what became of it |
|---|---|---|---|---|
| `a=1` | A. | 1 | −0.200 [−0.396, −0.004]; 1,000 hands; seed 1 | kept |
| `b=1` | B. | 2 | +0.100 [−0.096, +0.296], pooled; 2,000 hands | off |
| `c=1` | C. | 3 | −0.37 [−0.80, +0.10], unpaired; 1,000 hands | off |
| `d=1` | D. | 4 | not played; timed only | off |

#### The next section

| `e=1` | E. | 5 | +9.0 [+8.0, +10.0] | outside the table |
"""


def test_the_paired_figures_of_the_table_are_read() -> None:
    levers = lever_spread.levers(TABLE)
    assert [lever.name for lever in levers] == ["`a=1`", "`b=1`"]
    assert levers[0].figure == pytest.approx(-0.2)
    assert levers[0].error == pytest.approx(0.1)
    assert levers[1].figure == pytest.approx(0.1)


def test_spread_beyond_the_noise() -> None:
    lever = lever_spread.Lever
    # Two figures closer than their noise: Q = 100 (0.05^2 + 0.05^2) = 0.5, below its
    # expectation of 1, so no spread.
    q, mean, tau = lever_spread.spread([lever("a", -0.05, 0.1), lever("b", 0.05, 0.1)])
    assert (q, mean, tau) == pytest.approx((0.5, 0.0, 0.0))
    # Far apart for their noise: Q = 200; tau^2 = (Q - 1) / (200 - 100^2 * 2 / 200) = 199 / 100.
    q, mean, tau = lever_spread.spread([lever("a", -1.0, 0.1), lever("b", 1.0, 0.1)])
    assert q == pytest.approx(200.0)
    assert mean == pytest.approx(0.0)
    assert tau == pytest.approx((199 / 100) ** 0.5)


def test_the_strength_document_has_a_table_to_read() -> None:
    assert len(lever_spread.levers(lever_spread.DOC.read_text(encoding="utf-8"))) >= 30
