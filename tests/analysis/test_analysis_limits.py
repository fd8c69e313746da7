"""The analyzer's limits: large inputs finish (polynomial in the panel size) or are refused
early with an estimate; bad priors are a PriorError, never another exception."""

from __future__ import annotations

import copy
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from test_analysis_cli import _run, _write
from test_analysis_space import _condition, _dims, _template, too_many_named_dimensions

from kernel.analysis import (
    AnalysisTooLarge,
    PriorError,
    analyze,
    analyze_diff,
    parse_prior,
    prior_from_json,
    probabilities,
    sensitivity,
)
from kernel.analysis.budget import MAX_CELLS, MAX_STEPS, Budget
from kernel.analysis.probability import Prior
from kernel.contract import load_contract
from kernel.errors import KernelError


def _full(panel_size: int) -> dict[str, Any]:
    return _template(panel_size=panel_size)


@pytest.mark.parametrize("n", [1, 2, 7, 100, 200])
def test_large_panels_are_exact(n: int) -> None:
    # Regression (issue 12): panel 100 took 9 s and panel 200 over 30 s; now the 'all'
    # condition F0 costs two states, not n + 1. Closed forms per reviewer column:
    # F1 (any mandatory block) misses 2**3 * 3**2 = 72 columns; F0 needs a column with every
    # mandatory dimension pass and D4 not block (2 * 3 = 6 columns).
    budget = Budget()
    a = analyze(_full(n), budget=budget)
    assert a.space == 3 ** (5 * n) == sum(o.matrices for o in a.outcomes)
    assert a.outcome("F1").matrices == 3 ** (5 * n) - 72**n
    assert a.outcome("F0").matrices == 6**n
    assert a.monotone and budget.used <= MAX_STEPS


@pytest.mark.parametrize("n", [2**53 - 1, 10**6, MAX_CELLS // 5 + 1])
def test_huge_panels_are_refused_at_once(n: int) -> None:
    for attempt in (
        lambda b: analyze(_full(n), budget=b),
        lambda b: analyze_diff(_full(n), _full(n), budget=b),
        lambda b: probabilities(_full(n), parse_prior("pass=1"), budget=b),
    ):
        budget = Budget()
        with pytest.raises(AnalysisTooLarge, match="score cells: the number of matrices has"):
            attempt(budget)
        assert budget.used == 0


def test_a_panel_too_large_for_the_budget_is_refused_early_with_the_estimate() -> None:
    # 1,500 reviewers: F2 is a majority condition (751 values); refused after a few layers.
    budget = Budget()
    with pytest.raises(AnalysisTooLarge, match=r"so about [\d,]+ more steps") as info:
        analyze(_full(1500), budget=budget)
    assert "1500 reviewers" in info.value.message
    assert budget.used < MAX_STEPS // 10


def thirteen_named_dimensions() -> dict[str, Any]:
    # Regression (issue 12): 13 dimensions, each named by id, took 24 s.
    dims = _dims(*["normal"] * 13)
    conditions = [
        _condition(
            f"F{i}", 50, f"D{i} scores 'block' AND D{i % 13 + 1} scores 'warn'", "any", "reject"
        )
        for i in range(1, 14)
    ] + [_condition("F0", 10, "every normal-priority dimension scores 'pass'", "all", "accept")]
    return _template(acceptance_dimensions=dims, failure_conditions=conditions)  # fmt: skip


@pytest.mark.parametrize("data", [thirteen_named_dimensions(), too_many_named_dimensions()])
def test_many_named_dimensions_are_refused_before_enumerating(data: dict[str, Any]) -> None:
    budget = Budget()
    with pytest.raises(AnalysisTooLarge, match="classes of reviewer columns"):
        analyze(data, budget=budget)
    assert budget.used == 0


def test_the_budget_refuses_every_phase() -> None:
    seen = set()
    for limit in (100, 1_000, 10_000, 50_000):
        with pytest.raises(AnalysisTooLarge) as info:
            analyze(_full(40), budget=Budget(limit=limit))
        assert f"at most {limit:,} steps" in info.value.message
        seen.add(info.value.message.split(":")[0])
    assert len(seen) >= 2  # refused in different phases
    analyze(_full(40), budget=Budget(limit=MAX_STEPS))


def test_sensitivity_is_linear_in_the_matrix() -> None:
    # Each single-score change re-evaluates one column, not the whole matrix: a 1 MiB matrix
    # (30,000 reviewers) is explained, not hung on.
    n = 30_000
    matrix = {f"D{i}": ["pass"] * n for i in range(1, 6)}
    matrix["D2"][7] = "warn"
    s = sensitivity(_full(n), matrix)
    assert s.action == "editorial_decision=accept" and s.condition_id is None  # R5 fallback
    # Any block of a mandatory dimension rejects; warning a second mandatory dimension of
    # reviewer 7 does not (F2 needs a majority); D4 block of any reviewer fires F3; reviewer
    # 7's D2 back to pass fires F0, whose action is the fallback's: no flip.
    assert len(s.flips) == 3 * n + n


@given(st.text(max_size=60))
@example("pass=1/0")
@example("pass=0/0,warn=1")
@example("pass=" + "1" * 5000)
@example("pass=0." + "0" * 4400 + "1")
@example("pass=" + "9" * 4301 + "/" + "9" * 4302)
def test_parse_prior_raises_only_prior_errors(text: str) -> None:
    try:
        prior = parse_prior(text)
    except PriorError as exc:
        assert exc.message and len(exc.message) < 300
    else:
        assert prior.default is not None and sum(prior.default) == 1


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["pass", "warn", "block", "D1", "*", "x"]), inner,
                      max_size=3),
    max_leaves=8,
)  # fmt: skip


@given(json_values)
@example({"pass": "1/0"})
@example({"pass": 10**5000})
@example({"*": {"pass": "1/0"}})
@example({"pass": 1e308, "warn": -1e308})
def test_prior_from_json_raises_only_prior_errors(data: Any) -> None:
    try:
        prior = prior_from_json(data)
    except PriorError as exc:
        assert exc.message
    else:
        assert all(sum(d) == 1 for d in [prior.default, *prior.dimensions.values()] if d)


@pytest.mark.parametrize(
    "value",
    [{"pass": 1}, {"pass": "1"}, 1, None, b"pass=1", ["pass=1"]],
)
def test_parse_prior_given_no_text(value: Any) -> None:
    # Regression (issue 12): a mapping raised AttributeError.
    with pytest.raises(PriorError, match="expected text"):
        parse_prior(value)


@pytest.mark.parametrize(
    "prior",
    [
        Prior(default=(1.0, 0.0, 0.0)),  # type: ignore[arg-type]
        Prior(default=(Fraction(2), Fraction(-1), Fraction(0))),
        Prior(default=(Fraction(1, 2), Fraction(1, 2))),  # type: ignore[arg-type]
        Prior(dimensions={1: (Fraction(1), Fraction(0), Fraction(0))}),  # type: ignore[dict-item]
        Prior(default=(Fraction(1, 2**20000), 1 - Fraction(1, 2**20000), Fraction(0))),
        "pass=1",
    ],
)
def test_hand_built_priors_are_checked(prior: Any) -> None:
    with pytest.raises(PriorError):
        probabilities("reviewer/full", prior)


def test_a_prior_too_precise_for_the_panel_is_refused() -> None:
    # 5 dimensions x 100 reviewers x 30 bits: the exact answer would not print.
    q = 3**19
    prior = parse_prior(f"pass=1/{q},warn={q - 1}/{q}")
    probabilities(_full(3), prior)
    with pytest.raises(PriorError, match="denominator of about"):
        probabilities(_full(100), prior)


@pytest.mark.parametrize(
    "argv",
    [
        ["--prior", "pass=1/0"],
        ["--prior", "pass=" + "1" * 5000],
        ["--prior", "warn=0/0,pass=1"],
    ],
)
def test_cli_priors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(["reviewer/full", *argv], capsys)
    assert code == 2 and "Traceback" not in err and "--prior" in err


@pytest.mark.parametrize(
    "prior", [{"pass": "1/0"}, {"*": {"pass": "0/0"}}, {"pass": "1" * 5000}, [1, 2]]
)
def test_cli_prior_files_exit_2(
    prior: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, prior, "prior.json")
    code, _, err = _run(["reviewer/full", "--prior-file", path], capsys)
    assert code == 2 and "Traceback" not in err and err


def test_cli_huge_integer_in_a_prior_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "prior.json"
    path.write_text('{"pass": 1' + "0" * 5000 + "}", encoding="utf-8")
    code, _, err = _run(["reviewer/full", "--prior-file", str(path)], capsys)
    assert code == 2 and "Traceback" not in err


@pytest.mark.parametrize("n", [2**53 - 1, 1500])
def test_cli_refuses_large_panels_with_exit_1(
    n: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, _full(n))
    for argv in ([path], [path, "--diff", path]):
        code, out, err = _run(argv, capsys)
        assert code == 1 and err == "" and ("steps" in out or "cells" in out)
    code, out, err = _run([path, "--format", "html"], capsys)  # no page: the reason, on stderr
    assert code == 1 and out == "" and ("steps" in err or "cells" in err)


def test_budget_message_names_the_estimate() -> None:
    b = Budget(limit=100)
    b.charge(60, "first")
    with pytest.raises(KernelError, match="second: about 50 more steps \\(after 60\\)"):
        b.charge(50, "second")
    assert b.used == 60 and math.isfinite(b.remaining)
    assert json.dumps(copy.deepcopy({"ok": b.remaining})) == '{"ok": 40}'


def test_the_monotonicity_pass_reports_progress_every_4096_states() -> None:
    from types import SimpleNamespace

    from kernel.analysis.monotone import find_violation

    states = list(range(10_000))
    layers = SimpleNamespace(
        bits=(), best=[states], cost=lambda reviewers, state: 0, nonzero=lambda state: 0
    )
    calls: list[tuple[str, float]] = []
    found = find_violation(
        SimpleNamespace(worsenings=()),  # type: ignore[arg-type]
        layers,  # type: ignore[arg-type]
        {},
        1,
        lambda stage, done: calls.append((stage, done)),
    )
    assert found is None
    assert calls == [("monotonicity", d / 10_000) for d in (0, 4096, 8192)]


def test_the_diff_charges_its_decisions_before_making_them() -> None:
    contract = load_contract("reviewer/full")
    full = Budget()
    analyze_diff(contract, contract, budget=full)
    # The last step charged is the decisions: one step less refuses exactly those.
    with pytest.raises(AnalysisTooLarge, match=r"^deciding the count vectors twice: about 576 "):
        analyze_diff(contract, contract, budget=Budget(limit=full.used - 1))


def test_deciding_costs_conditions_plus_8_twice_per_count_vector() -> None:
    contract = load_contract("reviewer/full")  # 4 conditions, 18 count vectors
    full = Budget()
    analyze(contract, budget=full)
    # The monotonicity pass (18 vectors x 15 worsenings x 3 steps) comes after the decisions.
    with pytest.raises(AnalysisTooLarge, match=r"^deciding the count vectors: about 432 "):
        analyze(contract, budget=Budget(limit=full.used - 810 - 1))
